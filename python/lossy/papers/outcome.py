"""What a reproduction produced: each sweep's runs, each figure's files (or why it could
not be drawn) and each claim's verdict. report.py writes report.md from it; the CLI
prints its claims and exits 1 when it holds a defect."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from .context import Context
from .figures.base import Artifact, Figure
from .model import Claim, Reproduction, SweepPlan
from .verdict import State, Verdict


def default_out(name: str, root: Optional[Path] = None) -> Path:
    return (root if root is not None else Path("results")) / f"reproduce-{name}"


def only_dir(out: Path, only: Sequence[str]) -> Path:
    """Where `--only KEYS` writes its report, outcome.json and figures: out/only-KEYS/,
    so a partial run never replaces the full run's report.md (issue 27); its sweeps'
    stores stay in `out`, shared with the full run."""
    name = "only-" + ",".join(only)
    if len(name) > 100:  # a long list of keys: the first, how many more, and a digest of all
        import hashlib

        digest = hashlib.sha1(",".join(only).encode()).hexdigest()[:8]
        name = f"only-{only[0]}-and-{len(only) - 1}-more-{digest}"
    return out / name


def store_dir(out: Path, plan: SweepPlan, quick: bool) -> Path:
    # Quick and full runs differ (shorter, fewer): separate stores, never mixed.
    return out / (f"{plan.key}-quick" if quick else plan.key)


@dataclass
class Rendered:
    figure: Figure
    artifacts: List[Artifact] = field(default_factory=list)
    error: Optional[str] = None  # why it could not be drawn (a defect)


@dataclass
class Outcome:
    reproduction: Reproduction  # restricted to --only when given
    ctx: Context
    only: Sequence[str] = ()
    figures: List[Rendered] = field(default_factory=list)
    verdicts: List[Tuple[Claim, Verdict]] = field(default_factory=list)
    wall_s: float = 0.0
    report: Optional[Path] = None
    # Why nothing was run (its recorded traces are not available here: needed_traces.py);
    # not a defect, so `lossy reproduce all` goes on with the others.
    not_run: Optional[str] = None

    @property
    def out(self) -> Path:
        return self.ctx.out

    @property
    def quick(self) -> bool:
        return self.ctx.quick

    def count(self, state: State) -> int:
        return sum(v.state is state for _, v in self.verdicts)

    @property
    def reproduced(self) -> int:
        return self.count(State.REPRODUCED)

    def counts(self) -> str:
        """`5 reproduced, 1 not reproduced, 0 could not be checked`"""
        return ", ".join(f"{self.count(s)} {s.value}" for s in State)

    def defects(self) -> List[str]:
        """Everything that is wrong with the machinery rather than a scientific result."""
        out = [f"sweep {k!r} did not run: {e}" for k, e in self.ctx.errors.items()]
        out += [f"claim {c.key!r} could not be checked: {v.reason}" for c, v in self.verdicts if not v.checked]
        out += [f"{r.figure.kind} {r.figure.key!r} could not be drawn: {r.error}" for r in self.figures if r.error]
        return out

    def title(self) -> str:
        mode = " --quick" if self.quick else ""
        only = f" --only {','.join(self.only)}" if self.only else ""
        return f"lossy reproduce {self.reproduction.name}{mode}{only}"


__all__ = ["Outcome", "Rendered", "default_out", "only_dir", "store_dir"]
