//! Independent bit errors at ratio `ber` (the AWGN channel seen after demodulation). A
//! packet of l bits is lost on any bit error: P = 1 − (1 − ber)^l (Miyoshi Eq. A·1).
//!
//! Rather than one draw per bit, we draw the geometric gap to the next bit error, P(gap
//! = k) = (1 − ber)^k·ber, and carry what is left of it into the next packet: a clean
//! packet costs no draw at all, a packet with errors O(1) draws (O(errors) when they are
//! counted per codeword).

use super::{Channel, ModelConfig, TxSpan, check_probability, LossProcess};
use crate::rng::RngStream;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `model = "ber"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BerConfig {
    /// Bit error ratio in [0, 1]: each bit is in error independently with this
    /// probability; a packet with at least one bit error is lost (or, under FEC, each
    /// codeword's errors are counted).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub ber: f64,
}

impl ModelConfig for BerConfig {
    fn validate(&self) -> Result<(), String> {
        check_probability("ber", self.ber)
    }
    fn makes_bit_errors(&self) -> bool {
        true
    }
    fn model_name(&self) -> &'static str {
        "ber"
    }
    fn build(&self, _fading: RngStream) -> Channel {
        Ber::new(self).into()
    }
}

/// A stream of independent bit errors, kept as the number of clean bits before the next
/// error. Memorylessness lets a caller discard the gap and draw afresh at any bit
/// boundary (e.g. where the BER changes) without changing the law of the errors.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ErrorGaps {
    clean_before_next: Option<u64>,
}

impl ErrorGaps {
    fn gap(&mut self, ber: f64, rng: &mut RngStream) -> u64 {
        match self.clean_before_next {
            Some(g) => g,
            None => rng.geometric_failures(ber),
        }
    }

    /// Is any of the next `bits` bits in error?
    #[inline]
    pub fn any(&mut self, ber: f64, bits: u64, rng: &mut RngStream) -> bool {
        if bits == 0 || ber <= 0.0 {
            return false;
        }
        if ber >= 1.0 {
            return true;
        }
        let gap = self.gap(ber, rng);
        if gap >= bits {
            self.clean_before_next = Some(gap - bits);
            false
        } else {
            // Errors after the first in this packet do not matter; the bits after the
            // packet are independent of them, so the next gap starts afresh there.
            self.clean_before_next = Some(rng.geometric_failures(ber));
            true
        }
    }

    /// How many of the next `bits` bits are in error (Binomial(bits, ber)).
    pub fn count(&mut self, ber: f64, bits: u64, rng: &mut RngStream) -> u64 {
        if bits == 0 || ber <= 0.0 {
            return 0;
        }
        if ber >= 1.0 {
            return bits;
        }
        let mut gap = self.gap(ber, rng);
        let mut left = bits;
        let mut n = 0;
        while gap < left {
            n += 1;
            left -= gap + 1;
            gap = rng.geometric_failures(ber);
        }
        self.clean_before_next = Some(gap - left);
        n
    }
}

/// The independent-bit-error process.
#[derive(Clone, Debug)]
pub struct Ber {
    ber: f64,
    gaps: ErrorGaps,
}

impl Ber {
    pub fn new(cfg: &BerConfig) -> Self {
        Ber {
            ber: cfg.ber,
            gaps: ErrorGaps::default(),
        }
    }
}

impl LossProcess for Ber {
    #[inline]
    fn lost(&mut self, tx: TxSpan, rng: &mut RngStream) -> bool {
        self.gaps.any(self.ber, tx.bits, rng)
    }

    fn codeword_errors(
        &mut self,
        _tx: TxSpan,
        codeword_bits: u32,
        errors: &mut [u32],
        rng: &mut RngStream,
    ) {
        for e in errors.iter_mut() {
            *e = self.gaps.count(self.ber, codeword_bits as u64, rng) as u32;
        }
    }

    /// Miyoshi Eq. A·1: P = 1 − (1 − ber)^bits.
    fn stationary_loss(&self, bits: u64) -> Option<f64> {
        Some(super::any_error_prob(self.ber, bits))
    }

    /// Packets are independent, so runs are geometric with mean 1/(1 − P).
    fn mean_burst(&self, bits: u64) -> Option<f64> {
        let p = super::any_error_prob(self.ber, bits);
        (p > 0.0).then(|| 1.0 / (1.0 - p))
    }
}

#[cfg(test)]
mod tests {
    use crate::time::SimTime;
    use super::*;
    use crate::channel::testutil::{assert_within, measure};
    use crate::time::SimDuration;

    // Tolerance: 5 standard errors (see bernoulli.rs).
    #[test]
    fn loss_rate_and_burst_match_formula() {
        for (ber, bits) in [(1e-5, 8000), (1e-4, 12_000), (2e-3, 1000)] {
            let mut ch = Ber::new(&BerConfig { ber });
            let m = measure(&mut ch, 1_000_000, bits, SimDuration::from_millis(4), 31);
            let what = format!("ber={ber} bits={bits}");
            assert_within(
                &format!("{what} loss"),
                m.loss,
                m.loss_se,
                ch.stationary_loss(bits).unwrap(),
                5.0,
            );
            assert_within(
                &format!("{what} burst"),
                m.burst,
                m.burst_se,
                ch.mean_burst(bits).unwrap(),
                5.0,
            );
        }
    }

    #[test]
    fn codeword_error_counts_are_binomial() {
        // BCH(127, ·) codewords, 8 per packet. Mean = ber·n, variance = ber(1 − ber)·n;
        // tolerance 5 standard errors of the mean over all codewords.
        let (ber, n) = (3e-3, 127u32);
        let mut ch = Ber::new(&BerConfig { ber });
        let mut rng = RngStream::new(5, 0, "cw");
        let mut cw = [0u32; 8];
        let (mut sum, mut sq, mut count, mut lost_packets) = (0f64, 0f64, 0u64, 0u64);
        let packets = 200_000;
        for _ in 0..packets {
            ch.codeword_errors(TxSpan::at(SimTime::ZERO, 0), n, &mut cw, &mut rng);
            lost_packets += cw.iter().any(|&e| e > 0) as u64;
            for &e in &cw {
                sum += e as f64;
                sq += (e as f64).powi(2);
                count += 1;
            }
        }
        let mean = sum / count as f64;
        let var = sq / count as f64 - mean * mean;
        let want_var = ber * (1.0 - ber) * n as f64;
        assert_within(
            "ber codeword mean errors",
            mean,
            (want_var / count as f64).sqrt(),
            ber * n as f64,
            5.0,
        );
        // Sample variance of a near-Poisson count: relative se ≈ √(2/count) ≈ 0.1 %.
        assert!(
            (var / want_var - 1.0).abs() < 0.02,
            "variance {var} vs {want_var}"
        );
        // A packet has some error with probability 1 − (1 − ber)^(8·127).
        let p = ch.stationary_loss(8 * 127).unwrap();
        let se = (p * (1.0 - p) / packets as f64).sqrt();
        assert_within(
            "ber packets with an error",
            lost_packets as f64 / packets as f64,
            se,
            p,
            5.0,
        );
    }

    #[test]
    fn zero_and_one() {
        let mut rng = RngStream::new(1, 0, "b");
        let mut clean = Ber::new(&BerConfig { ber: 0.0 });
        let mut dirty = Ber::new(&BerConfig { ber: 1.0 });
        let mut cw = [5u32; 3];
        assert!(!clean.lost(TxSpan::at(SimTime::ZERO, 1 << 40), &mut rng));
        clean.codeword_errors(TxSpan::at(SimTime::ZERO, 0), 127, &mut cw, &mut rng);
        assert_eq!(cw, [0; 3]);
        assert!(dirty.lost(TxSpan::at(SimTime::ZERO, 1), &mut rng));
        assert!(!dirty.lost(TxSpan::at(SimTime::ZERO, 0), &mut rng));
        dirty.codeword_errors(TxSpan::at(SimTime::ZERO, 0), 127, &mut cw, &mut rng);
        assert_eq!(cw, [127; 3]);
    }
}
