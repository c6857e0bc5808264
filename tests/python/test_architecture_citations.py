"""Every citation of the architecture document points to a section that exists (issue 26
item 6): each `docs/architecture.md#<anchor>` in crates/, python/, tests/ and tools/
names an anchor docs/architecture.md defines, and no file cites the DESIGN.md that is
not in the repository (`python tools/cite_architecture.py` rewrites such citations)."""

# cite_architecture: leave this file (its examples quote DESIGN.md citations)

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Iterator, List, Set, Tuple

ROOT = Path(__file__).resolve().parents[2]
DOC = "docs/architecture.md"
SOURCES = ("crates", "python", "tests", "tools")
SUFFIXES = {".rs", ".py", ".pyi", ".toml", ".md"}
CITATION = re.compile(r"docs/architecture\.md#([A-Za-z0-9_-]+)")
OLD = re.compile(r"\bDESIGN\.md\b")
# An explicit anchor: `## Title {#id}`, `{: #id .class}`.
EXPLICIT = re.compile(r"\{:?[ \t]*#([A-Za-z0-9_-]+)[^}]*\}")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def slug(title: str) -> str:
    """Python-Markdown's default toc slug of a heading without an explicit anchor."""
    text = re.sub(r"[`*_]", "", title).lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[-\s]+", "-", text).strip("-")


def anchors(doc: str) -> Set[str]:
    """The anchors a Markdown page defines: explicit ones, and the slugs of headings
    that have none."""
    found = set(EXPLICIT.findall(doc))
    in_fence = False
    for line in doc.splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        m = HEADING.match(line)
        if m and not in_fence and not EXPLICIT.search(m.group(1)):
            found.add(slug(m.group(1)))
    return found


def files(root: Path) -> Iterator[Path]:
    for top in SOURCES:
        for p in sorted((root / top).rglob("*")):
            if p.suffix in SUFFIXES and p.is_file() and "target" not in p.parts:
                yield p


def bad_citations(root: Path) -> List[Tuple[str, int, str]]:
    """(file, line, anchor) of each citation whose anchor the document lacks."""
    known = anchors((root / DOC).read_text(encoding="utf-8"))
    me = Path(__file__).resolve()
    bad = []
    for p in files(root):
        if p.resolve() == me:  # its own examples below
            continue
        text = p.read_text(encoding="utf-8", errors="replace")
        for m in CITATION.finditer(text):
            if m.group(1) not in known:
                bad.append((p.relative_to(root).as_posix(), text.count("\n", 0, m.start()) + 1, m.group(1)))
    return bad


def old_citations(root: Path) -> List[str]:
    me = Path(__file__).resolve()
    script = (root / "tools" / "cite_architecture.py").resolve()
    out = []
    for p in files(root):
        if p.resolve() in (me, script):
            continue
        for i, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OLD.search(line):
                out.append(f"{p.relative_to(root).as_posix()}:{i}")
    return out


def test_every_citation_names_an_anchor_of_the_document():
    bad = bad_citations(ROOT)
    assert not bad, "citations of sections that do not exist in " + DOC + ":\n" + "\n".join(
        f"  {f}:{n}: #{a}" for f, n, a in bad)


def test_no_file_cites_the_old_design_md():
    left = old_citations(ROOT)
    assert not left, (f"{len(left)} citation(s) of DESIGN.md, which is not in the repository; "
                      "run `python tools/cite_architecture.py`:\n  " + "\n  ".join(left))


def test_the_document_gives_every_heading_an_explicit_anchor():
    """Anchors are the citations' contract: a heading's words may change, its anchor not."""
    doc = (ROOT / DOC).read_text(encoding="utf-8")
    missing = [m.group(0) for m in HEADING.finditer(doc) if not EXPLICIT.search(m.group(1))]
    assert not missing, "headings without {#anchor}: " + "; ".join(missing)


def test_the_checker_finds_a_made_up_anchor(tmp_path: Path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "architecture.md").write_text(
        "# Map {#map}\n\n## Seeds and streams {#seeds}\n\n## No explicit id\n\n"
        "```text\n# not a heading\n```\n", encoding="utf-8")
    src = tmp_path / "crates" / "x" / "src"
    src.mkdir(parents=True)
    (src / "lib.rs").write_text(
        "//! See docs/architecture.md#seeds and docs/architecture.md#no-explicit-id.\n"
        "//! Also docs/architecture.md#made-up-anchor, and DESIGN.md \"Seeds\".\n", encoding="utf-8")
    (tmp_path / "python").mkdir()
    (tmp_path / "python" / "m.py").write_text("# docs/architecture.md#map\n# docs/architecture.md#not-a-heading\n",
                                              encoding="utf-8")
    assert anchors((tmp_path / DOC).read_text()) == {"map", "seeds", "no-explicit-id"}
    assert bad_citations(tmp_path) == [("crates/x/src/lib.rs", 2, "made-up-anchor"),
                                       ("python/m.py", 2, "not-a-heading")]
    assert old_citations(tmp_path) == ["crates/x/src/lib.rs:2"]


def _script():  # tools/ is not a package: load the script by path
    import importlib.util

    spec = importlib.util.spec_from_file_location("cite_architecture", ROOT / "tools" / "cite_architecture.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_the_rewriting_script_maps_each_form_once_and_to_anchors_that_exist():
    cite = _script()
    text = ('//! The world and its loop (DESIGN.md "The world and its three kinds of\n'
            '//! entity"). It owns the clock.\n'
            '/// The kind of signal that reaches the window (DESIGN.md: one event says what it was).\n'
            '//! Queues (DESIGN.md `QueueDisc`): what waits.\n'
            '    // Conservation (DESIGN.md): every packet.\n')
    new, changes = cite.rewrite("crates/lossy-core/src/world.rs", text)
    assert new == ('//! The world and its loop (docs/architecture.md#world). It owns the clock.\n'
                   '/// The kind of signal that reaches the window\n'
                   '/// (docs/architecture.md#family-congestion-control: one event says what it was).\n'
                   '//! Queues (docs/architecture.md#family-queue): what waits.\n'
                   '    // Conservation (docs/architecture.md#world): every packet.\n')
    assert [c.line for c in changes] == [1, 3, 4, 5]
    assert cite.rewrite("crates/lossy-core/src/world.rs", new) == (new, [])  # idempotent
    # Every citation in the tree today maps to an anchor the document has.
    known = anchors((ROOT / DOC).read_text(encoding="utf-8"))
    for p in files(ROOT):
        if p.suffix in cite.SUFFIXES and p.name != Path(__file__).name and "DESIGN.md" in p.read_text(encoding="utf-8"):
            _, found = cite.rewrite(p.relative_to(ROOT).as_posix(), p.read_text(encoding="utf-8"))
            assert {c.anchor for c in found} <= known, p
