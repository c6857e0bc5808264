"""The sweeps behind Figs. 3–6 and the studies beyond the paper. Figs. 3–4: segment loss
0.1 % to 30 % (the paper's 0.1–25 % and one step beyond), both end-to-end delays,
FECTCP against Tahoe, Reno, NewReno and SACK, 10 runs per point of a 10 MB file
("several MB to tens of MB", §IV A); `--quick` 2 MB, 2 runs, six loss rates. Figs. 5–6:
one FECTCP transfer joined by a TCP flow or a 20 kB/s CBR flow, with the throughput
trace; 5 runs (`--quick` 2 of the same length, so that a claim measures the same
windows in both)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from ..model import SweepPlan
from .setup import CODES, DELAY, DELAYS, LOSS, PACKET_BYTES, SCENARIO, SCHEMES, fectcp, scenario_tcp

LOSSES = [0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]
LOSSES_QUICK = [0.001, 0.01, 0.02, 0.05, 0.1, 0.25]
FILE = "10 MB"
NEYMAN_ERRORS_PER_CLUSTER = 10  # m2: not given in the paper (see NOTES)
PACKET_CLUSTER_ERRORS = 2.0  # the packet-level contrast: 2 lost packets per cluster ...
PACKET_CLUSTER_SPAN = 4  # ... over spans of 4 packets
METRICS = {"goodput": "flows.0.goodput_bps", "completion": "flows.0.completion_time_s",
           "timeouts": "flows.0.timeouts", "reductions": "flows.0.window_reductions"}
# Bernoulli sets `p`, Neyman Type A its `packet_loss` for 1500-byte packets.
MODELS = {
    "independent": ({"model": "bernoulli", "p": 0.0}, "p"),
    "Neyman Type A": ({"model": "neyman", "unit": "bit", "errors_per_cluster": NEYMAN_ERRORS_PER_CLUSTER,
                       "packet_loss": 0.0, "packet_bytes": PACKET_BYTES}, "packet_loss"),
    # Beyond the paper's Fig. 1 regime: clusters counted in packets, so a loss is often
    # followed by another (P(d = 1) ≈ 0.45 whatever p: losses.py).
    "Neyman Type A over packets": ({"model": "neyman", "unit": "packet", "errors_per_cluster": PACKET_CLUSTER_ERRORS,
                                    "span": PACKET_CLUSTER_SPAN, "packet_loss": 0.0}, "packet_loss"),
}
DELAY_VARIANTS = {name: {DELAY: hop} for name, hop in DELAYS.items()}


def _loss_plan(key: str, title: str, model: str, schemes: Dict[str, Any], delays: Dict[str, Any],
               losses: Sequence[float] = LOSSES) -> SweepPlan:
    table, field = MODELS[model]
    return SweepPlan(key, title, {
        "name": f"botos-{key}", "scenario": SCENARIO, "replications": 10, "seed": 1,
        "set": {LOSS: table, "flows.0.app.size": FILE}, "metrics": METRICS,
        "grid": {"loss": {"path": f"{LOSS}.{field}", "values": list(losses)}},
        "variants": {"delay": delays, "scheme": schemes},
        "quick": {"replications": 2, "set": {"flows.0.app.size": "2 MB"},
                  "grid": {"loss": {"path": f"{LOSS}.{field}", "values": LOSSES_QUICK}}},
    })


def _fig5(key: str = "fig5", title: str = "Fig. 5: a TCP flow joins a FECTCP flow on the same link",
          fectcp_options: Optional[Dict[str, Any]] = None) -> SweepPlan:
    """FECTCP from 0 s, a Reno transfer joining at 60 s, 1 % independent loss, 20 ms."""
    fec = {} if fectcp_options is None else {"flows.0.fectcp": fectcp_options}
    return SweepPlan(key, title, {
        "name": f"botos-{key}", "scenario": SCENARIO, "replications": 5, "seed": 1, "duration": "300 s",
        "set": {LOSS: {"model": "bernoulli", "p": 0.01}, "flows.0.app.size": "50 MB", **fec,
                "flow_groups": [{"name": "tcp", "count": 1, "from": "server", "to": "client", "start": "60 s",
                                 "app": {"kind": "file", "size": "50 MB"}, "tcp": scenario_tcp()}]},
        "traces": ["throughput"], "metrics": {"fectcp_symbols": "flows.0.fectcp_symbols_received",
                                              "tcp_goodput": "flows.1.goodput_bps"},
        "quick": {"replications": 2},  # the full run's length: the claims' windows are the same
    })


def _fig6() -> SweepPlan:
    """FECTCP from 0 s, 20 kB/s of CBR from 60 s to 180 s, 1 % independent loss, 20 ms."""
    return SweepPlan("fig6", "Fig. 6: a 20 kB/s UDP CBR flow beside a FECTCP flow", {
        "name": "botos-fig6", "scenario": SCENARIO, "replications": 5, "seed": 1, "duration": "240 s",
        "set": {LOSS: {"model": "bernoulli", "p": 0.01}, "flows.0.app.size": "50 MB",
                "flow_groups": [{"name": "udp", "count": 1, "from": "server", "to": "client", "start": "60 s",
                                 "app": {"kind": "cbr", "rate": "160 kbps", "packet_size": "1000 B",
                                         "packets": 2400}}]},
        "traces": ["throughput"], "metrics": {"fectcp_symbols": "flows.0.fectcp_symbols_received",
                                              "udp_goodput": "flows.1.goodput_bps"},
        "quick": {"replications": 2},
    })


# Beyond the paper: a 10 Mbit/s wired bottleneck (router -> AP) shared by FECTCP and four
# TCP SACK flows with windows large enough to congest it; the last hop clean and fast.
BOTTLENECK_QUEUES = {
    "DropTail": {"links.1.queue": "100 packets"},
    "RED": {"links.1.queue": {"kind": "red", "limit": "100 packets", "min_th": 10, "max_th": 30}},
}
CONGESTED_SECONDS = 120
TCP_FLOWS = 4


def _congested() -> SweepPlan:
    tcp = {**scenario_tcp(), "variant": "sack", "max_window": "1 MB"}
    return SweepPlan("congested", "Beyond: FECTCP and four TCP SACK flows on a congested 10 Mbit/s bottleneck", {
        "name": "botos-congested", "scenario": SCENARIO, "replications": 5, "seed": 1,
        "duration": f"{CONGESTED_SECONDS} s",
        "set": {"links.1.rate": "10 Mbps", "links.2.rate": "100 Mbps", LOSS: {"model": "none"},
                "flows.0.app.size": "1 GB",
                "flow_groups": [{"name": "tcp", "count": TCP_FLOWS, "from": "server", "to": "client",
                                 "start": {"every": "1 s"}, "app": {"kind": "bulk"}, "tcp": tcp}]},
        "variants": {"queue": BOTTLENECK_QUEUES},
        "metrics": {"fectcp_symbols": "flows.0.fectcp_symbols_received", "tcp_mean": "groups.tcp.goodput_mean_bps",
                    "fectcp_reductions": "flows.0.window_reductions", "drops": "drops_queue"},
        "quick": {"replications": 2},  # the full run's length, so quick measures the same ratio
    })


# Beyond the paper: the readings the paper leaves open (docs/mechanisms/fectcp.md), one
# changed at a time, at 100 ms where they matter most.
READINGS: Dict[str, Dict[str, Any]] = {
    "defaults (σ = std, mean of all RTTs, halve)": {},
    "mean RTT of the last cwnd samples": {"rtt_average": "window"},
    "σ = the variance, literally": {"sigma": "variance"},
    "decrease to 0.7 cwnd": {"decrease": 0.7},
}


def _readings() -> SweepPlan:
    variants = {name: fectcp(overhead=0.05, **options) for name, options in READINGS.items()}
    return SweepPlan("readings", "Beyond: FECTCP under the readings the paper leaves open, 100 ms", {
        "name": "botos-readings", "scenario": SCENARIO, "replications": 10, "seed": 1,
        "set": {LOSS: MODELS["independent"][0], DELAY: DELAYS["100 ms"], "flows.0.app.size": FILE},
        "metrics": METRICS,
        "grid": {"loss": {"path": f"{LOSS}.p", "values": [0.001, 0.01, 0.05, 0.1, 0.25]}},
        "variants": {"reading": variants},
        "quick": {"replications": 2, "set": {"flows.0.app.size": "2 MB"},
                  "grid": {"loss": {"path": f"{LOSS}.p", "values": [0.001, 0.05, 0.25]}}},
    })


# Probes (model.Probe): the claims' sweeps with one reading swapped. FECTCP's reduction on
# an expired timer has no size in the paper (§II D: "reduce the sending data rate"); ours
# is TCP's halving, and the probe takes the gentler 0.7 of the readings sweep above.
PROBE_DECREASE = 0.7
PROBE_LOSSES = [p for p in LOSSES if p <= 0.25]  # the paper's range: what the claims measure
PROBE_DELAY_SWEEPS = {"independent": "probe-decrease-independent", "neyman": "probe-decrease-neyman"}


def probes() -> List[SweepPlan]:
    gentle = {"FECTCP": fectcp(overhead=0.05, decrease=PROBE_DECREASE)}
    return [
        *(_loss_plan(key, f"Probe: FECTCP reducing to {PROBE_DECREASE} cwnd, {model} losses, 20 and 100 ms", model,
                     gentle, DELAY_VARIANTS, PROBE_LOSSES)
          for model, key in (("independent", PROBE_DELAY_SWEEPS["independent"]),
                             ("Neyman Type A", PROBE_DELAY_SWEEPS["neyman"]))),
        _fig5("fig5-decrease", f"Probe: Fig. 5 with FECTCP reducing to {PROBE_DECREASE} cwnd",
              {"overhead": 0.05, "decrease": PROBE_DECREASE}),
    ]


def sweeps() -> List[SweepPlan]:
    return [
        _loss_plan("independent", "Figs. 3 and 4: throughput against independent segment loss, 20 and 100 ms",
                   "independent", SCHEMES, DELAY_VARIANTS),
        _loss_plan("neyman", "Figs. 3 and 4 with Neyman Type A clustered losses", "Neyman Type A", SCHEMES,
                   DELAY_VARIANTS),
        _loss_plan("neyman-packets", "Beyond: Figs. 3 and 4 with Neyman Type A clusters spread over packets",
                   "Neyman Type A over packets", SCHEMES, DELAY_VARIANTS),
        _loss_plan("codes", "Beyond: FECTCP with the paper's 5 % against RaptorQ's and LT's measured overheads, 20 ms",
                   "independent", {**CODES, "Reno": SCHEMES["Reno"]}, {"20 ms": DELAY_VARIANTS["20 ms"]}),
        _fig5(),
        _fig6(),
        _congested(),
        _readings(),
        *probes(),
    ]
