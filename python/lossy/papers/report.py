"""report.md for a reproduction: what was run, the figures and tables with our numbers
beside the reference ones, and a verdict per claim in one of three states; the same as
data in outcome.json beside it (what the documentation's gallery and validation page
read); and the claims as a table for the terminal."""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, List, Optional

import pandas as pd
from rich.table import Table as RichTable

from .. import __version__
from .._core import ScenarioError
from ..formatting import cell, value as _value
from ..summary import ok_rows
from .model import Claim
from .outcome import Outcome, Rendered, store_dir
from .verdict import State, Verdict

# How each state reads in the report and in the terminal.
WORDS = {State.REPRODUCED: "reproduced", State.NOT_REPRODUCED: "not reproduced",
         State.INCONCLUSIVE: "inconclusive", State.UNCHECKED: "could not be checked"}
COLOURS = {State.REPRODUCED: "green", State.NOT_REPRODUCED: "red", State.INCONCLUSIVE: "yellow",
           State.UNCHECKED: "bold magenta"}


OUTCOME_FILE = "outcome.json"
OUTCOME_FORMAT = 2  # raised when a field changes meaning; readers check it (2: bands, CIs, inventory)


def write_report(outcome: Outcome) -> Path:
    """report.md, and outcome.json beside it; the path of report.md."""
    path = outcome.out / "report.md"
    _write(path, render(outcome))  # a half-written report never replaces a whole one
    _write(outcome.out / OUTCOME_FILE, json.dumps(record(outcome), indent=1, ensure_ascii=False) + "\n")
    return path


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def record(outcome: Outcome) -> Dict[str, Any]:
    """What report.md says, as data: the claims with their verdicts, the figures' files
    (paths relative to the output directory) or why they were not drawn, the tables'
    cells as report.md shows them, the sweeps and the defects. JSON-serialisable."""
    r = outcome.reproduction

    def rel(path: Path) -> str:
        return path.relative_to(outcome.out).as_posix()

    figures = []
    for rendered in outcome.figures:
        f = rendered.figure
        figures.append({
            "key": f.key, "kind": f.kind, "title": f.title, "caption": f.caption,
            "error": rendered.error,
            "images": [rel(a.path) for a in rendered.artifacts if not a.is_table],
            "tables": [{"csv": rel(a.path), "columns": [cell(c) for c in a.table.columns],
                        "rows": [[cell(v) for v in row] for row in a.table.itertuples(index=False)]}
                       for a in rendered.artifacts if a.table is not None],
        })
    sweeps = []
    for plan in outcome.reproduction.sweeps:
        if plan.key not in outcome.ctx.runs and plan.key not in outcome.ctx.errors:
            continue  # not needed by what was made
        runs = outcome.ctx.runs.get(plan.key)
        ok = len(ok_rows(runs)) if runs is not None else 0
        sweeps.append({"key": plan.key, "title": plan.title,
                       "store": _store_shown(outcome, plan),
                       "runs": len(runs) if runs is not None else 0, "ok": ok,
                       "failed": (len(runs) - ok) if runs is not None else 0,
                       "error": outcome.ctx.errors.get(plan.key)})
    return {
        "format": OUTCOME_FORMAT,
        "name": r.name, "title": r.title, "about": r.about, "notes": list(r.notes), "measurement": r.measurement,
        "command": outcome.title(), "quick": outcome.quick, "only": list(outcome.only),
        "finished": f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC", "not_run": outcome.not_run,
        "wall_s": round(outcome.wall_s, 3), "provenance": _provenance(outcome),
        "counts": {s.value: outcome.count(s) for s in State},
        "claims": [claim_record(c, v) for c, v in outcome.verdicts],
        "inventory": _inventory_record(outcome),
        "figures": figures, "sweeps": sweeps, "defects": outcome.defects(),
        "what_was_run": "\n".join(_what_was_run(outcome)[2:]).strip(),  # report.md's section, markdown
        "report": "report.md",
    }


def claim_record(c: Claim, v: Verdict) -> Dict[str, Any]:
    """One claim and its verdict as data (outcome.json)."""
    return {"key": c.key, "text": c.text, "source": c.source, "words": c.words, "quantity": c.quantity,
            "band": c.band.text(), "band_reading": c.band.reading, "direction_only": c.band.direction_only,
            "why_here": c.why_here, "state": v.state.value, "ours": v.ours, "reason": v.reason,
            "parts": v.parts, "needed": v.needed, "probe": v.probe}


def _inventory_record(outcome: Outcome) -> Optional[Dict[str, Any]]:
    inv = outcome.reproduction.inventory
    if inv is None:
        return None
    return {"paper": inv.paper, "counts": inv.counts(), "items": inv.as_records()}


def render(outcome: Outcome) -> str:
    r = outcome.reproduction
    lines = [
        f"# {r.title}",
        "",
        f"`{outcome.title()}`, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, "
        f"{outcome.wall_s:.0f} s. {_provenance(outcome)}",
        "",
        r.about,
        "",
    ]
    if outcome.quick:
        lines += ["This is the **quick** version: fewer points and replications and shorter "
                  "runs than the full one, so the intervals are wider.", ""]
    if outcome.only:
        lines += [f"Only {', '.join(f'`{k}`' for k in outcome.only)} (and the sweeps they need) "
                  "were made: `--only`.", ""]
    if outcome.not_run:
        return "\n".join(lines + [f"**Not run**: {outcome.not_run}.", ""] + _inventory(outcome)
                         + _notes(outcome)).rstrip() + "\n"
    lines += (_defects(outcome) + _claims(outcome) + _inventory(outcome) + _notes(outcome)
              + _what_was_run(outcome))
    for rendered in outcome.figures:
        lines += _figure(outcome, rendered)
    return "\n".join(lines).rstrip() + "\n"


def _figure(outcome: Outcome, rendered: Rendered) -> List[str]:
    f = rendered.figure
    lines = [f"## {f.title}", ""]
    if rendered.error is not None:
        return lines + [f"**Could not be drawn**: {rendered.error}", ""]
    images = [a for a in rendered.artifacts if not a.is_table]
    for a in images:
        lines += [f"![{f.title}]({a.path.relative_to(outcome.out).as_posix()})", ""]
    if f.caption:
        lines += [f.caption, ""]
    for a in rendered.artifacts:
        if a.table is not None:
            lines += markdown_table(a.table) + ["", f"([CSV]({a.path.relative_to(outcome.out).as_posix()}))", ""]
    return lines


def _defects(outcome: Outcome) -> List[str]:
    defects = outcome.defects()
    if not defects:
        return []
    return ["## Defects", "", "These are faults of the reproduction, not results; fix them and "
            "run again.", ""] + [f"- {d}" for d in defects] + [""]


def _claims(outcome: Outcome) -> List[str]:
    n, k = len(outcome.verdicts), outcome.reproduced
    scale = "quick" if outcome.quick else "full"
    if outcome.reproduction.measurement:
        return ["## A measurement", "", f"No claims ({scale} run): no published statement is about the numbers "
                "this reproduction makes (the inventory below says why for each); its figures and tables are "
                "measurements, with 95 % confidence intervals, not verdicts.", ""]
    lines = ["## Claims", "", f"{k} of {n} reproduced ({outcome.counts()}; {scale} run).", "",
             "Each verdict is decided by the 95 % confidence interval of the claim's quantity over the "
             "replications against the band read from the paper's words: *reproduced* when the whole CI lies "
             "inside, *not reproduced* when it lies wholly outside, *inconclusive* when it straddles an end.", ""]
    if not n:
        return lines
    rows = [{"claim": c.text, "source": c.source, "band": c.band.text(), "ours (95 % CI)": v.ours,
             "verdict": f"**{WORDS[v.state]}**"}
            for c, v in outcome.verdicts]
    lines += markdown_table(pd.DataFrame(rows)) + [""]
    for i, (c, v) in enumerate(outcome.verdicts, 1):
        lines.append(f"{i}. **{c.text}** (`{c.key}`): **{WORDS[v.state]}**, {v.reason}.")
        lines.append(f"   The paper ({c.source}): {c.words}. We measure {c.quantity}; band {c.band.reading}"
                     + (" (direction only: the paper gives no magnitude; ours is printed)"
                        if c.band.direction_only else "") + f". Why these points: {c.why_here}")
        if v.state is State.NOT_REPRODUCED:
            lines.append(f"   What closes the gap: {v.probe}.")
    return lines + [""]


def _inventory(outcome: Outcome) -> List[str]:
    inv = outcome.reproduction.inventory
    if inv is None:
        return []
    lines = ["## Inventory of the paper", "", f"{inv.counts_text()}.", ""]
    rows = [{"item": i.ref, "section": i.section, "what": i.what,
             "covered by": ", ".join([*(f"`{k}`" for k in i.claims), *(f"`{t}`" for t in i.tests)])
             or f"not covered: {i.not_covered}"} for i in inv.items]
    return lines + markdown_table(pd.DataFrame(rows)) + [""]


def _notes(outcome: Outcome) -> List[str]:
    notes = outcome.reproduction.notes
    if not notes:
        return []
    return ["## Readings chosen", ""] + [f"- {n}" for n in notes] + [""]


def _what_was_run(outcome: Outcome) -> List[str]:
    from ..sweep.spec import load_spec  # the engine's own reading of the spec

    lines = ["## What was run", ""]
    for plan in outcome.reproduction.sweeps:
        if plan.key in outcome.ctx.errors:
            lines += [f"**{plan.title}** (`{plan.key}`): did not run: {outcome.ctx.errors[plan.key]}", ""]
            continue
        if plan.key not in outcome.ctx.runs:
            continue
        try:
            spec = load_spec(plan.spec, quick=outcome.quick)
        except ScenarioError as e:  # the report is written whatever else went wrong
            lines += [f"**{plan.title}** (`{plan.key}`): its spec cannot be read: {e}", ""]
            continue
        runs = outcome.ctx.runs[plan.key]
        ok = ok_rows(runs)
        failed = len(runs) - len(ok)
        per_point = ok.groupby("point").size() if "point" in ok.columns and len(ok) else pd.Series(dtype=int)
        n = (f"{per_point.min()}" if per_point.min() == per_point.max() else
             f"{per_point.min()}–{per_point.max()}") if len(per_point) else "0"
        lines += [f"**{plan.title}** (`{plan.key}`)", "",
                  f"- scenario: {_shown(plan.spec.get('scenario'), outcome.out)}"]
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
                  f"- store: `{_store_shown(outcome, plan)}/`",
                  ""]
    return lines


def _store_shown(outcome: Outcome, plan: Any) -> str:
    """A sweep's store relative to the report (`../<key>` for an --only report, whose
    directory is inside the reproduction's)."""
    store = outcome.ctx.stores.get(plan.key, store_dir(outcome.out, plan, outcome.quick))
    return Path(os.path.relpath(store, outcome.out)).as_posix()


def _provenance(outcome: Outcome) -> str:
    """The version and commit the runs were made with (as each run recorded them; a
    wheel records the commit it was built from), and the crates that decide its bits."""
    from .._core import build_commit

    frames = [df for df in outcome.ctx.runs.values() if len(df)]
    if not frames:
        return f"lossy {__version__}, git commit {_commits([build_commit()])}."
    df = pd.concat(frames, ignore_index=True)

    def values(column: str) -> List[str]:
        return sorted({str(v) for v in df[column].dropna()}) if column in df.columns else []

    text = f"lossy {', '.join(values('lossy_version')) or 'unknown'}, git commit {_commits(values('git_commit'))}"
    if "core_versions" in df.columns and df["core_versions"].notna().any():
        try:
            crates = json.loads(str(df["core_versions"].dropna().iloc[0]))
            text += " (" + ", ".join(f"{k} {v}" for k, v in sorted(crates.items())) + ")"
        except ValueError:
            pass
    return text + "."


def _commits(commits: List[str]) -> str:
    """Each commit shortened to 12 characters (stored runs reused across commits show
    all of them); "unknown" said as such, not as a commit."""
    known = [f"`{c[:12]}`" for c in commits if c and c != "unknown"]
    if not known:
        return "unknown (neither a checkout nor a build recorded it)"
    return ", ".join(known) + (" and unknown" if len(known) < len(commits) else "")


def markdown_table(df: pd.DataFrame) -> List[str]:
    """A GitHub-flavoured table of every cell as text (pipes escaped)."""
    if df.empty:
        return ["(no rows)"]
    header = [cell(c) for c in df.columns]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return lines


def claims_table(outcome: Outcome) -> RichTable:
    """The claims for the terminal: what, ours, and the verdict in colour (the reason
    under "ours" when the claim could not be checked)."""
    title = (f"{outcome.title()}: a measurement, no claims (figures and tables only)"
             if outcome.reproduction.measurement else
             f"{outcome.title()}: {outcome.reproduced} of {len(outcome.verdicts)} claims reproduced "
             f"({outcome.counts()})")
    t = RichTable(title=title, title_justify="left")
    t.add_column("claim", ratio=4)
    t.add_column("band", ratio=2)
    t.add_column("ours (95 % CI)", ratio=3)
    t.add_column("verdict", no_wrap=True)
    notes = []
    for c, v in outcome.verdicts:
        ours = v.ours if v.checked else v.reason
        if v.state is State.NOT_REPRODUCED and v.probe:
            ours += f"\ncause: {v.probe}"
        elif v.state is State.INCONCLUSIVE and v.needed:
            ours += f"\n~{v.needed} replications would decide it"
        t.add_row(c.text, c.band.text(), ours, f"[{COLOURS[v.state]}]{WORDS[v.state]}[/]")
    inv = outcome.reproduction.inventory
    if inv is not None:
        notes.append(f"inventory of the paper: {inv.counts_text()}")
    notes.append("full run" if not outcome.quick else "quick run: fewer points and replications, so more may be "
                 "inconclusive")
    t.caption = "; ".join(notes)
    t.caption_justify = "left"
    return t


def _shown(path: Any, out: Path) -> str:
    """Where a sweep's scenario comes from, never as an absolute path (markdown): a
    shipped scenario by its name, a file inside the output directory relative to it,
    one below the working directory relative to that, else by its file name alone."""
    if not isinstance(path, str):
        return "an inline table"
    from ..shipped import scenarios_dir

    file = Path(path).resolve()
    if file.parent == scenarios_dir().resolve() and file.suffix == ".toml":
        return f"`{file.stem}` (shipped: `lossy scenarios show {file.stem}`)"
    for base, where in [(out, "in the output directory"), (Path.cwd(), "")]:
        try:
            rel = file.relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
        return f"`{rel}`" + (f" ({where})" if where else "")
    return f"`{file.name}`"


__all__ = ["OUTCOME_FILE", "OUTCOME_FORMAT", "claims_table", "markdown_table", "record", "render",
           "write_report"]
