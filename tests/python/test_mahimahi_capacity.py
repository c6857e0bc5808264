"""Issue 30's capacity test, and wrap-around and played-once against the mm-link reference.

The quantity: lossy's link row `throughput_bps` for A->B, the IP bits of the packets whose
last bit left the link by the run's end, over the run's duration. A CBR sender of 1500-byte
IP packets far above the trace's rate keeps the queue from ever emptying (the reference
checks it: no opportunity after time 0 finds the link idle), so every opportunity carries
exactly one packet: mm-link counts an IP packet as its TUN frame, IP + 4 bytes
(netdevice.cc opens the device without IFF_NO_PI), and 1500 + 4 fills one 1504-byte
opportunity (link_queue.cc rationalize). The IP bits departed are then 1500 x 8 per
opportunity, which is the trace's capacity, opportunities x 1500 x 8 / duration: the
issue's 16.70 Mbit/s (TMobile-LTE-short.down, 194846 lines over 139.986 s) and 5.03
(Verizon-LTE-short.down, 58655 over 140.000 s). The run lasts the trace's duration D
+ 0.5 ms: the opportunities at time 0 pass before the first packet is queued (rationalize
runs before the enqueue), and the wrapped copies of those lines, at D, carry packets.
"""

import pytest

from mahimahi_compare import F1, MM_LINK, Cbr, capacity_ip_bps, cbr_at_rate, compare, judge
from mahimahi_reference import NS_PER_MS, MahimahiLink, contents_size, parse_trace

ISSUE_CAPACITY = {"TMobile-LTE-short.down": 16.70e6, "Verizon-LTE-short.down": 5.03e6}


def saturating(schedule, packets):
    """1500-byte IP datagrams at 10x the trace's mean rate from time 0."""
    mean_bps = len(schedule) * 1504 * 8 / (schedule[-1] / 1000)
    f = cbr_at_rate(1500, 0, 10 * mean_bps * 1472 / 1504, 10**18)
    return [Cbr(1500, 0, f.interval_ns, packets)]


def never_idle(schedule, flows, end_ms, once=False):
    """The reference's link found a packet at every opportunity in (0, end_ms]."""
    link = MahimahiLink(schedule, once=once)
    f = flows[0]
    for k in range(f.packets):
        link.read_packet(k, contents_size(f.ip_bytes), (f.start_ns + k * f.interval_ns) // NS_PER_MS)
    link.rationalize(end_ms)
    return link.opportunities_idle_after_zero == 0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ISSUE_CAPACITY))
def test_a_saturating_sender_gets_the_trace_capacity(trace_mirror, name):
    path = trace_mirror / "mahimahi" / name
    schedule = parse_trace(path)
    duration_ms = schedule[-1]
    flows = saturating(schedule, len(schedule) + 2000)
    assert never_idle(schedule, flows, duration_ms)
    run = compare(path, schedule, flows, end_ms=duration_ms, readings=(MM_LINK, F1))
    got = next(k for k in run.result.links if k["name"] == "A->B")["throughput_bps"]
    capacity = capacity_ip_bps(schedule)
    print(f"{name}: lossy {got / 1e6:.4f} Mbit/s over {duration_ms / 1000} s + 0.5 ms, trace "
          f"capacity {capacity / 1e6:.4f} (issue {ISSUE_CAPACITY[name] / 1e6:.2f}), "
          f"{100 * (got / capacity - 1):+.3f} %")
    judge(run, f"{name} saturated")
    assert got == pytest.approx(capacity, rel=1e-3)
    assert got == pytest.approx(ISSUE_CAPACITY[name], rel=1e-3)


@pytest.mark.slow
@pytest.mark.parametrize("once", [False, True], ids=["wraps", "once"])
def test_a_cellular_trace_wraps_or_ends_as_mm_link_does(trace_mirror, once):
    # A run 10 s longer than Verizon-LTE-short.down: wrapping, the queue keeps draining
    # from 140 s on (base += 140000 ms); played once, nothing departs after 140 s.
    path = trace_mirror / "mahimahi" / "Verizon-LTE-short.down"
    schedule = parse_trace(path)
    end_ms = schedule[-1] + 10_000
    flows = saturating(schedule, len(schedule) + 10_000)
    run = compare(path, schedule, flows, once=once, end_ms=end_ms, readings=(MM_LINK, F1))
    last = max(run.departures.values())
    if once:
        assert last <= schedule[-1] * NS_PER_MS
    else:
        assert last > (schedule[-1] + 9_000) * NS_PER_MS
    judge(run, f"Verizon-LTE-short.down {'once' if once else 'wrapping'}")


def _synthetic(tmp_path, text):
    p = tmp_path / "synthetic.trace"
    p.write_text(text)
    return p, parse_trace(p)


@pytest.mark.parametrize("once", [False, True], ids=["wraps", "once"])
def test_a_short_trace_wraps_or_ends_as_mm_link_does(tmp_path, once):
    # Lines at 0 (twice), 3, 5 (twice), 7: period 7 ms; wrapping, the lines at 0 land on 7,
    # 14, ... beside the line at 7. 40 ms of 750-byte datagrams every 0.5 ms (two never
    # share an opportunity: 754 + 754 > 1504) and 300-byte ones 1 ns before every other
    # whole ms, against ~0.9 opportunities per ms: the queue builds.
    path, schedule = _synthetic(tmp_path, "0\n0\n3\n5\n5\n7\n")
    flows = [Cbr(750, 0, NS_PER_MS // 2, 80), Cbr(300, 2 * NS_PER_MS - 1, 2 * NS_PER_MS, 20)]
    run = compare(path, schedule, flows, once=once, end_ms=200, readings=(MM_LINK, F1))
    if once:
        assert max(run.departures.values()) == 7 * NS_PER_MS
    else:
        assert len(run.departures) == 100
    judge(run, f"synthetic {'once' if once else 'wrapping'}")
