//! TCP Tahoe: fast retransmit, then slow start from one segment (RFC 5681 §3.2 note;
//! no fast recovery).

use super::dupacks::DupackRecovery;
use super::{count_recovery, AckOutcome, AnyLossRecovery, LossRecoverySpec, RecoveryContext};
use crate::tcp::cc::CongestionControl;
use crate::tcp::state::{RetxCause, SenderState, Signal};

/// TCP Tahoe: fast retransmit, then slow start from one segment (no fast recovery).
/// Like ns-2's Tahoe (`bugfix_`), a second fast retransmit waits until everything sent
/// before the first is acknowledged.
#[derive(Clone, Debug, Default)]
pub struct Tahoe;

impl DupackRecovery for Tahoe {
    fn on_dupack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
        if !st.recovery_due(signal) || st.recover.is_some_and(|r| st.snd_una < r) {
            return;
        }
        st.recover = Some(st.snd_max);
        st.recovery_flight = st.reduction_flight();
        let target = cc.on_congestion(st, signal);
        st.limited_sent = 0;
        count_recovery(st, signal);
        if signal.is_congestion() {
            // RFC 5681 §3.2 note: Tahoe sets cwnd to 1 SMSS and slow-starts.
            st.cwnd = st.mss;
            st.go_back_n(RetxCause::Fast);
        } else {
            // Resend the lost segment only and keep the window (Chen Fig. 1 line 20).
            st.cwnd = target;
            st.retransmit = Some(signal.retransmit_cause());
        }
    }

    fn on_new_ack(&mut self, _st: &mut SenderState, _acked: u64) -> AckOutcome {
        AckOutcome::Normal
    }

    fn after_timeout(&mut self, st: &mut SenderState) {
        st.recover = Some(st.snd_max);
    }
}

/// `tcp.variant = "tahoe"`.
#[derive(Clone, Copy, Debug)]
pub struct TahoeChoice;

impl LossRecoverySpec for TahoeChoice {
    fn name(&self) -> &'static str {
        "tahoe"
    }
    fn build(&self, _ctx: &RecoveryContext) -> AnyLossRecovery {
        Tahoe.into()
    }
}

#[cfg(test)]
mod tests {
    use super::super::dupacks::testing::{dupacks, outstanding};
    use super::*;

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
    fn tahoe_resends_only_the_segment_an_eln_names_and_keeps_the_window() {
        let mut st = outstanding();
        st.eln_threshold = 1;
        dupacks(&mut Tahoe, &mut st, 1, Signal::Eln);
        assert_eq!((st.cwnd, st.snd_nxt, st.retransmit), (10_000, 10_000, Some(RetxCause::Eln)));
        assert_eq!((st.counters.eln_recoveries, st.counters.window_reductions), (1, 0));
    }
}
