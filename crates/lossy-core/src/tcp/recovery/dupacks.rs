//! The recoveries that find losses from duplicate ACKs alone (RFC 5681 §3.2): Tahoe,
//! Reno and NewReno. They read an ACK the same way — it acknowledges new data, or it is
//! a duplicate — and differ in what they do on each ([`DupackRecovery`]), so each is a
//! `LossRecovery` through the one reading here.

use super::{begin_recovery, Ack, AckOutcome, LossRecovery};
use crate::tcp::cc::CongestionControl;
use crate::tcp::state::{SenderState, Signal};

/// A recovery driven by duplicate ACKs.
pub trait DupackRecovery {
    /// A duplicate ACK arrived; `st.dupacks` already counts it.
    fn on_dupack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal);
    /// `st.snd_una` has advanced by `acked` bytes.
    fn on_new_ack(&mut self, st: &mut SenderState, acked: u64) -> AckOutcome;
    /// The retransmission timer expired.
    fn after_timeout(&mut self, st: &mut SenderState);
}

impl<R: DupackRecovery> LossRecovery for R {
    fn on_ack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, ack: &Ack<'_>) -> AckOutcome {
        if ack.acked > 0 {
            return self.on_new_ack(st, ack.acked);
        }
        // RFC 5681 §2: a duplicate ACK acknowledges nothing new while data is
        // outstanding. One marked EWLN reports a wireless loss, already resent.
        if st.snd_una < st.snd_max && !ack.ewln {
            st.dupacks += 1;
            self.on_dupack(st, cc, ack.signal);
        }
        AckOutcome::Normal
    }

    fn on_timeout(&mut self, st: &mut SenderState) {
        self.after_timeout(st);
    }
}

/// Fast retransmit + fast recovery entry shared by Reno and NewReno (RFC 5681 §3.2
/// steps 2-4): set ssthresh, resend the first unacknowledged segment, and inflate the
/// window by the segments that have left the network: the duplicates so far (K for a
/// loss; fewer for an ELN below K).
pub(super) fn enter_fast_recovery(st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
    begin_recovery(st, cc, signal);
    st.retransmit = Some(st.recovery_cause);
    st.cwnd = st.recovery_target + st.dupacks as u64 * st.mss;
}

#[cfg(test)]
pub(super) mod testing {
    use super::*;
    use crate::tcp::cc::Aimd;

    /// Ten segments of 1000 B outstanding, cwnd 10 segments.
    pub fn outstanding() -> SenderState {
        let mut st = SenderState::new(1000, 10_000, 1 << 30, 3);
        st.snd_nxt = 10_000;
        st.snd_max = 10_000;
        st
    }

    pub fn dupacks(r: &mut dyn DupackRecovery, st: &mut SenderState, n: u32, signal: Signal) {
        for _ in 0..n {
            st.dupacks += 1;
            r.on_dupack(st, &mut Aimd, signal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{dupacks, outstanding};
    use super::*;
    use crate::tcp::cc::Aimd;
    use crate::tcp::recovery::{NewReno, Reno, Tahoe};

    fn ack(acked: u64, signal: Signal, ewln: bool) -> Ack<'static> {
        Ack { acked, blocks: &[], signal, ewln }
    }

    #[test]
    fn a_duplicate_counts_only_while_data_is_outstanding_and_not_when_marked_ewln() {
        let mut st = outstanding();
        let mut r = Reno;
        r.on_ack(&mut st, &mut Aimd, &ack(0, Signal::Loss, true));
        assert_eq!(st.dupacks, 0, "an EWLN notice is no duplicate");
        r.on_ack(&mut st, &mut Aimd, &ack(0, Signal::Loss, false));
        assert_eq!(st.dupacks, 1);
        st.snd_una = st.snd_max;
        r.on_ack(&mut st, &mut Aimd, &ack(0, Signal::Loss, false));
        assert_eq!(st.dupacks, 1, "nothing outstanding: a window update, no duplicate");
    }

    #[test]
    fn eln_recovery_keeps_the_window() {
        let mut st = outstanding();
        let mut r = NewReno::default();
        dupacks(&mut r, &mut st, 3, Signal::Eln);
        assert_eq!(st.retransmit, Some(crate::tcp::state::RetxCause::Eln));
        assert_eq!(st.counters.window_reductions, 0);
        st.snd_una = 10_000;
        assert_eq!(r.on_new_ack(&mut st, 10_000), AckOutcome::Exited);
        assert_eq!(st.cwnd, 10_000, "NewReno+ELN returns to the window it had");

        let mut st = outstanding();
        let mut reno = Reno;
        dupacks(&mut reno, &mut st, 3, Signal::Eln);
        st.snd_una = 1000;
        let _ = reno.on_new_ack(&mut st, 1000);
        assert_eq!(st.cwnd, 10_000, "Reno+ELN returns to the window it had");
    }

    /// Enters recovery at FlightSize 10 segments, then 30 more duplicate ACKs inflate cwnd
    /// and 30 new segments go out; then the timer expires (congestion rule first, as in
    /// `TcpSender::on_rto`).
    fn timeout_after_inflation(r: &mut dyn DupackRecovery, signal: Signal) -> SenderState {
        let mut st = outstanding();
        dupacks(r, &mut st, 33, signal);
        assert!(st.in_recovery);
        st.snd_max += 30_000;
        st.snd_nxt = st.snd_max;
        Aimd.on_timeout(&mut st, false);
        r.after_timeout(&mut st);
        st
    }

    #[test]
    fn timeout_in_fast_recovery_keeps_the_entry_ssthresh() {
        // RFC 5681 §3.1: ssthresh no more than eq. 4, here from the 10 segments at entry
        // rather than the 40 in flight at the timeout.
        let st = timeout_after_inflation(&mut Reno, Signal::Loss);
        assert_eq!((st.ssthresh, st.cwnd, st.recovery_flight), (5000, 1000, 10_000));
        assert!(!st.in_recovery);
        let st = timeout_after_inflation(&mut NewReno::default(), Signal::Loss);
        assert_eq!((st.ssthresh, st.cwnd), (5000, 1000));
        assert!(!st.in_recovery);
    }

    #[test]
    fn timeout_in_eln_recovery_halves_the_entry_flight_size() {
        // ELN did not cut the window at entry; the timeout halves the 10 segments then.
        let st = timeout_after_inflation(&mut Reno, Signal::Eln);
        assert_eq!((st.ssthresh, st.cwnd), (5000, 1000));
        let st = timeout_after_inflation(&mut NewReno::default(), Signal::Eln);
        assert_eq!((st.ssthresh, st.cwnd), (5000, 1000));
    }

    #[test]
    fn every_fast_retransmit_records_the_flight_size() {
        for signal in [Signal::Eln, Signal::Loss] {
            for r in [&mut Tahoe as &mut dyn DupackRecovery, &mut Reno, &mut NewReno::default()] {
                let mut st = outstanding();
                dupacks(r, &mut st, 3, signal);
                assert_eq!(st.recovery_flight, 10_000, "{signal:?}");
            }
        }
    }
}
