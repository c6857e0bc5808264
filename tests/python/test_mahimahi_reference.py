"""Unit tests of the mm-link reference (mahimahi_reference.py) on tiny hand traces.

Every expected answer is worked out by hand from link_queue.cc's rules (comments show the
working), so the reference is checked before it judges lossy's trace capacity.
"""

import pytest

from mahimahi_reference import (
    DROPPED,
    PACKET_SIZE,
    TraceError,
    capacity_bits_per_second,
    departure_times,
    parse_trace,
    parse_trace_text,
)

MS = 1_000_000  # ns


# ---- parsing: LinkQueue's constructor and ezio.cc myatoi ------------------------------


def test_parse_reads_one_opportunity_per_line_repeats_included():
    assert parse_trace_text("2\n2\n2\n5\n") == [2, 2, 2, 5]


def test_parse_reads_a_last_line_without_newline():
    assert parse_trace_text("1\n2") == [1, 2]


def test_parse_accepts_what_strtol_accepts():
    # strtol skips leading blanks and takes a sign.
    assert parse_trace_text(" 12\n+13\n") == [12, 13]


def test_parse_converts_a_negative_like_cpp_uint64():
    # `const uint64_t ms = myatoi(line)`: -1 becomes 2**64 - 1 (no error in mm-link).
    assert parse_trace_text("0\n-1\n") == [0, 2**64 - 1]


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "no valid timestamps found"),
        ("1\n\n2\n", "invalid empty line"),
        ("1\n\n", "invalid empty line"),
        ("3\n2\n", "timestamps must be monotonically nondecreasing"),
        ("0\n0\n", "trace must last for a nonzero amount of time"),
        ("1.5\n", "Invalid integer: 1.5"),
        ("abc\n", "Invalid integer: abc"),
        ("12 \n", "Invalid integer: 12 "),
        ("1\r\n", "Invalid integer: 1\r"),
        (" \n", "Invalid integer:  "),
        ("99999999999999999999\n", "Numerical result out of range"),
    ],
)
def test_parse_refuses_what_link_queue_refuses(text, message):
    with pytest.raises(TraceError, match=message.replace(".", r"\.").replace("+", r"\+")):
        parse_trace_text(text, "t")


def test_parse_file_names_the_file(tmp_path):
    p = tmp_path / "bad.trace"
    p.write_text("5\n4\n")
    with pytest.raises(TraceError, match=r"bad\.trace: timestamps must be"):
        parse_trace(p)


def test_capacity_of_a_one_line_trace_is_one_packet_per_ms():
    # traces/README: a file containing "1" is one MTU-sized packet per ms; 1504 B here.
    assert capacity_bits_per_second([1]) == pytest.approx(PACKET_SIZE * 8 * 1000)


# ---- departures: rationalize / read_packet / use_a_delivery_opportunity ----------------


def test_one_packet_per_opportunity_in_order():
    # Trace "1": opportunities at 1, 2, 3 ms (wrapping). Three full packets at 0.
    assert departure_times([1], [(0, 1504)] * 3) == [1, 2, 3]


def test_arrival_on_an_opportunity_cannot_use_it():
    # Trace "5 10": opportunities 5, 10, then 15, 20 (base += 10). read_packet runs
    # rationalize(now) before enqueue: an arrival at 5.000 ms finds opportunity 5 burned.
    assert departure_times([5, 10], [(5 * MS, 100)]) == [10]
    # One nanosecond earlier, mm-link's ms clock reads 4: opportunity 5 is still ahead.
    assert departure_times([5, 10], [(5 * MS - 1, 100)]) == [5]


def test_bytes_are_shared_across_packets_and_opportunities():
    # Trace "2 4": opportunities 2, 4, 6, 8, ...
    # opp 2: p0 1000 (done, 504 left), p1 504 of 1000.
    # opp 4: p1 496 (done, 1008 left), p2 504 (done, 504 left), p3 504 of 1504.
    # opp 6: p3 1000 (done).
    arrivals = [(0, 1000), (0, 1000), (0, 504), (0, 1504)]
    assert departure_times([2, 4], arrivals) == [2, 4, 4, 6]


def test_an_idle_link_wastes_its_opportunities():
    # Trace "3": opportunities 3, 6, 9. Opportunity 6 passes with the queue empty: it is
    # lost, not saved, so the packet at 7 ms waits for 9.
    assert departure_times([3], [(0, 1504), (7 * MS, 1504)]) == [3, 9]
    # A small packet leaves the rest of its opportunity unused: the next one, arriving
    # after it, waits for the next opportunity.
    assert departure_times([1], [(0, 100), (MS + MS // 2, 100)]) == [1, 2]


def test_repeated_timestamps_are_several_opportunities():
    # Trace "2 2 2 5": three opportunities at 2, one at 5, then 7, 7, 7, 10.
    assert departure_times([2, 2, 2, 5], [(0, 1504)] * 5) == [2, 2, 2, 5, 7]


def test_wrap_advances_the_base_by_the_last_timestamp():
    # Trace "1 3": 1, 3, then base 3: 4, 6, then base 6: 7.
    assert departure_times([1, 3], [(0, 1504)] * 5) == [1, 3, 4, 6, 7]


def test_a_trace_starting_at_zero_wraps_onto_its_last_timestamp():
    # Trace "0 2": 0, 2, then base 2: 2, 4, ... The arrival at 0 ns reads now = 0 and
    # rationalize(0) burns opportunity 0 first.
    assert departure_times([0, 2], [(0, 1504)] * 3) == [2, 2, 4]


def test_played_once_nothing_departs_after_the_end():
    # --once: use_a_delivery_opportunity sets finished_ at the wrap: no opportunity 4, 6.
    assert departure_times([1, 3], [(0, 1504)] * 4, once=True) == [1, 3, None, None]


def test_droptail_counts_packets_in_the_queue_not_the_one_in_transit():
    # Trace "10", packets=2. At 0: p0, p1 (1000 B) fill the queue.
    # opp 10: p0 departs, p1 leaves the queue and takes 504 B: in transit, queue empty.
    # At 15 ms: p2, p3 fit (queue 1, 2); p4 would make 3: dropped.
    # opp 20: p1 496 (done), p2 1000 (done), p3 8 B. opp 30: p3 992 (done).
    arrivals = [(0, 1000), (0, 1000), (15 * MS, 1000), (15 * MS, 1000), (15 * MS, 1000)]
    assert departure_times([10], arrivals, packet_limit=2) == [10, 20, 20, 30, DROPPED]


def test_droptail_a_packet_not_yet_started_still_counts():
    # Trace "10", packets=2. p0 uses all 1504 B of opp 10, so p1 is not dequeued there:
    # it stays in the queue, and of p2, p3 at 12 ms only p2 fits.
    arrivals = [(0, 1504), (0, 1504), (12 * MS, 1504), (12 * MS, 1504)]
    assert departure_times([10], arrivals, packet_limit=2) == [10, 20, 30, DROPPED]
    # With p0 of 1000 B, p1 starts in opp 10 and leaves the queue: both later ones fit.
    arrivals = [(0, 1000), (0, 1504), (12 * MS, 1504), (12 * MS, 1504)]
    assert departure_times([10], arrivals, packet_limit=2) == [10, 20, 30, 40]


def test_droptail_byte_limit_is_inclusive():
    # bytes=3000: 1504 + 1504 = 3008 > 3000 drops p1; 1504 + 1496 = 3000 fits.
    arrivals = [(0, 1504), (0, 1504), (0, 1496)]
    assert departure_times([10], arrivals, byte_limit=3000) == [10, DROPPED, 20]


def test_a_packet_over_1504_bytes_is_an_error():
    with pytest.raises(ValueError, match="greater than maximum"):
        departure_times([1], [(0, 1505)])


def test_an_ip_packet_costs_four_bytes_more():
    # netdevice.cc: IFF_TUN without IFF_NO_PI, so contents = IP packet + 4-byte tun_pi.
    from mahimahi_reference import contents_size

    assert contents_size(1500) == PACKET_SIZE
    # Trace "1": a 1500-byte IP packet per opportunity, one per ms ...
    assert departure_times([1], [(0, contents_size(1500))] * 3) == [1, 2, 3]
    # ... and two 750-byte IP packets (754 + 754 = 1508 > 1504) do not share one.
    assert departure_times([1], [(0, contents_size(750))] * 2) == [1, 2]


def test_the_link_counts_opportunities_it_left_idle():
    from mahimahi_reference import MahimahiLink

    link = MahimahiLink([0, 3])  # opportunities 0, 3, 3, 6, 6, ...
    link.read_packet(0, 1504, 0)  # rationalize(0) burns opportunity 0 first: idle, at 0
    link.rationalize(7)  # 3 carries the packet; 3 (wrapped), 6, 6 find nothing
    assert link.departures == {0: 3}
    assert link.opportunities_idle_after_zero == 3
