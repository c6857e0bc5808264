"""The three verdicts (reproduced, not reproduced, could not be checked), the defects
that make the third (a check raising, a missing column, a failed run, a sweep that did
not run), cross-references checked when a Reproduction is built, and the exit status."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, Dict

import pandas as pd
import pytest
from typer.testing import CliRunner

import lossy.papers
from lossy.cli import app
from lossy.papers.figures import LinePlot, table_of
from lossy.papers.bands import Band
from lossy.papers.estimate import jackknife, mean_of
from lossy.papers.judge import Measurement, Part
from lossy.papers.model import BadReproduction, Claim, Examples, Reproduction, SweepPlan
from lossy.papers.report import render
from lossy.papers.run import reproduce
from lossy.papers.verdict import State
from lossy.shipped import scenarios_dir


def runs(failed: int = 0) -> pd.DataFrame:
    rows = [{"run_id": f"r{i}", "point": "p", "x": 1.0, "replication": i, "seed": 1,
             "status": "failed" if i < failed else "ok", "error": "boom: the core said no" if i < failed else None,
             "goodput": 100.0 + i} for i in range(4)]
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class MeanAtLeast:
    """The mean goodput of a sweep, held above `least` (direction only)."""

    least: float
    sweep: str = "s"

    def measure(self, ctx: Any) -> Measurement:
        return Measurement([Part("", jackknife(ctx[self.sweep], mean_of("goodput")))])


def mean_at_least(least: float, sweep: str = "s") -> MeanAtLeast:
    return MeanAtLeast(least, sweep)


def claim(check: Any, key: str = "c", sweeps: Any = ("s",)) -> Claim:
    """A claim on a MeanAtLeast, or on a bare measure (held above 0)."""
    measure, least = (check.measure, check.least) if isinstance(check, MeanAtLeast) else (check, 0.0)
    none = {s: runs() for s in sweeps}
    return Claim(key, "the mean is large", "§1", "large", "the mean goodput",
                 Band.above(least, f"at least {least:g}", unit=""), measure, sweeps,
                 Examples(null=lambda: none, faithful=lambda: none), "anywhere")


def test_reproduced_and_not_reproduced_on_complete_data() -> None:
    assert claim(mean_at_least(90)).evaluate({"s": runs()}).state is State.REPRODUCED
    v = claim(mean_at_least(200)).evaluate({"s": runs()})
    assert v.state is State.NOT_REPRODUCED and v.reason.startswith("101.5 (95 % CI 99.45 to 103.6, n = 4) lies "
                                                                   "wholly outside > 200 (direction only)")
    assert claim(mean_at_least(100)).evaluate({"s": runs()}).state is State.INCONCLUSIVE


def test_a_check_that_raises_could_not_be_checked() -> None:
    v = claim(lambda ctx: 1 / 0).evaluate({"s": runs()})
    assert v.state is State.UNCHECKED
    assert v.reason.startswith("ZeroDivisionError: division by zero at test_verdicts.py:")


def test_a_missing_column_could_not_be_checked() -> None:
    from lossy.summary import summarize

    v = claim(lambda ctx: summarize(ctx["s"], ["x"], ["goodptu"])).evaluate({"s": runs()})
    assert v.state is State.UNCHECKED and v.reason == "no column 'goodptu' in the results"


def test_a_failed_run_could_not_be_checked() -> None:
    v = claim(mean_at_least(90)).evaluate({"s": runs(failed=1)})
    assert v.state is State.UNCHECKED
    assert v.reason == "1 of 4 runs of sweep 's' failed (e.g. boom: the core said no)"


ONE_HOP = str(scenarios_dir() / "one-hop.toml")


def tiny(figures: Any = None, claims: Any = None, sweeps: Any = None) -> Reproduction:
    return Reproduction(
        "tiny", "Tiny", "A reproduction of one sweep.",
        sweeps if sweeps is not None else [SweepPlan("s", "one sweep", {"name": "tiny-s", "scenario": ONE_HOP})],
        figures if figures is not None else [LinePlot("fig1", "s", "goodput", x="x", y="goodput")],
        claims if claims is not None else [claim(mean_at_least(90))])


@pytest.mark.parametrize("kwargs,message", [
    (dict(figures=[LinePlot("fig1", "nosuch", "goodput", x="x", y="goodput")]),
     "reproduction 'tiny': line plot 'fig1' needs sweep 'nosuch'; sweeps: s"),
    (dict(claims=[claim(mean_at_least(1), sweeps=["s", "other"])]),
     "reproduction 'tiny': claim 'c' needs sweep 'other'; sweeps: s"),
    (dict(figures=[table_of("t1", "gone", "T", lambda r: r)]),
     "reproduction 'tiny': table 't1' needs sweep 'gone'; sweeps: s"),
    (dict(claims=[claim(mean_at_least(1), key="fig1")]), "reproduction 'tiny': two items share the key 'fig1'"),
    (dict(sweeps=[SweepPlan("s", "a", {}), SweepPlan("s", "b", {})]),
     "reproduction 'tiny': two of its sweeps share the key 's'"),
])
def test_bad_references_fail_when_built(kwargs: Dict[str, Any], message: str) -> None:
    with pytest.raises(BadReproduction) as e:
        tiny(**kwargs)
    assert str(e.value) == message


def test_only_keeps_the_items_and_their_sweeps() -> None:
    r = Reproduction("two", "Two", "", [SweepPlan("a", "a", {}), SweepPlan("b", "b", {})],
                     [table_of("ta", "a", "A", lambda r: r), table_of("tb", "b", "B", lambda r: r)],
                     [claim(mean_at_least(1), key="cb", sweeps=["b"])])
    part = r.only(["cb"])
    assert [p.key for p in part.sweeps] == ["b"] and not part.figures and [c.key for c in part.claims] == ["cb"]
    with pytest.raises(BadReproduction, match=r"^--only: two has no figure, table or claim 'x'; it has: ta, tb, cb$"):
        r.only(["x"])


def fake_sweeps(**by_name: Any) -> Any:
    """A sweep_fn that returns canned runs by the spec's name, or raises what it is given."""
    def run(spec: Dict[str, Any], path: Path, quick: bool, pool: Executor) -> pd.DataFrame:
        result = by_name[spec["name"]]
        if isinstance(result, Exception):
            raise result
        return result
    return run


def test_a_sweep_that_did_not_run_is_a_defect_in_the_report(tmp_path: Path) -> None:
    outcome = reproduce(tiny(), tmp_path, sweep_fn=fake_sweeps(**{"tiny-s": RuntimeError("the disk is full")}),
                        progress=False)
    (_, verdict), = outcome.verdicts
    assert verdict.state is State.UNCHECKED
    assert verdict.reason == "sweep 's' did not run: RuntimeError: the disk is full at test_verdicts.py:" + \
        verdict.reason.rsplit(":", 1)[-1]
    assert outcome.figures[0].error is not None and len(outcome.defects()) == 3
    report = render(outcome)
    assert "## Defects" in report and "**could not be checked**" in report
    assert "0 reproduced, 0 not reproduced, 0 inconclusive, 1 could not be checked" in report
    assert "**Could not be drawn**: sweep 's' did not run" in report


def test_failed_runs_are_kept_in_the_report(tmp_path: Path) -> None:
    outcome = reproduce(tiny(figures=[]), tmp_path, sweep_fn=fake_sweeps(**{"tiny-s": runs(failed=2)}),
                        progress=False)
    assert outcome.counts() == "0 reproduced, 0 not reproduced, 0 inconclusive, 1 could not be checked"
    assert "2 of 4 runs of sweep 's' failed" in (tmp_path / "report.md").read_text()


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> str:
    """A registered reproduction of one real, tiny sweep whose claim reads a column the
    runs do not have."""
    spec = {"name": "broken-s", "scenario": ONE_HOP, "replications": 2,
            "duration": "1 s", "grid": {"p": {"path": "links.0.loss.p", "values": [0.01]}},
            "metrics": {"goodput": "flows.0.goodput_bps"}}
    repro = Reproduction("broken", "Broken", "", [SweepPlan("s", "s", spec)], [],
                         [claim(lambda ctx: ctx["s"]["goodptu"].mean())])
    module = types.ModuleType("broken_reproduction")
    module.REPRODUCTION = repro  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "broken_reproduction", module)
    monkeypatch.setitem(lossy.papers.REPRODUCTIONS, "broken", "broken_reproduction")
    return "broken"


def test_a_claim_that_could_not_be_checked_exits_1(broken: str, tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["reproduce", broken, "--out", str(tmp_path / "b")])
    assert r.exit_code == 1
    assert r.stderr.startswith("lossy: broken: claim 'c' could not be checked: no column or key 'goodptu' "
                               "at test_verdicts.py:")
    assert r.stderr.endswith(f"; see {tmp_path / 'b' / 'report.md'}\n") and r.stderr.count("\n") == 1
    assert "could not be checked" in r.stdout


def test_not_reproduced_exits_0(monkeypatch: pytest.MonkeyPatch, broken: str, tmp_path: Path) -> None:
    repro = sys.modules["broken_reproduction"].REPRODUCTION  # type: ignore[attr-defined]
    honest = Reproduction("broken", "Broken", "", repro.sweeps, [], [claim(mean_at_least(1e12))])
    monkeypatch.setattr(sys.modules["broken_reproduction"], "REPRODUCTION", honest)
    r = CliRunner().invoke(app, ["reproduce", broken, "--out", str(tmp_path / "b")])
    assert r.exit_code == 0, r.stderr
    assert "0 of 1 claims reproduced (0 reproduced, 1 not reproduced" in " ".join(r.stdout.split())


def test_a_figure_of_no_known_kind_fails_when_built() -> None:
    with pytest.raises(BadReproduction, match=r"^reproduction 'tiny': 'fig1' is not a figure \(one of"):
        tiny(figures=["fig1"])


def test_every_sweep_of_every_reproduction_shares_one_executor(tmp_path: Path) -> None:
    from lossy.papers.run import reproduce_all

    pools = []

    def run(spec: Dict[str, Any], path: Path, quick: bool, pool: Executor) -> pd.DataFrame:
        pools.append(pool)
        return runs()

    two = Reproduction("two", "Two", "", [SweepPlan("s", "s", {"name": "a", "scenario": ONE_HOP}),
                                         SweepPlan("t", "t", {"name": "b", "scenario": ONE_HOP})],
                       [], [claim(mean_at_least(1)), claim(mean_at_least(1, "t"), key="d", sweeps=["t"])])
    outcomes = reproduce_all([tiny(figures=[]), two], tmp_path, sweep_fn=run, progress=False)
    assert len(pools) == 3 and all(p is pools[0] for p in pools)
    assert [o.out for o in outcomes] == [tmp_path / "reproduce-tiny", tmp_path / "reproduce-two"]
    assert all(o.count(State.REPRODUCED) == len(o.verdicts) for o in outcomes)
