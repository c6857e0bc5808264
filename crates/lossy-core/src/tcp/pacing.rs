//! Pacing: a segment leaves no earlier than the previous departure plus the previous
//! segment's length over the rate the congestion control asks for
//! (`CongestionControl::pacing_rate`). Linux's earliest-departure-time model
//! (net/ipv4/tcp_output.c `tcp_update_skb_after_send`: the segment is stamped with
//! `tp->tcp_wstamp_ns`, which then advances by `skb->len * NSEC_PER_SEC / sk_pacing_rate`;
//! net/sched/sch_fq.c holds it until that time): the sender decides a segment as the
//! window allows, and one segment whose departure lies ahead waits here until then.
//! The wait is the sender's one extra deadline, reported through its one timer beside
//! the retransmission timer, so each paced departure costs one wake-up and nothing else.
//! Two Linux details are left out (docs/mechanisms/tcp-pacing-rate-sampling.md): the
//! first ten segments unpaced, and the half-segment credit after an idle gap.

use crate::packet::Packet;
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Debug, Default)]
pub struct Pacer {
    /// The earliest departure of the next segment (`tcp_wstamp_ns`); `None` unpaced.
    next: Option<SimTime>,
    /// The decided segment waiting for its departure time.
    held: Option<(SimTime, Packet)>,
}

impl Pacer {
    /// When a segment of `len` bytes decided at `now` leaves, at `rate` bytes/s (`None`,
    /// or a rate that is not a positive number: at once, and pacing stops).
    pub fn departure(&mut self, now: SimTime, len: u64, rate: Option<f64>) -> SimTime {
        let Some(rate) = rate.filter(|r| r.is_finite() && *r > 0.0) else {
            self.next = None;
            return now;
        };
        let at = self.next.map_or(now, |n| n.max(now));
        // Rounded up: never earlier than size/rate after the previous departure.
        let gap = ((len as f64) * 1e9 / rate).ceil().min(u64::MAX as f64) as u64;
        self.next = Some(at + SimDuration::from_nanos(gap));
        at
    }

    /// Keeps `pkt` until `at`.
    pub fn hold(&mut self, at: SimTime, pkt: Packet) {
        debug_assert!(self.held.is_none(), "one segment waits at a time");
        self.held = Some((at, pkt));
    }

    /// Whether a segment waits (the sender decides no other meanwhile).
    pub fn holding(&self) -> bool {
        self.held.is_some()
    }

    /// The waiting segment, if its time has come.
    pub fn release(&mut self, now: SimTime) -> Option<Packet> {
        match self.held {
            Some((at, pkt)) if at <= now => {
                self.held = None;
                Some(pkt)
            }
            _ => None,
        }
    }

    /// The waiting segment's departure time: the sender's wake-up for it.
    pub fn wake_at(&self) -> Option<SimTime> {
        self.held.map(|(at, _)| at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(seq: u64) -> Packet {
        Packet::tcp_data(0, 0, 1, seq, 1000, 1040)
    }

    #[test]
    fn departures_are_spaced_by_size_over_rate() {
        // 1000 B at 1 MB/s: 1 ms apart, from the first decision on.
        let mut p = Pacer::default();
        let t0 = SimTime(5);
        let d: Vec<_> = (0..3).map(|_| p.departure(t0, 1000, Some(1e6))).collect();
        assert_eq!(d, [t0, t0 + SimDuration::from_millis(1), t0 + SimDuration::from_millis(2)]);
    }

    #[test]
    fn an_idle_gap_is_not_saved_up_and_no_rate_stops_pacing() {
        let mut p = Pacer::default();
        p.departure(SimTime(0), 1000, Some(1e6));
        // Decided long after the last departure was due: leaves at once.
        let late = SimTime(10_000_000);
        assert_eq!(p.departure(late, 1000, Some(1e6)), late);
        assert_eq!(p.departure(late, 1000, None), late);
        assert_eq!(p.departure(late, 1000, Some(1e6)), late, "no pacing debt kept across None");
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(p.departure(late, 1000, Some(bad)), late, "{bad}");
        }
    }

    #[test]
    fn a_held_segment_leaves_at_its_time_not_before() {
        let mut p = Pacer::default();
        p.hold(SimTime(100), pkt(0));
        assert!(p.holding());
        assert_eq!(p.wake_at(), Some(SimTime(100)));
        assert!(p.release(SimTime(99)).is_none());
        assert_eq!(p.release(SimTime(100)).map(|q| q.size), Some(1040));
        assert!(!p.holding());
        assert_eq!(p.wake_at(), None);
    }
}
