//! BBRv3's ProbeBW cycle and its long-term bound (draft-ietf-ccwg-bbr-06 §5.3.3.9 with
//! §5.5.10.2): DOWN (pace at 0.9 until the flight is below the BDP and the headroom),
//! CRUISE (1.0 until it is time to probe: a random 2-3 s of wall clock, or a
//! Reno-coexistence count of rounds), REFILL (1.0 for one round with the short-term
//! bounds lifted), UP (1.25, raising inflight_longterm 1, 2, 4, ... segments a round until
//! the bandwidth plateaus or loss exceeds BBR.LossThresh), then DOWN again.

use super::{AckPhase, Bbr3, State, UNSET};
use crate::tcp::rate_sample::RateSample;
use crate::tcp::state::SenderState;
use crate::time::{SimDuration, SimTime};

/// The draft §5.3.3.8 IsRenoCoexistenceProbeTime's cap on the rounds between probes.
const MAX_RENO_ROUNDS: u64 = 63;

impl Bbr3 {
    /// §5.3.3.9 IsInAProbeBWState.
    pub(super) fn in_probe_bw(&self) -> bool {
        matches!(self.state, State::ProbeBwDown | State::ProbeBwCruise | State::ProbeBwRefill | State::ProbeBwUp)
    }

    /// §5.3.3.9 IsProbingBW.
    pub(super) fn is_probing_bw(&self) -> bool {
        matches!(self.state, State::Startup | State::ProbeBwRefill | State::ProbeBwUp)
    }

    /// §5.3.3.9 EnterProbeBW.
    pub(super) fn enter_probe_bw(&mut self, now: SimTime) {
        self.cwnd_gain = self.cfg.cwnd_gain;
        self.start_probe_bw_down(now);
    }

    /// §5.3.3.9 StartProbeBW_DOWN: a new cycle, its wait to the next probe drawn afresh.
    pub(super) fn start_probe_bw_down(&mut self, now: SimTime) {
        self.reset_congestion_signals();
        self.probe_up_acked_per_inc = UNSET;
        self.pick_probe_wait();
        self.cycle_stamp = now;
        self.ack_phase = AckPhase::ProbeStopping;
        self.start_round();
        self.set_state(State::ProbeBwDown);
    }

    /// §5.3.3.9 StartProbeBW_REFILL: the short-term model is dropped (§3.4.2.3).
    fn start_probe_bw_refill(&mut self) {
        self.reset_short_term_model();
        self.bw_probe_up_rounds = 0;
        self.bw_probe_up_acked = 0;
        self.prev_probe_precautionary = false;
        self.ack_phase = AckPhase::Refilling;
        self.start_round();
        self.set_state(State::ProbeBwRefill);
    }

    /// §5.3.3.9 StartProbeBW_UP.
    fn start_probe_bw_up(&mut self, st: &SenderState, rs: &RateSample) {
        self.ack_phase = AckPhase::ProbeStarting;
        self.start_round();
        self.reset_full_bw();
        self.full_bw = rs.delivery_rate;
        self.set_state(State::ProbeBwUp);
        self.raise_inflight_longterm_slope(st);
    }

    /// §5.5.10.3 ResetCongestionSignals.
    fn reset_congestion_signals(&mut self) {
        self.is_loss_in_round = false;
        self.bw_latest = 0.0;
        self.inflight_latest = 0;
    }

    /// §5.3.3.8 PickProbeWait: 0 or 1 rounds already counted, and 2 s plus a uniform
    /// 0..1 s of wall clock, from the flow's own stream.
    fn pick_probe_wait(&mut self) {
        self.rounds_since_probe_up = (self.rng.uniform() * 2.0) as u64;
        self.bw_probe_wait = SimDuration::from_secs_f64(2.0 + self.rng.uniform());
    }

    /// §5.3.3.8 TargetInflight: the BDP, unless congestion cut the window below it.
    pub(super) fn target_inflight(&self, st: &SenderState) -> u64 {
        self.bdp(self.bw).min(st.cwnd)
    }

    /// §5.3.3.8 IsTimeToProbeBW: the wall-clock wait is over, or as many rounds as a
    /// Reno flow would take to grow by the target flight in segments (at most 63).
    fn is_time_to_probe_bw(&mut self, st: &SenderState, now: SimTime) -> bool {
        let reno_rounds = (self.target_inflight(st) / self.mss).min(MAX_RENO_ROUNDS);
        if now > self.cycle_stamp + self.bw_probe_wait || self.rounds_since_probe_up >= reno_rounds {
            self.start_probe_bw_refill();
            return true;
        }
        false
    }

    /// §5.3.3.9 IsTimeToCruise: the bytes in the network before this ACK are within the
    /// headroom and the BDP. Google's v3 `bbr_update_cycle_phase` hands
    /// `bbr_check_time_to_cruise` `rs->prior_in_flight` (`tcp_packets_in_flight` before
    /// the ACK), not the FlightSize.
    fn is_time_to_cruise(&self, rs: &RateSample) -> bool {
        let inflight = rs.prior_in_flight;
        inflight <= self.inflight_with_headroom() && inflight <= self.inflight(self.max_bw(), 1.0)
    }

    /// §5.3.3.9 IsTimeToGoDown: the precautionary stop at inflight_longterm (the bytes in
    /// the network before this ACK, `rs->prior_in_flight` as Google's v3
    /// `bbr_update_cycle_phase` reads in BBR_BW_PROBE_UP), or the bandwidth plateaued
    /// while not held back by inflight_longterm.
    fn is_time_to_go_down(&mut self, st: &SenderState, rs: &RateSample) -> bool {
        if self.prev_probe_too_high && rs.prior_in_flight >= self.inflight_longterm {
            self.prev_probe_precautionary = true;
            return true;
        }
        if self.is_cwnd_limited() && st.cwnd >= self.inflight_longterm {
            self.reset_full_bw();
            self.full_bw = rs.delivery_rate;
        } else if self.full_bw_now {
            return true;
        }
        false
    }

    /// §2.2 C.is_cwnd_limited: the flight reached the window in the last round.
    pub(super) fn is_cwnd_limited(&self) -> bool {
        self.cwnd_limited_now || self.cwnd_limited_last_round
    }

    /// §5.3.3.9 InflightWithHeadroom: inflight_longterm less max(1 segment, 15 %).
    pub(super) fn inflight_with_headroom(&self) -> u64 {
        if self.inflight_longterm == UNSET {
            return UNSET;
        }
        let headroom = self.mss.max((self.cfg.headroom * self.inflight_longterm as f64) as u64);
        self.inflight_longterm.saturating_sub(headroom).max(self.min_pipe_cwnd())
    }

    /// §5.3.3.9 RaiseInflightLongtermSlope: 1, 2, 4, ... segments a round.
    fn raise_inflight_longterm_slope(&mut self, st: &SenderState) {
        let growth_this_round = 1u64 << self.bw_probe_up_rounds;
        self.bw_probe_up_rounds = (self.bw_probe_up_rounds + 1).min(30);
        self.probe_up_acked_per_inc = (st.cwnd / growth_this_round).max(self.mss);
    }

    /// §5.3.3.9 ProbeInflightLongtermUpward: one segment per probe_up_acked_per_inc
    /// acknowledged while the window is full at inflight_longterm.
    fn probe_inflight_longterm_upward(&mut self, st: &SenderState, rs: &RateSample) {
        if !self.is_cwnd_limited() || st.cwnd < self.inflight_longterm {
            return;
        }
        self.bw_probe_up_acked += rs.newly_acked;
        if self.bw_probe_up_acked >= self.probe_up_acked_per_inc {
            let delta = self.bw_probe_up_acked / self.probe_up_acked_per_inc;
            self.bw_probe_up_acked -= delta * self.probe_up_acked_per_inc;
            self.inflight_longterm = self.inflight_longterm.saturating_add(delta * self.mss);
        }
        if self.round_start {
            self.raise_inflight_longterm_slope(st);
        }
    }

    /// §5.3.3.9 AdaptLongTermModel: the ACK phase, the max_bw filter's cycle, the
    /// precautionary re-probe, and inflight_longterm raised while the loss rate is safe.
    /// Returns whether it decided a state transition.
    fn adapt_long_term_model(&mut self, st: &SenderState, rs: &RateSample) -> bool {
        if self.ack_phase == AckPhase::ProbeStarting && self.round_start {
            self.ack_phase = AckPhase::ProbeFeedback;
        }
        if self.ack_phase == AckPhase::ProbeStopping && self.round_start {
            self.is_bw_probe_sample = false;
            self.ack_phase = AckPhase::Init;
            if self.in_probe_bw() && !rs.is_app_limited {
                self.cycle_count += 1; // AdvanceMaxBwFilter
            }
            if self.in_probe_bw() && self.prev_probe_precautionary && !self.prev_probe_too_high {
                self.start_probe_bw_refill();
                return true;
            }
        }
        if !self.is_inflight_too_high(rs) {
            if self.inflight_longterm == UNSET {
                return false;
            }
            self.inflight_longterm = self.inflight_longterm.max(rs.tx_in_flight);
            if self.state == State::ProbeBwUp {
                self.probe_inflight_longterm_upward(st, rs);
            }
        }
        false
    }

    /// §5.3.3.9 UpdateProbeBWCyclePhase.
    pub(super) fn update_probe_bw_cycle_phase(&mut self, st: &SenderState, now: SimTime, rs: &RateSample) {
        if !self.full_bw_reached || self.adapt_long_term_model(st, rs) || !self.in_probe_bw() {
            return;
        }
        let state = self.state;
        match state {
            State::ProbeBwDown if !self.is_time_to_probe_bw(st, now) && self.is_time_to_cruise(rs) => {
                self.set_state(State::ProbeBwCruise);
            }
            State::ProbeBwCruise => {
                self.is_time_to_probe_bw(st, now);
            }
            // After one round of REFILL, UP.
            State::ProbeBwRefill if self.round_start => {
                self.is_bw_probe_sample = true;
                self.start_probe_bw_up(st, rs);
            }
            State::ProbeBwUp if self.is_time_to_go_down(st, rs) => {
                self.prev_probe_too_high = false;
                self.start_probe_bw_down(now);
            }
            _ => {}
        }
    }

    /// §5.5.10.2 HandleInflightTooHigh: once per probe, inflight_longterm to
    /// max(tx_in_flight, β·TargetInflight); UP ends.
    pub(super) fn handle_inflight_too_high(&mut self, st: &SenderState, now: SimTime, rs: &RateSample) {
        self.prev_probe_too_high = true;
        self.is_bw_probe_sample = false;
        if !rs.is_app_limited {
            let floor = (self.target_inflight(st) as f64 * self.cfg.beta) as u64;
            self.inflight_longterm = rs.tx_in_flight.max(floor);
        }
        if self.state == State::ProbeBwUp {
            self.start_probe_bw_down(now);
        }
    }
}
