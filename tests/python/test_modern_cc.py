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
from lossy.papers.modern_cc.sweeps import AQM_CCS, CCS, CHANNELS_PLAN, LOSS, PROBE_NO_BACKOFF, WLAN
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


@pytest.mark.slow
def test_a_short_run_of_todays_controls_and_an_unknown_one(tmp_path: Path) -> None:
    """Reno, NewReno and SACK run; a control the core does not know (in BBRv1's place)
    fails its runs, and the claim that reads it says so with the core's line."""
    spec = copy.deepcopy(LOSS.spec)
    spec["variants"]["cc"] = {**{k: CCS[k] for k in ("reno", "newreno", "sack")},
                              "bbr": {"flows.0.tcp.variant": "sack", "flows.0.tcp.cc": "no-such-cc"}}
    spec["quick"] = {"replications": 2, "duration": "10 s", "grid": {"p": {"path": "links.1.loss.p",
                                                                           "values": [0.01, 0.05]}}}
    probe = copy.deepcopy(PROBE_NO_BACKOFF.spec)
    probe["quick"] = {"replications": 2, "duration": "5 s", "grid": {"p": {"path": "links.1.loss.p", "values": [0.05]}}}
    r = get("modern-cc").only(["bbr-full-rate"])
    r = dataclasses.replace(r, sweeps=[dataclasses.replace(LOSS, spec=spec),
                                       dataclasses.replace(PROBE_NO_BACKOFF, spec=probe)])
    outcome = reproduce(r, tmp_path, quick=True, progress=False)
    runs = outcome.ctx.runs["loss"]
    ok = runs[runs["status"] == "ok"]
    assert set(ok["cc"]) == {"reno", "newreno", "sack"} and (ok["goodput"] > 0).all()
    failed = runs[runs["status"] != "ok"]
    assert set(failed["cc"]) == {"bbr"}
    [(_, verdict)] = outcome.verdicts
    assert verdict.state is State.UNCHECKED
    assert "no-such-cc" in verdict.reason and "is not allowed" in verdict.reason and "reno" in verdict.reason
