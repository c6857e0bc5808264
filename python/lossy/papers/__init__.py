"""Reproductions of papers and of our own validation, run with `lossy reproduce NAME`.

This module is only the registry: a name -> the module (or package) that defines
`REPRODUCTION`, imported when asked for, so listing the names costs nothing (no pandas,
no matplotlib) and reproductions may import this one. What a reproduction declares is in
model.py (sweeps, claims) and figures/ (the kinds of figure); run.py runs one, report.py
writes its report.md, cli.py is `lossy reproduce`.

The claims protocol: bands.py (what a paper's words allow), estimate.py (a quantity with
its 95 % CI over replications), judge.py (the one place a verdict is decided),
measures.py (measurements the claims share), synthetic.py (runs for a claim's null,
exaggerated and faithful examples), inventory.py (every item of a paper and what covers
it). The import order, each module importing only those before it: verdict, bands,
tracefiles, context, estimate, judge, measures, synthetic, inventory, figures, model,
checks, outcome, report, run, index, cli.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Dict, List

from .._core import ScenarioError

if TYPE_CHECKING:
    from .model import Reproduction

REPRODUCTIONS: Dict[str, str] = {
    "botos-fectcp": "lossy.papers.botos",
    "cellular-bufferbloat": "lossy.papers.cellular",
    "chen-syndrome": "lossy.papers.chen_syndrome",
    "chockalingam-ll-fec-arq": "lossy.papers.chockalingam",
    "miyoshi-adaptive-fec": "lossy.papers.miyoshi",
    "modern-cc": "lossy.papers.modern_cc",
    "pantheon-emulators": "lossy.papers.pantheon",
    "shagdar-ewln": "lossy.papers.shagdar",
    "validation": "lossy.papers.validation",
}


class UnknownReproduction(ScenarioError):
    """A name that is not registered; the message lists the known ones."""


def names() -> List[str]:
    return sorted(REPRODUCTIONS)


def get(name: str) -> "Reproduction":
    """The reproduction registered as `name`; UnknownReproduction (one line) lists the
    known ones."""
    if name not in REPRODUCTIONS:
        raise UnknownReproduction(f"no reproduction {name!r}; known: {', '.join(names())}, or all")
    module = importlib.import_module(REPRODUCTIONS[name])
    repro: "Reproduction" = module.REPRODUCTION
    return repro


__all__ = ["REPRODUCTIONS", "UnknownReproduction", "get", "names"]
