"""cellular-bufferbloat's claims on the claims protocol (lossy.papers.model.Claim): loss-
based TCP over a deep cellular buffer builds seconds of delay (Jiang et al., IMC 2012),
PIE holds the average queueing delay to its target (RFC 8033), and CoDel and PIE cut the
delay at little goodput cost (RFC 8289, RFC 8033, issue 30's words). Each band is read
from the source's words before any run; each part is one trace; judge.py decides."""

from __future__ import annotations

from typing import Any, List, Tuple

from ..bands import Band
from ..context import Context
from ..estimate import jackknife, mean_of, ratio_of
from ..judge import Measurement, Part
from ..model import Claim, Examples, Probe
from . import examples as ex
from .sweeps import (AQM, FLOOR_TRACES, GOODPUT, PIE_TARGET_S, PROBE_CONSTANT, PROBE_FLOOR, PROBE_STEADY, RTT_P95,
                     SOJOURN_MEAN, TRACES, floor_mss, trace_name)


def _per_trace(ctx: Context, sweep: str) -> List[Tuple[str, Any]]:
    """(trace name, its rows) for every trace the sweep ran, in TRACES' order."""
    rows = ctx[sweep]
    names = rows["trace"].map(trace_name)
    return [(t, rows[names == t]) for t in TRACES if (names == t).any()]


def _missing(ctx: Context, sweep: str) -> List[str]:
    ran = set(ctx[sweep]["trace"].map(trace_name))
    return [t for t in TRACES if t not in ran]


# --- (1) seconds of delay over a deep buffer --------------------------------------------

SEVERAL_SECONDS = Band.between(1.0, 10.0, "\"up to several seconds of round trip delay\": more than one second "
                                          "(\"seconds\") and fewer than ten (\"several\", not tens)", unit=" s")


def cubic_rtt(ctx: Context, sweep: str = AQM.key) -> Measurement:
    parts = [Part(t, jackknife(g, lambda df: mean_of(RTT_P95, queue="droptail", cc="cubic")(df) / 1000.0))
             for t, g in _per_trace(ctx, sweep)]
    return Measurement(parts, _missing(ctx, sweep))


SLOW_SPELLS = Probe(
    "the buffer holds 2 s at the trace's MEAN rate, and a trace whose rate stays far below its mean for long "
    "spells (Verizon-EVDO-driving's outages) drains the full buffer in many times 2 s: the queue, not CUBIC, "
    "goes past \"several\" seconds",
    "the downlink at a constant rate equal to the trace's mean (same buffer, same uplink trace)",
    [PROBE_CONSTANT.key], lambda ctx: cubic_rtt(ctx, PROBE_CONSTANT.key), share=1.0)


SECONDS = Claim(
    "cubic-seconds-of-delay",
    "Over a deep DropTail buffer at the base station, loss-based TCP (CUBIC) fills it: its 95th-percentile RTT "
    "is several seconds on every cellular trace",
    source="H. Jiang, Y. Wang, K. Lee, I. Rhee, \"Tackling bufferbloat in 3G/4G networks\", IMC 2012, Figure 1 "
           "(its caption) and the Abstract",
    words="Bufferbloat has been widely observed in the current Internet but is especially severe in cellular "
          "networks, resulting in up to several seconds of round trip delay (Fig. 1); Cellular networks keep large "
          "buffers at base stations to smooth out the bursty data traffic over the time-varying channels and are "
          "hence apt to bufferbloat (Abstract)",
    quantity="CUBIC's mean p95 RTT (s) over the DropTail buffer of 2 s at the trace's mean rate, per trace",
    band=SEVERAL_SECONDS,
    measure=cubic_rtt, sweeps=[AQM.key], reads={"cc": ["cubic"], "queue": ["droptail"]}, probe=SLOW_SPELLS,
    examples=Examples(null=ex.aqm(dt_rtt_s=0.15), faithful=ex.aqm(dt_rtt_s=2.6), exaggerated=ex.aqm(dt_rtt_s=25.0)),
    why_here="the buffer holds 2 s at each trace's mean rate, a buffer of seconds, which is what the paper calls "
             "bufferbloat; a loss-based control that fills it before each loss sees its queue on top of the 60 ms "
             "base RTT, more when the trace's rate falls below its mean; a control that does not fill it (BBRv1, "
             "run beside it) stays in the hundreds of milliseconds. The exaggeration is tens of seconds (\"several\" "
             "names no number to double)")


# --- (2) PIE holds the average queueing delay to its target ------------------------------

PIE_TARGET_MS = PIE_TARGET_S * 1000  # QDELAY_REF, RFC 8033 §5 (its defaults), lossy's `pie` target (pie_config.rs)
PIE_TARGET = Band.stated(PIE_TARGET_MS, "\"control the average queuing latency to a target value\": RFC 8033's "
                                        "15 ms target", unit=" ms")


def pie_sojourn(ctx: Context, sweep: str = AQM.key) -> Measurement:
    parts = [Part(t, jackknife(g, mean_of(SOJOURN_MEAN, queue="pie", cc="cubic")))
             for t, g in _per_trace(ctx, sweep)]
    return Measurement(parts, _missing(ctx, sweep))


def pie_sojourn_floor(ctx: Context) -> Measurement:
    """The claim's quantity with PIE's floor inside its target: the traces of `probe-floor`
    from it, the others (whose 1448-byte segments already fit, so the step changes nothing
    there) from `probe-steady`."""
    floor = pie_sojourn(ctx, PROBE_FLOOR.key).parts
    steady = [p for p in pie_sojourn(ctx, PROBE_STEADY.key).parts if p.label not in FLOOR_TRACES]
    parts = sorted([*floor, *steady], key=lambda p: TRACES.index(p.label))
    ran = {p.label for p in parts}
    return Measurement(parts, [t for t in TRACES if t not in ran])


PACKET_FLOOR = Probe(
    "PIE drops nothing early while at most 2 packets wait (RFC 8033 §4.1, Appendix A drop_early: "
    "byte_length <= 2 * MEAN_PKTSIZE; Linux sch_pie.c pie_drop_early: backlog < 2 MTU), so it cannot hold the queue below 2 "
    "packets' transmission; at Verizon-EVDO-driving's 0.52 Mbit/s a 1500-byte packet takes 23 ms, the floor 46 ms, "
    "three times the target. Not "
    "the packet's own transmission: lossy's sojourn ends when the packet's transmission begins "
    "(net/queue_delay.rs), as PIE's timestamp measure does",
    "segments whose packets take half the target at the trace's mean rate, so 2 take 15 ms: "
    + ", ".join(f"{t} {floor_mss(t)} B" for t in FLOOR_TRACES)
    + " (the other traces' 1448 B already fit: their runs are the step before's)",
    [PROBE_FLOOR.key, PROBE_STEADY.key], pie_sojourn_floor, share=0.5)

PAUSED_ACKS = Probe(
    "the uplink traces (the ACKs' way) stop for up to seconds (ATT-LTE-driving's about 1 s at a time in the first "
    "minute, TMobile-UMTS-driving's up to 5.8 s): the ACKs wait and then arrive together, and CUBIC answers each "
    "bunch with a window of data at the sender's 100 Mbit/s, a burst that lands in PIE's queue at once; PIE "
    "judges the delay only after it has queued (RFC 8033 §4.2 updates every 15 ms from the departing packets)",
    "the uplink at a constant rate too, the .up trace's mean",
    [PROBE_STEADY.key], lambda ctx: pie_sojourn(ctx, PROBE_STEADY.key), share=0.5, then=PACKET_FLOOR)

CONSTANT = Probe(
    "a trace's capacity swings and stops (the driving traces have outages of seconds): a packet queued "
    "before an outage waits it out whatever PIE drops, and PIE's probability, set for the rate before, lags each "
    "swing; this makes most (the explanation: at least half) of the gap, and two causes on top of it the rest",
    "the downlink at a constant rate equal to the trace's mean (same buffer, same uplink trace)",
    [PROBE_CONSTANT.key], lambda ctx: pie_sojourn(ctx, PROBE_CONSTANT.key), share=0.5, then=PAUSED_ACKS)

PIE_CLAIM = Claim(
    "pie-average-latency",
    "PIE holds CUBIC's average queueing delay at the cellular base station to its 15 ms target",
    source="RFC 8033 (PIE), Abstract; the target: §5 (QDELAY_REF = 15 ms)",
    words="PIE ... can effectively control the average queuing latency to a target value",
    quantity="the mean sojourn (ms) at the base station's downlink queue under PIE with CUBIC, per trace",
    band=PIE_TARGET,
    measure=pie_sojourn, sweeps=[AQM.key], reads={"cc": ["cubic"], "queue": ["pie"]}, probe=CONSTANT,
    examples=Examples(null=ex.aqm(pie_sojourn_ms=2080.0), faithful=ex.aqm(pie_sojourn_ms=15.0),
                      exaggerated=ex.aqm(pie_sojourn_ms=30.0)),
    why_here="CUBIC over the same 2-second buffer keeps it full under DropTail, so PIE has a standing queue "
             "to control; the traces are the real cellular capacities the RFC's \"various congestion "
             "situations\" do not include, so the probe removes their variation")


# --- (3) AQM cuts the delay at little goodput cost ----------------------------------------

SIMILAR = Band.word("similar")
CUTS = Band.above(2.0, "\"controls bufferbloat-generated excess delay\" gives no magnitude: direction only, read as "
                       "at least halving the p95 RTT")


def aqm_cost(ctx: Context, sweep: str = AQM.key) -> Measurement:
    parts: List[Part] = []
    for t, g in _per_trace(ctx, sweep):
        for q in ("codel", "pie"):
            parts.append(Part(f"{t}, {q}: goodput {q} ÷ DropTail",
                              jackknife(g, ratio_of(mean_of(GOODPUT, queue=q, cc="cubic"),
                                                    mean_of(GOODPUT, queue="droptail", cc="cubic"))), SIMILAR))
            parts.append(Part(f"{t}, {q}: p95 RTT DropTail ÷ {q}",
                              jackknife(g, ratio_of(mean_of(RTT_P95, queue="droptail", cc="cubic"),
                                                    mean_of(RTT_P95, queue=q, cc="cubic"))), CUTS))
    return Measurement(parts, _missing(ctx, sweep))


STEADY_ACKS = Probe(
    "the rest is on the traces whose uplink (the ACKs' way) stops for seconds (ATT-LTE-driving, "
    "TMobile-UMTS-driving; gaps of up to 78 s and 5.8 s in the files, about 1 s and 5.8 s in the runs' first "
    "minute): with the queue kept short, a pause in the ACKs leaves the downlink idle once the few queued packets "
    "are sent, where DropTail's standing queue of seconds keeps it busy through the pause",
    "the uplink at a constant rate too, the .up trace's mean",
    [PROBE_STEADY.key], lambda ctx: aqm_cost(ctx, PROBE_STEADY.key), share=1.0)

STEADY = Probe(
    "a trace's rate jumps and falls within a second; DropTail's full buffer meets a jump with packets ready to "
    "send, while an AQM that has cut the queue to its target leaves the new capacity idle until CUBIC's window "
    "grows into it, and each of its drops cuts CUBIC's window to 0.7 of itself again (the AQMs keep no reserve for a rate "
    "they cannot see coming); this makes most (the explanation: at least half) of the gap",
    "the downlink at a constant rate equal to the trace's mean (same buffer, same uplink trace)",
    [PROBE_CONSTANT.key], lambda ctx: aqm_cost(ctx, PROBE_CONSTANT.key), share=0.5, then=STEADY_ACKS)


AQM_COST = Claim(
    "aqm-little-goodput-cost",
    "CoDel and PIE cut CUBIC's delay over the deep cellular buffer at little goodput cost: goodput similar to "
    "DropTail's, p95 RTT cut",
    source="RFC 8289 (CoDel), Abstract; RFC 8033 (PIE), Abstract; issue 30 (\"AQM cuts the delay at little "
           "goodput cost\")",
    words="CoDel ... controls bufferbloat-generated excess delay (RFC 8289); PIE can ensure low latency and "
          "achieve high link utilization under various congestion situations (RFC 8033)",
    quantity="with CUBIC, per trace and AQM: the AQM's mean goodput ÷ DropTail's, and DropTail's mean p95 RTT ÷ "
             "the AQM's, paired by replication",
    band=SIMILAR,
    measure=aqm_cost, sweeps=[AQM.key], reads={"cc": ["cubic"]}, probe=STEADY,
    examples=Examples(null=ex.aqm(aqm_cut=1.0), faithful=ex.aqm()),
    why_here="DropTail's buffer of 2 s gives the AQMs a standing queue to remove; the goodput part asks whether "
             "the AQMs' drops leave the link idle when a trace's rate jumps (a queue that DropTail keeps absorbs "
             "the jump)")


CLAIMS = [SECONDS, PIE_CLAIM, AQM_COST]

__all__ = ["CLAIMS", "PIE_TARGET_MS"]
