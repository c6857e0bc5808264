"""Pantheon's 18 emulators as a table of parameters, one row per 'emu' job of
StanfordSNR/observatory @ 84f9454890d25cc7d480eb8272c9e375bccaa8b5,
src/scripts/experiments.yml (the line of each job's `- scenario:` is kept in `line`;
tests/python/test_pantheon_emulators.py re-parses the file from the trace mirror and
holds this table to it).

Each job runs Pantheon's `test.py local` (src/experiments/test.py, setup_mm_cmd) as
    <prepend-mm-cmds> mm-link <uplink trace> <downlink trace> <extra-mm-link-args>
with the sender inside the shells: with Pantheon's tunnel (every run here) the data
goes on mm-link's uplink and the ACKs on its downlink. So, on the data's way out:
mm-link's uplink queue and trace, then `mm-loss uplink p`, then `mm-delay d`; the
ACKs meet mm-delay, no loss, then the downlink trace and its queue. `mm-delay d` is a
fixed one-way delay in each direction (RTT 2d plus the traces' service).

A queue mm-link is not told about is Mahimahi's default, infinite (the ACK direction
of every job but 7-12, and both directions of 13 and 14).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional

# Pantheon's run: `--run-times 5 -t 30` (the 'emu' macros), `-f 1` and
# `-f 3 --interval 10` (the 'emu' matrix): 5 runs of 30 s, 1 flow or 3 started 10 s apart.
RUNS = 5
RUN_SECONDS = 30
FLOW_MODES = {"1 flow": 1, "3 flows": 3}
FLOW_INTERVAL_SECONDS = 10
SOURCE = ("StanfordSNR/observatory @ 84f9454890d25cc7d480eb8272c9e375bccaa8b5, src/scripts/experiments.yml, "
          "section 'emu'")


@dataclass(frozen=True)
class Emulator:
    """One 'emu' job. `uplink_queue`/`downlink_queue`: mm-link's droptail argument as
    written ("packets=14", "bytes=9000"), None for Mahimahi's infinite queue."""

    scenario: int
    line: int  # the line of `- scenario: N` in experiments.yml
    desc: str
    uplink_trace: str  # the data direction
    downlink_trace: str  # the ACK direction
    delay_ms: int  # mm-delay, each direction
    uplink_loss: float  # mm-loss uplink (0: none in the job)
    uplink_queue: Optional[str]
    downlink_queue: Optional[str]

    @property
    def key(self) -> str:
        return f"{self.scenario:02d}"


def _e(scenario: int, line: int, desc: str, up: str, down: str, delay: int, loss: float,
       upq: Optional[str], downq: Optional[str] = None) -> Emulator:
    return Emulator(scenario, line, desc, up, down, delay, loss, upq, downq)


EMULATORS: List[Emulator] = [
    _e(1, 76, "Calibrated to the real path from Nepal to AWS India", "0.57mbps-poisson.trace",
       "0.57mbps-poisson.trace", 28, 0.0477, "packets=14"),
    _e(2, 88, "Calibrated to the real path from Mexico cellular to AWS California", "2.64mbps-poisson.trace",
       "2.64mbps-poisson.trace", 88, 0.0, "packets=130"),
    _e(3, 100, "Calibrated to the real path from AWS Brazil to Colombia cellular", "3.04mbps-poisson.trace",
       "3.04mbps-poisson.trace", 130, 0.0, "packets=426"),
    _e(4, 112, "Calibrated to the real path from India to AWS India", "100.42mbps.trace", "100.42mbps.trace",
       27, 0.0, "packets=173"),
    _e(5, 124, "Calibrated to the real path from AWS Korea to China", "77.72mbps.trace", "77.72mbps.trace",
       51, 0.0006, "packets=94"),
    _e(6, 136, "Calibrated to the real path from AWS California to Mexico", "114.68mbps.trace",
       "114.68mbps.trace", 45, 0.0, "packets=450"),
    _e(7, 148, "Token-bucket based policer (bandwidth 12mbps, RTT 20ms)", "12mbps.trace", "12mbps.trace", 10, 0.0,
       "packets=1", "packets=1"),
    _e(8, 158, "Token-bucket based policer (bandwidth 60mbps, RTT 20ms)", "60mbps.trace", "60mbps.trace", 10, 0.0,
       "packets=1", "packets=1"),
    _e(9, 168, "Token-bucket based policer (bandwidth 108mbps, RTT 20ms)", "108mbps.trace", "108mbps.trace", 10,
       0.0, "packets=1", "packets=1"),
    _e(10, 178, "Token-bucket based policer (bandwidth 12mbps, RTT 100ms)", "12mbps.trace", "12mbps.trace", 50,
       0.0, "packets=1", "packets=1"),
    _e(11, 188, "Token-bucket based policer (bandwidth 60mbps, RTT 100ms)", "60mbps.trace", "60mbps.trace", 50,
       0.0, "packets=1", "packets=1"),
    _e(12, 198, "Token-bucket based policer (bandwidth 108mbps, RTT 100ms)", "108mbps.trace", "108mbps.trace", 50,
       0.0, "packets=1", "packets=1"),
    _e(13, 208, "Severe ACK aggregation (1 ACK every 100ms)", "12mbps.trace", "0.12mbps.trace", 10, 0.0, None),
    _e(14, 217, "Severe ACK aggregation (10 ACKs every 200ms)", "12mbps.trace", "10-every-200.trace", 10, 0.0,
       None),
    _e(15, 226, "Bottleneck buffer = BDP/10", "12mbps.trace", "12mbps.trace", 30, 0.0, "bytes=9000"),
    _e(16, 236, "Bottleneck buffer = BDP/3", "12mbps.trace", "12mbps.trace", 30, 0.0, "bytes=30000"),
    _e(17, 246, "Bottleneck buffer = BDP/2", "12mbps.trace", "12mbps.trace", 30, 0.0, "bytes=45000"),
    _e(18, 256, "Bottleneck buffer = BDP", "12mbps.trace", "12mbps.trace", 30, 0.0, "bytes=90000"),
]

# Mahimahi's infinite queue, as a limit no run here reaches: three flows' 16 MiB windows
# are at most 3 × 16 MiB / 1500 B ≈ 33,600 packets.
UNBOUNDED = "100000 packets"


def queue_limit(arg: Optional[str]) -> str:
    """mm-link's droptail argument as a lossy queue limit: packets=N -> "N packets",
    bytes=N -> "N B" (both count what waits, not the packet being sent: mm-link's
    packet in transit is out of its queue, link_queue.cc); None (infinite) -> UNBOUNDED."""
    if arg is None:
        return UNBOUNDED
    unit, _, n = arg.partition("=")
    if unit == "packets":
        return f"{int(n)} packets"
    if unit == "bytes":
        return f"{int(n)} B"
    raise ValueError(f"mm-link queue argument {arg!r}: expected packets=N or bytes=N")


def settings(e: Emulator) -> Dict[str, object]:
    """The scenario fields one emulator sets on emulator_path.toml's one link (A -> B the
    data, B -> A the ACKs). lossy's link has one queue limit for both directions: the
    data direction's (see the docs page for why that is harmless to the ACKs)."""
    loss: Dict[str, object] = {"model": "bernoulli", "p": e.uplink_loss} if e.uplink_loss else {"model": "none"}
    return {
        "links.0.capacity": {"trace": f"pantheon:{e.uplink_trace}"},
        "links.0.reverse_capacity": {"trace": f"pantheon:{e.downlink_trace}"},
        "links.0.delay": f"{e.delay_ms} ms",
        "links.0.loss": loss,
        "links.0.queue.limit": queue_limit(e.uplink_queue),
    }


def by_key() -> Dict[str, Emulator]:
    return {e.key: e for e in EMULATORS}


__all__ = ["EMULATORS", "Emulator", "FLOW_INTERVAL_SECONDS", "FLOW_MODES", "RUNS", "RUN_SECONDS", "SOURCE",
           "UNBOUNDED", "by_key", "queue_limit", "settings"]
