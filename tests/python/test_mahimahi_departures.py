"""Issue 30's validation: lossy's trace capacity departs every packet when mm-link would.

For every trace in the shared mirror (the 11 Mahimahi traces and the 14 of Pantheon's
observatory), scripted CBR arrivals (mahimahi_compare.mixed_arrivals: a queue that builds
and drains, idle stretches that waste opportunities, 200/577/1000/1500-byte packets that
share and span opportunities, arrivals on and 1 ns before whole milliseconds) go through a
lossy link with that trace as its capacity, and through the independent reference of
mm-link (mahimahi_reference.py, from link_queue.cc). Every packet's departure must be the
same nanosecond, and the same packets dropped by a DropTail queue of 30 packets. Where
lossy differs, the test fails, and its message says whether a known finding explains
every packet (F1: an opportunity charged the IP size, not mm-link's TUN frame of IP + 4;
F2: DropTail judging an arrival exactly on an opportunity's millisecond before that
opportunity plays, not after as mm-link's read_packet does). Both were the core's
readings until the reference found them; the core now takes mm-link's.
"""

from pathlib import Path

import pytest

from mahimahi_compare import F1, MM_LINK, compare, exercised, judge, mixed_arrivals, off_the_millisecond
from mahimahi_reference import parse_trace

MAHIMAHI = [
    "ATT-LTE-driving.down", "ATT-LTE-driving.up", "TMobile-LTE-driving.down",
    "TMobile-LTE-short.down", "TMobile-LTE-short.up", "TMobile-UMTS-driving.down",
    "TMobile-UMTS-driving.up", "Verizon-EVDO-driving.down", "Verizon-EVDO-driving.up",
    "Verizon-LTE-short.down", "Verizon-LTE-short.up",
]
PANTHEON = [
    "0.12mbps.trace", "0.57mbps-poisson.trace", "10-every-200.trace", "100.42mbps.trace",
    "100mbps.trace", "108mbps.trace", "10mbps.trace", "114.68mbps.trace", "12mbps.trace",
    "2.64mbps-poisson.trace", "3.04mbps-poisson.trace", "50mbps.trace", "60mbps.trace",
    "77.72mbps.trace",
]
TRACES = [("mahimahi", n) for n in MAHIMAHI] + [("pantheon-observatory", n) for n in PANTHEON]

_SCHEDULES: dict = {}


def schedule_of(path: Path) -> list:
    if path not in _SCHEDULES:
        _SCHEDULES[path] = parse_trace(path)
    return _SCHEDULES[path]


def test_every_trace_in_the_mirror_is_compared(trace_mirror):
    on_disk = {(d, p.name) for d in ("mahimahi", "pantheon-observatory")
               for p in (trace_mirror / d).iterdir()
               if p.is_file() and p.name not in ("README", "COPYING", "experiments.yml")}
    assert on_disk == set(TRACES)


@pytest.mark.parametrize("folder, name", TRACES, ids=[n for _, n in TRACES])
def test_departures_match_mm_link_deep_queue(trace_mirror, folder, name):
    path = trace_mirror / folder / name
    schedule = schedule_of(path)
    judge(compare(path, schedule, mixed_arrivals(schedule), readings=(MM_LINK, F1)),
          f"{name} deep queue")


@pytest.mark.slow
@pytest.mark.parametrize("folder, name", TRACES, ids=[n for _, n in TRACES])
def test_departures_match_mm_link_droptail(trace_mirror, folder, name):
    # DropTail of 30 packets: the same drops, and the same departures for the rest.
    path = trace_mirror / folder / name
    schedule = schedule_of(path)
    flows = mixed_arrivals(schedule)
    run = compare(path, schedule, flows, queue_packets=30, readings=(MM_LINK, F1))
    label = f"{name} droptail 30"
    if run.exact.first_difference is not None and run.explained_by() is None:
        # F2: do the differences all come from datagrams sent exactly on an opportunity's
        # millisecond? Then moving those a few ns later (the same ms for mm-link's clock,
        # whose read_packet plays that opportunity before DropTail judges) removes them.
        moved = compare(path, schedule, off_the_millisecond(flows), queue_packets=30,
                        readings=(MM_LINK, F1))
        if moved.exact.first_difference is None or moved.explained_by() is not None:
            judge(run, label, also="F2: arrivals exactly on an opportunity's millisecond, judged "
                  "by DropTail in lossy's same-time event order, by mm-link after it plays that "
                  "opportunity; " + (
                      "all packets match mm-link's when they come a few ns later" if
                      moved.exact.first_difference is None else
                      f"a few ns later all match as {moved.explained_by().reading.name}"))
    judge(run, label)


@pytest.mark.parametrize("folder, name", TRACES, ids=[n for _, n in TRACES])
def test_the_script_exercises_every_rule(trace_mirror, folder, name):
    # By the reference: the queue builds, opportunities pass idle, bytes are shared and
    # packets span opportunities, and datagrams arrive exactly on and 1 ns before an
    # opportunity's millisecond (rationalize runs before the enqueue).
    schedule = schedule_of(trace_mirror / folder / name)
    seen = exercised(schedule, mixed_arrivals(schedule))
    assert seen["longest_queue"] >= 10 and all(seen.values()), seen
