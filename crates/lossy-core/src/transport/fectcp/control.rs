//! FECTCP's congestion control (Botoș §II D): TCP's slow start and congestion avoidance
//! on a window of segments with no upper bound, the segments of a window paced evenly
//! over the smoothed RTT, and one timer per segment of
//!
//!   ΔT_TO = (1 + β)(sRTT + σ_RTT),  β = 1/cwnd            (Eqs. 2–3)
//!   sRTT_new = α·sRTT_old + (1 − α)·mean RTT_new           (Eq. 1)
//!
//! so that the ACK of the segment after a lost one (which acknowledges it too) arrives
//! before the lost segment's timer: a single loss is ignored, and only consecutive losses
//! let a timer expire and reduce the rate.
//!
//! The paper leaves three things open; each is a parameter (`FectcpConfig`):
//! - the mean RTT of Eq. 1: over every sample so far (`rtt_average = "all"`, the literal
//!   reading of "update the mean RTT") or over the last cwnd samples ("window");
//! - σ_RTT: the standard deviation (`sigma = "std"`, the default, so that Eq. 2 adds
//!   seconds to seconds), or the variance itself in s² read as seconds ("variance", the
//!   paper's word taken literally);
//! - the reduction: cwnd and ssthresh become `decrease`·cwnd (default 0.5, TCP's
//!   multiplicative decrease, RFC 5681 eq. 4), at most once per window of segments.

use super::config::{FectcpConfig, RttAverage, Sigma};
use std::collections::VecDeque;

/// Mean and variance of RTT samples, over all of them (Welford's update) or over a
/// sliding window of the most recent ones.
#[derive(Clone, Debug)]
pub struct RttStats {
    average: RttAverage,
    count: u64,
    mean: f64,
    /// Sum of squared deviations from the mean (Welford's M2), for `All`.
    m2: f64,
    /// The window's samples with their sum and sum of squares, for `Window`.
    recent: VecDeque<f64>,
    sum: f64,
    sum_sq: f64,
}

impl RttStats {
    pub fn new(average: RttAverage) -> Self {
        RttStats { average, count: 0, mean: 0.0, m2: 0.0, recent: VecDeque::new(), sum: 0.0, sum_sq: 0.0 }
    }

    /// Adds a sample in seconds; `window` is how many recent samples `Window` keeps.
    pub fn add(&mut self, s: f64, window: usize) {
        self.count += 1;
        match self.average {
            RttAverage::All => {
                let d = s - self.mean;
                self.mean += d / self.count as f64;
                self.m2 += d * (s - self.mean);
            }
            RttAverage::Window => {
                self.recent.push_back(s);
                self.sum += s;
                self.sum_sq += s * s;
                while self.recent.len() > window.max(1) {
                    let old = self.recent.pop_front().unwrap_or_default();
                    self.sum -= old;
                    self.sum_sq -= old * old;
                }
                // Re-add from scratch now and then: running sums drift by rounding.
                if self.count % 4096 == 0 {
                    self.sum = self.recent.iter().sum();
                    self.sum_sq = self.recent.iter().map(|x| x * x).sum();
                }
            }
        }
    }

    pub fn mean(&self) -> f64 {
        match self.average {
            RttAverage::All => self.mean,
            RttAverage::Window => self.sum / self.recent.len().max(1) as f64,
        }
    }

    /// The population variance of the samples kept (0 with fewer than two).
    pub fn variance(&self) -> f64 {
        match self.average {
            RttAverage::All if self.count > 1 => (self.m2 / self.count as f64).max(0.0),
            RttAverage::Window if self.recent.len() > 1 => {
                let n = self.recent.len() as f64;
                (self.sum_sq / n - (self.sum / n).powi(2)).max(0.0)
            }
            _ => 0.0,
        }
    }
}

/// The sender's window, smoothed RTT and timer (Eqs. 1–3).
#[derive(Clone, Debug)]
pub struct Control {
    alpha: f64,
    sigma: Sigma,
    decrease: f64,
    /// Congestion window in segments; no upper bound (§II D).
    pub cwnd: f64,
    /// Slow-start threshold in segments; unbounded until the first reduction.
    pub ssthresh: f64,
    srtt: Option<f64>,
    stats: RttStats,
}

impl Control {
    pub fn new(c: &FectcpConfig) -> Self {
        Control {
            alpha: c.alpha,
            sigma: c.sigma,
            decrease: c.decrease,
            cwnd: c.initial_window as f64,
            ssthresh: f64::INFINITY,
            srtt: None,
            stats: RttStats::new(c.rtt_average),
        }
    }

    /// One RTT sample, in seconds: the mean and variance take it, then Eq. 1 (the first
    /// sample sets sRTT to it).
    pub fn on_rtt(&mut self, s: f64) {
        self.stats.add(s, self.cwnd.ceil() as usize);
        let mean = self.stats.mean();
        self.srtt = Some(match self.srtt {
            None => mean,
            Some(old) => self.alpha * old + (1.0 - self.alpha) * mean,
        });
    }

    /// An ACK that acknowledged new segments: slow start adds one segment, congestion
    /// avoidance 1/cwnd (RFC 5681 §3.1's per-ACK rules, in segments).
    pub fn on_ack(&mut self) {
        if self.cwnd < self.ssthresh {
            self.cwnd += 1.0;
        } else {
            self.cwnd += 1.0 / self.cwnd;
        }
    }

    /// A segment's timer expired (consecutive losses): multiplicative decrease.
    pub fn on_loss(&mut self) {
        self.cwnd = (self.cwnd * self.decrease).max(1.0);
        self.ssthresh = self.cwnd;
    }

    pub fn srtt(&self) -> Option<f64> {
        self.srtt
    }

    /// σ_RTT of Eq. 2 as configured.
    pub fn sigma(&self) -> f64 {
        match self.sigma {
            Sigma::Std => self.stats.variance().sqrt(),
            Sigma::Variance => self.stats.variance(),
        }
    }

    /// Eqs. 2–3: ΔT_TO = (1 + 1/cwnd)(sRTT + σ_RTT), in seconds (`None` before a sample).
    pub fn timer(&self) -> Option<f64> {
        self.srtt.map(|srtt| (1.0 + 1.0 / self.cwnd) * (srtt + self.sigma()))
    }

    /// The gap between two segments of a window: sRTT/cwnd, so a window spreads evenly
    /// over one round trip (§II D). Zero before the first sample.
    pub fn pacing_gap(&self) -> f64 {
        self.srtt.map_or(0.0, |srtt| srtt / self.cwnd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(average: RttAverage, sigma: Sigma) -> Control {
        Control::new(&FectcpConfig { rtt_average: average, sigma, initial_window: 2, ..FectcpConfig::default() })
    }

    #[test]
    fn welford_mean_and_population_variance() {
        let mut s = RttStats::new(RttAverage::All);
        for x in [0.1, 0.2, 0.3, 0.4] {
            s.add(x, 1);
        }
        assert!((s.mean() - 0.25).abs() < 1e-12);
        assert!((s.variance() - 0.0125).abs() < 1e-12);
    }

    #[test]
    fn window_keeps_only_the_recent_samples() {
        let mut s = RttStats::new(RttAverage::Window);
        for x in [10.0, 0.1, 0.3] {
            s.add(x, 2);
        }
        assert!((s.mean() - 0.2).abs() < 1e-12);
        assert!((s.variance() - 0.01).abs() < 1e-12);
    }

    #[test]
    fn eq1_smooths_the_mean_with_alpha() {
        let mut c = control(RttAverage::All, Sigma::Std);
        c.on_rtt(0.1);
        assert_eq!(c.srtt(), Some(0.1));
        c.on_rtt(0.3); // mean 0.2; sRTT = 0.875·0.1 + 0.125·0.2
        assert!((c.srtt().unwrap() - 0.1125).abs() < 1e-12);
    }

    #[test]
    fn eq2_timer_is_one_plus_inverse_cwnd_times_srtt_plus_sigma() {
        let mut c = control(RttAverage::All, Sigma::Std);
        assert_eq!(c.timer(), None);
        c.on_rtt(0.1);
        c.on_rtt(0.3);
        // cwnd 2, sRTT 0.1125, σ = std{0.1, 0.3} = 0.1.
        assert!((c.timer().unwrap() - 1.5 * (0.1125 + 0.1)).abs() < 1e-12);
        let mut v = control(RttAverage::All, Sigma::Variance);
        v.on_rtt(0.1);
        v.on_rtt(0.3);
        assert!((v.timer().unwrap() - 1.5 * (0.1125 + 0.01)).abs() < 1e-12);
    }

    #[test]
    fn the_next_segments_ack_beats_a_lost_segments_timer() {
        // Segment i is lost, i+1 (sent sRTT/cwnd later) is ACKed one RTT after it was
        // sent: that ACK comes (1 + 1/cwnd)·RTT after i was sent, within i's timer as long
        // as σ ≥ 0. Two losses in a row push the ACK to (1 + 2/cwnd)·RTT: past the timer
        // when σ is small.
        let mut c = control(RttAverage::All, Sigma::Std);
        c.cwnd = 10.0;
        c.on_rtt(0.2);
        let timer = c.timer().unwrap();
        assert!(0.2 + c.pacing_gap() <= timer);
        assert!(0.2 + 2.0 * c.pacing_gap() > timer);
    }

    #[test]
    fn slow_start_then_avoidance_and_halving() {
        let mut c = control(RttAverage::All, Sigma::Std);
        c.on_ack();
        assert_eq!(c.cwnd, 3.0);
        c.on_loss();
        assert_eq!((c.cwnd, c.ssthresh), (1.5, 1.5));
        c.on_ack();
        assert!((c.cwnd - (1.5 + 1.0 / 1.5)).abs() < 1e-12);
        for _ in 0..10 {
            c.on_loss();
        }
        assert_eq!(c.cwnd, 1.0);
    }

    #[test]
    fn pacing_spreads_a_window_over_srtt() {
        let mut c = control(RttAverage::All, Sigma::Std);
        assert_eq!(c.pacing_gap(), 0.0);
        c.on_rtt(0.1);
        assert!((c.pacing_gap() - 0.05).abs() < 1e-12);
    }
}
