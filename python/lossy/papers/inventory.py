"""A paper's inventory: every figure, table, worked example, proposition, equation set
and quantitative or qualitative statement, with its section, and what covers it — the
claims of its reproduction, or unit tests (by `path::name`) — or why nothing does.

The report and the paper's docs page print it with its counts, so a reader sees what of
the paper was held to the simulator and what was not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Sequence

KINDS = ("figure", "table", "example", "proposition", "equations", "statement")


@dataclass(frozen=True)
class Item:
    """One item of the paper. `claims` are keys of the reproduction's claims, `tests`
    are pytest or cargo test ids (`tests/python/test_x.py::test_y`,
    `crates/lossy-core/tests/x.rs::name`); with neither, `not_covered` says why."""

    ref: str  # "Fig. 10", "Table 1", "Eq. (A·5)", "§6 ¶3"
    section: str
    kind: str
    what: str  # the item in a line: what it shows or states
    claims: Sequence[str] = field(default_factory=tuple)
    tests: Sequence[str] = field(default_factory=tuple)
    not_covered: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"inventory item {self.ref!r}: kind {self.kind!r} is not one of {', '.join(KINDS)}")
        covered = bool(self.claims or self.tests)
        if covered == bool(self.not_covered):
            raise ValueError(f"inventory item {self.ref!r}: name its claims or tests, or say why it is not "
                             "covered (exactly one of the two)")

    @property
    def covered(self) -> bool:
        return bool(self.claims or self.tests)


@dataclass(frozen=True)
class Inventory:
    paper: str  # the file under shared/papers/ it was read from
    items: Sequence[Item]

    def counts(self) -> Dict[str, int]:
        covered = sum(i.covered for i in self.items)
        return {"items": len(self.items), "covered": covered, "not covered": len(self.items) - covered}

    def counts_text(self) -> str:
        c = self.counts()
        return f"{c['items']} items: {c['covered']} covered, {c['not covered']} not covered"

    def claim_keys(self) -> List[str]:
        return [k for i in self.items for k in i.claims]

    def as_records(self) -> List[Dict[str, object]]:
        return [{"ref": i.ref, "section": i.section, "kind": i.kind, "what": i.what, "claims": list(i.claims),
                 "tests": list(i.tests), "not_covered": i.not_covered} for i in self.items]


__all__ = ["Inventory", "Item", "KINDS"]
