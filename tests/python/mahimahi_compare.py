"""Scripted arrivals through lossy's trace capacity and through the mm-link reference.

Arrivals are CBR flows over one link A->B whose forward capacity is a Mahimahi trace
(`capacity = { kind = "mahimahi", file = ... }`, docs DESIGN30). A CBR source sends datagram
k of a flow at start + k * interval, interval = ceil(payload * 8e9 / rate) ns
(transport/udp.rs CbrSource and time.rs serialization_delay), and the packet reaches the
link's queue in the same event. Each delivered packet's one-way delay is in the `owd`
trace at its arrival at B; departure from the link = arrival - the link's delay.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import lossy
import pytest

from mahimahi_reference import (
    DROPPED, NS_PER_MS, TUN_PI_BYTES, MahimahiLink, contents_size, departure_times,
)

UDP_IP_HEADER = 28  # apps/cbr.rs: the default `header`, UDP 8 + IPv4 20
LINK_DELAY_MS = 5
# The reverse direction carries nothing here; it needs a rate all the same.
REVERSE_RATE = "10 Mbps"


@dataclass(frozen=True)
class Cbr:
    """One CBR flow: `ip_bytes` per datagram, one every `interval_ns`, `packets` of them."""

    ip_bytes: int
    start_ns: int
    interval_ns: int
    packets: int

    @property
    def payload(self) -> int:
        return self.ip_bytes - UDP_IP_HEADER

    @property
    def rate_bps(self) -> int:
        # The smallest integer rate whose interval, ceil(payload * 8e9 / rate), is
        # interval_ns: rate = ceil(payload * 8e9 / interval_ns) gives <= interval_ns,
        # and equality is checked.
        rate = -(-self.payload * 8 * 10**9 // self.interval_ns)
        assert -(-self.payload * 8 * 10**9 // rate) == self.interval_ns, self
        return rate

    def send_times(self) -> list[int]:
        return [self.start_ns + k * self.interval_ns for k in range(self.packets)]

    def table(self) -> dict:
        return {
            "from": "A", "to": "B", "start": f"{self.start_ns} ns",
            "app": {"kind": "cbr", "rate": f"{self.rate_bps} bps",
                    "packet_size": f"{self.payload} B", "packets": self.packets},
        }


def cbr_at_rate(ip_bytes: int, start_ns: int, rate_bps: float, until_ns: int) -> Cbr:
    """A flow of payload rate about `rate_bps` from start_ns until until_ns, its
    interval exact for an integer rate."""
    payload = ip_bytes - UDP_IP_HEADER
    rate = max(1, round(rate_bps))
    interval = -(-payload * 8 * 10**9 // rate)
    # Exactly representable: the rate that gives this interval.
    packets = max(1, (until_ns - start_ns) // interval)
    return Cbr(ip_bytes, start_ns, interval, packets)


def arrivals_of(flows: list[Cbr]) -> list[tuple[int, int, int, int]]:
    """(time ns, flow, k, ip bytes) of every datagram, in time order; two flows never
    send at the same nanosecond (the order of a tie is lossy's event order, not a rule
    of mm-link's, so scripts avoid ties)."""
    out = [(t, f, k, flow.ip_bytes) for f, flow in enumerate(flows)
           for k, t in enumerate(flow.send_times())]
    out.sort()
    for a, b in zip(out, out[1:]):
        assert a[0] != b[0], f"flows {a[1]} and {b[1]} both send at {a[0]} ns"
    return out


@dataclass(frozen=True)
class Reading:
    """How a link reads mm-link's rules. MM_LINK is mm-link's own (link_queue.cc); the
    others are readings lossy has been seen to take (issue 30's validation findings F1,
    F2), so a test can say exactly which rule a difference comes from."""

    # Bytes of an opportunity an IP packet uses beyond its own: TUN_PI_BYTES in mm-link.
    overhead: int = TUN_PI_BYTES
    # mm-link plays the opportunities at the arrival's millisecond before DropTail judges
    # the arrival (read_packet: rationalize, then enqueue). True: judged before them.
    queue_check_before_same_ms: bool = False
    name: str = "mm-link"


MM_LINK = Reading()
# F1: the 4 bytes of struct tun_pi left out.
F1 = Reading(overhead=0, name="F1: IP bytes against each 1504-byte opportunity (mm-link: IP + 4, the TUN frame's tun_pi)")
# Judging an arrival exactly on an opportunity's millisecond before that opportunity
# serves the queue (one way to get F2 wrong; lossy's F2 is not always this way round).
CHECK_BEFORE_SAME_MS = Reading(overhead=0, queue_check_before_same_ms=True,
                               name="F1, queue judged before same-ms opportunities")


def off_the_millisecond(flows: list[Cbr]) -> list[Cbr]:
    """The same flows with every flow that sends exactly on whole milliseconds moved a
    few ns later (still within the millisecond: the same ms for mm-link's clock), so that
    no arrival coincides with an opportunity."""
    moved = list(flows)
    for i, f in enumerate(flows):
        if f.start_ns % NS_PER_MS == 0 and f.interval_ns % NS_PER_MS == 0:
            for shift in range(1, 100):
                moved[i] = Cbr(f.ip_bytes, f.start_ns + shift, f.interval_ns, f.packets)
                try:
                    arrivals_of(moved)
                    break
                except AssertionError:
                    continue
    return moved


def reference_fates(schedule: list[int], flows: list[Cbr], *, once: bool = False,
                    packet_limit: int = 0, reading: Reading = MM_LINK
                    ) -> dict[tuple[int, int], int | str | None]:
    """(flow, k) -> departure in ms, DROPPED, or None (never departs), by the reference."""
    arr = arrivals_of(flows)
    if reading == MM_LINK:
        fates = departure_times(schedule, [(t, contents_size(size)) for t, _, _, size in arr],
                                once=once, packet_limit=packet_limit)
        return {(f, k): fate for (_, f, k, _), fate in zip(arr, fates)}
    link = MahimahiLink(schedule, once=once, packet_limit=packet_limit)
    out: dict[tuple[int, int], int | str | None] = {}
    for i, (t, f, k, size) in enumerate(arr):
        now = t // NS_PER_MS
        size += reading.overhead
        if reading.queue_check_before_same_ms and t % NS_PER_MS == 0:
            link.rationalize(now - 1)
            accepted = link.fits(size)
            link.rationalize(now)
        else:
            link.rationalize(now)
            accepted = link.fits(size)
        if accepted:
            link.enqueue(i, size, now)
        out[(f, k)] = None if accepted else DROPPED
    link.drain()
    for i, (_, f, k, _) in enumerate(arr):
        if out[(f, k)] is None and i in link.departures:
            out[(f, k)] = link.departures[i]
    return out


def scenario(trace: Path, flows: list[Cbr], duration_ns: int, *, queue: str,
             once: bool = False) -> dict:
    return {
        "name": "mahimahi-compare",
        "duration": f"{duration_ns} ns",
        "nodes": ["A", "B"],
        "links": [{
            "between": ["A", "B"], "delay": f"{LINK_DELAY_MS} ms", "queue": queue,
            "rate": REVERSE_RATE,
            "capacity": {"kind": "mahimahi", "file": str(trace), "once": once},
        }],
        "flows": [f.table() for f in flows],
        "traces": {"owd": True},
    }


def lossy_departures(result, flows: list[Cbr]) -> dict[tuple[int, int], int]:
    """(flow, k) -> departure ns, from the owd trace: send = arrival - owd, departure =
    arrival - the link's delay."""
    owd = result.traces["owd"]
    out: dict[tuple[int, int], int] = {}
    for t_s, f, d_ms in zip(owd["time_s"], owd["flow"], owd["delay_ms"]):
        arrival = round(float(t_s) * 1e9)
        sent = arrival - round(float(d_ms) * 1e6)
        flow = flows[int(f)]
        k, rem = divmod(sent - flow.start_ns, flow.interval_ns)
        assert rem == 0 and 0 <= k < flow.packets, (f, sent, flow)
        assert (int(f), k) not in out, f"flow {f} datagram {k} delivered twice"
        out[(int(f), k)] = arrival - LINK_DELAY_MS * NS_PER_MS
    return out


@dataclass
class Comparison:
    reading: Reading
    compared: int
    matches: int
    drops: int
    first_difference: str | None


@dataclass
class Run:
    """One lossy run compared with the reference under each reading asked for."""

    comparisons: list[Comparison]
    # lossy's departures, (flow, k) -> ns, and its result.
    departures: dict
    result: object

    @property
    def exact(self) -> Comparison:
        return self.comparisons[0]

    def explained_by(self) -> Comparison | None:
        """The first reading after mm-link's own under which every packet matches."""
        return next((c for c in self.comparisons[1:] if c.first_difference is None), None)


def compare(trace: Path, schedule: list[int], flows: list[Cbr], *, queue_packets: int | None = None,
            once: bool = False, end_ms: int | None = None,
            readings: tuple[Reading, ...] = (MM_LINK,)) -> Run:
    """Run lossy once and compare every packet's fate with the reference under each
    reading (the first should be MM_LINK).

    The run lasts until the references' last departure + the link delay (or `end_ms`),
    + 0.5 ms: every packet a reference delivers by then must arrive in lossy at the same
    nanosecond, every other one not at all."""
    refs = [reference_fates(schedule, flows, once=once, packet_limit=queue_packets or 0,
                            reading=r) for r in readings]
    if end_ms is None:
        end_ms = max(v for ref in refs for v in ref.values() if isinstance(v, int)) + LINK_DELAY_MS
    duration_ns = end_ms * NS_PER_MS + NS_PER_MS // 2
    queue = f"{queue_packets} packets" if queue_packets else "10000000 packets"
    result = lossy.run(scenario(trace, flows, duration_ns, queue=queue, once=once))
    got = lossy_departures(result, flows)
    return Run([_compare_fates(r, ref, got, flows, duration_ns) for r, ref in zip(readings, refs)],
               got, result)


def _compare_fates(reading: Reading, ref: dict, got: dict, flows: list[Cbr], duration_ns: int) -> Comparison:
    def sent(key):
        return flows[key[0]].start_ns + key[1] * flows[key[0]].interval_ns

    matches, first = 0, None
    for key in sorted(ref, key=sent):
        want = ref[key]
        # Delivered by the run's end in the reference: departs, then the link delay.
        want_ns = (want * NS_PER_MS if isinstance(want, int)
                   and (want + LINK_DELAY_MS) * NS_PER_MS <= duration_ns else None)
        have = got.get(key)
        if have == want_ns:
            matches += 1
        elif first is None:
            f, k = key
            first = (f"flow {f} datagram {k} ({flows[f].ip_bytes} B IP, sent {sent(key)} ns): "
                     f"reference departs {'(dropped)' if want == DROPPED else want} ms"
                     f"{'' if want_ns is not None or want == DROPPED else ' (after the run)'}, "
                     f"lossy {f'departs {have / NS_PER_MS:g} ms ({have} ns)' if have is not None else 'delivers nothing'}")
    return Comparison(reading, len(ref), matches, sum(v == DROPPED for v in ref.values()), first)


def divisor_of_8000_at_least(ms: float) -> int:
    """The smallest divisor of 8000 that is >= ms (a whole-ms CBR interval whose rate in
    bit/s is an integer for any payload: payload * 8000 / d)."""
    for d in range(1, 8001):
        if 8000 % d == 0 and d >= ms:
            return d
    return 8000


def _opportunity_ms_after(schedule: list[int], t: int) -> int:
    """The first opportunity time later than t ms (the trace wrapping)."""
    period = schedule[-1]
    for k in range(t // period + 2):
        for s in schedule:
            if s + k * period > t:
                return s + k * period
    raise AssertionError("unreachable: a trace's period is positive")


def mixed_arrivals(schedule: list[int], window_ms: int | None = None) -> list[Cbr]:
    """A mix that queues, idles, and shares bytes. Relative to the trace's mean capacity
    C (contents bytes per ms): a 1500-byte flow at 2C for the window's first third (the
    queue builds, then drains), and beside it all window long 200-byte datagrams on whole
    milliseconds, the first exactly on an opportunity; 1000-byte ones 1 ns before whole
    milliseconds, the first 1 ns before an opportunity; 577-byte ones at an odd interval
    (together about 0.3 C: the link idles and wastes opportunities)."""
    c_bytes_per_ms = len(schedule) * 1504 / schedule[-1]
    if window_ms is None:
        # 2.5 s, or less on fast traces: about 10,000 datagrams at most.
        window_ms = min(2500, max(500, round(10_000 / (c_bytes_per_ms / 1504))))
    until = window_ms * NS_PER_MS
    on_ms = _opportunity_ms_after(schedule, 0)
    before_ms = _opportunity_ms_after(schedule, on_ms)
    small_ms = divisor_of_8000_at_least(contents_size(200) / (0.08 * c_bytes_per_ms))
    mid_ms = divisor_of_8000_at_least(max(2, contents_size(1000) / (0.1 * c_bytes_per_ms)))
    on_start, before_start = on_ms * NS_PER_MS, before_ms * NS_PER_MS - 1
    flows = [
        cbr_at_rate(1500, 500_001, 2 * c_bytes_per_ms * 8000 * 1472 / 1504, until // 3),
        Cbr(200, on_start, small_ms * NS_PER_MS, max(1, (until - on_start) // (small_ms * NS_PER_MS))),
        Cbr(1000, before_start, mid_ms * NS_PER_MS, max(1, (until - before_start) // (mid_ms * NS_PER_MS))),
        cbr_at_rate(577, 370_003, 0.12 * c_bytes_per_ms * 8000, until),
    ]
    # The 1500- and 577-byte flows' intervals are odd: should one land on another flow's
    # instant, move its start by a few ns.
    for _ in range(50):
        try:
            arrivals_of(flows)
            break
        except AssertionError:
            flows[0] = Cbr(1500, flows[0].start_ns + 2, flows[0].interval_ns, flows[0].packets)
            flows[3] = Cbr(577, flows[3].start_ns + 3, flows[3].interval_ns, flows[3].packets)
    else:
        raise AssertionError("no tie-free arrivals")
    # Then a quiet stretch: once the reference has sent everything, three opportunities
    # pass idle before one last 100-byte datagram, 0.3 ms after the third.
    fates = reference_fates(schedule, flows)
    t = max(v for v in fates.values() if isinstance(v, int))
    for _ in range(3):
        t = _opportunity_ms_after(schedule, t)
    flows.append(Cbr(100, t * NS_PER_MS + 300_000, NS_PER_MS, 1))
    return flows


def exercised(schedule: list[int], flows: list[Cbr], packet_limit: int = 0) -> dict[str, int]:
    """What the arrivals make the reference's link do: how many opportunities it left idle
    (after time 0), shared between packets, how many packets spanned opportunities, the
    longest queue, and arrivals exactly on / 1 ns before an opportunity's millisecond."""
    period = schedule[-1]
    first_of_residue: dict[int, int] = {}
    for s in schedule:
        first_of_residue.setdefault(s % period, s)

    def is_opportunity(ms: int) -> bool:  # some line s with ms = s + k * period, k >= 0
        return ms >= first_of_residue.get(ms % period, ms + 1)

    link = MahimahiLink(schedule, packet_limit=packet_limit)
    longest = on = before = 0
    for i, (t, _, _, size) in enumerate(arrivals_of(flows)):
        link.read_packet(i, contents_size(size), t // NS_PER_MS)
        longest = max(longest, len(link.queue))
        on += t % NS_PER_MS == 0 and is_opportunity(t // NS_PER_MS)
        before += (t + 1) % NS_PER_MS == 0 and is_opportunity((t + 1) // NS_PER_MS)
    link.drain()
    return {"idle": link.opportunities_idle_after_zero, "shared": link.opportunities_shared,
            "spanning": link.packets_spanning, "longest_queue": longest,
            "on_opportunity": on, "before_opportunity": before}


def capacity_ip_bps(schedule: list[int]) -> float:
    """The trace's capacity in IP bits: one 1500-byte IP packet (one full 1504-byte TUN
    frame) per opportunity, over the trace's duration."""
    return len(schedule) * 1500 * 8 / (schedule[-1] / 1000)


def judge(run, label, also=None):
    """Pass if every packet is mm-link's; fail otherwise, naming the first difference and,
    as a diagnosis, a known reading (F1: IP bytes against 1504) that explains every packet
    or the finding `also` the caller has shown to explain them (F2). The core took
    mm-link's reading after F1-F3 (the tests xfailed on them before), so a
    difference is a regression."""
    exact = run.exact
    print(f"{label}: {exact.matches}/{exact.compared} packets identical to mm-link, "
          f"{exact.drops} dropped by it" + "".join(
              f"; {c.matches}/{c.compared} as {c.reading.name}" for c in run.comparisons[1:]))
    if exact.first_difference is None:
        assert exact.matches == exact.compared > 0
        return
    known = run.explained_by()
    message = (f"{label}: {exact.matches}/{exact.compared} packets identical to mm-link; "
               f"first difference: {exact.first_difference}")
    if known is not None:
        message += f"; every packet as {known.reading.name}"
    if also is not None:
        message += f"; {also}"
    pytest.fail(message)
