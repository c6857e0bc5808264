"""Jain's index over flows and per interval of the throughput trace (issue 14, item 5):
hand-computed values, a hand-made trace, and a real run whose per-interval rates add up
to what each flow delivered."""

import math

import numpy as np
import pytest

import lossy
from lossy.fairness import interval_rates, jain
from lossy.result import RunResult

from conftest import SCENARIOS


@pytest.mark.parametrize("rates, want", [
    ([5.0, 5.0, 5.0], 1.0),            # equal rates
    ([0.0, 0.0, 8.0, 0.0], 0.25),      # one of four flows gets everything: 1/n
    ([1.0, 3.0], 0.8),                 # (1 + 3)² / (2·(1 + 9)) = 16/20
    ([7.0], 1.0),                      # one flow is always fair to itself
    ([0.0, 0.0], 1.0),                 # nobody sends: equal shares, as the core says
    ([2.0, 1.0, 1.0], 16 / 18),        # (4)² / (3·6)
])
def test_jain_by_hand(rates, want):
    assert jain(rates) == pytest.approx(want, rel=1e-15)


def test_jain_of_nothing_is_nan():
    assert math.isnan(jain([]))


# Two flows, three intervals of 0.1 s, recorded at each interval's end, flow order
# within a time as the core writes it.
TRACE = {
    "time_s": np.array([0.1, 0.1, 0.2, 0.2, 0.3, 0.3]),
    "flow": np.array([0, 1, 0, 1, 0, 1], dtype=np.uint32),
    "bps": np.array([1e6, 1e6, 2e6, 0.0, 1e6, 3e6]),
}


def test_interval_rates_by_hand():
    df = interval_rates(TRACE, ["a", "b"])
    assert list(df.columns) == ["time_s", "a", "b", "jain"]
    assert df["time_s"].tolist() == [0.1, 0.2, 0.3]
    assert df["a"].tolist() == [1e6, 2e6, 1e6] and df["b"].tolist() == [1e6, 0.0, 3e6]
    # equal → 1; one of two gets everything → 1/2; (1 + 3)²/(2·10) = 0.8.
    assert df["jain"].tolist() == pytest.approx([1.0, 0.5, 0.8], rel=1e-15)
    one = interval_rates(TRACE, ["a", "b"], flows=["b"])
    assert list(one.columns) == ["time_s", "b", "jain"] and one["jain"].tolist() == [1.0, 1.0, 1.0]
    swapped = interval_rates(TRACE, ["a", "b"], flows=[1, "a"])
    assert list(swapped.columns) == ["time_s", "b", "a", "jain"]
    with pytest.raises(ValueError, match=r"^flows: 'c' is not a flow of the run; use a name \(a, b\)"):
        interval_rates(TRACE, ["a", "b"], flows=["c"])
    with pytest.raises(ValueError, match=r"^flows: 2 is not a flow"):
        interval_rates(TRACE, ["a", "b"], flows=[2])


def test_fairness_needs_the_throughput_trace():
    raw = {"summary": {}, "flows": {"name": ["a", "b"]}, "traces": {"throughput": TRACE}}
    assert RunResult(raw).fairness()["jain"].tolist() == pytest.approx([1.0, 0.5, 0.8])
    with pytest.raises(ValueError, match=r'^traces\.throughput: the run recorded no throughput trace'):
        RunResult({"summary": {}, "flows": {"name": ["a"]}}).fairness()


def test_fairness_of_a_run_adds_up_to_what_each_flow_delivered():
    r = lossy.run(SCENARIOS / "two-rtts.toml", traces=["throughput"], overrides={"duration": "10 s"})
    df = r.fairness()
    names = r.flow_table["name"]
    assert list(df.columns) == ["time_s", *names, "jain"]
    interval = 0.1  # traces.throughput_interval's default
    assert np.allclose(np.diff(df["time_s"]), interval)
    for name, delivered in zip(names, r.flow_table["bytes_delivered"]):
        # Every byte delivered up to the last sample is in some interval: at most the
        # bytes of the last, unsampled part of the run are missing.
        counted = df[name].sum() * interval / 8
        assert delivered - 4e6 * interval / 8 <= counted <= delivered + 1e-6
    # The long-RTT flow starts at 0.5 s: before, one of two flows has everything.
    assert (df.loc[df["time_s"] <= 0.5, "jain"] == 0.5).all()
    assert ((df["jain"] >= 0.5) & (df["jain"] <= 1.0)).all()
    # The run's index over goodputs is the core's, from the same formula.
    assert r.summary["jain_index"] == pytest.approx(jain(r.flow_table["goodput_bps"]), rel=1e-12)
