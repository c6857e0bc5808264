//! `cc = "bbr3"`: BBR version 3 as draft-ietf-ccwg-bbr-06 (6 July 2026, "the draft"
//! below) specifies it.
//!
//! The model: BBR.max_bw (a windowed max of the delivery rate over the current and the
//! previous ProbeBW cycle, `bbr_filters.rs`), BBR.min_rtt (10 s) beside the 5 s
//! probe_rtt_min_delay that schedules ProbeRTT, a long-term bound on the flight
//! (inflight_longterm, set where a bandwidth probe met more than 2 % loss) and short-term
//! bounds (bw_shortterm, inflight_shortterm, cut by β = 0.7 per round with loss outside
//! probing). The state machine: Startup (pacing gain 2.77, left on a bandwidth plateau or
//! on excessive loss), Drain (0.5), ProbeBW's DOWN / CRUISE / REFILL / UP cycle
//! (`bbr3_probe_bw.rs`), ProbeRTT (half a BDP every 5 s, `bbr3_probe_rtt.rs`); the loss
//! signals are in `bbr3_signals.rs`. The controls — pacing rate,
//! send quantum, window — are in `bbr3_control.rs`. Everything runs on the delivery-rate
//! samples (`on_rate_sample`, the draft §5.2.3 UpdateOnACK); docs/mechanisms/bbr3.md has
//! the readings chosen where the draft leaves the transport to decide.

#[path = "bbr3_control.rs"]
mod control;
#[path = "bbr3_probe_bw.rs"]
mod probe_bw;
#[path = "bbr3_startup.rs"]
mod startup;
#[path = "bbr3_probe_rtt.rs"]
mod probe_rtt;
#[path = "bbr3_signals.rs"]
mod signals;

use super::bbr::bbr_filters::WindowedMax;
use super::{AnyCongestionControl, CcContext, CcSpec, CongestionControl};
use crate::rng::RngStream;
use crate::tcp::rate_sample::RateSample;
use crate::tcp::state::{SenderState, Signal};
use crate::time::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The draft §5.3.1.1 BBR.StartupPacingGain, 4·ln 2 ≈ 2.77.
pub const STARTUP_PACING_GAIN: f64 = 2.77;
/// The draft §5.3.2 BBR.DrainPacingGain.
pub const DRAIN_PACING_GAIN: f64 = 0.5;
/// The draft §5.3.1.1 BBR.DefaultCwndGain.
pub const DEFAULT_CWND_GAIN: f64 = 2.0;
/// The draft §2.8 BBR.LossThresh: the loss rate per round a bandwidth probe tolerates.
pub const LOSS_THRESH: f64 = 0.02;
/// The draft §2.8 BBR.Beta: the multiplicative cut per round with loss.
pub const BETA: f64 = 0.7;
/// The draft §2.8 BBR.Headroom: the share of inflight_longterm CRUISE leaves free.
pub const HEADROOM: f64 = 0.15;
/// The draft §5.6.2 BBR.PacingMarginPercent, 1 %.
pub const PACING_MARGIN: f64 = 0.01;
/// The draft §2.8 BBR.MinPipeCwnd, in segments.
pub const MIN_PIPE_SEGMENTS: u64 = 4;
/// The draft §2.16.2 BBR.ProbeRTTInterval.
pub const PROBE_RTT_INTERVAL: SimDuration = SimDuration::from_secs(5);
/// The draft §2.16.1 BBR.MinRTTFilterLen.
pub const MIN_RTT_FILTER_LEN: SimDuration = SimDuration::from_secs(10);
/// The draft §2.16.2 BBR.ProbeRTTDuration.
pub const PROBE_RTT_DURATION: SimDuration = SimDuration::from_millis(200);
/// The draft §2.16.2 BBR.ProbeRTTCwndGain.
pub const PROBE_RTT_CWND_GAIN: f64 = 0.5;
/// The draft §2.12 BBR.ExtraAckedFilterLen, in rounds (1 in Startup, §5.5.9).
const EXTRA_ACKED_FILTER_LEN: u64 = 10;
/// The draft §5.3.1.3 BBRStartupFullLossCnt: loss events in a round that, with more than
/// LossThresh lost, end Startup (with SACK).
pub const STARTUP_FULL_LOSS_COUNT: u32 = 6;

/// `tcp.cc = { kind = "bbr3", ... }`: BBRv3's parameters, the draft's values by default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Bbr3Config {
    /// Startup's pacing gain (the draft's BBR.StartupPacingGain, 2.77). A number greater
    /// than 1.
    #[serde(skip_serializing_if = "is_startup_gain")]
    pub startup_pacing_gain: f64,
    /// Drain's pacing gain (BBR.DrainPacingGain, 0.5). A number in (0, 1).
    #[serde(skip_serializing_if = "is_drain_gain")]
    pub drain_pacing_gain: f64,
    /// The window gain outside ProbeBW_UP and ProbeRTT (BBR.DefaultCwndGain, 2): the
    /// window is this many BDPs. A number greater than 0.
    #[serde(skip_serializing_if = "is_cwnd_gain")]
    pub cwnd_gain: f64,
    /// The loss rate per round a bandwidth probe tolerates before it cuts
    /// inflight_longterm (BBR.LossThresh, 0.02). A number in (0, 1).
    #[serde(skip_serializing_if = "is_loss_thresh")]
    pub loss_thresh: f64,
    /// The multiplicative cut of the bounds per round with loss (BBR.Beta, 0.7). A number
    /// in (0, 1).
    #[serde(skip_serializing_if = "is_beta")]
    pub beta: f64,
    /// The share of inflight_longterm ProbeBW_CRUISE leaves free for others
    /// (BBR.Headroom, 0.15). A number in [0, 1).
    #[serde(skip_serializing_if = "is_headroom")]
    pub headroom: f64,
    /// The fraction the pacing rate stays below gain·bw (BBR.PacingMarginPercent, 1 %).
    /// A number in [0, 1).
    #[serde(skip_serializing_if = "is_margin")]
    pub pacing_margin: f64,
}

// The defaults are not written back, so `cc = "bbr3"` reads and writes as its name.
fn is_startup_gain(v: &f64) -> bool {
    *v == STARTUP_PACING_GAIN
}
fn is_drain_gain(v: &f64) -> bool {
    *v == DRAIN_PACING_GAIN
}
fn is_cwnd_gain(v: &f64) -> bool {
    *v == DEFAULT_CWND_GAIN
}
fn is_loss_thresh(v: &f64) -> bool {
    *v == LOSS_THRESH
}
fn is_beta(v: &f64) -> bool {
    *v == BETA
}
fn is_headroom(v: &f64) -> bool {
    *v == HEADROOM
}
fn is_margin(v: &f64) -> bool {
    *v == PACING_MARGIN
}

impl Default for Bbr3Config {
    fn default() -> Self {
        Bbr3Config {
            startup_pacing_gain: STARTUP_PACING_GAIN,
            drain_pacing_gain: DRAIN_PACING_GAIN,
            cwnd_gain: DEFAULT_CWND_GAIN,
            loss_thresh: LOSS_THRESH,
            beta: BETA,
            headroom: HEADROOM,
            pacing_margin: PACING_MARGIN,
        }
    }
}

/// `Err("field: value is out of range; use ...")` unless `ok`.
fn check(ok: bool, field: &str, v: f64, allowed: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("{field}: {v} is out of range; use {allowed}"))
    }
}

impl CcSpec for Bbr3Config {
    fn validate(&self) -> Result<(), String> {
        let open01 = |v: f64| v > 0.0 && v < 1.0;
        check(self.startup_pacing_gain.is_finite() && self.startup_pacing_gain > 1.0, "startup_pacing_gain", self.startup_pacing_gain, "a number greater than 1")?;
        check(open01(self.drain_pacing_gain), "drain_pacing_gain", self.drain_pacing_gain, "a number in (0, 1)")?;
        check(self.cwnd_gain.is_finite() && self.cwnd_gain > 0.0, "cwnd_gain", self.cwnd_gain, "a number greater than 0")?;
        check(open01(self.loss_thresh), "loss_thresh", self.loss_thresh, "a number in (0, 1)")?;
        check(open01(self.beta), "beta", self.beta, "a number in (0, 1)")?;
        check((0.0..1.0).contains(&self.headroom), "headroom", self.headroom, "a number in [0, 1)")?;
        check((0.0..1.0).contains(&self.pacing_margin), "pacing_margin", self.pacing_margin, "a number in [0, 1)")
    }

    fn build(&self, ctx: &CcContext) -> AnyCongestionControl {
        Box::new(Bbr3::new(self, ctx)).into()
    }
}

/// The draft's states (§5.1.1), ProbeBW's four phases each a state of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Startup,
    Drain,
    ProbeBwDown,
    ProbeBwCruise,
    ProbeBwRefill,
    ProbeBwUp,
    ProbeRtt,
}

/// The draft §2.14 BBR.ack_phase: what the ACKs arriving now say about a bandwidth probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AckPhase {
    Init,
    Refilling,
    ProbeStarting,
    ProbeFeedback,
    ProbeStopping,
}

/// "Infinity" for a volume of data (the draft's unset bounds).
const UNSET: u64 = u64::MAX;

/// BBRv3's state: the draft's `BBR.*` variables (§2) in bytes, bytes per second and
/// simulated time.
#[derive(Clone, Debug)]
pub struct Bbr3 {
    cfg: Bbr3Config,
    mss: u64,
    initial_window: u64,
    /// C.has_selective_acks (§2.2), from the sender (`CcContext::selective_acks`).
    sack: bool,
    pub(super) state: State,
    pub(super) pacing_gain: f64,
    pub(super) cwnd_gain: f64,
    /// C.delivered.
    delivered: u64,
    // Round counting (§5.5.1).
    pub(super) round_count: u64,
    round_start: bool,
    next_round_delivered: u64,
    rounds_since_probe_up: u64,
    // The model (§2.9).
    max_bw_filter: WindowedMax,
    cycle_count: u64,
    pub(super) bw: f64,
    pub(super) bw_shortterm: f64,
    pub(super) inflight_shortterm: u64,
    pub(super) inflight_longterm: u64,
    min_rtt: Option<SimDuration>,
    min_rtt_stamp: SimTime,
    extra_acked_filter: WindowedMax,
    extra_acked_interval_start: SimTime,
    extra_acked_delivered: u64,
    // Congestion signals (§2.10, §5.5.10.3).
    bw_latest: f64,
    inflight_latest: u64,
    loss_round_delivered: u64,
    loss_round_start: bool,
    pub(super) is_loss_in_round: bool,
    /// ACKs that marked a loss in this loss round (the Startup exit's loss events).
    loss_events_in_round: u32,
    /// C.is_cwnd_limited (§2.2): the flight reached the window in this or the last round.
    cwnd_limited_now: bool,
    cwnd_limited_last_round: bool,
    /// The round the current recovery began in (Startup's exit waits one round of it).
    recovery_round: Option<u64>,
    // Startup (§2.13).
    pub(super) full_bw_reached: bool,
    full_bw_now: bool,
    full_bw: f64,
    full_bw_count: u32,
    drain_start_round: u64,
    // ProbeBW (§2.14).
    ack_phase: AckPhase,
    pub(super) is_bw_probe_sample: bool,
    bw_probe_up_acked: u64,
    probe_up_acked_per_inc: u64,
    bw_probe_up_rounds: u32,
    bw_probe_wait: SimDuration,
    cycle_stamp: SimTime,
    pub(super) prev_probe_too_high: bool,
    prev_probe_precautionary: bool,
    // ProbeRTT (§2.16).
    probe_rtt_min_delay: Option<SimDuration>,
    probe_rtt_min_stamp: SimTime,
    probe_rtt_expired: bool,
    probe_rtt_done_stamp: Option<SimTime>,
    probe_rtt_round_done: bool,
    // The window saved across recoveries and ProbeRTT (§5.6.4.4).
    prior_cwnd: u64,
    /// A fast recovery began and its end has not yet restored the window.
    recovering: bool,
    /// After a timeout: the window is restored once snd_una passes this.
    timeout_until: Option<u64>,
    // Controls (§5.6).
    pacing_rate: f64,
    send_quantum: u64,
    has_seen_rtt: bool,
    /// The flow's own stream for PickProbeWait's draws.
    rng: RngStream,
}

impl Bbr3 {
    /// The draft §5.2.1 OnInit.
    pub fn new(cfg: &Bbr3Config, ctx: &CcContext) -> Self {
        let mut bbr = Bbr3 {
            cfg: cfg.clone(),
            mss: ctx.mss,
            initial_window: ctx.initial_window,
            sack: ctx.selective_acks,
            state: State::Startup,
            pacing_gain: cfg.startup_pacing_gain,
            cwnd_gain: cfg.cwnd_gain,
            delivered: 0,
            round_count: 0,
            round_start: false,
            next_round_delivered: 0,
            rounds_since_probe_up: 0,
            // Two cycles: the current one and the previous (§2.11 MaxBwFilterLen = 2); a
            // sample leaves once it is more than one cycle old.
            max_bw_filter: WindowedMax::new(1),
            cycle_count: 0,
            bw: 0.0,
            bw_shortterm: f64::INFINITY,
            inflight_shortterm: UNSET,
            inflight_longterm: UNSET,
            min_rtt: None,
            min_rtt_stamp: SimTime::ZERO,
            extra_acked_filter: WindowedMax::new(1),
            extra_acked_interval_start: SimTime::ZERO,
            extra_acked_delivered: 0,
            bw_latest: 0.0,
            inflight_latest: 0,
            loss_round_delivered: 0,
            loss_round_start: false,
            is_loss_in_round: false,
            loss_events_in_round: 0,
            cwnd_limited_now: false,
            cwnd_limited_last_round: false,
            recovery_round: None,
            full_bw_reached: false,
            full_bw_now: false,
            full_bw: 0.0,
            full_bw_count: 0,
            drain_start_round: 0,
            ack_phase: AckPhase::Init,
            is_bw_probe_sample: false,
            bw_probe_up_acked: 0,
            probe_up_acked_per_inc: UNSET,
            bw_probe_up_rounds: 0,
            bw_probe_wait: SimDuration::ZERO,
            cycle_stamp: SimTime::ZERO,
            prev_probe_too_high: false,
            prev_probe_precautionary: false,
            probe_rtt_min_delay: None,
            probe_rtt_min_stamp: SimTime::ZERO,
            probe_rtt_expired: false,
            probe_rtt_done_stamp: None,
            probe_rtt_round_done: false,
            prior_cwnd: ctx.initial_window,
            recovering: false,
            timeout_until: None,
            pacing_rate: 0.0,
            send_quantum: 2 * ctx.mss,
            has_seen_rtt: false,
            rng: RngStream::new(ctx.seed, 0, "bbr3:probe-wait"),
        };
        // §5.6.2 InitPacingRate without an RTT: the initial window per 1 ms.
        bbr.pacing_rate = cfg.startup_pacing_gain * ctx.initial_window as f64 / 1e-3;
        bbr
    }

    pub fn state(&self) -> State {
        self.state
    }

    /// Enters `state` with the gains of the draft's table (§5.6.1).
    fn set_state(&mut self, state: State) {
        self.state = state;
        (self.pacing_gain, self.cwnd_gain) = match state {
            State::Startup => (self.cfg.startup_pacing_gain, self.cfg.cwnd_gain),
            State::Drain => (self.cfg.drain_pacing_gain, self.cfg.cwnd_gain),
            State::ProbeBwDown => (0.9, self.cfg.cwnd_gain),
            State::ProbeBwCruise | State::ProbeBwRefill => (1.0, self.cfg.cwnd_gain),
            State::ProbeBwUp => (1.25, 2.25),
            State::ProbeRtt => (1.0, PROBE_RTT_CWND_GAIN),
        };
    }

    /// §5.5.1 StartRound.
    fn start_round(&mut self) {
        self.next_round_delivered = self.delivered;
    }

    /// §5.5.1 UpdateRound: a round ends when a segment sent after its start is delivered.
    fn update_round(&mut self, rs: &RateSample) {
        self.round_start = rs.delivered > 0 && rs.prior_delivered >= self.next_round_delivered;
        if self.round_start {
            self.start_round();
            self.round_count += 1;
            self.rounds_since_probe_up += 1;
            self.cwnd_limited_last_round = std::mem::take(&mut self.cwnd_limited_now);
        }
    }

    /// §5.5.5 UpdateMaxBw: an app-limited sample enters only if it is no lower.
    fn update_max_bw(&mut self, rs: &RateSample) {
        self.update_round(rs);
        if rs.delivery_rate > 0.0 && (rs.delivery_rate >= self.max_bw() || !rs.is_app_limited) {
            self.max_bw_filter.update(self.cycle_count, rs.delivery_rate);
        }
    }

    pub(super) fn max_bw(&self) -> f64 {
        self.max_bw_filter.get()
    }

    /// §5.5.9 UpdateACKAggregation: data acknowledged beyond bw·interval since the
    /// aggregation episode began, max-filtered over 10 rounds (1 in Startup).
    fn update_ack_aggregation(&mut self, st: &SenderState, now: SimTime, rs: &RateSample) {
        let interval = now.since(self.extra_acked_interval_start).as_secs_f64();
        let mut expected = (self.bw * interval) as u64;
        if self.extra_acked_delivered <= expected {
            self.extra_acked_delivered = 0;
            self.extra_acked_interval_start = now;
            expected = 0;
        }
        self.extra_acked_delivered += rs.newly_acked;
        let extra = (self.extra_acked_delivered - expected).min(st.cwnd);
        self.extra_acked_filter.set_window(if self.full_bw_reached { EXTRA_ACKED_FILTER_LEN } else { 1 });
        self.extra_acked_filter.update(self.round_count, extra as f64);
    }

    /// §5.5.11.1 SaveStateUponLoss's SaveCwnd (§5.6.4.4): the window now, unless a
    /// recovery or ProbeRTT already cut it.
    fn save_cwnd(&mut self, st: &SenderState) {
        let cut = st.in_recovery || self.recovering || self.timeout_until.is_some() || self.state == State::ProbeRtt;
        self.prior_cwnd = if cut { self.prior_cwnd.max(st.cwnd) } else { st.cwnd };
    }

}

impl CongestionControl for Bbr3 {
    /// BBR sets its window on the rate sample of the same ACK (`on_rate_sample`).
    fn on_ack(&mut self, _st: &mut SenderState, _now: SimTime, _acked: u64, _rtt: Option<SimDuration>) {}

    /// A loss starts a fast recovery: §5.6.4.4 OnEnterFastRecovery (SaveCwnd) and the
    /// loss noted for the round (§5.5.10.2 NoteLoss); the recovery holds the FlightSize
    /// (packet conservation, as `bbr`), and its end restores the saved window (§5.6.4.4).
    /// ECE is congestion (§3.7: "MUST treat any CE marks as congestion"): noted as a loss
    /// of the round, which cuts the short-term bounds at the round's end; the window
    /// stays. An ELN starts a recovery that is not congestion; an EWLN keeps everything.
    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64 {
        match signal {
            Signal::Loss => {
                self.save_cwnd(st);
                self.note_loss(st);
                self.recovering = true;
                st.reduction_flight().max(st.mss)
            }
            Signal::Eln => {
                self.save_cwnd(st);
                self.recovering = true;
                st.cwnd
            }
            Signal::Ecn => {
                self.note_loss(st);
                st.cwnd
            }
            Signal::Ewln => st.cwnd,
        }
    }

    /// §5.6.4.4 OnEnterRTO: save the window and the state, restart from the flight plus
    /// one segment (the sender marked the whole flight lost: one segment), restore once
    /// the data sent before the timeout is acknowledged.
    fn on_timeout(&mut self, st: &mut SenderState, _repeated: bool) {
        self.save_cwnd(st);
        self.note_loss(st);
        self.recovering = false;
        self.timeout_until = Some(st.snd_max);
        st.cwnd = st.mss;
        st.counters.window_reductions += 1;
    }

    fn pacing_rate(&self, _st: &SenderState, _srtt: Option<SimDuration>) -> Option<f64> {
        Some(self.pacing_rate)
    }

    /// Its whole model, and its loss signals, come from the samples.
    fn reads_rate_samples(&self) -> bool {
        true
    }

    /// §5.2.3 UpdateOnACK: the losses this ACK marked (§5.2.4), UpdateModelAndState,
    /// then UpdateControlParameters.
    fn on_rate_sample(&mut self, st: &mut SenderState, now: SimTime, rs: &RateSample) {
        self.delivered += rs.newly_acked;
        // C.is_cwnd_limited from the bytes in the network before this ACK: Linux sets
        // tp->is_cwnd_limited in tcp_output.c tcp_write_xmit from
        // `tcp_packets_in_flight >= cwnd`, not from the FlightSize.
        self.cwnd_limited_now |= rs.prior_in_flight + self.mss > st.cwnd;
        if st.in_recovery {
            self.recovery_round.get_or_insert(self.round_count);
        } else {
            self.recovery_round = None;
        }
        if rs.newly_lost > 0 {
            self.handle_lost(st, now, rs);
        }
        self.update_latest_delivery_signals(rs);
        self.update_congestion_signals(st, rs);
        self.update_ack_aggregation(st, now, rs);
        self.check_full_bw_reached(rs);
        self.check_startup_done(st, rs);
        self.check_drain_done(now, rs);
        self.update_probe_bw_cycle_phase(st, now, rs);
        self.update_min_rtt(now, rs);
        self.check_probe_rtt(st, now, rs);
        self.advance_latest_delivery_signals(rs);
        self.bound_bw_for_model();
        self.set_pacing_rate(rs);
        self.set_send_quantum();
        self.set_cwnd(st, rs);
    }
}

#[cfg(test)]
#[path = "bbr3_tests.rs"]
mod tests;
