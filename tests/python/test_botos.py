"""FECTCP from Python and the command line, and the pieces of `lossy reproduce
botos-fectcp` that can be checked by hand (lossy.papers.botos)."""

from __future__ import annotations

import math

import pytest

import lossy
from lossy.papers.botos import claims
from lossy.papers.botos.sweeps import sweeps as all_sweeps
from lossy.papers.botos.setup import SCENARIO
from lossy.sweep.spec import load_spec


def _flow(overrides):
    return lossy.run(SCENARIO, seed=1, overrides=overrides).flows[0]


def test_a_verified_transfer_from_python():
    f = _flow({"flows.0.app.size": "200 kB", "flows.0.fectcp": {"decoding": "verify", "code": "lt"},
               "links.2.loss.p": 0.2})
    assert (f["transport"], f["variant"]) == ("fectcp", "lt")
    assert f["fectcp_verified"] == 1 and f["bytes_delivered"] == 200_000
    assert f["fectcp_symbols_at_decode"] >= f["fectcp_source_symbols"]


def test_tcp_and_fectcp_share_one_scenario_file():
    f = _flow({"flows.0.transport": "tcp", "flows.0.fectcp": None, "flows.0.app.size": "200 kB"})
    assert (f["transport"], f["variant"]) == ("tcp", "reno")
    assert f["bytes_delivered"] == 200_000


@pytest.mark.parametrize("override, message", [
    ("flows.0.fectcp.alpha=1.5", "flows.0.fectcp.alpha: 1.5 is not allowed; use a number in (0, 1)"),
    ("flows.0.fectcp.overhead=-0.1", "flows.0.fectcp.overhead: -0.1 is not allowed; use a fraction in [0, 1]"),
    ("flows.0.fectcp.symbol_size=\"2000 B\"", "flows.0.fectcp.symbol_size: 2000 B is not allowed; use 1 B to the MSS"),
    ("flows.0.fectcp.code=\"turbo\"", "flows.0.fectcp.code: \"turbo\" is not allowed; use one of: raptorq, lt"),
    ("flows.0.fectcp.overhead=1.5", "flows.0.fectcp.overhead: 1.5 is not allowed; use a fraction in [0, 1]"),
    ("flows.0.fectcp.alpha=nan", "flows.0.fectcp.alpha: nan"),
    ("flows.0.app.size=\"0 B\"", "flows.0.app.size: 0 B is not a transfer"),
    ("links.2.loss={model=\"neyman\", errors_per_cluster=-1, clusters_per_unit=1e-6}",
     "links.2.loss.errors_per_cluster: -1 is not allowed"),
])
def test_bad_fectcp_input_is_one_line_and_exit_2(cli, override, message):
    r = cli("run", SCENARIO, "--set", override)
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_every_sweep_plan_loads_full_and_quick():
    for plan in all_sweeps():
        for quick in (False, True):
            spec = load_spec(plan.spec, quick=quick)
            assert spec.points, plan.key


def test_the_crossing_is_where_fectcp_stays_above():
    grid = [0.01, 0.02, 0.05, 0.1]
    best = {0.01: 10.0, 0.02: 8.0, 0.05: 5.0, 0.1: 2.0}
    assert claims._crossing(grid, {0.01: 9.0, 0.02: 9.0, 0.05: 6.0, 0.1: 3.0}, best) == 0.02
    # Above at 1 %, below at 2 %, above from 5 %: the crossing is 5 %.
    assert claims._crossing(grid, {0.01: 11.0, 0.02: 7.0, 0.05: 6.0, 0.1: 3.0}, best) == 0.05
    assert math.isnan(claims._crossing(grid, {0.01: 1.0, 0.02: 1.0, 0.05: 1.0, 0.1: 1.0}, best))


def test_efficiency_divides_out_the_loss():
    fec = {0.001: 999.0, 0.1: 900.0, 0.25: 600.0}
    eff = claims._efficiency([0.001, 0.1, 0.25], fec)
    assert eff[0.1] == pytest.approx(1.0) and eff[0.25] == pytest.approx(0.8)
