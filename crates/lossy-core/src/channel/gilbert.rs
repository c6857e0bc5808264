//! The Gilbert model as Miyoshi et al. §5 simulate it: two states, Error-free (G) and
//! Error (E), left with probability p_GE = 1/L_G and p_EG = 1/L_E per unit (Eq. 2–3).
//! Instead of a draw per unit, the length of each stay is drawn at once from Eq. 4,
//! G(p) = ln(u)/ln(1 − p), rounded up: P(length = k) = (1 − p)^(k−1)·p for k ≥ 1, mean
//! 1/p, exactly the sojourn of a chain left with probability p per unit.
//!
//! Units are packets or bits (`unit`). What a unit suffers in each state is the per-state
//! bit error ratio `ber_good` / `ber_bad`. The paper is terse ("we generate wireless
//! errors and simulate whether lost or success for each sending packet"); its reading,
//! and our default, is packets as units with every unit in Error in error and none in
//! Error-free (ber_bad = 1, ber_good = 0): then the packet loss is the stationary Error
//! fraction p_GE/(p_GE + p_EG). Check with Table 2 and Tables 3–4 (800-bit packets):
//! 0.006/0.056 = 0.107 vs the paper's simulated 4461/50000 = 0.089, and 0.006/0.013 =
//! 0.462 vs 22242/50000 = 0.445: 2.2 and 0.6 standard errors of a 50,000-packet run
//! (≈ 0.008 and ≈ 0.028, from the variance of the geometric stays) below the formula,
//! i.e. consistent with it. With bits as units and the same parameters,
//! nearly every 800-bit packet would hold an Error stay (loss > 0.99), so the paper's
//! units are packets. For FEC (its "adaptive FEC" rows) the paper does not say how many
//! bits of an Error packet are wrong; set `ber_bad` < 1 for that.
//!
//! A packet is lost if any of its bits is in error. The chain starts in its stationary
//! law (by memorylessness the residual stay is again geometric with the same p).
//!
//! With packet units and a `slot`, the chain also moves while the link is idle, as the
//! fading channel it may stand for does (Chockalingam Eq. 1 fitted per link packet
//! time): one step per slot of idle time between transmissions, drawn at state changes
//! only ([`gilbert_idle`](idle)).

use super::ber::ErrorGaps;
use idle::{state_after, IdleSlots};
use super::two_state::TwoState;
use super::{Channel, ModelConfig, TxSpan, any_error_prob, chance, check_probability, one, LossProcess};
use crate::rng::RngStream;
use crate::units::Duration;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// The chain's state across an idle gap, in a file of its own.
#[path = "gilbert_idle.rs"]
mod idle;

/// What the Gilbert chain steps over.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GilbertUnit {
    /// One step per packet, whatever its size (Miyoshi §5).
    #[default]
    Packet,
    /// One step per bit (Gilbert 1960); a packet spans many steps.
    Bit,
}

/// `model = "gilbert"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GilbertConfig {
    /// P(Error-free → Error) per unit, = 1/L_G with L_G the mean Error-free length
    /// (Miyoshi Eq. 2). Table 2 uses 0.006.
    #[schemars(range(min = 0.0, max = 1.0))]
    pub p_ge: f64,
    /// P(Error → Error-free) per unit, = 1/L_E with L_E the mean Error length
    /// (Miyoshi Eq. 3). Table 2 uses 0.05 (lower BER) and 0.007 (higher BER).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub p_eg: f64,
    /// Unit in which state lengths are counted: "packet" (default, Miyoshi §5) or "bit".
    #[serde(default)]
    pub unit: GilbertUnit,
    /// Bit error ratio inside the Error-free state. Default 0 (no errors).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub ber_good: f64,
    /// Bit error ratio inside the Error state. Default 1: every bit of a unit in Error is
    /// in error, so such a packet is lost (the paper's reading). Set it below 1 to let FEC
    /// correct some Error-state codewords.
    #[serde(default = "one")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub ber_bad: f64,
    /// Only with unit = "packet": the chain also steps once per `slot` of idle time
    /// between transmissions (besides once per transmission), as a fading channel keeps
    /// changing while nothing is sent; e.g. the link packet time the chain was fitted at
    /// (`lossy channel fit`). Default: no slot, the chain steps per transmission only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<Duration>,
}

impl ModelConfig for GilbertConfig {
    fn validate(&self) -> Result<(), String> {
        check_probability("p_ge", self.p_ge)?;
        check_probability("p_eg", self.p_eg)?;
        check_probability("ber_good", self.ber_good)?;
        check_probability("ber_bad", self.ber_bad)?;
        match (self.slot, self.unit) {
            (Some(slot), _) if slot.0.as_nanos() == 0 => Err(format!(
                "slot: {} s is not a positive duration; use e.g. \"170667 ns\" (one link packet time)",
                slot.0.as_secs_f64()
            )),
            (Some(slot), GilbertUnit::Bit) => Err(format!(
                "slot: {} s is allowed only with unit = \"packet\" (bits step with the bits \
                 sent); leave slot out, or use unit = \"packet\"",
                slot.0.as_secs_f64()
            )),
            _ => Ok(()),
        }
    }
    fn makes_bit_errors(&self) -> bool {
        true
    }
    fn model_name(&self) -> &'static str {
        "gilbert"
    }
    fn build(&self, _fading: RngStream) -> Channel {
        Gilbert::new(self).into()
    }
}

impl GilbertConfig {
    /// The chain per packet (clean = no bit error in the packet) or per bit.
    fn chain(&self, bits: u64) -> (TwoState, u64) {
        let per_unit = |ber: f64, n: u64| 1.0 - any_error_prob(ber, n);
        match self.unit {
            GilbertUnit::Packet => (
                TwoState {
                    to_bad: self.p_ge,
                    to_good: self.p_eg,
                    clean_good: per_unit(self.ber_good, bits),
                    clean_bad: per_unit(self.ber_bad, bits),
                },
                1,
            ),
            GilbertUnit::Bit => (
                TwoState {
                    to_bad: self.p_ge,
                    to_good: self.p_eg,
                    clean_good: per_unit(self.ber_good, 1),
                    clean_bad: per_unit(self.ber_bad, 1),
                },
                bits,
            ),
        }
    }
}

/// The Gilbert process.
#[derive(Clone, Debug)]
pub struct Gilbert {
    cfg: GilbertConfig,
    started: bool,
    in_error: bool,
    /// Units left in the current stay.
    left: u64,
    /// Idle slots since the last transmission, when `slot` is set.
    idle: Option<IdleSlots>,
}

impl Gilbert {
    pub fn new(cfg: &GilbertConfig) -> Self {
        Gilbert {
            cfg: cfg.clone(),
            started: false,
            in_error: false,
            left: 0,
            idle: cfg.slot.map(|s| IdleSlots::new(s.0)),
        }
    }

    /// With a slot: moves the chain over the idle slots before `tx` (packet units). A
    /// gap inside the current stay costs no draw; a gap the stay ends in draws the state
    /// of the unit after the gap from the chain's n-step law and a fresh stay from it
    /// (exact by the Markov property: given that unit's state, its stay is geometric).
    fn skip_idle(&mut self, tx: TxSpan, rng: &mut RngStream) {
        let Some(idle) = self.idle.as_mut() else { return };
        let steps = idle.steps_before(tx);
        if steps == 0 || !self.started {
            return; // back to back, or the first transmission (stationary start)
        }
        if steps <= self.left {
            self.left -= steps;
            return;
        }
        // The stay ends in the gap: its unit `left` is the first in the other state, and
        // the next unit sent is n = steps − left units after that one.
        let (a, b) = (self.cfg.p_ge, self.cfg.p_eg);
        self.in_error = rng.bernoulli(state_after(a, b, !self.in_error, steps - self.left));
        self.left = Self::stay(if self.in_error { b } else { a }, rng);
    }

    /// Miyoshi Eq. 4 rounded up: 1 + ⌊ln u / ln(1 − p)⌋ units (never, if p = 0).
    fn stay(p: f64, rng: &mut RngStream) -> u64 {
        rng.geometric_failures(p).saturating_add(1)
    }

    /// The next run of at most `max` units spent in one state: (in Error, length ≥ 1).
    #[inline]
    fn next_segment(&mut self, max: u64, rng: &mut RngStream) -> (bool, u64) {
        if !self.started {
            self.started = true;
            let c = &self.cfg;
            let total = c.p_ge + c.p_eg;
            self.in_error = total > 0.0 && rng.bernoulli(c.p_ge / total);
            self.left = Self::stay(if self.in_error { c.p_eg } else { c.p_ge }, rng);
        } else if self.left == 0 {
            self.in_error = !self.in_error;
            self.left = Self::stay(
                if self.in_error {
                    self.cfg.p_eg
                } else {
                    self.cfg.p_ge
                },
                rng,
            );
        }
        let len = self.left.min(max);
        self.left -= len;
        (self.in_error, len)
    }

    fn ber(&self, in_error: bool) -> f64 {
        if in_error {
            self.cfg.ber_bad
        } else {
            self.cfg.ber_good
        }
    }
}

impl LossProcess for Gilbert {
    fn lost(&mut self, tx: TxSpan, rng: &mut RngStream) -> bool {
        let bits = tx.bits;
        match self.cfg.unit {
            GilbertUnit::Packet => {
                self.skip_idle(tx, rng);
                let (e, _) = self.next_segment(1, rng);
                chance(rng, any_error_prob(self.ber(e), bits))
            }
            GilbertUnit::Bit => {
                let (mut rest, mut lost) = (bits, false);
                while rest > 0 {
                    let (e, len) = self.next_segment(rest, rng);
                    rest -= len;
                    lost = lost || chance(rng, any_error_prob(self.ber(e), len));
                }
                lost
            }
        }
    }

    /// Real error counts: the per-state BER applies bit by bit within each stay; a fresh
    /// error gap is drawn wherever the state (hence the BER) changes (memoryless).
    fn codeword_errors(
        &mut self,
        tx: TxSpan,
        codeword_bits: u32,
        errors: &mut [u32],
        rng: &mut RngStream,
    ) {
        let n = codeword_bits as u64;
        match self.cfg.unit {
            GilbertUnit::Packet => {
                self.skip_idle(tx, rng);
                let (e, _) = self.next_segment(1, rng);
                let ber = self.ber(e);
                let mut gaps = ErrorGaps::default();
                for x in errors.iter_mut() {
                    *x = gaps.count(ber, n, rng) as u32;
                }
            }
            GilbertUnit::Bit => {
                for x in errors.iter_mut() {
                    let (mut rest, mut count) = (n, 0);
                    while rest > 0 {
                        let (e, len) = self.next_segment(rest, rng);
                        rest -= len;
                        count += ErrorGaps::default().count(self.ber(e), len, rng);
                    }
                    *x = count as u32;
                }
            }
        }
    }

    /// Packets: π_G·(1 − (1 − ber_good)^l) + π_E·(1 − (1 − ber_bad)^l), π_E = p_GE/(p_GE
    /// + p_EG). Bits: 1 − P(l clean bits in a row), exact by two_state.rs.
    fn stationary_loss(&self, bits: u64) -> Option<f64> {
        let (chain, steps) = self.cfg.chain(bits);
        Some(chain.loss(steps))
    }

    /// Exact for back-to-back packets (two_state.rs): 1/p_EG packets in the default
    /// packet reading (with a slot too: back to back, no idle slot passes).
    fn mean_burst(&self, bits: u64) -> Option<f64> {
        let (chain, steps) = self.cfg.chain(bits);
        chain.mean_burst(steps)
    }
}

#[cfg(test)]
mod tests {
    use crate::time::SimTime;
    use super::*;
    use crate::channel::testutil::{assert_within, measure};
    use crate::time::SimDuration;

    fn gilbert(p_ge: f64, p_eg: f64, unit: GilbertUnit, ber_good: f64, ber_bad: f64) -> Gilbert {
        Gilbert::new(&GilbertConfig {
            p_ge,
            p_eg,
            unit,
            ber_good,
            ber_bad,
            slot: None,
        })
    }

    // Tolerance: 5 standard errors (batch means of 10^4 packets, each many Error-free +
    // Error cycles long, for the rate; run-length sd / √runs for the burst).
    #[test]
    fn miyoshi_table_2_per_packet() {
        for (p_ge, p_eg) in [(0.006, 0.05), (0.006, 0.007)] {
            let mut ch = gilbert(p_ge, p_eg, GilbertUnit::Packet, 0.0, 1.0);
            let pi_e = p_ge / (p_ge + p_eg);
            assert!((ch.stationary_loss(800).unwrap() - pi_e).abs() < 1e-12);
            assert!((ch.mean_burst(800).unwrap() - 1.0 / p_eg).abs() < 1e-6);
            let m = measure(&mut ch, 1_000_000, 800, SimDuration::from_micros(400), 51);
            let what = format!("gilbert packet p_ge={p_ge} p_eg={p_eg}");
            assert_within(&format!("{what} loss"), m.loss, m.loss_se, pi_e, 5.0);
            assert_within(
                &format!("{what} burst"),
                m.burst,
                m.burst_se,
                1.0 / p_eg,
                5.0,
            );
        }
    }

    #[test]
    fn per_state_ber_per_packet() {
        let (p_ge, p_eg, bg, bb, l) = (0.02, 0.2, 1e-5, 1e-3, 1000);
        let mut ch = gilbert(p_ge, p_eg, GilbertUnit::Packet, bg, bb);
        let pi_e = p_ge / (p_ge + p_eg);
        let formula = (1.0 - pi_e) * (1.0 - (1.0 - bg).powi(l)) + pi_e * (1.0 - (1.0 - bb).powi(l));
        assert!((ch.stationary_loss(l as u64).unwrap() - formula).abs() < 1e-12);
        let m = measure(
            &mut ch,
            1_000_000,
            l as u64,
            SimDuration::from_micros(400),
            52,
        );
        assert_within(
            "gilbert packet per-state BER loss",
            m.loss,
            m.loss_se,
            formula,
            5.0,
        );
        let burst = ch.mean_burst(l as u64).unwrap();
        assert_within(
            "gilbert packet per-state BER burst",
            m.burst,
            m.burst_se,
            burst,
            5.0,
        );
    }

    #[test]
    fn bit_units() {
        // Pure Gilbert in bits, mean stays 2000 and 50 bits; and a softer one with BERs.
        for (p_ge, p_eg, bg, bb, l) in [(5e-4, 0.02, 0.0, 1.0, 400), (1e-4, 1e-3, 1e-6, 0.01, 1000)]
        {
            let mut ch = gilbert(p_ge, p_eg, GilbertUnit::Bit, bg, bb);
            let m = measure(&mut ch, 1_000_000, l, SimDuration::from_micros(400), 53);
            let what = format!("gilbert bit p_ge={p_ge} p_eg={p_eg} ber {bg}/{bb} l={l}");
            let (loss, burst) = (ch.stationary_loss(l).unwrap(), ch.mean_burst(l).unwrap());
            assert_within(&format!("{what} loss"), m.loss, m.loss_se, loss, 5.0);
            assert_within(&format!("{what} burst"), m.burst, m.burst_se, burst, 5.0);
        }
        // The paper's parameters in bits would lose nearly every 800-bit packet.
        let paper_in_bits = gilbert(0.006, 0.05, GilbertUnit::Bit, 0.0, 1.0);
        assert!(paper_in_bits.stationary_loss(800).unwrap() > 0.99);
    }

    #[test]
    fn error_sojourns_and_codeword_counts_in_bits() {
        // Mean errors per codeword = n·(π_G·ber_good + π_E·ber_bad); with ber_bad = 1 the
        // runs of consecutive errored bits are the Error stays, mean 1/p_eg bits.
        let (p_ge, p_eg, n) = (0.002, 0.1, 127u32);
        let mut ch = gilbert(p_ge, p_eg, GilbertUnit::Bit, 0.0, 1.0);
        let mut rng = RngStream::new(6, 0, "cw");
        let mut cw = [0u32; 8];
        let (mut total, mut codewords) = (0u64, 0u64);
        let mut batch = Vec::new();
        for _ in 0..100 {
            let mut in_batch = 0u64;
            for _ in 0..2_000 {
                ch.codeword_errors(TxSpan::at(SimTime::ZERO, 0), n, &mut cw, &mut rng);
                in_batch += cw.iter().map(|&e| e as u64).sum::<u64>();
                codewords += 8;
            }
            total += in_batch;
            batch.push(in_batch as f64 / (2_000.0 * 8.0));
        }
        let mean = total as f64 / codewords as f64;
        let var_b = batch.iter().map(|b| (b - mean).powi(2)).sum::<f64>() / 99.0;
        let want = n as f64 * p_ge / (p_ge + p_eg);
        assert_within(
            "gilbert bit errors per codeword",
            mean,
            (var_b / 100.0).sqrt(),
            want,
            5.0,
        );

        // Error stays measured directly on the state sequence.
        let mut g = gilbert(p_ge, p_eg, GilbertUnit::Bit, 0.0, 1.0);
        let (mut stays, mut len_sum, mut len_sq) = (0u64, 0f64, 0f64);
        while stays < 100_000 {
            let (e, len) = g.next_segment(u64::MAX, &mut rng);
            if e {
                stays += 1;
                len_sum += len as f64;
                len_sq += (len as f64).powi(2);
            }
        }
        let m = len_sum / stays as f64;
        let se = ((len_sq / stays as f64 - m * m) / stays as f64).sqrt();
        assert_within("gilbert mean Error stay (bits)", m, se, 1.0 / p_eg, 5.0);
    }

    #[test]
    fn codeword_counts_per_packet_unit() {
        // In Error with ber_bad = 1 every bit is wrong; in Error-free nothing is.
        let mut ch = gilbert(0.3, 0.3, GilbertUnit::Packet, 0.0, 1.0);
        let mut rng = RngStream::new(7, 0, "cw");
        let mut cw = [0u32; 4];
        let mut seen = [false; 2];
        for _ in 0..200 {
            ch.codeword_errors(TxSpan::at(SimTime::ZERO, 0), 127, &mut cw, &mut rng);
            assert!(cw == [0; 4] || cw == [127; 4], "{cw:?}");
            seen[(cw[0] == 0) as usize] = true;
        }
        assert_eq!(seen, [true, true]);
    }
}
