"""lossy's side of a set-up: its scenario with the point's congestion control, loss rate
and duration (SetUp.lossy_overrides), one run per seed. The seed is lossy's own: the two
simulators draw different random numbers, so runs are compared as means over seeds, not
run by run."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from .. import api
from . import queues, trace_summary
from .setups import SetUp


def run_point(setup: SetUp, cc: str, p: float, seed: int) -> Dict[str, Any]:
    doc = api.load_scenario(str(setup.scenario))
    overrides = setup.lossy_overrides(cc, p)
    for f in range(setup.flows):
        if overrides[f"flows.{f}.tcp.cc"] == "reno":
            # Reno is lossy's default window rule: left unset, so that NewReno's rows also run
            # on a lossy from before `tcp.cc`.
            del overrides[f"flows.{f}.tcp.cc"]
            doc["flows"][f]["tcp"].pop("cc", None)
    result = api.run(doc, seed=seed, overrides=overrides, traces=trace_summary.LOSSY_TRACES if setup.traced else ())
    flow = result.flows[0]
    # Several flows: each one's goodput over its own life, and all their bytes over the
    # run as the row's goodput (cc.cc's goodput_bps and flow_goodputs_bps).
    many = setup.flows > 1
    goodput = sum(f["bytes_delivered"] for f in result.flows) * 8 / setup.sim_s if many else flow["goodput_bps"]
    traced: Dict[str, Any] = {}
    if setup.traced:
        cwnd, pacing = trace_summary.lossy_steps(result.traces)
        traced = trace_summary.summary(cwnd, setup.mss, setup.sim_s, pacing)
    return {**traced, "setup": setup.name, "cc": cc, "p": p, "seed": seed, "goodput_bps": goodput,
            "flow_goodputs_bps": [f["goodput_bps"] for f in result.flows] if many else [],
            "retrans": flow["retransmits_fast"] + flow["retransmits_timeout"],
            "rtos": flow["timeouts"], "rtt_mean_s": flow["rtt_mean_s"],
            "cwnd_mean_segs": flow["cwnd_mean_segments"], "cwnd_peak_segs": flow["cwnd_max_segments"],
            **queues.lossy_columns(doc, setup.links, result)}


def run_setup(setup: SetUp, runs: List[Tuple[str, float, int]]) -> List[Dict[str, Any]]:
    """Every (cc, p, seed) of `runs`; a ScenarioError (a congestion control or queue this
    lossy does not have yet) propagates with its one-line message."""
    return [run_point(setup, cc, p, seed) for cc, p, seed in runs]
