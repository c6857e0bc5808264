"""A claim's verdict, in one of four states.

"reproduced", "not reproduced" and "inconclusive" are scientific results, decided by the
95 % confidence interval of the claim's quantity against its band (judge.py): the whole
CI inside, wholly outside, or straddling an end. "could not be checked" is a defect to
fix (a missing column, a failed run, a sweep that did not run, a bad reference, a check
that raised), never a result; the CLI exits with status 1 when any claim is in that
state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Dict, List, Optional


class State(str, Enum):
    REPRODUCED = "reproduced"
    NOT_REPRODUCED = "not reproduced"
    INCONCLUSIVE = "inconclusive"
    UNCHECKED = "could not be checked"


@dataclass(frozen=True)
class Verdict:
    """What a check found: its state, our value in words, and why. A judged verdict also
    carries the band, each part's estimate (as data for outcome.json), the replications
    that would decide an inconclusive one, and what the probe of a gap showed."""

    state: State
    ours: str
    reason: str
    band: str = ""
    parts: List[Dict[str, Any]] = field(default_factory=list)
    needed: Optional[int] = None  # replications --until-ci estimates would decide it
    probe: str = ""  # for "not reproduced": the cause and what removing it closes

    @property
    def reproduced(self) -> bool:
        return self.state is State.REPRODUCED

    @property
    def checked(self) -> bool:
        return self.state is not State.UNCHECKED

    @classmethod
    def unchecked(cls, reason: str, ours: str = "-") -> "Verdict":
        return cls(State.UNCHECKED, ours, reason)


__all__ = ["State", "Verdict"]
