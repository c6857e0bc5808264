"""A quick run may end inconclusive; it must never contradict the full run.

Every reproduction runs twice on a reduced grid — the last value of each axis of its
quick grid (the largest loss, where the papers' effects are largest), variants whole —
once at quick scale (its [quick] replications and durations) and once at full scale
(the full replications and durations at the same point), and every claim's quick
verdict must be the full one or "inconclusive". A sweep whose quick version differs
from the full one only by its grid runs once: at the reduced point both are the same
runs. The grid is reduced so the full scale fits in the test suite; the points a quick
run lacks against the full grid are the judge's job (a missing part is never
"reproduced"), held in test_claims_protocol.py. Figures are not drawn: only claims.
"""

from __future__ import annotations

import copy
import dataclasses
import shutil
from pathlib import Path
from typing import Any, Dict, List, Sequence

import pytest

import lossy.papers
from lossy.papers.model import Reproduction, SweepPlan
from lossy.papers.run import reproduce
from lossy.papers.verdict import State
from lossy.sweep.spec import load_spec


def _values(axis: Any) -> List[Any] | None:
    if isinstance(axis, list):
        return axis
    if isinstance(axis, dict) and isinstance(axis.get("values"), list):
        return list(axis["values"])
    return None


def _with_values(axis: Any, values: List[Any]) -> Any:
    return values if isinstance(axis, list) else {**axis, "values": values}


def _last(n: int) -> List[int]:
    return [n - 1]


def reduced(plan: SweepPlan) -> SweepPlan:
    """`plan` with its full and quick grids both cut to the last value of each axis of
    the quick grid (zipped axes cut row-wise); variants are kept whole."""
    spec: Dict[str, Any] = copy.deepcopy(plan.spec)
    quick: Dict[str, Any] = spec.setdefault("quick", {})
    for table in ("grid", "zip"):
        merged = {**spec.get(table, {}), **quick.get(table, {})}
        if not merged:
            continue
        lengths = {len(v) for v in map(_values, merged.values()) if v is not None}
        cut: Dict[str, Any] = {}
        for name, axis in merged.items():
            values = _values(axis)
            if values is None:
                cut[name] = axis
                continue
            rows = _last(len(values)) if table == "grid" else _last(min(lengths))
            cut[name] = _with_values(axis, [values[i] for i in rows])
        spec[table] = cut
        quick[table] = copy.deepcopy(cut)
    return dataclasses.replace(plan, spec=spec)


def reduced_reproduction(r: Reproduction) -> Reproduction:
    return dataclasses.replace(r, sweeps=[reduced(p) for p in r.sweeps], figures=[])


def same_at_both_scales(plan: SweepPlan) -> bool:
    """Whether the quick and full versions of `plan` are the same runs."""
    quick, full = load_spec(plan.spec, quick=True), load_spec(plan.spec, quick=False)
    return (quick.replications, quick.seed, quick.fixed, repr(quick.points)) == \
        (full.replications, full.seed, full.fixed, repr(full.points))


def contradictions(quick: Sequence[Any], full: Sequence[Any]) -> List[str]:
    """The claims whose quick verdict is neither the full one nor inconclusive."""
    out = []
    for (c, q), (_, f) in zip(quick, full):
        if q.state is State.UNCHECKED or f.state is State.UNCHECKED:
            continue  # a claim the reduced grid cannot measure: held at full grid by the site's run
        if q.state not in (f.state, State.INCONCLUSIVE):
            out.append(f"{c.key}: quick {q.state.value} ({q.ours}) but full {f.state.value} ({f.ours})")
    return out


# Their full scale costs 1–3 minutes each even at one point (100 replications of 80 s
# WLAN runs, 10 of 200 s per-bit fading, Botoș's Fig. 1 loss sequences of 4·10⁶ packets
# ...; modern-cc's channels and WLAN sweeps are 1,300 runs of 60 s with no grid to cut):
# `make test-scale` runs them, `make test` the validation's, which fits its budget.
AT_SCALE = {"botos-fectcp", "cellular-bufferbloat", "chen-syndrome", "chockalingam-ll-fec-arq", "miyoshi-adaptive-fec",
            "modern-cc", "pantheon-emulators",
            "shagdar-ewln"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.scale) if n in AT_SCALE else n
                                  for n in lossy.papers.names()])
def test_quick_is_the_full_verdict_or_inconclusive(name: str, tmp_path: Path) -> None:
    if lossy.papers.get(name).measurement:
        pytest.skip(f"{name} is a measurement: no claims, so no verdict a quick run could contradict")
    r = reduced_reproduction(lossy.papers.get(name))
    quick = reproduce(r, tmp_path / "quick", quick=True, progress=False)
    # Sweeps that are the same runs at both scales: the full run reads the quick store.
    for plan in r.sweeps:
        if same_at_both_scales(plan):
            (tmp_path / "full").mkdir(exist_ok=True)
            shutil.copytree(tmp_path / "quick" / f"{plan.key}-quick", tmp_path / "full" / plan.key)
    full = reproduce(r, tmp_path / "full", quick=False, progress=False)
    assert not quick.ctx.errors and not full.ctx.errors, (quick.ctx.errors, full.ctx.errors)
    measured = sum(v.checked for _, v in full.verdicts)
    assert measured, f"{name}: no claim could be measured on the reduced grid"
    assert not contradictions(quick.verdicts, full.verdicts), contradictions(quick.verdicts, full.verdicts)


def test_reduction_keeps_the_last_value_of_each_quick_axis() -> None:
    plan = SweepPlan("s", "s", {"grid": {"p": {"path": "x", "values": [1, 2, 3, 4]}},
                                "zip": {"a": [1, 2, 3], "b": {"path": "y", "values": [4, 5, 6]}},
                                "quick": {"grid": {"p": {"path": "x", "values": [1, 3]}}}})
    spec = reduced(plan).spec
    assert spec["grid"]["p"]["values"] == [3] == spec["quick"]["grid"]["p"]["values"]
    assert spec["zip"]["a"] == [3] and spec["zip"]["b"]["values"] == [6]
