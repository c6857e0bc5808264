"""The claims and the inventory of one reproduction as markdown, from its outcome.json:
the same sections on its gallery page and on its paper's page, so the two cannot
disagree. Every number and verdict here is read from the run (reproduction_results.py);
nothing is typed in.

Each claim shows its source, the paper's words, the quantity, the band and how it was
read, our estimate with its 95 % CI per part, the verdict, and for an inconclusive one
the replications that would decide it, for a "not reproduced" one what its probe closed
(or "cause unknown").

Not a `gen_*.py` module: pages.py does not run it; the generators import it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict, List

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import md_text as md  # noqa: E402
import reproduction_results as rr  # noqa: E402

Claim = Dict[str, Any]


def run_line(e: rr.Entry) -> str:
    """Which run a page shows: its command, when, its scale, its version."""
    o = e.outcome or {}
    return (f"From `{o.get('command', '')}` ({rr.scale(o)}), {o.get('finished', '')}, "
            f"{float(o.get('wall_s', 0)):.0f} s; {o.get('provenance', '')}")


def summary(e: rr.Entry) -> str:
    """One sentence: the counts and the inventory, with the run's scale."""
    o = e.outcome or {}
    return f"{rr.counts_text(e)}; {rr.inventory_text(e)}. {rr.scale(o)[0].upper()}{rr.scale(o)[1:]}."


def claims(e: rr.Entry, heading: str = "###") -> List[str]:
    """The claims table, each verdict's reasons (closed until clicked) and what the
    verdicts mean."""
    rows = e.claims
    lines = [summary(e), ""]
    if (e.outcome or {}).get("measurement"):
        return lines + ["**A measurement**: no published statement is about the numbers this reproduction makes "
                        "(the inventory says why for each), so its figures and tables are measurements with "
                        "95 % confidence intervals, and no claim is judged. Elsewhere, the verdicts: "
                        + "; ".join(f"**{s}**: {rr.MEANINGS[s]}" for s in rr.STATES) + ".", ""]
    if not rows:
        return lines
    lines += md.table(["claim", "source", "band", "ours (95 % CI)", "verdict"],
                      [[c["text"], c.get("source", ""), _band(c), c.get("ours", ""), _verdict(c)] for c in rows])
    lines += ["", md.details("Each claim: the paper's words, the quantity, the band, each part's estimate, "
                             "and why the verdict", _why(rows)), ""]
    lines += ["The verdicts: " + "; ".join(f"**{s}**: {rr.MEANINGS[s]}" for s in rr.STATES) + ".", ""]
    return lines


def inventory(e: rr.Entry) -> List[str]:
    """The paper's inventory: every figure, table, example and statement, and what
    covers it, with the counts."""
    inv = e.inventory
    if inv is None:
        return [f"`{e.name}` has no inventory of its paper yet: nothing lists which of the paper's figures, "
                "tables and statements its claims cover.", ""]
    items = inv.get("items", [])
    lines = [f"{md.inline(rr.inventory_text(e)).capitalize()} (`{inv.get('paper', '')}`).", ""]
    if items:
        lines += md.table(["item", "section", "kind", "what", "covered by"],
                          [[i.get("ref", ""), i.get("section", ""), i.get("kind", ""), i.get("what", ""),
                            _covered(i)] for i in items])
        lines.append("")
    return lines


def declared(e: rr.Entry) -> List[str]:
    """What a reproduction that has not run will check: its claims and their bands."""
    r = e.repro
    lines = [f"{len(r.claims)} claims, each judged when the reproduction runs:", ""]
    if r.claims:
        lines += md.table(["claim", "source", "band", "ours (95 % CI)", "verdict"],
                          [[c.text, c.source or "–", c.band.text(), "–", "not run"] for c in r.claims])
        lines.append("")
    return lines


# --- cells ---------------------------------------------------------------------------------


def _band(c: Claim) -> str:
    return str(c.get("band", "")) + (" (direction only)" if c.get("direction_only")
                                     and "direction only" not in str(c.get("band", "")) else "")


def _verdict(c: Claim) -> str:
    cell = rr.verdict_cell(c["state"])
    if c["state"] == "inconclusive" and c.get("needed"):
        cell += f" (about {c['needed']} replications would decide it)"
    return cell


def _covered(item: Dict[str, Any]) -> str:
    keys = [f"`{k}`" for k in [*item.get("claims", []), *item.get("tests", [])]]
    return ", ".join(keys) if keys else f"not covered: {item.get('not_covered', '')}"


# --- the reasons ---------------------------------------------------------------------------


def _sentence(text: Any) -> str:
    """Text on one line, ending as a sentence ends (a quote may end in its own stop)."""
    text = md.inline(text)
    return text if text.endswith((".", "!", "?", '."', ".'", ".”")) else text + "."


def _why(rows: List[Claim]) -> List[str]:
    lines: List[str] = []
    for i, c in enumerate(rows, 1):
        lines.append(f"{i}. **{md.inline(c['text'])}** (`{c['key']}`): **{c['state']}**, {md.inline(c.get('reason', ''))}.")
        body: List[str] = []
        reading = md.inline(c.get("band_reading", ""))
        if c.get("direction_only") and "direction only" not in reading:
            reading += " (direction only: the paper gives no magnitude, so ours is printed as measured)"
        body.append(f"The paper ({md.inline(c.get('source', ''))}): {_sentence(c.get('words', ''))} "
                    f"We measure {md.inline(c.get('quantity', ''))}; band {_sentence(reading)}")
        if c.get("why_here"):
            body.append(f"Why these points: {_sentence(c['why_here'])}")
        if c["state"] == "not reproduced":
            body.append(f"What closes the gap: {md.inline(c.get('probe') or 'cause unknown: no probe has demonstrated one')}.")
        for text in body:
            lines += ["", f"    {text}"]
        parts = c.get("parts") or []
        if parts:
            lines += [""] + md.indented(md.table(
                ["part", "ours", "95 % CI", "n", "band", "state"],
                [[p.get("label", "") or "–", md.number(p.get("value")),
                  f"{md.number(p.get('ci_low'))} to {md.number(p.get('ci_high'))}" if p.get("n") else "exact",
                  p.get("n", ""), p.get("band", ""), p.get("state", "")] for p in parts]))
        lines.append("")
    return lines
