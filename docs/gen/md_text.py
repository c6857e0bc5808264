"""Markdown pieces the generators share: text on one line, table cells, admonitions and
collapsible blocks (pymdownx.details). Not a `gen_*.py` module: pages.py does not run it.
(Not named markdown.py: this directory is on sys.path, and that would hide the library.)
"""

from __future__ import annotations

from typing import Any, List


def inline(text: Any) -> str:
    """Text on one line."""
    return " ".join(str(text).split())


def cell(text: Any) -> str:
    """Text in a table cell: one line, pipes escaped."""
    return inline(text).replace("|", "\\|")


def alt(text: str) -> str:
    """Text for an image's alt attribute."""
    return inline(text).replace("[", "(").replace("]", ")")


def table(header: List[str], rows: List[List[Any]]) -> List[str]:
    """A table of cells (each made one line, pipes escaped)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    return lines + ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]


def indented(lines: List[str], by: int = 4) -> List[str]:
    return [(" " * by + line) if line else "" for line in lines]


def admonition(kind: str, title: str, body: str) -> str:
    return "\n".join([f'!!! {kind} "{title}"', ""] + indented(body.split("\n")))


def details(title: str, lines: List[str], kind: str = "info") -> str:
    """A block closed until clicked."""
    return "\n".join([f'??? {kind} "{title}"', ""] + indented(lines))


def number(x: Any) -> str:
    """A part's value or CI end as the tables show it (3 significant digits)."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        return "–"
    if v != v:  # NaN: no interval
        return "–"
    return f"{v:.3g}"
