"""Run a reproduction: its sweeps through lossy.sweep (stored under the output directory,
so an interrupted reproduction resumes), its figures, its claims, and report.md."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import pandas as pd

from ..plot import PlotError, draw, summarize_for_plot
from . import Claim, Figure, Reproduction, SweepPlan, Table, Verdict

# (spec dict, store directory, quick) -> that sweep's runs; lossy.sweep by default.
SweepFn = Callable[[Dict[str, Any], Path, bool], pd.DataFrame]


@dataclass
class Drawn:
    figure: Figure
    path: Optional[Path]  # None when it could not be drawn
    table: Optional[pd.DataFrame]
    error: Optional[str] = None


@dataclass
class Outcome:
    """Everything report.md is written from."""

    reproduction: Reproduction
    quick: bool
    out: Path
    runs: Dict[str, pd.DataFrame]
    stores: Dict[str, Path]
    figures: List[Drawn] = field(default_factory=list)
    tables: List[Tuple[Table, pd.DataFrame]] = field(default_factory=list)
    verdicts: List[Tuple[Claim, Verdict]] = field(default_factory=list)
    wall_s: float = 0.0
    report: Optional[Path] = None

    @property
    def reproduced(self) -> int:
        return sum(v.reproduced for _, v in self.verdicts)


def default_out(name: str) -> Path:
    return Path("results") / f"reproduce-{name}"


def store_dir(out: Path, plan: SweepPlan, quick: bool) -> Path:
    # Quick and full runs differ (shorter, fewer): separate stores, never mixed.
    return out / (f"{plan.key}-quick" if quick else plan.key)


def run_with_lossy_sweep(progress: bool) -> SweepFn:
    def run(spec: Dict[str, Any], path: Path, quick: bool) -> pd.DataFrame:
        from ..sweep import sweep  # the sweep engine, imported only when running

        return sweep(spec, out=path, quick=quick, progress=progress).results()
    return run


def reproduce(
    repro: Reproduction,
    out: Path,
    quick: bool = False,
    sweep_fn: Optional[SweepFn] = None,
    progress: bool = True,
) -> Outcome:
    """Run the sweeps, draw the figures, check the claims and write report.md."""
    from .report import write_report  # report imports this module's types

    started = time.perf_counter()
    run = sweep_fn or run_with_lossy_sweep(progress)
    out.mkdir(parents=True, exist_ok=True)
    outcome = Outcome(repro, quick, out, runs={}, stores={})
    for plan in repro.sweeps:
        path = store_dir(out, plan, quick)
        outcome.stores[plan.key] = path
        outcome.runs[plan.key] = run(plan.spec, path, quick)
    for figure in repro.figures:
        outcome.figures.append(draw_figure(figure, outcome.runs[figure.sweep], out))
    for table in repro.tables:
        outcome.tables.append((table, build_table(table, outcome.runs[table.sweep])))
    outcome.verdicts = [(claim, claim.evaluate(outcome.runs)) for claim in repro.claims]
    outcome.wall_s = time.perf_counter() - started
    outcome.report = write_report(outcome)
    return outcome


def draw_figure(figure: Figure, runs: pd.DataFrame, out: Path) -> Drawn:
    """The figure and its table; when the runs cannot make them (every run failed), the
    reason instead, so that the report still says what happened."""
    try:
        summary = summarize_for_plot(runs, figure.plot)
        spec = dataclasses.replace(figure.plot, curves=figure.curves(runs))
        path = draw(summary, spec, out / f"{figure.key}.png")
        return Drawn(figure, path, figure.table(runs) if figure.table else None)
    except (PlotError, KeyError, ValueError) as e:
        return Drawn(figure, None, None, error=str(e))


def build_table(table: Table, runs: pd.DataFrame) -> pd.DataFrame:
    try:
        return table.build(runs)
    except (KeyError, ValueError) as e:
        return pd.DataFrame({"error": [f"could not be made: {e}"]})
