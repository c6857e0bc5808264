"""Fairness between flows: Jain's index (Jain, Chiu and Hawe 1984), over a run and per
interval of the throughput trace.

The run summary's `jain_index` is the index over the flows' goodputs for the whole run
(computed in the core, `crates/lossy-core/src/aggregate.rs`). `interval_rates` gives
each flow's rate in every interval of the throughput trace and the index per interval,
for rates over time (Botoș Figs. 5 and 6); `RunResult.fairness()` is the same for a run.

    >>> r = lossy.run("scenarios/two-rtts.toml", traces=["throughput"])
    >>> r.summary["jain_index"]                   # whole run
    >>> r.fairness()                              # time_s, short-rtt, long-rtt, jain
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, List, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__all__ = ["interval_rates", "jain"]

FlowRef = Union[str, int]


def jain(rates: npt.ArrayLike) -> float:
    """Jain's index (Σx)² / (n·Σx²) of the rates: 1 when all are equal, 1/n when one
    gets everything. All zero counts as fair (1.0), as in the core's summary (every share
    is equal, and 1 is the limit as equal rates tend to zero); NaN for no rates."""
    x = np.asarray(rates, dtype=float)
    if x.size == 0:
        return math.nan
    sq = float(np.sum(x * x))
    if sq == 0.0:
        return 1.0
    return float(np.sum(x)) ** 2 / (x.size * sq)


def interval_rates(trace: Mapping[str, Any], names: Sequence[str],
                   flows: Optional[Sequence[FlowRef]] = None) -> Any:
    """Each flow's rate per interval and Jain's index over them, from a throughput trace
    (`time_s`, `flow`, `bps` columns: the goodput of each flow over each
    `traces.throughput_interval`, recorded at the interval's end). `names` are the
    flows' names in flow order. `flows` picks and orders the flows (names or indices;
    default all). Returns a pandas DataFrame: `time_s` (end of the interval), one
    column of bit/s per flow, named by the flow, and `jain` over those flows. A flow
    that has not started counts with rate 0 (pick the flows to leave it out)."""
    import pandas as pd

    picked = _pick(flows, names)
    time = np.asarray(trace["time_s"], dtype=float)
    flow = np.asarray(trace["flow"], dtype=np.int64)
    bps = np.asarray(trace["bps"], dtype=float)
    times = np.unique(time)
    out = pd.DataFrame({"time_s": times})
    # Every sample time holds one row per flow; a flow missing at a time is NaN.
    row = np.searchsorted(times, time)
    for i in picked:
        column = np.full(times.size, np.nan)
        mine = flow == i
        column[row[mine]] = bps[mine]
        out[names[i]] = column
    rates = out[[names[i] for i in picked]].to_numpy(dtype=float)
    out["jain"] = [jain(r) for r in rates]
    return out


def _pick(flows: Optional[Sequence[FlowRef]], names: Sequence[str]) -> List[int]:
    if flows is None:
        return list(range(len(names)))
    if isinstance(flows, (str, int)):
        flows = [flows]
    picked = []
    for f in flows:
        if isinstance(f, (int, np.integer)) and not isinstance(f, bool) and 0 <= f < len(names):
            picked.append(int(f))
        elif isinstance(f, str) and f in names:
            picked.append(list(names).index(f))
        else:
            known = ", ".join(names) or "none"
            raise ValueError(f"flows: {f!r} is not a flow of the run; use a name ({known}) "
                             f"or an index from 0 to {len(names) - 1}")
    return picked
