//! An RTT sample on every ACK that acknowledges new data, for a congestion control that
//! needs more than the sender's one timed segment per round trip (RFC 6298 §3). Linux
//! hands `pkts_acked` the RTT of the most recently sent segment the ACK covers
//! (tcp_input.c `tcp_clean_rtx_queue`: `ca_rtt_us` from `last_ackt`); ns-3 keeps a send
//! history (tcp-socket-base.cc `EstimateRtt`, `m_history`, `m_lastRtt` from the latest
//! transmitted segment acked). This is that history: the send time of each segment of
//! new data, forgotten once acknowledged. Karn (RFC 6298 §3): a resent segment gives no
//! sample, so a retransmission drops its record.

use crate::time::{SimDuration, SimTime};
use std::collections::VecDeque;

/// Send times of the unacknowledged segments of new data.
#[derive(Clone, Debug, Default)]
pub struct AckRtt {
    /// (one past the segment's last byte, when it was sent), in sequence order.
    sent: VecDeque<(u64, SimTime)>,
    /// One past the highest byte recorded: only data above it is new.
    highest: u64,
    /// One past the highest byte forgotten (the start of the first record).
    floor: u64,
}

impl AckRtt {
    /// [seq, seq + len) left at `now`: new data is recorded; a resend forgets the
    /// records it overlaps (Karn).
    pub fn on_send(&mut self, now: SimTime, seq: u64, len: u64, retransmission: bool) {
        let end = seq + len;
        if retransmission || seq < self.highest {
            let mut start = self.floor;
            self.sent.retain(|&(e, _)| {
                let keep = e <= seq || start >= end;
                start = e;
                keep
            });
        } else {
            self.sent.push_back((end, now));
        }
        self.highest = self.highest.max(end);
    }

    /// An ACK at `now` moved snd_una to `una`, newly acknowledging `acked` bytes: the
    /// round trip of the most recently sent segment among them, if one was recorded.
    /// Records below `una` acknowledged earlier (by ACKs the caller did not pass on,
    /// such as those in recovery) are dropped without a sample.
    pub fn on_ack(&mut self, now: SimTime, una: u64, acked: u64) -> Option<SimDuration> {
        let from = una.saturating_sub(acked);
        let mut newest = None;
        while let Some(&(end, sent)) = self.sent.front() {
            if end > una {
                break;
            }
            if end > from {
                newest = Some(sent);
            }
            self.floor = end;
            self.sent.pop_front();
        }
        self.floor = self.floor.max(una);
        newest.map(|t| now - t)
    }

    /// A retransmission timeout: everything outstanding will be sent again.
    pub fn clear(&mut self) {
        self.sent.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(m: u64) -> SimTime {
        SimTime::ZERO + SimDuration::from_millis(m)
    }

    #[test]
    fn an_ack_samples_the_newest_segment_it_covers() {
        let mut r = AckRtt::default();
        for k in 0..4 {
            r.on_send(ms(k), k * 1000, 1000, false);
        }
        // A delayed ACK of the first two segments: the second one's round trip.
        assert_eq!(r.on_ack(ms(31), 2000, 2000), Some(SimDuration::from_millis(30)));
        assert_eq!(r.on_ack(ms(33), 3000, 1000), Some(SimDuration::from_millis(31)));
    }

    #[test]
    fn a_resent_segment_gives_no_sample() {
        let mut r = AckRtt::default();
        for k in 0..3 {
            r.on_send(ms(k), k * 1000, 1000, false);
        }
        r.on_send(ms(50), 0, 1000, true);
        assert_eq!(r.on_ack(ms(80), 1000, 1000), None);
        // The next segment was not resent: it still gives its sample.
        assert_eq!(r.on_ack(ms(81), 2000, 1000), Some(SimDuration::from_millis(80)));
    }

    #[test]
    fn segments_acknowledged_unseen_give_no_late_sample() {
        let mut r = AckRtt::default();
        for k in 0..4 {
            r.on_send(ms(k), k * 1000, 1000, false);
        }
        // snd_una reached 3000 by ACKs not passed on; this ACK covers only [3000, 4000).
        assert_eq!(r.on_ack(ms(90), 4000, 1000), Some(SimDuration::from_millis(87)));
        assert!(r.sent.is_empty());
    }

    #[test]
    fn after_a_timeout_only_new_data_is_timed() {
        let mut r = AckRtt::default();
        r.on_send(ms(0), 0, 1000, false);
        r.on_send(ms(1), 1000, 1000, false);
        r.clear();
        r.on_send(ms(1000), 0, 1000, true);
        r.on_send(ms(1001), 1000, 1000, true);
        r.on_send(ms(1002), 2000, 1000, false);
        assert_eq!(r.on_ack(ms(1030), 2000, 2000), None);
        assert_eq!(r.on_ack(ms(1032), 3000, 1000), Some(SimDuration::from_millis(30)));
    }
}
