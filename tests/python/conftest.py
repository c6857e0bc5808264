"""Shared helpers: where the shipped scenarios are, running the `lossy` command, and the
two expensive products every test that reads them shares, made at most once per
session: every reproduction's quick run and the site built from it.

Under `make test` both come from `make docs` (LOSSY_DOCS_RESULTS and LOSSY_SITE name
them; read here, never written), so `lossy reproduce all --quick` and `mkdocs build`
each run once per `make test`. A bare `pytest` makes each once, the first time a test
asks. The summary line "shared runs:" at the end of pytest's output says which."""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The core's disk cache (the FECTCP overhead model, docs/mechanisms/fectcp.md) goes to a
# folder of this session's own, never the user's ~/.cache, and is gone afterwards; the
# `lossy` subprocesses the tests start inherit it.
_CACHE = tempfile.mkdtemp(prefix="lossy-test-cache-")
os.environ["LOSSY_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)
SCENARIOS = ROOT / "scenarios"

# The trace catalogue's tests (and every test that reads a real trace) take the files from
# a local mirror, never the network (issue 30): the shared traces beside the checkout, as
# CI lays them (.ci/run exports the same), unless LOSSY_TRACE_MIRROR names another. The
# `lossy` subprocesses the tests start inherit it.
TRACE_MIRROR_VARIABLE = "LOSSY_TRACE_MIRROR"
SHARED_TRACES = ROOT.parent / "shared" / "traces"
if not os.environ.get(TRACE_MIRROR_VARIABLE) and SHARED_TRACES.is_dir():
    os.environ[TRACE_MIRROR_VARIABLE] = str(SHARED_TRACES)

# What each shared product came from this session, for the terminal summary: a test
# of the suite's tiering can count them (each is made at most once).
SHARED_RUNS: dict = {}


def lossy_command():
    # The console script installed beside this interpreter, else `python -m lossy`.
    script = Path(sys.executable).with_name("lossy")
    return [str(script)] if script.exists() else [sys.executable, "-m", "lossy"]


@pytest.fixture
def cli():
    def run(*args, timeout=120):
        return subprocess.run(
            [*lossy_command(), *map(str, args)],
            capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )
    return run


@pytest.fixture
def trace_mirror():
    """The trace mirror (a folder laid out like ../shared/traces) the catalogue copies
    from, as a Path; the test is skipped, saying why, when there is none."""
    value = os.environ.get(TRACE_MIRROR_VARIABLE, "")
    if not value or not Path(value).is_dir():
        pytest.skip(f"no trace mirror: {TRACE_MIRROR_VARIABLE} is {'unset' if not value else repr(value) + ', not a folder'} "
                    f"and {SHARED_TRACES} does not exist; set {TRACE_MIRROR_VARIABLE} to a copy of the shared traces")
    return Path(value)


@pytest.fixture
def last_hop():
    return SCENARIOS / "last-hop.toml"


def _is_every_quick_run(root: Path) -> bool:
    from lossy.papers import names

    outcomes = [root / f"reproduce-{n}" / "outcome.json" for n in names()]
    return (root / "index.md").is_file() and all(
        f.is_file() and json.loads(f.read_text(encoding="utf-8")).get("quick") for f in outcomes)


@pytest.fixture(scope="session")
def quick_reproductions(tmp_path_factory):
    """`lossy reproduce all --quick`, once per test session: the run `make docs` made when
    $LOSSY_DOCS_RESULTS names one holding every reproduction's quick run (`make test` sets
    it, so the site and the tests read one run; read here, never written), else a fresh
    run. Tests that need one reproduction's quick run read its reproduce-<name>/."""
    shared = os.environ.get("LOSSY_DOCS_RESULTS", "").strip()
    if shared and _is_every_quick_run(Path(shared)):
        SHARED_RUNS["lossy reproduce all --quick"] = f"read from {shared} (LOSSY_DOCS_RESULTS)"
        return Path(shared).resolve()
    root = tmp_path_factory.mktemp("quick-reproductions")
    proc = subprocess.run([*lossy_command(), "reproduce", "all", "--quick", "--out", str(root)],
                          capture_output=True, text=True, timeout=1800, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    SHARED_RUNS["lossy reproduce all --quick"] = f"made once in {root}"
    return root


def seed_validation_runs(results: Path, quick_reproductions: Path) -> None:
    """The validation's quick sweeps, copied from the session's one quick run to where
    `lossy reproduce validation --quick --out results/reproduce-validation` stores them:
    the command reuses them as stored runs (as on a second call), so a test of the
    command judges, draws and reports without simulating again."""
    from lossy.papers.validation import REPRODUCTION

    for plan in REPRODUCTION.sweeps:
        shutil.copytree(quick_reproductions / "reproduce-validation" / f"{plan.key}-quick",
                        results / "reproduce-validation" / f"{plan.key}-quick")


def build_site(out: Path, results: Path, docs_root: Path = ROOT) -> subprocess.CompletedProcess:
    """`mkdocs build --strict` of `docs_root` into `out`, its pages reading the reproductions
    in `results` (as `make docs` does), with the package under test importable."""
    import lossy

    package_root = str(Path(lossy.__file__).resolve().parents[1])
    env = {**os.environ, "LOSSY_DOCS_RESULTS": str(results), "DISABLE_MKDOCS_2_WARNING": "true",
           "NO_MKDOCS_2_WARNING": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(docs_root / "python"), package_root,
                                                       os.environ.get("PYTHONPATH")]))}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(docs_root / "mkdocs.yml"), "-d", str(out)],
        cwd=docs_root, env=env, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def built_site(quick_reproductions, tmp_path_factory):
    """The site built from the shared quick runs, once per session: the one `make docs`
    built when $LOSSY_SITE names it (`make test` sets it; read, never written), else
    built here with `mkdocs build --strict`."""
    pytest.importorskip("mkdocs_gen_files", reason="the docs extra is not installed (pip install 'lossy-sim[docs]')")
    shared = os.environ.get("LOSSY_SITE", "").strip()
    if shared and (Path(shared) / "index.html").is_file() and (Path(shared) / "gallery" / "index.html").is_file():
        SHARED_RUNS["mkdocs build"] = f"read from {shared} (LOSSY_SITE)"
        return Path(shared).resolve()
    out = tmp_path_factory.mktemp("site")
    built = build_site(out, quick_reproductions)
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stdout[-3000:]}{built.stderr[-3000:]}"
    SHARED_RUNS["mkdocs build"] = f"made once in {out}"
    return out


SHARED_FIXTURES = {"quick_reproductions", "built_site"}
# Slow without being marked one by one (seconds to a minute each): `make test-fast`
# leaves them out (-m "not slow"). The `cli` fixture starts the lossy command in a
# subprocess (an interpreter and its imports each time).
SLOW_FIXTURES = {"cli"}
SLOW_MODULES = {
    "test_figure_layout": "draws every figure of every reproduction",
    "test_sweep_kill": "kills and resumes real sweeps",
    "test_sweep_dask": "starts a Dask cluster",
    "test_quick_never_contradicts_full": "runs a reproduction at quick and full scale",
    "test_docs_tutorial": "starts a Jupyter kernel and runs the notebook",
}


def pytest_collection_modifyitems(items):
    # `make test-fast` leaves out what needs the shared runs (-m "not shared"): minutes
    # to make when `make docs` has not made them; and what is slow (-m "not slow").
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if SHARED_FIXTURES & fixtures:
            item.add_marker(pytest.mark.shared)
        if SLOW_FIXTURES & fixtures or item.module.__name__.rsplit(".", 1)[-1] in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


def pytest_terminal_summary(terminalreporter):
    if SHARED_RUNS:
        terminalreporter.write_line(
            "shared runs: " + "; ".join(f"{what}: {how}" for what, how in SHARED_RUNS.items()))
