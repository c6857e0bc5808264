"""Shared helpers: where the shipped scenarios are, and running the `lossy` command."""

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
