"""The Appendix of Miyoshi et al. (Eqs. A·1–A·8), the fixed-code curves behind the
adaptive thresholds, and the thresholds themselves.

Packets of l bits are sent; a code correcting c errors loses a packet with more than c
bit errors, bits in error independently at ratio p_b:

    p_err = 1 − (1 − p_b)^l                                   (A·1, no FEC)
    P_loss = p_err·P_send,  P_rcv = P_send − P_loss           (A·2, A·3)
    p_err(l, c) = 1 − Σ_{i=0..c} C(l, i) p_b^i (1 − p_b)^(l−i)    (A·4)
    H = (l − d)/l                                             (A·5 as the tables use it)
    P_loss = p_err·P_send, P_head = H·P_send                  (A·6, A·7)
    P_rcv = P_send − P_loss − P_head                          (A·8)

Eq. A·5 is printed H = d/l, but Tables 3 and 4 take H = (l − d)/l, the parity share
(their overhead column is H times the received packets): `overhead_fraction` says which.
Eq. A·7–A·8 charge the overhead on every packet sent; the tables charge it on the
received ones only (overhead = H·received): `counts` gives both.

The TCP runs code a frame in whole BCH codewords instead (`coding/frame.rs` in the core): a
frame of f bits takes ⌈f/k⌉ codewords of n bits and is lost when any codeword holds more
than t errors (`codeword_loss`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from scipy import stats


@dataclass(frozen=True)
class Code:
    """A binary (n, k) block code correcting t errors, BCH unless `bch` is False (the
    packet stream takes any block code; a link only BCH codes); n = k = 0 is no FEC."""

    label: str
    n: int = 0
    k: int = 0
    t: int = 0
    bch: bool = True

    @property
    def coded(self) -> bool:
        return self.n > 0

    def scenario(self) -> Dict[str, object]:
        """The code as a scenario's `coding` table (a stream's `codes` entry)."""
        if not self.coded:
            return {"code": "none"}
        if self.bch:
            return {"code": "bch", "n": self.n, "k": self.k}
        return {"code": "block", "n": self.n, "k": self.k, "t": self.t}


NONE = Code("no FEC")
# §4: BCH(127,92) corrects 5 bits, (127,64) 10, (127,36) 15.
BCH92 = Code("BCH(127,92)", 127, 92, 5)
BCH64 = Code("BCH(127,64)", 127, 64, 10)
BCH36 = Code("BCH(127,36)", 127, 36, 15)
LADDER = (NONE, BCH92, BCH64, BCH36)
# Tables 3–4 name their first code "FEC(127,94)" and charge it 33/127 of every received
# packet (12,983 of 49,965 and 8,860 of 34,097), where BCH(127,92) would be 35/127; its
# lost packets fit t = 4 (Table 4: 15,903 lost; t = 5 would lose about 12,800). No BCH
# code of length 127 has k = 94, so the stream runs it as a (127,94) block code
# correcting 4 errors per packet. The text's BCH(127,92) stays the TCP runs' code.
FEC94 = Code("FEC(127,94)", 127, 94, 4, bch=False)
TABLES_LADDER = (NONE, FEC94, BCH64, BCH36)


def _check_ber(p_b: float) -> None:
    if not 0 <= p_b <= 1 or math.isnan(p_b):
        raise ValueError(f"p_b: {p_b} is not a bit error ratio; use 0 to 1")


def packet_error(p_b: float, l: int, c: int = 0) -> float:
    """Eq. A·4 (A·1 with c = 0): P(more than c of l bits in error)."""
    _check_ber(p_b)
    return float(stats.binom.sf(c, l, p_b))


def overhead_fraction(code: Code, printed: bool = False) -> float:
    """Eq. A·5: H = (n − k)/n as the tables use it; `printed`: H = k/n as printed."""
    if not code.coded:
        return 0.0
    return code.k / code.n if printed else (code.n - code.k) / code.n


@dataclass(frozen=True)
class Counts:
    """One row of Tables 3–4: packets lost, received, overhead and available."""

    lost: float
    received: float
    overhead: float
    available: float


def counts(p_b: float, code: Code, sent: int = 50_000, l: int = 800, charge: str = "received") -> Counts:
    """Eqs. A·2–A·8 for `sent` packets of `l` bits: the overhead charged on the received
    packets (`charge="received"`, as the tables) or on every packet sent (A·7 as
    printed, `charge="sent"`)."""
    if charge not in ("received", "sent"):
        raise ValueError(f"charge: {charge!r} is not allowed; use 'received' or 'sent'")
    p = packet_error(p_b, l, code.t)
    lost = p * sent
    received = sent - lost
    overhead = overhead_fraction(code) * (received if charge == "received" else sent)
    return Counts(lost, received, overhead, received - overhead)


def available_fraction(p_b: float, code: Code, l: int = 800) -> float:
    """Available packets per packet sent, the tables' way: (1 − p_err)(1 − H)."""
    return (1 - packet_error(p_b, l, code.t)) * (1 - overhead_fraction(code))


def codeword_loss(p_b: float, code: Code, frame_bits: int) -> float:
    """The core's reading: a frame of `frame_bits` data bits in ⌈f/k⌉ codewords of n bits
    is lost when any codeword holds more than t errors (uncoded: any error in f bits)."""
    if not code.coded:
        return packet_error(p_b, frame_bits)
    codewords = math.ceil(frame_bits / code.k)
    return 1 - (1 - packet_error(p_b, code.n, code.t)) ** codewords


def codeword_efficiency(p_b: float, code: Code, frame_bits: int) -> float:
    """Frames delivered per unit of air time, relative to uncoded error-free frames:
    (1 − loss)·f/(⌈f/k⌉·n) — the share of the link a fixed code leaves for data."""
    air = frame_bits if not code.coded else math.ceil(frame_bits / code.k) * code.n
    return (1 - codeword_loss(p_b, code, frame_bits)) * frame_bits / air


Curve = Callable[[float], float]


def crossing(f: Curve, g: Curve, lo: float = 1e-7, hi: float = 0.5) -> Optional[float]:
    """The smallest BER in [lo, hi] where g overtakes f (f − g changes sign from + to −),
    found on a log grid and refined by bisection in log p_b; None if it never does."""
    grid = [lo * (hi / lo) ** (i / 400) for i in range(401)]
    d = [f(x) - g(x) for x in grid]
    for i in range(400):
        if d[i] > 0 >= d[i + 1]:
            a, b = math.log(grid[i]), math.log(grid[i + 1])
            for _ in range(60):
                m = (a + b) / 2
                a, b = (m, b) if f(math.exp(m)) - g(math.exp(m)) > 0 else (a, m)
            return math.exp((a + b) / 2)
    return None


@dataclass(frozen=True)
class Step:
    """The step between code i and i + 1: the BER where the stronger code overtakes the
    weaker, and the thresholds on p_err read there, each in the code in use."""

    weaker: Code
    stronger: Code
    ber: float
    up: float  # p_err of the weaker code at `ber`: above it, step up
    down: float  # p_err of the stronger code at `ber`: below it, step down


def thresholds(ladder: Sequence[Code], throughput: Callable[[float, Code], float],
               loss: Callable[[float, Code], float]) -> List[Step]:
    """Miyoshi's thresholds A–D read from the crossings of the fixed-code curves: for each
    neighbouring pair, the BER b where the stronger code's `throughput` overtakes the
    weaker's; up = the weaker code's packet error rate `loss` at b (measured while it is
    in use, p_err above it means the channel is past b), down = the stronger code's at b."""
    steps = []
    for weak, strong in zip(ladder, ladder[1:]):
        b = crossing(lambda x: throughput(x, weak), lambda x: throughput(x, strong))
        if b is None:
            raise ValueError(f"{strong.label} never overtakes {weak.label}: no threshold between them")
        steps.append(Step(weak, strong, b, loss(b, weak), loss(b, strong)))
    return steps


def stream_thresholds(ladder: Sequence[Code] = TABLES_LADDER, l: int = 800) -> List[Step]:
    """The thresholds for the packet stream of §5 from the Appendix model: packets of l
    bits, whole-packet correction (A·4), available = (1 − p_err)(1 − H)."""
    return thresholds(ladder, lambda b, c: available_fraction(b, c, l), lambda b, c: packet_error(b, l, c.t))


def frame_thresholds(frame_bits: int, ladder: Sequence[Code] = LADDER) -> List[Step]:
    """The thresholds for TCP frames of `frame_bits` coded in whole codewords (the core's
    reading): the share of the link each fixed code leaves for data."""
    return thresholds(ladder, lambda b, c: codeword_efficiency(b, c, frame_bits),
                      lambda b, c: codeword_loss(b, c, frame_bits))


def read_at(crossings: Sequence[float], ladder: Sequence[Code], loss: Callable[[float, Code], float]) -> List[Step]:
    """Thresholds read at given crossing BERs (one per neighbouring pair of `ladder`), as
    `thresholds` reads them at the model's: up = the weaker code's `loss` there, down =
    the stronger's."""
    if len(crossings) != len(ladder) - 1:
        raise ValueError(f"crossings: {len(crossings)} for {len(ladder)} codes; give one per step")
    return [Step(w, s, b, loss(b, w), loss(b, s)) for w, s, b in zip(ladder, ladder[1:], crossings)]


def simulated_crossing(bers: Sequence[float], weaker: Sequence[float], stronger: Sequence[float]) -> Optional[float]:
    """Where a simulated fixed-code curve overtakes another: both mean curves through
    their points (linear in log BER, `interpolated`), the first BER in the grid's range
    where `stronger` passes `weaker`."""
    lo, hi = min(bers), max(bers)
    return crossing(interpolated(bers, weaker), interpolated(bers, stronger), lo, hi)


def control(steps: Sequence[Step], window: int = 10) -> Dict[str, object]:
    """The thresholds as a scenario's `adaptive_fec` / `control` table."""
    return {"window": window, "up": [s.up for s in steps], "down": [s.down for s in steps]}


def interpolated(xs: Sequence[float], ys: Sequence[float]) -> Curve:
    """A curve through measured points, linear in log x (a simulated fixed-code curve)."""
    pts: List[Tuple[float, float]] = sorted(zip(xs, ys))

    def f(x: float) -> float:
        if x <= pts[0][0]:
            return pts[0][1]
        for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
            if x <= x1:
                w = (math.log(x) - math.log(x0)) / (math.log(x1) - math.log(x0))
                return y0 + w * (y1 - y0)
        return pts[-1][1]
    return f


__all__ = ["BCH36", "BCH64", "BCH92", "Code", "Counts", "FEC94", "LADDER", "NONE", "TABLES_LADDER", "Step", "available_fraction",
           "codeword_efficiency", "codeword_loss", "control", "counts", "crossing", "frame_thresholds",
           "interpolated", "overhead_fraction", "packet_error", "read_at", "simulated_crossing", "stream_thresholds",
           "thresholds"]
