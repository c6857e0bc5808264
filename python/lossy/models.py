"""Analytic models of steady-state TCP throughput, for validating simulated goodput;
and `neyman_for_packet_loss`, the Neyman Type A loss table that loses a given share of
packets.

All rates are in bytes per second of payload. `p` is the loss probability per packet,
`rtt_s` the round-trip time, `t0_s` the retransmission timeout, `wmax_packets` the
largest window (receiver window or socket buffer) and `b` the packets acknowledged per
ACK (1 with an ACK per segment, 2 with delayed ACKs). Formulas as in shared/REFERENCES.md
"Throughput models"; see pftk_full for where that text and the paper part ways.
"""

from __future__ import annotations

import math
from typing import Any, Dict, Optional


def mathis(mss_bytes: float, rtt_s: float, p: float, b: float = 1) -> float:
    """Mathis et al. 1997: (MSS/RTT)·C/√p with C = √(3/(2b)) (√(3/2) with an ACK per
    segment, √(3/4) with delayed ACKs). Ignores timeouts and window limits, so it holds
    for light to moderate loss only; infinite at p = 0."""
    _check(mss_bytes, rtt_s, p, b=b)
    if p == 0:
        return math.inf
    return (mss_bytes / rtt_s) * math.sqrt(3 / (2 * b)) / math.sqrt(p)


def pftk_approx(
    mss_bytes: float, rtt_s: float, p: float, t0_s: float, wmax_packets: float = math.inf, b: float = 1
) -> float:
    """Padhye et al. 1998, approximate model:
    MSS·min(Wmax/RTT, 1/[RTT·√(2bp/3) + T0·min(1, 3√(3bp/8))·p·(1 + 32p²)])."""
    _check(mss_bytes, rtt_s, p, t0_s, wmax_packets, b)
    cap = wmax_packets / rtt_s
    if p == 0:
        return mss_bytes * cap
    denom = rtt_s * math.sqrt(2 * b * p / 3) + t0_s * min(1.0, 3 * math.sqrt(3 * b * p / 8)) * p * (1 + 32 * p**2)
    return mss_bytes * min(cap, 1 / denom)


def pftk_full(
    mss_bytes: float, rtt_s: float, p: float, t0_s: float, wmax_packets: float = math.inf, b: float = 1
) -> float:
    """Padhye et al. 1998, full model (their eq. 31), for any b:

        W(p) = (2+b)/(3b) + √(8(1−p)/(3bp) + ((2+b)/(3b))²)      expected unconstrained window
        if W(p) < Wmax:
            rate = MSS·[(1−p)/p + W + Q(p,W)/(1−p)] / (RTT·(b/2·W + 1) + Q(p,W)·G(p)·T0/(1−p))
        else:
            rate = MSS·[(1−p)/p + Wmax + Q(p,Wmax)/(1−p)]
                   / (RTT·(b/8·Wmax + (1−p)/(p·Wmax) + 2) + Q(p,Wmax)·G(p)·T0/(1−p))

    With b = 2 this is REFERENCES.md's text term by term (its w(p) = (2/3)(1 + √(3(1−p)/p
    + 1)) and RTT·[Wmax/4 + ...]). One difference, on purpose: Q is the paper's
    (1 − (1−p)³)·(1 + (1−p)³·(1 − (1−p)^(w−3))) / (1 − (1−p)^w), see timeout_probability.
    At p = 0 the rate is the window limit MSS·Wmax/RTT.
    """
    _check(mss_bytes, rtt_s, p, t0_s, wmax_packets, b)
    if p == 0:
        return mss_bytes * wmax_packets / rtt_s
    q1 = (1 - p) / p
    w = expected_window(p, b)
    if w < wmax_packets:
        q = timeout_probability(p, w)
        rounds = rtt_s * (b / 2 * w + 1)
    else:
        w = wmax_packets
        q = timeout_probability(p, w)
        rounds = rtt_s * (b / 8 * w + q1 / w + 2)
    packets = q1 + w + q / (1 - p)
    return mss_bytes * packets / (rounds + q * backoff_factor(p) * t0_s / (1 - p))


def expected_window(p: float, b: float = 1) -> float:
    """PFTK's E[W], the mean window at a loss indication without a window limit."""
    a = (2 + b) / (3 * b)
    return a + math.sqrt(8 * (1 - p) / (3 * b * p) + a * a)


def timeout_probability(p: float, w: float) -> float:
    """PFTK's Q̂(p, w): the chance that a loss indication in a window of w is a timeout.

    (1 − (1−p)³)·(1 + (1−p)³·(1 − (1−p)^(w−3))) / (1 − (1−p)^w), at most 1. REFERENCES.md
    prints the middle as "(1 + (1−p)³)(1 − (1−p)^(w−3))", a product of three factors; that
    reading tends to 0 as p → 0, while the paper's tends to 3/w, the min(1, 3/w) behind
    the approximate model's min(1, 3√(3bp/8)) term. We follow the paper.
    """
    s3 = (1 - p) ** 3
    q = float((1 - s3) * (1 + s3 * (1 - (1 - p) ** (w - 3))) / (1 - (1 - p) ** w))
    return min(1.0, q)


def backoff_factor(p: float) -> float:
    """PFTK's G(p) = 1 + p + 2p² + 4p³ + 8p⁴ + 16p⁵ + 32p⁶ (exponential RTO backoff)."""
    return 1 + p + 2 * p**2 + 4 * p**3 + 8 * p**4 + 16 * p**5 + 32 * p**6


def neyman_for_packet_loss(p: float, packet_bytes: int, errors_per_cluster: float,
                           span: Optional[int] = None, unit: str = "bit") -> Dict[str, Any]:
    """The Neyman Type A loss table (`model = "neyman"`, Botoș §II C) that loses a share
    `p` of back-to-back packets of `packet_bytes` bytes, with `errors_per_cluster` errors
    per cluster on average spread over `span` units (default ⌈2·errors_per_cluster⌉):
    its `clusters_per_unit` solved exactly by the core, λ = −ln(1 − p)/A(L) (see the
    mechanism page). With unit = "packet" a packet is one unit whatever its size.
    A scenario may also give `packet_loss` and `packet_bytes` in the table itself; this
    writes the rate out, e.g. for a table shared by packets of several sizes.

        >>> neyman_for_packet_loss(0.05, 1500, 3)
        {'clusters_per_unit': 4.497...e-06, 'errors_per_cluster': 3.0, 'model': 'neyman', 'span': 6.0, 'unit': 'bit'}

    ValueError `loss.<field>: <what is wrong>` for bad input (`loss.packet_loss` for p)."""
    from .loss import closed_form

    table: Dict[str, Any] = {"model": "neyman", "unit": unit, "errors_per_cluster": errors_per_cluster,
                             "packet_loss": p}
    if unit == "bit":
        table["packet_bytes"] = packet_bytes
    if span is not None:
        table["span"] = span
    resolved: Dict[str, Any] = closed_form(table, packet_bytes)["loss"]
    return resolved


def _check(
    mss_bytes: float, rtt_s: float, p: float, t0_s: float = 0.0, wmax_packets: float = math.inf, b: float = 1
) -> None:
    if not mss_bytes > 0:
        raise ValueError(f"mss_bytes must be > 0, not {mss_bytes}")
    if not rtt_s > 0:
        raise ValueError(f"rtt_s must be > 0, not {rtt_s}")
    if not 0 <= p < 1:
        raise ValueError(f"p must be in [0, 1), not {p}")
    if not t0_s >= 0:
        raise ValueError(f"t0_s must be >= 0, not {t0_s}")
    if not wmax_packets > 0:
        raise ValueError(f"wmax_packets must be > 0, not {wmax_packets}")
    if not b >= 1:
        raise ValueError(f"b must be >= 1, not {b}")
