//! Bit errors at a constant SNR (Shagdar et al. §IV, Eq. 1): the bit error ratio of a
//! modulation in AWGN at the SNR per bit, DPSK P_e = ½·exp(−10^(SNR/10)) as the paper
//! writes it (Rappaport), or BPSK ½·erfc(√γ) (`modulation.rs`). The bits then err
//! independently, as `model = "ber"` at that ratio. With fading, use `model = "rayleigh"`,
//! whose SNR moves with the fades.

use super::modulation::{db_to_linear, Modulation};
use super::{Ber, BerConfig, Channel, ModelConfig};
use crate::rng::RngStream;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `model = "snr"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnrConfig {
    /// SNR per bit in dB, -100 to 100 (Shagdar: 8.5 to 11.5).
    pub snr_db: f64,
    /// "dpsk" (default: Shagdar's Eq. 1) or "bpsk".
    #[serde(default = "dpsk")]
    pub modulation: Modulation,
}

fn dpsk() -> Modulation {
    Modulation::Dpsk
}

impl ModelConfig for SnrConfig {
    fn validate(&self) -> Result<(), String> {
        if !(-100.0..=100.0).contains(&self.snr_db) {
            return Err(format!("snr_db: {} is out of range; use a number of dB from -100 to 100, e.g. 10", self.snr_db));
        }
        Ok(())
    }
    fn makes_bit_errors(&self) -> bool {
        true
    }
    fn model_name(&self) -> &'static str {
        "snr"
    }
    fn build(&self, _fading: RngStream) -> Channel {
        Ber::new(&self.as_ber()).into()
    }
}

impl SnrConfig {
    /// The bit error ratio it gives.
    pub fn ber(&self) -> f64 {
        self.modulation.ber(db_to_linear(self.snr_db)).clamp(0.0, 1.0)
    }

    /// The equivalent `model = "ber"`.
    pub fn as_ber(&self) -> BerConfig {
        BerConfig { ber: self.ber() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eq_1_of_shagdar_and_bpsk() {
        // DPSK at 10 dB: ½·e^(−10) = 2.27e-5; at 8.5 dB: ½·e^(−7.079) = 4.21e-4.
        let dpsk = |db| SnrConfig { snr_db: db, modulation: Modulation::Dpsk }.ber();
        assert!((dpsk(10.0) - 0.5 * (-10f64).exp()).abs() < 1e-18);
        assert!((dpsk(8.5) - 4.212e-4).abs() < 1e-6, "{}", dpsk(8.5));
        // BPSK at 9.6 dB: about 1e-5 (the textbook point).
        let bpsk = SnrConfig { snr_db: 9.6, modulation: Modulation::Bpsk }.ber();
        assert!((bpsk / 1e-5 - 1.0).abs() < 0.1, "{bpsk}");
        let field = |db: f64| SnrConfig { snr_db: db, modulation: Modulation::Dpsk }.validate().unwrap_err();
        assert!(field(f64::NAN).starts_with("snr_db: NaN is out of range"));
        assert!(field(200.0).starts_with("snr_db: 200 is out of range"));
        let de: SnrConfig = serde_json::from_str(r#"{"snr_db": 9}"#).unwrap();
        assert_eq!(de.modulation, Modulation::Dpsk, "the paper's modulation by default");
    }
}
