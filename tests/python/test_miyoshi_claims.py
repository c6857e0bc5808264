"""Miyoshi's claims on the claims protocol: each a protocol Claim, its bands from the
paper's own numbers, the Fig. 2 crossing decided at every grid BER, the stream's
replications paired by seed, and an inventory whose tests exist."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from lossy.papers import synthetic
from lossy.papers.context import Context
from lossy.papers.miyoshi import REPRODUCTION, stream
from lossy.papers.miyoshi.claims_stream import paper_ratio
from lossy.papers.miyoshi.claims_tcp import FEC
from lossy.papers.miyoshi.setup import ADAPTIVE, FIG2
from lossy.papers.miyoshi.sweeps import FIG2_BER
from lossy.papers.model import Claim
from lossy.papers.verdict import State

ROOT = Path(__file__).resolve().parents[2]
CLAIMS = {c.key: c for c in REPRODUCTION.claims}


def test_every_claim_is_on_the_protocol_and_in_the_inventory():
    assert all(isinstance(c, Claim) for c in CLAIMS.values())
    assert REPRODUCTION.inventory is not None
    assert set(CLAIMS) <= set(REPRODUCTION.inventory.claim_keys())


def test_the_papers_own_numbers_lie_in_the_bands_read_from_its_words():
    # "improved by 2% in Table 3, and by 10% in Table 4": the tables give 2.3 % and 9.6 % of the sent.
    for case, key in (("table3", "adaptive-table3"), ("table4", "adaptive-table4")):
        rows = stream.PAPER[case]
        gain = 100 * (rows["adaptive FEC"][3] - max(v[3] for k, v in rows.items() if k != "adaptive FEC")) / 50_000
        band = CLAIMS[key].band
        assert band.low <= gain <= band.high, (key, gain, band)
    assert paper_ratio("table3", "lost") == pytest.approx(2292 / 4461)
    assert paper_ratio("table4", "overhead") == pytest.approx(9223 / 8860)


def _fig2(level_of_others):
    def level(ber: float, scheme: str) -> float:
        return 186e3 if scheme == FEC else level_of_others(ber)
    return synthetic.runs({"ber": FIG2_BER, "scheme": list(FIG2)}, level)


def test_the_crossing_is_decided_on_each_side_at_every_grid_ber():
    claim = CLAIMS["fec-above-1e-4"]
    faithful = claim.evaluate({"fig2": _fig2(lambda b: 265e3 if b < 1e-4 else 5e3)})
    assert faithful.state is State.REPRODUCED
    assert len(faithful.parts) == len(FIG2_BER) - 1  # every grid BER but 10⁻⁴ itself
    # One grid BER on the wrong side (3·10⁻⁵: FEC no longer the worst) is enough to fail.
    wrong = claim.evaluate({"fig2": _fig2(lambda b: 265e3 if b < 2e-5 else (170e3 if b < 1e-4 else 5e3))})
    assert wrong.state is State.NOT_REPRODUCED and "3e-05" in wrong.reason


def test_a_quick_crossing_lacking_grid_bers_is_never_reproduced():
    plan = REPRODUCTION.plan("fig2")
    quick = _fig2(lambda b: 265e3 if b < 1e-4 else 5e3)
    quick = quick[quick["ber"].isin([1e-6, 1e-5, 1e-4, 1e-3, 1e-2])]
    v = CLAIMS["fec-above-1e-4"].evaluate(Context(Path("."), True, runs={"fig2": quick}, specs={"fig2": plan.spec}))
    assert v.state is State.INCONCLUSIVE and "not measured in this run: BER 3e-06" in v.reason


def test_the_papers_own_table_reproduces_the_losses_and_overhead_claim():
    def table(case: str) -> pd.DataFrame:
        rows = stream.PAPER[case]
        return synthetic.runs({"reading": [stream.DEFAULT], "scheme": list(rows)},
                              lambda reading, scheme: dict(zip(stream.COUNTS, rows[scheme])), spread=0.001)
    v = CLAIMS["adaptive-losses-overhead"].evaluate({f"stream-{case}": table(case) for case in stream.PAPER})
    assert v.state is State.REPRODUCED, v.reason
    assert len(v.parts) == 4  # two tables × (losses, overhead), the default reading of b_E


def test_the_stream_pairs_its_schemes_by_seed():
    """Each seed is one run of the paper's experiment; every code sees the same channel
    at a seed, so a stronger code never loses more packets than a weaker one there."""
    runs = stream.table_runs("table4", True)
    assert len(runs) == len(stream.READINGS) * len(stream.schemes()) * stream.QUICK_SEEDS
    assert sorted(runs["replication"].unique()) == list(range(stream.QUICK_SEEDS))
    lost = runs.pivot_table(index=["reading", "seed"], columns="scheme", values="lost")
    ladder = ["no FEC", "FEC(127,94)", "BCH(127,64)", "BCH(127,36)"]
    for weak, strong in zip(ladder, ladder[1:]):
        assert (lost[weak] >= lost[strong]).all(), (weak, strong)
    # The table's rows are the means over seeds.
    rows = stream.table_rows("table4", True)
    ours = rows[rows["source"].str.startswith(stream.READINGS["p_err"])].set_index("scheme")["available"]
    means = runs[runs["reading"] == "p_err"].groupby("scheme")["available"].mean()
    assert ours.to_dict() == pytest.approx(means.to_dict())


def test_the_window_table_is_the_mean_over_seeds():
    runs = pd.DataFrame([
        {"speed_m_s": 1.0, "doppler_hz": 3.0, "scheme": s, "window": w, "replication": r, "available": a + r}
        for s, w, a in [("no FEC", 0, 100.0), ("FEC(127,94)", 0, 90.0), ("BCH(127,64)", 0, 80.0),
                        ("BCH(127,36)", 0, 50.0), (stream.ADAPTIVE, 10, 110.0)] for r in range(3)])
    row = stream.window_table(runs).iloc[0]
    assert (row["best_code"], row["adaptive"], row["best_fixed"]) == ("no FEC", 111.0, 101.0)
    assert row["gain_pct"] == pytest.approx(100 * (111 / 101 - 1))


def test_the_probe_changes_only_the_lower_thresholds():
    fig3, probe = REPRODUCTION.plan("fig3").spec, REPRODUCTION.plan("fig3-no-step-down").spec
    assert (probe["grid"], probe["seed"], probe["replications"]) == (fig3["grid"], fig3["seed"], fig3["replications"])
    ours, theirs = probe["variants"]["scheme"][ADAPTIVE], fig3["variants"]["scheme"][ADAPTIVE]
    key = "flows.0.tcp.adaptive_fec"
    assert ours[key]["up"] == theirs[key]["up"] and max(theirs[key]["down"]) > 0 == max(ours[key]["down"])
    assert {k: v for k, v in ours.items() if k != key} == {k: v for k, v in theirs.items() if k != key}


def test_the_default_reading_reproduces_table_4s_fixed_rows():
    """Issue 25 item 5: with b_E = 10·p_b and FEC(127,94) correcting 4, Table 4's fixed
    rows come out near the paper's (the full claim is rows-lost); under the mean-BER
    reading FEC(127,94) loses ~1/60 of the paper's 15,903."""
    runs = stream.table_runs("table4", True)
    lost = runs.groupby(["reading", "scheme"])["lost"].mean()
    for row in ("FEC(127,94)", "BCH(127,64)"):
        assert lost[(stream.DEFAULT, row)] == pytest.approx(stream.PAPER["table4"][row][0], rel=0.15), row
    assert lost[("p_b", "FEC(127,94)")] < 0.1 * stream.PAPER["table4"]["FEC(127,94)"][0]
