"""`lossy reproduce --list`: every reproduction with its sweeps, figures, tables and claims.

The list is made from the declarations (`listing`), but importing them means importing
each reproduction and with it pandas, SciPy and matplotlib: 3.5 s of CPU to print text
that only changes when a declaration does (issue 27). So the list is kept as text
beside this module, listing.txt, which `--list` prints with no import beyond this
file; a test (tests/python/test_reproduce.py) holds it equal to what the declarations
give, and `python -m lossy.papers.listing` writes it again after a declaration changes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, List, Sequence

if TYPE_CHECKING:
    from .model import Reproduction

LISTING_FILE = Path(__file__).with_name("listing.txt")
REFRESH = "python -m lossy.papers.listing"


def listing(repros: Sequence["Reproduction"]) -> str:
    """Every reproduction with its sweeps, figures, tables and claims (nothing is run)."""
    lines: List[str] = []
    for r in repros:
        lines += [f"{r.name}: {r.title}",
                  f"  sweeps: {', '.join(p.key for p in r.sweeps)}"]
        figures = [f for f in r.figures if f.kind != "table"]
        tables = [f for f in r.figures if f.kind == "table"]
        for label, items in [("figures", figures), ("tables", tables)]:
            if items:
                lines.append(f"  {label}:")
                lines += [f"    {f.key} ({f.kind}, from {', '.join(f.needs)}): {f.title}" for f in items]
        if r.claims:
            lines.append("  claims:")
            lines += [f"    {c.key} (from {', '.join(c.needs)}): {c.text}" for c in r.claims]
        lines.append("")
    return "\n".join(lines).rstrip()


def declared_listing() -> str:
    """The list from the declarations themselves (imports every reproduction)."""
    from . import get, names

    return listing([get(n) for n in names()]) + "\n"


def stored_listing() -> str:
    """The list as kept in listing.txt: what `lossy reproduce --list` prints."""
    return LISTING_FILE.read_text(encoding="utf-8")


if __name__ == "__main__":
    LISTING_FILE.write_text(declared_listing(), encoding="utf-8")
    sys.stdout.write(f"wrote {LISTING_FILE}\n")
