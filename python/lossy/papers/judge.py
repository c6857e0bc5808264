"""The one place a verdict is decided: each part's 95 % CI against its band.

A claim measures one or more parts (a point of a sweep, a flow, a scheme), each an
Estimate. A part is *reproduced* when its whole CI lies inside the band, *not
reproduced* when it lies wholly outside, *inconclusive* when it straddles an end (or has
no CI: one replication). The claim is not reproduced when any part is, reproduced when
every part is and none the full run measures is missing here, else inconclusive. A
quick run that lacks some of the full run's parts can therefore be inconclusive or not
reproduced, never reproduced where the full run would not be.

A claim of several parts holds them together ("at every p"), so its 95 % is for all
parts at once: each part's interval is widened to the Bonferroni level 1 − 0.05/k for k
parts with an interval (its t quantile instead of the 97.5 % one). Without it, a claim
of 14 parts at 95 % each would see one miss by chance about half the time, and a quick
run would contradict the full one on noise alone.

For an inconclusive part, the replications that would decide it: the half-width shrinks
as 1/√n, and it decides once it is below the mean's distance to the nearest band end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

from scipy.special import stdtrit

from ..summary import LEVEL
from .bands import Band, fmt
from .estimate import Estimate
from .verdict import State, Verdict


@dataclass(frozen=True)
class Part:
    """One measured part of a claim: its label, its estimate and, where the claim holds
    its parts to different bands, its own band."""

    label: str
    estimate: Estimate
    band: Optional[Band] = None


@dataclass(frozen=True)
class Measurement:
    """What a claim measured: its parts, the labels of parts the full run measures that
    this run does not (a quick run's smaller grid), and a note for the reader."""

    parts: Sequence[Part]
    missing: Sequence[str] = field(default_factory=tuple)
    note: str = ""


def part_state(e: Estimate, band: Band) -> State:
    if math.isnan(e.value):
        return State.UNCHECKED
    if e.n == 0:  # exact: the value alone decides
        return State.REPRODUCED if band.low <= e.value <= band.high else State.NOT_REPRODUCED
    if not e.has_ci:
        return State.INCONCLUSIVE
    if band.low <= e.low and e.high <= band.high:
        return State.REPRODUCED
    if e.high < band.low or e.low > band.high:
        return State.NOT_REPRODUCED
    return State.INCONCLUSIVE


def replications_to_decide(e: Estimate, band: Band) -> Optional[int]:
    """Replications after which a CI of today's spread would lie wholly inside or wholly
    outside the band; None when no number would (the mean sits on an end, or no CI)."""
    if not e.has_ci or e.n < 2:
        return None
    distance = min(abs(e.value - band.low), abs(e.value - band.high))
    if distance == 0 or e.half_width == 0:
        return None
    return max(e.n + 1, math.ceil(e.n * (e.half_width / distance) ** 2))


def simultaneous(parts: Sequence[Part]) -> List[Part]:
    """The parts with their t intervals widened so that all hold at once at 95 %
    (Bonferroni over the parts that have an interval; see the module's docstring)."""
    k = sum(1 for p in parts if p.estimate.has_ci and p.estimate.n >= 2)
    if k <= 1:
        return list(parts)
    out = []
    for p in parts:
        e = p.estimate
        if not (e.has_ci and e.n >= 2):
            out.append(p)
            continue
        factor = float(stdtrit(e.n - 1, 1 - (1 - LEVEL) / (2 * k))) / float(stdtrit(e.n - 1, 0.5 + LEVEL / 2))
        half = e.half_width * factor
        out.append(Part(p.label, Estimate(e.value, e.value - half, e.value + half, e.n), p.band))
    return out


def judge(measurement: Measurement, band: Band, unit: Optional[str] = None) -> Verdict:
    """The claim's verdict from its parts (see the module's docstring)."""
    unit = band.unit if unit is None else unit
    parts = simultaneous(measurement.parts)
    if not parts:
        return Verdict.unchecked("the claim measured nothing")
    judged = [(p, p.band or band, part_state(p.estimate, p.band or band)) for p in parts]
    unchecked = [p.label for p, _, s in judged if s is State.UNCHECKED]
    if unchecked:
        return Verdict.unchecked(f"no value at {', '.join(unchecked)}")
    rows: List[Dict[str, Any]] = [
        {"label": p.label, "value": p.estimate.value, "ci_low": p.estimate.low, "ci_high": p.estimate.high,
         "n": p.estimate.n, "band": b.text(), "distance": b.distance(p.estimate.value), "state": s.value} for p, b, s in judged]
    outside = [(p, b) for p, b, s in judged if s is State.NOT_REPRODUCED]
    straddling = [(p, b) for p, b, s in judged if s is State.INCONCLUSIVE]
    ours = _ours(parts, unit)
    band_text = band.text()
    if outside:
        p, b = max(outside, key=lambda pb: pb[1].distance(pb[0].estimate.value))
        state, reason = State.NOT_REPRODUCED, (
            f"{_where(p)}{p.estimate.text(b.unit)} lies wholly outside {b.text()}"
            + (f" ({len(outside)} of {len(parts)} parts outside)" if len(parts) > 1 else ""))
    elif straddling or measurement.missing:
        state = State.INCONCLUSIVE
        why = []
        if straddling:
            p, b = straddling[0]
            why.append(f"{_where(p)}{p.estimate.text(b.unit)} straddles {b.text()}"
                       + (f" ({len(straddling)} of {len(parts)} parts straddle)" if len(parts) > 1 else ""))
        if measurement.missing:
            why.append(f"not measured in this run: {', '.join(measurement.missing)}")
        reason = "; ".join(why)
    else:
        state = State.REPRODUCED
        reason = (f"every part's CI inside {band_text} (95 % for all {len(parts)} at once)" if len(parts) > 1
                  else f"the 95 % CI lies inside {band_text}")
    needed = None
    if state is State.INCONCLUSIVE and straddling:
        counts = [replications_to_decide(p.estimate, b) for p, b in straddling]
        needed = None if any(c is None for c in counts) else max(c for c in counts if c is not None)
        reason += (f"; about {needed} replications would decide it (--until-ci)" if needed
                   else "; a mean on the band's end: no number of replications decides it")
    if len(parts) > 1 and state is not State.REPRODUCED:
        reason += f"; each interval is 95 % for all {len(parts)} parts at once"
    if measurement.note:
        reason += f" ({measurement.note})"
    return Verdict(state, ours, reason, band=band_text, parts=rows, needed=needed)


def _where(p: Part) -> str:
    return f"at {p.label}: " if p.label else ""


def _ours(parts: List[Part], unit: str) -> str:
    if len(parts) == 1:
        return parts[0].estimate.text(unit)
    if any(p.band is not None for p in parts):  # parts in their own units: one by one
        return "; ".join(f"{p.label}: {fmt(p.estimate.value, p.band.unit if p.band else unit)}" for p in parts)
    values = [p.estimate.value for p in parts]
    lo, hi = min(values), max(values)
    return (f"{fmt(lo, unit)} to {fmt(hi, unit)} over {len(parts)} parts" if lo != hi
            else f"{fmt(lo, unit)} at all {len(parts)} parts")


__all__ = ["Measurement", "Part", "judge", "part_state", "replications_to_decide"]
