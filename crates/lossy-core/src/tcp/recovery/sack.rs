//! Loss recovery driven by SACK blocks, in two readings:
//!
//! - `variant = "sack"`: RFC 6675 §5 as written. A duplicate ACK is one that SACKs new
//!   data (§2); recovery starts at DupThresh of them or when IsLost(HighACK + 1);
//!   ssthresh = cwnd = FlightSize/2 (§5 step 4.2, by the congestion control); while
//!   cwnd − pipe ≥ 1 SMSS, NextSeg's segments go out, pipe from SetPipe on every ACK.
//! - `variant = "sack1"`: ns-2's `Agent/TCP/Sack1` (tcp-sack1.cc with its default
//!   ScoreBoardRQ), the "TCP-SACK" the papers ran. Recovery starts at the third ACK that
//!   adds SACK information without advancing; cwnd is halved once (no inflation); pipe
//!   is a running estimate — FlightSize − 3 segments at entry, one segment less per ACK,
//!   one more less per partial ACK, plus what is sent — and sending goes on while
//!   pipe < cwnd; every hole below the highest SACK counts as lost (no IsLost) and is
//!   resent once, else new data within the receiver's window; the scoreboard is cleared
//!   on a new ACK outside recovery and after a timeout, which then goes back N resending
//!   everything. One reading differs from ns-2: the window halves FlightSize (RFC 5681
//!   eq. 4, as our Reno does) where ns-2 halves min(cwnd, rwnd); in bulk transfers they
//!   are the same.
//!
//! Both leave recovery when the cumulative ACK reaches RecoveryPoint (HighData at entry),
//! keep cwnd at ssthresh, and after a timeout start no recovery until everything sent
//! before it is acknowledged (RFC 6675 §5.1). RFC 6675's sender drops its SACK state at
//! the timeout (RFC 2018 §8: the receiver may have reneged) and then relearns it from
//! the ACKs that follow, so its go-back-N skips what they report held.

use super::{begin_recovery, Ack, AckOutcome, AnyLossRecovery, LossRecovery, LossRecoverySpec, RecoveryContext, SackAfterTimeout};
use crate::tcp::cc::CongestionControl;
use crate::tcp::scoreboard::{NextSeg, Rule, Scoreboard};
use crate::tcp::state::{SenderState, Signal};

/// Whose rules a SACK sender recovers by (the two readings above).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SackRules {
    /// RFC 6675 §5 as written (`variant = "sack"`).
    Rfc6675,
    /// ns-2's `Agent/TCP/Sack1` (`variant = "sack1"`).
    Sack1,
}

/// Loss recovery from SACK blocks: a scoreboard of what the receiver holds, a count of
/// what is in the network (pipe), and the segments it picks in recovery.
#[derive(Clone, Debug)]
pub struct Sack {
    rules: SackRules,
    pub sb: Scoreboard,
    /// RecoveryPoint, one past HighData when the last recovery or timeout began.
    recovery_point: Option<u64>,
    /// In recovery, the bytes in the network: SetPipe (RFC 6675) or ns-2's estimate.
    pipe: u64,
    /// The first retransmission of a recovery is due whatever pipe says (§5 step 4.3).
    first_due: bool,
    /// Keep the scoreboard at a timeout (`tcp.sack_after_timeout = "keep"`).
    keep_after_timeout: bool,
}

impl Sack {
    pub fn new(rules: SackRules, mss: u64, dupthresh: u32) -> Self {
        Sack { rules, sb: Scoreboard::new(mss, dupthresh), recovery_point: None, pipe: 0, first_due: false, keep_after_timeout: false }
    }

    /// An ACK arrived; `st.snd_una` already includes the `acked` bytes it newly
    /// acknowledged cumulatively; `blocks` are its SACK blocks (absolute). `ewln`: it is
    /// marked EWLN, a wireless loss's notice, and counts as no duplicate (Shagdar §III C).
    fn read_ack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, blocks: &[(u64, u64)], acked: u64, signal: Signal, ewln: bool) -> AckOutcome {
        let newly_sacked = self.sb.update(st.snd_una, st.snd_max, blocks);
        if st.in_recovery {
            return self.during_recovery(st, acked);
        }
        let duplicate = match self.rules {
            // RFC 6675 §2: an ACK that SACKs new data is a duplicate, even if it also
            // advances the cumulative ACK (which reset DupAcks first, §5).
            SackRules::Rfc6675 => newly_sacked > 0,
            // ns-2: a new ACK outside recovery clears the scoreboard; a duplicate is a
            // repeated ACK whose blocks changed the scoreboard (`CheckUpdate`).
            SackRules::Sack1 if acked > 0 => {
                self.sb.clear();
                false
            }
            SackRules::Sack1 => newly_sacked > 0,
        };
        if !duplicate {
            return AckOutcome::Normal;
        }
        // EWLN (Shagdar §III C): an ACK marked EWLN reports a wireless loss, resent on its
        // notice; it counts as no duplicate, and a hole resent on EWLN is lost but not
        // congested: recovery starts only for a hole that is not one (`congestion_hole`).
        if !ewln {
            st.dupacks += 1;
        }
        let dupthresh = st.dupack_threshold;
        let triggered = self.sb.congestion_hole(st.snd_una).is_some_and(|hole| match self.rules {
            // §5 steps (1) and (2): IsLost(HighACK + 1), HighACK past the EWLN holes.
            SackRules::Rfc6675 => (!ewln && st.dupacks >= dupthresh) || self.sb.is_lost(hole),
            SackRules::Sack1 => !ewln && st.dupacks == dupthresh,
        });
        // §5.1 (and RFC 6582's `recover` for ns-2's bugfix): no new recovery until the
        // last one's RecoveryPoint is acknowledged.
        let allowed = self.recovery_point.is_none_or(|r| st.snd_una >= r);
        if !(triggered && allowed) {
            return AckOutcome::Normal;
        }
        self.enter(st, cc, signal);
        AckOutcome::Partial { restart_timer: acked > 0 }
    }

    /// §5 step (4): RecoveryPoint = HighData; ssthresh = cwnd = FlightSize/2; the
    /// segment at HighACK is resent first.
    fn enter(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, signal: Signal) {
        self.recovery_point = Some(st.snd_max);
        begin_recovery(st, cc, signal);
        st.cwnd = st.recovery_target;
        self.sb.high_rxt = st.snd_una;
        self.sb.rescue_rxt = None;
        self.first_due = true;
        self.pipe = match self.rules {
            SackRules::Rfc6675 => self.sb.pipe(st.snd_una, st.snd_max),
            // ns-2 dupack_action: maxseq − highest_ack − numdupacks.
            SackRules::Sack1 => st.flight_size().saturating_sub(st.dupack_threshold as u64 * st.mss),
        };
    }

    fn during_recovery(&mut self, st: &mut SenderState, acked: u64) -> AckOutcome {
        let recovery_point = self.recovery_point.unwrap_or(st.snd_max);
        if st.snd_una >= recovery_point {
            // §5 step (A): recovery ends; cwnd stays at ssthresh (an ELN kept it).
            st.in_recovery = false;
            st.cwnd = st.recovery_target;
            self.first_due = false;
            if self.rules == SackRules::Sack1 {
                self.sb.clear();
            }
            return AckOutcome::Exited;
        }
        self.pipe = match self.rules {
            // §5 step (B.2).
            SackRules::Rfc6675 => self.sb.pipe(st.snd_una, st.snd_max),
            // ns-2 Sack1::recv: one segment less per ACK, another per partial ACK.
            SackRules::Sack1 => {
                let left = if acked > 0 { 2 } else { 1 };
                self.pipe.saturating_sub(left * st.mss)
            }
        };
        // RFC 6298 §5.3: every ACK of new data restarts the timer (ns-2 Sack1 too).
        AckOutcome::Partial { restart_timer: acked > 0 }
    }
}

impl LossRecovery for Sack {
    fn on_ack(&mut self, st: &mut SenderState, cc: &mut dyn CongestionControl, ack: &Ack<'_>) -> AckOutcome {
        self.read_ack(st, cc, ack.blocks, ack.acked, ack.signal, ack.ewln)
    }

    /// In recovery it picks every segment (§5 step (C)), pipe against cwnd.
    fn picks_segments(&self, st: &SenderState) -> bool {
        st.in_recovery
    }

    /// In recovery, the next segment to send if the window allows one: §5 step (C) with
    /// NextSeg (RFC 6675), or ns-2's send_much. `new_data`: unsent bytes the application
    /// has and the receiver's window allows.
    fn next_segment(&mut self, st: &SenderState, new_data: u64) -> Option<NextSeg> {
        let recovery_point = self.recovery_point.unwrap_or(st.snd_max);
        let seg = if std::mem::take(&mut self.first_due) {
            // HighACK + 1, or the first hole above it that EWLN has not resent.
            let seg = self.sb.segment_from(self.sb.skip_held(st.snd_una), st.snd_max);
            // §5 step (4.3): HighRxt and RescueRxt both to the end of this segment.
            self.sb.rescue_rxt = Some(seg.seq + seg.len);
            seg
        } else {
            let room = match self.rules {
                SackRules::Rfc6675 => st.cwnd >= self.pipe + st.mss,
                SackRules::Sack1 => self.pipe < st.cwnd,
            };
            if !room {
                return None;
            }
            match self.rules {
                SackRules::Rfc6675 => self.sb.next_seg(st.snd_una, st.snd_max, new_data)?,
                SackRules::Sack1 => match self.sb.first_hole(st.snd_una, st.snd_max) {
                    Some(hole) => hole,
                    None if new_data > 0 => NextSeg { seq: st.snd_max, len: new_data.min(st.mss), rule: Rule::NewData },
                    None => return None,
                },
            }
        };
        if seg.len == 0 {
            return None;
        }
        self.sb.on_sent(seg, recovery_point);
        // §5 step (C.4).
        self.pipe += seg.len;
        Some(seg)
    }

    /// The retransmission timer expired: recovery ends, RecoveryPoint = HighData, and
    /// the SACK state is dropped (RFC 6675 §5.1, RFC 2018 §8) unless kept as Linux and
    /// ns-3 keep it (`tcp.sack_after_timeout = "keep"`).
    fn on_timeout(&mut self, st: &mut SenderState) {
        self.recovery_point = Some(st.snd_max);
        st.in_recovery = false;
        self.first_due = false;
        if !self.keep_after_timeout {
            self.sb.clear();
        }
    }

    /// Where go-back-N resends from `seq`: past what the receiver reported holding
    /// (RFC 6675), or at `seq` (ns-2 resends everything).
    fn resume_point(&self, seq: u64) -> u64 {
        match self.rules {
            SackRules::Rfc6675 => self.sb.skip_sacked(seq),
            SackRules::Sack1 => seq,
        }
    }

    /// SACKed bytes in [una, nxt) that no longer occupy the network outside recovery:
    /// RFC 6675's pipe view, used by its limited transmit (§5 step 3) and after a
    /// timeout; ns-2's Sack1 counts the plain window there.
    fn sacked_below(&self, una: u64, nxt: u64) -> u64 {
        match self.rules {
            SackRules::Rfc6675 => self.sb.sacked_between(una, nxt),
            SackRules::Sack1 => 0,
        }
    }

    /// RFC 6675: IsLost's bound; ns-2's Sack1: in recovery every hole below the highest
    /// SACK counts as lost.
    fn lost_below(&self, st: &SenderState) -> u64 {
        match self.rules {
            SackRules::Rfc6675 => self.sb.lost_limit(),
            SackRules::Sack1 if st.in_recovery => self.sb.highest_sacked(),
            SackRules::Sack1 => 0,
        }
    }

    /// RFC 6675's limited transmit is by pipe (§5 step 3); ns-2's Sack1 keeps RFC 3042's.
    fn limits_by_pipe(&self) -> bool {
        self.rules == SackRules::Rfc6675
    }

    fn on_ewln_resend(&mut self, seq: u64, end: u64) {
        self.sb.on_ewln_resend(seq, end);
    }

    fn pipe(&self) -> Option<u64> {
        Some(self.pipe)
    }

    fn check(&self, st: &SenderState) -> Result<(), String> {
        self.sb.check(st.snd_una, st.snd_max)
    }
}

/// `tcp.variant = "sack"`: RFC 6675's rules.
#[derive(Clone, Copy, Debug)]
pub struct SackChoice;

impl LossRecoverySpec for SackChoice {
    fn name(&self) -> &'static str {
        "sack"
    }
    fn uses_sack(&self) -> bool {
        true
    }
    fn can_keep_sack_after_timeout(&self) -> bool {
        true
    }
    fn build(&self, ctx: &RecoveryContext) -> AnyLossRecovery {
        let mut sack = Sack::new(SackRules::Rfc6675, ctx.mss, ctx.dupack_threshold);
        sack.keep_after_timeout = ctx.sack_after_timeout == SackAfterTimeout::Keep;
        sack.into()
    }
}

#[cfg(test)]
#[path = "sack_tests.rs"]
mod tests;
