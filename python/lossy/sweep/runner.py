"""Running a sweep: submit the runs the store lacks, store each as it completes.

The main thread only submits, waits in short slices (so Ctrl-C lands at once) and
writes rows; the runs themselves go to the executor. Ctrl-C cancels what has not
started, lets the running runs finish and stores them (a second Ctrl-C stops waiting),
and raises SweepInterrupted with the report of what was done.
"""

from __future__ import annotations

import math
import queue
import sys
import time
from concurrent.futures import (FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor,
                                ThreadPoolExecutor, wait)
from dataclasses import dataclass, field
from typing import Set, TYPE_CHECKING, Any, Dict, List, Optional, Sequence

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

from .._core import ScenarioError
from .spec import Run, SweepSpec, run_id
from .store import Store, git_commit, to_frame
from .worker import STORED_KEY, TRACES_KEY, execute

if TYPE_CHECKING:
    import pandas as pd

PROGRESS_AFTER_S = 2.0  # a sweep shorter than this finishes without a progress bar
WAIT_SLICE_S = 0.2


@dataclass
class Report:
    """What one call did, for the closing table."""

    name: str
    path: str
    planned: int = 0  # runs the sweep consists of (after any --until-ci rounds)
    stored_before: int = 0  # of those, already stored ok (skipped)
    ok: int = 0  # run now, status ok
    failed: int = 0  # run now, status failed
    failed_kept: int = 0  # stored failed and not retried (no --retry-failed)
    redone: List[str] = field(default_factory=list)  # unreadable files removed and run again
    lost: List[str] = field(default_factory=list)  # runs the executor lost (not stored)
    not_run: int = 0  # cancelled or left running by an interruption
    rounds: int = 0
    ci_unmet: List[str] = field(default_factory=list)  # points short of the CI target
    wall_s: float = 0.0
    interrupted: bool = False
    errors: Dict[str, str] = field(default_factory=dict)  # point -> first error message


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep: every finished run is stored; `report` says how far it got."""

    def __init__(self, report: Report, abandoned: int) -> None:
        super().__init__("interrupted")
        self.report = report
        self.abandoned = abandoned  # runs still inside a worker when we gave up waiting


@dataclass
class _Progress:
    """A rich progress bar on stderr that appears only once the sweep has run for
    PROGRESS_AFTER_S, so quick sweeps and tests stay quiet."""

    enabled: bool
    name: str
    t0: float = field(default_factory=time.monotonic)
    bar: Optional[Progress] = None
    task: Any = None

    def update(self, total: int, done: int, failed: int) -> None:
        if self.bar is None and self.enabled and time.monotonic() - self.t0 >= PROGRESS_AFTER_S:
            self.bar = Progress(
                TextColumn(f"sweep {self.name}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("[red]{task.fields[failed]} failed"), TimeElapsedColumn(),
                TextColumn("ETA"), TimeRemainingColumn(),
                console=Console(stderr=True), transient=False, get_time=time.monotonic,
            )
            self.bar.start()
            self.task = self.bar.add_task("runs", total=total, completed=done, failed=failed)
            self.bar.tasks[-1].start_time = self.t0  # elapsed counts from the sweep's start
        if self.bar is not None:
            self.bar.update(self.task, total=total, completed=done, failed=failed)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def run_sweep(
    spec: SweepSpec,
    store: Store,
    executor: Executor,
    retry_failed: bool = False,
    until_ci: Optional[float] = None,
    ci_metrics: Optional[Sequence[str]] = None,
    max_replications: int = 50,
    progress: bool = True,
) -> Report:
    """Run every run of `spec` the store lacks (and, with until_ci, more replications
    until each point's 95 % CI half-width is within until_ci·|mean|)."""
    report = Report(name=spec.name, path=str(store.root), redone=list(store.removed))
    metrics = check_until_ci(spec, until_ci, ci_metrics, max_replications)
    bar = _Progress(enabled=progress, name=spec.name)
    t0 = time.monotonic()
    targets = {p.id: spec.replications for p in spec.points}
    attempted: set[str] = set()  # run this call: never twice, even with --retry-failed
    counted: set[str] = set()
    try:
        while True:
            report.rounds += 1
            runs = spec.runs(targets)
            todo = []
            for run in runs:
                stored = store.index.get(run.run_id)
                status = stored.status if stored else None
                if run.run_id not in counted:
                    counted.add(run.run_id)
                    report.planned += 1
                    if status == "ok":
                        report.stored_before += 1
                    elif status == "failed" and not retry_failed:
                        report.failed_kept += 1
                if run.run_id not in attempted and (status is None or (status == "failed" and retry_failed)):
                    todo.append(run)
            if report.rounds > 1 and not todo:
                break  # nothing new to run (e.g. runs the executor lost stay lost)
            attempted.update(r.run_id for r in todo)
            _execute(todo, spec, store, executor, report, bar)
            if until_ci is None:
                break
            targets, report.ci_unmet = _next_targets(spec, store, targets, metrics, until_ci,
                                                     max_replications)
            if not any(targets[p] > _have(spec, store, p) for p in targets):
                break
    except KeyboardInterrupt as e:
        report.interrupted = True
        report.wall_s = time.monotonic() - t0
        bar.stop()
        abandoned = getattr(e, "abandoned", 0)
        raise SweepInterrupted(report, abandoned) from None
    finally:
        bar.stop()
    report.wall_s = time.monotonic() - t0
    return report


def _execute(todo: List[Run], spec: SweepSpec, store: Store, executor: Executor,
             report: Report, bar: _Progress) -> None:
    commit = git_commit()
    # Local pools share our file system: their workers write the runs they finish.
    shared = str(store.root) if isinstance(executor, (ProcessPoolExecutor, ThreadPoolExecutor)) else None
    pending: Dict[Future[Dict[str, Any]], Run] = {}
    # Done futures arrive on a queue (O(1) each); wait() on thousands of futures would
    # cost O(pending) per completion.
    finished: "queue.SimpleQueue[Future[Dict[str, Any]]]" = queue.SimpleQueue()
    total = report.planned
    submitted = 0
    aliases = _AliasCheck(spec, store, len({run.point.id for run in todo}))

    def progress() -> None:
        done = report.stored_before + report.ok + report.failed + report.failed_kept
        bar.update(total, done, report.failed + report.failed_kept)

    def collect(futures: Any) -> None:
        for fut in futures:
            run = pending.pop(fut)
            if fut.cancelled():
                continue
            try:
                row = fut.result()
            except Exception as e:  # the executor lost it (a worker died): not stored
                report.lost.append(f"{run.point.id} replication {run.replication}: {type(e).__name__}: {e}")
                continue
            traces = row.pop(TRACES_KEY, None)
            if row.pop(STORED_KEY, False):
                store.record(row)
            else:
                store.write(row, traces)
            if row["status"] == "ok":
                report.ok += 1
            else:
                report.failed += 1
                report.errors.setdefault(run.point.id, str(row["error"]))
            if row["status"] == "ok":
                aliases.check(row, run.point.id)

    try:
        for run in todo:
            meta = {"run_id": run.run_id, "point": run.point.id, "coords": run.point.coords,
                    "metrics": spec.metrics, "traces": spec.traces, "git_commit": commit,
                    "scenario_hash": run.point.scenario_hash, "store": shared}
            fut = executor.submit(execute, run.point.scenario, run.seed, run.replication, meta)
            pending[fut] = run
            submitted += 1
            fut.add_done_callback(finished.put)
        while pending:
            collect(_next_done(finished, pending))
            progress()
    except KeyboardInterrupt:
        cancelled = _cancel(pending)
        abandoned = _drain(pending, collect, bar)
        report.not_run = cancelled + abandoned + (len(todo) - submitted)
        e = KeyboardInterrupt()
        e.abandoned = abandoned  # type: ignore[attr-defined]
        raise e from None
    except BaseException:
        _cancel(pending)  # e.g. a bad metric alias: run nothing more
        raise


def _cancel(pending: Dict[Future[Dict[str, Any]], Run]) -> int:
    """Cancel every run that has not started; return how many."""
    cancelled = [fut for fut in pending if fut.cancel()]
    for fut in cancelled:
        pending.pop(fut)
    return len(cancelled)


def _next_done(finished: "queue.SimpleQueue[Future[Dict[str, Any]]]",
               pending: Dict[Future[Dict[str, Any]], Run]) -> List[Future[Dict[str, Any]]]:
    """The futures done so far (waiting at most WAIT_SLICE_S for the first), still pending."""
    out = []
    try:
        out.append(finished.get(timeout=WAIT_SLICE_S))
        while True:
            out.append(finished.get_nowait())
    except queue.Empty:
        pass
    return [f for f in out if f in pending]


def _drain(pending: Dict[Future[Dict[str, Any]], Run], collect: Any, bar: _Progress) -> int:
    """After Ctrl-C and _cancel: store the runs that finish; a second Ctrl-C stops
    waiting. Returns how many runs were still running when we stopped."""
    bar.stop()
    if pending:
        sys.stderr.write(f"lossy: interrupted; finishing {len(pending)} running run(s) "
                         "(Ctrl-C again to stop now)\n")
        sys.stderr.flush()
    try:
        while pending:
            # Few are left, so wait() on them directly: a done future that the interrupt
            # took out of the queue before it was collected is found all the same.
            done, _ = wait(list(pending), timeout=WAIT_SLICE_S, return_when=FIRST_COMPLETED)
            collect(done)
    except KeyboardInterrupt:
        pass
    abandoned = len(pending)
    pending.clear()
    return abandoned


class _AliasCheck:
    """Spots a metric alias that names no summary key. An alias may exist in some points
    only (`agents.0.eln_marked` has no value where a variant removes the agent), so it is
    a mistake only once the first ok run of every point lacks it; runs come replication
    by replication, so that is known early."""

    def __init__(self, spec: SweepSpec, store: Store, n_points: int) -> None:
        self.spec, self.store, self.n_points = spec, store, n_points
        self.found: Set[str] = set()
        self.missing_at: Dict[str, Set[str]] = {}

    def check(self, row: Dict[str, Any], point: str) -> None:
        missing = row["missing_metrics"] if "missing_metrics" in row else [
            a for a, key in self.spec.metrics.items() if key not in row]
        self.found.update(a for a in self.spec.metrics if a not in missing)
        for alias in missing:
            if alias in self.found:
                continue
            points = self.missing_at.setdefault(alias, set())
            points.add(point)
            if len(points) >= self.n_points:
                self._fail(alias, row)

    def _fail(self, alias: str, row: Dict[str, Any]) -> None:
        import difflib

        key = self.spec.metrics[alias]
        columns = self.store.read([str(row["run_id"])])[0].column_names
        near = difflib.get_close_matches(key, [k for k in columns if "." in k], n=3)
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise ScenarioError(f"metrics.{alias}: the runs have no summary key {key!r}{hint}")


# --- --until-ci ------------------------------------------------------------------------


def check_until_ci(spec: SweepSpec, until_ci: Optional[float], chosen: Optional[Sequence[str]],
                   max_replications: int) -> List[str]:
    """The metrics --until-ci watches; ScenarioError for a target or maximum that cannot work."""
    if until_ci is None:
        return []
    if max_replications < spec.replications:
        raise ScenarioError(f"--max-replications: {max_replications} is below the spec's "
                            f"replications ({spec.replications})")
    if not (0 < until_ci < 1):
        raise ScenarioError(f"--until-ci: {until_ci!r} is not a fraction of the mean; use e.g. 5% or 0.05")
    metrics = list(chosen or spec.metrics)
    if not metrics:
        raise ScenarioError("--until-ci needs a metric: add a [metrics] table to the spec "
                            "(e.g. goodput = \"flows.0.goodput_bps\") or name one")
    return metrics


def _have(spec: SweepSpec, store: Store, point_id: str) -> int:
    """How many replications 0..k-1 of a point are stored (ok or failed)."""
    point = next(p for p in spec.points if p.id == point_id)
    k = 0
    while run_id(point.scenario, spec.seed, k) in store.index:
        k += 1
    return k


def _next_targets(spec: SweepSpec, store: Store, targets: Dict[str, int], metrics: List[str],
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


def results_frame(spec: SweepSpec, store: Store) -> "pd.DataFrame":
    """This spec's runs in the store (every stored replication of its points, ok and
    failed), labelled with the spec's point ids and axes and with metric aliases
    recomputed from the spec (so fixing an alias needs no re-run)."""
    import pandas as pd

    by_hash = {p.scenario_hash: p for p in spec.points}
    mine = [rid for rid, r in store.index.items() if r.scenario_hash in by_hash and r.seed == spec.seed]
    frame = to_frame(store.read(mine))
    if frame.empty:
        return pd.DataFrame(columns=["run_id", "point", *spec.axis_names, "replication", "seed",
                                     "status", "error", *spec.metrics])
    points = [by_hash[h] for h in frame["scenario_hash"]]
    frame["point"] = [p.id for p in points]
    for axis in spec.axis_names:
        frame[axis] = [p.coords[axis] for p in points]
    for alias, key in spec.metrics.items():
        frame[alias] = frame[key] if key in frame.columns else float("nan")
    order = {p.id: i for i, p in enumerate(spec.points)}
    frame["_order"] = frame["point"].map(order)
    frame = frame.sort_values(["_order", "replication"], kind="stable").drop(columns="_order")
    return frame.reset_index(drop=True)
