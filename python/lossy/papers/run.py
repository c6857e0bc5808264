"""Run reproductions: their sweeps through lossy.sweep (stored under the output
directory, so an interrupted reproduction resumes), then their figures, their claims
and report.md. Every sweep of one call goes to one executor, made once."""

from __future__ import annotations

import sys
import time
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import pandas as pd

from .context import Context
from .model import Reproduction, describe, needed_sweeps
from .needed_traces import unavailable
from .outcome import Outcome, Rendered, default_out, only_dir, store_dir
from .report import write_report

# (spec dict, store directory, quick, executor) -> that sweep's runs; lossy.sweep by default.
SweepFn = Callable[[Dict[str, Any], Path, bool, Executor], pd.DataFrame]


def run_with_lossy_sweep(progress: bool) -> SweepFn:
    def run(spec: Dict[str, Any], path: Path, quick: bool, pool: Executor) -> pd.DataFrame:
        from ..sweep import sweep  # the sweep engine, imported only when running

        return sweep(spec, out=path, quick=quick, progress=progress, executor=pool).results()
    return run


def reproduce(
    repro: Reproduction,
    out: Path,
    quick: bool = False,
    only: Sequence[str] = (),
    sweep_fn: Optional[SweepFn] = None,
    progress: bool = True,
    executor: Union[None, str, Executor] = None,
    workers: Optional[int] = None,
) -> Outcome:
    """Run what `repro` (or its `only` items) needs, draw, check and write report.md
    (into out/only-KEYS/ with `only`: outcome.only_dir)."""
    from ..sweep.executors import make_executor

    chosen = repro.only(only) if only else repro  # an unknown key fails before anything runs
    with make_executor(executor, workers) as pool:
        return _one(chosen, out, quick, only, sweep_fn or run_with_lossy_sweep(progress), pool)


def reproduce_all(
    repros: Sequence[Reproduction],
    root: Path,
    quick: bool = False,
    sweep_fn: Optional[SweepFn] = None,
    progress: bool = True,
    executor: Union[None, str, Executor] = None,
    workers: Optional[int] = None,
) -> List[Outcome]:
    """Each reproduction in turn into `root`/reproduce-<name>/, all on one executor."""
    from ..sweep.executors import make_executor

    run = sweep_fn or run_with_lossy_sweep(progress)
    outcomes: List[Outcome] = []
    with make_executor(executor, workers) as pool:
        for i, r in enumerate(repros, 1):
            if progress:  # `make docs` runs all of them: minutes without a word otherwise (issue 27)
                sys.stderr.write(f"lossy: reproduce all: {r.name} ({i} of {len(repros)})\n")
                sys.stderr.flush()
            outcomes.append(_one(r, default_out(r.name, root), quick, (), run, pool))
            if progress:
                sys.stderr.write(f"lossy: reproduce all: {r.name} done in {outcomes[-1].wall_s:.0f} s\n")
    return outcomes


def _one(repro: Reproduction, out: Path, quick: bool, only: Sequence[str], run: SweepFn,
         pool: Executor) -> Outcome:
    started = time.perf_counter()
    # --only: its report and figures in their own directory; the sweeps' stores in `out`.
    report_dir = only_dir(out, only) if only else out
    report_dir.mkdir(parents=True, exist_ok=True)
    ctx = Context(report_dir, quick)
    not_run = unavailable(repro)  # recorded traces this machine cannot get: run nothing
    for plan in ([] if not_run else needed_sweeps(repro)):
        path = store_dir(out, plan, quick)
        ctx.stores[plan.key] = path
        ctx.metrics[plan.key] = {str(k): str(v) for k, v in plan.spec.get("metrics", {}).items()}
        ctx.specs[plan.key] = plan.spec
        try:
            ctx.runs[plan.key] = run(plan.spec, path, quick, pool)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as e:  # noqa: BLE001 - the report says so, and what it cost
            ctx.errors[plan.key] = describe(e)
    outcome = Outcome(repro, ctx, only=tuple(only), not_run=not_run)
    if not not_run:
        outcome.figures = [draw(figure, ctx) for figure in repro.figures]
        outcome.verdicts = [(claim, claim.evaluate(ctx, quick)) for claim in repro.claims]
    outcome.wall_s = time.perf_counter() - started
    outcome.report = write_report(outcome)
    return outcome


def draw(figure: Any, ctx: Context) -> Rendered:
    """The figure's files; when it cannot be made (a sweep did not run, a column or a
    trace is missing), the reason instead, so that the report still says what happened."""
    try:
        return Rendered(figure, figure.render(ctx.restricted(figure.needs)))
    except Exception as e:  # noqa: BLE001 - a defect the report and the exit status show
        return Rendered(figure, error=describe(e))


__all__ = ["SweepFn", "draw", "reproduce", "reproduce_all", "run_with_lossy_sweep"]
