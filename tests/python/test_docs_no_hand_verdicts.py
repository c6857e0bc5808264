"""No page states a verdict by hand (issue 24, "One source of verdicts"): the README and
every hand-written file under docs/ (markdown, and the markdown cells of notebooks)
hold no verdict count ("4 of 8 reproduced"), no verdict as a status ("**Status:
reproduced**") and no table whose last column is a verdict. Where a page shows verdicts
it holds a marker that docs/gen/gen_page_sections.py fills from the run's outcome.json
when the site is built, so no two pages can disagree and none can go stale."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator, List, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]

NUMBER = r"(?:\d+|no|none|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|all|half|most)"
VERDICT = r"(?:not reproduced|reproduced|inconclusive|hold|holds|held|pass|passes|passed)"
BY_HAND = [
    # "4 of 8 reproduced", "2 of the 8 claims hold", "3 of the 4 claims are reproduced"
    re.compile(rf"\b{NUMBER} of (?:the |its |our )?{NUMBER}(?: \w+)?(?: claims?)? (?:are |were |is )?{VERDICT}\b", re.I),
    # "reproduced: 9 of 12 claims", "reproduced in part (4 of 8 claims)"
    re.compile(rf"\b(?:not reproduced|reproduced|inconclusive)\b[^.\n|]{{0,14}}\b{NUMBER} of {NUMBER}\b", re.I),
    # "6 claims reproduced", "all claims are reproduced" (not "hold": "no claim holds the rows" is no verdict)
    re.compile(rf"\b{NUMBER} (?:\w+ )?claims? (?:are |were )?(?:not reproduced|reproduced|inconclusive)\b", re.I),
    # "**Status: reproduced in part**"
    re.compile(r"\*\*status: *(?:not reproduced|reproduced|inconclusive)", re.I),
    # a table row whose last cell is a verdict: "| ... | not reproduced (by 0.001) |", "| reproduced in part |"
    re.compile(r"^\|.*\|\s*[✓✗?⚠]?\s*\**(?:not reproduced|reproduced|inconclusive)\**[^|]{0,40}\|\s*$",
               re.I | re.M),
]


def texts() -> Iterator[Tuple[str, str]]:
    """(where, text) of the README and every hand-written page and notebook cell."""
    yield "README.md", (ROOT / "README.md").read_text(encoding="utf-8")
    for path in sorted((ROOT / "docs").rglob("*")):
        rel = path.relative_to(ROOT).as_posix()
        if path.suffix == ".md":
            yield rel, path.read_text(encoding="utf-8")
        elif path.suffix == ".ipynb":  # the markdown cells; outputs are the run's own
            cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
            for i, c in enumerate(cells):
                if c.get("cell_type") == "markdown":
                    yield f"{rel} cell {i}", "".join(c.get("source", []))


def by_hand(text: str) -> List[str]:
    """The lines of `text` that state a verdict by hand."""
    return [line.strip() for line in text.splitlines() if any(p.search(line) for p in BY_HAND)]


@pytest.mark.parametrize("line", [
    "[gallery](../gallery/index.md): 4 of 8 reproduced; see below.",
    "shared with other work; `--quick` 25 s), 9 of the 12 claims are reproduced:",
    "below — 2 of the 8 claims hold with FECTCP as the text describes it.",
    "5 s, where 3 of 8 hold), 2 of the 8 claims are reproduced:",
    "lossy reproduce validation --quick: 6 of 6 claims reproduced (6 reproduced, 0 not reproduced)",
    "| `lossy reproduce chockalingam-ll-fec-arq` | reproduced: 9 of 12 claims |",
    "| `lossy reproduce chen-syndrome` | reproduced in part (4 of 8 claims); results in the gallery |",
    "**Status: reproduced in part** (`lossy reproduce botos-fectcp`): the",
    "| S1 above S2 | S1 > S2 | S1 ÷ S2 1.14×–1.65× | reproduced |",
    "| A joining TCP flow | its share | Jain 0.799 | not reproduced (by 0.001, and the other way round) |",
    "All six claims are reproduced.",
    "| Beyond: TCP-friendly on a congested bottleneck | — | 0.85 with DropTail | not reproduced with RED |",
    "| [Botoș, Polgar, Bota, FECTCP](botos-fectcp.md) | a transport | `lossy reproduce botos-fectcp` | reproduced in part |",
])
def test_the_patterns_catch_verdicts_stated_by_hand(line: str) -> None:
    assert by_hand(line), f"not caught: {line}"


@pytest.mark.parametrize("line", [
    "lossy reproduce validation --quick: N of M claims reproduced (…)",
    "A claim is reproduced when every part is, not reproduced when any part lies wholly outside.",
    "<!-- generated: verdicts chen-syndrome -->",
    "- **reproduced**: the whole CI lies inside the band;",
    "| claim | source | band | ours (95 % CI) | verdict |",
    "a mean of 0.799 against a band starting at 0.8 is inconclusive, not a miss by 0.001.",
    "the paper's fixed rows support is not settled here: no claim holds the fixed rows (see the",
])
def test_the_patterns_pass_what_is_not_a_verdict(line: str) -> None:
    assert not by_hand(line), f"caught: {line}"


def test_no_page_states_a_verdict_by_hand() -> None:
    found = [f"{where}: {line}" for where, text in texts() for line in by_hand(text)]
    assert not found, ("verdicts stated by hand (use a generated section, "
                       "`<!-- generated: status|verdicts|papers-table NAME -->`, see docs/gen/gen_page_sections.py):\n"
                       + "\n".join(found))
