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
//!
//! A new recovery is its file (the scheme, and the unit struct for its `tcp.variant`
//! value implementing [`LossRecoverySpec`]) and one line in the `family!` list below,
//! which makes its variant of [`AnyLossRecovery`] and its value of [`LossRecoveryConfig`].

pub mod dupacks;

pub use dupacks::DupackRecovery;

use super::cc::CongestionControl;
use super::scoreboard::NextSeg;
use super::state::{SenderState, Signal};
use crate::closed::family;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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

/// What each value of `tcp.variant` is: its name, whether it reads SACK blocks and the
/// recovery it builds. Implemented in each scheme's file by a unit struct named for the
/// value (`RenoChoice`), which [`LossRecoveryConfig`] dispatches to.
pub trait LossRecoverySpec {
    /// Its name as a scenario writes it.
    fn name(&self) -> &'static str;
    /// Whether its sender reads SACK blocks (and its receiver sends them).
    fn uses_sack(&self) -> bool {
        false
    }
    /// Whether `tcp.sack_after_timeout = "keep"` means anything to it (RFC 6675's
    /// scoreboard only).
    fn can_keep_sack_after_timeout(&self) -> bool {
        false
    }
    /// The recovery, in its initial state.
    fn build(&self, ctx: &RecoveryContext) -> AnyLossRecovery;
}

/// What a loss recovery may read from the rest of `tcp` when it is built.
#[derive(Clone, Copy, Debug)]
pub struct RecoveryContext {
    /// SMSS in bytes (`tcp.mss`).
    pub mss: u64,
    /// DupThresh (`tcp.dupack_threshold`).
    pub dupack_threshold: u32,
    /// What a SACK sender does with its scoreboard at a timeout (`tcp.sack_after_timeout`).
    pub sack_after_timeout: SackAfterTimeout,
}

/// What RFC 6675's sender does with the SACK information it holds when the retransmission
/// timer expires (`tcp.sack_after_timeout`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SackAfterTimeout {
    /// Drop it (RFC 2018 §8: the receiver may have reneged; RFC 6675 §5.1 keeps that
    /// rule) and relearn it from the ACKs that follow. The default.
    #[default]
    Clear,
    /// Keep it, so the go-back-N after the timeout skips what the receiver reported
    /// holding, as Linux (`tcp_enter_loss` keeps SACKed marks unless
    /// `tcp_check_sack_reneging` found reneging) and ns-3 3.44 (`TcpSocketBase::ReTxTimeout`:
    /// `resetSack = !m_sackEnabled`) do; RFC 6675 §5.1 notes implementations that keep
    /// it with tests for reneging. Our receivers never renege.
    Keep,
}

// One line per loss recovery (`closed::family!`): its module, the recovery it holds
// (none for a value that builds another's) and the value of `tcp.variant` naming it. A
// plain comment: `lossy schema` keeps the table's old name, `Variant`, and no
// description; the lines' doc comments are the schema's descriptions of the values.
family! {
    runtime {
        /// The loss recoveries a sender can hold (a closed enum: dispatch without boxing).
        #[derive(Clone, Debug)]
        pub enum AnyLossRecovery via each_loss_recovery;
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
    unit_config {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema, Default)]
        #[serde(rename_all = "snake_case")]
        #[schemars(rename = "Variant")]
        pub enum LossRecoveryConfig via each_loss_recovery_config;
        impl LossRecoverySpec {
            fn name(&self) -> &'static str;
            fn uses_sack(&self) -> bool;
            fn can_keep_sack_after_timeout(&self) -> bool;
            fn build(&self, ctx: &RecoveryContext) -> AnyLossRecovery;
        }
    }
    schemes {
        /// Fast retransmit, then slow start from one segment.
        tahoe::Tahoe(Tahoe, TahoeChoice),
        /// RFC 5681 fast retransmit and fast recovery.
        reno::Reno(Reno, RenoChoice),
        /// RFC 6582: Reno with partial-ACK handling.
        #[default]
        #[serde(rename = "newreno")]
        new_reno::NewReno(NewReno, NewRenoChoice),
        /// SACK (RFC 2018) with RFC 6675's loss recovery: scoreboard, IsLost, pipe, NextSeg.
        // Boxed: its scoreboard (120 B) padded every NewReno sender to its size, and
        // the sender is most of an endpoint slot (issue 28; `layout_tests.rs`).
        sack::Sack(Box<Sack>, SackChoice),
        /// SACK as ns-2's Agent/TCP/Sack1 recovers (the papers' "TCP-SACK"): halve once,
        /// a running pipe estimate, every hole below the highest SACK resent once.
        sack1::Sack1(_, Sack1Choice),
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
