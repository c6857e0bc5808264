"""The reproductions gallery: gallery/index.md, and gallery/<name>.md for every
reproduction registered in lossy.papers (a new one gets its page with no new docs file).

Each page takes its content from the reproduction's outcome.json (written by
`lossy reproduce` beside report.md; see reproduction_results.py): the paper's result in
a sentence or two (the reproduction's `about`), the run's scale, the claims with their
bands, estimates and verdicts and the paper's inventory (verdict_sections.py, the same
sections its paper's page shows), the figures (the PNGs are copied into the site beside
the page), the tables, what was run, and the commands. A reproduction with no results
still gets its page: its declared claims and figures, and how to produce them.

`pages(root)` returns every file as text (a page) or as a Path (a file to copy), so
tests can look at the pages without building the site; `write()` is what pages.py runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple, Union

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import md_text as md  # noqa: E402
import reproduction_results as rr  # noqa: E402
import verdict_sections as vs  # noqa: E402

Content = Union[str, Path]  # a page's markdown, or a file to copy into the site


def pages(root: Optional[Path] = None) -> Dict[str, Content]:
    """Every file of the gallery, by its path in the site."""
    root = rr.results_root() if root is None else root
    entries = rr.entries(root)
    files: Dict[str, Content] = {"gallery/index.md": index(entries, root)}
    for entry in entries:
        text, copies = page(entry, root)
        files[f"gallery/{entry.name}.md"] = text
        files.update({f"gallery/{entry.name}/{rel}": path for rel, path in copies.items()})
    return files


def write() -> None:
    import mkdocs_gen_files

    for path, content in pages().items():
        if isinstance(content, Path):
            with mkdocs_gen_files.open(path, "wb") as f:
                f.write(content.read_bytes())
        else:
            with mkdocs_gen_files.open(path, "w", encoding="utf-8") as f:
                f.write(content)


# --- the index ---------------------------------------------------------------------------


def index(entries: List[rr.Entry], root: Path) -> str:
    lines = [
        "# Gallery", "",
        "Every reproduction registered in `lossy.papers`, run when the site is built (`make docs` "
        "runs `lossy reproduce all` first; each row says at which scale): per paper, its figures "
        "beside a short statement of the paper's result, its claims with their bands, confidence "
        "intervals and verdicts, the paper's inventory, and the commands. The claims of the "
        "simulator against ns-3 and the throughput models are gathered on the "
        "[validation page](../validation.md).", "",
        "| reproduction | run | claims | " + " | ".join(rr.STATES) + " | inventory | defects |",
        "|" + "|".join(" --- " for _ in range(len(rr.STATES) + 5)) + "|",
    ]
    for e in entries:
        link = f"[{md.cell(e.repro.title)}]({e.name}.md) (`{e.name}`)"
        if e.outcome is None:
            lines.append(f"| {link} | not run | {len(e.repro.claims)} | "
                         + " | ".join("–" for _ in rr.STATES) + " | – | – |")
            continue
        o = e.outcome
        inv = e.inventory
        covered = (f"{inv['counts'].get('covered', 0)} of {inv['counts'].get('items', 0)} items covered"
                   if inv else "none yet")
        lines.append(f"| {link} | {md.cell(rr.scale(o))}, {md.cell(o.get('finished', ''))} | {len(e.claims)} | "
                     + " | ".join(str(e.count(s)) for s in rr.STATES)
                     + f" | {covered} | {len(o.get('defects', []))} |")
    lines.append("")
    missing = [e for e in entries if e.outcome is None]
    if missing:
        lines += [md.admonition("warning", "Results missing",
                                f"{', '.join(f'`{e.name}`' for e in missing)}: {missing[0].missing}. "
                                + rr.how_to_produce(root)), ""]
    lines += ["## The four verdicts", ""]
    lines += [f"- {rr.verdict_cell(s)}: {rr.MEANINGS[s]}." for s in rr.STATES]
    lines += ["",
              "How a claim states its band, and how the verdict is read from its confidence interval: "
              "the [reproductions guide](../guide/reproductions.md). Where each paper stands is also on "
              "the [Papers](../papers/index.md) pages, from the same runs.", ""]
    return "\n".join(lines)


# --- a reproduction's page ---------------------------------------------------------------


def page(e: rr.Entry, root: Path) -> Tuple[str, Dict[str, Path]]:
    """The page's markdown, and the files it shows (path under gallery/<name>/ -> source)."""
    r = e.repro
    lines = [f"# {r.title}", "", r.about, ""]
    if e.outcome is None:
        lines += [md.admonition("warning", "Not run yet",
                                f"No results to show: {e.missing}. " + rr.how_to_produce(root, e)), ""]
        lines += ["## Claims", ""] + vs.declared(e) + _declared_figures(e) + _commands(e)
        return "\n".join(lines), {}
    o = e.outcome
    copies: Dict[str, Path] = {}
    if o.get("quick"):
        lines += [md.admonition("info", "The quick version",
                                f"These are the results of `lossy reproduce {e.name} --quick`: fewer points "
                                "and replications and shorter runs than the full one, so the intervals are "
                                "wider and more claims may be inconclusive (a quick run never contradicts "
                                f"the full one). The full scale is `lossy reproduce {e.name}` "
                                "(see [Run it](#run-it))."), ""]
    if o.get("only"):
        lines += [md.admonition("note", "Part of it",
                                "Only " + ", ".join(f"`{k}`" for k in o["only"]) + " were made (`--only`)."), ""]
    lines += [vs.run_line(e), ""]
    lines += ["## Claims", ""] + vs.claims(e) + _defects(o)
    lines += ["## Inventory of the paper", ""] + vs.inventory(e) + _notes(o)
    figures = o.get("figures", [])
    if figures:
        lines += ["## Figures and tables", ""]
    for f in figures:
        lines += _figure(e, f, copies)
    lines += _commands(e) + _what_was_run(o)
    return "\n".join(lines), copies


def _defects(o: Dict[str, Any]) -> List[str]:
    defects = o.get("defects", [])
    if not defects:
        return []
    return [md.admonition("failure", "Defects",
                        "These are faults of the reproduction, not results:\n\n"
                        + "\n".join(f"- {md.inline(d)}" for d in defects)), ""]


def _notes(o: Dict[str, Any]) -> List[str]:
    notes = o.get("notes", [])
    return ["## Readings chosen", "", *[f"- {md.inline(n)}" for n in notes], ""] if notes else []


def _figure(e: rr.Entry, f: Dict[str, Any], copies: Dict[str, Path]) -> List[str]:
    title = str(f.get("title", f.get("key", "")))
    lines = [f"### {title}", ""]
    if f.get("error"):
        return lines + [md.admonition("failure", "Could not be drawn", md.inline(f["error"])), ""]
    absent = []
    for rel in f.get("images", []):
        path = e.file(rel)
        if path is None:
            absent.append(rel)
            continue
        copies[rel] = path
        lines += [f"![{md.alt(title)}]({e.name}/{rel})", ""]
    if f.get("caption"):
        lines += [md.inline(f["caption"]), ""]
    for t in f.get("tables", []):
        columns, rows = t.get("columns", []), t.get("rows", [])
        if rows:
            lines += ["| " + " | ".join(columns) + " |", "|" + "|".join(" --- " for _ in columns) + "|"]
            lines += ["| " + " | ".join(row) + " |" for row in rows]
        else:
            lines.append("(no rows)")
        path = e.file(t["csv"]) if t.get("csv") else None
        if path is not None:
            copies[t["csv"]] = path
            lines += ["", f"([CSV]({e.name}/{t['csv']}))"]
        lines.append("")
    if absent:
        lines += [md.admonition("warning", "Missing files",
                              "outcome.json names " + ", ".join(f"`{a}`" for a in absent)
                              + " but the results directory does not hold them; run the reproduction "
                              "again (`make docs` does)."), ""]
    return lines


def _declared_figures(e: rr.Entry) -> List[str]:
    """What a reproduction that has not run will draw."""
    r = e.repro
    if not r.figures:
        return []
    return (["## Figures and tables", "", "Drawn when it runs:", ""]
            + [f"- {md.inline(f.title)} ({f.kind}, `{f.key}`)" for f in r.figures] + [""])


def _commands(e: rr.Entry) -> List[str]:
    keys = [*(f.key for f in e.repro.figures), *(c.key for c in e.repro.claims)]
    only = f"lossy reproduce {e.name} --only {keys[0]}" if keys else ""
    lines = ["## Run it", "",
             "```bash",
             f"# the full scale (its report: results/reproduce-{e.name}/report.md)",
             f"lossy reproduce {e.name}",
             "# the quick version: fewer points and replications, shorter runs",
             f"lossy reproduce {e.name} --quick",
             *(["# only some figures, tables or claims, and the sweeps they need", only] if only else []),
             "# every reproduction's figures, tables and claims (runs nothing)",
             "lossy reproduce --list",
             "```", ""]
    if keys:
        lines += [f"Its keys for `--only`: {', '.join(f'`{k}`' for k in keys)}. Stored runs are reused, "
                  "so a second call only redraws and rechecks.", ""]
    return lines


def _what_was_run(o: Dict[str, Any]) -> List[str]:
    if o.get("what_was_run"):  # report.md's own section: scenarios, settings, axes, seeds
        return ["## What was run", "", str(o["what_was_run"]), ""]
    sweeps = o.get("sweeps", [])
    if not sweeps:
        return []
    lines = ["## What was run", ""]
    for s in sweeps:
        if s.get("error"):
            lines.append(f"- **{md.inline(s['title'])}** (`{s['key']}`): did not run: {md.inline(s['error'])}")
        else:
            lines.append(f"- **{md.inline(s['title'])}** (`{s['key']}`): {s['runs']} runs, {s['ok']} ok, "
                         f"{s['failed']} failed; stored in `{s['store']}/`")
    return lines + ["", "Each sweep's scenario, axes and seeds are in the reproduction's report.md, "
                        "beside its figures.", ""]
