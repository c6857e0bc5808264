"""`lossy bench`, the arithmetic: the order of the runs, their spread, the ratios taken
pair by pair, and how long a run must be.

Why pairs: on a shared machine the speed of every process drifts with what else runs.
Running the sides of a comparison back to back (lossy, anchor, lossy, anchor, ...) and
taking the ratio within each pair cancels most of that drift; the spread of those
per-pair ratios (min/median/max) says how much is left. Sides measured in separate
blocks, as `lossy bench` did before issue 28, gave 41×, 67× and 61× for the same row.
"""

from __future__ import annotations

import math
import os
import statistics
from typing import Dict, List, Optional, Sequence, Tuple

# Each process's event loop runs at least this long (CPU seconds): start-up, scheduling
# and timer noise are then a small part of what is measured (issue 28).
TARGET_LOOP_S = 1.0
# The calibrated size aims this much above the target, so a run that comes in a little
# faster than its calibration run still reaches it.
MARGIN = 1.3
# At most this many times the row's base size: a run that is too fast even then says so.
MAX_FACTOR = 10_000


def round_order(sides: Sequence[str], pairs: int) -> List[Tuple[int, str]]:
    """(pair index, side) in the order they run: every side once per pair, this build
    first, pair after pair (A, B, A, B, ...), never one side's runs in a block."""
    return [(i, side) for i in range(pairs) for side in sides]


def spread(values: Sequence[float]) -> Dict[str, float]:
    """min, median and max of the values (the median of an even count is the mean of the
    middle two)."""
    if not values:
        raise ValueError("spread of no values")
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def pair_ratios(numerators: Sequence[float], denominators: Sequence[float]) -> List[float]:
    """The ratio within each pair: numerators[i] / denominators[i]."""
    if len(numerators) != len(denominators):
        raise ValueError(f"{len(numerators)} against {len(denominators)} samples: not pairs")
    return [a / b for a, b in zip(numerators, denominators)]


def scaled_size(base: float, loop_s: Optional[float], target_s: float = TARGET_LOOP_S) -> float:
    """The size (simulated seconds, or megabytes for a transfer that ends when done) that
    makes a run's loop last `target_s`, from one calibration run of size `base` whose loop
    took `loop_s`: `base` when that already reaches the target, else base × MARGIN ×
    target / loop_s (at most MAX_FACTOR × base), rounded up to two significant digits.
    Both simulators run steady-state bulk transfers, so the cost grows linearly with
    the size (except ns-3 at 100 Mbps: see bench_cases)."""
    if loop_s is not None and loop_s >= target_s:
        return base
    factor = MAX_FACTOR if not loop_s or loop_s <= 0 else min(MAX_FACTOR, MARGIN * target_s / loop_s)
    return _round_up(base * factor, 2)


def _round_up(x: float, digits: int) -> float:
    step = 10 ** (math.floor(math.log10(x)) - digits + 1)
    return float(math.ceil(x / step - 1e-9) * step)


def machine_load() -> Optional[float]:
    """The 1-minute load average (runnable processes), or None where there is none."""
    try:
        return os.getloadavg()[0]
    except (OSError, AttributeError):
        return None
