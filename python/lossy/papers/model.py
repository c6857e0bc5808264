"""What a reproduction declares: its sweeps, its figures (any kind in figures/) and its
claims as checks. A Reproduction checks its own cross-references when it is built, so a
figure naming a sweep that does not exist fails at import, in one line, and never
halfway through a long run."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

import pandas as pd

from .._core import ScenarioError
from .bands import Band
from .context import Context, NotAvailable, as_context
from .figures.base import Figure
from .inventory import Inventory
from .judge import Measurement, judge
from .verdict import State, Verdict


class BadReproduction(ScenarioError):
    """A reproduction whose parts do not fit together (a bad reference, a duplicate key)."""


@dataclass(frozen=True)
class SweepPlan:
    """One sweep: `spec` is a sweep spec dict (see lossy.sweep) whose [quick] table
    holds the reduced version (fewer points and replications, shorter runs)."""

    key: str  # its directory under the output, and how figures and claims name it
    title: str
    spec: Dict[str, Any]


# Data a claim reads that no sweep makes (a model's table, a stream study): name ->
# a function of `quick` that computes it. Examples supply it directly.
Inputs = Mapping[str, Callable[[bool], pd.DataFrame]]
Runs = Mapping[str, pd.DataFrame]


@dataclass(frozen=True)
class Examples:
    """Synthetic data for a claim (lossy.papers.synthetic), keyed by sweep or input name:
    `null` with the claimed effect absent (the treatment equal to the baseline, the
    curves equal, the crossing elsewhere), `exaggerated` with the paper's magnitude
    doubled (None only for a claim of likeness or a direction-only one, which state no
    magnitude to double), `faithful` as the paper states it. A test asserts the first
    two are never reproduced and the third is."""

    null: Callable[[], Runs]
    faithful: Callable[[], Runs]
    exaggerated: Optional[Callable[[], Runs]] = None


@dataclass(frozen=True)
class Probe:
    """What we think makes a gap, and a run without it: `measure` is the claim's quantity
    on sweeps with the cause removed (`change`: a parameter changed, a reading swapped).
    `share` is the part of the gap the explanation says the cause makes (1.0: all of
    it); the report shows how much the probe closes.

    `then` is a further cause probed on top of this one: its sweeps make this probe's
    change and its own, so its measure shows both causes removed. Its `share` is the part
    of the gap left after the steps before it that the explanation says it makes; the
    report shows each step's own share beside the whole."""

    cause: str
    change: str
    sweeps: Sequence[str]
    measure: Callable[[Context], Measurement]
    share: float = 1.0
    then: Optional["Probe"] = None

    def steps(self) -> List["Probe"]:
        """This probe and the ones run on top of it, in order."""
        return [self, *(self.then.steps() if self.then else [])]


@dataclass(frozen=True)
class Claim:
    """A statement of a paper held to our runs: where it stands (`source`), the paper's
    `words`, the `quantity` we measure for it, the `band` those words allow, and
    `measure`, which computes the quantity's estimate per part from the sweeps it names
    (it sees only those, and `inputs`). The verdict is decided by judge.py, never by the
    claim. `why_here` says why the chosen points can show the effect."""

    key: str  # its name for --only
    text: str
    source: str  # section, figure or table
    words: str  # the paper's words, quoted
    quantity: str  # what is measured: a ratio, a difference, a crossing, a rank
    band: Band
    measure: Callable[[Context], Measurement]
    sweeps: Sequence[str]
    examples: Examples
    why_here: str
    inputs: Inputs = field(default_factory=dict)
    probe: Optional[Probe] = None
    # The variants the claim reads, axis -> values ({"cc": ["bbr", "cubic"]}); empty: all.
    # Runs of other variants are not its data: their failure (a control the core does
    # not have yet) does not stop it, and its measure never sees them.
    reads: Mapping[str, Sequence[Any]] = field(default_factory=dict)

    kind = "claim"

    @property
    def needs(self) -> Sequence[str]:
        probed = [s for step in self.probe.steps() for s in step.sweeps] if self.probe else []
        return tuple(self.sweeps) + tuple(dict.fromkeys(s for s in probed if s not in self.sweeps))

    def evaluate(self, runs: Runs, quick: bool = False) -> Verdict:
        """The verdict on the runs (judge.py); "could not be checked" with the reason when
        the data is not complete (a sweep did not run, a run failed) or the measure
        raised (a missing column, an undeclared sweep, a bug) — never an exception."""
        base = self.own_rows(as_context(runs))
        try:
            for sweep in self.sweeps:
                defect = failed_runs(sweep, base.restricted(self.sweeps)[sweep])
                if defect:
                    return Verdict.unchecked(defect)
            extra = {k: f(quick or base.quick) for k, f in self.inputs.items() if k not in base.runs}
            ctx = base.with_runs(extra).restricted([*self.sweeps, *self.inputs])
            verdict = judge(self.measure(ctx), self.band)
        except Exception as e:  # noqa: BLE001 - every defect becomes a verdict with its reason
            return Verdict.unchecked(describe(e))
        if verdict.state is State.NOT_REPRODUCED:
            return replace(verdict, probe=self.probe_text(base, verdict))
        return verdict

    def own_rows(self, ctx: Context) -> Context:
        """The context with each sweep's runs cut to the variants the claim reads."""
        if not self.reads:
            return ctx
        cut = {}
        for sweep, runs in ctx.runs.items():
            keep = pd.Series(True, index=runs.index)
            for axis, values in self.reads.items():
                if axis in runs.columns:
                    keep &= runs[axis].isin(list(values))
            cut[sweep] = runs[keep]
        return ctx.with_runs(cut)

    def probe_text(self, base: Context, verdict: Verdict) -> str:
        """The cause of a gap and what its probe showed; "cause unknown" without one. A
        probe of several steps (Probe.then) gives each step's part of the gap."""
        if self.probe is None:
            return "cause unknown: no probe has demonstrated one"
        texts: List[str] = []
        before = 0.0  # the part of the gap the steps so far closed
        for i, p in enumerate(self.probe.steps()):
            try:
                defect = next((d for d in (failed_runs(s, base.restricted(p.sweeps)[s]) for s in p.sweeps) if d), "")
                if defect:
                    texts.append(f"{p.cause}; the probe ({p.change}) did not run: {defect}")
                    return ". Then ".join(texts)
                probed = judge(p.measure(base.restricted(p.sweeps)), self.band)
            except Exception as e:  # noqa: BLE001 - the report says the probe could not be made
                texts.append(f"{p.cause}; the probe ({p.change}) could not be measured: {describe(e)}")
                return ". Then ".join(texts)
            closed = gap_closed(verdict, probed)
            if i == 0:
                shown = "demonstrated" if closed >= p.share - 1e-9 else "not demonstrated"
                texts.append(f"{p.cause}. Probe, {p.change}: {probed.ours}, {probed.state.value}; it closes "
                             f"{closed:.0%} of the gap (the explanation says {p.share:.0%}): {shown}")
            else:
                left = 1.0 - before
                own = (closed - before) / left if left > 0 else 0.0
                shown = "demonstrated" if own >= p.share - 1e-9 else "not demonstrated"
                texts.append(f"{p.cause}. Probe, {p.change}, the step before kept: {probed.ours}, "
                             f"{probed.state.value}; together they close {closed:.0%} of the gap, this step "
                             f"{closed - before:.0%} of it, {own:.0%} of the {left:.0%} the step before left "
                             f"(the explanation says {p.share:.0%} of it): {shown}")
            before = closed
        rest = f"; the other {share_text(1 - before)} of the gap: cause unknown" if 0 <= before < 1 else ""
        return ". Then ".join(texts) + rest


def share_text(share: float) -> str:
    """A share of a gap in whole percent, or to a tenth below 1 %: a remainder the steps
    did not close is never printed as "0%" (issue 30: 0.3 % was)."""
    return f"{share:.0%}" if abs(share) >= 0.005 or share == 0 else f"{share:.1%}"


def gap_closed(before: Verdict, after: Verdict) -> float:
    """The share of the distance to the band that the probe closes, summed over parts
    (1.0: all parts inside; 0: no nearer; negative: farther)."""
    def gap(v: Verdict) -> float:
        return sum(_distance(r) for r in v.parts)
    g0 = gap(before)
    return 1.0 - gap(after) / g0 if g0 > 0 else 0.0


def _distance(part: Dict[str, Any]) -> float:
    """How far a part's value lies outside its band (judge.py's row)."""
    return float(part["distance"])


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
    inventory: Optional[Inventory] = None  # every item of the paper and what covers it
    partial: bool = False  # made by only(): its inventory may name claims left out
    # A measurement: figures and tables with no claim, because no published statement is
    # about the numbers it makes (its inventory says why); the report is labelled so.
    measurement: bool = False

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
                            [p for p in self.sweeps if p.key in needed], figures, claims, self.notes,
                            self.inventory, partial=True, measurement=self.measurement)


def check_references(r: Reproduction) -> None:
    """Keys unique, and every sweep a figure, table or claim names declared."""
    where = f"reproduction {r.name!r}"
    for f in r.figures:
        if not isinstance(f, Figure):
            raise BadReproduction(f"{where}: {f!r:.60} is not a figure (one of lossy.papers.figures: "
                                  "LinePlot, Table, TimeSeries, Cdf, MeansXY, Panels)")
    for label, keys in [("sweep", [p.key for p in r.sweeps]),
                        ("figure, table or claim", [*(f.key for f in r.figures), *(c.key for c in r.claims)])]:
        seen = set()
        for key in keys:
            if key in seen:
                raise BadReproduction(f"{where}: two of its sweeps share the key {key!r}" if label == "sweep"
                                      else f"{where}: two items share the key {key!r}")
            seen.add(key)
    sweeps = [p.key for p in r.sweeps]
    if r.measurement and r.claims:
        raise BadReproduction(f"{where}: a measurement has no claims; it has {', '.join(c.key for c in r.claims)}")
    if r.inventory is not None and not r.partial:
        claim_keys = {c.key for c in r.claims}
        for key in r.inventory.claim_keys():
            if key not in claim_keys:
                raise BadReproduction(f"{where}: its inventory names claim {key!r}, which it does not have")
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


__all__ = ["BadReproduction", "Claim", "Examples", "Probe", "Reproduction", "SweepPlan", "check_references", "share_text",
           "describe", "failed_runs", "needed_sweeps"]
