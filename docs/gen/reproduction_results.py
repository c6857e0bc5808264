"""The reproductions' results as the site reads them (the gallery and the validation page).

`make docs` first runs `lossy reproduce all --quick --out build/reproductions`; each
reproduction's output directory there holds outcome.json (what report.md says, as data:
claims with their verdicts, figures' files, tables' cells, sweeps, defects), its PNGs and
its CSVs. The generators read outcome.json, never report.md's text. The directory is
$LOSSY_DOCS_RESULTS when set (tests point it at a tmp dir), else build/reproductions in
the repository.

A reproduction with no results (no directory, never run, an unreadable or older
outcome.json) is an Entry with `outcome=None` and `missing` saying why: its pages are
still written and say how to produce them. Files named by outcome.json but absent are
left out of the page, so the site never links a missing image.

Not a `gen_*.py` module: pages.py does not run it; the generators import it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

from lossy.papers import get, names
from lossy.papers.model import Reproduction

ROOT = Path(__file__).resolve().parents[2]
ENV = "LOSSY_DOCS_RESULTS"
DEFAULT = ROOT / "build" / "reproductions"
OUTCOME_FILE = "outcome.json"  # lossy.papers.report.OUTCOME_FILE (not imported: no pandas needed to read it)
OUTCOME_FORMAT = 1

# The three verdict states, as lossy.papers.verdict.State spells them, with what each means.
STATES = ["reproduced", "not reproduced", "could not be checked"]
MARKS = {"reproduced": "✓", "not reproduced": "✗", "could not be checked": "⚠"}  # in common fonts, unlike emoji
MEANINGS = {
    "reproduced": "the check ran on complete data and our number is within the claim's tolerance",
    "not reproduced": "the check ran on complete data and our number is outside the tolerance: "
                      "a scientific result, reported as it is",
    "could not be checked": "a defect of the reproduction (a run failed, a sweep did not run, a "
                            "column is missing, the check raised), never a result; "
                            "`lossy reproduce` exits with status 1",
}


def results_root() -> Path:
    value = os.environ.get(ENV, "").strip()
    return Path(value).expanduser().resolve() if value else DEFAULT


def shown(path: Path) -> str:
    """A path as a page shows it: relative to the repository when it is inside it."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass
class Entry:
    name: str
    repro: Reproduction
    out: Path  # <results>/reproduce-<name>
    outcome: Optional[Dict[str, Any]]  # outcome.json; None when there are no results
    missing: str = ""  # why there are none

    @property
    def ran(self) -> bool:
        return self.outcome is not None

    def count(self, state: str) -> int:
        return int((self.outcome or {}).get("counts", {}).get(state, 0))

    def file(self, rel: str) -> Optional[Path]:
        """A file of the results, when it is there (and inside the output directory)."""
        path = (self.out / rel).resolve()
        try:
            path.relative_to(self.out.resolve())
        except ValueError:
            return None
        return path if path.is_file() else None


def load(name: str, root: Optional[Path] = None) -> Entry:
    root = results_root() if root is None else root
    repro = get(name)
    out = root / f"reproduce-{name}"
    entry = Entry(name, repro, out, None)
    path = out / OUTCOME_FILE
    if not root.is_dir():
        entry.missing = f"there is no results directory `{shown(root)}`"
    elif not path.is_file():
        entry.missing = (f"`{shown(out)}` holds a report.md from an older lossy but no {OUTCOME_FILE}"
                         if (out / "report.md").is_file() else
                         f"`{name}` has not been run into `{shown(root)}`")
    else:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            entry.missing = f"`{shown(path)}` cannot be read ({' '.join(str(e).split())})"
            return entry
        if not isinstance(data, dict) or data.get("format") != OUTCOME_FORMAT:
            entry.missing = f"`{shown(path)}` is not in the format this site reads ({OUTCOME_FORMAT})"
        elif data.get("name") != name:
            entry.missing = f"`{shown(path)}` is the outcome of {data.get('name')!r}, not of {name!r}"
        else:
            entry.outcome = data
    return entry


def entries(root: Optional[Path] = None) -> List[Entry]:
    """Every registered reproduction, in the registry's order, with its results if any."""
    return [load(n, root) for n in names()]


def how_to_produce(root: Path, entry: Optional[Entry] = None) -> str:
    """Markdown: how to get the results a page shows into `root`."""
    one = (f" (`lossy reproduce {entry.name} --quick --out {shown(entry.out)}` makes this one alone)"
           if entry is not None else "")
    return (f"`make docs` runs every reproduction's quick version before it builds the site; or run "
            f"`lossy reproduce all --quick --out {shown(root)}`{one} and build the site again. "
            f"The site reads the directory named by `{ENV}` (default `build/reproductions`).")


def verdict_cell(state: str) -> str:
    return f"{MARKS.get(state, '')} **{state}**".strip()
