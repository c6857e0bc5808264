"""The index page of `lossy reproduce all`: each reproduction, its verdict counts and a
link to its report."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import List, Sequence

from ..formatting import cell
from .outcome import Outcome
from .verdict import State


def write_index(outcomes: Sequence[Outcome], root: Path, quick: bool) -> Path:
    path = root / "index.md"
    root.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(".index.md.tmp")
    tmp.write_text(render_index(outcomes, root, quick), encoding="utf-8")
    os.replace(tmp, path)
    return path


def render_index(outcomes: Sequence[Outcome], root: Path, quick: bool) -> str:
    mode = " --quick" if quick else ""
    lines: List[str] = [
        "# lossy reproductions", "",
        f"`lossy reproduce all{mode}`, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, "
        f"{sum(o.wall_s for o in outcomes):.0f} s.", "",
        "| reproduction | claims | reproduced | not reproduced | inconclusive | could not be checked | defects | report |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for o in outcomes:
        report = o.report.relative_to(root).as_posix() if o.report else ""
        if o.not_run:  # its recorded traces are not available here (needed_traces.py)
            lines.append(f"| {cell(o.reproduction.title)} (`{o.reproduction.name}`) | not run: {cell(o.not_run)} | "
                         f"– | – | – | – | 0 | [report.md]({report}) |")
            continue
        lines.append(
            f"| {cell(o.reproduction.title)} (`{o.reproduction.name}`) | {len(o.verdicts)} | "
            f"{o.count(State.REPRODUCED)} | {o.count(State.NOT_REPRODUCED)} | {o.count(State.INCONCLUSIVE)} | "
            f"{o.count(State.UNCHECKED)} | {len(o.defects())} | [report.md]({report}) |")
    return "\n".join(lines) + "\n"


__all__ = ["render_index", "write_index"]
