"""Shared helpers: where the shipped scenarios are, running the `lossy` command, and
every reproduction's quick run, made once per session."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"


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
def last_hop():
    return SCENARIOS / "last-hop.toml"


@pytest.fixture(scope="session")
def quick_reproductions(tmp_path_factory):
    """`lossy reproduce all --quick`, once per test session: the run `make docs` made when
    $LOSSY_DOCS_RESULTS names one holding every reproduction's quick run (`make test` sets
    it, so the site and the tests read one run; read here, never written), else a fresh
    run."""
    from lossy.papers import names

    shared = os.environ.get("LOSSY_DOCS_RESULTS", "").strip()
    outcomes = [Path(shared) / f"reproduce-{n}" / "outcome.json" for n in names()] if shared else []
    if outcomes and (Path(shared) / "index.md").is_file() and all(
            f.is_file() and json.loads(f.read_text(encoding="utf-8")).get("quick") for f in outcomes):
        return Path(shared).resolve()
    root = tmp_path_factory.mktemp("quick-reproductions")
    proc = subprocess.run([*lossy_command(), "reproduce", "all", "--quick", "--out", str(root)],
                          capture_output=True, text=True, timeout=1800, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    return root
