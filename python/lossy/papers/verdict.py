"""A claim's verdict, in one of three states.

"not reproduced" is a scientific result: the check ran on complete data and our number
is outside the tolerance. "could not be checked" is a defect to fix (a missing column, a
failed run, a sweep that did not run, a bad reference, a check that raised), never a
result; the CLI exits with status 1 when any claim is in that state.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class State(str, Enum):
    REPRODUCED = "reproduced"
    NOT_REPRODUCED = "not reproduced"
    UNCHECKED = "could not be checked"


@dataclass(frozen=True)
class Verdict:
    """What a check found: its state, our value in words, and why."""

    state: State
    ours: str
    reason: str

    @property
    def reproduced(self) -> bool:
        return self.state is State.REPRODUCED

    @property
    def checked(self) -> bool:
        return self.state is not State.UNCHECKED

    @classmethod
    def of(cls, ok: bool, ours: str, reason: str) -> "Verdict":
        """Reproduced or not, as a check on complete data decides."""
        return cls(State.REPRODUCED if ok else State.NOT_REPRODUCED, ours, reason)

    @classmethod
    def unchecked(cls, reason: str, ours: str = "-") -> "Verdict":
        return cls(State.UNCHECKED, ours, reason)


__all__ = ["State", "Verdict"]
