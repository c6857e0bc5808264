"""modern-cc (python/lossy/papers/modern_cc/): the congestion controls are one list that
every sweep takes, a control the core does not know fails its runs with the core's one
line and makes the claims that need it "could not be checked" (never a crash), and a
short real run of the controls the core has today (Reno, NewReno, SACK)."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pytest

from lossy.papers import get
from lossy.papers.modern_cc import examples as ex
from lossy.papers.modern_cc.claims import CLAIMS
from lossy.papers import synthetic
from lossy.papers.modern_cc.claims import CAPACITY_BPS
from lossy.papers.modern_cc.sweeps import (AQM_CCS, CCS, CHANNELS_PLAN, GOODPUT, LOSS, PROBE_KEEP_SACK, PROBE_NO_BACKOFF,
                                          PROBE_PS, WLAN)
from lossy.papers.run import reproduce
from lossy.papers.verdict import State


def test_every_sweep_takes_its_controls_from_the_one_list() -> None:
    assert all(plan.spec["variants"]["cc"] is CCS for plan in (LOSS, CHANNELS_PLAN, WLAN))
    assert all(AQM_CCS[k] is CCS[k] for k in AQM_CCS)
    assert set(CCS) == {"reno", "newreno", "sack", "cubic", "bbr", "bbr3", "vegas", "westwood"}
    # Linux pairs the tcp.cc controls with SACK recovery; the three recoveries run Reno's rule.
    assert all(CCS[k]["flows.0.tcp.variant"] == "sack" for k in CCS if "flows.0.tcp.cc" in CCS[k])


def test_it_is_registered_with_its_claims_in_the_inventory() -> None:
    r = get("modern-cc")
    assert {c.key for c in r.claims} == {"bbr-full-rate", "bbr-above-loss-based", "bbr3-at-1pc",
                                         "bbr3-loss-threshold", "aqm-cut-delay", "bbr-deep-buffer"}
    assert r.inventory is not None and set(r.inventory.claim_keys()) == {c.key for c in r.claims}


def _claim(key: str):
    return next(c for c in CLAIMS if c.key == key)


def test_bbr3_failing_leaves_the_bbr1_claims_checkable_and_its_own_unchecked() -> None:
    """Until the core has bbr3, its runs fail: the claims that read only BBRv1, CUBIC and
    Reno are judged on their own rows, the two that read bbr3 are "could not be checked"
    with the core's line; once bbr3 runs, the same claims judge it (the faithful frames)."""
    runs = ex.loss_curves()()
    failing = runs["loss"].copy()
    bbr3 = failing["cc"] == "bbr3"
    failing.loc[bbr3, "status"] = "failed"
    failing.loc[bbr3, "error"] = 'flows.0.tcp.cc: "bbr3" is not allowed; use one of: reno, bbr'
    for key in ("bbr-full-rate", "bbr-above-loss-based"):
        assert _claim(key).evaluate({"loss": failing}).state is State.REPRODUCED
    for key in ("bbr3-at-1pc", "bbr3-loss-threshold"):
        v = _claim(key).evaluate({"loss": failing})
        assert v.state is State.UNCHECKED and '"bbr3" is not allowed' in v.reason
        assert _claim(key).evaluate(runs).state is State.REPRODUCED


def test_the_keep_sack_step_is_the_no_backoff_runs_with_the_scoreboard_kept() -> None:
    """bbr-full-rate's second probe step differs from the first only by the option it adds."""
    first, second = PROBE_NO_BACKOFF.spec, PROBE_KEEP_SACK.spec
    assert second["set"] == {**first["set"], "flows.0.tcp.sack_after_timeout": "keep"}
    assert first["set"].get("flows.0.tcp.sack_after_timeout") is None
    assert {k: v for k, v in second.items() if k not in ("set", "name")} == \
        {k: v for k, v in first.items() if k not in ("set", "name")}
    probe = _claim("bbr-full-rate").probe
    assert [s.sweeps for s in probe.steps()] == [[PROBE_NO_BACKOFF.key], [PROBE_KEEP_SACK.key]]
    assert PROBE_KEEP_SACK.key in _claim("bbr-full-rate").needs
    assert PROBE_KEEP_SACK in get("modern-cc").sweeps


def _bbr_at(key: str, efficiency) -> dict:
    """Probe-sweep rows of BBRv1 at PROBE_PS with the given efficiency per p."""
    return {key: synthetic.runs({"p": PROBE_PS, "cc": ["bbr"]},
                                lambda p, cc: {GOODPUT: efficiency(p) * CAPACITY_BPS * (1 - p)}, spread=0.0)}


def test_each_probe_step_reports_its_own_share_of_the_gap() -> None:
    """A BBRv1 at 0.35 and 0.08 of the bound at p = 0.05 and 0.1: the first step brings
    both to 0.6 of it, the second to 0.8; the report gives each step's part."""
    runs = ex.loss_curves()()
    loss = runs["loss"].copy()
    for p, e in ((0.05, 0.35), (0.1, 0.08)):
        at = (loss["cc"] == "bbr") & (loss["p"] == p)
        loss.loc[at, GOODPUT] = e * CAPACITY_BPS * (1 - p)
    first = _bbr_at(PROBE_NO_BACKOFF.key, lambda p: 0.97 if p < 0.05 else 0.6)
    second = _bbr_at(PROBE_KEEP_SACK.key, lambda p: 0.97 if p < 0.05 else 0.8)
    v = _claim("bbr-full-rate").evaluate({"loss": loss, **first, **second})
    assert v.state is State.NOT_REPRODUCED
    # gap 0.55 + 0.82 = 1.37; after step one 0.3 + 0.3 (56 % closed), after step two 0.1 + 0.1 (85 %)
    assert "it closes 56% of the gap (the explanation says 50%): demonstrated" in v.probe
    assert "together they close 85% of the gap, this step 29% of it, 67% of the 44% the step before left" in v.probe
    assert "(the explanation says 50% of it): demonstrated; the other 15% of the gap: cause unknown" in v.probe
    # A second step that closes nothing more is "not demonstrated".
    same = _bbr_at(PROBE_KEEP_SACK.key, lambda p: 0.97 if p < 0.05 else 0.6)
    v = _claim("bbr-full-rate").evaluate({"loss": loss, **first, **same})
    assert "this step 0% of it" in v.probe and "of it): not demonstrated" in v.probe


@pytest.mark.slow
def test_a_short_run_of_todays_controls_and_an_unknown_one(tmp_path: Path) -> None:
    """Reno, NewReno and SACK run; a control the core does not know (in BBRv1's place)
    fails its runs, and the claim that reads it says so with the core's line."""
    spec = copy.deepcopy(LOSS.spec)
    spec["variants"]["cc"] = {**{k: CCS[k] for k in ("reno", "newreno", "sack")},
                              "bbr": {"flows.0.tcp.variant": "sack", "flows.0.tcp.cc": "no-such-cc"}}
    spec["quick"] = {"replications": 2, "duration": "10 s", "grid": {"p": {"path": "links.1.loss.p",
                                                                           "values": [0.01, 0.05]}}}
    quick = {"replications": 2, "duration": "5 s", "grid": {"p": {"path": "links.1.loss.p", "values": [0.05]}}}
    probes = [dataclasses.replace(plan, spec={**copy.deepcopy(plan.spec), "quick": quick})
              for plan in (PROBE_NO_BACKOFF, PROBE_KEEP_SACK)]
    r = get("modern-cc").only(["bbr-full-rate"])
    r = dataclasses.replace(r, sweeps=[dataclasses.replace(LOSS, spec=spec), *probes])
    outcome = reproduce(r, tmp_path, quick=True, progress=False)
    runs = outcome.ctx.runs["loss"]
    ok = runs[runs["status"] == "ok"]
    assert set(ok["cc"]) == {"reno", "newreno", "sack"} and (ok["goodput"] > 0).all()
    failed = runs[runs["status"] != "ok"]
    assert set(failed["cc"]) == {"bbr"}
    [(_, verdict)] = outcome.verdicts
    assert verdict.state is State.UNCHECKED
    assert "no-such-cc" in verdict.reason and "is not allowed" in verdict.reason and "reno" in verdict.reason
