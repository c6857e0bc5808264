"""What a report says about where its runs come from (issue 24, "Reports"): scenario
paths never absolute (a shipped scenario by its name, a file in the output directory
relative to it, any other by its file name), and the commit recorded at build time so
that an installed wheel, which has no checkout to ask, still reports it."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict

import pandas as pd
import pytest

from lossy import _core
from lossy.papers.bands import Band
from lossy.papers.estimate import jackknife, mean_of
from lossy.papers.judge import Measurement, Part
from lossy.papers.model import Claim, Examples, Reproduction, SweepPlan
from lossy.papers.run import reproduce
from lossy.shipped import scenarios_dir
from lossy.sweep import store


def _plan(key: str, scenario: str) -> SweepPlan:
    return SweepPlan(key, f"sweep {key}", {
        "name": f"paths-{key}", "scenario": scenario, "replications": 2, "seed": 1, "duration": "1 s",
        "grid": {"p": {"path": "links.1.loss.p", "values": [0.01]}}, "metrics": {"goodput": "flows.0.goodput_bps"}})


def test_scenario_paths_are_never_absolute(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "mine" / "my-hop.toml"  # outside the output and working directories
    elsewhere.parent.mkdir()
    shutil.copy(scenarios_dir() / "last-hop.toml", elsewhere)
    inside = out / "scenarios" / "local.toml"
    inside.parent.mkdir()
    shutil.copy(scenarios_dir() / "last-hop.toml", inside)
    plans = [_plan("shipped", str(scenarios_dir() / "last-hop.toml")), _plan("inside", str(inside)),
             _plan("elsewhere", str(elsewhere))]
    rows = pd.DataFrame([{"run_id": f"r{r}", "point": "p0", "p": 0.01, "replication": r, "seed": 1,
                          "status": "ok", "error": None, "goodput": 1.0, "git_commit": "0" * 40,
                          "lossy_version": "9.9"} for r in range(2)])
    keys = [p.key for p in plans]

    def measure(ctx: Any) -> Measurement:
        return Measurement([Part(k, jackknife(ctx[k], mean_of("goodput"))) for k in keys])

    data = {k: rows for k in keys}
    claim = Claim("runs", "the runs ran", "-", "some goodput", "the mean goodput of each sweep",
                  Band.above(0.0, "more than none", unit=""), measure, keys,
                  Examples(null=lambda: data, faithful=lambda: data), "every sweep")
    repro = Reproduction("paths", "Paths", "Where the scenarios are.", plans, [], [claim])

    def fake(spec: Dict[str, Any], path: Path, quick: bool, pool: Any) -> pd.DataFrame:
        return rows

    reproduce(repro, out, sweep_fn=fake, progress=False)
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "- scenario: `last-hop` (shipped: `lossy scenarios show last-hop`)" in report
    assert "- scenario: `scenarios/local.toml` (in the output directory)" in report
    assert "- scenario: `my-hop.toml`" in report
    assert str(tmp_path) not in report and not re.search(r"`/", report), "an absolute path in report.md"
    assert "git commit `000000000000`" in report and "lossy 9.9" in report


def test_the_build_records_its_commit() -> None:
    commit = _core.build_commit()
    assert commit == "unknown" or re.fullmatch(r"[0-9a-f]{40}", commit), commit


def test_without_a_checkout_the_commit_is_the_build_s(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_git(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no git here")

    monkeypatch.setattr(subprocess, "run", no_git)
    assert store.git_commit.__wrapped__() == _core.build_commit()  # type: ignore[attr-defined]
