//! Gilbert–Elliott loss per packet, with netem's four parameters. Linux writes it
//! `tc qdisc … netem loss gemodel p r 1-h 1-k`; here
//!
//! | lossy       | netem / Gilbert–Elliott            |
//! |-------------|------------------------------------|
//! | `p`         | p = P(Good → Bad)                  |
//! | `r`         | r = P(Bad → Good)                  |
//! | `bad_loss`  | 1 − h (h: P(delivered) in Bad)     |
//! | `good_loss` | 1 − k (k: P(delivered) in Good)    |
//!
//! Order of draws, as netem's `loss_gilb_ell()` (net/sched/sch_netem.c): first the
//! transition is drawn, then the loss is drawn with the loss probability of the state
//! the packet was in *before* that transition. So packet n sees state Sₙ and the chain
//! moves to Sₙ₊₁ afterwards. Unlike netem, which starts in Good, the chain starts in its
//! stationary law, so the expected loss of any window of packets is the stationary loss.
//!
//! Stationary loss = (1−k)·r/(p+r) + (1−h)·p/(p+r); mean stay in Bad = 1/r packets
//! (REFERENCES.md "Channels"); with k = 1, h = 0 the mean loss run is 1/r.

use super::two_state::TwoState;
use super::{Channel, ModelConfig, TxSpan, chance, check_probability, one, LossProcess};
use crate::rng::RngStream;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `model = "gilbert_elliott"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GilbertElliottConfig {
    /// P(Good → Bad) after each packet (netem `p`); mean stay in Good = 1/p packets.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub p: f64,
    /// P(Bad → Good) after each packet (netem `r`); mean stay in Bad = 1/r packets.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub r: f64,
    /// Loss probability of a packet in Bad, 1 − h (netem's third gemodel number).
    /// Default 1: the Bad state loses every packet (Gilbert's original model).
    #[serde(default = "one")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub bad_loss: f64,
    /// Loss probability of a packet in Good, 1 − k (netem's fourth gemodel number).
    /// Default 0.
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub good_loss: f64,
}

impl ModelConfig for GilbertElliottConfig {
    fn validate(&self) -> Result<(), String> {
        check_probability("p", self.p)?;
        check_probability("r", self.r)?;
        check_probability("bad_loss", self.bad_loss)?;
        check_probability("good_loss", self.good_loss)
    }
    fn makes_bit_errors(&self) -> bool {
        false
    }
    fn model_name(&self) -> &'static str {
        "gilbert_elliott"
    }
    fn build(&self, _fading: RngStream) -> Channel {
        GilbertElliott::new(self).into()
    }
}

impl GilbertElliottConfig {
    fn chain(&self) -> TwoState {
        TwoState {
            to_bad: self.p,
            to_good: self.r,
            clean_good: 1.0 - self.good_loss,
            clean_bad: 1.0 - self.bad_loss,
        }
    }
}

/// The Gilbert–Elliott process; the state is drawn at the first packet.
#[derive(Clone, Debug)]
pub struct GilbertElliott {
    cfg: GilbertElliottConfig,
    bad: Option<bool>,
}

impl GilbertElliott {
    pub fn new(cfg: &GilbertElliottConfig) -> Self {
        GilbertElliott {
            cfg: cfg.clone(),
            bad: None,
        }
    }
}

impl LossProcess for GilbertElliott {
    #[inline]
    fn lost(&mut self, _tx: TxSpan, rng: &mut RngStream) -> bool {
        let c = &self.cfg;
        let bad = match self.bad {
            Some(b) => b,
            None => rng.bernoulli(c.chain().pi_bad()),
        };
        // netem loss_gilb_ell(): transition draw first, then loss by the old state.
        let next = if bad {
            !rng.bernoulli(c.r)
        } else {
            rng.bernoulli(c.p)
        };
        let lost = chance(rng, if bad { c.bad_loss } else { c.good_loss });
        self.bad = Some(next);
        lost
    }

    fn stationary_loss(&self, _bits: u64) -> Option<f64> {
        Some(self.cfg.chain().loss(1))
    }

    /// Exact for the hidden chain (two_state.rs); 1/r when good_loss = 0, bad_loss = 1.
    fn mean_burst(&self, _bits: u64) -> Option<f64> {
        self.cfg.chain().mean_burst(1)
    }
}

#[cfg(test)]
mod tests {
    use crate::time::SimTime;
    use super::*;
    use crate::channel::testutil::{assert_within, measure};
    use crate::time::SimDuration;

    fn ge(p: f64, r: f64, bad_loss: f64, good_loss: f64) -> GilbertElliott {
        GilbertElliott::new(&GilbertElliottConfig {
            p,
            r,
            bad_loss,
            good_loss,
        })
    }

    // Tolerance: 5 standard errors; the loss-rate se is by batch means (100 batches of
    // 10^4 packets, each much longer than a Good+Bad cycle), so it includes burstiness.
    #[test]
    fn loss_rate_and_burst_match_formula() {
        for (p, r, h1, k1) in [
            (0.01, 0.25, 1.0, 0.0),
            (0.02, 0.1, 0.7, 0.001),
            (0.05, 0.5, 0.5, 0.0),
        ] {
            let mut ch = ge(p, r, h1, k1);
            let m = measure(&mut ch, 1_000_000, 8000, SimDuration::from_millis(4), 41);
            let what = format!("GE p={p} r={r} 1-h={h1} 1-k={k1}");
            // REFERENCES.md: (1−k)·r/(p+r) + (1−h)·p/(p+r).
            let formula = k1 * r / (p + r) + h1 * p / (p + r);
            assert!((ch.stationary_loss(8000).unwrap() - formula).abs() < 1e-12);
            assert_within(&format!("{what} loss"), m.loss, m.loss_se, formula, 5.0);
            let burst = ch.mean_burst(8000).unwrap();
            if h1 == 1.0 && k1 == 0.0 {
                assert!((burst - 1.0 / r).abs() < 1e-9);
            }
            assert_within(&format!("{what} burst"), m.burst, m.burst_se, burst, 5.0);
        }
    }

    #[test]
    fn frozen_chain_stays_good() {
        let mut ch = ge(0.0, 0.0, 1.0, 0.0);
        let mut rng = RngStream::new(1, 0, "ge");
        assert!((0..10_000).all(|_| !ch.lost(TxSpan::at(SimTime::ZERO, 8000), &mut rng)));
        assert_eq!(ch.stationary_loss(8000), Some(0.0));
        assert_eq!(ch.mean_burst(8000), None);
    }
}
