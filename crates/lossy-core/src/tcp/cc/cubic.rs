//! `cc = "cubic"`: CUBIC, RFC 9438. In congestion avoidance the window follows
//! W_cubic(t) = C·(t − K)³ + W_max (§4.2) from the start of the epoch, concave below W_max
//! (§4.4) and convex above it (§4.5), never slower than the Reno estimate W_est (§4.3);
//! a congestion event multiplies ssthresh by β_cubic (§4.6) after fast convergence
//! lowers W_max (§4.7); a timeout restarts from one segment with K = 0 (§4.8). Slow start
//! is `slow_start`'s: Linux's HyStart by default, RFC 9406's HyStart++, or RFC 5681's.
//!
//! Windows are in segments inside the rule (§4.1) and in bytes in `SenderState`; the
//! growth below one byte is carried between ACKs. docs/mechanisms/tcp-cubic.md has the
//! readings chosen and where Linux's tcp_cubic.c and ns-3's tcp-cubic.cc differ.
//!
//! §4.9 (undo after a spurious loss) needs a detector (F-RTO, Eifel, DSACK) that this
//! stack does not have, so it is not implemented.

use super::slow_start::{SlowStart, SlowStartKind};
use crate::tcp::rate_sample::RateSample;
use super::{AnyCongestionControl, CcContext, CcSpec, CongestionControl};
use crate::tcp::state::{SenderState, Signal};
use crate::time::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// RFC 9438 §4.6: β_cubic SHOULD be 0.7.
pub const BETA_CUBIC: f64 = 0.7;
/// RFC 9438 §5.1: C SHOULD be 0.4 (segments/s³).
pub const C_CUBIC: f64 = 0.4;
/// Linux's cubictcp_acked drops delay samples for 1 s (HZ) after an epoch starts ("right
/// after fast recovery"); only HyStart's minimum RTT reads them.
const DELAY_SAMPLE_HOLDOFF: SimDuration = SimDuration::from_secs(1);

/// CUBIC's parameters (`tcp.cc = { kind = "cubic", ... }`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CubicConfig {
    /// β_cubic, the multiplicative decrease factor (RFC 9438 §4.6: 0.7), in (0, 1).
    #[serde(skip_serializing_if = "is_default_beta")]
    pub beta: f64,
    /// C, the cubic function's scale in segments/s³ (RFC 9438 §5.1: 0.4), above 0.
    #[serde(skip_serializing_if = "is_default_c")]
    pub c: f64,
    /// Fast convergence (RFC 9438 §4.7): lower W_max when a loss comes below the last one.
    /// On by default, as in Linux and ns-3.
    #[serde(skip_serializing_if = "is_true")]
    pub fast_convergence: bool,
    /// The slow start: "hystart" (Linux's HyStart, the default, as in Linux),
    /// "hystart++" (RFC 9406) or "standard" (RFC 5681).
    #[serde(skip_serializing_if = "is_default_slow_start")]
    pub slow_start: SlowStartKind,
    /// What a congestion event or timeout multiplies by β_cubic: "flight_size" (RFC 9438
    /// §4.6 read literally, the default) or "cwnd" (Linux's `cubictcp_recalc_ssthresh`,
    /// ns-3's `TcpCubic::GetSsThresh`).
    #[serde(skip_serializing_if = "is_default_reduce_from")]
    pub reduce_from: ReduceFrom,
}

/// The window a reduction starts from (RFC 9438 §4.6 and its note on implementations).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReduceFrom {
    /// RFC 5681's FlightSize (SND.NXT − SND.UNA, without limited transmit's segments).
    /// After a long SACK recovery it counts the SACKed data above the holes, so it can
    /// exceed cwnd and a loss can then raise ssthresh above the window it cut.
    #[default]
    FlightSize,
    /// The congestion window before the event, as Linux and ns-3 do; RFC 9438 §4.6 allows
    /// it with measures that keep cwnd from growing while less is in flight (§5.8 here).
    Cwnd,
}

fn is_default_beta(b: &f64) -> bool {
    *b == BETA_CUBIC
}
fn is_default_c(c: &f64) -> bool {
    *c == C_CUBIC
}
fn is_true(b: &bool) -> bool {
    *b
}
fn is_default_slow_start(s: &SlowStartKind) -> bool {
    *s == SlowStartKind::default()
}
fn is_default_reduce_from(r: &ReduceFrom) -> bool {
    *r == ReduceFrom::default()
}

impl Default for CubicConfig {
    fn default() -> Self {
        CubicConfig {
            beta: BETA_CUBIC,
            c: C_CUBIC,
            fast_convergence: true,
            slow_start: SlowStartKind::default(),
            reduce_from: ReduceFrom::default(),
        }
    }
}

impl CcSpec for CubicConfig {
    fn validate(&self) -> Result<(), String> {
        if !(self.beta > 0.0 && self.beta < 1.0) {
            return Err(format!("beta: {} is out of range; use a number in (0, 1) (RFC 9438: 0.7)", self.beta));
        }
        if !(self.c > 0.0 && self.c.is_finite()) {
            return Err(format!("c: {} is out of range; use a number above 0, in segments/s³ (RFC 9438: 0.4)", self.c));
        }
        Ok(())
    }

    fn build(&self, ctx: &CcContext) -> AnyCongestionControl {
        Box::new(Cubic::with_pacing(self, ctx.paced)).into()
    }
}

/// Eq. 2: K = ∛((W_max − cwnd_epoch) / C), the time W_cubic takes to climb back to
/// W_max; 0 when the epoch starts at or above W_max.
pub fn k(w_max: f64, cwnd_epoch: f64, c: f64) -> f64 {
    ((w_max - cwnd_epoch).max(0.0) / c).cbrt()
}

/// Eq. 1: W_cubic(t) = C·(t − K)³ + W_max, in segments, t in seconds from the epoch.
pub fn w_cubic(t: f64, k: f64, w_max: f64, c: f64) -> f64 {
    c * (t - k).powi(3) + w_max
}

/// §4.3: α_cubic = 3·(1 − β)/(1 + β), Reno's average window under AIMD(α, β).
pub fn alpha_cubic(beta: f64) -> f64 {
    3.0 * (1.0 - beta) / (1.0 + beta)
}

/// §4.2: the target W_cubic(t + RTT), kept within [cwnd, 1.5·cwnd].
pub fn target(w_next: f64, cwnd: f64) -> f64 {
    w_next.clamp(cwnd, 1.5 * cwnd)
}

/// §4.7: W_max at a congestion event at `cwnd` segments, given the last one.
pub fn next_w_max(cwnd: f64, w_max: Option<f64>, beta: f64, fast_convergence: bool) -> f64 {
    match w_max {
        Some(w) if fast_convergence && cwnd < w => cwnd * (1.0 + beta) / 2.0,
        _ => cwnd,
    }
}

/// One congestion-avoidance stage (§4.1's t_epoch, K, W_max, W_est).
#[derive(Clone, Copy, Debug)]
struct Epoch {
    /// t_epoch, moved on by time the window could not grow (§4.2, §5.8).
    start: SimTime,
    k: f64,
    w_max: f64,
    w_est: f64,
    /// α in eq. 4: α_cubic, then 1 once W_est reaches cwnd_prior (§4.3).
    alpha: f64,
}

impl Epoch {
    /// Eq. 4: W_est += α·segments_acked/cwnd; α becomes 1 once W_est >= cwnd_prior.
    fn grow_w_est(&mut self, segments_acked: f64, cwnd: f64, cwnd_prior: f64) {
        self.w_est += self.alpha * segments_acked / cwnd;
        if self.w_est >= cwnd_prior {
            self.alpha = 1.0;
        }
    }
}

/// CUBIC's runtime state.
#[derive(Clone, Debug)]
pub struct Cubic {
    beta: f64,
    c: f64,
    fast_convergence: bool,
    reduce_from: ReduceFrom,
    slow_start: SlowStart,
    /// W_max in segments; `None` before the first congestion event and after a timeout
    /// (the next epoch then takes its own start as W_max, §4.8, §4.10).
    w_max: Option<f64>,
    /// cwnd_prior in segments: cwnd when ssthresh was last set (§4.1).
    cwnd_prior: f64,
    epoch: Option<Epoch>,
    /// RFC 6298's SRTT from the samples the sender hands over (its own estimator's).
    srtt: Option<f64>,
    /// The previous ACK's time, to leave out of t the time the window was held.
    last_ack: Option<SimTime>,
    /// Window growth below one byte, carried to the next ACK.
    carry: f64,
    /// Whether the sender hands over a delivery-rate sample per ACK with its RTT: slow
    /// start's delay detectors then read those (Linux's per-ACK samples) instead of the
    /// one timed segment per round trip.
    per_ack_rtt: bool,
}

impl Cubic {
    /// An unpaced sender's CUBIC.
    pub fn new(cfg: &CubicConfig) -> Self {
        Cubic::with_pacing(cfg, false)
    }

    /// `paced`: the sender paces its segments (`CcContext::paced`), which HyStart reads.
    pub fn with_pacing(cfg: &CubicConfig, paced: bool) -> Self {
        Cubic {
            beta: cfg.beta,
            c: cfg.c,
            fast_convergence: cfg.fast_convergence,
            reduce_from: cfg.reduce_from,
            slow_start: cfg.slow_start.build(paced),
            w_max: None,
            cwnd_prior: 0.0,
            epoch: None,
            srtt: None,
            last_ack: None,
            carry: 0.0,
            per_ack_rtt: false,
        }
    }

    /// An RTT sample: RFC 6298 §2.2-2.3's SRTT for the target's RTT, and the slow start's
    /// minimum delay (Linux holds samples off just after an epoch starts).
    fn on_rtt(&mut self, now: SimTime, rtt: SimDuration) {
        let r = rtt.as_secs_f64();
        self.srtt = Some(self.srtt.map_or(r, |s| s + (r - s) / 8.0));
        if !self.per_ack_rtt {
            self.note_delay(now, rtt);
        }
    }

    fn note_delay(&mut self, now: SimTime, rtt: SimDuration) {
        if self.epoch.is_none_or(|e| now - e.start >= DELAY_SAMPLE_HOLDOFF) {
            self.slow_start.note_delay(rtt);
        }
    }

    /// §4.2: a new epoch at `cwnd` segments. With no W_max above it (none yet, after a
    /// timeout, or a window already past it) K = 0 and W_max = cwnd_epoch (§4.8, §4.10,
    /// Linux's `bic_origin_point = cwnd`); W_est starts at cwnd_epoch (§4.3).
    fn start_epoch(&mut self, now: SimTime, cwnd: f64) -> Epoch {
        let w_max = self.w_max.filter(|&w| w > cwnd).unwrap_or(cwnd);
        self.w_max = Some(w_max);
        let alpha = if cwnd >= self.cwnd_prior { 1.0 } else { alpha_cubic(self.beta) };
        Epoch { start: now, k: k(w_max, cwnd, self.c), w_max, w_est: cwnd, alpha }
    }

    /// §4.2-§4.5 on a new ACK of `acked` bytes in congestion avoidance.
    fn congestion_avoidance(&mut self, st: &mut SenderState, now: SimTime, acked: u64, previous_ack: Option<SimTime>) {
        let mss = st.mss as f64;
        if st.cwnd >= st.max_cwnd {
            // Held by the receiver's window: not growing, so t must not count this time
            // (§4.2; Linux shifts epoch_start the same way after idle).
            if let (Some(e), Some(prev)) = (self.epoch.as_mut(), previous_ack) {
                e.start += now - prev;
            }
            return;
        }
        let cwnd = (st.cwnd as f64 + self.carry) / mss;
        let mut e = match self.epoch {
            Some(e) => e,
            None => self.start_epoch(now, cwnd),
        };
        let t = (now - e.start).as_secs_f64();
        let segments_acked = acked as f64 / mss;
        e.grow_w_est(segments_acked, cwnd, self.cwnd_prior);
        let next = if w_cubic(t, e.k, e.w_max, self.c) < e.w_est {
            // §4.3: the Reno-friendly region, cwnd = W_est (never shrinking on an ACK).
            e.w_est.max(cwnd)
        } else {
            // §4.4-4.5: cwnd += (target − cwnd)/cwnd per segment acked.
            let rtt = self.srtt.unwrap_or(0.0);
            let target = target(w_cubic(t + rtt, e.k, e.w_max, self.c), cwnd);
            cwnd + (target - cwnd) / cwnd * segments_acked
        };
        self.epoch = Some(e);
        let bytes = next * mss;
        let whole = bytes.floor();
        st.cwnd = (whole as u64).min(st.max_cwnd).max(st.cwnd);
        self.carry = if st.cwnd == whole as u64 { bytes - whole } else { 0.0 };
    }

    /// §4.6: ssthresh = flight_size·β_cubic (RFC 5681's FlightSize, without limited
    /// transmit's segments), or cwnd·β_cubic as Linux and ns-3 (`reduce_from`); the
    /// caller keeps it at least 2 SMSS.
    fn reduced(&self, flight: u64, cwnd: u64) -> u64 {
        let base = match self.reduce_from {
            ReduceFrom::FlightSize => flight,
            ReduceFrom::Cwnd => cwnd,
        };
        (base as f64 * self.beta) as u64
    }

    /// Ends the epoch: the next congestion avoidance starts a new one.
    fn end_epoch(&mut self) {
        self.epoch = None;
        self.carry = 0.0;
    }
}

impl CongestionControl for Cubic {
    fn on_ack(&mut self, st: &mut SenderState, now: SimTime, acked: u64, rtt: Option<SimDuration>) {
        if let Some(r) = rtt {
            self.on_rtt(now, r);
        }
        let previous_ack = self.last_ack.replace(now);
        if st.cwnd < st.ssthresh {
            self.slow_start.on_ack(st, now, if self.per_ack_rtt { None } else { rtt });
            if st.cwnd < st.ssthresh {
                let inc = self.slow_start.growth(st, acked);
                st.cwnd = (st.cwnd + inc).min(st.max_cwnd.max(st.cwnd));
                return;
            }
            // Slow start ended without a loss (HyStart, HyStart++): §4.10, cwnd_prior = cwnd.
            self.cwnd_prior = st.cwnd as f64 / st.mss as f64;
        }
        self.congestion_avoidance(st, now, acked, previous_ack);
    }

    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64 {
        if !signal.is_congestion() {
            // Chen Fig. 1, Shagdar Fig. 3: a wireless loss keeps the window.
            return st.cwnd;
        }
        let cwnd = st.cwnd_uninflated() as f64 / st.mss as f64;
        // §4.7 before §4.6: W_max, then cwnd_prior = cwnd.
        self.w_max = Some(next_w_max(cwnd, self.w_max, self.beta, self.fast_convergence));
        self.cwnd_prior = cwnd;
        let raw = self.reduced(st.reduction_flight(), st.cwnd_uninflated());
        st.ssthresh = raw.max(2 * st.mss);
        self.end_epoch();
        st.counters.window_reductions += 1;
        // §4.6: cwnd at least 2 SMSS after a loss, 1 SMSS after ECE.
        let floor = if signal == Signal::Ecn { st.mss } else { 2 * st.mss };
        raw.max(floor)
    }

    /// The per-ACK RTT (the newest segment the ACK acknowledged, never resent) feeds the
    /// slow start's delay detectors, as Linux's `cubictcp_acked` samples every ACK. RFC
    /// 5681's slow start has none: the sender then builds no samples
    /// (`reads_rate_samples`), and one handed over anyway changes nothing.
    fn on_rate_sample(&mut self, st: &mut SenderState, now: SimTime, rs: &RateSample) {
        let Some(rtt) = rs.rtt.filter(|_| self.slow_start.reads_delay()) else { return };
        self.per_ack_rtt = true;
        self.note_delay(now, rtt);
        if !st.in_recovery && st.cwnd < st.ssthresh {
            self.slow_start.on_ack(st, now, Some(rtt));
            if st.cwnd >= st.ssthresh {
                // §4.10: slow start left without a loss; cwnd_prior = cwnd.
                self.cwnd_prior = st.cwnd as f64 / st.mss as f64;
            }
        }
    }

    /// Only the slow starts with delay detectors (HyStart, HyStart++) read the samples'
    /// RTTs; with RFC 5681's slow start `on_rate_sample` changes nothing.
    fn reads_rate_samples(&self) -> bool {
        self.slow_start.reads_delay()
    }

    fn on_timeout(&mut self, st: &mut SenderState, repeated: bool) {
        // §4.8: ssthresh as §4.6; RFC 5681 §3.1 holds it on a repeated expiry. In
        // recovery the FlightSize is inflated: use the one at entry (as `aimd.rs`).
        if !repeated {
            let mut flight = st.reduction_flight();
            if st.in_recovery {
                flight = flight.min(st.recovery_flight);
            }
            st.ssthresh = self.reduced(flight, st.cwnd_uninflated()).max(2 * st.mss);
            self.cwnd_prior = st.cwnd_uninflated() as f64 / st.mss as f64;
        }
        // §4.8: the next congestion avoidance has K = 0 and W_max = its starting cwnd.
        self.w_max = None;
        self.end_epoch();
        self.slow_start.on_timeout();
        // RFC 5681 §3.1: the loss window, one SMSS.
        st.cwnd = st.mss;
        st.counters.window_reductions += 1;
    }
}

#[cfg(test)]
#[path = "cubic_tests.rs"]
mod tests;
