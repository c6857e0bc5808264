//! PIE, Proportional Integral controller Enhanced (RFC 8033): arrivals are dropped (or
//! marked) with a probability that a controller updates every `tupdate` from the
//! queueing delay's distance from target and its change (§4.2), scaled down while the
//! probability is small (the auto-tuning ladder), with a burst allowance (§4.4) and the
//! work-conserving suppressions of §4.1.
//!
//! The queueing delay is measured by the timestamp method (the RFC's Appendix A, "for
//! clarity"; ns-3's `pie-queue-disc.cc` defaults to it): the sojourn of
//! the packet leaving, 0 when it leaves the queue empty (ns-3 `DoDequeue`). The
//! departure-rate method (§4.3) estimates the same delay from bytes and a measured rate;
//! in a simulator the timestamp is exact and needs no threshold.
//!
//! The periodic update needs no timer: nothing PIE reads changes between the packets'
//! arrivals and departures, so the updates due since the last one are run, in order,
//! at the next arrival or departure (each at its own instant k·tupdate from time 0, as
//! ns-3's `CalculateP` is scheduled), which gives the same probabilities a timer would.

pub use super::pie_config::PieConfig;
use super::timed_fifo::{fits, TimedFifo};
use super::{DropSink, QueueDisc, QueueStats};
use crate::packet::{Flags, Packet};
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use crate::units::QueueLimit;

/// PIE's settings (delays in seconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieParams {
    pub limit: QueueLimit,
    pub target: f64,
    pub tupdate: SimDuration,
    pub alpha: f64,
    pub beta: f64,
    pub max_burst: SimDuration,
    pub derandomize: bool,
    pub ecn: bool,
    pub mean_packet_size: u64,
}

/// RFC 8033 §5.1: ECN-capable packets are marked only while the drop probability is
/// below this (mark_ecnth, 10 %), and dropped above it.
pub const MARK_ECN_THRESHOLD: f64 = 0.1;

/// The controller's state (Appendix A's `PIE->..._` variables) and the integral of
/// the drop probability for the summary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Controller {
    pub drop_prob: f64,
    pub qdelay_old: f64,
    /// The delay of the latest departure (`current_qdelay`), seconds.
    pub current_qdelay: f64,
    /// Burst allowance left (`burst_allowance_`), in whole nanoseconds so that it runs
    /// out exactly after max_burst / tupdate updates.
    pub burst_allowance: SimDuration,
    /// Appendix B's `accu_prob_` (derandomization).
    accu_prob: f64,
    /// The next update's instant.
    next_update: SimTime,
    /// ∫ drop_prob dt over [0, area_to].
    area: f64,
    area_to: SimTime,
}

impl Controller {
    fn new() -> Self {
        Controller { drop_prob: 0.0, qdelay_old: 0.0, current_qdelay: 0.0, burst_allowance: SimDuration::ZERO, accu_prob: 0.0, next_update: SimTime::ZERO, area: 0.0, area_to: SimTime::ZERO }
    }

    /// `calculate_drop_prob` (§4.2, Appendix A), with §5.5's cap: p = α(qdelay − target)
    /// + β(qdelay − qdelay_old), scaled by the ladder on the current probability, then
    /// added; decayed by 2 % when the queue stays empty; bounded to [0, 1].
    pub fn update(&mut self, p: &PieParams) {
        let q = self.current_qdelay;
        let mut delta = p.alpha * (q - p.target) + p.beta * (q - self.qdelay_old);
        // §4.2: small probabilities move in small steps ("auto-tuning").
        let scale = match self.drop_prob {
            d if d < 0.000001 => 1.0 / 2048.0,
            d if d < 0.00001 => 1.0 / 512.0,
            d if d < 0.0001 => 1.0 / 128.0,
            d if d < 0.001 => 1.0 / 32.0,
            d if d < 0.01 => 1.0 / 8.0,
            d if d < 0.1 => 1.0 / 2.0,
            _ => 1.0,
        };
        delta *= scale;
        // §5.5: above 10 %, rise by at most 2 % per update.
        if self.drop_prob >= 0.1 && delta > 0.02 {
            delta = 0.02;
        }
        self.drop_prob += delta;
        // §4.2: decay exponentially when congestion is gone.
        if q == 0.0 && self.qdelay_old == 0.0 {
            self.drop_prob *= 0.98;
        }
        self.drop_prob = self.drop_prob.clamp(0.0, 1.0);
        self.qdelay_old = q;
        // §4.4: the burst allowance runs down by T_UPDATE per update.
        self.burst_allowance = SimDuration(self.burst_allowance.0.saturating_sub(p.tupdate.0));
    }

    /// Runs every update due at or before `now`, integrating the probability between them.
    pub fn catch_up(&mut self, now: SimTime, p: &PieParams) {
        while self.next_update <= now {
            let t = self.next_update;
            self.area += self.drop_prob * t.since(self.area_to).as_secs_f64();
            self.area_to = t;
            self.update(p);
            self.next_update = t + p.tupdate;
        }
    }

    /// The time-weighted mean drop probability over [0, end].
    fn mean(mut self, end: SimTime, p: &PieParams) -> f64 {
        self.catch_up(end, p);
        let area = self.area + self.drop_prob * end.since(self.area_to).as_secs_f64();
        if end > SimTime::ZERO {
            area / end.as_secs_f64()
        } else {
            self.drop_prob
        }
    }
}

#[derive(Clone, Debug)]
pub struct Pie {
    p: PieParams,
    fifo: TimedFifo,
    rng: RngStream,
    pub ctl: Controller,
    early: u64,
    marks: u64,
}

impl Pie {
    pub fn new(p: PieParams, rng: RngStream) -> Self {
        Pie { p, fifo: TimedFifo::default(), rng, ctl: Controller::new(), early: 0, marks: 0 }
    }

    /// `drop_early` (Appendix A, with Appendix B's derandomization).
    fn drop_early(&mut self) -> bool {
        let c = &mut self.ctl;
        // §4.1: stay work conserving: no early drop while the delay was low and the
        // probability moderate, or with at most 2 packets (2 mean packets of bytes) queued.
        let small = match self.p.limit {
            QueueLimit::Packets(_) => self.fifo.len() <= 2,
            QueueLimit::Bytes(_) => self.fifo.bytes() <= 2 * self.p.mean_packet_size,
        };
        if (c.qdelay_old < self.p.target / 2.0 && c.drop_prob < 0.2) || small {
            return false;
        }
        if self.p.derandomize {
            if c.drop_prob == 0.0 {
                c.accu_prob = 0.0;
            }
            c.accu_prob += c.drop_prob;
            if c.accu_prob < 0.85 {
                return false;
            }
            if c.accu_prob >= 8.5 {
                return true;
            }
        }
        self.rng.uniform() < c.drop_prob
    }
}

impl QueueDisc for Pie {
    // Not inlined into `AnyQueueDisc`'s dispatch, which stays small enough to inline
    // drop-tail's path into the link (issue 28's hot path).
    #[inline(never)]
    fn enqueue(&mut self, now: SimTime, mut pkt: Packet, dropped: DropSink) {
        self.ctl.catch_up(now, &self.p);
        if !fits(self.p.limit, self.fifo.len(), self.fifo.bytes(), pkt.size) {
            self.ctl.accu_prob = 0.0;
            return dropped(pkt);
        }
        // §4.4 (Appendix A `enqueue`): a quiet queue gets its burst allowance back.
        let half = self.p.target / 2.0;
        let c = &mut self.ctl;
        if c.drop_prob == 0.0 && c.current_qdelay < half && c.qdelay_old < half {
            c.burst_allowance = self.p.max_burst;
        }
        if self.ctl.burst_allowance == SimDuration::ZERO && self.drop_early() {
            if self.p.ecn && pkt.flags.has(Flags::ECT) && self.ctl.drop_prob < MARK_ECN_THRESHOLD {
                pkt.flags.set(Flags::CE);
                self.marks += 1;
            } else {
                self.ctl.accu_prob = 0.0;
                self.early += 1;
                return dropped(pkt);
            }
        }
        self.fifo.push(now, pkt);
    }

    // Not inlined into `AnyQueueDisc`'s dispatch, which stays small enough to inline
    // drop-tail's path into the link (issue 28's hot path).
    #[inline(never)]
    fn dequeue(&mut self, now: SimTime, _dropped: DropSink) -> Option<Packet> {
        self.ctl.catch_up(now, &self.p);
        let (arrived, pkt) = self.fifo.pop()?;
        // Appendix A `deque`: the departing packet's delay (0 once the queue is empty,
        // ns-3 `DoDequeue`, so that an emptied queue lets the probability decay).
        self.ctl.current_qdelay = if self.fifo.is_empty() { 0.0 } else { now.since(arrived).as_secs_f64() };
        Some(pkt)
    }

    fn len(&self) -> usize {
        self.fifo.len()
    }

    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        self.fifo.drain(f);
        self.ctl.current_qdelay = 0.0;
    }

    fn stats(&self, end_s: f64) -> QueueStats {
        let end = SimTime::ZERO + SimDuration::from_secs_f64(end_s.max(0.0));
        QueueStats { early_drops: self.early, marks: self.marks, drop_probability: Some(self.ctl.mean(end, &self.p)), ..QueueStats::default() }
    }
}

#[cfg(test)]
#[path = "pie_tests.rs"]
mod tests;
