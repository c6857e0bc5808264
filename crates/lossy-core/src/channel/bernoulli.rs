//! Independent packet loss ("uniform loss model" of Chen et al. §6): each packet is lost
//! with probability `p` whatever its size or time. Loss = p; a run of losses is geometric
//! with mean 1/(1 − p).

use super::{Channel, ModelConfig, TxSpan, check_probability, LossProcess};
use crate::rng::RngStream;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `model = "bernoulli"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BernoulliConfig {
    /// Probability that a packet is lost, in [0, 1], independently of every other packet.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub p: f64,
}

impl ModelConfig for BernoulliConfig {
    fn validate(&self) -> Result<(), String> {
        check_probability("p", self.p)
    }
    fn makes_bit_errors(&self) -> bool {
        false
    }
    fn model_name(&self) -> &'static str {
        "bernoulli"
    }
    fn build(&self, _fading: RngStream) -> Channel {
        Bernoulli::new(self).into()
    }
}

/// The Bernoulli loss process (stateless).
#[derive(Clone, Debug)]
pub struct Bernoulli {
    p: f64,
}

impl Bernoulli {
    pub fn new(cfg: &BernoulliConfig) -> Self {
        Bernoulli { p: cfg.p }
    }
}

impl LossProcess for Bernoulli {
    #[inline]
    fn lost(&mut self, _tx: TxSpan, rng: &mut RngStream) -> bool {
        rng.bernoulli(self.p)
    }

    fn stationary_loss(&self, _bits: u64) -> Option<f64> {
        Some(self.p)
    }

    /// Runs of losses are geometric: P(run = k) = p^(k−1)(1 − p), mean 1/(1 − p).
    fn mean_burst(&self, _bits: u64) -> Option<f64> {
        (self.p > 0.0).then(|| 1.0 / (1.0 - self.p))
    }
}

#[cfg(test)]
mod tests {
    use crate::time::SimTime;
    use super::*;
    use crate::channel::testutil::{assert_within, measure};
    use crate::time::SimDuration;

    // Tolerance: 5 standard errors (batch means for the rate, run-length sd / √runs for
    // the burst); with a fixed seed the result is deterministic, and 5 se leaves room
    // for any seed (two-sided normal tail at 5 se ≈ 6e-7).
    #[test]
    fn loss_rate_and_burst_match_formula() {
        for p in [0.01, 0.3] {
            let mut ch = Bernoulli::new(&BernoulliConfig { p });
            let m = measure(&mut ch, 1_000_000, 8000, SimDuration::from_millis(4), 21);
            assert_within(&format!("bernoulli p={p} loss"), m.loss, m.loss_se, p, 5.0);
            let burst = ch.mean_burst(8000).unwrap();
            assert_within(
                &format!("bernoulli p={p} burst"),
                m.burst,
                m.burst_se,
                burst,
                5.0,
            );
        }
    }

    #[test]
    fn extremes() {
        let mut rng = RngStream::new(1, 0, "b");
        let mut never = Bernoulli::new(&BernoulliConfig { p: 0.0 });
        let mut always = Bernoulli::new(&BernoulliConfig { p: 1.0 });
        for _ in 0..1000 {
            assert!(!never.lost(TxSpan::at(SimTime::ZERO, 100), &mut rng));
            assert!(always.lost(TxSpan::at(SimTime::ZERO, 100), &mut rng));
        }
        assert_eq!(never.mean_burst(100), None);
        assert_eq!(always.mean_burst(100), Some(f64::INFINITY));
    }
}
