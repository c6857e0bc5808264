//! Two-state Markov loss in continuous time, the "burst loss model" of Chen et al.
//! (Syndrome, Fig. 8): the sojourns in states A and B are exponential with means μ_A and
//! μ_B (0.075 s and 0.00375 s in the paper), and a packet is lost with probability
//! `loss_a` or `loss_b` according to the state at the time `now` its transmission ends
//! (0.0002 in A and a swept p in B in the paper). Between packets the state process is
//! advanced to `now` by drawing exponential sojourns.
//!
//! Stationary loss = (loss_a·μ_A + loss_b·μ_B)/(μ_A + μ_B). The mean loss run depends on
//! packet timing, so `mean_burst` is `None`; [`Markov::mean_burst_at_spacing`] gives it
//! exactly for packets a fixed time apart. The process starts in its stationary law at
//! the first packet (Chen does not say; ns-2's two-state model starts in state 0).

use super::two_state::TwoState;
use super::{Channel, ModelConfig, TxSpan, chance, check_positive, check_probability, LossProcess};
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use crate::units::Duration;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `model = "markov"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkovConfig {
    /// Mean sojourn in state A (exponential), e.g. "75 ms" (Chen et al. Fig. 8: μ_A).
    pub mean_a: Duration,
    /// Mean sojourn in state B (exponential), e.g. "3.75 ms" (Chen et al. Fig. 8: μ_B).
    pub mean_b: Duration,
    /// Loss probability of a packet sent while in state A (Chen et al.: 0.0002).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub loss_a: f64,
    /// Loss probability of a packet sent while in state B (Chen et al.: swept p).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub loss_b: f64,
}

impl ModelConfig for MarkovConfig {
    fn validate(&self) -> Result<(), String> {
        check_positive("mean_a", self.mean_a)?;
        check_positive("mean_b", self.mean_b)?;
        check_probability("loss_a", self.loss_a)?;
        check_probability("loss_b", self.loss_b)
    }
    fn makes_bit_errors(&self) -> bool {
        false
    }
    fn model_name(&self) -> &'static str {
        "markov"
    }
    fn build(&self, _fading: RngStream) -> Channel {
        Markov::new(self).into()
    }
}

/// Beyond this many mean A+B cycles since the last switch, jump straight to `now` with
/// the exact transition law instead of drawing every sojourn in between.
const JUMP_CYCLES: f64 = 32.0;

/// The continuous-time two-state process.
#[derive(Clone, Debug)]
pub struct Markov {
    mean_a: f64,
    mean_b: f64,
    loss_a: f64,
    loss_b: f64,
    in_b: bool,
    /// When the current sojourn ends; `None` before the first packet.
    next_switch: Option<SimTime>,
}

impl Markov {
    pub fn new(cfg: &MarkovConfig) -> Self {
        Markov {
            mean_a: cfg.mean_a.0.as_secs_f64(),
            mean_b: cfg.mean_b.0.as_secs_f64(),
            loss_a: cfg.loss_a,
            loss_b: cfg.loss_b,
            in_b: false,
            next_switch: None,
        }
    }

    fn pi_b(&self) -> f64 {
        self.mean_b / (self.mean_a + self.mean_b)
    }

    /// Rate at which a two-state chain forgets its state: ν = 1/μ_A + 1/μ_B.
    fn nu(&self) -> f64 {
        1.0 / self.mean_a + 1.0 / self.mean_b
    }

    /// Moves the state process to `now` (right-continuous: a switch at `now` counts).
    fn advance(&mut self, now: SimTime, rng: &mut RngStream) {
        let mut t = match self.next_switch {
            None => {
                self.in_b = rng.bernoulli(self.pi_b());
                now
            }
            Some(t) if now < t => return,
            Some(t) => {
                self.in_b = !self.in_b;
                t
            }
        };
        // Invariant: the state is `in_b` from `t` on, and its residual stay is still
        // exponential (memoryless).
        loop {
            let gap = now.since(t).as_secs_f64();
            if gap > JUMP_CYCLES * (self.mean_a + self.mean_b) {
                // P(B at t+Δ | state at t) = π_B + (1[B] − π_B)·e^(−νΔ).
                let pb = self.pi_b();
                let start = if self.in_b { 1.0 } else { 0.0 };
                self.in_b = rng.bernoulli(pb + (start - pb) * (-self.nu() * gap).exp());
                t = now;
            }
            let mean = if self.in_b { self.mean_b } else { self.mean_a };
            let end = t + SimDuration::from_secs_f64(rng.exponential(mean));
            if end > now {
                self.next_switch = Some(end);
                return;
            }
            self.in_b = !self.in_b;
            t = end;
        }
    }

    /// Exact mean run of consecutive lost packets for packets exactly `spacing` apart:
    /// the state sampled every Δ is a two-state chain with P(A→B) = π_B(1 − e^(−νΔ)) and
    /// P(B→A) = π_A(1 − e^(−νΔ)), fed to two_state.rs. `None` if nothing is ever lost.
    pub fn mean_burst_at_spacing(&self, spacing: SimDuration) -> Option<f64> {
        let mix = -(-self.nu() * spacing.as_secs_f64()).exp_m1();
        let pb = self.pi_b();
        TwoState {
            to_bad: pb * mix,
            to_good: (1.0 - pb) * mix,
            clean_good: 1.0 - self.loss_a,
            clean_bad: 1.0 - self.loss_b,
        }
        .mean_burst(1)
    }
}

impl LossProcess for Markov {
    #[inline]
    fn lost(&mut self, tx: TxSpan, rng: &mut RngStream) -> bool {
        // The state when the transmission ends decides (as before time entered the span).
        self.advance(tx.end, rng);
        chance(rng, if self.in_b { self.loss_b } else { self.loss_a })
    }

    /// (loss_a·μ_A + loss_b·μ_B)/(μ_A + μ_B): the state at a time independent of the
    /// process is B with probability μ_B/(μ_A + μ_B).
    fn stationary_loss(&self, _bits: u64) -> Option<f64> {
        Some((self.loss_a * self.mean_a + self.loss_b * self.mean_b) / (self.mean_a + self.mean_b))
    }

    /// Depends on packet timing: see [`Markov::mean_burst_at_spacing`].
    fn mean_burst(&self, _bits: u64) -> Option<f64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::testutil::{assert_within, measure};

    fn chen(loss_a: f64, loss_b: f64) -> Markov {
        Markov::new(&MarkovConfig {
            mean_a: Duration(SimDuration::from_millis(75)),
            mean_b: Duration(SimDuration::from_micros(3750)),
            loss_a,
            loss_b,
        })
    }

    // Tolerance: 5 standard errors (batch means of 10^4 packets = 40 s ≫ the 79 ms cycle
    // for the rate; run-length sd / √runs for the burst).
    #[test]
    fn chen_fig_8_loss_and_burst_at_4_ms_spacing() {
        // 1000-byte packets back to back at 2 Mbps (Chen Fig. 9 links): one per 4 ms.
        let spacing = SimDuration::from_millis(4);
        for (la, lb) in [(0.0002, 0.5), (0.0, 1.0)] {
            let mut ch = chen(la, lb);
            let formula = (la * 0.075 + lb * 0.00375) / (0.075 + 0.00375);
            assert!((ch.stationary_loss(8000).unwrap() - formula).abs() < 1e-12);
            let m = measure(&mut ch, 1_000_000, 8000, spacing, 61);
            let what = format!("markov chen loss_a={la} loss_b={lb} @4ms");
            assert_within(&format!("{what} loss"), m.loss, m.loss_se, formula, 5.0);
            let burst = ch.mean_burst_at_spacing(spacing).unwrap();
            assert_within(&format!("{what} burst"), m.burst, m.burst_se, burst, 5.0);
        }
    }

    #[test]
    fn dense_packets_see_long_bursts() {
        // 0.1 ms apart: a B stay of 3.75 ms covers ~37 packets.
        let spacing = SimDuration::from_micros(100);
        let mut ch = chen(0.0, 1.0);
        let m = measure(&mut ch, 1_000_000, 1000, spacing, 62);
        let burst = ch.mean_burst_at_spacing(spacing).unwrap();
        assert!(burst > 30.0, "{burst}");
        assert_within(
            "markov @0.1ms loss",
            m.loss,
            m.loss_se,
            ch.stationary_loss(0).unwrap(),
            5.0,
        );
        assert_within("markov @0.1ms burst", m.burst, m.burst_se, burst, 5.0);
    }

    #[test]
    fn long_gaps_jump_exactly() {
        // 10 s apart (> 32 cycles): the jump path; packets are then nearly independent.
        let spacing = SimDuration::from_secs(10);
        let mut ch = chen(0.0, 1.0);
        let m = measure(&mut ch, 200_000, 8000, spacing, 63);
        let p = ch.stationary_loss(0).unwrap();
        assert_within("markov @10s loss", m.loss, m.loss_se, p, 5.0);
        let burst = ch.mean_burst_at_spacing(spacing).unwrap();
        assert!((burst - 1.0 / (1.0 - p)).abs() < 1e-9);
        assert_within("markov @10s burst", m.burst, m.burst_se, burst, 5.0);
    }

    #[test]
    fn mean_burst_is_timing_dependent() {
        assert_eq!(chen(0.0, 1.0).mean_burst(8000), None);
        assert_eq!(
            chen(0.0, 0.0).mean_burst_at_spacing(SimDuration::from_millis(1)),
            None
        );
    }
}
