//! CoDel, Controlled Delay (RFC 8289): a FIFO that drops at dequeue when the packets'
//! sojourn time has stayed at or above `target` for an `interval`, at a rate that grows
//! with the square root of the drops (the control law, `codel_law.rs`). An arrival that
//! does not fit the limit is dropped (§5.2's `enqueue`).

use super::codel_law::{CodelCounts, CodelParams, CodelState};
use super::timed_fifo::{fits, TimedFifo};
use super::{AnyQueueDisc, DropSink, QueueDisc, QueueDiscSpec, QueueStats};
use crate::capacity::AnyCapacity;
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use crate::units::{duration_text, Duration, QueueLimit};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "codel"`: CoDel (RFC 8289) with the RFC's target and interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodelConfig {
    /// Packets or bytes the queue holds, not counting the one being sent; an arrival
    /// that does not fit is dropped. Default "1000 packets" (RFC 8289 sets none).
    #[serde(default = "default_limit")]
    pub limit: QueueLimit,
    /// The acceptable standing queueing delay, > 0. Default "5 ms" (RFC 8289 §4.4).
    #[serde(default = "default_target")]
    pub target: Duration,
    /// The window the delay must stay above target before drops begin, at least
    /// target; about a worst-case round-trip time. Default "100 ms" (RFC 8289 §4.3).
    #[serde(default = "default_interval")]
    pub interval: Duration,
    /// Mark ECN-capable packets CE instead of dropping them (RFC 8289 §5). Default
    /// false.
    #[serde(default)]
    pub ecn: bool,
}

fn default_limit() -> QueueLimit {
    QueueLimit::Packets(1000)
}
pub(crate) fn default_target() -> Duration {
    Duration::from_millis(5)
}
pub(crate) fn default_interval() -> Duration {
    Duration::from_millis(100)
}

impl Default for CodelConfig {
    fn default() -> Self {
        CodelConfig { limit: default_limit(), target: default_target(), interval: default_interval(), ecn: false }
    }
}

/// Checks CoDel's target and interval (shared with FQ-CoDel); the message names the field.
pub(crate) fn check_target_interval(target: Duration, interval: Duration) -> Result<(), String> {
    if target.0 == SimDuration::ZERO {
        return Err("target: 0 s is not allowed; use a duration > 0, e.g. \"5 ms\" (RFC 8289 §4.4)".into());
    }
    if interval.0 < target.0 {
        let (i, t) = (duration_text(interval.0.as_nanos()), duration_text(target.0.as_nanos()));
        return Err(format!("interval: {i} is not allowed; use a duration at least target ({t}), e.g. \"100 ms\" (RFC 8289 §4.3)"));
    }
    Ok(())
}

impl QueueDiscSpec for CodelConfig {
    fn validate(&self) -> Result<(), String> {
        check_target_interval(self.target, self.interval)
    }
    fn build(&self, _capacity: &AnyCapacity, _delay: SimDuration, _rng: RngStream) -> Result<AnyQueueDisc, String> {
        self.validate()?;
        Ok(Codel::new(self.limit, CodelParams { target: self.target.0, interval: self.interval.0, ecn: self.ecn }).into())
    }
    fn drops_queued(&self) -> Option<&'static str> {
        Some("codel drops packets it has queued (at dequeue, RFC 8289 §5)")
    }
}

#[derive(Clone, Debug)]
pub struct Codel {
    limit: QueueLimit,
    params: CodelParams,
    fifo: TimedFifo,
    state: CodelState,
    /// The largest packet seen (RFC 8289 §5.3's `maxpacket_`, in bytes).
    maxpacket: u64,
    counts: CodelCounts,
}

impl Codel {
    pub fn new(limit: QueueLimit, params: CodelParams) -> Self {
        Codel { limit, params, fifo: TimedFifo::default(), state: CodelState::default(), maxpacket: 0, counts: CodelCounts::default() }
    }

    #[cfg(test)]
    pub fn state(&self) -> &CodelState {
        &self.state
    }
}

impl QueueDisc for Codel {
    // Not inlined into `AnyQueueDisc`'s dispatch, which stays small enough to inline
    // drop-tail's path into the link (issue 28's hot path).
    #[inline(never)]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: DropSink) {
        if !fits(self.limit, self.fifo.len(), self.fifo.bytes(), pkt.size) {
            return dropped(pkt);
        }
        self.maxpacket = self.maxpacket.max(pkt.size as u64);
        self.fifo.push(now, pkt);
    }

    // Not inlined into `AnyQueueDisc`'s dispatch, which stays small enough to inline
    // drop-tail's path into the link (issue 28's hot path).
    #[inline(never)]
    fn dequeue(&mut self, now: SimTime, dropped: DropSink) -> Option<Packet> {
        self.state.dequeue(now, &mut self.fifo, self.maxpacket, &self.params, dropped, &mut self.counts)
    }

    fn len(&self) -> usize {
        self.fifo.len()
    }

    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        self.fifo.drain(f);
        self.state.reset_above();
    }

    fn stats(&self, _end_s: f64) -> QueueStats {
        QueueStats { early_drops: self.counts.drops, marks: self.counts.marks, ..QueueStats::default() }
    }
}

#[cfg(test)]
#[path = "codel_tests.rs"]
mod tests;
