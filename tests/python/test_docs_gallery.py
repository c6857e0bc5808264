"""The documentation's reproductions gallery, validation page and the generated sections
of the hand-written pages (docs/gen/gen_gallery.py, gen_validation.py,
gen_page_sections.py): against the results of `lossy reproduce all --quick` (the
session's one run, conftest.py), against a small reproduction with every verdict state and an
inventory, against no results or broken ones (the
pages say how to produce them, and never link a missing file), and `mkdocs build
--strict` in both cases (with results: the session's one site)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, Union

import pytest

from conftest import build_site
from lossy.formatting import cell  # a table cell as the pages write it (pipes escaped)
from lossy.papers import get, names

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "docs" / "gen"
PNG = b"\x89PNG\r\n\x1a\n"
STATES = ["reproduced", "not reproduced", "inconclusive", "could not be checked"]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"test_docs_{name}", GEN / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as docs/gen/pages.py loads it (dataclasses need it)
    spec.loader.exec_module(module)
    return module


gallery = _load("gen_gallery")
validation = _load("gen_validation")
sections = _load("gen_page_sections")
Files = Dict[str, Union[str, Path]]


@pytest.fixture(scope="module")
def results(quick_reproductions: Path) -> Path:
    """What `make docs` runs first: every reproduction's quick run (conftest.py: the
    site's own run under `make test`, else one made for this session)."""
    return quick_reproductions


def _outcome(root: Path, name: str) -> dict:
    return json.loads((root / f"reproduce-{name}" / "outcome.json").read_text(encoding="utf-8"))


def _links(markdown: str) -> list[str]:
    """Targets of images and links that are files (not pages or anchors or URLs)."""
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", markdown)
            if not t.startswith(("#", "http")) and not t.endswith(".md") and ".md#" not in t]


# --- with results ------------------------------------------------------------------------


def test_every_registered_reproduction_gets_a_page(results: Path) -> None:
    files = gallery.pages(results)
    index = files["gallery/index.md"]
    assert isinstance(index, str) and index.startswith("# Gallery")
    for name in names():
        page = files[f"gallery/{name}.md"]
        assert isinstance(page, str)
        repro = get(name)
        assert page.startswith(f"# {repro.title}\n") and repro.about in page
        assert f"]({name}.md)" in index
        assert f"lossy reproduce {name}\n" in page and f"lossy reproduce {name} --quick\n" in page
        assert "Not run yet" not in page and "Results missing" not in index


def test_pages_show_the_figures_and_every_file_they_link_exists(results: Path) -> None:
    files = gallery.pages(results)
    for name in names():
        page = files[f"gallery/{name}.md"]
        assert isinstance(page, str)
        linked = _links(page)
        for target in linked:  # relative to gallery/
            source = files.get(f"gallery/{target}")
            assert isinstance(source, Path) and source.is_file(), f"{name}: {target} is not copied"
        outcome = _outcome(results, name)
        for figure in outcome["figures"]:
            assert f"### {figure['title']}" in page
            for image in figure["images"]:
                assert f"{name}/{image}" in linked
                assert files[f"gallery/{name}/{image}"].read_bytes()[:8] == PNG  # type: ignore[union-attr]
            for table in figure["tables"]:
                assert "| " + " | ".join(table["columns"]) + " |" in page
                assert f"{name}/{table['csv']}" in linked
    assert any(t.endswith(".png") for t in _links(files["gallery/validation.md"]))  # type: ignore[arg-type]
    assert "## What was run" in files["gallery/validation.md"] and "master seed 1" in files["gallery/validation.md"]  # type: ignore[operator]


def test_the_claims_table_shows_each_verdict(results: Path) -> None:
    files = gallery.pages(results)
    for name in names():
        page = files[f"gallery/{name}.md"]
        assert isinstance(page, str)
        outcome = _outcome(results, name)
        if outcome.get("measurement"):  # no claims: labelled so, and no claims table
            assert "**A measurement**" in page and not outcome["claims"]
        else:
            assert "| claim | source | band | ours (95 % CI) | verdict |" in page
        for claim in outcome["claims"]:
            row = next(line for line in page.splitlines() if line.startswith(f"| {claim['text']} |"))
            assert cell(claim["ours"]) in row and f"**{claim['state']}**" in row
            assert f"(`{claim['key']}`)" in page  # the reasons, in the details
        counts = " | ".join(str(outcome["counts"][s]) for s in STATES)
        row = next(line for line in files["gallery/index.md"].splitlines()  # type: ignore[union-attr]
                   if f"]({name}.md)" in line)
        assert f"| {len(outcome['claims'])} | {counts} | " in row
        for state in STATES:  # the four states are explained on every page
            assert f"**{state}**:" in page
        scale = "quick run" if outcome["quick"] else "full-scale run"
        assert scale in page and "## Inventory of the paper" in page


def test_the_validation_page_takes_its_numbers_from_the_runs_and_the_readme(results: Path) -> None:
    page = validation.page(results)
    assert page.startswith("# Validation")
    header = "| against | what is compared | the source's words | band | ours | verdict |"
    assert page.count(header) == 1  # one table
    outcome = _outcome(results, "validation")
    for claim in outcome["claims"]:
        row = next(line for line in page.splitlines() if f"| {claim['text']} |" in line)
        assert cell(claim["band"]) in row and cell(claim["ours"]) in row and f"**{claim['state']}**" in row
        assert ("(quick)" if outcome["quick"] else "(full scale)") in row
    bench = [r for r in validation.bench_rows() if r["ns-3 µs / pkt"]]
    assert bench, "the README's benchmark table has ns-3 rows"
    for r in bench:
        assert f"| {r['ns-3 µs / pkt']} |" in page and f"ns-3 ÷ lossy {r['ns-3 ÷ lossy']}" in page
        assert f"| {r['ns-3 goodput']} |" in page and f"| {r['goodput']} |" in page
    registered = names()
    for paper in validation.PAPERS:
        if not any(n.startswith(paper.prefix) for n in registered):
            assert f"to come: issue {paper.issue}" in page
    assert "to come: issue 9" not in page


def test_the_hand_written_pages_show_the_same_run(results: Path) -> None:
    """Each paper's page, the papers index and getting started fill their markers from
    the same outcome.json as the gallery: the same counts, and the run's scale."""
    pages = sections.pages(results)
    for text in pages.values():
        assert "<!-- generated:" not in text
    index = pages["papers/index.md"]
    for name in names():
        outcome = _outcome(results, name)
        claims = outcome["claims"]
        counts = ", ".join(f"{outcome['counts'][s]} {s}" for s in STATES)
        sentence = f"{outcome['counts']['reproduced']} of {len(claims)} claims reproduced ({counts}"
        scale = "quick run" if outcome["quick"] else "full-scale run"
        row = next(line for line in index.splitlines() if f"([gallery](../gallery/{name}.md))" in line)
        assert f"{scale}" in row and " | ".join(str(outcome["counts"][s]) for s in STATES) in row
        paper = pages.get(f"papers/{name}.md")
        if paper is None:
            continue
        assert f"**Where it stands** (`{outcome['command']}`, {scale}" in paper
        assert paper.count(sentence) == 2  # the status line and the claims section
        for claim in claims:
            assert any(line.startswith(f"| {claim['text']} |") and f"**{claim['state']}**" in line
                       for line in paper.splitlines())
        assert "## Inventory of the paper" in paper
    validation_outcome = _outcome(results, "validation")
    terminal = (f"{validation_outcome['command']}: {validation_outcome['counts']['reproduced']} of "
                f"{len(validation_outcome['claims'])} claims reproduced (")
    assert terminal in pages["getting-started.md"]
    assert '| "comparable" | 0.80× to 1.20× (± 20%) |' in pages["guide/reproductions.md"]


def test_every_paper_page_has_its_generated_sections() -> None:
    for name in names():
        path = ROOT / "docs" / "papers" / f"{name}.md"
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        for kind in ("status", "verdicts", "inventory"):
            assert f"<!-- generated: {kind} {name} -->" in text, f"docs/papers/{name}.md lacks its {kind} section"


def test_a_marker_that_cannot_be_filled_fails_the_build(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    page = docs / "page.md"
    for marker, message in [("<!-- generated: verdicts no-such-paper -->", "no-such-paper"),
                            ("<!-- generated: verdict no-such-kind -->", "no generated section 'verdict'"),
                            ("<!-- generated: status -->", "needs the name of a reproduction"),
                            ("<!-- generated: words validation -->", "takes no name")]:
        page.write_text(f"# A page\n\n{marker}\n", encoding="utf-8")
        with pytest.raises(sections.BadMarker, match=re.escape(message)):
            sections.pages(tmp_path / "none", docs=docs)


def _tiny(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A registered reproduction whose run gives every state (reproduced, not reproduced,
    inconclusive, and could not be checked: a claim on the sweep whose run fails), a
    figure that cannot be drawn, and an inventory."""
    import lossy.papers
    from lossy.papers import synthetic
    from lossy.papers.bands import Band
    from lossy.papers.figures import LinePlot
    from lossy.papers.inventory import Inventory, Item
    from lossy.papers.measures import ratio_per_point
    from lossy.papers.model import Claim, Examples, Reproduction, SweepPlan
    from lossy.shipped import scenarios_dir

    rows = synthetic.runs({"p": [0.1], "scheme": ["a", "b"]}, lambda p, scheme: 150.0 if scheme == "b" else 100.0)

    def claim(key: str, text: str, band: Band, sweep: str = "s") -> Claim:
        def ratio(ctx: Any) -> Any:
            return ratio_per_point(ctx, sweep, "goodput", "scheme", "b", "a", "p")
        examples = Examples(null=lambda: {sweep: rows}, faithful=lambda: {sweep: rows})
        return Claim(key, text, "Fig. 1", '"half as much again"', "b ÷ a", band, ratio, [sweep], examples,
                     "where the queue congests")

    claims = [claim("half-more", "b is 30–80 % above a", Band.between(1.3, 1.8, '"30–80 %": 1.3× to 1.8×')),
              claim("triple", "b is three times a", Band.stated(3.0, '"three times"')),
              claim("edge", "b is 50–100 % above a", Band.between(1.5, 2.0, '"50–100 %": 1.5× to 2.0×')),
              claim("above", "b is above a", Band.above(1.0, '"above": more than 1×')),
              claim("other", "b is above a in the other sweep", Band.above(1.0, '"above": more than 1×'), "t")]
    inventory = Inventory("tiny-2001.md", [
        Item("Fig. 1", "§2", "figure", "b against a", claims=["half-more", "triple", "edge"]),
        Item("§3 ¶1", "§3", "statement", "b helps mobile hosts", not_covered="no mobile host here")])
    spec = {"name": "tiny-s", "scenario": str(scenarios_dir() / "one-hop.toml"), "replications": 10,
            "variants": {"scheme": {"a": {"links.0.delay": "10 ms"}, "b": {"links.0.delay": "20 ms"}}},
            "grid": {"p": {"path": "links.0.loss.p", "values": [0.1]}}}
    repro = Reproduction(
        "tiny-paper", "Tiny et al.: a paper", "The paper finds that b beats a.",
        [SweepPlan("s", "one sweep", spec), SweepPlan("t", "another", {"name": "tiny-t"})],
        [LinePlot("fig1", "s", "goodput against p", x="p", y="goodput", hue="scheme"),
         LinePlot("fig2", "t", "a figure of the sweep that failed", x="p", y="goodput")],
        claims, inventory=inventory)
    module = types.ModuleType("tiny_paper_reproduction")
    module.REPRODUCTION = repro  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tiny_paper_reproduction", module)
    monkeypatch.setitem(lossy.papers.REPRODUCTIONS, "tiny-paper", "tiny_paper_reproduction")

    def fake(spec: Dict[str, Any], path: Path, quick: bool, pool: Any) -> Any:
        if spec["name"] == "tiny-t":
            raise RuntimeError("the disk is full")
        return rows

    return repro, fake


def test_a_newly_registered_reproduction_gets_its_page_with_every_verdict(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from lossy.papers.run import reproduce

    repro, fake = _tiny(monkeypatch)
    root = tmp_path / "results"
    reproduce(repro, root / "reproduce-tiny-paper", quick=True, sweep_fn=fake, progress=False)
    files = gallery.pages(root)
    page = files["gallery/tiny-paper.md"]
    assert isinstance(page, str)
    assert page.startswith("# Tiny et al.: a paper\n") and "The paper finds that b beats a." in page
    for text, state in [("b is 30–80 % above a", "reproduced"), ("b is three times a", "not reproduced"),
                        ("b is 50–100 % above a", "inconclusive"), ("b is above a", "reproduced"),
                        ("b is above a in the other sweep", "could not be checked")]:
        row = next(line for line in page.splitlines() if line.startswith(f"| {text} |"))
        assert f"**{state}**" in row, row
    assert "| b is 30–80 % above a | Fig. 1 | 1.30× to 1.80× | 1.50× (95 % CI " in page
    assert "| b is above a | Fig. 1 | > 1.00× (direction only) | 1.50× (95 % CI " in page
    assert "(`other`): **could not be checked**, sweep 't' did not run: RuntimeError: the disk is full" in page
    edge = next(line for line in page.splitlines() if line.startswith("| b is 50–100 % above a |"))
    assert "replications would decide it)" in edge
    assert "What closes the gap: cause unknown" in page  # the not reproduced one has no probe
    assert "| p = 0.1 | 1.5 | " in page  # each part's estimate
    assert "2 of 5 claims reproduced (2 reproduced, 1 not reproduced, 1 inconclusive, 1 could not be checked)" in page
    assert "the paper's inventory: 2 items, 1 covered, 1 not covered" in page
    assert "| §3 ¶1 | §3 | statement | b helps mobile hosts | not covered: no mobile host here |" in page
    assert "quick run, 10 replications per point" in page
    assert '!!! failure "Defects"' in page and "sweep 't' did not run: RuntimeError: the disk is full" in page
    assert '!!! failure "Could not be drawn"' in page
    assert files["gallery/tiny-paper/fig1.png"] == root / "reproduce-tiny-paper" / "fig1.png"
    index = files["gallery/index.md"]
    assert isinstance(index, str)
    row = next(line for line in index.splitlines() if "(tiny-paper.md)" in line)
    assert "| quick run, 10 replications per point, " in row
    assert row.endswith("| 5 | 2 | 1 | 1 | 1 | 1 of 2 items covered | 3 |")
    text = validation.page(root)  # a registered reproduction that is no known paper gets its row
    assert "[`tiny-paper`](gallery/tiny-paper.md): 5 claims" in text
    assert ("2 reproduced, 1 not reproduced, 1 inconclusive, 1 could not be checked (quick run, 10 replications "
            "per point) | 2 of 5 reproduced |") in text
    docs = tmp_path / "docs"
    (docs / "papers").mkdir(parents=True)
    (docs / "papers" / "tiny.md").write_text("# Tiny\n\n<!-- generated: status tiny-paper -->\n\n"
                                             "<!-- generated: verdicts tiny-paper -->\n\n"
                                             "<!-- generated: inventory tiny-paper -->\n", encoding="utf-8")
    paper = sections.pages(root, docs=docs)["papers/tiny.md"]
    assert "**Where it stands** (`lossy reproduce tiny-paper --quick`, quick run, 10 replications per point" in paper
    assert paper.count("2 of 5 claims reproduced (") == 2
    assert "[gallery](../gallery/tiny-paper.md)" in paper
    assert "| Fig. 1 | §2 | figure | b against a | `half-more`, `triple`, `edge` |" in paper


# --- without results, or with broken ones ------------------------------------------------


@pytest.mark.parametrize("kind", ["missing", "empty"])
def test_without_results_the_pages_say_how_to_produce_them(tmp_path: Path, kind: str) -> None:
    root = tmp_path / "results"
    if kind == "empty":
        root.mkdir()
    files = gallery.pages(root)
    assert all(isinstance(v, str) for v in files.values()), "no file to copy, so no image link"
    assert "Results missing" in files["gallery/index.md"]  # type: ignore[operator]
    for name in names():
        page = files[f"gallery/{name}.md"]
        assert isinstance(page, str)
        assert "Not run yet" in page and "`make docs`" in page
        assert f"lossy reproduce all --quick --out {root}" in page
        assert not _links(page)
        for claim in get(name).claims:  # what it will check is still shown
            assert f"| {claim.text} |" in page
    text = validation.page(root)
    assert "The model rows have no numbers" in text and "`make docs`" in text
    for claim in get("validation").claims:
        assert f"| {claim.band.text()} | not run |" in text
    for rel, page in sections.pages(root).items():  # the hand-written pages say the same
        assert "<!-- generated:" not in page
        if rel.startswith("papers/") and rel != "papers/index.md":
            assert "Not run when this site was built" in page


def test_broken_results_never_give_a_broken_page(tmp_path: Path, results: Path) -> None:
    root = tmp_path / "results"
    shutil.copytree(results / "reproduce-validation", root / "reproduce-validation",
                    ignore=shutil.ignore_patterns("*-quick"))
    (root / "reproduce-validation" / "goodput-vs-loss.png").unlink()  # a figure gone
    page = gallery.pages(root)["gallery/validation.md"]
    assert isinstance(page, str)
    assert "goodput-vs-loss.png" not in _links(page) and "Missing files" in page
    outcome = root / "reproduce-validation" / "outcome.json"
    outcome.write_text("{not json", encoding="utf-8")
    page = gallery.pages(root)["gallery/validation.md"]
    assert isinstance(page, str) and "Not run yet" in page and "cannot be read" in page
    outcome.unlink()  # a report.md from before outcome.json existed
    page = gallery.pages(root)["gallery/validation.md"]
    assert isinstance(page, str) and "report.md from an older lossy" in page


def test_a_readme_without_the_benchmark_table_fails_naming_it(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# lossy\n\n## Benchmarks\n\nno table\n\n## Layout\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match=r"validation\.md: .*README\.md has no table under '## Benchmarks'"):
        validation.page(tmp_path / "none", readme=readme)


# --- the site ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [pytest.param("results", marks=pytest.mark.shared),
                                  pytest.param("missing", marks=pytest.mark.slow)])
def test_mkdocs_build_strict(tmp_path: Path, request: pytest.FixtureRequest, kind: str) -> None:
    """With results: the session's one site (conftest.py: `make docs`'s under `make test`).
    Without: a build of its own, the only other one, since no other test needs it."""
    pytest.importorskip("mkdocs_gen_files", reason="the docs extra is not installed (pip install 'lossy-sim[docs]')")
    if kind == "results":
        site = request.getfixturevalue("built_site")
    else:
        site = tmp_path / "site"
        proc = build_site(site, tmp_path / "none")
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert (site / "validation" / "index.html").is_file() and (site / "gallery" / "index.html").is_file()
    for name in names():
        html = (site / "gallery" / name / "index.html").read_text(encoding="utf-8")
        images = re.findall(r'<img[^>]* src="([^"]+)"', html)
        for src in images:
            assert (site / "gallery" / name / src).is_file(), f"{name}: <img src={src}> is missing"
        if kind == "results":
            assert images and "reproduced</strong>" in html
        else:
            assert not images and "Not run yet" in html and "make docs" in html
