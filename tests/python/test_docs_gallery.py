"""The documentation's reproductions gallery and validation page (docs/gen/gen_gallery.py,
gen_validation.py): against the results of `lossy reproduce all --quick` in a tmp dir
(run once per module, a few seconds), against no results or broken ones (the pages say
how to produce them, and never link a missing file), and `mkdocs build --strict` in
both cases."""

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

from conftest import lossy_command
from lossy.papers import get, names

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "docs" / "gen"
PNG = b"\x89PNG\r\n\x1a\n"
STATES = ["reproduced", "not reproduced", "could not be checked"]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"test_docs_{name}", GEN / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as docs/gen/pages.py loads it (dataclasses need it)
    spec.loader.exec_module(module)
    return module


gallery = _load("gen_gallery")
validation = _load("gen_validation")
Files = Dict[str, Union[str, Path]]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What `make docs` runs first, into a tmp dir."""
    root = tmp_path_factory.mktemp("docs-results")
    proc = subprocess.run([*lossy_command(), "reproduce", "all", "--quick", "--out", str(root)],
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    return root


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
        assert "| claim | reference | tolerance | ours | verdict |" in page
        for claim in outcome["claims"]:
            row = next(line for line in page.splitlines() if line.startswith(f"| {claim['text']} |"))
            assert claim["ours"] in row and f"**{claim['state']}**" in row
            assert f"(`{claim['key']}`)" in page  # the reason, in the details
        counts = " | ".join(str(outcome["counts"][s]) for s in STATES)
        assert f"| {counts} | {len(outcome['defects'])} |" in files["gallery/index.md"]  # type: ignore[operator]
        for state in STATES:  # the three states are explained on every page
            assert f"**{state}**:" in page


def test_the_validation_page_takes_its_numbers_from_the_runs_and_the_readme(results: Path) -> None:
    page = validation.page(results)
    assert page.startswith("# Validation")
    header = "| against | what is compared | reference | tolerance | ours | verdict |"
    assert page.count(header) == 1  # one table
    for claim in _outcome(results, "validation")["claims"]:
        row = next(line for line in page.splitlines() if f"| {claim['text']} |" in line)
        assert claim["tolerance"] in row and claim["ours"] in row and f"**{claim['state']}**" in row
    bench = [r for r in validation.bench_rows() if r["ns-3 pkt / wall s"]]
    assert bench, "the README's benchmark table has ns-3 rows"
    for r in bench:
        assert f"{r['ns-3 pkt / wall s']} pkt/s" in page and r["lossy ÷ ns-3"] in page
        assert f"| {r['ns-3 goodput']} |" in page and f"| {r['goodput']} |" in page
    registered = names()
    for paper in validation.PAPERS:
        if not any(n.startswith(paper.prefix) for n in registered):
            assert f"to come: issue {paper.issue}" in page
    assert "to come: issue 9" not in page
    assert "SACK's goodput is within 10 % of ns-3 3.44 with --sack=1" in page  # a claim row


def test_a_newly_registered_reproduction_gets_its_page_with_all_three_verdicts(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import pandas as pd

    import lossy.papers
    from lossy.papers.figures import LinePlot
    from lossy.papers.model import Claim, Reproduction, SweepPlan
    from lossy.papers.run import reproduce
    from lossy.papers.verdict import Verdict

    def mean_at_least(least: float, sweep: str) -> Any:
        def check(ctx: Any) -> Verdict:
            mean = float(ctx.ok(sweep)["goodput"].mean())
            return Verdict.of(mean >= least, f"{mean:g}", f"mean {mean:g} against {least:g}")
        return check

    runs = pd.DataFrame([{"run_id": f"r{i}", "point": "p", "x": float(i), "replication": 0, "seed": 1,
                          "status": "ok", "error": None, "goodput": 100.0 + i} for i in range(4)])
    repro = Reproduction(
        "tiny-paper", "Tiny et al.: a paper", "The paper finds that the mean is large.",
        [SweepPlan("s", "one sweep", {"name": "tiny-s"}), SweepPlan("t", "another", {"name": "tiny-t"})],
        [LinePlot("fig1", "s", "goodput against x", x="x", y="goodput"),
         LinePlot("fig2", "t", "a figure of the sweep that failed", x="x", y="goodput")],
        [Claim("big", "the mean is at least 100", "≥ 100", "none", mean_at_least(100, "s"), sweeps=["s"]),
         Claim("huge", "the mean is at least 1000", "≥ 1000", "none", mean_at_least(1000, "s"), sweeps=["s"]),
         Claim("other", "the other mean is large", "≥ 1", "none", mean_at_least(1, "t"), sweeps=["t"])])
    module = types.ModuleType("tiny_paper_reproduction")
    module.REPRODUCTION = repro  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tiny_paper_reproduction", module)
    monkeypatch.setitem(lossy.papers.REPRODUCTIONS, "tiny-paper", "tiny_paper_reproduction")

    def fake(spec: Dict[str, Any], path: Path, quick: bool, pool: Any) -> Any:
        if spec["name"] == "tiny-t":
            raise RuntimeError("the disk is full")
        return runs

    root = tmp_path / "results"
    reproduce(repro, root / "reproduce-tiny-paper", quick=True, sweep_fn=fake, progress=False)
    files = gallery.pages(root)
    page = files["gallery/tiny-paper.md"]
    assert isinstance(page, str)
    assert page.startswith("# Tiny et al.: a paper\n") and "The paper finds that the mean is large." in page
    for text, state in [("the mean is at least 100", "reproduced"), ("the mean is at least 1000", "not reproduced"),
                        ("the other mean is large", "could not be checked")]:
        row = next(line for line in page.splitlines() if line.startswith(f"| {text} |"))
        assert row.endswith(f"**{state}** |")
    assert '!!! failure "Defects"' in page and "sweep 't' did not run: RuntimeError: the disk is full" in page
    assert '!!! failure "Could not be drawn"' in page
    assert files["gallery/tiny-paper/fig1.png"] == root / "reproduce-tiny-paper" / "fig1.png"
    assert "| [Tiny et al.: a paper](tiny-paper.md) (`tiny-paper`) | quick, " in files["gallery/index.md"]  # type: ignore[operator]
    assert "| 1 | 1 | 1 | 3 |" in files["gallery/index.md"]  # type: ignore[operator]
    text = validation.page(root)  # a registered reproduction that is no known paper gets its row
    assert "[`tiny-paper`](gallery/tiny-paper.md): 3 claims" in text
    assert "1 reproduced, 1 not reproduced, 1 could not be checked (quick) | 1 of 3 reproduced |" in text


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
        assert f"| {claim.tolerance} | not run |" in text


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


@pytest.mark.parametrize("kind", ["results", "missing"])
def test_mkdocs_build_strict(tmp_path: Path, results: Path, kind: str) -> None:
    pytest.importorskip("mkdocs_gen_files", reason="the docs extra is not installed (pip install lossy[docs])")
    root = results if kind == "results" else tmp_path / "none"
    site = tmp_path / "site"
    env = {**os.environ, "LOSSY_DOCS_RESULTS": str(root), "DISABLE_MKDOCS_2_WARNING": "true",
           "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(site)], capture_output=True, text=True, timeout=300, env=env,
                          cwd=ROOT, stdin=subprocess.DEVNULL)
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
