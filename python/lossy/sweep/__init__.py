"""Sweeps: many runs of a scenario over a grid of parameters, stored and resumable.

    >>> import lossy
    >>> s = lossy.sweep("experiments/reno-vs-eln.toml")
    >>> s.summary()                                   # mean, 95 % CI, n per point
    >>> s.paired("goodput", "scheme", baseline="reno")

A spec (TOML file or the same dict) names a base scenario, a [grid] of dotted paths, a
[zip] of lists that move together, [variants.<axis>] that set several fields at once,
replications and a master seed; see spec.py. Results go to `results/<name>/`, run rows
written in batches of Parquet parts, per-flow tables beside them (store.py), so a killed
sweep resumes where it stopped.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Union

from .._core import ScenarioError

# Even the spec reader loads when a sweep is made, not with `import lossy` (which
# imports this package): `lossy run` and `lossy --help` start faster without it.
# pandas, pyarrow, scipy and rich come later still, when a sweep runs.
if TYPE_CHECKING:
    from concurrent.futures import Executor

    from .spec import SpecSource, SweepSpec, load_spec

    import pandas as pd

    from .runner import Report

__all__ = ["Sweep", "SweepSpec", "load_spec", "open_sweep", "sweep"]

def __getattr__(name: str) -> Any:
    if name in ("SweepSpec", "load_spec"):  # exported, loaded on first use
        from . import spec

        return getattr(spec, name)
    raise AttributeError(f"module 'lossy.sweep' has no attribute {name!r}")


MAX_REPLICATIONS = 50  # --until-ci stops adding replications here unless told otherwise

# Summary columns that are not metrics of the simulation (identity, or the machine's speed).
_NOT_METRICS = frozenset({"replication", "seed", "wall_s", "cpu_s", "events_per_s", "sim_s_per_wall_s"})


class Sweep:
    """A sweep's spec and its store. `results()` reads the runs stored for this spec;
    `report` says what the call that made it did (None when only opened)."""

    def __init__(self, spec: SweepSpec, path: Path, report: "Optional[Report]" = None) -> None:
        self.spec = spec
        self.path = path
        self.report = report

    @property
    def axes(self) -> List[str]:
        """The spec's axes (grid, zip and variant names): the columns that tell points apart."""
        return self.spec.axis_names

    @property
    def metrics(self) -> List[str]:
        """The spec's metric aliases ([metrics]), e.g. goodput."""
        return list(self.spec.metrics)

    def results(self) -> "pd.DataFrame":
        """Every stored run of this spec's points, ok and failed, one row each."""
        from .frames import results_frame
        from .store import Store

        return results_frame(self.spec, Store(self.path).scan())  # read only: no lock kept

    def flows(self, section: str = "flows") -> "pd.DataFrame":
        """The long table of this spec's runs: one row per flow (typed columns from the
        core), with the run's run_id, point, axes and replication. `section="links"`
        gives one row per link instead."""
        from .frames import flows_frame
        from .store import SECTIONS, Store

        if section not in SECTIONS:
            raise ScenarioError(f"section: {section!r} is not stored; use one of {', '.join(SECTIONS)}")
        return flows_frame(self.spec, Store(self.path).scan(), section)

    def summary(self, metrics: Optional[Sequence[str]] = None) -> "pd.DataFrame":
        """Per point and metric: n, mean, sd and the 95 % Student-t interval, over ok runs.
        Metrics default to the spec's aliases, else every numeric summary column."""
        from ..summary import summarize

        df = self.results()
        return summarize(df, self.axes, list(metrics) if metrics else default_metrics(df, self.spec))

    def paired(self, metric: str, variant_axis: str, baseline: str) -> "pd.DataFrame":
        """Per point: the mean difference of `metric` between each variant and `baseline`
        at equal replications (the same random channel), with its 95 % CI."""
        from ..summary import paired

        return paired(self.results(), metric, variant_axis, baseline, self.axes)

    def __repr__(self) -> str:
        return f"<Sweep {self.spec.name!r} points={len(self.spec.points)} path={str(self.path)!r}>"


def sweep(
    spec: Union[SpecSource, SweepSpec],
    out: Union[None, str, "os.PathLike[str]"] = None,
    executor: Union[None, str, Executor] = None,
    workers: Optional[int] = None,
    retry_failed: bool = False,
    until_ci: Optional[float] = None,
    max_replications: int = MAX_REPLICATIONS,
    progress: bool = True,
    *,
    scheduler: Optional[str] = None,
    quick: bool = False,
    ci_metrics: Optional[Sequence[str]] = None,
) -> Sweep:
    """Run what the store lacks of a sweep and return it.

    `spec` is a TOML file, a dict, or a loaded SweepSpec. Results go to `out`, else
    `results/<name>/` (`results/<name>-quick/` with `quick`, which lays the spec's
    [quick] table over it). `executor` is "local" (every core; the default), "dask"
    (`scheduler` = its address, or a local Dask cluster), or any
    concurrent.futures.Executor. Failed runs are stored with their error and run again
    only with `retry_failed`. `until_ci=0.05` adds replications until every point's
    95 % CI half-width is within 5 % of its mean for `ci_metrics` (default: the spec's
    metric aliases), up to `max_replications`. Ctrl-C raises SweepInterrupted after
    storing every finished run (waiting at most a second for runs in flight, which the
    next call runs again); a second Ctrl-C stops the waiting.
    """
    from .executors import make_executor
    from .runner import SweepProgress, check_until_ci, run_sweep
    from .store import Store

    bar = SweepProgress(enabled=progress, name=str(getattr(spec, "name", "")) or "")
    try:
        from .spec import SweepSpec, load_spec

        loaded = spec if isinstance(spec, SweepSpec) else load_spec(spec, quick=quick, progress=bar.planning)
        bar.name = loaded.name
        check_until_ci(loaded, until_ci, ci_metrics, max_replications)
        path = results_dir(loaded, out)
        # The executor first: a bad choice or an unreachable scheduler leaves no store behind.
        with make_executor(executor, workers, scheduler) as pool, Store(path) as store:
            store.write_meta(loaded.to_json())
            report = run_sweep(loaded, store, pool, retry_failed=retry_failed, until_ci=until_ci,
                               ci_metrics=ci_metrics, max_replications=max_replications,
                               progress=progress, bar=bar)
    finally:
        bar.stop()
    return Sweep(loaded, path, report)


def open_sweep(spec: Union[SpecSource, SweepSpec], out: Union[None, str, "os.PathLike[str]"] = None,
               quick: bool = False) -> Sweep:
    """A sweep's stored results without running anything (for `lossy results SPEC`)."""
    from .spec import SweepSpec, load_spec

    loaded = spec if isinstance(spec, SweepSpec) else load_spec(spec, quick=quick)
    return Sweep(loaded, results_dir(loaded, out))


def results_dir(spec: SweepSpec, out: Union[None, str, "os.PathLike[str]"]) -> Path:
    if out is not None:
        return Path(out)
    return Path("results") / (f"{spec.name}-quick" if spec.quick else spec.name)


def default_metrics(df: "pd.DataFrame", spec: Optional[SweepSpec] = None, aliases: Sequence[str] = ()) -> List[str]:
    """The metric aliases when there are any, else every numeric column of the core's
    summary (flows, links, agents and packets_delivered), not the axes or wall clock."""
    import pandas as pd

    named = list(spec.metrics) if spec is not None else list(aliases)
    if named:
        return named
    axes = set(spec.axis_names) if spec is not None else set()
    return [c for c in df.columns
            if c not in axes and c not in _NOT_METRICS and c.rsplit(".", 1)[-1] not in _NOT_METRICS
            and (c.startswith(("flows.", "links.", "agents.")) or c == "packets_delivered")
            and pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])]
