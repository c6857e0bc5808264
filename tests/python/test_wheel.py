"""The package as a user installs it: a wheel, not this checkout. Its scenarios and
experiments are package data, so `lossy reproduce validation` works from any directory."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import seed_validation_runs

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_an_installed_wheel_reproduces_validation_from_any_directory(tmp_path, quick_reproductions):
    maturin = Path(sys.executable).with_name("maturin")
    if not maturin.exists():
        pytest.skip("maturin is not installed beside this interpreter")
    # The release build `make` made is reused: this packs, it does not compile.
    built = subprocess.run([str(maturin), "build", "--release", "--out", str(tmp_path / "dist")],
                           cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("lossy-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for data in ("lossy/scenarios/last-hop.toml", "lossy/scenarios/one-hop.toml",
                 "lossy/experiments/reno-vs-eln.toml", "lossy/papers/validation/sweeps.py"):
        assert data in names, data
    # The wheel's package ahead of this checkout on the path (its dependencies come from
    # this environment), run from a directory with nothing of the checkout in it.
    site = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--quiet",
                                "--target", str(site), str(wheel)], capture_output=True, text=True, timeout=300)
    assert installed.returncode == 0, installed.stderr[-2000:]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run([sys.executable, "-c", "import lossy; print(lossy.__file__)"],
                           cwd=elsewhere, env=env, capture_output=True, text=True)
    assert where.stdout.startswith(str(site)), where.stdout + where.stderr
    listed = subprocess.run([sys.executable, "-m", "lossy", "scenarios"], cwd=elsewhere, env=env,
                            capture_output=True, text=True, timeout=60)
    assert "last-hop" in listed.stdout, listed.stderr
    # Its sweeps' runs stored already (the session's one quick run, conftest.py): the
    # installed package finds its specs, checks the stores against them, judges and draws.
    seed_validation_runs(elsewhere / "results", quick_reproductions)
    repro = subprocess.run([sys.executable, "-m", "lossy", "reproduce", "validation", "--quick"],
                           cwd=elsewhere, env=env, capture_output=True, text=True, timeout=600,
                           stdin=subprocess.DEVNULL)
    assert repro.returncode == 0, repro.stdout[-3000:] + repro.stderr[-3000:]
    assert (elsewhere / "results" / "reproduce-validation" / "report.md").is_file()
