"""An independent reference of Mahimahi mm-link's departure rules, for the trace tests.

Written from ravinet/mahimahi @ ae477d437615b972217498ba52be07db17a15618 (the C++),
not from lossy's Rust: `src/frontend/link_queue.cc` (class LinkQueue), its header
`link_queue.hh`, the queues `src/packet/drop_tail_packet_queue.hh`,
`src/packet/dropping_packet_queue.cc`, `src/packet/infinite_packet_queue.hh`,
`src/util/ezio.cc` (myatoi) and `src/util/timestamp.cc` (timestamp), and `traces/README`.

Times: mm-link's clock is integer milliseconds (timestamp.cc: `timestamp()` is
`raw_timestamp() - initial_timestamp()`, both whole ms). Arrivals here are integer
nanoseconds, as lossy's clock is; `read_packet` sees the arrival's whole millisecond,
`arrival_ns // 1_000_000` (the ms clock truncates the sub-ms part). Departures are
returned in integer ms: they are always opportunity times.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from pathlib import Path

# link_queue.hh: `const static unsigned int PACKET_SIZE = 1504; /* default max TUN payload size */`
PACKET_SIZE = 1504

NS_PER_MS = 1_000_000

# What mm-link counts of an IP packet: src/util/netdevice.cc opens the TUN device with
# `IFF_TUN` alone (no IFF_NO_PI), so Linux (drivers/net/tun.c, tun_get_user) frames each
# packet on the fd with a 4-byte `struct tun_pi`; packetshell.cc hands that whole frame to
# `read_packet`, so `contents.size()` is the IP length + 4, and a 1500-byte IP packet fills
# one 1504-byte opportunity exactly ("default max TUN payload size", link_queue.hh).
TUN_PI_BYTES = 4


def contents_size(ip_bytes: int) -> int:
    """The size mm-link's LinkQueue sees for an IP packet of `ip_bytes`."""
    return ip_bytes + TUN_PI_BYTES

# The result of a packet the DropTail queue refused (dropping_packet_queue.cc / record_drop).
DROPPED = "drop"

_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1
# strtol skips leading isspace() characters, takes an optional sign, then digits.
_STRTOL = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")


class TraceError(ValueError):
    """What LinkQueue's constructor (or myatoi) throws, with its message."""


def _myatoi(line: str) -> int:
    """ezio.cc myatoi(str, base=10): strtol must consume the whole string."""
    if not line:
        raise TraceError("Invalid integer string: empty")
    m = _STRTOL.match(line)
    if m is None:
        # strtol converted nothing: `end` stays at the string's start.
        raise TraceError(f"Invalid integer: {line}")
    value = int(m.group(1))
    if not _LONG_MIN <= value <= _LONG_MAX:
        # strtol saturates and sets errno = ERANGE: myatoi throws unix_error("strtol").
        raise TraceError("strtol: Numerical result out of range")
    if m.end() != len(line):
        # `end != str.c_str() + str.size()`: trailing characters (a blank, a '\r', '.5').
        raise TraceError(f"Invalid integer: {line}")
    return value


def parse_trace_text(text: str, filename: str = "trace") -> list[int]:
    """LinkQueue::LinkQueue's schedule loading (link_queue.cc, the constructor).

    `while (trace_file.good() and getline(trace_file, line))`: lines split on '\\n'; a final
    line without a newline is still read; a file ending in '\\n' has no extra empty line.
    Each line: empty -> "invalid empty line"; `const uint64_t ms = myatoi(line)` (a negative
    long converts to uint64 modulo 2**64, as C++ does); `ms < schedule_.back()` ->
    "timestamps must be monotonically nondecreasing". Then no lines -> "no valid timestamps
    found"; last timestamp 0 -> "trace must last for a nonzero amount of time".
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # getline fails at EOF right after the last '\n'
    schedule: list[int] = []
    if all(line.isascii() and line.isdigit() and len(line) < 19 for line in lines):
        # The common case, plain digits that fit a long: the same result, faster.
        schedule = [int(line) for line in lines]
        for a, b in zip(schedule, schedule[1:]):
            if b < a:
                raise TraceError(f"{filename}: timestamps must be monotonically nondecreasing")
        lines = []
    for line in lines:
        if line == "":
            raise TraceError(f"{filename}: invalid empty line")
        ms = _myatoi(line) % 2**64  # `const uint64_t ms = myatoi(line)`
        if schedule and ms < schedule[-1]:
            raise TraceError(f"{filename}: timestamps must be monotonically nondecreasing")
        schedule.append(ms)
    if not schedule:
        raise TraceError(f"{filename}: no valid timestamps found")
    if schedule[-1] == 0:
        raise TraceError(f"{filename}: trace must last for a nonzero amount of time")
    return schedule


def parse_trace(path: str | Path) -> list[int]:
    """parse_trace_text on a file's bytes (ifstream reads bytes; traces are ASCII)."""
    path = Path(path)
    return parse_trace_text(path.read_bytes().decode("latin-1"), str(path))


@dataclass
class _Queued:
    """queued_packet.hh QueuedPacket: the arrival time (ms) and the contents' size."""

    pid: int
    size: int
    arrival_ms: int


class MahimahiLink:
    """One direction of mm-link: LinkQueue with an infinite or DropTail packet queue.

    `packet_limit` / `byte_limit`: DropTail's `packets=` / `bytes=` (0 = no such limit, as
    dropping_packet_queue.cc get_arg's default); both 0 = the infinite queue
    (infinite_packet_queue.hh, mm-link's default). `once`: mm-link's `--once`
    (linkshell.cc sets repeat = false).
    """

    def __init__(self, schedule: list[int], *, once: bool = False, packet_limit: int = 0,
                 byte_limit: int = 0):
        self.schedule = list(schedule)
        self.repeat = not once
        self.packet_limit = packet_limit
        self.byte_limit = byte_limit
        # LinkQueue's constructor: next_delivery_(0), base_timestamp_(timestamp()); the
        # trace's clock starts when the link starts, time 0 here.
        self.next_delivery = 0
        self.base = 0
        self.finished = False
        self.queue: deque[_Queued] = deque()
        self.queue_bytes = 0
        self.in_transit: _Queued | None = None
        self.in_transit_bytes_left = 0
        self.departures: dict[int, int] = {}
        self.opportunities_used = 0
        # Opportunities (after time 0) that found the queue empty and no packet in transit:
        # a sender that leaves none is saturating the link.
        self.opportunities_idle_after_zero = 0
        # What a script exercised: opportunities whose bytes went to two packets or more,
        # packets whose bytes came from two opportunities or more.
        self.opportunities_shared = 0
        self.packets_spanning = 0
        self.bytes_departed = 0

    def next_delivery_time(self) -> int | None:
        """link_queue.cc next_delivery_time(): `schedule_.at(next_delivery_) + base_timestamp_`;
        finished -> -1 as uint64 (never; None here)."""
        if self.finished:
            return None
        return self.schedule[self.next_delivery] + self.base

    def _use_a_delivery_opportunity(self) -> None:
        """link_queue.cc use_a_delivery_opportunity(): advance, and on wrap-around either
        `base_timestamp_ += schedule_.back()` (repeat) or `finished_ = true` (--once)."""
        self.opportunities_used += 1
        self.next_delivery = (self.next_delivery + 1) % len(self.schedule)
        if self.next_delivery == 0:
            if self.repeat:
                self.base += self.schedule[-1]
            else:
                self.finished = True

    def rationalize(self, now_ms: int) -> None:
        """link_queue.cc rationalize(now): play every opportunity at or before `now`."""
        while True:
            this_delivery_time = self.next_delivery_time()
            if this_delivery_time is None or this_delivery_time > now_ms:
                return
            # "burn a delivery opportunity": 1504 bytes at this_delivery_time.
            bytes_left = PACKET_SIZE
            self._use_a_delivery_opportunity()
            packets_served = 0
            while bytes_left > 0:
                if not self.in_transit_bytes_left:
                    if not self.queue:
                        # Queue empty: the rest of the opportunity is wasted.
                        if bytes_left == PACKET_SIZE and this_delivery_time > 0:
                            self.opportunities_idle_after_zero += 1
                        break
                    # The head leaves the queue as it starts: the queue's counts, which
                    # DropTail checks, no longer include it (DroppingPacketQueue::dequeue).
                    self.in_transit = self.queue.popleft()
                    self.queue_bytes -= self.in_transit.size
                    self.in_transit_bytes_left = self.in_transit.size
                elif bytes_left == PACKET_SIZE:
                    self.packets_spanning += 1  # started in an earlier opportunity
                assert self.in_transit is not None
                assert self.in_transit.arrival_ms <= this_delivery_time
                # Bytes are shared: a packet may span opportunities, several may share one.
                amount = min(bytes_left, self.in_transit_bytes_left)
                packets_served += 1
                if packets_served == 2:
                    self.opportunities_shared += 1
                self.in_transit_bytes_left -= amount
                bytes_left -= amount
                if self.in_transit_bytes_left == 0:
                    # record_departure(this_delivery_time, ...): it departs at the
                    # opportunity that carries its last byte.
                    self.departures[self.in_transit.pid] = this_delivery_time
                    self.bytes_departed += self.in_transit.size

    def read_packet(self, pid: int, size: int, now_ms: int) -> bool:
        """link_queue.cc read_packet(contents): size check, rationalize(now) FIRST, then
        enqueue into the packet queue. Returns False if DropTail refused it."""
        if size > PACKET_SIZE:
            raise ValueError("packet size is greater than maximum")
        if size <= 0:
            # rationalize asserts packet_in_transit_bytes_left_ > 0 for a dequeued packet.
            raise ValueError("a packet must have at least one byte")
        self.rationalize(now_ms)
        if not self.fits(size):
            return False
        self.enqueue(pid, size, now_ms)
        return True

    def fits(self, size: int) -> bool:
        """drop_tail_packet_queue.hh enqueue: accept iff good_with(size_bytes() + size,
        size_packets() + 1); dropping_packet_queue.cc good_with: each nonzero limit `<=`."""
        if self.byte_limit and self.queue_bytes + size > self.byte_limit:
            return False
        if self.packet_limit and len(self.queue) + 1 > self.packet_limit:
            return False
        return True

    def enqueue(self, pid: int, size: int, now_ms: int) -> None:
        """DroppingPacketQueue::accept / InfinitePacketQueue::enqueue: onto the back."""
        self.queue.append(_Queued(pid, size, now_ms))
        self.queue_bytes += size

    def drain(self) -> None:
        """Play opportunities until every accepted packet has departed (or a --once trace
        ends: after that next_delivery_time() is never, so nothing more departs)."""
        while (self.queue or self.in_transit_bytes_left) and not self.finished:
            t = self.next_delivery_time()
            assert t is not None
            self.rationalize(t)


def departure_times(schedule: list[int], arrivals: list[tuple[int, int]], *, once: bool = False,
                    packet_limit: int = 0, byte_limit: int = 0) -> list[int | str | None]:
    """Each arrival's fate through one mm-link direction.

    `arrivals`: (time in integer ns, size in bytes), in nondecreasing time order (the order
    read_packet sees them). Returns, per arrival, its departure time in integer ms, DROPPED
    if DropTail refused it, or None if it never departs (a --once trace ended first).
    """
    link = MahimahiLink(schedule, once=once, packet_limit=packet_limit, byte_limit=byte_limit)
    fates: list[int | str | None] = []
    last_ns = 0
    for pid, (t_ns, size) in enumerate(arrivals):
        if t_ns < last_ns:
            raise ValueError("arrivals must be in nondecreasing time order")
        last_ns = t_ns
        # timestamp.cc: the clock mm-link reads is in whole milliseconds.
        accepted = link.read_packet(pid, size, t_ns // NS_PER_MS)
        fates.append(None if accepted else DROPPED)
    link.drain()
    for pid, fate in enumerate(fates):
        if fate is None and pid in link.departures:
            fates[pid] = link.departures[pid]
    return fates


def capacity_bits_per_second(schedule: list[int]) -> float:
    """The trace's capacity: its opportunities' bytes over its duration, schedule[-1] ms
    (a wrapping trace repeats every schedule[-1] ms: use_a_delivery_opportunity)."""
    return len(schedule) * PACKET_SIZE * 8 / (schedule[-1] / 1000)
