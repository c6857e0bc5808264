//! Bit error probability of a modulation at a given SNR per bit (REFERENCES.md
//! "Channels"): in AWGN at linear SNR γ, BPSK ½·erfc(√γ) and DPSK ½·e^(−γ); averaged
//! over Rayleigh fading of mean SNR γ̄, BPSK ½(1 − √(γ̄/(1 + γ̄))) and DPSK 1/(2(1 + γ̄)).
//! `erfc` is Cody's rational approximation (`erfc.rs`; no special-function crate in the
//! lock file).

use super::erfc::{erfc, erfc_scaled, SMALL};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How bits are put on the carrier, which sets the bit error probability at an SNR.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Modulation {
    /// Coherent binary phase-shift keying: ½·erfc(√γ).
    #[default]
    Bpsk,
    /// Differential (non-coherent) phase-shift keying: ½·e^(−γ).
    Dpsk,
}

impl Modulation {
    /// Bit error probability in AWGN at linear SNR per bit `snr` (≥ 0).
    pub fn ber(self, snr: f64) -> f64 {
        match self {
            Modulation::Bpsk => bpsk_ber(snr),
            Modulation::Dpsk => 0.5 * (-snr).exp(),
        }
    }

    /// Bit error probability averaged over Rayleigh fading of mean linear SNR `mean_snr`.
    pub fn mean_ber_rayleigh(self, mean_snr: f64) -> f64 {
        match self {
            Modulation::Bpsk => 0.5 * (1.0 - (mean_snr / (1.0 + mean_snr)).sqrt()),
            Modulation::Dpsk => 0.5 / (1.0 + mean_snr),
        }
    }
}

/// ½·erfc(√γ): beyond Cody's first interval as ½·e^(−γ)·erfc_scaled(√γ), so the
/// exponential takes γ itself rather than √γ squared again (`erfc.rs`).
fn bpsk_ber(snr: f64) -> f64 {
    let x = snr.sqrt();
    if x <= SMALL {
        0.5 * erfc(x)
    } else {
        0.5 * (-snr).exp() * erfc_scaled(x)
    }
}

/// 10^(dB/10).
pub fn db_to_linear(db: f64) -> f64 {
    10f64.powf(db / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ber_formulas() {
        assert_eq!(Modulation::Bpsk.ber(0.0), 0.5);
        assert_eq!(Modulation::Dpsk.ber(0.0), 0.5);
        // BPSK at Eb/N0 = 9.6 dB is the textbook 1e-5 point: ½·erfc(√9.12) ≈ 1.0e-5.
        let p = Modulation::Bpsk.ber(db_to_linear(9.6));
        assert!((p / 1.0e-5 - 1.0).abs() < 0.05, "{p}");
        assert_eq!(Modulation::Dpsk.ber(10.0), 0.5 * (-10f64).exp());
        assert_eq!(Modulation::Dpsk.mean_ber_rayleigh(100.0), 0.5 / 101.0);
        // BPSK over Rayleigh tends to 1/(4γ̄) at high SNR.
        let p = Modulation::Bpsk.mean_ber_rayleigh(1e4);
        assert!((p * 4e4 - 1.0).abs() < 1e-3, "{p}");
        assert!((db_to_linear(20.0) - 100.0).abs() < 1e-12);
        assert!((db_to_linear(-3.0) - 0.501187).abs() < 1e-6);
    }
}
