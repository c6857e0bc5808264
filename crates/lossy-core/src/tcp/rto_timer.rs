//! The sender's retransmission timer (RFC 6298 §5) and the one segment it times for an
//! RTT sample (Karn's algorithm, RFC 6298 §3). The RTO itself is `rtt.rs`'s.

use crate::time::{SimDuration, SimTime};

#[derive(Clone, Debug, Default)]
pub(super) struct RetransmitTimer {
    /// When it expires; `None` while stopped.
    pub deadline: Option<SimTime>,
    /// snd_una when it last expired, to spot repeated expiry (RFC 5681 §3.1).
    pub last_expiry_una: Option<u64>,
    /// The one segment being timed: (its end sequence, when it was sent). Karn: cleared
    /// by any retransmission so a sample never comes from a resent segment.
    timing: Option<(u64, SimTime)>,
}

impl RetransmitTimer {
    /// A cumulative ACK of `ack` arrived at `now`: the round trip of the timed segment,
    /// if this acknowledges it.
    pub fn sample(&mut self, now: SimTime, ack: u64) -> Option<SimDuration> {
        let (end, sent) = self.timing?;
        if ack < end {
            return None;
        }
        self.timing = None;
        Some(now - sent)
    }

    /// A segment ending at `end` goes out at `now`: new data is timed if no segment is;
    /// a retransmission stops the timing (Karn).
    pub fn on_send(&mut self, now: SimTime, end: u64, retransmission: bool) {
        if retransmission {
            self.timing = None;
        } else if self.timing.is_none() {
            self.timing = Some((end, now));
        }
    }

    /// RFC 6298 §5.1: start the timer when sending data if it is not running.
    pub fn start_if_stopped(&mut self, now: SimTime, rto: SimDuration) {
        if self.deadline.is_none() {
            self.deadline = Some(now + rto);
        }
    }

    /// The timer expired with `una` unacknowledged: whether it already expired for this
    /// segment (RFC 5681 §3.1 holds ssthresh then). Karn: the resends that follow are
    /// not timed.
    pub fn expired(&mut self, una: u64) -> bool {
        let repeated = self.last_expiry_una == Some(una);
        self.last_expiry_una = Some(una);
        self.timing = None;
        repeated
    }
}
