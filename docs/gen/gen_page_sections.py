"""Generated sections inside hand-written pages: a page under docs/ states no verdict,
count or band by hand; where it shows one, it holds a marker, and this module replaces
the marker, when the site is built, with what the run's outcome.json says (the same
results the gallery reads: reproduction_results.py) or what the code defines.

A marker is an HTML comment on a line of its own (invisible where the markdown is read
unbuilt):

    <!-- generated: KIND [NAME] -->

| kind | what it becomes |
| --- | --- |
| `status NAME` | a paragraph: NAME's verdict counts, inventory counts and the run's scale |
| `verdicts NAME` | NAME's claims table with bands, CIs and verdicts, each claim's reasons |
| `inventory NAME` | the paper's inventory: every item and what covers it, with the counts |
| `claims NAME` | NAME's claims and their bands as declared (no run needed, no verdict) |
| `terminal NAME` | what `lossy reproduce NAME` printed first in the site's run, with its scale |
| `figure NAME.KEY` | NAME's figure KEY as the site's run drew it (its copy in the gallery), with its title and a link to the gallery page |
| `papers-table` | every reproduction: its run's scale, verdict counts and inventory counts |
| `words` | the one table of words of likeness and their bands (lossy.papers.bands.WORDS) |
| `verdict-states` | the four verdicts and what each means |

An unknown kind or reproduction fails the build, naming the page and the marker.
`pages(root)` returns every edited page as text (tests look at them without building);
`write()` is what pages.py runs.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Callable, Dict, List, Optional

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import md_text as md  # noqa: E402
import reproduction_results as rr  # noqa: E402
import verdict_sections as vs  # noqa: E402

DOCS = rr.ROOT / "docs"
MARKER = re.compile(r"^[ \t]*<!-- generated: (?P<kind>[a-z-]+)(?: (?P<name>[\w.-]+))? -->[ \t]*$", re.M)


class BadMarker(RuntimeError):
    """A marker this module cannot fill (an unknown kind or reproduction)."""


def pages(root: Optional[Path] = None, docs: Path = DOCS) -> Dict[str, str]:
    """Every page under `docs` that holds a marker, by its path relative to `docs`,
    with its markers replaced."""
    root = rr.results_root() if root is None else root
    cache: Dict[str, rr.Entry] = {}
    out = {}
    for path in sorted(docs.rglob("*.md")):
        rel = path.relative_to(docs).as_posix()
        if rel.startswith("gen/"):
            continue
        text = path.read_text(encoding="utf-8")
        if MARKER.search(text):
            out[rel] = MARKER.sub(lambda m: _fill(m, rel, root, cache), text)
    return out


def write() -> None:
    import mkdocs_gen_files

    for rel, text in pages().items():
        with mkdocs_gen_files.open(rel, "w", encoding="utf-8") as f:
            f.write(text)


def _fill(m: "re.Match[str]", page: str, root: Path, cache: Dict[str, rr.Entry]) -> str:
    kind, name = m.group("kind"), m.group("name")
    where = f"docs/{page}: `{m.group(0).strip()}`"
    up = "../" * page.count("/")  # from the page to the site's root
    if kind in WHOLE:
        if name:
            raise BadMarker(f"{where}: `{kind}` takes no name")
        return "\n".join(WHOLE[kind](root, up))
    if kind not in OF_ONE and kind not in WITH_KEY:
        raise BadMarker(f"{where}: no generated section {kind!r}; there are: {', '.join([*OF_ONE, *WITH_KEY, *WHOLE])}")
    if not name:
        raise BadMarker(f"{where}: `{kind}` needs the name of a reproduction")
    name, _, key = name.partition(".")  # `figure NAME.KEY`: reproduction names hold no dot
    if bool(key) != (kind in WITH_KEY):
        raise BadMarker(f"{where}: `{kind}` takes " + ("NAME.KEY, a reproduction and one of its figures"
                                                         if kind in WITH_KEY else "the name of a reproduction"))
    if name not in cache:
        try:
            cache[name] = rr.load(name, root)
        except Exception as e:  # noqa: BLE001 - the registry's message names what exists
            raise BadMarker(f"{where}: {e}") from e
    if key:
        return "\n".join(WITH_KEY[kind](cache[name], root, up, key, where)).rstrip("\n")
    return "\n".join(OF_ONE[kind](cache[name], root, up)).rstrip("\n")


# --- one reproduction --------------------------------------------------------------------


def _not_run(e: rr.Entry, root: Path) -> List[str]:
    return [md.admonition("warning", "Not run when this site was built",
                          f"No results to show: {e.missing}. " + rr.how_to_produce(root, e)), ""]


def status(e: rr.Entry, root: Path, up: str) -> List[str]:
    gallery = f"[gallery]({up}gallery/{e.name}.md)"
    if e.outcome is None:
        return _not_run(e, root)
    o = e.outcome
    return [f"**Where it stands** (`{o.get('command', '')}`, {rr.scale(o)}, {o.get('finished', '')}, when this "
            f"site was built): {rr.counts_text(e)}; {rr.inventory_text(e)}. Each claim's band, confidence "
            f"interval and reasons are below and in the {gallery}.", ""]


def verdicts(e: rr.Entry, root: Path, up: str) -> List[str]:
    if e.outcome is None:
        return _not_run(e, root) + vs.declared(e)
    defects = e.outcome.get("defects", [])
    lines = [vs.run_line(e), ""] + vs.claims(e)
    if defects:
        lines += [md.admonition("failure", "Defects", "Faults of the reproduction, not results:\n\n"
                                + "\n".join(f"- {md.inline(d)}" for d in defects)), ""]
    return lines + [f"Figures, tables and what was run: its [gallery page]({up}gallery/{e.name}.md).", ""]


def inventory(e: rr.Entry, root: Path, up: str) -> List[str]:
    if e.outcome is None and e.repro.inventory is not None:  # declared in the code: no run needed
        inv = e.repro.inventory
        declared = rr.Entry(e.name, e.repro, e.out, {"inventory": {
            "paper": inv.paper, "counts": inv.counts(), "items": inv.as_records()}})
        return vs.inventory(declared)
    return vs.inventory(e)


def claims(e: rr.Entry, root: Path, up: str) -> List[str]:
    return [f"- {md.inline(c.text)} (`{c.key}`): band {c.band.text()}" for c in e.repro.claims] + [""]


def terminal(e: rr.Entry, root: Path, up: str) -> List[str]:
    if e.outcome is None:
        return _not_run(e, root)
    o = e.outcome
    n = len(e.claims)
    line = (f"{o.get('command', '')}: {e.count('reproduced')} of {n} claims reproduced ("
            + ", ".join(f"{e.count(s)} {s}" for s in rr.STATES) + ")")
    return [f"When this site was built, `{o.get('command', '')}` ({rr.scale(o)}, {o.get('finished', '')}) "
            "began with:", "", "```text", line, "```", "",
            f"Each claim's band, interval and verdict are in its [gallery page]({up}gallery/{e.name}.md).", ""]


OF_ONE: Dict[str, Callable[[rr.Entry, Path, str], List[str]]] = {
    "status": status, "verdicts": verdicts, "inventory": inventory, "claims": claims, "terminal": terminal,
}


def figure(e: rr.Entry, root: Path, up: str, key: str, where: str) -> List[str]:
    """One figure of the site's run: the gallery's copy of its image (gen_gallery.py
    copies every image of a run into gallery/NAME/), its title, and where the rest is."""
    declared = [f.key for f in e.repro.figures]
    if key not in declared:
        raise BadMarker(f"{where}: {e.name} has no figure {key!r}; it has: {', '.join(declared)}")
    gallery = f"[gallery]({up}gallery/{e.name}.md)"
    if e.outcome is None:
        return _not_run(e, root)
    drawn = next((f for f in e.outcome.get("figures", []) if f.get("key") == key), {})
    images = [rel for rel in drawn.get("images", []) if e.file(rel) is not None]
    if not images:
        why = drawn.get("error") or "its image is not in the results"
        return [md.admonition("warning", "Figure missing", f"`{key}` of `{e.name}` was not drawn when this site "
                              f"was built: {md.inline(why)}. " + rr.how_to_produce(root, e)), ""]
    title = md.inline(str(drawn.get("title", key)))
    return [f"![{md.alt(title)}]({up}gallery/{e.name}/{images[0]})", "",
            f"*{title}* (`{e.outcome.get('command', '')}`, {rr.scale(e.outcome)}, when this site was built; "
            f"its claims and the other figures are in the {gallery}).", ""]


WITH_KEY: Dict[str, Callable[[rr.Entry, Path, str, str, str], List[str]]] = {"figure": figure}


# --- every reproduction, or the protocol itself ---------------------------------------------


def papers_table(root: Path, up: str) -> List[str]:
    header = ["reproduction", "run", "claims", *rr.STATES, "inventory of the paper"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    entries = rr.entries(root)
    for e in entries:
        title = md.cell(e.repro.title)
        if (DOCS / "papers" / f"{e.name}.md").is_file():
            title = f"[{title}]({up}papers/{e.name}.md)"
        inv = e.inventory or ({"counts": e.repro.inventory.counts()} if e.repro.inventory else None)
        covered = (f"{inv['counts'].get('covered', 0)} of {inv['counts'].get('items', 0)} items covered"
                   if inv else "none yet")
        cells = [f"{title} ([gallery]({up}gallery/{e.name}.md))"]
        if e.outcome is None:
            cells += ["not run", str(len(e.repro.claims)), *("–" for _ in rr.STATES), covered]
        else:
            cells += [md.cell(f"{rr.scale(e.outcome)}, {e.outcome.get('finished', '')}"), str(len(e.claims)),
                      *(str(e.count(s)) for s in rr.STATES), covered]
        lines.append("| " + " | ".join(cells) + " |")
    missing = [e for e in entries if e.outcome is None]
    if missing:
        lines += ["", md.admonition("warning", "Results missing",
                                    f"{', '.join(f'`{e.name}`' for e in missing)}: {missing[0].missing}. "
                                    + rr.how_to_produce(root))]
    return lines + [""]


def words(root: Path, up: str) -> List[str]:
    from lossy.papers.bands import STATED, WORDS

    rows = [[f'"{w}"', f"{1 - h:.2f}× to {1 + h:.2f}× (± {h:.0%})", f"−{h:.2f} to +{h:.2f}"]
            for w, h in WORDS.items()]
    return (md.table(["the paper's word", "band for a ratio", "band for a difference on a 0–1 scale"], rows)
            + ["", f"A number the paper states is held to ± {STATED:.0%} of itself (`Band.stated`), unless the "
                   "paper states its own tolerance.", ""])


def verdict_states(root: Path, up: str) -> List[str]:
    return [f"- {rr.verdict_cell(s)}: {rr.MEANINGS[s]}." for s in rr.STATES] + [""]


WHOLE: Dict[str, Callable[[Path, str], List[str]]] = {
    "papers-table": papers_table, "words": words, "verdict-states": verdict_states,
}
