"""Botoș et al.'s claims on the claims protocol (lossy.papers.botos): the quantities
computed by hand on small tables, the crossing told apart from crossings elsewhere, the
per-run rates of Figs. 5–6 with Jain's index of the mean rates beside the per-interval
one, a quick run's missing points, and an inventory whose tests exist. The null,
faithful and exaggerated examples of every claim run in test_claims_protocol.py."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from lossy.fairness import jain
from lossy.loss import closed_form, loss_distances, loss_sequence
from lossy.papers.botos import REPRODUCTION, curves, losses, sharing
from lossy.papers.botos.claims import CLAIMS
from lossy.papers.botos.examples import fig1, two_flows, world
from lossy.papers.context import Context
from lossy.papers.estimate import jackknife
from lossy.papers.verdict import State

ROOT = Path(__file__).resolve().parents[2]
BY_KEY = {c.key: c for c in CLAIMS}


def rows(**by_scheme: float) -> pd.DataFrame:
    """One point's runs: each scheme's goodput (b/s) at replications 0 and 1."""
    return pd.DataFrame([{"scheme": s, "replication": r, "status": "ok", "goodput": g * (1 + r / 100)}
                         for s, g in by_scheme.items() for r in (0, 1)])


def test_the_best_tcp_is_the_highest_mean_and_nan_without_all_four():
    df = rows(FECTCP=900e3, Tahoe=100e3, Reno=300e3, NewReno=200e3, SACK=250e3)
    assert curves.best_tcp_kbps()(df) == pytest.approx(300 * 1.005)
    assert math.isnan(curves.best_tcp_kbps()(df[df["scheme"] != "SACK"]))


def test_the_lead_is_signed_for_the_scheme_the_paper_names():
    df = rows(FECTCP=900e3, Tahoe=100e3, Reno=300e3, NewReno=200e3, SACK=250e3)
    assert curves.lead(0.02)(df) == pytest.approx(-(900 - 300) * 1.005)  # below 3.75 %: TCP should lead
    assert curves.lead(0.10)(df) == pytest.approx((900 - 300) * 1.005)  # above 6.25 %: FECTCP should
    assert curves.CROSSING == pytest.approx((0.0375, 0.0625))


def test_the_efficiency_ratio_divides_out_the_loss():
    df = pd.DataFrame([{"scheme": "FECTCP", "loss": p, "replication": 0, "status": "ok", "goodput": g}
                       for p, g in ((0.1, 900.0), (0.25, 600.0))])
    # 900 / 0.9 = 1000 per delivered segment at 10 %, 600 / 0.75 = 800 at 25 %.
    assert curves.efficiency_ratio("20 ms")(df) == pytest.approx(0.8)


@pytest.mark.parametrize("crossing, state", [(0.05, State.REPRODUCED), (0.045, State.REPRODUCED),
                                             (0.01, State.NOT_REPRODUCED), (0.2, State.NOT_REPRODUCED),
                                             (0.11, State.NOT_REPRODUCED)])
def test_the_crossing_is_told_apart_from_crossings_elsewhere(crossing, state):
    assert BY_KEY["fectcp-wins-high-loss"].evaluate(world(crossing=crossing)()).state is state


def test_the_crossing_fails_when_only_one_delay_crosses_elsewhere():
    runs = world()()
    for sweep, df in runs.items():  # at 100 ms FECTCP leads from 2 % already
        at = (df["delay"] == "100 ms") & (df["scheme"] == "FECTCP") & (df["loss"] == 0.02)
        runs[sweep] = df.assign(goodput=df["goodput"].where(~at, df["goodput"] * 1.3))
    v = BY_KEY["fectcp-wins-high-loss"].evaluate(runs)
    assert v.state is State.NOT_REPRODUCED and "100 ms, loss 2 %" in v.reason


def test_a_quick_grid_names_the_full_grids_losses_it_lacks():
    runs = world()()
    specs = {p.key: p.spec for p in REPRODUCTION.sweeps}
    ctx = Context(Path("."), quick=True, runs=runs, specs=specs)
    v = BY_KEY["delay-costs-fectcp-little"].evaluate(ctx)
    assert v.state is State.INCONCLUSIVE
    assert "independent, loss 0.5 %" in v.reason and "neyman, loss 20 %" in v.reason
    assert "loss 30 %" not in v.reason  # beyond the paper's 25 %: not part of the claim


def trace(fectcp: float, other: float) -> pd.DataFrame:
    """A throughput trace over 200 s: FECTCP alone at 960 kb/s to 60 s, then the two
    flows at `fectcp` and `other` kb/s, alternating ±100 kb/s from second to second."""
    out = []
    for t in range(1, 201):
        swing = 100e3 * (1 if t % 2 else -1) if t > 60 else 0.0
        out += [{"time_s": float(t), "flow": 0, "bps": 960e3 if t <= 60 else fectcp * 1e3 + swing},
                {"time_s": float(t), "flow": 1, "bps": 0.0 if t <= 60 else other * 1e3 - swing}]
    return pd.DataFrame(out)


def test_per_run_rates_and_jain_of_the_mean_rates(monkeypatch: Any):
    monkeypatch.setattr(sharing, "_rates", lambda ctx, sweep, row: trace(300, 600).pivot_table(
        index="time_s", columns="flow", values="bps").reset_index().rename(columns={0: "flow0", 1: "flow1"}))
    runs = pd.DataFrame([{"replication": r, "status": "ok", "run_id": f"r{r}"} for r in range(3)])
    w = sharing.per_run(Context(Path("."), runs={"fig5": runs}), "fig5")
    assert list(w["replication"]) == [0, 1, 2]
    assert w[sharing.ALONE].iloc[0] == pytest.approx(960e3)
    assert w[sharing.TOGETHER].iloc[0] == pytest.approx(300e3, rel=0.01)
    assert w[sharing.OTHER].iloc[0] == pytest.approx(600e3, rel=0.01)
    # Jain of the means: (900)² / (2·(300² + 600²)) = 0.9; each interval swings by
    # ±100 kb/s, so the per-interval mean is lower.
    assert w[sharing.JAIN].iloc[0] == pytest.approx(0.9, abs=0.005)
    assert w[sharing.JAIN_INTERVALS].iloc[0] < w[sharing.JAIN].iloc[0] - 0.01
    e = jackknife(w, lambda df: df[sharing.OTHER].mean() / df[sharing.TOGETHER].mean())
    assert e.value == pytest.approx(2.0, rel=0.02)


def test_the_share_claim_gives_jains_index_of_the_mean_rates_and_names_the_interval_mean_extra():
    runs = two_flows("fig5", 964, 400, 600)()
    df = runs["fig5"].assign(**{sharing.JAIN_INTERVALS: 0.8})
    v = BY_KEY["tcp-gets-its-share"].evaluate({"fig5": df})
    fec, other = df[sharing.TOGETHER].mean(), df[sharing.OTHER].mean()
    shown = re.search(r"Jain's index of the two mean rates \(Jain, Chiu, Hawe 1984\): ([0-9.]+) \(95 % CI", v.reason)
    assert shown and float(shown.group(1)) == pytest.approx(jain([fec, other]), abs=5e-4), v.reason
    assert jain([fec, other]) == pytest.approx((1 + 1.5) ** 2 / (2 * (1 + 1.5 ** 2)), rel=0.01)
    assert "extra metric, not Jain's index of the flows: the mean over 1 s intervals of the per-interval " \
        "index, 0.8" in v.reason


def test_the_neyman_formulas_cdf_is_the_closed_form_at_1_and_a_cdf():
    for p in losses.RATES:
        table = losses.neyman_table(p)
        f = [losses.formula_cdf(table, k) for k in range(1, 60)]
        assert f[0] == pytest.approx(closed_form(table, 1500)["next_lost"], rel=1e-9)
        assert all(a < b for a, b in zip(f, f[1:])) and 0 < f[0] and f[-1] <= 1


def test_the_fig1_claims_hold_on_our_sequences_and_fail_on_losses_that_follow_losses():
    # The quick sequences of our Neyman Type A reading: the CDF is the formula's; losses
    # that follow losses (null: 45 % of distances 1) fail both claims.
    runs = {losses.SEQUENCES: losses.sequences(True)}
    assert BY_KEY["fig1-cdf-is-neyman"].evaluate(runs, quick=True).state is State.REPRODUCED
    assert BY_KEY["next-loss-about-p"].evaluate(runs, quick=True).state is not State.NOT_REPRODUCED
    for key in ("fig1-cdf-is-neyman", "next-loss-about-p"):
        null = BY_KEY[key].examples.null()
        assert BY_KEY[key].evaluate(null).state is State.NOT_REPRODUCED, key
    # clusters spread over packets, counted as the claims count: P(d = 1) about 0.45.
    table = losses.neyman_table(0.05, packet_level=True)
    rows = []
    for r in range(5):
        lost = loss_sequence(table, packets=200_000, packet_bytes=1500, seed=r + 1)
        d = loss_distances(lost)
        rows.append({"loss": 0.05, "replication": r, "status": "ok", "packets": 200_000, "losses": int(lost.sum()),
                     "distances": int(d.size), **{f"cdf_{k}": int((d <= k).sum()) for k in losses.KS},
                     **{f"formula_{k}": losses.formula_cdf(losses.neyman_table(0.05), k) for k in losses.KS}})
    packets = {losses.SEQUENCES: pd.DataFrame(rows)}
    for key in ("fig1-cdf-is-neyman", "next-loss-about-p"):
        assert BY_KEY[key].evaluate(packets).state is State.NOT_REPRODUCED, key
    assert BY_KEY["next-loss-about-p"].evaluate(fig1()()).state is State.REPRODUCED


def test_every_claim_is_on_the_protocol_and_in_the_inventory():
    assert {c.key for c in REPRODUCTION.claims} == set(BY_KEY)
    assert set(REPRODUCTION.inventory.claim_keys()) == set(BY_KEY)
    assert all(type(c).__name__ == "Claim" for c in REPRODUCTION.claims)


def test_no_explanation_in_why_here_and_probes_swap_one_reading():
    # A claim says why its points can show the effect, never why it fails: a cause is a
    # probe's, which runs it away (the report says "cause unknown" without one).
    for c in CLAIMS:
        assert "because" not in c.why_here, c.key
    probed = {c.key: c.probe for c in CLAIMS if c.probe is not None}
    assert set(probed) == {"delay-costs-fectcp-little", "tcp-gets-its-share"}
    plans = {p.key: p.spec for p in REPRODUCTION.sweeps}
    for probe in probed.values():
        for key in probe.sweeps:
            assert plans[key]["set"].get("flows.0.fectcp", {}).get("decrease") == 0.7 or \
                all(o["flows.0.fectcp"]["decrease"] == 0.7 for o in plans[key]["variants"]["scheme"].values()), key
