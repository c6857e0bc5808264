"""What `lossy sweep` and `lossy results` do, apart from parsing their options (cli.py):
run or open a sweep, and print the closing table and the summary table."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from .._core import ScenarioError
from ..formatting import quantity, seconds, unit_of
from . import Sweep, default_metrics, open_sweep

# pandas, scipy and pyarrow load when a table is shown, so a bad spec fails at once.
if TYPE_CHECKING:
    import pandas as pd

    from .runner import Report


def parse_fraction(text: str) -> float:
    """`5%` -> 0.05; `0.05` -> 0.05 (for --until-ci)."""
    raw = text.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        value = math.nan
    if not (0 < value < 1):
        raise ScenarioError(f"--until-ci {text!r} is not a precision; use a fraction of the mean above 0 "
                            "and below 1, e.g. 5% or 0.05")
    return value


# --- lossy sweep -----------------------------------------------------------------------


def closing_table(report: "Report") -> Group:
    """What the call did: stored before, run now (ok / failed), kept failed, redone, ..."""
    state = "interrupted" if report.interrupted else "done"
    head = Text(f"sweep {report.name} ({state}) → {report.path}", style="bold")
    table = Table(show_header=False)
    table.add_column(style="bold")
    table.add_column(justify="right")
    rows: List[Tuple[str, Any]] = [
        ("runs in the sweep", report.planned),
        ("already stored (skipped)", report.stored_before),
        ("run now: ok", report.ok),
        ("run now: failed", report.failed),
    ]
    if report.failed_kept:
        rows.append(("failed before, kept (--retry-failed runs them again)", report.failed_kept))
    if report.redone:
        rows.append(("unreadable parts set aside (quarantine/), their runs run again", len(report.redone)))
    if report.lost:
        rows.append(("lost by the executor (run the sweep again)", len(report.lost)))
    if report.interrupted:
        rows.append(("not run (interrupted; run the sweep again to resume)", report.not_run))
    if report.rounds > 1 or report.ci_unmet:
        rows.append(("--until-ci rounds", report.rounds))
        rows.append(("points short of the CI target", len(report.ci_unmet)))
    rows.append(("wall time", seconds(report.wall_s)))
    for label, value in rows:
        table.add_row(label, f"{value:,}" if isinstance(value, int) else str(value))
    return Group(head, table)


def print_errors(con: Console, report: "Report", limit: int = 5) -> None:
    for i, (point, message) in enumerate(sorted(report.errors.items())):
        if i == limit:
            con.print(f"... and {len(report.errors) - limit} more failed point(s); see `lossy results`")
            break
        con.print(f"[red]failed[/red] {point}: {message}", highlight=False)


# --- lossy results ---------------------------------------------------------------------


def open_results(target: str, out: Optional[Path], quick: bool) -> "Tuple[pd.DataFrame, List[str], Dict[str, str]]":
    """(runs, axes, metric alias -> summary key) of a spec file's store or of a results directory."""
    from .store import load, load_meta

    path = Path(target)
    if path.is_dir():
        # Both options pick a spec's store; a directory is the store already (issue 27:
        # `lossy results DIR --quick` was accepted and ignored).
        if quick:
            raise ScenarioError(f"--quick: {target} is a results directory, which --quick cannot change; "
                                "use it with a spec (lossy results SPEC --quick) or drop it")
        if out is not None:
            raise ScenarioError(f"--out {out}: {target} is a results directory already; --out names "
                                "the store of a spec (lossy results SPEC --out DIR)")
        frame = load(path)
        meta = load_meta(path)
        axes = [str(a["name"]) for a in meta.get("axes", [])] or ["point"]
        aliases = {str(k): str(v) for k, v in meta.get("metrics", {}).items()}
        where = str(path)
    else:
        sweep: Sweep = open_sweep(path, out=out, quick=quick)
        frame = sweep.results()
        axes, aliases, where = sweep.axes or ["point"], dict(sweep.spec.metrics), str(sweep.path)
    if frame.empty:
        raise ScenarioError(f"{where}: no runs stored yet; run `lossy sweep {target}` first")
    return frame, axes, aliases


def summary_frame(frame: "pd.DataFrame", axes: List[str], aliases: Sequence[str],
                  metrics: Optional[Sequence[str]]) -> "pd.DataFrame":
    from ..summary import summarize

    chosen = list(metrics or []) or default_metrics(frame, None, aliases)
    for m in chosen:
        if m not in frame.columns:
            known = ", ".join(aliases) if aliases else "flows.0.goodput_bps, links.0.loss_rate, ..."
            raise ScenarioError(f"--metric {m}: no such metric in the results (aliases: {known}; "
                                "or any summary key)")
    if not chosen:
        raise ScenarioError("no numeric metric in the results; name one with --metric")
    return summarize(frame, axes, chosen)


def failed_counts(frame: "pd.DataFrame", axes: List[str]) -> Dict[Tuple[Any, ...], int]:
    failed = frame[frame["status"] != "ok"]
    if failed.empty:
        return {}
    return {(k if isinstance(k, tuple) else (k,)): len(g)
            for k, g in failed.groupby(axes, sort=False, dropna=False)}


def summary_table(summary: "pd.DataFrame", axes: List[str], failed: Dict[Tuple[Any, ...], int],
                  title: str, aliases: Optional[Dict[str, str]] = None) -> Table:
    """Means and intervals in the metric's unit (goodput in Mb/s, times in ms), which its
    summary key names by suffix (`_bps`, `_s`); an alias takes its key's unit."""
    table = Table(title=title, title_justify="left",
                  caption="95 % confidence interval of the mean (Student t; a count's cut at 0), ok runs only",
                  caption_justify="left")
    for a in axes:
        table.add_column(a, no_wrap=True)
    for name in ["metric", "n", "mean", "95 % CI", "±"] + (["failed"] if failed else []):
        table.add_column(name, justify="left" if name == "metric" else "right")
    for _, row in summary.iterrows():
        key = tuple(row[a] for a in axes)
        half, mean = row["half_width"], row["mean"]
        rel = f"{100 * half / abs(mean):.1f} %" if _finite(half) and _finite(mean) and mean else "-"
        unit = unit_of((aliases or {}).get(str(row["metric"]), str(row["metric"])))
        ci = f"[{quantity(row['ci_low'], unit)}, {quantity(row['ci_high'], unit)}]" if _finite(half) else "-"
        cells = [_cell(v) for v in key] + [str(row["metric"]), str(row["n"]), quantity(mean, unit), ci, rel]
        if failed:
            cells.append(str(failed.get(key, 0) or ""))
        table.add_row(*cells)
    return table


def summary_json(summary: "pd.DataFrame") -> str:
    records = [{k: _json_value(v) for k, v in rec.items()} for rec in summary.to_dict(orient="records")]
    return json.dumps(records, allow_nan=False)


def print_results(target: str, metrics: Optional[Sequence[str]], as_json: bool,
                  out: Optional[Path] = None, quick: bool = False,
                  con: Optional[Console] = None) -> None:
    frame, axes, aliases = open_results(target, out, quick)
    summary = summary_frame(frame, axes, list(aliases), metrics)
    if as_json:
        sys.stdout.write(summary_json(summary) + "\n")
        return
    assert con is not None
    n_failed = int((frame["status"] != "ok").sum())
    title = f"{target}: {len(frame):,} runs" + (f", {n_failed:,} failed" if n_failed else "")
    if not summary.empty:
        con.print(summary_table(summary, axes, failed_counts(frame, axes), title, aliases))
    else:
        con.print(title, highlight=False)
    print_failed_points(con, frame)


def failed_points(frame: "pd.DataFrame") -> List[Tuple[str, int, int, str]]:
    """(point, failed runs, runs, the first error's first line) of each point with a
    failed run, in stored order."""
    out = []
    for point, group in frame.groupby("point", sort=False, dropna=False):
        failed = group[group["status"] != "ok"]
        if failed.empty:
            continue
        errors = [str(e) for e in failed.get("error", []) if isinstance(e, str) and e.strip()]
        first = errors[0].strip().splitlines()[0] if errors else "no error stored"
        out.append((str(point), len(failed), len(group), first))
    return out


def print_failed_points(con: Console, frame: "pd.DataFrame", limit: int = 10) -> None:
    """Each point with failed runs, and its first error (the same line `lossy sweep`
    printed when they failed): what `lossy sweep` promises `lossy results` shows."""
    if "point" not in frame.columns or "status" not in frame.columns:
        return
    points = failed_points(frame)
    for i, (point, failed, runs, error) in enumerate(points):
        if i == limit:
            con.print(f"... and {len(points) - limit} more failed point(s)", highlight=False)
            break
        shown = error if len(error) <= 300 else error[:299] + "…"
        con.print(Text.assemble(("failed", "red"), f" {point} ({failed} of {runs} runs): {shown}"))


def _finite(value: Any) -> bool:
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _json_value(value: Any) -> Any:
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
