//! RED, Random Early Detection (Floyd and Jacobson 1993, "Random Early Detection
//! Gateways for Congestion Avoidance", §4 and Fig. 2), read as ns-2.35's
//! `queue/red.cc` does where the two differ (gentle mode, idle decay, byte mode,
//! the first arrival above min_th). Marks ECN-capable packets instead of dropping them
//! early (RFC 3168 §5; ns-2's `setbit_`). Draws come from the direction's own queue
//! stream (`link:A->B:queue`), so RED never moves the channel's draws.

use config::RedParams;
pub use config::{RedConfig, RedMode};

// Its table, in a file of its own for its length.
#[path = "red_config.rs"]
mod config;
use super::drop_tail::DropTail;
use super::{DropSink, QueueDisc, QueueStats};
use crate::packet::{Flags, Packet};
use crate::rng::RngStream;
use crate::time::{serialization_delay, SimTime};

/// What happens to an arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Keep,
    /// Kept with CE set, where an early drop was due.
    Mark,
    /// The random early drop (ns-2's "unforced").
    Early,
    /// The average is past the ramp: at or above max_th (2 · max_th in gentle mode).
    Forced,
    /// The queue is full (the hard limit).
    Overflow,
}

#[derive(Clone, Debug)]
pub struct Red {
    p: RedParams,
    /// The packets, first in first out, under the hard limit.
    fifo: DropTail,
    rng: RngStream,
    /// The average queue (EWMA), in packets or bytes.
    avg: f64,
    /// Arrivals (and their bytes) since the last early drop or mark (paper's `count`).
    count: u64,
    count_bytes: u64,
    /// ns-2's `old`: the previous arrival already found avg ≥ min_th.
    old: bool,
    /// The queue has been empty since its last packet left, and the link free since
    /// `idle_since` (if that is past).
    idle: bool,
    idle_since: SimTime,
    /// The last arrival or departure.
    seen: SimTime,
    /// ∫ avg dt up to `last_avg` (for the time-weighted mean).
    area: f64,
    last_avg: SimTime,
    early: u64,
    forced: u64,
    marks: u64,
}

impl Red {
    /// An empty queue, idle since time 0 (ns-2.35's `reset`).
    pub fn new(p: RedParams, rng: RngStream) -> Self {
        Red {
            p,
            fifo: DropTail::new(p.limit),
            rng,
            avg: 0.0,
            count: 0,
            count_bytes: 0,
            old: false,
            idle: true,
            idle_since: SimTime::ZERO,
            seen: SimTime::ZERO,
            area: 0.0,
            last_avg: SimTime::ZERO,
            early: 0,
            forced: 0,
            marks: 0,
        }
    }

    /// The instantaneous queue in RED's unit.
    fn q(&self) -> f64 {
        if self.p.bytes {
            self.fifo.bytes() as f64
        } else {
            self.fifo.len() as f64
        }
    }

    /// Paper §4: avg ← (1 − w_q)·avg + w_q·q on each arrival; after an idle period the
    /// average first decays as if m = ⌊C · idle time⌋ empty-queue arrivals had come
    /// (ns-2.35 `enque`/`estimator`: C in mean packets per second). An arrival while
    /// the last packet is still being sent finds no idle time (`since` saturates).
    fn update_avg(&mut self, now: SimTime) {
        self.area += self.avg * now.since(self.last_avg).as_secs_f64();
        self.last_avg = now;
        let keep = 1.0 - self.p.w_q;
        let mut decay = 1.0;
        if self.idle {
            self.idle = false;
            let m = (self.p.ptc * now.since(self.idle_since).as_secs_f64()).floor();
            decay = keep.powf(m);
        }
        self.avg = self.avg * decay * keep + self.p.w_q * self.q();
    }

    /// p_b at the current average: max_p · (avg − min_th) / (max_th − min_th) below
    /// max_th; in gentle mode max_p + (1 − max_p) · (avg − max_th) / max_th up to
    /// 2 · max_th (ns-2.35 `calculate_p_new`), else 1.
    fn p_b(&self) -> f64 {
        let RedParams { min_th, max_th, max_p, .. } = self.p;
        let p = if self.avg < max_th {
            max_p * (self.avg - min_th) / (max_th - min_th)
        } else if self.p.gentle {
            max_p + (1.0 - max_p) * (self.avg - max_th) / max_th
        } else {
            1.0
        };
        p.min(1.0)
    }

    /// p_a from p_b (ns-2.35 `modify_p`): the paper's p_b / (1 − count·p_b), or with
    /// `wait` p_b / (2 − count·p_b) and 0 while count·p_b < 1. In byte mode count is
    /// ⌊count_bytes / mean⌋ and p_a is scaled by size / mean.
    fn p_a(&self, p_b: f64, size: u16) -> f64 {
        let count = if self.p.bytes { (self.count_bytes as f64 / self.p.mean).floor() } else { self.count as f64 };
        let cp = count * p_b;
        let mut p = match (self.p.wait, cp) {
            (false, cp) if cp < 1.0 => p_b / (1.0 - cp),
            (true, cp) if cp < 1.0 => 0.0,
            (true, cp) if cp < 2.0 => p_b / (2.0 - cp),
            _ => 1.0,
        };
        if self.p.bytes && p < 1.0 {
            p = p * size as f64 / self.p.mean;
        }
        p.min(1.0)
    }

    /// Paper Fig. 2 with ns-2.35's conditions: nothing is dropped unless avg ≥ min_th and
    /// the queue holds more than 1 (packet or byte); the first such arrival only starts
    /// the count; the hard limit overrides everything.
    fn verdict(&mut self, pkt: &Packet) -> Verdict {
        let size = pkt.size;
        self.count += 1;
        self.count_bytes += size as u64;
        let mut v = Verdict::Keep;
        if self.avg >= self.p.min_th && self.q() > 1.0 {
            let hard = if self.p.gentle { 2.0 * self.p.max_th } else { self.p.max_th };
            if self.avg >= hard {
                v = Verdict::Forced;
            } else if !self.old {
                self.old = true;
                self.count = 1;
                self.count_bytes = size as u64;
            } else {
                let p_b = self.p_b();
                if self.rng.uniform() < self.p_a(p_b, size) {
                    self.count = 0;
                    self.count_bytes = 0;
                    // RFC 3168 §5: mark instead of an early drop when the packet is ECT
                    // (with ns-2's mark_p, only while p_b < mark_p).
                    let mark = self.p.ecn && pkt.flags.has(Flags::ECT) && self.p.mark_p.is_none_or(|m| p_b < m);
                    v = if mark { Verdict::Mark } else { Verdict::Early };
                }
            }
        } else {
            self.old = false;
        }
        if !self.fifo.fits(size) {
            v = Verdict::Overflow;
        }
        if matches!(v, Verdict::Forced | Verdict::Overflow) {
            self.count = 0;
            self.count_bytes = 0;
        }
        v
    }
}

impl Red {
    /// Judges and queues an arrival; gives it back if dropped.
    fn offer(&mut self, now: SimTime, mut pkt: Packet) -> Result<(), Packet> {
        self.update_avg(now);
        self.seen = now;
        match self.verdict(&pkt) {
            Verdict::Early => self.early += 1,
            Verdict::Forced => self.forced += 1,
            Verdict::Overflow => {}
            v => {
                if v == Verdict::Mark {
                    pkt.flags.set(Flags::CE);
                    self.marks += 1;
                }
                return self.fifo.push(pkt); // fits: the verdict checked the limit
            }
        }
        Err(pkt)
    }
}

// `enqueue` and `dequeue` not inlined into `AnyQueueDisc`'s dispatch, which stays small
// enough to inline drop-tail's path into the link (issue 28's hot path).
impl QueueDisc for Red {
    #[inline(never)]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: DropSink) {
        if let Err(p) = self.offer(now, pkt) {
            dropped(p);
        }
    }

    #[inline(never)]
    fn dequeue(&mut self, now: SimTime, _dropped: DropSink) -> Option<Packet> {
        self.seen = now;
        let Some(p) = self.fifo.pop() else {
            // ns-2.35 `deque`: the link is free and nothing waits: idle from now.
            if !self.idle {
                self.idle = true;
                self.idle_since = now;
            }
            return None;
        };
        if self.fifo.is_empty() {
            // ns-2.35 goes idle when the link, done with this packet, finds the queue
            // empty; the link is not woken then, so the end is computed from its
            // capacity's nominal rate (exact for a constant rate).
            self.idle = true;
            self.idle_since = now + serialization_delay(p.bits(), self.p.nominal_rate_bps);
        }
        Some(p)
    }

    fn len(&self) -> usize {
        self.fifo.len()
    }

    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        self.fifo.drain(f);
        // The link went down: idle from the last thing it did.
        self.idle = true;
        self.idle_since = self.seen;
    }

    fn stats(&self, end_s: f64) -> QueueStats {
        let area = self.area + self.avg * (end_s - self.last_avg.as_secs_f64()).max(0.0);
        let mean = if end_s > 0.0 { area / end_s } else { self.avg };
        let unit = if self.p.bytes { self.p.mean } else { 1.0 };
        QueueStats { early_drops: self.early, forced_drops: self.forced, marks: self.marks, avg_packets: Some(mean / unit), ..QueueStats::default() }
    }
}

/// Boxed into the discipline list (only drop-tail is held inline there).

#[cfg(test)]
#[path = "red_tests.rs"]
mod tests;
