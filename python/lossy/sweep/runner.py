"""Running a sweep: submit the runs the store lacks, store each as it completes.

The main thread only submits (runs in chunks, a bounded number in flight), waits in
short slices (so Ctrl-C is seen at once) and hands rows to the store, which writes them
in batches; the runs themselves go to the executor. Ctrl-C (interrupt.py) stops
scheduling, cancels what has not started, stores the runs that finish within GRACE_S
(a second Ctrl-C stops waiting) and raises SweepInterrupted with the report of what was
done; runs still in flight are not stored, and the next sweep runs them.
"""

from __future__ import annotations

import math
import queue
import sys
import time
from concurrent.futures import (FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor,
                                ThreadPoolExecutor, wait)
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Set

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

from .._core import ScenarioError
from .spec import Run, SweepSpec
from .store import Store, git_commit
from .frames import results_frame
from .interrupt import GRACE_S, CtrlC
from .until_ci import check_until_ci, have, near, next_targets
from .worker import SECTIONS_KEY, TRACE_FILES_KEY, TRACES_KEY, PointJob, execute_chunk

__all__ = ["Report", "SweepInterrupted", "SweepProgress", "check_until_ci", "results_frame", "run_sweep"]

PROGRESS_AFTER_S = 1.0  # a sweep shorter than this finishes without a progress bar
PLAIN_EVERY_S = 10.0  # between two progress lines when stderr is not a terminal
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
    redone: List[str] = field(default_factory=list)  # unreadable files set aside; their runs run again
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
class SweepProgress:
    """A rich progress bar on stderr that appears only once the sweep has run for
    PROGRESS_AFTER_S, so quick sweeps and tests stay quiet. Planning (expanding a big
    grid, listing a million runs) reports through it too."""

    enabled: bool
    name: str
    t0: float = field(default_factory=time.monotonic)
    bar: Optional[Progress] = None
    task: Any = None
    last_plain: float = -math.inf

    def planning(self, done: int, total: int) -> None:
        self._show(f"planning sweep {self.name}", total, done, 0)

    def update(self, total: int, done: int, failed: int) -> None:
        self._show(f"sweep {self.name}", total, done, failed)

    def _show(self, what: str, total: int, done: int, failed: int) -> None:
        if self.enabled and not sys.stderr.isatty():
            self._plain(what, total, done, failed)
            return
        if self.bar is None and self.enabled and time.monotonic() - self.t0 >= PROGRESS_AFTER_S:
            self.bar = Progress(
                TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                TextColumn("[red]{task.fields[failed]} failed"), TimeElapsedColumn(),
                TextColumn("ETA"), TimeRemainingColumn(),
                console=Console(stderr=True), transient=False, get_time=time.monotonic,
            )
            self.bar.start()
            self.task = self.bar.add_task(what, total=total, completed=done, failed=failed)
            self.bar.tasks[-1].start_time = self.t0  # elapsed counts from the sweep's start
        if self.bar is not None:
            self.bar.update(self.task, description=what, total=total, completed=done, failed=failed)

    def _plain(self, what: str, total: int, done: int, failed: int) -> None:
        """Into a log file or a pipe, where a live bar would show only at the end: a line
        after the first second, then one every PLAIN_EVERY_S."""
        now = time.monotonic()
        if now - self.t0 < PROGRESS_AFTER_S or now - self.last_plain < PLAIN_EVERY_S:
            return
        self.last_plain = now
        share = f" ({done / total:.0%})" if total else ""
        sys.stderr.write(f"lossy: {what}: {done:,} of {total:,}{share}, {failed:,} failed, "
                         f"{now - self.t0:.0f} s\n")
        sys.stderr.flush()

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
    bar: Optional[SweepProgress] = None,
) -> Report:
    """Run every run of `spec` the store lacks (and, with until_ci, more replications
    until each point's 95 % CI half-width is within until_ci·|mean|)."""
    report = Report(name=spec.name, path=str(store.root), redone=list(store.removed))
    metrics = check_until_ci(spec, until_ci, ci_metrics, max_replications)
    bar = bar or SweepProgress(enabled=progress, name=spec.name)
    t0 = time.monotonic()
    targets = {p.id: spec.replications for p in spec.points}
    attempted: set[str] = set()  # run this call: never twice, even with --retry-failed
    counted: set[str] = set()
    ctrl_c = CtrlC()
    try:
        ctrl_c.__enter__()
        while True:
            report.rounds += 1
            runs = spec.runs(targets, tick=bar.planning)
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
            _execute(todo, spec, store, executor, report, bar, ctrl_c)
            if until_ci is None:
                break
            targets, report.ci_unmet = next_targets(spec, store, targets, metrics, until_ci,
                                                     max_replications)
            if not any(targets[p] > have(spec, store, p) for p in targets):
                break
    except KeyboardInterrupt as e:
        report.interrupted = True
        report.wall_s = time.monotonic() - t0
        bar.stop()
        abandoned = getattr(e, "abandoned", 0)
        raise SweepInterrupted(report, abandoned) from None
    finally:
        ctrl_c.__exit__()
        bar.stop()
    report.wall_s = time.monotonic() - t0
    return report


def _execute(todo: List[Run], spec: SweepSpec, store: Store, executor: Executor,
             report: Report, bar: SweepProgress, ctrl_c: Optional[CtrlC] = None) -> None:
    """Run `todo` in chunks, a bounded number in flight, and store each row as it comes."""
    jobs = _point_jobs(todo, spec, store, executor)
    pending: Dict[Future[Any], List[Run]] = {}
    # Done futures arrive on a queue (O(1) each); wait() on many futures would cost
    # O(pending) per completion.
    finished: "queue.SimpleQueue[Future[Any]]" = queue.SimpleQueue()
    sizer = _ChunkSizer(_parallelism(executor))
    total = report.planned
    submitted = 0
    aliases = _AliasCheck(spec, len({run.point.id for run in todo}))

    def progress() -> None:
        done = report.stored_before + report.ok + report.failed + report.failed_kept
        bar.update(total, done, report.failed + report.failed_kept)

    def collect(futures: Any) -> None:
        for fut in futures:
            chunk = pending.pop(fut)
            if fut.cancelled():
                continue
            try:
                rows, elapsed = fut.result()
            except Exception as e:  # the executor lost it (a worker died): not stored
                report.lost.extend(f"{run.point.id} replication {run.replication}: {type(e).__name__}: {e}"
                                   for run in chunk)
                continue
            sizer.observe(len(chunk), elapsed)
            for run, row in zip(chunk, rows):
                traces = row.pop(TRACES_KEY, None)
                store.add(row, row.pop(SECTIONS_KEY, None), traces, row.pop(TRACE_FILES_KEY, None))
                if row["status"] == "ok":
                    report.ok += 1
                    aliases.check(row, run.point.id)
                else:
                    report.failed += 1
                    report.errors.setdefault(run.point.id, str(row["error"]))

    ctrl_c = ctrl_c or CtrlC()
    try:
        ctrl_c.deferring = True
        while submitted < len(todo) or pending:
            if ctrl_c.requested:
                raise KeyboardInterrupt
            while submitted < len(todo) and len(pending) < sizer.window:
                chunk = todo[submitted:submitted + sizer.size(len(todo) - submitted)]
                tasks = [(jobs[run.point.id], run.run_id, run.seed, run.replication) for run in chunk]
                fut = executor.submit(execute_chunk, tasks)
                pending[fut] = chunk
                submitted += len(chunk)
                fut.add_done_callback(finished.put)
            collect(_next_done(finished, pending))
            store.flush_if_due()
            progress()
    except KeyboardInterrupt:
        ctrl_c.deferring = False  # from here a Ctrl-C raises: it stops the waiting
        cancelled = _cancel(pending)
        abandoned = _drain(pending, collect, bar, GRACE_S)
        report.not_run = cancelled + abandoned + (len(todo) - submitted)
        e = KeyboardInterrupt()
        e.abandoned = abandoned  # type: ignore[attr-defined]
        raise e from None
    except BaseException:
        _cancel(pending)  # e.g. a bad metric alias: run nothing more
        raise
    finally:
        ctrl_c.deferring = False


def _point_jobs(todo: List[Run], spec: SweepSpec, store: Store, executor: Executor) -> Dict[str, PointJob]:
    """One PointJob per point: its scenario serialised once for all its replications."""
    commit = git_commit()
    # Local pools share our file system: their workers write the traces they make.
    shared = str(store.root) if isinstance(executor, (ProcessPoolExecutor, ThreadPoolExecutor)) else None
    jobs: Dict[str, PointJob] = {}
    for run in todo:
        p = run.point
        if p.id not in jobs:
            jobs[p.id] = PointJob(point=p.id, coords=p.coords, scenario_json=p.json, scenario_hash=p.scenario_hash,
                                  metrics=spec.metrics, traces=tuple(spec.traces), git_commit=commit, store=shared,
                                  error=p.error)
    return jobs


class _ChunkSizer:
    """How many runs go in one submitted task. One at first; then as many as take about
    CHUNK_S by the runs measured so far, so thousands of sub-millisecond runs do not pay
    an executor round trip each, while long runs still go one by one (Ctrl-C and the
    progress bar stay prompt). Never more than a share of what is left, so the last
    chunks spread over every worker."""

    CHUNK_S = 0.05
    MAX = 256

    def __init__(self, parallelism: int) -> None:
        self.parallelism = parallelism
        self.window = 2 * parallelism  # chunks in flight: every worker busy, one queued each
        self.runs = 0
        self.seconds = 0.0

    def observe(self, runs: int, seconds: float) -> None:
        self.runs += runs
        self.seconds += seconds

    def size(self, left: int) -> int:
        if not self.runs:
            return 1
        per_run = max(self.seconds / self.runs, 1e-6)
        return max(1, min(self.MAX, int(self.CHUNK_S / per_run), math.ceil(left / self.window)))


def _parallelism(executor: Executor) -> int:
    """Workers behind an executor: a local pool says; a Dask executor's client does."""
    workers = getattr(executor, "_max_workers", None)
    if isinstance(workers, int) and workers > 0:
        return workers
    client = getattr(executor, "_client", None)
    try:
        threads = sum(client.nthreads().values()) if client is not None else 0
    except Exception:  # an executor we do not know: assume a modest cluster
        threads = 0
    return threads if threads > 0 else 16


def _cancel(pending: Dict[Future[Any], List[Run]]) -> int:
    """Cancel every chunk that has not started; return how many runs they held."""
    cancelled = [fut for fut in pending if fut.cancel()]
    return sum(len(pending.pop(fut)) for fut in cancelled)


def _next_done(finished: "queue.SimpleQueue[Future[Any]]",
               pending: Dict[Future[Any], List[Run]]) -> List[Future[Any]]:
    """The futures done so far (waiting at most WAIT_SLICE_S for the first), still pending."""
    out = []
    try:
        out.append(finished.get(timeout=WAIT_SLICE_S))
        while True:
            out.append(finished.get_nowait())
    except queue.Empty:
        pass
    return [f for f in out if f in pending]


def _drain(pending: Dict[Future[Any], List[Run]], collect: Any, bar: SweepProgress, grace: float) -> int:
    """After Ctrl-C and _cancel: store the runs that finish within `grace` seconds; a
    second Ctrl-C stops waiting. Returns how many runs were still running when we stopped
    (they are not stored; the next sweep runs them)."""
    bar.stop()
    if pending:
        sys.stderr.write(f"lossy: interrupted; storing what finishes of {sum(map(len, pending.values()))} "
                         f"running run(s) within {grace:g} s (Ctrl-C again to stop now)\n")
        sys.stderr.flush()
    deadline = time.monotonic() + grace
    try:
        while pending and time.monotonic() < deadline:
            # Few are left, so wait() on them directly: a done future that the interrupt
            # took out of the queue before it was collected is found all the same.
            done, _ = wait(list(pending), timeout=WAIT_SLICE_S, return_when=FIRST_COMPLETED)
            collect(done)
    except KeyboardInterrupt:
        pass
    abandoned = sum(len(chunk) for chunk in pending.values())
    pending.clear()
    return abandoned


class _AliasCheck:
    """Spots a metric alias that names no summary key. An alias may exist in some points
    only (`agents.0.eln_marked` has no value where a variant removes the agent), so it is
    a mistake only once the first ok run of every point lacks it; runs come replication
    by replication, so that is known early."""

    def __init__(self, spec: SweepSpec, n_points: int) -> None:
        self.spec, self.n_points = spec, n_points
        self.found: Set[str] = set()
        self.missing_at: Dict[str, Set[str]] = {}

    def check(self, row: Dict[str, Any], point: str) -> None:
        for alias, key in self.spec.metrics.items():
            if alias in self.found:
                continue
            if key in row:
                self.found.add(alias)
                continue
            points = self.missing_at.setdefault(alias, set())
            points.add(point)
            if len(points) >= self.n_points:
                raise ScenarioError(f"metrics.{alias}: the runs have no summary key {key!r}{near(key, row)}")
