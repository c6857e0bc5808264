"""Without the recorded traces (no LOSSY_TRACE_MIRROR, an empty cache, no network), the
two reproductions on them are not run and say so in one line naming `lossy traces fetch`
and LOSSY_TRACE_MIRROR; `lossy reproduce all` (which `make docs` runs) goes on, and the
docs pages say their results were not produced (python/lossy/papers/needed_traces.py)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from lossy.papers import get
from lossy.papers.cli import problem
from lossy.papers.index import render_index
from lossy.papers.run import reproduce, reproduce_all

GEN = Path(__file__).resolve().parents[2] / "docs" / "gen"
ON_TRACES = ["pantheon-emulators", "cellular-bufferbloat"]


@pytest.fixture
def no_traces(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No mirror, an empty cache and a network that refuses every download."""
    import pooch

    def offline(*args: object, **kwargs: object) -> None:
        raise ConnectionError("no network in this test")

    monkeypatch.delenv("LOSSY_TRACE_MIRROR", raising=False)
    monkeypatch.setenv("LOSSY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pooch, "HTTPDownloader", lambda **kw: offline)


def never_sweep(spec, path, quick, pool):  # type: ignore[no-untyped-def]
    raise AssertionError(f"sweep {spec['name']} ran without its traces")


@pytest.mark.parametrize("name", ON_TRACES)
def test_a_reproduction_without_its_traces_is_not_run_and_says_how_to_get_them(
        name: str, no_traces: None, tmp_path: Path) -> None:
    o = reproduce(get(name), tmp_path / name, quick=True, sweep_fn=never_sweep, progress=False)
    assert o.not_run is not None and "\n" not in o.not_run
    assert "`lossy traces fetch " in o.not_run and "LOSSY_TRACE_MIRROR" in o.not_run
    assert o.defects() == [] and o.figures == [] and o.verdicts == []
    assert "**Not run**" in (tmp_path / name / "report.md").read_text(encoding="utf-8")
    assert json.loads((tmp_path / name / "outcome.json").read_text(encoding="utf-8"))["not_run"] == o.not_run


def test_reproduce_all_goes_on_and_the_pages_say_the_results_were_not_produced(
        no_traces: None, tmp_path: Path) -> None:
    root = tmp_path / "results"
    outcomes = reproduce_all([get(n) for n in ON_TRACES], root, quick=True, sweep_fn=never_sweep, progress=False)
    assert problem(outcomes) is None  # not run is no defect: exit status 0, `make docs` goes on
    assert render_index(outcomes, root, True).count("not run: ") == 2

    spec = importlib.util.spec_from_file_location("test_no_traces_sections", GEN / "gen_page_sections.py")
    assert spec is not None and spec.loader is not None
    sections = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = sections
    spec.loader.exec_module(sections)
    pages = sections.pages(root)
    for name in ON_TRACES:
        page = pages[f"papers/{name}.md"]
        assert f"`{name}` was not run: " in page and "lossy traces fetch" in page
        assert "<!-- generated:" not in page


def test_with_the_traces_nothing_is_missing(trace_mirror: Path) -> None:
    from lossy.papers.needed_traces import catalogue_traces, unavailable

    for name in ON_TRACES:
        assert catalogue_traces(get(name)) and unavailable(get(name)) is None
    assert catalogue_traces(get("modern-cc")) == []
