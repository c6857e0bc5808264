//! BBRv3's controls and its short-term model (draft-ietf-ccwg-bbr-06 §5.6 and
//! §5.5.10.3): the pacing rate (gain·bw, 1 % below), the send quantum and the offload
//! budget it sets, and the window: grown by what is delivered towards cwnd_gain·BDP plus
//! the aggregation estimate, capped by ProbeRTT and by the long- and short-term bounds.

use super::{Bbr3, State, MIN_PIPE_SEGMENTS, PROBE_RTT_CWND_GAIN, UNSET};
use crate::tcp::rate_sample::RateSample;
use crate::tcp::state::SenderState;
use crate::time::SimDuration;

/// Linux tcp_bbr.c `bbr_extra_acked_max_us`: the aggregation allowance's cap in time at bw.
const EXTRA_ACKED_MAX: SimDuration = SimDuration::from_millis(100);
/// §5.6.3 SetSendQuantum's bounds: 1 ms of pacing, at most 64 KB.
const QUANTUM_MAX: u64 = 64 * 1024;

impl Bbr3 {
    pub(super) fn min_pipe_cwnd(&self) -> u64 {
        MIN_PIPE_SEGMENTS * self.mss
    }

    /// §2.9.2 BBR.bdp at the rate `bw`; 0 before an RTT sample.
    pub(super) fn bdp(&self, bw: f64) -> u64 {
        self.min_rtt.map_or(0, |m| (bw * m.as_secs_f64()) as u64)
    }

    /// §5.6.4.2 BDPMultiple: the initial window before any RTT sample.
    fn bdp_multiple(&self, bw: f64, gain: f64) -> u64 {
        match self.min_rtt {
            None => self.initial_window,
            Some(_) => (gain * self.bdp(bw) as f64) as u64,
        }
    }

    /// §5.6.4.2 QuantizationBudget with §5.5.8.1's TCP offload budget (3 send quanta).
    fn quantization_budget(&self, cap: u64) -> u64 {
        let cap = cap.max(3 * self.send_quantum).max(self.min_pipe_cwnd());
        cap + if self.state == State::ProbeBwUp { 2 * self.mss } else { 0 }
    }

    /// §5.6.4.2 Inflight(bw, gain).
    pub(super) fn inflight(&self, bw: f64, gain: f64) -> u64 {
        self.quantization_budget(self.bdp_multiple(bw, gain))
    }

    /// §5.6.4.2 UpdateMaxInflight: cwnd_gain·BDP plus the aggregation estimate, the
    /// latter at most 100 ms at bw (Linux tcp_bbr.c `bbr_ack_aggregation_cwnd`; the draft
    /// caps it at cwnd only, which lets it grow the window by itself while bw is held
    /// below the ACK rate by bw_shortterm: docs/mechanisms/bbr3.md).
    pub(super) fn max_inflight(&self) -> u64 {
        let extra_acked = (self.extra_acked_filter.get() as u64).min((self.bw * EXTRA_ACKED_MAX.as_secs_f64()) as u64);
        self.quantization_budget(self.bdp_multiple(self.bw, self.cwnd_gain) + extra_acked)
    }

    /// §5.6.4.5 ProbeRTTCwnd: half a BDP, at least MinPipeCwnd.
    pub(super) fn probe_rtt_cwnd(&self) -> u64 {
        self.bdp_multiple(self.bw, PROBE_RTT_CWND_GAIN).max(self.min_pipe_cwnd())
    }

    /// §5.6.2 SetPacingRate: gain·bw less the margin, raised only until the pipe is
    /// full; the first RTT sample restarts it at StartupPacingGain·InitialCwnd/RTT
    /// (InitPacingRate with C.srtt).
    pub(super) fn set_pacing_rate(&mut self, rs: &RateSample) {
        if !self.has_seen_rtt {
            if let Some(rtt) = rs.rtt.filter(|r| r.0 > 0) {
                self.has_seen_rtt = true;
                self.pacing_rate = self.cfg.startup_pacing_gain * self.initial_window as f64 / rtt.as_secs_f64();
            }
        }
        let rate = self.pacing_gain * self.bw * (1.0 - self.cfg.pacing_margin);
        if rate > 0.0 && (self.full_bw_reached || rate > self.pacing_rate) {
            self.pacing_rate = rate;
        }
    }

    /// §5.6.3 SetSendQuantum: 1 ms at the pacing rate within [2 SMSS, 64 KB]. Nothing
    /// here sends in bursts; the quantum sets the offload budget of the window.
    pub(super) fn set_send_quantum(&mut self) {
        let quantum = (self.pacing_rate * 1e-3) as u64;
        self.send_quantum = quantum.min(QUANTUM_MAX).max(2 * self.mss);
    }

    /// §5.6.4.6 SetCwnd with §5.6.4.4's restore after a recovery or a timeout. In a
    /// recovery the window is the recovery's (it holds the FlightSize at its start, as
    /// `bbr` does).
    pub(super) fn set_cwnd(&mut self, st: &mut SenderState, rs: &RateSample) {
        if rs.newly_acked == 0 || st.in_recovery {
            return;
        }
        let restore = std::mem::take(&mut self.recovering) || self.timeout_until.is_some_and(|p| st.snd_una >= p);
        if restore {
            self.timeout_until = None;
            st.cwnd = st.cwnd.max(self.prior_cwnd);
        }
        let max_inflight = self.max_inflight();
        let mut cwnd = st.cwnd;
        if self.full_bw_reached {
            cwnd = (cwnd + rs.newly_acked).min(max_inflight);
        } else if cwnd < max_inflight || self.delivered < self.initial_window {
            cwnd += rs.newly_acked;
        }
        cwnd = cwnd.max(self.min_pipe_cwnd());
        if self.state == State::ProbeRtt {
            cwnd = cwnd.min(self.probe_rtt_cwnd());
        }
        cwnd = cwnd.min(self.model_cap());
        st.cwnd = cwnd.min(st.max_cwnd.max(self.min_pipe_cwnd()));
    }

    /// §5.6.4.7 BoundCwndForModel's cap: inflight_longterm in ProbeBW (less the
    /// headroom in CRUISE and ProbeRTT), inflight_shortterm, never below MinPipeCwnd.
    pub(super) fn model_cap(&self) -> u64 {
        let cap = if self.in_probe_bw() && self.state != State::ProbeBwCruise {
            self.inflight_longterm
        } else if matches!(self.state, State::ProbeRtt | State::ProbeBwCruise) {
            self.inflight_with_headroom()
        } else {
            UNSET
        };
        cap.min(self.inflight_shortterm).max(self.min_pipe_cwnd())
    }

    /// §5.5.10.3 AdaptLowerBoundsFromCongestion: once per round with loss, outside
    /// probing, bw_shortterm and inflight_shortterm fall to max(latest, β·themselves).
    pub(super) fn adapt_lower_bounds_from_congestion(&mut self, st: &SenderState) {
        if self.is_probing_bw() || !self.is_loss_in_round {
            return;
        }
        if self.bw_shortterm.is_infinite() {
            self.bw_shortterm = self.max_bw();
        }
        if self.inflight_shortterm == UNSET {
            self.inflight_shortterm = st.cwnd;
        }
        self.bw_shortterm = self.bw_latest.max(self.cfg.beta * self.bw_shortterm);
        self.inflight_shortterm = self.inflight_latest.max((self.cfg.beta * self.inflight_shortterm as f64) as u64);
    }

    /// §5.5.10.3 ResetShortTermModel.
    pub(super) fn reset_short_term_model(&mut self) {
        self.bw_shortterm = f64::INFINITY;
        self.inflight_shortterm = UNSET;
    }

    /// §5.5.10.3 BoundBWForModel.
    pub(super) fn bound_bw_for_model(&mut self) {
        self.bw = self.max_bw().min(self.bw_shortterm);
    }
}
