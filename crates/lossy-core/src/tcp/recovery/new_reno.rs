//! TCP NewReno's loss recovery, RFC 6582 §3.2: Reno's, staying in recovery until
//! everything outstanding when it began is acknowledged.

use super::dupacks::{enter_fast_recovery, DupackRecovery};
use super::{AckOutcome, AnyLossRecovery, LossRecoverySpec, RecoveryContext};
use crate::tcp::cc::CongestionControl;
use crate::tcp::state::{RetxCause, SenderState, Signal};

/// TCP NewReno, RFC 6582 §3.2: stays in recovery until everything outstanding when it
/// began (`recover`) is acknowledged, resending one segment per partial ACK.
#[derive(Clone, Debug, Default)]
pub struct NewReno {
    first_partial_seen: bool,
}

impl DupackRecovery for NewReno {
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

    fn after_timeout(&mut self, st: &mut SenderState) {
        // RFC 6582 §3.2 step 4: after a timeout, recover = highest sent; leave recovery.
        st.recover = Some(st.snd_max);
        st.in_recovery = false;
    }
}

/// `tcp.variant = "newreno"` (the default).
#[derive(Clone, Copy, Debug)]
pub struct NewRenoChoice;

impl LossRecoverySpec for NewRenoChoice {
    fn name(&self) -> &'static str {
        "newreno"
    }
    fn build(&self, _ctx: &RecoveryContext) -> AnyLossRecovery {
        NewReno::default().into()
    }
}

#[cfg(test)]
mod tests {
    use super::super::dupacks::testing::{dupacks, outstanding};
    use super::*;

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
        r.after_timeout(&mut st);
        assert_eq!(st.recover, Some(12_000));
        st.dupacks = 0;
        dupacks(&mut r, &mut st, 3, Signal::Loss);
        assert!(!st.in_recovery);
        assert_eq!(st.counters.fast_recoveries, 1);
    }
}
