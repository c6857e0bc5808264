"""The set-ups lossy and ns-3 run side by side: ns-3's own validation paths (BBR on
tcp-bbr-example.cc's dumbbell, CUBIC on tcp-validation.cc's CoDel bottleneck) and the
ns3-compare lossy path across loss rates. Each names the arguments of our ns-3 program
(anchors/ns3/cc.cc) and the lossy scenario with the same path and TCP settings;
docs/guide/anchors.md says why each attribute is set."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Tuple

from ..shipped import scenarios_dir

HERE = Path(__file__).resolve().parent

# ns-3's TypeId (cc.cc's --cc) -> lossy's `tcp.cc`. Loss recovery beside it is SACK's
# (RFC 6675) on both sides: ns-3 with SACK on and TcpClassicRecovery, lossy's variant "sack".
CCS: Dict[str, str] = {"NewReno": "reno", "Cubic": "cubic", "Bbr": "bbr", "Vegas": "vegas",
                       "WestwoodPlus": "westwood"}


@dataclass(frozen=True)
class SetUp:
    name: str
    title: str
    links: str  # cc.cc's --links: "RATE,DELAY,QUEUE;..." sender first
    mss: int
    delack: int  # segments per ACK (ns-3's DelAckCount)
    buffer: int  # socket buffers, bytes (lossy's max_window)
    sim_s: float
    ccs: Tuple[str, ...]  # ns-3 TypeIds, keys of CCS
    loss: Tuple[float, ...]  # data loss p on the last link
    seeds: Tuple[int, ...]
    scenario: Path  # lossy's scenario with the same path and TCP settings
    # Both sides record the cwnd trace and compare its numbers (trace_summary.py): ns-3's
    # validation set-ups, where the issue asks for the traces.
    traced: bool = False
    # Bulk flows from the first node to the last (cc.cc --flows), flow i starting at
    # i × start_gap seconds: the multi-flow set-up's, which gives FQ-CoDel (RFC 8290 §4)
    # a flow queue per flow. fairness.py compares their goodputs.
    flows: int = 1
    start_gap: float = 0.0

    def ns3_args(self, cc: str, p: object, seed: object) -> List[str]:
        """cc.cc's arguments for one run (p and seed may be placeholders, for the docs)."""
        loss = f"{p:g}" if isinstance(p, float) else str(p)
        return [f"--cc={cc}", f"--links={self.links}", f"--p={loss}", f"--seed={seed}",
                f"--sim-time={self.sim_s:g}", f"--mss={self.mss}", f"--delack={self.delack}",
                f"--buffer={self.buffer}"] + ([f"--flows={self.flows}", f"--start-gap={self.start_gap:g}"]
                                               if self.flows > 1 else [])

    def lossy_overrides(self, cc: str, p: float) -> Dict[str, object]:
        """The scenario's settings for one point: the congestion control, SACK recovery,
        the loss rate on the last link and the duration."""
        loss = {"model": "bernoulli", "p": p} if p > 0 else {"model": "none"}
        tcp = {k: v for f in range(self.flows)
               for k, v in ((f"flows.{f}.tcp.variant", "sack"), (f"flows.{f}.tcp.cc", CCS[cc]))}
        return {**tcp, f"links.{self.links.count(';')}.loss": loss, "duration": f"{self.sim_s:g} s"}


ALL_CCS = tuple(CCS)

SETUPS: Dict[str, SetUp] = {s.name: s for s in [
    # ns-3's examples/tcp/tcp-bbr-example.cc: 1 Gb/s 5 ms, a 10 Mb/s 10 ms bottleneck,
    # 1 Gb/s 5 ms (40 ms base RTT), 100 packets of FIFO at the bottleneck, MSS 1448, an
    # ACK per 2 segments, IW 10, 4 MiB buffers, 100 s. BBR's ProbeRTT every 10 s with a
    # window of 4 segments shows in the cwnd trace; the other CCs on the same FIFO path.
    SetUp("bbr-dumbbell", "tcp-bbr-example.cc's dumbbell: 10 Mb/s, 40 ms base RTT, FIFO 100 packets",
          "1Gbps,5ms,100p;10Mbps,10ms,100p;1Gbps,5ms,100p", mss=1448, delack=2, buffer=4 << 20,
          sim_s=100.0, ccs=ALL_CCS, loss=(0.0,), seeds=(1, 2, 3, 4, 5),
          scenario=HERE / "scenarios" / "bbr-dumbbell.toml", traced=True),
    # ns-3's examples/tcp/tcp-validation.cc, case cubic-50ms-no-ecn: 1 Gb/s 1 µs, a
    # 50 Mb/s bottleneck of 50 ms base RTT under CoDel (target 5 ms, interval 100 ms),
    # 1 Gb/s 1 µs, MSS 1448, IW 10, 32,768,000 B buffers; 30 s.
    SetUp("cubic-codel", "tcp-validation.cc's CUBIC case: 50 Mb/s, 50 ms base RTT, CoDel",
          "1Gbps,1us,100p;50Mbps,25ms,codel;1Gbps,1us,100p", mss=1448, delack=2, buffer=32768000,
          sim_s=30.0, ccs=("Cubic", "NewReno"), loss=(0.0,), seeds=(1, 2, 3),
          scenario=HERE / "scenarios" / "cubic-codel.toml", traced=True),
    # The AQM bottleneck (issue 29): 10 Mb/s, 50 ms base RTT, where one bulk flow keeps a
    # standing queue; the same path and TCP as cubic-codel under each queue, 60 s, 5 seeds:
    # a 1000-packet drop-tail FIFO, CoDel, FQ-CoDel and PIE with lossy's defaults (cc.cc's
    # AqmDefaults sets ns-3's to the same). compare.py's queue table sets their queueing
    # delay and drops beside ns-3's. cc.cc runs one flow, so FQ-CoDel has one flow queue.
    *[SetUp(f"aqm-{name}", f"AQM bottleneck: 10 Mb/s, 50 ms base RTT, {title}",
            f"1Gbps,1us,100p;10Mbps,25ms,{queue};1Gbps,1us,100p", mss=1448, delack=2, buffer=32768000,
            sim_s=60.0, ccs=("Cubic", "NewReno"), loss=(0.0,), seeds=(1, 2, 3, 4, 5),
            scenario=HERE / "scenarios" / f"aqm-{name}.toml")
      for name, title, queue in (("droptail", "drop-tail FIFO 1000 packets", "1000p"), ("codel", "CoDel", "codel"),
                                 ("fq-codel", "FQ-CoDel", "fq_codel"), ("pie", "PIE", "pie"))],
    # FQ-CoDel with several flows (RFC 8290 §4: a flow queue each, served by DRR): the
    # AQM bottleneck with 4 bulk flows of one CC starting 2 s apart (0, 2, 4, 6 s), 60 s,
    # 5 seeds; each flow's goodput over its own life and Jain's index (fairness.py).
    SetUp("fq-codel-4flows", "AQM bottleneck: 10 Mb/s, 50 ms base RTT, FQ-CoDel, 4 flows starting 2 s apart",
          "1Gbps,1us,100p;10Mbps,25ms,fq_codel;1Gbps,1us,100p", mss=1448, delack=2, buffer=32768000,
          sim_s=60.0, ccs=("Cubic", "NewReno"), loss=(0.0,), seeds=(1, 2, 3, 4, 5),
          scenario=HERE / "scenarios" / "fq-codel-4flows.toml", flows=4, start_gap=2.0),
    # The ns3-compare path (bulk.cc's), every CC across loss rates, 10 seeds, 100 s.
    SetUp("lossy-path", "ns3-compare's path: 10 Mb/s 10 ms, then 2 Mb/s 5 ms with loss p",
          "10Mbps,10ms,100p;2Mbps,5ms,100p", mss=1000, delack=1, buffer=16 << 20,
          sim_s=100.0, ccs=ALL_CCS, loss=(0.0, 1e-4, 1e-3, 1e-2, 5e-2), seeds=tuple(range(1, 11)),
          scenario=scenarios_dir() / "ns3-compare.toml"),
]}


def points(setup: SetUp, quick: bool = False) -> List[Tuple[str, float, int]]:
    """(cc, p, seed) of every run; quick keeps the first three seeds."""
    seeds = setup.seeds[:3] if quick else setup.seeds
    return [(cc, p, seed) for cc in setup.ccs for p in setup.loss for seed in seeds]
