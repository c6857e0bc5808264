"""report.md for a reproduction: what was run, the figures with our numbers beside the
reference ones, and a verdict per claim; and the claims as a table for the terminal."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, List

import pandas as pd
from rich.table import Table as RichTable

from .. import __version__
from ..summary import ok_rows
from .run import Outcome, store_dir


def write_report(outcome: Outcome) -> Path:
    path = outcome.out / "report.md"
    tmp = path.with_suffix(".md.tmp")
    tmp.write_text(render(outcome), encoding="utf-8")
    os.replace(tmp, path)  # a half-written report never replaces a whole one
    return path


def render(outcome: Outcome) -> str:
    r = outcome.reproduction
    mode = " --quick" if outcome.quick else ""
    lines = [
        f"# {r.title}",
        "",
        f"`lossy reproduce {r.name}{mode}`, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, "
        f"{outcome.wall_s:.0f} s. {_provenance(outcome)}",
        "",
        r.about,
        "",
    ]
    if outcome.quick:
        lines += ["This is the **quick** version: fewer points and replications and shorter "
                  "runs than the full one, so the intervals are wider.", ""]
    lines += _claims(outcome) + _what_was_run(outcome)
    for drawn in outcome.figures:
        f = drawn.figure
        lines += [f"## {f.title}", ""]
        if drawn.path is None:
            lines += [f"Not drawn: {drawn.error}", ""]
            continue
        lines += [f"![{f.title}]({drawn.path.relative_to(outcome.out).as_posix()})", ""]
        if f.caption:
            lines += [f.caption, ""]
        if drawn.table is not None:
            lines += markdown_table(drawn.table) + [""]
    for table, df in outcome.tables:
        lines += [f"## {table.title}", ""]
        if table.caption:
            lines += [table.caption, ""]
        lines += markdown_table(df) + [""]
    return "\n".join(lines).rstrip() + "\n"


def _claims(outcome: Outcome) -> List[str]:
    n, k = len(outcome.verdicts), outcome.reproduced
    lines = ["## Claims", "", f"{k} of {n} reproduced.", ""]
    rows = [{"claim": c.text, "reference": c.reference, "tolerance": c.tolerance,
             "ours": v.ours, "verdict": "**reproduced**" if v.reproduced else "**not reproduced**"}
            for c, v in outcome.verdicts]
    lines += markdown_table(pd.DataFrame(rows)) + [""]
    for i, (c, v) in enumerate(outcome.verdicts, 1):
        word = "reproduced" if v.reproduced else "not reproduced"
        source = f" Reference: {c.source}." if c.source else ""
        lines.append(f"{i}. {c.text}: **{word}**, {v.reason}.{source}")
    return lines + [""]


def _what_was_run(outcome: Outcome) -> List[str]:
    from ..sweep.spec import load_spec  # the engine's own reading of the spec

    lines = ["## What was run", ""]
    for plan in outcome.reproduction.sweeps:
        spec = load_spec(plan.spec, quick=outcome.quick)
        runs = outcome.runs[plan.key]
        ok = ok_rows(runs)
        failed = len(runs) - len(ok)
        per_point = ok.groupby("point").size() if "point" in ok.columns and len(ok) else pd.Series(dtype=int)
        n = (f"{per_point.min()}" if per_point.min() == per_point.max() else
             f"{per_point.min()}–{per_point.max()}") if len(per_point) else "0"
        lines += [f"**{plan.title}** (`{plan.key}`)", "",
                  f"- scenario: `{_shown(plan.spec.get('scenario'))}`"]
        fixed = {k: v for k, v in spec.fixed.items() if not k.startswith("traces.")}
        if fixed:
            lines.append("- set: " + ", ".join(f"`{k} = {_value(v)}`" for k, v in fixed.items()))
        for axis in spec.axes:
            if axis.kind == "variants":
                options = "; ".join(
                    f"{label}: " + (", ".join(f"`{k} = {_value(v)}`" for k, v in o.items()) or "as the scenario")
                    for label, o in axis.options.items())
                lines.append(f"- `{axis.name}` (variants): {options}")
            else:
                values = ", ".join(_value(v) for v in axis.values)
                lines.append(f"- `{axis.name}` (`{axis.path}`, {axis.kind}): {values}")
        lines += [f"- {len(spec.points)} points × {spec.replications} replications "
                  f"(0–{spec.replications - 1}), master seed {spec.seed}: {len(ok)} runs ok, "
                  f"{failed} failed, n = {n} per point",
                  f"- store: `{store_dir(outcome.out, plan, outcome.quick).relative_to(outcome.out).as_posix()}/`",
                  ""]
    return lines


def _provenance(outcome: Outcome) -> str:
    frames = [df for df in outcome.runs.values() if len(df)]
    if not frames:
        return f"lossy {__version__}."
    df = pd.concat(frames, ignore_index=True)

    def one(column: str) -> str:
        if column not in df.columns:
            return "unknown"
        values = sorted({str(v) for v in df[column].dropna()})
        return ", ".join(values) if values else "unknown"

    text = f"lossy {one('lossy_version')}, git commit `{one('git_commit')[:12]}`"
    if "core_versions" in df.columns and df["core_versions"].notna().any():
        try:
            crates = json.loads(str(df["core_versions"].dropna().iloc[0]))
            text += " (" + ", ".join(f"{k} {v}" for k, v in sorted(crates.items())) + ")"
        except ValueError:
            pass
    return text + "."


def markdown_table(df: pd.DataFrame) -> List[str]:
    """A GitHub-flavoured table of every cell as text (pipes escaped)."""
    if df.empty:
        return ["(no rows)"]
    header = [_cell(c) for c in df.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(_cell(v) for v in row) + " |")
    return lines


def claims_table(outcome: Outcome) -> RichTable:
    """The claims for the terminal: what, ours, and the verdict in colour."""
    t = RichTable(title=f"lossy reproduce {outcome.reproduction.name}"
                        f"{' --quick' if outcome.quick else ''}: "
                        f"{outcome.reproduced} of {len(outcome.verdicts)} claims reproduced",
                  title_justify="left")
    t.add_column("claim", ratio=4)
    t.add_column("reference", ratio=1)
    t.add_column("ours", ratio=3)
    t.add_column("verdict", no_wrap=True)
    for c, v in outcome.verdicts:
        verdict = "[green]reproduced[/]" if v.reproduced else "[red]not reproduced[/]"
        t.add_row(c.text, c.reference, v.ours, verdict)
    return t


def _cell(value: Any) -> str:
    if isinstance(value, float):
        value = f"{value:g}"
    return " ".join(str(value).split()).replace("|", "\\|")


def _value(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value) if isinstance(value, (dict, list, bool)) else f"{value:g}" if isinstance(value, float) else str(value)


def _shown(path: Any) -> str:
    """A scenario path relative to the working directory when it is below it."""
    if not isinstance(path, str):
        return "(inline table)"
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path


__all__ = ["claims_table", "markdown_table", "render", "write_report"]


