"""--until-ci: which metrics to watch (checked before any run), and how many more
replications each point needs for its 95 % CI to reach the target."""

from __future__ import annotations

import copy
import json
import math
from typing import Any, Dict, List, Optional, Sequence, Set

from .. import _core
from .._core import ScenarioError
from ..result import flatten_result
from ..scenario import to_json_text
from .frames import results_frame
from .spec import MAX_REPLICATIONS, MAX_RUNS, SweepSpec
from .store import Store


def check_until_ci(spec: SweepSpec, until_ci: Optional[float], chosen: Optional[Sequence[str]],
                   max_replications: int) -> List[str]:
    """The metrics --until-ci watches; ScenarioError for a target or maximum that cannot work."""
    if until_ci is None:
        return []
    if max_replications < spec.replications:
        raise ScenarioError(f"--max-replications: {max_replications} is below the spec's "
                            f"replications ({spec.replications}); use {spec.replications} to {MAX_REPLICATIONS:,}")
    if not (0 < until_ci < 1):
        raise ScenarioError(f"--until-ci: {until_ci!r} is not a fraction of the mean; use e.g. 5% or 0.05")
    if max_replications > MAX_REPLICATIONS:
        raise ScenarioError(f"--max-replications: {max_replications:,} is more than {MAX_REPLICATIONS:,}; "
                            f"use {spec.replications} to {MAX_REPLICATIONS:,}")
    if max_replications * len(spec.points) > MAX_RUNS:
        raise ScenarioError(f"--max-replications: {max_replications:,} replications of {len(spec.points):,} "
                            f"points is more than {MAX_RUNS:,} runs; ask for fewer")
    metrics = list(chosen or spec.metrics)
    if not metrics:
        raise ScenarioError("--until-ci needs a metric: add a [metrics] table to the spec "
                            "(e.g. goodput = \"flows.0.goodput_bps\") or name one")
    check_metric_names(spec, metrics)
    return metrics


def check_metric_names(spec: SweepSpec, metrics: Sequence[str]) -> None:
    """Each metric must be an alias of the spec or a summary key of its runs, known
    before any run. The keys come from a 1 ns run of a point through the core (a run
    has the same summary keys whatever its length; 0 s is refused), trying further
    points (one per structure: numbers aside) only while a name is still unknown, since
    keys such as agents.0.* exist only in the points that have the agent."""
    unknown = [m for m in metrics if m not in spec.metrics and m not in spec.axis_names]
    seen: Set[str] = set()
    keys: Set[str] = set()
    for point in spec.points:
        if not unknown:
            return
        shape = _structure(point.scenario)
        if point.error or shape in seen:
            continue
        seen.add(shape)
        probe = copy.deepcopy(point.scenario)
        probe["duration"] = "1 ns"
        try:
            keys.update(flatten_result(_core.run(to_json_text(probe), seed=spec.seed, replication=0, warn=False)))
        except ScenarioError:
            continue
        unknown = [m for m in unknown if m not in keys]
    if unknown:
        m = unknown[0]
        aliases = ", ".join(spec.metrics) or "none"
        raise ScenarioError(f"--metric {m}: not a metric alias of the spec ({aliases}) nor a summary "
                            f"key of its runs{near(m, keys)}")


def _structure(doc: Any) -> str:
    """The scenario with every number set to 0: points that differ only in numbers have
    the same summary keys."""
    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items()}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return 0 if isinstance(v, (int, float)) and not isinstance(v, bool) else v
    return json.dumps(strip(doc), sort_keys=True, default=str)


def have(spec: SweepSpec, store: Store, point_id: str) -> int:
    """How many replications 0..k-1 of a point are stored (ok or failed)."""
    point = next(p for p in spec.points if p.id == point_id)
    k = 0
    while point.run_id(spec.seed, k) in store.index:
        k += 1
    return k


def next_targets(spec: SweepSpec, store: Store, targets: Dict[str, int], metrics: List[str],
                  until_ci: float, max_reps: int) -> "tuple[Dict[str, int], List[str]]":
    """New replication counts per point: a point whose CI is too wide gets about as many
    as its current spread says it needs (at most double, at most max_reps). A point with
    a failed run gets no more: another replication would fail the same way."""
    from ..summary import summarize  # scipy: imported only for --until-ci

    frame = results_frame(spec, store)
    unmet: List[str] = []
    new = dict(targets)
    if frame.empty:
        return new, unmet
    failed_points = set(frame.loc[frame["status"] != "ok", "point"])
    summary = summarize(frame, ["point"], metrics)
    for point_id, group in summary.groupby("point"):
        pid = str(point_id)
        n = int(group["n"].min())
        ratios = []
        for _, row in group.iterrows():
            bound = until_ci * abs(row["mean"])
            half = row["half_width"]
            if not (half <= bound):  # NaN (n < 2) is not met either
                ratios.append(math.inf if bound == 0 or math.isnan(half) else (half / bound) ** 2)
        if not ratios:
            continue
        unmet.append(pid)
        if pid in failed_points or targets[pid] >= max_reps:
            continue
        need = math.ceil(n * max(ratios)) if math.isfinite(max(ratios)) else 2 * n
        new[pid] = min(max_reps, max(targets[pid] + 1, min(2 * max(n, 1), need)))
    return new, unmet


def near(key: str, columns: Any) -> str:
    import difflib

    near = difflib.get_close_matches(key, [k for k in columns if "." in k or "_" in k], n=3)
    return f"; did you mean {', '.join(near)}?" if near else ""
