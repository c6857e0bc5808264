//! Rayleigh fading per bit (REFERENCES.md "Channels"; Chockalingam §III.A): the complex
//! gain g(t) of a sum of sinusoids with random phases and angles (Zheng and Xiao 2002),
//!
//!   g(t) = (1/√N)·Σₙ [cos(2π f_d t cos αₙ + φₙ) + j·cos(2π f_d t sin αₙ + ψₙ)],
//!   αₙ = (2πn − π + θ)/(4N), n = 1..N, θ, φₙ, ψₙ independent uniform on [−π, π),
//!
//! scaled so that E|g|² = 1 (Zheng and Xiao write √(2/N), which gives E|g|² = 2). The
//! instantaneous SNR per bit is γ(t) = γ̄·|g(t)|², and each bit is in error
//! independently with the modulation's AWGN probability at γ(t) ([`Modulation::ber`]).
//!
//! Readings chosen:
//! - **The fading has its own stream.** θ, φₙ, ψₙ are drawn once, when the channel is
//!   built, from the stream handed to [`LossConfig::build`](super::LossConfig::build)
//!   (a run passes `link:<A->B>:fading`, named by seed, replication and direction; other
//!   models ignore it). After that g(t) is a fixed function of time, so the bit draws,
//!   which come from the direction's `channel` stream, never move it: two runs that
//!   differ only in their link layer or code see the same fades.
//! - **Chunks.** Over a transmission the envelope is held constant on chunks of at most
//!   `chunk_periods`/f_d seconds (default 1/50 of a Doppler period, and at least one bit
//!   each), read at the chunk's midpoint. Within a chunk the bits are independent with
//!   one probability p, so errors are drawn as geometric gaps (cost per error and per
//!   chunk, not per bit) and `lost` draws once per frame from
//!   1 − Πₖ (1 − pₖ)^(bitsₖ). The test `chunked_sampling_agrees_with_per_bit_sampling`
//!   compares this with a draw per bit at each bit's own γ.
//! - **Read by phase rotation.** The chunks' midpoints go to a [`FadingRotor`]
//!   (`rayleigh_rotor.rs`), which steps each cosine by a complex multiplication when
//!   the sample is one cached step after the last (back-to-back frames), re-anchoring
//!   exactly every 256 steps; |g|² stays within about 1e-13 of the direct sum
//!   ([`Fading::power`], which the tests and `ber_at` use). The BPSK probability's erfc
//!   is Cody's rational approximation (`erfc.rs`).
//! - **No closed-form packet loss.** The mean BER over Rayleigh is not a packet loss
//!   probability (bits of one packet share a fade), so `stationary_loss` and
//!   `mean_burst` are `None`.

use super::ber::ErrorGaps;
use super::fit::{out_of_range, PACKETS_RANGE};
use crate::units::thousands;
use super::modulation::{db_to_linear, Modulation};
use rotor::FadingRotor;
use super::{Channel, LossProcess, ModelConfig, TxSpan};
use crate::rng::RngStream;
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

// The gain by phase rotation, in a file of its own.
#[path = "rayleigh_rotor.rs"]
mod rotor;

/// Speed of light in m/s, for f_d = v·f_c/c.
const SPEED_OF_LIGHT: f64 = 299_792_458.0;

/// `model = "rayleigh"`: give `doppler_hz`, or `speed_mps` and `carrier_hz`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RayleighConfig {
    /// Mean SNR per bit γ̄ in dB, from -100 to 100 (may be negative), e.g. 20.
    pub mean_snr_db: f64,
    /// Maximum Doppler frequency f_d in Hz (> 0), e.g. 10 (Chockalingam: 1, 10, 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doppler_hz: Option<f64>,
    /// Speed of the mobile in m/s (> 0), with `carrier_hz`, instead of `doppler_hz`:
    /// f_d = v·f_c/c.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_mps: Option<f64>,
    /// Carrier frequency in Hz (> 0), e.g. 900e6, with `speed_mps`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carrier_hz: Option<f64>,
    /// Modulation that sets the bit error probability at an SNR: "bpsk" (default) or
    /// "dpsk".
    #[serde(default)]
    pub modulation: Modulation,
    /// Number N of sinusoids in each of the in-phase and quadrature sums (1 to 1024).
    #[serde(default = "default_sinusoids")]
    #[schemars(range(min = 1, max = 1024))]
    pub sinusoids: u32,
    /// Longest stretch over which the envelope is held constant, in Doppler periods
    /// 1/f_d, in (0, 1].
    #[serde(default = "default_chunk_periods")]
    pub chunk_periods: f64,
    /// Drive the link not by the fading itself but by the two-state Markov chain fitted
    /// to it for the link's own packets (Chockalingam §III.A: how the paper ran TCP;
    /// `scenario/markov_fit.rs`). Default false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub markov_fit: bool,
    /// With `markov_fit`: link packets the fit sends (1,000 to 10^10); default
    /// max(2000 Doppler periods, 10^6 packets), as `lossy channel fit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit_packets: Option<u64>,
}

fn default_sinusoids() -> u32 {
    16
}

fn default_chunk_periods() -> f64 {
    0.02
}

impl ModelConfig for RayleighConfig {
    fn validate(&self) -> Result<(), String> {
        if !(-100.0..=100.0).contains(&self.mean_snr_db) {
            return Err(format!(
                "mean_snr_db: {} is out of range; use a number of dB from -100 to 100, e.g. 20",
                self.mean_snr_db
            ));
        }
        match (self.doppler_hz, self.speed_mps, self.carrier_hz) {
            (Some(fd), None, None) => check_positive_number("doppler_hz", fd, "Hz", "10")?,
            (None, Some(v), Some(fc)) => {
                check_positive_number("speed_mps", v, "m/s", "1.5")?;
                check_positive_number("carrier_hz", fc, "Hz", "900e6")?;
            }
            _ => {
                return Err("rayleigh: give either `doppler_hz` or both `speed_mps` and \
                     `carrier_hz`; use e.g. doppler_hz = 10"
                    .into())
            }
        }
        if !(1..=1024).contains(&self.sinusoids) {
            return Err(format!(
                "sinusoids: {} is out of range; use a whole number from 1 to 1024",
                self.sinusoids
            ));
        }
        if !(self.chunk_periods > 0.0 && self.chunk_periods <= 1.0) {
            return Err(format!(
                "chunk_periods: {} is out of range; use a number in (0, 1], e.g. 0.02",
                self.chunk_periods
            ));
        }
        match self.fit_packets {
            Some(_) if !self.markov_fit => {
                Err("fit_packets: set only with markov_fit = true (it is the fit's length)".into())
            }
            Some(n) if !(PACKETS_RANGE.0..=PACKETS_RANGE.1).contains(&n) => Err(out_of_range("fit_packets", thousands(n))),
            _ => Ok(()),
        }
    }
    /// The chain fitted in its place (`markov_fit`) loses whole packets.
    fn makes_bit_errors(&self) -> bool {
        !self.markov_fit
    }
    fn model_name(&self) -> &'static str {
        "rayleigh"
    }
    /// A fading sample per chunk, each `sinusoids` terms and its bit error probability.
    fn frame_work(&self, span_secs: f64, bits: u64) -> Option<f64> {
        Some(self.samples_per_frame(span_secs, bits) as f64 * (self.sinusoids as u64 + super::fit::SAMPLE_OVERHEAD) as f64)
    }
    fn build(&self, mut fading: RngStream) -> Channel {
        Rayleigh::new(self, &mut fading).into()
    }
}

impl RayleighConfig {
    /// Fading samples a frame of `bits` bits over `span_secs` costs ([`Rayleigh`]'s
    /// chunks: at most `chunk_periods`/f_d long, at least one bit each).
    pub fn samples_per_frame(&self, span_secs: f64, bits: u64) -> u64 {
        let chunk_secs = self.chunk_periods / self.doppler();
        ((span_secs / chunk_secs).ceil() as u64).clamp(1, bits.max(1))
    }

    /// The maximum Doppler frequency f_d in Hz: given, or v·f_c/c.
    pub fn doppler(&self) -> f64 {
        match (self.doppler_hz, self.speed_mps, self.carrier_hz) {
            (Some(fd), _, _) => fd,
            (None, Some(v), Some(fc)) => v * fc / SPEED_OF_LIGHT,
            _ => f64::NAN,
        }
    }
}

/// `field: v is not a positive number; use a number of <unit> > 0, e.g. <example>`
/// unless v is finite and > 0.
fn check_positive_number(field: &str, v: f64, unit: &str, example: &str) -> Result<(), String> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(format!(
            "{field}: {v} is not allowed; use a finite number of {unit} > 0, e.g. {example}"
        ))
    }
}

/// One sinusoid pair: angular frequencies 2π f_d cos αₙ and 2π f_d sin αₙ, phases φₙ, ψₙ.
#[derive(Clone, Copy, Debug)]
struct Sinusoid {
    w_in_phase: f64,
    phase_in_phase: f64,
    w_quadrature: f64,
    phase_quadrature: f64,
}

/// The fading gain g(t), a fixed function of time once its phases and angles are drawn.
#[derive(Clone, Debug)]
pub struct Fading {
    sinusoids: Vec<Sinusoid>,
    scale: f64,
}

impl Fading {
    /// Draws θ, then φₙ and ψₙ for n = 1..N, from `stream` (Zheng and Xiao 2002).
    pub fn new(doppler_hz: f64, n: u32, stream: &mut RngStream) -> Self {
        let mut angle = || 2.0 * PI * stream.uniform() - PI;
        let theta = angle();
        let w = 2.0 * PI * doppler_hz;
        let sinusoids = (1..=n)
            .map(|k| {
                let alpha = (2.0 * PI * k as f64 - PI + theta) / (4.0 * n as f64);
                Sinusoid {
                    w_in_phase: w * alpha.cos(),
                    phase_in_phase: angle(),
                    w_quadrature: w * alpha.sin(),
                    phase_quadrature: angle(),
                }
            })
            .collect();
        Fading { sinusoids, scale: 1.0 / (n as f64).sqrt() }
    }

    /// (Re g(t), Im g(t)) at `t` seconds.
    pub fn gain(&self, t: f64) -> (f64, f64) {
        let (mut re, mut im) = (0.0, 0.0);
        for s in &self.sinusoids {
            re += (s.w_in_phase * t + s.phase_in_phase).cos();
            im += (s.w_quadrature * t + s.phase_quadrature).cos();
        }
        (re * self.scale, im * self.scale)
    }

    /// |g(t)|², whose mean over time and draws is 1.
    pub fn power(&self, t: f64) -> f64 {
        let (re, im) = self.gain(t);
        re * re + im * im
    }

    /// (ω, φ) of each cosine: the N in-phase terms, then the N quadrature terms.
    pub(super) fn oscillators(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        let in_phase = self.sinusoids.iter().map(|s| (s.w_in_phase, s.phase_in_phase));
        in_phase.chain(self.sinusoids.iter().map(|s| (s.w_quadrature, s.phase_quadrature)))
    }

    /// 1/√N, the factor on each sum.
    pub(super) fn scale(&self) -> f64 {
        self.scale
    }
}

/// The fading bit-error process.
#[derive(Clone, Debug)]
pub struct Rayleigh {
    fading: Fading,
    /// Reads `fading` at the chunks' midpoints by phase rotation (`rayleigh_rotor.rs`).
    rotor: FadingRotor,
    mean_snr: f64,
    modulation: Modulation,
    /// Longest chunk over which the envelope is held, in seconds.
    chunk_secs: f64,
}

impl Rayleigh {
    /// Draws the fading from `fading` (see the module doc: its own stream).
    pub fn new(cfg: &RayleighConfig, fading: &mut RngStream) -> Self {
        let fd = cfg.doppler();
        let fading = Fading::new(fd, cfg.sinusoids, fading);
        Rayleigh {
            rotor: FadingRotor::new(&fading),
            fading,
            mean_snr: db_to_linear(cfg.mean_snr_db),
            modulation: cfg.modulation,
            chunk_secs: cfg.chunk_periods / fd,
        }
    }

    /// The bit error probability at time `t` seconds (the direct sum of cosines).
    pub fn ber_at(&self, t: f64) -> f64 {
        self.modulation.ber(self.mean_snr * self.fading.power(t))
    }

    /// Splits `bits` bits sent evenly over [start, end] into chunks no longer than
    /// `chunk_secs` (and of at least one bit), and calls `f(bits, ber)` for each, with
    /// the BER at the chunk's midpoint, read by the rotor (whole nanoseconds from `start`
    /// and a fraction, so back-to-back frames fall on its step exactly).
    fn for_each_chunk(&mut self, start: SimTime, end: SimTime, bits: u64, mut f: impl FnMut(u64, f64)) {
        let (t0, t1) = (start.as_secs_f64(), end.as_secs_f64());
        let span = (t1 - t0).max(0.0);
        let chunks = ((span / self.chunk_secs).ceil() as u64).clamp(1, bits.max(1));
        let span_ns = end.0.saturating_sub(start.0) as f64;
        let mut ber_at = |offset_ns: f64| self.modulation.ber(self.mean_snr * self.rotor.power(start, offset_ns));
        if chunks == 1 {
            return f(bits, ber_at(0.5 * span_ns));
        }
        let edge = |k: u64| (k as u128 * bits as u128 / chunks as u128) as u64;
        for k in 0..chunks {
            let mid = span_ns * (k as f64 + 0.5) / chunks as f64;
            f(edge(k + 1) - edge(k), ber_at(mid));
        }
    }
}

impl LossProcess for Rayleigh {
    /// Lost when any bit errs: one draw per frame, from 1 − Πₖ (1 − pₖ)^(bitsₖ).
    fn lost(&mut self, tx: TxSpan, rng: &mut RngStream) -> bool {
        if tx.bits == 0 {
            return false;
        }
        let mut log_clean = 0.0;
        self.for_each_chunk(tx.start, tx.end, tx.bits, |bits, p| {
            log_clean += bits as f64 * (-p).ln_1p();
        });
        rng.bernoulli(-log_clean.exp_m1())
    }

    fn codeword_errors(
        &mut self,
        tx: TxSpan,
        codeword_bits: u32,
        errors: &mut [u32],
        rng: &mut RngStream,
    ) {
        errors.fill(0);
        let bits = codeword_bits as u64 * errors.len() as u64;
        if bits == 0 {
            return;
        }
        let (mut codeword, mut left_in_codeword) = (0, codeword_bits as u64);
        self.for_each_chunk(tx.start, tx.end, bits, |mut chunk_bits, p| {
            // One gap stream per chunk: its bits share p, so the gap carries across
            // codeword boundaries inside the chunk (memorylessness, see ber.rs).
            let mut gaps = ErrorGaps::default();
            while chunk_bits > 0 {
                let take = chunk_bits.min(left_in_codeword);
                errors[codeword] += gaps.count(p, take, rng) as u32;
                chunk_bits -= take;
                left_in_codeword -= take;
                if left_in_codeword == 0 {
                    codeword += 1;
                    left_in_codeword = codeword_bits as u64;
                }
            }
        });
    }

    /// None: bits of one packet share a fade, so no simple closed form (module doc).
    fn stationary_loss(&self, _bits: u64) -> Option<f64> {
        None
    }

    fn mean_burst(&self, _bits: u64) -> Option<f64> {
        None
    }
}

#[cfg(test)]
#[path = "rayleigh_tests.rs"]
mod tests;
