"""What a reproduction declares: its sweeps, its figures (any kind in figures/) and its
claims as checks. A Reproduction checks its own cross-references when it is built, so a
figure naming a sweep that does not exist fails at import, in one line, and never
halfway through a long run."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Sequence, Union

import pandas as pd

from .._core import ScenarioError
from .context import Context, NotAvailable, as_context
from .figures.base import Figure
from .verdict import Verdict


class BadReproduction(ScenarioError):
    """A reproduction whose parts do not fit together (a bad reference, a duplicate key)."""


@dataclass(frozen=True)
class SweepPlan:
    """One sweep: `spec` is a sweep spec dict (see lossy.sweep) whose [quick] table
    holds the reduced version (fewer points and replications, shorter runs)."""

    key: str  # its directory under the output, and how figures and claims name it
    title: str
    spec: Dict[str, Any]


@dataclass(frozen=True)
class Claim:
    """A claim with the value it is held to, how far we may be from it, and the sweeps
    its check reads (it sees only those)."""

    key: str  # its name for --only
    text: str
    reference: str  # the paper's or model's value, short
    tolerance: str
    check: Callable[[Context], Verdict]
    sweeps: Sequence[str]
    source: str = ""  # where the reference and the tolerance come from, and why

    kind = "claim"

    @property
    def needs(self) -> Sequence[str]:
        return tuple(self.sweeps)

    def evaluate(self, runs: Mapping[str, pd.DataFrame]) -> Verdict:
        """The check's verdict on complete data; "could not be checked" with the reason
        when the data is not complete (a sweep did not run, a run failed) or the check
        raised (a missing column, an undeclared sweep, a bug) — never an exception."""
        ctx = as_context(runs).restricted(self.sweeps)
        try:
            for sweep in self.sweeps:
                defect = failed_runs(sweep, ctx[sweep])
                if defect:
                    return Verdict.unchecked(defect)
            return self.check(ctx)
        except Exception as e:  # noqa: BLE001 - every defect becomes a verdict with its reason
            return Verdict.unchecked(describe(e))


def failed_runs(sweep: str, runs: pd.DataFrame) -> str:
    """Why the runs of a sweep are not complete ("" when they are)."""
    if runs.empty:
        return f"sweep {sweep!r} has no runs"
    failed = runs[runs["status"] != "ok"] if "status" in runs.columns else runs.iloc[:0]
    if failed.empty:
        return ""
    error = failed["error"].dropna().astype(str) if "error" in failed.columns else pd.Series(dtype=str)
    example = f" (e.g. {' '.join(error.iloc[0].split())})" if len(error) else ""
    return f"{len(failed)} of {len(runs)} runs of sweep {sweep!r} failed{example}"


def describe(e: BaseException) -> str:
    """An exception in one line: a missing column or sweep reads as what it says; other
    exceptions keep their type and where they were raised (a bug to find)."""
    # Where in our code (a reproduction's or lossy's), not deep inside pandas.
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if "site-packages" not in f.filename and "/lib/python" not in f.filename]
    at = f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""
    if isinstance(e, KeyError) and e.args:
        text = " ".join(str(e.args[0]).split())
        if isinstance(e, NotAvailable) or " " in text:
            return text  # our own messages say what is missing
        return f"no column or key {e.args[0]!r}{at}"  # pandas: df["goodptu"]
    return f"{type(e).__name__}: {' '.join(str(e).split())}{at}"


Item = Union[Figure, Claim]


@dataclass(frozen=True)
class Reproduction:
    name: str
    title: str
    about: str  # a paragraph for the top of the report
    sweeps: Sequence[SweepPlan]
    figures: Sequence[Figure]  # figures and tables, in report order
    claims: Sequence[Claim]
    notes: Sequence[str] = field(default_factory=tuple)  # readings chosen where the paper is vague

    def __post_init__(self) -> None:
        check_references(self)

    def items(self) -> Dict[str, Item]:
        """Every figure, table and claim by key."""
        return {**{f.key: f for f in self.figures}, **{c.key: c for c in self.claims}}

    def plan(self, key: str) -> SweepPlan:
        return next(p for p in self.sweeps if p.key == key)

    def only(self, keys: Sequence[str]) -> "Reproduction":
        """This reproduction with only the named figures, tables and claims, and the
        sweeps they need. An unknown key: BadReproduction naming what exists."""
        items = self.items()
        unknown = [k for k in keys if k not in items]
        if unknown:
            raise BadReproduction(f"--only: {self.name} has no figure, table or claim "
                                  f"{', '.join(map(repr, unknown))}; it has: {', '.join(items)}")
        wanted = set(keys)
        figures = [f for f in self.figures if f.key in wanted]
        claims = [c for c in self.claims if c.key in wanted]
        chosen: List[Item] = [*figures, *claims]
        needed = {s for x in chosen for s in x.needs}
        return Reproduction(self.name, self.title, self.about,
                            [p for p in self.sweeps if p.key in needed], figures, claims, self.notes)


def check_references(r: Reproduction) -> None:
    """Keys unique, and every sweep a figure, table or claim names declared."""
    where = f"reproduction {r.name!r}"
    for f in r.figures:
        if not isinstance(f, Figure):
            raise BadReproduction(f"{where}: {f!r:.60} is not a figure (one of lossy.papers.figures: "
                                  "LinePlot, Table, TimeSeries, Cdf, Panels)")
    for label, keys in [("sweep", [p.key for p in r.sweeps]),
                        ("figure, table or claim", [*(f.key for f in r.figures), *(c.key for c in r.claims)])]:
        seen = set()
        for key in keys:
            if key in seen:
                raise BadReproduction(f"{where}: two of its sweeps share the key {key!r}" if label == "sweep"
                                      else f"{where}: two items share the key {key!r}")
            seen.add(key)
    sweeps = [p.key for p in r.sweeps]
    items: List[Item] = [*r.figures, *r.claims]
    for item in items:
        for sweep in item.needs:
            if sweep not in sweeps:
                raise BadReproduction(f"{where}: {item.kind} {item.key!r} needs sweep {sweep!r}; "
                                      f"sweeps: {', '.join(sweeps) or 'none'}")


def needed_sweeps(r: Reproduction) -> List[SweepPlan]:
    items: List[Item] = [*r.figures, *r.claims]
    needed = {s for x in items for s in x.needs}
    return [p for p in r.sweeps if p.key in needed]


__all__ = ["BadReproduction", "Claim", "Reproduction", "SweepPlan", "check_references",
           "describe", "failed_runs", "needed_sweeps"]
