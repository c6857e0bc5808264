//! BBRv3's Startup and Drain (draft-ietf-ccwg-bbr-06 §5.3.1-5.3.2): the pipe is full after
//! three rounds without 25 % growth, or on excessive loss; Drain paces at 0.5 until the
//! flight is one BDP, or for 3 rounds at most.

use super::{Bbr3, State, STARTUP_FULL_LOSS_COUNT};
use crate::tcp::rate_sample::RateSample;
use crate::tcp::state::SenderState;
use crate::time::SimTime;

impl Bbr3 {
    /// §5.3.1.2 ResetFullBW.
    pub(super) fn reset_full_bw(&mut self) {
        self.full_bw = 0.0;
        self.full_bw_count = 0;
        self.full_bw_now = false;
    }

    /// §5.3.1.2 CheckFullBWReached: three non-app-limited rounds without 25 % growth.
    pub(super) fn check_full_bw_reached(&mut self, rs: &RateSample) {
        if self.full_bw_now || !self.round_start || rs.is_app_limited {
            return;
        }
        if rs.delivery_rate >= self.full_bw * 1.25 {
            self.reset_full_bw();
            self.full_bw = rs.delivery_rate;
            return;
        }
        self.full_bw_count += 1;
        self.full_bw_now = self.full_bw_count >= 3;
        self.full_bw_reached |= self.full_bw_now;
    }

    /// §5.3.1 CheckStartupDone with §5.3.1.3 CheckStartupHighLoss.
    pub(super) fn check_startup_done(&mut self, st: &SenderState, rs: &RateSample) {
        if self.state == State::Startup && !self.full_bw_reached && self.startup_loss_too_high(st, rs) {
            self.full_bw_reached = true;
            self.inflight_longterm = self.bdp(self.bw).max(self.inflight_latest);
        }
        if self.state == State::Startup && self.full_bw_reached {
            self.set_state(State::Drain);
            self.drain_start_round = self.round_count;
        }
    }

    /// §5.3.1.3: with SACK, at the end of a loss round after a full round in fast
    /// recovery, more than LossThresh lost and at least 6 loss events in the round (the
    /// events are the ACKs that marked losses, as Linux's `loss_events_in_round`); without
    /// SACK, any loss detected in fast recovery.
    fn startup_loss_too_high(&self, st: &SenderState, rs: &RateSample) -> bool {
        if !st.in_recovery {
            return false;
        }
        if !self.sack {
            return rs.newly_lost > 0;
        }
        let full_round = self.recovery_round.is_some_and(|r| self.round_count > r);
        self.loss_round_start && full_round && self.loss_events_in_round >= STARTUP_FULL_LOSS_COUNT && self.is_inflight_too_high(rs)
    }

    /// §5.3.2 CheckDrainDone: the bytes in the network are down to one BDP, or three
    /// rounds have passed. Google's v3 `bbr_check_drain` reads `tcp_packets_in_flight`
    /// after the ACK (`rs.in_flight`: not what was SACKed, nor what a timeout or the
    /// recovery marked lost and did not resend), not the FlightSize.
    pub(super) fn check_drain_done(&mut self, now: SimTime, rs: &RateSample) {
        if self.state == State::Drain && (rs.in_flight <= self.inflight(self.bw, 1.0) || self.round_count > self.drain_start_round + 3) {
            self.enter_probe_bw(now);
        }
    }
}
