"""The reproductions gallery: gallery/index.md, and gallery/<name>.md for every
reproduction registered in lossy.papers (a new one gets its page with no new docs file).

Each page takes its content from the reproduction's outcome.json (written by
`lossy reproduce` beside report.md; see reproduction_results.py): the paper's result in
a sentence or two (the reproduction's `about`), the claims with their verdicts, the
figures (the PNGs are copied into the site beside the page), the tables, what was run,
and the commands. A reproduction with no results still gets its page: its declared
claims and figures, and how to produce them.

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

import reproduction_results as rr  # noqa: E402

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
        "Every reproduction registered in `lossy.papers`, run at its quick scale when the site "
        "is built (`make docs` runs `lossy reproduce all --quick` first): per paper, its figures "
        "beside a short statement of the paper's result, its claims with their verdicts, and "
        "the command for the full-scale run. The claims of the simulator against ns-3 and the "
        "throughput models are gathered on the [validation page](../validation.md).", "",
        "| reproduction | results | claims | reproduced | not reproduced | could not be checked | defects |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for e in entries:
        link = f"[{_cell(e.repro.title)}]({e.name}.md) (`{e.name}`)"
        if e.outcome is None:
            lines.append(f"| {link} | not run | {len(e.repro.claims)} | – | – | – | – |")
            continue
        o = e.outcome
        scale = "quick" if o.get("quick") else "full scale"
        if o.get("only"):
            scale += ", `--only` some"
        lines.append(f"| {link} | {scale}, {_cell(o.get('finished', ''))} | {len(o.get('claims', []))} | "
                     + " | ".join(str(e.count(s)) for s in rr.STATES) + f" | {len(o.get('defects', []))} |")
    lines.append("")
    missing = [e for e in entries if e.outcome is None]
    if missing:
        lines += [_admonition("warning", "Results missing",
                              f"{', '.join(f'`{e.name}`' for e in missing)}: {missing[0].missing}. "
                              + rr.how_to_produce(root)), ""]
    lines += ["## The three verdicts", ""]
    lines += [f"- {rr.verdict_cell(s)}: {rr.MEANINGS[s]}." for s in rr.STATES]
    lines += ["",
              "Papers whose reproductions are still to come get their page here when their "
              "reproduction is registered in `lossy.papers` (a package, no docs file); where each "
              "paper stands is on the [Papers](../papers/index.md) pages.", ""]
    return "\n".join(lines)


# --- a reproduction's page ---------------------------------------------------------------


def page(e: rr.Entry, root: Path) -> Tuple[str, Dict[str, Path]]:
    """The page's markdown, and the files it shows (path under gallery/<name>/ -> source)."""
    r = e.repro
    lines = [f"# {r.title}", "", r.about, ""]
    if e.outcome is None:
        lines += [_admonition("warning", "Not run yet",
                              f"No results to show: {e.missing}. " + rr.how_to_produce(root, e)), ""]
        lines += _declared(e) + _commands(e)
        return "\n".join(lines), {}
    o = e.outcome
    copies: Dict[str, Path] = {}
    if o.get("quick"):
        lines += [_admonition("info", "The quick version",
                              f"These are the results of `lossy reproduce {e.name} --quick`, which "
                              "`make docs` runs: fewer points and replications and shorter runs than "
                              "the full one, so the intervals are wider. The full scale is "
                              f"`lossy reproduce {e.name}` (see [Run it](#run-it))."), ""]
    if o.get("only"):
        lines += [_admonition("note", "Part of it",
                              "Only " + ", ".join(f"`{k}`" for k in o["only"]) + " were made (`--only`)."), ""]
    lines += [f"`{o.get('command', '')}`, {o.get('finished', '')}, {float(o.get('wall_s', 0)):.0f} s. "
              f"{o.get('provenance', '')}", ""]
    lines += _claims(o) + _defects(o) + _notes(o)
    figures = o.get("figures", [])
    if figures:
        lines += ["## Figures and tables", ""]
    for f in figures:
        lines += _figure(e, f, copies)
    lines += _commands(e) + _what_was_run(o)
    return "\n".join(lines), copies


def _claims(o: Dict[str, Any]) -> List[str]:
    claims = o.get("claims", [])
    counts = ", ".join(f"{int(o.get('counts', {}).get(s, 0))} {s}" for s in rr.STATES)
    lines = ["## Claims", "",
             f"{sum(c['state'] == 'reproduced' for c in claims)} of {len(claims)} reproduced ({counts}).", ""]
    if not claims:
        return lines
    lines += ["| claim | reference | tolerance | ours | verdict |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {_cell(c['text'])} | {_cell(c['reference'])} | {_cell(c['tolerance'])} | "
              f"{_cell(c['ours'])} | {rr.verdict_cell(c['state'])} |" for c in claims]
    why = [f"{i}. {_inline(c['text'])}: **{c['state']}**, {_inline(c['reason'])}."
           + (f" Reference: {_inline(c['source'])}." if c.get("source") else "") + f" (`{c['key']}`)"
           for i, c in enumerate(claims, 1)]
    lines += ["", _details("Why each verdict, and where each reference and tolerance come from", why), "",
              "The verdicts: " + "; ".join(f"**{s}**: {rr.MEANINGS[s]}" for s in rr.STATES) + ".", ""]
    return lines


def _defects(o: Dict[str, Any]) -> List[str]:
    defects = o.get("defects", [])
    if not defects:
        return []
    return [_admonition("failure", "Defects",
                        "These are faults of the reproduction, not results:\n\n"
                        + "\n".join(f"- {_inline(d)}" for d in defects)), ""]


def _notes(o: Dict[str, Any]) -> List[str]:
    notes = o.get("notes", [])
    return ["## Readings chosen", "", *[f"- {_inline(n)}" for n in notes], ""] if notes else []


def _figure(e: rr.Entry, f: Dict[str, Any], copies: Dict[str, Path]) -> List[str]:
    title = str(f.get("title", f.get("key", "")))
    lines = [f"### {title}", ""]
    if f.get("error"):
        return lines + [_admonition("failure", "Could not be drawn", _inline(f["error"])), ""]
    absent = []
    for rel in f.get("images", []):
        path = e.file(rel)
        if path is None:
            absent.append(rel)
            continue
        copies[rel] = path
        lines += [f"![{_alt(title)}]({e.name}/{rel})", ""]
    if f.get("caption"):
        lines += [_inline(f["caption"]), ""]
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
        lines += [_admonition("warning", "Missing files",
                              "outcome.json names " + ", ".join(f"`{a}`" for a in absent)
                              + " but the results directory does not hold them; run the reproduction "
                              "again (`make docs` does)."), ""]
    return lines


def _declared(e: rr.Entry) -> List[str]:
    """What a reproduction that has not run will check and draw."""
    r = e.repro
    lines = ["## Claims", "", f"{len(r.claims)} claims, each checked when the reproduction runs:", ""]
    if r.claims:
        lines += ["| claim | reference | tolerance | ours | verdict |", "| --- | --- | --- | --- | --- |"]
        lines += [f"| {_cell(c.text)} | {_cell(c.reference)} | {_cell(c.tolerance)} | – | not run |"
                  for c in r.claims]
        lines.append("")
    if r.figures:
        lines += ["## Figures and tables", "", "Drawn when it runs:", ""]
        lines += [f"- {_inline(f.title)} ({f.kind}, `{f.key}`)" for f in r.figures]
        lines.append("")
    return lines


def _commands(e: rr.Entry) -> List[str]:
    keys = [*(f.key for f in e.repro.figures), *(c.key for c in e.repro.claims)]
    only = f"lossy reproduce {e.name} --only {keys[0]}" if keys else ""
    lines = ["## Run it", "",
             "```bash",
             f"# the full scale (its report: results/reproduce-{e.name}/report.md)",
             f"lossy reproduce {e.name}",
             "# the quick version, as make docs runs it for this site",
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
            lines.append(f"- **{_inline(s['title'])}** (`{s['key']}`): did not run: {_inline(s['error'])}")
        else:
            lines.append(f"- **{_inline(s['title'])}** (`{s['key']}`): {s['runs']} runs, {s['ok']} ok, "
                         f"{s['failed']} failed; stored in `{s['store']}/`")
    return lines + ["", "Each sweep's scenario, axes and seeds are in the reproduction's report.md, "
                        "beside its figures.", ""]


# --- markdown ------------------------------------------------------------------------------


def _inline(text: Any) -> str:
    """Text on one line."""
    return " ".join(str(text).split())


def _cell(text: Any) -> str:
    """Text in a table cell: one line, pipes escaped."""
    return _inline(text).replace("|", "\\|")


def _alt(text: str) -> str:
    return _inline(text).replace("[", "(").replace("]", ")")


def _admonition(kind: str, title: str, body: str) -> str:
    return "\n".join([f'!!! {kind} "{title}"', ""] + [f"    {line}" if line else "" for line in body.split("\n")])


def _details(title: str, lines: List[str]) -> str:
    return "\n".join([f'??? info "{title}"', ""] + [f"    {line}" for line in lines])
