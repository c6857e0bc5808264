//! `cc = "bbr"`: BBR version 1 (Cardwell et al., "BBR: Congestion-Based Congestion
//! Control", ACM Queue 14(5), 2016; draft-cardwell-iccrg-bbr-congestion-control-00,
//! "the draft" below; Linux net/ipv4/tcp_bbr.c; ns-3 src/internet/model/tcp-bbr.cc).
//!
//! A model of the path — the bottleneck bandwidth BtlBw (windowed max of the delivery
//! rate over 10 rounds) and the round-trip propagation time RTprop (windowed min of the
//! RTT over 10 s), both in `bbr_filters.rs` — sets the pacing rate (gain·BtlBw) and the
//! window (gain·BDP + 3 SMSS). A state machine picks the gains: Startup (2/ln 2 until the
//! bandwidth stops growing by 25 % for three rounds), Drain (its inverse until the flight
//! is one BDP), ProbeBW (the eight-phase cycle 1.25, 0.75, 1×6) and, when RTprop has not
//! been refreshed for 10 s, ProbeRTT (4 segments for max(200 ms, one round)). Everything
//! happens on the delivery-rate samples (`on_rate_sample`); docs/mechanisms/tcp-bbr.md
//! has the readings chosen where the sources differ.

// Its filters, in a file of their own (`bbr3` uses them too).
#[path = "bbr_filters.rs"]
pub(super) mod bbr_filters;
use bbr_filters::{MinRttFilter, WindowedMax};
use super::{AnyCongestionControl, CcContext, CcSpec, CongestionControl};
use crate::rng::RngStream;
use crate::tcp::rate_sample::RateSample;
use crate::tcp::state::{SenderState, Signal};
use crate::time::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The draft's BBRHighGain (§2, §4.3.2.1), 2/ln 2: the smallest gain that doubles the sending
/// rate every round (Linux `bbr_high_gain` = 2885/1000 in 8-bit fixed point; ns-3's
/// `HighGain` attribute 2.89).
pub const HIGH_GAIN: f64 = 2.0 / std::f64::consts::LN_2;
/// ProbeBW's gain cycle (the draft §4.3.4, Linux `bbr_pacing_gain`).
pub const PACING_GAIN_CYCLE: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// The BtlBw filter's window in rounds (the draft §4.1.1.2 BtlBwFilterLen; Linux
/// `bbr_bw_rtts` = CYCLE_LEN + 2).
pub const BW_WINDOW_ROUNDS: u64 = 10;
/// The RTprop filter's window (the draft §4.1.2.2 RTpropFilterLen; Linux
/// `bbr_min_rtt_win_sec`).
pub const MIN_RTT_WINDOW: SimDuration = SimDuration::from_secs(10);
/// ProbeRTT's least duration (the draft §2 and §4.3.5 ProbeRTTDuration; Linux
/// `bbr_probe_rtt_mode_ms`).
pub const PROBE_RTT_DURATION: SimDuration = SimDuration::from_millis(200);
/// The least window, in segments (the draft §4.2.3.3 BBRMinPipeCwnd; Linux
/// `bbr_cwnd_min_target`): two delayed-ACK pairs in flight.
pub const MIN_PIPE_SEGMENTS: u64 = 4;
/// Startup's bandwidth is still growing if it rose by this factor in a round (the draft
/// §4.3.2.2; Linux `bbr_full_bw_thresh`)...
const FULL_BW_GROWTH: f64 = 1.25;
/// ...and the pipe is full after this many rounds without (Linux `bbr_full_bw_cnt`).
const FULL_BW_ROUNDS: u32 = 3;

/// `tcp.cc = { kind = "bbr", ... }`: BBRv1's parameters, Linux tcp_bbr.c's values by
/// default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct BbrConfig {
    /// Startup's pacing and window gain (the draft's BBRHighGain, 2/ln 2 ≈ 2.885); Drain
    /// paces at its inverse. A number greater than 1.
    #[serde(skip_serializing_if = "is_high_gain")]
    pub high_gain: f64,
    /// ProbeBW's window gain (Linux `bbr_cwnd_gain`, 2): the window is this many BDPs.
    /// A number greater than 0.
    #[serde(skip_serializing_if = "is_two")]
    pub cwnd_gain: f64,
    /// The fraction the pacing rate stays below gain·BtlBw (Linux
    /// `bbr_pacing_margin_percent`, 1 %; the draft has none). A number in [0, 1).
    #[serde(skip_serializing_if = "is_one_percent")]
    pub pacing_margin: f64,
}

// The defaults are not written back, so `cc = "bbr"` reads and writes as its name.
fn is_high_gain(v: &f64) -> bool {
    *v == HIGH_GAIN
}
fn is_two(v: &f64) -> bool {
    *v == 2.0
}
fn is_one_percent(v: &f64) -> bool {
    *v == 0.01
}

impl Default for BbrConfig {
    fn default() -> Self {
        BbrConfig { high_gain: HIGH_GAIN, cwnd_gain: 2.0, pacing_margin: 0.01 }
    }
}

impl CcSpec for BbrConfig {
    fn validate(&self) -> Result<(), String> {
        if !(self.high_gain.is_finite() && self.high_gain > 1.0) {
            return Err(format!("high_gain: {} is out of range; use a number greater than 1", self.high_gain));
        }
        if !(self.cwnd_gain.is_finite() && self.cwnd_gain > 0.0) {
            return Err(format!("cwnd_gain: {} is out of range; use a number greater than 0", self.cwnd_gain));
        }
        if !(0.0..1.0).contains(&self.pacing_margin) {
            return Err(format!("pacing_margin: {} is out of range; use a number in [0, 1)", self.pacing_margin));
        }
        Ok(())
    }

    fn build(&self, ctx: &CcContext) -> AnyCongestionControl {
        Box::new(Bbr::new(self, ctx)).into()
    }
}

/// BBR's states (the draft §4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// BBRv1's state: its model, its state machine and what it saved for restoring.
#[derive(Clone, Debug)]
pub struct Bbr {
    high_gain: f64,
    probe_bw_cwnd_gain: f64,
    pacing_margin: f64,
    mss: u64,
    initial_window: u64,
    pub(super) mode: Mode,
    /// BtlBw in bytes per second, over rounds.
    pub(super) bw: WindowedMax,
    pub(super) min_rtt: MinRttFilter,
    /// C.delivered: bytes acknowledged or SACKed so far.
    delivered: u64,
    /// The round ends when a segment sent at or after this `delivered` is acknowledged
    /// (the draft §4.1.1.3 BBR.next_round_delivered).
    next_round_delivered: u64,
    pub(super) round_count: u64,
    round_start: bool,
    full_bw: f64,
    full_bw_count: u32,
    pub(super) full_bw_reached: bool,
    pub(super) pacing_gain: f64,
    pub(super) cwnd_gain: f64,
    pub(super) cycle_index: usize,
    cycle_stamp: SimTime,
    /// When ProbeRTT may end (set once the flight is down to 4 segments).
    probe_rtt_done: Option<SimTime>,
    probe_rtt_round_done: bool,
    /// The window before a recovery, a timeout or ProbeRTT cut it (Linux `prior_cwnd`).
    prior_cwnd: u64,
    /// A recovery began and its end has not yet restored the window.
    recovering: bool,
    /// After a timeout: the window is restored once snd_una passes this (Linux restores
    /// on leaving TCP_CA_Loss, when the data sent before the timeout is acknowledged).
    timeout_until: Option<u64>,
    /// The pacing rate in bytes per second.
    pacing_rate: f64,
    has_seen_rtt: bool,
    /// The flow's own stream for ProbeBW's starting phase.
    rng: RngStream,
}

impl Bbr {
    pub fn new(cfg: &BbrConfig, ctx: &CcContext) -> Self {
        let mut bbr = Bbr {
            high_gain: cfg.high_gain,
            probe_bw_cwnd_gain: cfg.cwnd_gain,
            pacing_margin: cfg.pacing_margin,
            mss: ctx.mss,
            initial_window: ctx.initial_window,
            mode: Mode::Startup,
            bw: WindowedMax::new(BW_WINDOW_ROUNDS),
            min_rtt: MinRttFilter::new(MIN_RTT_WINDOW),
            delivered: 0,
            next_round_delivered: 0,
            round_count: 0,
            round_start: false,
            full_bw: 0.0,
            full_bw_count: 0,
            full_bw_reached: false,
            pacing_gain: cfg.high_gain,
            cwnd_gain: cfg.high_gain,
            cycle_index: 0,
            cycle_stamp: SimTime::ZERO,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            prior_cwnd: ctx.initial_window,
            recovering: false,
            timeout_until: None,
            pacing_rate: 0.0,
            has_seen_rtt: false,
            rng: RngStream::new(ctx.seed, 0, "bbr:gain-cycle"),
        };
        // Linux `bbr_init_pacing_rate_from_rtt` without an RTT: high_gain·cwnd / 1 ms.
        bbr.pacing_rate = bbr.rate_with_gain(ctx.initial_window as f64 / 1e-3, cfg.high_gain);
        bbr
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// gain·bw less the pacing margin (Linux `bbr_rate_bytes_per_sec`).
    fn rate_with_gain(&self, bw: f64, gain: f64) -> f64 {
        gain * bw * (1.0 - self.pacing_margin)
    }

    /// The window for `gain` (the draft §4.2.3.2 BBRInflight): gain·BDP plus three send
    /// quanta of one segment each, as ns-3's `InFlight` (`m_sendQuantum` = 1 segment;
    /// the draft §4.2.2 and Linux `bbr_tso_segs_goal` take 2 segments from 1.2 Mbit/s:
    /// they batch for TSO, which nothing here does), and two more in ProbeBW's 1.25 phase so that it rises above the BDP
    /// even when that is small. Before any RTT sample, the initial window (Linux:
    /// TCP_INIT_CWND).
    fn inflight(&self, gain: f64) -> u64 {
        let Some(rtt) = self.min_rtt.get() else { return self.initial_window };
        let bdp = (gain * self.bw.get() * rtt.as_secs_f64()).ceil() as u64;
        let probing = self.mode == Mode::ProbeBw && self.cycle_index == 0;
        bdp + 3 * self.mss + if probing { 2 * self.mss } else { 0 }
    }

    /// Linux `bbr_save_cwnd`: the window now, unless a recovery, a timeout or ProbeRTT has
    /// already cut it, in which case the larger of the two.
    fn save_cwnd(&mut self, st: &SenderState) {
        if self.recovering || self.timeout_until.is_some() || self.mode == Mode::ProbeRtt {
            self.prior_cwnd = self.prior_cwnd.max(st.cwnd);
        } else {
            self.prior_cwnd = st.cwnd;
        }
    }

    /// Linux `bbr_update_bw` (the draft §4.1.1.3-4.1.1.5 BBRUpdateBtlBw): a round ends when a segment
    /// sent after the previous round's end is delivered; a sample enters the filter
    /// unless it is app-limited and below the maximum.
    fn update_bw(&mut self, rs: &RateSample) {
        self.round_start = false;
        if rs.interval == SimDuration::ZERO {
            return;
        }
        if rs.prior_delivered >= self.next_round_delivered {
            self.next_round_delivered = self.delivered;
            self.round_count += 1;
            self.round_start = true;
        }
        if !rs.is_app_limited || rs.delivery_rate >= self.bw.get() {
            self.bw.update(self.round_count, rs.delivery_rate);
        }
    }

    /// Linux `bbr_is_next_cycle_phase` (the draft §4.3.4): a phase lasts one min_rtt;
    /// the 1.25 phase also until the bytes in the network before the ACK
    /// (`rs->prior_in_flight`) reach 1.25·BDP or a loss; the 0.75 phase ends early once
    /// they are down to one BDP.
    fn update_cycle_phase(&mut self, now: SimTime, rs: &RateSample) {
        if self.mode != Mode::ProbeBw {
            return;
        }
        let full_length = self.min_rtt.get().is_some_and(|m| now.since(self.cycle_stamp) > m);
        let next = if self.pacing_gain > 1.0 {
            full_length && (rs.newly_lost > 0 || rs.prior_in_flight >= self.inflight(self.pacing_gain))
        } else if self.pacing_gain < 1.0 {
            full_length || rs.prior_in_flight <= self.inflight(1.0)
        } else {
            full_length
        };
        if next {
            self.advance_cycle_phase(now);
        }
    }

    fn advance_cycle_phase(&mut self, now: SimTime) {
        self.cycle_index = (self.cycle_index + 1) % PACING_GAIN_CYCLE.len();
        self.cycle_stamp = now;
    }

    /// Linux `bbr_check_full_bw_reached` (the draft §4.3.2.2 BBRCheckFullPipe): once a round, unless
    /// app-limited, is the bandwidth 25 % above the last plateau? Three rounds without.
    fn check_full_bw(&mut self, rs: &RateSample) {
        if self.full_bw_reached || !self.round_start || rs.is_app_limited {
            return;
        }
        if self.bw.get() >= self.full_bw * FULL_BW_GROWTH {
            self.full_bw = self.bw.get();
            self.full_bw_count = 0;
            return;
        }
        self.full_bw_count += 1;
        self.full_bw_reached = self.full_bw_count >= FULL_BW_ROUNDS;
    }

    /// Linux `bbr_check_drain` (the draft §4.3.3): Startup ends when the pipe is full;
    /// Drain ends when the bytes in the network (`tcp_packets_in_flight`: not what a
    /// timeout or the recovery marked lost, nor what was SACKed) are down to one BDP.
    fn check_drain(&mut self, st: &mut SenderState, now: SimTime, rs: &RateSample) {
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
            // Linux and ns-3 set ssthresh here (reported only; BBR does not read it).
            st.ssthresh = self.inflight(1.0);
        }
        if self.mode == Mode::Drain && rs.in_flight <= self.inflight(1.0) {
            self.enter_probe_bw(now);
        }
    }

    /// Linux `bbr_reset_probe_bw_mode`: a random phase other than 0.75 to start, drawn
    /// as `CYCLE_LEN - 1 - prandom_u32_max(bbr_cycle_rand = 7)` and then advanced.
    fn enter_probe_bw(&mut self, now: SimTime) {
        self.mode = Mode::ProbeBw;
        let r = (self.rng.uniform() * 7.0) as usize;
        self.cycle_index = PACING_GAIN_CYCLE.len() - 1 - r;
        self.advance_cycle_phase(now);
    }

    /// Linux `bbr_update_min_rtt` (the draft §4.1.2.3 BBRUpdateRTprop, §4.3.5): refresh RTprop; when it
    /// is older than 10 s, ProbeRTT: once the bytes in the network (as for Drain) are
    /// down to 4 segments, hold for max(200 ms, one round), then back to ProbeBW (or
    /// Startup).
    fn update_min_rtt(&mut self, st: &mut SenderState, now: SimTime, rs: &RateSample) {
        let expired = self.min_rtt.expired(now);
        if let Some(rtt) = rs.rtt {
            self.min_rtt.update(now, rtt);
        }
        if expired && self.mode != Mode::ProbeRtt {
            self.save_cwnd(st);
            self.mode = Mode::ProbeRtt;
            self.probe_rtt_done = None;
        }
        if self.mode != Mode::ProbeRtt {
            return;
        }
        match self.probe_rtt_done {
            None if rs.in_flight <= MIN_PIPE_SEGMENTS * self.mss => {
                self.probe_rtt_done = Some(now + PROBE_RTT_DURATION);
                self.probe_rtt_round_done = false;
                self.next_round_delivered = self.delivered;
            }
            None => {}
            Some(done) => {
                self.probe_rtt_round_done |= self.round_start;
                if self.probe_rtt_round_done && now > done {
                    self.min_rtt.refresh(now);
                    st.cwnd = st.cwnd.max(self.prior_cwnd);
                    if self.full_bw_reached {
                        self.enter_probe_bw(now);
                    } else {
                        self.mode = Mode::Startup;
                    }
                }
            }
        }
    }

    /// Linux `bbr_update_gains`.
    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (self.high_gain, self.high_gain),
            Mode::Drain => (1.0 / self.high_gain, self.high_gain),
            Mode::ProbeBw => (PACING_GAIN_CYCLE[self.cycle_index], self.probe_bw_cwnd_gain),
            Mode::ProbeRtt => (1.0, 1.0),
        };
    }

    /// Linux `bbr_set_pacing_rate` (the draft §4.2.1 BBRSetPacingRateWithGain): gain·BtlBw, raised only until the
    /// pipe is full; the first RTT sample restarts it at high_gain·cwnd/RTT.
    fn set_pacing_rate(&mut self, st: &SenderState, rs: &RateSample) {
        if !self.has_seen_rtt {
            if let Some(rtt) = rs.rtt.filter(|r| *r > SimDuration::ZERO) {
                self.has_seen_rtt = true;
                self.pacing_rate = self.rate_with_gain(st.cwnd as f64 / rtt.as_secs_f64(), self.high_gain);
            }
        }
        let rate = self.rate_with_gain(self.bw.get(), self.pacing_gain);
        if rate > 0.0 && (self.full_bw_reached || rate > self.pacing_rate) {
            self.pacing_rate = rate;
        }
    }

    /// Linux `bbr_set_cwnd` with `bbr_set_cwnd_to_recover_or_restore` (the draft §4.2.3.4,
    /// §4.2.3.6 BBRSetCwnd). In recovery the
    /// window is the recovery's (it holds the FlightSize at its start: packet
    /// conservation); when it ends, the window saved before it is restored. Otherwise
    /// the window rises by what was delivered towards cwnd_gain·BDP, and is cut to it
    /// once the pipe is full; never below 4 segments, and 4 at most in ProbeRTT.
    fn set_cwnd(&mut self, st: &mut SenderState, acked: u64) {
        if acked == 0 || st.in_recovery {
            return;
        }
        let restore = std::mem::take(&mut self.recovering) || self.timeout_until.is_some_and(|p| st.snd_una >= p);
        if restore {
            self.timeout_until = None;
            st.cwnd = st.cwnd.max(self.prior_cwnd);
        }
        let target = self.inflight(self.cwnd_gain);
        let mut cwnd = st.cwnd;
        if self.full_bw_reached {
            cwnd = (cwnd + acked).min(target);
        } else if cwnd < target || self.delivered < self.initial_window {
            cwnd += acked;
        }
        cwnd = cwnd.max(MIN_PIPE_SEGMENTS * self.mss).min(st.max_cwnd.max(MIN_PIPE_SEGMENTS * self.mss));
        if self.mode == Mode::ProbeRtt {
            cwnd = cwnd.min(MIN_PIPE_SEGMENTS * self.mss);
        }
        st.cwnd = cwnd;
    }
}

impl CongestionControl for Bbr {
    /// BBR sets its window on the rate sample of the same ACK (`on_rate_sample`).
    fn on_ack(&mut self, _st: &mut SenderState, _now: SimTime, _acked: u64, _rtt: Option<SimDuration>) {}

    /// BBRv1 does not reduce its model on a loss. A loss or an ELN starts a recovery:
    /// save the window to restore after it, and ask the recovery to hold the FlightSize
    /// (less limited transmit's segments) — packet conservation, Linux
    /// `bbr_set_cwnd_to_recover_or_restore` (cwnd = packets in flight + acked). ssthresh
    /// is left alone (Linux `bbr_ssthresh` returns it unchanged). BBRv1 has no answer
    /// to ECN (tcp_bbr.c reads no CE marks): ECE keeps the window, as does an EWLN.
    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64 {
        match signal {
            Signal::Loss | Signal::Eln => {
                self.save_cwnd(st);
                self.recovering = true;
                if signal == Signal::Loss {
                    st.reduction_flight().max(st.mss)
                } else {
                    st.cwnd
                }
            }
            Signal::Ecn | Signal::Ewln => st.cwnd,
        }
    }

    /// Linux `tcp_enter_loss` (cwnd to the flight, one segment after marking all lost)
    /// with BBR's `bbr_save_cwnd` and, on entering TCP_CA_Loss, `full_bw = 0` (the
    /// plateau is measured afresh; the pipe stays full).
    fn on_timeout(&mut self, st: &mut SenderState, _repeated: bool) {
        self.save_cwnd(st);
        self.recovering = false;
        self.timeout_until = Some(st.snd_max);
        self.full_bw = 0.0;
        st.cwnd = st.mss;
        st.counters.window_reductions += 1;
    }

    fn pacing_rate(&self, _st: &SenderState, _srtt: Option<SimDuration>) -> Option<f64> {
        Some(self.pacing_rate)
    }

    /// Its whole model is built from the samples.
    fn reads_rate_samples(&self) -> bool {
        true
    }

    /// Linux `bbr_main`: the model and the state machine (`bbr_update_model`), then the
    /// pacing rate and the window.
    fn on_rate_sample(&mut self, st: &mut SenderState, now: SimTime, rs: &RateSample) {
        self.delivered += rs.newly_acked;
        self.update_bw(rs);
        self.update_cycle_phase(now, rs);
        self.check_full_bw(rs);
        self.check_drain(st, now, rs);
        self.update_min_rtt(st, now, rs);
        self.update_gains();
        self.set_pacing_rate(st, rs);
        self.set_cwnd(st, rs.newly_acked);
    }
}

#[cfg(test)]
#[path = "bbr_tests.rs"]
mod tests;
