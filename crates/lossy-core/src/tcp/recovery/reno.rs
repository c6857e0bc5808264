//! TCP Reno's loss recovery, RFC 5681 §3.2: fast retransmit and fast recovery, which
//! ends at the first ACK of new data.

use super::dupacks::{enter_fast_recovery, DupackRecovery};
use super::{AckOutcome, AnyLossRecovery, LossRecoverySpec, RecoveryContext};
use crate::tcp::cc::CongestionControl;
use crate::tcp::state::{SenderState, Signal};

/// TCP Reno, RFC 5681 §3.2: fast recovery ends at the first ACK of new data.
#[derive(Clone, Debug, Default)]
pub struct Reno;

impl DupackRecovery for Reno {
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

    fn after_timeout(&mut self, st: &mut SenderState) {
        st.in_recovery = false;
    }
}

/// `tcp.variant = "reno"`.
#[derive(Clone, Copy, Debug)]
pub struct RenoChoice;

impl LossRecoverySpec for RenoChoice {
    fn name(&self) -> &'static str {
        "reno"
    }
    fn build(&self, _ctx: &RecoveryContext) -> AnyLossRecovery {
        Reno.into()
    }
}

#[cfg(test)]
mod tests {
    use super::super::dupacks::testing::{dupacks, outstanding};
    use super::*;
    use crate::tcp::state::RetxCause;

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
}
