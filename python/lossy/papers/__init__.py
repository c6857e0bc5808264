"""Reproductions of papers and of our own validation, run with `lossy reproduce NAME`.

A reproduction declares its sweeps (spec dicts, each with a [quick] variant), its
figures (plot specs, with model curves computed from the runs) and its claims as checks.
`lossy.papers.run.reproduce` runs the sweeps through `lossy.sweep` (stored, resumable),
draws the figures, checks the claims and writes report.md beside them.

The registry maps a name to the module that defines `REPRODUCTION`, imported only when
asked for, so listing the names costs nothing and modules may import this one.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Optional

import pandas as pd

from ..plot import Curve, PlotSpec

REPRODUCTIONS: Dict[str, str] = {
    "validation": "lossy.papers.validation",
}

# Sweep key -> that sweep's runs (ok and failed rows, as the store holds them).
Runs = Mapping[str, pd.DataFrame]


class UnknownReproduction(KeyError):
    def __str__(self) -> str:
        return f"no reproduction {self.args[0]!r}; known: {', '.join(sorted(REPRODUCTIONS))}"


@dataclass(frozen=True)
class SweepPlan:
    """One sweep: `spec` is a sweep spec dict (see lossy.sweep) whose [quick] table
    holds the reduced version (fewer points and replications, shorter runs)."""

    key: str  # its directory under the output, and how figures and claims name it
    title: str
    spec: Dict[str, Any]


@dataclass(frozen=True)
class Figure:
    """A plot of one sweep, the model curves drawn over it, and a table of our numbers
    beside the reference ones (strings, ready for the report)."""

    key: str  # file name stem
    sweep: str
    title: str
    plot: PlotSpec
    caption: str = ""
    curves: Callable[[pd.DataFrame], List[Curve]] = lambda runs: []
    table: Optional[Callable[[pd.DataFrame], pd.DataFrame]] = None


@dataclass(frozen=True)
class Table:
    """A table without a figure (a check too small to plot)."""

    key: str
    sweep: str
    title: str
    build: Callable[[pd.DataFrame], pd.DataFrame]
    caption: str = ""


@dataclass(frozen=True)
class Verdict:
    """What a check found: reproduced or not, our value in words, and why."""

    reproduced: bool
    ours: str
    reason: str


@dataclass(frozen=True)
class Claim:
    """A claim with the value it is held to and how far we may be from it."""

    text: str
    reference: str  # the paper's or model's value, short
    tolerance: str
    check: Callable[[Runs], Verdict]
    source: str = ""  # where the reference and the tolerance come from, and why

    def evaluate(self, runs: Runs) -> Verdict:
        """The check's verdict; a check that cannot be made (missing points, failed
        runs) is "not reproduced" with the reason, never an exception."""
        try:
            return self.check(runs)
        except (KeyError, ValueError, IndexError, ZeroDivisionError) as e:
            return Verdict(False, "-", f"could not be checked: {e}")


@dataclass(frozen=True)
class Reproduction:
    name: str
    title: str
    about: str  # a paragraph for the top of the report
    sweeps: List[SweepPlan]
    figures: List[Figure]
    claims: List[Claim]
    tables: List[Table] = field(default_factory=list)


def get(name: str) -> Reproduction:
    """The reproduction registered as `name`; UnknownReproduction lists the known ones."""
    if name not in REPRODUCTIONS:
        raise UnknownReproduction(name)
    module = importlib.import_module(REPRODUCTIONS[name])
    repro: Reproduction = module.REPRODUCTION
    return repro
