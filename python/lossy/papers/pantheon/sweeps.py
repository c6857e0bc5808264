"""pantheon-emulators' sweeps: every emulator of emulators.py × every congestion control,
with one flow (`one-flow`) and with three flows started 10 s apart (`three-flows`),
Pantheon's 5 runs of 30 s each (experiments.yml, 'emu': `--run-times 5 -t 30`, `-f 1`,
`-f 3 --interval 10`).

The path is emulator_path.toml: one link A -> B whose forward direction carries the data
over the emulator's uplink trace, queue, loss and delay, and whose reverse carries the
ACKs over its downlink trace. Each emulator is one variant of the `emulator` axis
(emulators.settings); each control one of `cc`. The flows are the file's one flow, or
three copies of it started at 0, 10 and 20 s (set as the whole `flows` list).

Metrics are Pantheon's two axes (src/analysis/tunnel_graph.py): the data link's delivered
throughput over the run, headers included, all flows together (Pantheon's "total"
egress rate), and the 95th-percentile one-way delay of every flow's data packets pooled
(its `total_percentile_delay`, np.percentile over all flows' delays together: the run
summary's `owd_pooled_p95_ms`); each flow's own p95 is kept beside it.

Every control is paced as Pantheon's Linux paced it (`tcp.pacing = "linux"`): its hosts
ran the fq qdisc, which enforces the pacing rate Linux sets for every TCP socket
(net/ipv4/tcp_input.c `tcp_update_pacing_rate`; Pantheon's src/wrappers/bbr.py checks
for fq); BBR's own rate stands (docs/papers/pantheon-emulators.md).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Dict, List

from ...scenario import tomllib  # tomllib, or tomli before Python 3.11
from ..model import SweepPlan
from .emulators import EMULATORS, FLOW_INTERVAL_SECONDS, RUN_SECONDS, RUNS, settings

SCENARIO = str(Path(__file__).with_name("emulator_path.toml"))  # package data, found from any directory

THROUGHPUT = "throughput"  # the data direction's delivered bit rate, all flows, headers included
DATA_DROPS, ACK_DROPS = "data_queue_drops", "ack_queue_drops"  # the reading of one queue limit per link
GOODPUT = "goodput"  # flow 0's goodput
DELAY = "owd_p95"  # the report's delay axis: the p95 one-way delay of all flows' packets pooled


def _flows(n: int, interval_s: float) -> List[Dict[str, Any]]:
    """The file's flow, n times, the i-th started at i × interval."""
    with open(SCENARIO, "rb") as f:
        flow = tomllib.load(f)["flows"][0]
    out = []
    for i in range(n):
        f_i = copy.deepcopy(flow)
        if i:
            f_i["start"] = f"{i * interval_s:g} s"
        out.append(f_i)
    return out


def metrics(n: int) -> Dict[str, str]:
    out = {THROUGHPUT: "links.0.throughput_bps", DATA_DROPS: "links.0.queue_drops",
           ACK_DROPS: "links.1.queue_drops", GOODPUT: "flows.0.goodput_bps", DELAY: "owd_pooled_p95_ms"}
    for i in range(n):
        out[f"owd_p95_{i}"] = f"flows.{i}.owd_p95_ms"
        out[f"goodput_{i}"] = f"flows.{i}.goodput_bps"
    return out


# The controls, Linux's pairing: each with SACK recovery and Linux's pacing; "cubic-codel"
# is CUBIC with the emulator's queue run as CoDel (RFC 8289's defaults, the same limit)
# instead of DropTail.
CC_NAMES: Dict[str, str] = {"reno": "reno", "cubic": "cubic", "bbr": "bbr", "bbr3": "bbr3", "vegas": "vegas",
                            "westwood": "westwood", "cubic-codel": "cubic"}


def ccs(n: int) -> Dict[str, Dict[str, Any]]:
    """Each control as the fields it sets on every one of the n flows."""
    out: Dict[str, Dict[str, Any]] = {}
    for name, cc in CC_NAMES.items():
        fields: Dict[str, Any] = {f"flows.{i}.tcp.cc": cc for i in range(n)}
        fields.update({f"flows.{i}.tcp.pacing": "linux" for i in range(n)})
        if name == "cubic-codel":
            fields["links.0.queue.kind"] = "codel"
        out[name] = fields
    return out


EMULATOR_VARIANTS: Dict[str, Dict[str, Any]] = {e.key: settings(e) for e in EMULATORS}

# The quick run: four emulators of different kinds (a calibrated path with loss, a
# policer, ACK aggregation, a BDP/10 buffer), two runs of 10 s, the flows 3 s apart.
QUICK_EMULATORS = ["01", "07", "13", "15"]
QUICK_REPLICATIONS, QUICK_DURATION, QUICK_INTERVAL = 2, "10 s", 3


def plan(key: str, title: str, n: int) -> SweepPlan:
    return SweepPlan(key, title, {
        "name": f"pantheon-emulators-{key}",
        "scenario": SCENARIO,
        "replications": RUNS,
        "seed": 1,
        "duration": f"{RUN_SECONDS} s",
        "set": {"flows": _flows(n, FLOW_INTERVAL_SECONDS)},
        "variants": {"emulator": EMULATOR_VARIANTS, "cc": ccs(n)},
        "metrics": metrics(n),
        "quick": {"replications": QUICK_REPLICATIONS, "duration": QUICK_DURATION,
                  "set": {"flows": _flows(n, QUICK_INTERVAL)},
                  "variants": {"emulator": {k: EMULATOR_VARIANTS[k] for k in QUICK_EMULATORS}}},
    })


ONE_FLOW = plan("one-flow", "Every emulator and control, one flow", 1)
THREE_FLOWS = plan("three-flows", "Every emulator and control, three flows started 10 s apart", 3)
SWEEPS = [ONE_FLOW, THREE_FLOWS]

__all__ = ["ACK_DROPS", "CC_NAMES", "DATA_DROPS", "DELAY", "EMULATOR_VARIANTS", "GOODPUT", "ONE_FLOW", "SCENARIO",
           "SWEEPS", "THREE_FLOWS", "THROUGHPUT", "ccs", "metrics"]
