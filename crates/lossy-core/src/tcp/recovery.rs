//! Loss recovery after duplicate ACKs: Tahoe, Reno (RFC 5681 §3.2) and NewReno
//! (RFC 6582 §3.2). The window rule is delegated to a `CongestionControl`.

use super::congestion::CongestionControl;
use crate::closed::closed_enum;
use super::state::{RetxCause, SenderState, Signal};

/// What a new (cumulative) ACK meant to recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckOutcome {
    /// Not in recovery: grow the window as usual and restart the timer.
    Normal,
    /// Still recovering (a NewReno partial ACK); no growth.
    Partial { restart_timer: bool },
    /// This ACK ended recovery; no growth on it.
    Exited,
}

pub trait LossRecovery {
    /// A duplicate ACK arrived; `st.dupacks` already counts it.
    fn on_dupack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal);
    /// `st.snd_una` has advanced by `acked` bytes.
    fn on_new_ack(&mut self, st: &mut SenderState, acked: u64) -> AckOutcome;
    fn on_timeout(&mut self, st: &mut SenderState);
}

fn cause_of(signal: Signal) -> RetxCause {
    match signal {
        Signal::Loss => RetxCause::Fast,
        Signal::Eln => RetxCause::Eln,
    }
}

/// The start of every recovery, with or without SACK: note the FlightSize, let the
/// congestion control answer the signal (ssthresh by RFC 5681 eq. 4 for a loss, the
/// window kept for an ELN) and count it. The caller sets cwnd and what to resend.
pub(super) fn begin_recovery(st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
    st.recovery_flight = st.reduction_flight();
    st.recovery_target = cc.on_congestion(st, signal);
    st.limited_sent = 0;
    st.recovery_cause = cause_of(signal);
    st.in_recovery = true;
    match signal {
        Signal::Loss => st.counters.fast_recoveries += 1,
        Signal::Eln => st.counters.eln_recoveries += 1,
    }
}

/// Fast retransmit + fast recovery entry shared by Reno and NewReno (RFC 5681 §3.2
/// steps 2-4): set ssthresh, resend the first unacknowledged segment, and inflate the
/// window by the segments that have left the network: the duplicates so far (K for a
/// loss; fewer for an ELN below K).
fn enter_fast_recovery(st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
    begin_recovery(st, cc, signal);
    st.retransmit = Some(st.recovery_cause);
    st.cwnd = st.recovery_target + st.dupacks as u64 * st.mss;
}

/// TCP Tahoe: fast retransmit, then slow start from one segment (no fast recovery).
/// Like ns-2's Tahoe (`bugfix_`), a second fast retransmit waits until everything sent
/// before the first is acknowledged.
#[derive(Clone, Debug, Default)]
pub struct Tahoe;

impl LossRecovery for Tahoe {
    fn on_dupack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
        if !st.recovery_due(signal) || st.recover.is_some_and(|r| st.snd_una < r) {
            return;
        }
        st.recover = Some(st.snd_max);
        st.recovery_flight = st.reduction_flight();
        let target = cc.on_congestion(st, signal);
        st.limited_sent = 0;
        match signal {
            Signal::Loss => {
                st.counters.fast_recoveries += 1;
                // RFC 5681 §3.2 note: Tahoe sets cwnd to 1 SMSS and slow-starts.
                st.cwnd = st.mss;
                st.go_back_n(RetxCause::Fast);
            }
            Signal::Eln => {
                // Resend the lost segment only and keep the window (Chen Fig. 1 line 20).
                st.counters.eln_recoveries += 1;
                st.cwnd = target;
                st.retransmit = Some(RetxCause::Eln);
            }
        }
    }

    fn on_new_ack(&mut self, _st: &mut SenderState, _acked: u64) -> AckOutcome {
        AckOutcome::Normal
    }

    fn on_timeout(&mut self, st: &mut SenderState) {
        st.recover = Some(st.snd_max);
    }
}

/// TCP Reno, RFC 5681 §3.2: fast recovery ends at the first ACK of new data.
#[derive(Clone, Debug, Default)]
pub struct Reno;

impl LossRecovery for Reno {
    fn on_dupack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
        if st.in_recovery {
            // RFC 5681 §3.2 step 4: each further duplicate ACK inflates cwnd by SMSS.
            st.cwnd += st.mss;
        } else if st.recovery_due(signal) {
            enter_fast_recovery(st, cc, signal);
        }
    }

    fn on_new_ack(&mut self, st: &mut SenderState, _acked: u64) -> AckOutcome {
        if !st.in_recovery {
            return AckOutcome::Normal;
        }
        // RFC 5681 §3.2 step 6: deflate to ssthresh on the next ACK of new data.
        st.cwnd = st.recovery_target;
        st.in_recovery = false;
        AckOutcome::Exited
    }

    fn on_timeout(&mut self, st: &mut SenderState) {
        st.in_recovery = false;
    }
}

/// TCP NewReno, RFC 6582 §3.2: stays in recovery until everything outstanding when it
/// began (`recover`) is acknowledged, resending one segment per partial ACK.
#[derive(Clone, Debug, Default)]
pub struct NewReno {
    first_partial_seen: bool,
}

impl LossRecovery for NewReno {
    fn on_dupack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
        if st.in_recovery {
            // RFC 6582 §3.2 step 3: inflate by SMSS per further duplicate ACK.
            st.cwnd += st.mss;
            return;
        }
        // RFC 6582 §3.2 step 1: enter only if the cumulative ACK covers more than recover.
        if !st.recovery_due(signal) || st.recover.is_some_and(|r| st.snd_una < r) {
            return;
        }
        // Step 2: recover = highest sequence number transmitted.
        st.recover = Some(st.snd_max);
        self.first_partial_seen = false;
        enter_fast_recovery(st, cc, signal);
    }

    fn on_new_ack(&mut self, st: &mut SenderState, acked: u64) -> AckOutcome {
        if !st.in_recovery {
            return AckOutcome::Normal;
        }
        let recover = st.recover.unwrap_or(st.snd_max);
        if st.snd_una >= recover {
            // Full ACK, RFC 6582 §3.2 step 3 option 1: cwnd = min(ssthresh, max(FlightSize, SMSS) + SMSS).
            // After an ELN recovery the window was never cut, so it returns whole.
            st.cwnd = match st.recovery_cause {
                RetxCause::Eln => st.recovery_target,
                _ => st.recovery_target.min(st.flight_size().max(st.mss) + st.mss),
            };
            st.in_recovery = false;
            return AckOutcome::Exited;
        }
        // Partial ACK, RFC 6582 §3.2 step 3: resend the first unacknowledged segment,
        // deflate by the amount acknowledged, add back one SMSS if at least one was acked.
        st.retransmit = Some(st.recovery_cause);
        st.cwnd = st.cwnd.saturating_sub(acked);
        if acked >= st.mss {
            st.cwnd += st.mss;
        }
        st.cwnd = st.cwnd.max(st.mss);
        // Reset the retransmission timer on the first partial ACK only.
        let restart_timer = !self.first_partial_seen;
        self.first_partial_seen = true;
        AckOutcome::Partial { restart_timer }
    }

    fn on_timeout(&mut self, st: &mut SenderState) {
        // RFC 6582 §3.2 step 4: after a timeout, recover = highest sent; leave recovery.
        st.recover = Some(st.snd_max);
        st.in_recovery = false;
    }
}

closed_enum! {
    /// The recovery schemes a scenario can pick.
    #[derive(Clone, Debug)]
    pub enum Recovery via each_recovery {
        Tahoe(Tahoe),
        Reno(Reno),
        NewReno(NewReno),
    }
}

impl LossRecovery for Recovery {
    fn on_dupack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
        each_recovery!(self, r => r.on_dupack(st, cc, signal))
    }
    fn on_new_ack(&mut self, st: &mut SenderState, acked: u64) -> AckOutcome {
        each_recovery!(self, r => r.on_new_ack(st, acked))
    }
    fn on_timeout(&mut self, st: &mut SenderState) {
        each_recovery!(self, r => r.on_timeout(st))
    }
}

#[cfg(test)]
mod tests {
    use super::super::congestion::Aimd;
    use super::*;

    /// Ten segments of 1000 B outstanding, cwnd 10 segments.
    fn outstanding() -> SenderState {
        let mut st = SenderState::new(1000, 10_000, 1 << 30, 3);
        st.snd_nxt = 10_000;
        st.snd_max = 10_000;
        st
    }

    fn dupacks(r: &mut dyn LossRecovery, st: &mut SenderState, n: u32, signal: Signal) {
        for _ in 0..n {
            st.dupacks += 1;
            r.on_dupack(st, &mut Aimd, signal);
        }
    }

    #[test]
    fn reno_fast_retransmit_on_the_third_duplicate_and_inflates() {
        let mut st = outstanding();
        let mut r = Reno;
        dupacks(&mut r, &mut st, 2, Signal::Loss);
        assert_eq!(st.retransmit, None);
        dupacks(&mut r, &mut st, 1, Signal::Loss);
        assert_eq!(st.retransmit, Some(RetxCause::Fast));
        // ssthresh = 10 000 / 2; cwnd = ssthresh + 3·SMSS.
        assert_eq!((st.ssthresh, st.cwnd), (5000, 8000));
        dupacks(&mut r, &mut st, 2, Signal::Loss);
        assert_eq!(st.cwnd, 10_000);
        st.snd_una = 1000;
        assert_eq!(r.on_new_ack(&mut st, 1000), AckOutcome::Exited);
        assert_eq!(st.cwnd, 5000);
        assert!(!st.in_recovery);
    }

    #[test]
    fn dupack_threshold_is_configurable() {
        let mut st = outstanding();
        st.dupack_threshold = 2;
        let mut r = Reno;
        dupacks(&mut r, &mut st, 2, Signal::Loss);
        assert_eq!(st.retransmit, Some(RetxCause::Fast));
        assert_eq!(st.cwnd, 5000 + 2000);
    }

    #[test]
    fn tahoe_goes_back_to_one_segment() {
        let mut st = outstanding();
        let mut r = Tahoe;
        dupacks(&mut r, &mut st, 3, Signal::Loss);
        assert_eq!((st.cwnd, st.ssthresh, st.snd_nxt), (1000, 5000, 0));
        assert_eq!(st.go_back_cause, RetxCause::Fast);
        // More duplicates from the same window do not trigger again.
        dupacks(&mut r, &mut st, 3, Signal::Loss);
        assert_eq!(st.counters.fast_recoveries, 1);
    }

    #[test]
    fn newreno_partial_ack_retransmits_and_deflates() {
        let mut st = outstanding();
        let mut r = NewReno::default();
        dupacks(&mut r, &mut st, 3, Signal::Loss);
        st.retransmit = None;
        assert_eq!(st.recover, Some(10_000));
        // Partial ACK of 2000 B: cwnd = 8000 − 2000 + 1000.
        st.snd_una = 2000;
        assert_eq!(r.on_new_ack(&mut st, 2000), AckOutcome::Partial { restart_timer: true });
        assert_eq!(st.cwnd, 7000);
        assert_eq!(st.retransmit, Some(RetxCause::Fast));
        // The second partial ACK does not restart the timer.
        st.snd_una = 2500;
        assert_eq!(r.on_new_ack(&mut st, 500), AckOutcome::Partial { restart_timer: false });
        assert_eq!(st.cwnd, 6500);
        assert!(st.in_recovery);
    }

    #[test]
    fn newreno_full_ack_sets_cwnd_from_flight() {
        let mut st = outstanding();
        let mut r = NewReno::default();
        dupacks(&mut r, &mut st, 3, Signal::Loss);
        // New data sent during recovery; then the full ACK covers recover = 10 000.
        st.snd_max = 13_000;
        st.snd_una = 10_000;
        assert_eq!(r.on_new_ack(&mut st, 10_000), AckOutcome::Exited);
        // min(ssthresh 5000, max(3000, 1000) + 1000) = 4000.
        assert_eq!(st.cwnd, 4000);
    }

    #[test]
    fn newreno_does_not_reenter_before_recover_is_acked() {
        let mut st = outstanding();
        let mut r = NewReno::default();
        dupacks(&mut r, &mut st, 3, Signal::Loss);
        st.snd_max = 12_000;
        st.snd_una = 10_000;
        let _ = r.on_new_ack(&mut st, 10_000);
        // A timeout sets recover to HighData; duplicate ACKs below it are ignored.
        r.on_timeout(&mut st);
        assert_eq!(st.recover, Some(12_000));
        st.dupacks = 0;
        dupacks(&mut r, &mut st, 3, Signal::Loss);
        assert!(!st.in_recovery);
        assert_eq!(st.counters.fast_recoveries, 1);
    }

    #[test]
    fn eln_recovery_keeps_the_window() {
        let mut st = outstanding();
        let mut r = NewReno::default();
        dupacks(&mut r, &mut st, 3, Signal::Eln);
        assert_eq!(st.retransmit, Some(RetxCause::Eln));
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
    /// `TcpSender::handle_timeout`).
    fn timeout_after_inflation(r: &mut dyn LossRecovery, signal: Signal) -> SenderState {
        let mut st = outstanding();
        dupacks(r, &mut st, 33, signal);
        assert!(st.in_recovery);
        st.snd_max += 30_000;
        st.snd_nxt = st.snd_max;
        Aimd.on_timeout(&mut st, false);
        r.on_timeout(&mut st);
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
        let mut st = outstanding();
        dupacks(&mut Tahoe, &mut st, 3, Signal::Eln);
        assert_eq!(st.recovery_flight, 10_000);
        let mut st = outstanding();
        dupacks(&mut Tahoe, &mut st, 3, Signal::Loss);
        assert_eq!(st.recovery_flight, 10_000);
    }
}
