"""lossy.summary against values computed by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from lossy.summary import ci_satisfied, paired, summarize, t_interval

T975_2 = 4.302652729911275  # Student t, 97.5 % quantile, 2 degrees of freedom
T975_3 = 3.182446305284263  # 3 degrees of freedom


def runs(rows: list[tuple]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["p", "scheme", "replication", "seed", "status", "goodput"])


def test_t_interval_by_hand() -> None:
    n, mean, sd, half = t_interval([1.0, 2.0, 3.0])
    assert (n, mean, sd) == (3, 2.0, 1.0)
    assert half == pytest.approx(T975_2 / math.sqrt(3))


def test_one_run_has_no_interval_and_no_error() -> None:
    n, mean, sd, half = t_interval([5.0])
    assert (n, mean) == (1, 5.0)
    assert math.isnan(sd) and math.isnan(half)
    assert t_interval([])[0] == 0


def test_summarize_per_point_only_ok_runs() -> None:
    df = runs([
        (0.01, "reno", 0, 1, "ok", 1.0),
        (0.01, "reno", 1, 1, "ok", 2.0),
        (0.01, "reno", 2, 1, "ok", 3.0),
        (0.01, "reno", 3, 1, "failed", None),  # never counted
        (0.02, "reno", 0, 1, "ok", 10.0),
        (0.02, "reno", 1, 1, "ok", 14.0),
        (0.02, "reno", 2, 1, "ok", 12.0),
        (0.02, "reno", 3, 1, "ok", 12.0),
        (0.05, "reno", 0, 1, "ok", 7.0),
    ])
    s = summarize(df, ["p", "scheme"], ["goodput"]).set_index("p")
    assert list(s.columns) == ["scheme", "metric", "n", "mean", "sd", "ci_low", "ci_high", "half_width"]
    a = s.loc[0.01]
    assert (a["n"], a["mean"], a["sd"]) == (3, 2.0, 1.0)
    assert a["half_width"] == pytest.approx(T975_2 / math.sqrt(3))
    assert a["ci_low"] == pytest.approx(2 - T975_2 / math.sqrt(3))
    assert a["ci_high"] == pytest.approx(2 + T975_2 / math.sqrt(3))
    b = s.loc[0.02]  # deviations -2, 2, 0, 0: sd = sqrt(8/3)
    assert (b["n"], b["mean"]) == (4, 12.0)
    assert b["sd"] == pytest.approx(math.sqrt(8 / 3))
    assert b["half_width"] == pytest.approx(T975_3 * math.sqrt(8 / 3) / 2)
    c = s.loc[0.05]
    assert c["n"] == 1 and c["mean"] == 7.0 and math.isnan(c["half_width"])


def test_summarize_without_axes_is_one_point() -> None:
    df = runs([(0.01, "reno", r, 1, "ok", float(r + 1)) for r in range(3)])
    s = summarize(df, [], ["goodput", "replication"])
    assert list(s["metric"]) == ["goodput", "replication"]
    assert list(s["mean"]) == [2.0, 1.0]


def test_summarize_names_a_missing_column() -> None:
    with pytest.raises(KeyError, match="throughput"):
        summarize(runs([]), ["p"], ["throughput"])


def test_paired_differences_at_equal_replication() -> None:
    df = runs([
        (0.02, "reno", 0, 1, "ok", 10.0),
        (0.02, "reno", 1, 1, "ok", 20.0),
        (0.02, "reno", 2, 1, "ok", 30.0),
        (0.02, "reno", 3, 1, "ok", 99.0),    # its eln partner failed: left out of the pairs
        (0.02, "eln", 0, 1, "ok", 13.0),     # differences 3, 4, 5
        (0.02, "eln", 1, 1, "ok", 24.0),
        (0.02, "eln", 2, 1, "ok", 35.0),
        (0.02, "eln", 3, 1, "failed", None),
        (0.05, "reno", 0, 1, "ok", 4.0),
        (0.05, "eln", 0, 1, "ok", 10.0),
    ])
    out = paired(df, "goodput", "scheme", "reno", ["p", "scheme"]).set_index("p")
    assert list(out.columns) == ["scheme", "baseline", "metric", "n", "mean_diff", "sd_diff", "ci_low",
                                 "ci_high", "half_width", "mean_baseline", "mean_variant", "ratio"]
    a = out.loc[0.02]
    assert (a["scheme"], a["baseline"], a["n"], a["mean_diff"], a["sd_diff"]) == ("eln", "reno", 3, 4.0, 1.0)
    assert a["half_width"] == pytest.approx(T975_2 / math.sqrt(3))
    assert (a["mean_baseline"], a["mean_variant"]) == (20.0, 24.0)
    assert a["ratio"] == pytest.approx(1.2)
    b = out.loc[0.05]
    assert b["n"] == 1 and b["mean_diff"] == 6.0 and b["ratio"] == 2.5 and math.isnan(b["half_width"])


def test_paired_interval_is_tighter_than_the_unpaired_one() -> None:
    # The channel moves both schemes together; the pairing removes that common part.
    base = [10.0, 20.0, 30.0, 40.0]
    df = runs([(0.02, "reno", r, 1, "ok", g) for r, g in enumerate(base)]
              + [(0.02, "eln", r, 1, "ok", g * 1.5 + 1) for r, g in enumerate(base)])
    half_paired = paired(df, "goodput", "scheme", "reno", ["p"])["half_width"].iloc[0]
    half_alone = summarize(df, ["scheme"], ["goodput"])["half_width"].max()
    assert half_paired < half_alone


def test_paired_needs_the_baseline() -> None:
    df = runs([(0.02, "eln", 0, 1, "ok", 1.0)])
    with pytest.raises(ValueError, match="baseline 'reno'"):
        paired(df, "goodput", "scheme", "reno", ["p"])


def test_ci_satisfied() -> None:
    s = pd.DataFrame({"mean": [100.0, -50.0], "half_width": [5.0, 2.0]})
    assert ci_satisfied(s, 0.05)
    assert not ci_satisfied(s, 0.04)
    s.loc[1, "half_width"] = float("nan")  # n = 1: not enough runs yet
    assert not ci_satisfied(s, 0.05)
    assert not ci_satisfied(s.iloc[0:0], 0.05)


def test_a_counts_interval_is_cut_at_zero() -> None:
    # Issue 27: timeouts 0, 0, 1 gave [-1.1, 1.77]; a count's mean cannot be negative.
    df = pd.DataFrame({"p": [0.1] * 3, "status": ["ok"] * 3,
                       "timeouts": pd.array([0, 0, 1], dtype="Int64"),
                       "goodput": [-1.0, 0.0, 1.0]})
    s = summarize(df, ["p"], ["timeouts", "goodput"]).set_index("metric")
    half = T975_2 * math.sqrt(1 / 3) / math.sqrt(3)
    assert s.loc["timeouts", "ci_low"] == 0.0
    assert s.loc["timeouts", "ci_high"] == pytest.approx(1 / 3 + half)
    assert s.loc["timeouts", "half_width"] == pytest.approx(half)
    # A real-valued metric (it may be negative) keeps its t interval.
    assert s.loc["goodput", "ci_low"] < 0


def test_an_integer_metric_with_negative_values_is_not_a_count() -> None:
    df = pd.DataFrame({"p": [0.1] * 3, "status": ["ok"] * 3, "delta": [-2, 0, 1]})
    s = summarize(df, ["p"], ["delta"])
    assert s["ci_low"].iloc[0] < -2
