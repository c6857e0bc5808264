"""Chen et al.'s reproduction on the claims protocol: its claims, their quantities, the
sweeps added for them and their probes, and the inventory. The null, faithful and
exaggerated examples of every claim are fed in test_claims_protocol.py (-k chen)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lossy.papers import synthetic
from lossy.papers.chen_syndrome import REPRODUCTION
from lossy.papers.chen_syndrome.claims_added import WINDOW_BYTES
from lossy.papers.chen_syndrome.quantities import (CONNECTIONS, STATE, direction_ratios, state_ratio,
                                                   syndrome_count_only, syndrome_state_kept)
from lossy.papers.chen_syndrome.schemes import COEXISTING, TIMERS_2000
from lossy.papers.context import as_context
from lossy.papers.model import Claim
from lossy.papers.verdict import State
from lossy.sweep.spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
CLAIMS = {c.key: c for c in REPRODUCTION.claims}
PLANS = {p.key: p for p in REPRODUCTION.sweeps}


def test_every_claim_is_on_the_protocol_and_in_the_inventory() -> None:
    assert all(isinstance(c, Claim) for c in REPRODUCTION.claims)
    assert REPRODUCTION.inventory is not None
    assert set(CLAIMS) <= set(REPRODUCTION.inventory.claim_keys())
    added = {"table1-state", "coexist", "x-near-snoop", "x-above-reno", "duplicates-worst"}
    assert added <= set(CLAIMS)


def test_thirty_to_eighty_per_cent_is_a_two_sided_band() -> None:
    for key in ("above-reno", "x-above-reno"):
        band = CLAIMS[key].band
        assert (band.low, band.high) == (1.3, 1.8) and not band.direction_only
    # The measured magnitude of the issue (2.1–2.2× for Syndrome) is outside it.
    assert CLAIMS["above-reno"].band.distance(2.15) > 0


def test_the_inventory_covers_the_items_the_issue_names() -> None:
    assert REPRODUCTION.inventory is not None
    refs = {i.ref: i for i in REPRODUCTION.inventory.items}
    assert any(r.startswith("Table 1") and i.claims for r, i in refs.items())
    two_instances = refs["§3, two instances"]
    assert not two_instances.covered and "one base-station count" in two_instances.not_covered
    assert REPRODUCTION.inventory.counts()["items"] >= 35


def test_a_plain_host_beside_syndrome_hosts_is_plain_on_its_own_side_only() -> None:
    receiver, sender = COEXISTING["plain-mh-S1"], COEXISTING["plain-fh-S2"]
    assert "flows.0.tcp.syndrome" not in receiver and receiver["flows.1.tcp.syndrome"] == "downlink"
    assert [a["kind"] for a in receiver["agents"]] == ["syndrome"]
    assert sender["flows.1.tcp.eln"] is False and sender["flows.1.tcp.syndrome"] == "downlink"
    assert "flows.0.tcp.eln" not in sender


def test_probe_sweeps_change_only_the_timers_and_the_points() -> None:
    for key, plan in PLANS.items():
        if not key.endswith("-2000"):
            continue
        original = PLANS[key.removesuffix("-2000")]
        assert plan.spec["set"] == {**original.spec.get("set", {}), **TIMERS_2000}, key
        assert plan.spec["variants"] == original.spec["variants"], key
        full, quick = load_spec(plan.spec, quick=False), load_spec(plan.spec, quick=True)
        for axis in full.axes:
            values = list(axis.values)
            assert all(v in values for v in next(a for a in quick.axes if a.name == axis.name).values), (key, axis)


def test_the_coexistence_probe_widens_only_the_shared_links() -> None:
    wide, original = PLANS["coexist-wide"].spec, PLANS["coexist"].spec
    assert wide["set"] == {**original.get("set", {}), "links.5.rate": "10 Mbps", "links.7.rate": "10 Mbps"}
    assert wide["zip"] == original["zip"] and wide["variants"] == original["variants"]


def test_new_sweeps_run_on_fig_9s_network_and_their_quick_points_are_full_points() -> None:
    for key in ("x10", "x1000", "coexist"):
        spec = PLANS[key].spec
        assert spec["scenario"].endswith("chen-fig9.toml")
        full, quick = load_spec(spec, quick=False), load_spec(spec, quick=True)
        for axis in quick.axes:
            assert set(axis.values) <= set(next(a for a in full.axes if a.name == axis.name).values)
    p = PLANS["x10"].spec["zip"]
    assert [w * 10 for w in p["p_wired"]["values"]] == pytest.approx(p["p"]["values"])


def test_table_1_state_ratio_and_its_count_only_reading() -> None:
    # Snoop holds two 20-packet windows; Syndrome 6 B per connection (count and epoch).
    rows = synthetic.runs({"p": [0.1], "scheme": ["snoop", "syndrome"]},
                          lambda p, scheme: {STATE: 2 * WINDOW_BYTES if scheme == "snoop" else 12.0,
                                             CONNECTIONS: 2.0}, spread=0.0)
    ctx = as_context({"base": rows})
    kept = state_ratio(ctx, "base", syndrome_state_kept).parts[0].estimate.value
    count = state_ratio(ctx, "base", syndrome_count_only).parts[0].estimate.value
    assert kept == pytest.approx(WINDOW_BYTES / 6) and count == pytest.approx(WINDOW_BYTES / 4)
    v = CLAIMS["table1-state"].evaluate({"base": rows})
    assert v.state is State.NOT_REPRODUCED and "16-bit epoch" in v.probe and "demonstrated" in v.probe


def test_direction_ratios_divide_each_scheme_by_itself_the_other_way() -> None:
    def rows(level: float) -> object:
        return synthetic.runs({"p": [0.1, 0.01], "scheme": ["syndrome", "snoop"]},
                              lambda p, scheme: {"S1": level * (2 if scheme == "snoop" else 1), "S2": level})
    m = direction_ratios(as_context({"up": rows(50.0), "down": rows(100.0)}), "up", "down", ["syndrome", "snoop"])
    assert len(m.parts) == 2 * 2 * 2
    assert all(p.estimate.value == pytest.approx(0.5, rel=0.05) for p in m.parts)


def test_fig_12_reads_s2s_close_range_below_its_worst_case() -> None:
    rows = synthetic.runs({"dup": [0.02, 0.05, 0.1, 0.2], "scheme": ["syndrome", "snoop"]},
                          lambda dup, scheme: {"S1": 1e5, "S2": 1.2e5 if scheme == "syndrome" and dup >= 0.1 else 1e5})
    close = CLAIMS["duplicates"].evaluate({"duplicates": rows})
    worst = CLAIMS["duplicates-worst"].evaluate({"duplicates": rows})
    assert close.state is State.REPRODUCED and worst.state is State.REPRODUCED
    labels = [p["label"] for p in close.parts]
    assert labels == ["S1, syndrome ÷ snoop, dup = 0.02", "S1, syndrome ÷ snoop, dup = 0.05",
                      "S2, syndrome ÷ snoop, dup = 0.02", "S2, syndrome ÷ snoop, dup = 0.05"]
