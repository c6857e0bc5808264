"""Chen et al.'s ns-2 readings (issue 25 item 8): the TCP of chen-fig9.toml and
chen-scale.toml is ns-2.1b7's (October 2000, before the paper's technical report of
December 2000): a one-segment initial window (`windowInit_ 1`; 2 only from 2001/05/26)
and ELN answered on the first marked duplicate ACK (`eln_rxmit_thresh_ 1`,
`TcpAgent::tcp_eln`). Read in the ns-2 CVS history (mirror Raj64742/ns2, commit
633cff31): tcl/lib/ns-default.tcl lines 514 and 578, tcp/tcp.cc lines 1259-1272."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

import lossy
from lossy.papers.chen_syndrome.schemes import SCHEMES
from lossy.scenario import load_scenario
from lossy.shipped import scenarios_dir

NS2_2000 = {"initial_window": 1, "eln_dupack_threshold": 1, "max_window": "20000 B", "limited_transmit": False}


def _tcps(name: str) -> List[Dict[str, Any]]:
    doc = load_scenario(scenarios_dir() / f"{name}.toml")
    return [f["tcp"] for f in doc.get("flows", []) + doc.get("flow_groups", [])]


@pytest.mark.parametrize("name", ["chen-fig9", "chen-scale"])
def test_chen_scenarios_run_ns2_2000s_reno(name: str) -> None:
    for tcp in _tcps(name):
        assert {k: tcp.get(k) for k in NS2_2000} == NS2_2000


def test_the_core_takes_the_eln_threshold_and_syndrome_resends_without_halving() -> None:
    over: Dict[str, Any] = {"duration": "20 s", "links.7.loss.p": 0.05, **SCHEMES["syndrome"]}
    r = lossy.run(scenarios_dir() / "chen-fig9.toml", overrides=over)
    s1 = r.flows[0]
    assert s1["retransmits_eln"] > 0
    assert s1["retransmits_eln"] > s1["retransmits_fast"]
