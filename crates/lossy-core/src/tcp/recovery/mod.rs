//! Loss recovery: how the sender finds lost segments and resends them, apart from how
//! its window grows (`cc`), so any recovery combines with any window rule (ns-3's
//! TcpRecoveryOps / TcpCongestionOps split).
//!
//! Names, one scheme for the one idea: the family is *loss recovery* — the trait
//! [`LossRecovery`], the closed list the sender holds [`AnyLossRecovery`], the scenario's
//! choice [`LossRecoveryConfig`] (its TOML key is `tcp.variant`, kept from the papers'
//! "TCP variants") — and each scheme is named after itself: [`Tahoe`], [`Reno`],
//! [`NewReno`] (the three that count duplicate ACKs, [`dupacks`]) and [`Sack`] (from
//! SACK blocks, by RFC 6675's rules or ns-2's Sack1: [`SackRules`]). "Recovery" alone
//! means the period the sender spends in it (`SenderState::in_recovery`).

pub mod dupacks;
pub mod new_reno;
pub mod reno;
pub mod sack;
pub mod tahoe;

pub use dupacks::DupackRecovery;
pub use new_reno::NewReno;
pub use reno::Reno;
pub use sack::{Sack, SackRules};
pub use tahoe::Tahoe;

use super::cc::CongestionControl;
use super::scoreboard::NextSeg;
use super::state::{SenderState, Signal};
use crate::closed::closed_enum;

pub use super::config::LossRecoveryConfig;

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

/// What loss recovery reads of an ACK at or above `snd_una`.
#[derive(Clone, Copy, Debug)]
pub struct Ack<'a> {
    /// Bytes it newly acknowledged cumulatively (0 for a duplicate).
    pub acked: u64,
    /// Its SACK blocks, absolute [start, end) (none without the SACK option).
    pub blocks: &'a [(u64, u64)],
    /// What a loss it points to is: `Loss`, or `Eln` when it carries an ELN the sender
    /// answers (the sender's `AckSignals::recovery_signal`).
    pub signal: Signal,
    /// It is marked EWLN: a wireless loss's notice, already resent, so no duplicate
    /// (Shagdar §III C).
    pub ewln: bool,
}

/// A loss recovery scheme. The sender hands it every ACK and every timeout, and asks it
/// where to send from; a scheme that keeps its own count of what is in the network (SACK)
/// also picks the segments in recovery. The defaults are those of a scheme that only
/// counts duplicate ACKs.
pub trait LossRecovery {
    /// An ACK at or above `snd_una` arrived; `st.snd_una` already includes `ack.acked`.
    fn on_ack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, ack: &Ack<'_>) -> AckOutcome;
    /// The retransmission timer expired (after the congestion control's answer).
    fn on_timeout(&mut self, st: &mut SenderState);
    /// Whether it picks the segments to send now by its own count of the bytes in the
    /// network (RFC 6675 §5 step (C)), rather than the sender by its window.
    fn picks_segments(&self, _st: &SenderState) -> bool {
        false
    }
    /// When `picks_segments`: the next segment to send, if its count leaves room.
    /// `new_data`: unsent bytes the application has and the receiver's window allows.
    fn next_segment(&mut self, _st: &SenderState, _new_data: u64) -> Option<NextSeg> {
        None
    }
    /// Where sending resumes from `seq` (go-back-N may skip what the receiver holds).
    fn resume_point(&self, seq: u64) -> u64 {
        seq
    }
    /// Bytes in [una, nxt) that no longer occupy the network (SACKed), outside recovery.
    fn sacked_below(&self, _una: u64, _nxt: u64) -> u64 {
        0
    }
    /// Whether its own limited transmit replaces RFC 3042's allowance of one segment per
    /// early duplicate ACK (RFC 6675 §5 step 3: SACKed bytes leave the pipe).
    fn limits_by_pipe(&self) -> bool {
        false
    }
    /// [seq, end) was resent on an EWLN notice: lost to the radio, already repaired.
    fn on_ewln_resend(&mut self, _seq: u64, _end: u64) {}
    /// Its count of the bytes in the network, where it keeps one (SACK's pipe).
    fn pipe(&self) -> Option<u64> {
        None
    }
    /// Every byte below this that the receiver does not hold is deemed lost (RFC 6675's
    /// IsLost); 0 for a scheme that marks no more than the segment it resends. The
    /// delivery-rate samples count these losses (`tcp/delivery_rate.rs`).
    fn lost_below(&self, _st: &SenderState) -> u64 {
        0
    }
    /// Whole-run invariant of its state against the sender's.
    fn check(&self, _st: &SenderState) -> Result<(), String> {
        Ok(())
    }
}

closed_enum! {
    /// The loss recoveries a sender can hold (a closed enum: dispatch without boxing). A
    /// new recovery is its file, one line here, and its value in `LossRecoveryConfig`.
    #[derive(Clone, Debug)]
    pub enum AnyLossRecovery via each_loss_recovery {
        Tahoe(Tahoe),
        Reno(Reno),
        NewReno(NewReno),
        // Boxed: its scoreboard (120 B) padded every NewReno sender to its size, and
        // the sender is most of an endpoint slot (issue 28; `layout_tests.rs`).
        Sack(Box<Sack>),
    }
    impl LossRecovery {
        fn on_ack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, ack: &Ack<'_>) -> AckOutcome;
        fn on_timeout(&mut self, st: &mut SenderState);
        fn picks_segments(&self, st: &SenderState) -> bool;
        fn next_segment(&mut self, st: &SenderState, new_data: u64) -> Option<NextSeg>;
        fn resume_point(&self, seq: u64) -> u64;
        fn sacked_below(&self, una: u64, nxt: u64) -> u64;
        fn limits_by_pipe(&self) -> bool;
        fn on_ewln_resend(&mut self, seq: u64, end: u64);
        fn pipe(&self) -> Option<u64>;
        fn lost_below(&self, st: &SenderState) -> u64;
        fn check(&self, st: &SenderState) -> Result<(), String>;
    }
}

impl LossRecoveryConfig {
    /// The recovery, in its initial state, for segments of `mss` bytes and DupThresh
    /// `dupack_threshold`.
    pub fn build(self, mss: u64, dupack_threshold: u32) -> AnyLossRecovery {
        match self {
            LossRecoveryConfig::Tahoe => Tahoe.into(),
            LossRecoveryConfig::Reno => Reno.into(),
            LossRecoveryConfig::Newreno => NewReno::default().into(),
            LossRecoveryConfig::Sack => AnyLossRecovery::Sack(Box::new(Sack::new(SackRules::Rfc6675, mss, dupack_threshold))),
            LossRecoveryConfig::Sack1 => AnyLossRecovery::Sack(Box::new(Sack::new(SackRules::Sack1, mss, dupack_threshold))),
        }
    }
}

/// The start of every recovery, whatever finds the loss: note the FlightSize, let the
/// congestion control answer the signal (ssthresh by RFC 5681 eq. 4 for a loss, the
/// window kept for an ELN) and count it. The caller sets cwnd and what to resend.
pub(super) fn begin_recovery(st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
    st.recovery_flight = st.reduction_flight();
    st.recovery_target = cc.on_congestion(st, signal);
    st.limited_sent = 0;
    st.recovery_cause = signal.retransmit_cause();
    st.in_recovery = true;
    count_recovery(st, signal);
}

/// A recovery began: for congestion, or for a loss notified as wireless.
pub(super) fn count_recovery(st: &mut SenderState, signal: Signal) {
    if signal.is_congestion() {
        st.counters.fast_recoveries += 1;
    } else {
        st.counters.eln_recoveries += 1;
    }
}

#[cfg(test)]
mod tests;
