//! BBRv3's min_rtt and ProbeRTT (draft-ietf-ccwg-bbr-06 §5.3.4): probe_rtt_min_delay
//! over 5 s schedules ProbeRTT, min_rtt over 10 s follows it; ProbeRTT holds half a BDP
//! for 200 ms and a round, then returns to ProbeBW_CRUISE (or Startup).

use super::{AckPhase, Bbr3, State, MIN_RTT_FILTER_LEN, PROBE_RTT_DURATION, PROBE_RTT_INTERVAL};
use crate::tcp::rate_sample::RateSample;
use crate::tcp::state::SenderState;
use crate::time::SimTime;

impl Bbr3 {
    /// §5.3.4.3 UpdateMinRTT: probe_rtt_min_delay over 5 s (a strictly lower sample, or
    /// any once expired), min_rtt over 10 s from it.
    pub(super) fn update_min_rtt(&mut self, now: SimTime, rs: &RateSample) {
        self.probe_rtt_expired = now > self.probe_rtt_min_stamp + PROBE_RTT_INTERVAL;
        if let Some(rtt) = rs.rtt {
            if self.probe_rtt_min_delay.is_none_or(|d| rtt < d) || self.probe_rtt_expired {
                self.probe_rtt_min_delay = Some(rtt);
                self.probe_rtt_min_stamp = now;
            }
        }
        let min_rtt_expired = now > self.min_rtt_stamp + MIN_RTT_FILTER_LEN;
        if let Some(d) = self.probe_rtt_min_delay {
            if self.min_rtt.is_none_or(|m| d < m) || min_rtt_expired {
                self.min_rtt = Some(d);
                self.min_rtt_stamp = self.probe_rtt_min_stamp;
            }
        }
    }

    /// §5.3.4.3 CheckProbeRTT (there is no restart from idle here: bulk senders).
    pub(super) fn check_probe_rtt(&mut self, st: &mut SenderState, now: SimTime, rs: &RateSample) {
        if self.state != State::ProbeRtt && self.probe_rtt_expired {
            self.set_state(State::ProbeRtt);
            self.save_cwnd(st);
            self.probe_rtt_done_stamp = None;
            self.ack_phase = AckPhase::ProbeStopping;
            self.start_round();
        }
        if self.state == State::ProbeRtt {
            self.handle_probe_rtt(st, now, rs);
        }
    }

    /// §5.3.4.3 HandleProbeRTT: once the bytes in the network are down to ProbeRTTCwnd,
    /// hold for 200 ms and a round. Google's v3 `bbr_update_min_rtt` compares
    /// `tcp_packets_in_flight` after the ACK (`rs.in_flight`), not the FlightSize.
    fn handle_probe_rtt(&mut self, st: &mut SenderState, now: SimTime, rs: &RateSample) {
        match self.probe_rtt_done_stamp {
            None if rs.in_flight <= self.probe_rtt_cwnd() => {
                self.probe_rtt_done_stamp = Some(now + PROBE_RTT_DURATION);
                self.probe_rtt_round_done = false;
                self.start_round();
            }
            None => {}
            Some(done) => {
                self.probe_rtt_round_done |= self.round_start;
                if self.probe_rtt_round_done && now > done {
                    self.probe_rtt_min_stamp = now;
                    st.cwnd = st.cwnd.max(self.prior_cwnd);
                    self.exit_probe_rtt(now);
                }
            }
        }
    }

    /// §5.3.4.4 ExitProbeRTT.
    fn exit_probe_rtt(&mut self, now: SimTime) {
        self.reset_short_term_model();
        if self.full_bw_reached {
            self.start_probe_bw_down(now);
            self.set_state(State::ProbeBwCruise);
        } else {
            self.set_state(State::Startup);
        }
    }
}
