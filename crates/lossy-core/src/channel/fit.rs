//! The two-state Markov fit of the fading channel (Chockalingam, Zorzi, Tralli §III.A,
//! Eq. 1 and Table 1): link packets of N_L data bytes (plus the BCH parity when coded:
//! ⌈8·N_L/k⌉ codewords of n bits) are sent back to back at the link rate over the
//! Rayleigh channel of `rayleigh.rs`, each judged by its [`Coding`] as a link layer
//! judges its frames (`coded_frame.rs`), and the
//! success/failure sequence is summed up as the chain
//!
//!   M_c = [[p, 1 − p], [1 − q, q]]   (Eq. 1),
//!
//! p = P(success | previous success), q = P(failure | previous failure), with the
//! packet error rate P_E and the mean error burst (1 − q)^−1 the paper tabulates. The
//! fitted chain is `loss = { model = "gilbert", p_ge = 1 − p, p_eg = 1 − q }` with packet
//! units (success/failure is the state), plus `slot = T` to let it move while the link
//! is idle (`gilbert_idle.rs`).
//!
//! Readings chosen (docs/mechanisms/markov-fit.md):
//! - **Back to back.** Packet j occupies [j·T, (j + 1)·T], T the serialization time of
//!   its coded bits at the rate, rounded up to whole nanoseconds as the ARQ link layer
//!   does, so the fit sees the channel exactly as a link sending link packets
//!   continuously would.
//! - **Independent batches.** One sum-of-sinusoids draw is not ergodic (its spectrum is
//!   N fixed lines), so the run is cut into [`BATCHES`] batches, each with its own fading
//!   draw (stream `channel-fit:fading`, replication = batch) and bit stream
//!   (`channel-fit:bits`). Transitions are counted within a batch. The batches are
//!   independent and identically distributed, so the standard errors are those of
//!   ratio estimators over the batches (batch means), which absorb the correlation of
//!   errors over a fade. Batches run on several threads; each one's draws depend only
//!   on (seed, batch), so the result is the same on any number of cores.
//! - **Run length.** By default max(2000 Doppler periods, 10^6 packets), at most
//!   [`MAX_DEFAULT_PACKETS`]: 2000 periods give the 1 Hz rows of Table 1 about 2000
//!   independent fades (50 per batch), the 10^6 packets give the 100 Hz rows enough
//!   errors at 30 dB.

use super::coded_frame::frame_survives;
use super::{LossConfig, ModelConfig, Modulation, RayleighConfig, TxSpan};
use crate::coding::frame::Coding;
use crate::coding::BchCode;
use crate::rng::RngStream;
use crate::time::{serialization_delay, SimDuration, SimTime};
use crate::units::{thousands, Rate, MAX_DURATION, MAX_RATE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// Independent batches (fading draws) per fit.
pub const BATCHES: u64 = 40;
/// Doppler periods a default run spans at least.
pub const DEFAULT_PERIODS: f64 = 2000.0;
/// Packets a default run sends at least.
pub const DEFAULT_MIN_PACKETS: u64 = 1_000_000;
/// The default run never sends more packets than this (a Doppler so low that 2000
/// periods would take longer); the result's `doppler_periods` shows what was covered.
pub const MAX_DEFAULT_PACKETS: u64 = 100_000_000;
/// Bounds of `packets` when given.
pub const PACKETS_RANGE: (u64, u64) = (1_000, 10_000_000_000);
/// The most work a fit may take, in sinusoid terms: each fading sample (one per chunk of
/// a packet, `rayleigh.rs`) sums `sinusoids` terms and then evaluates the bit error
/// probability, which costs about [`SAMPLE_OVERHEAD`] terms more. 2·10^10 terms are a few
/// CPU-minutes (about 10 ns a term); the longest default fit (10^8 packets, 16
/// sinusoids) takes 3.2·10^9, and 11.7 million packets with 1024 sinusoids 1.2·10^10.
/// Checked before the fit starts (issue 27: a fit configured to take forever).
pub const MAX_WORK: f64 = 2e10;
/// The cost of a fading sample's bit error probability in sinusoid terms (BPSK's erfc
/// costs about as much as 32 cosines, `docs/mechanisms/markov-fit.md#parameters`).
pub const SAMPLE_OVERHEAD: u64 = 16;

/// What to fit: the Rayleigh channel, the link packet and its coding, the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FitConfig {
    /// Mean SNR per bit γ̄ in dB, -100 to 100 (Table 1: 10, 20, 30).
    pub mean_snr_db: f64,
    /// Maximum Doppler frequency f_d in Hz, > 0 (Table 1: 1, 10, 100).
    pub doppler_hz: f64,
    /// N_L: data bytes per link packet, 1 to 65,535 (Table 1: 32).
    #[serde(default = "default_payload")]
    pub payload_bytes: u64,
    /// BCH (n, k) coding each link packet, or none (Table 1: none and (255, 87)).
    #[serde(default)]
    pub code: Option<(usize, usize)>,
    /// "bpsk" (default) or "dpsk".
    #[serde(default)]
    pub modulation: Modulation,
    /// Link rate (Chockalingam §III: 1.5 Mbit/s).
    #[serde(default = "default_rate")]
    pub rate: Rate,
    /// Link packets to send; default max(2000 Doppler periods, 10^6 packets).
    #[serde(default)]
    pub packets: Option<u64>,
    /// Master seed of the fit's streams.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Sinusoids of the fading generator (as `model = "rayleigh"`, default 16).
    #[serde(default = "default_sinusoids")]
    pub sinusoids: u32,
}

fn default_payload() -> u64 {
    32
}
fn default_rate() -> Rate {
    Rate(1_500_000)
}
fn default_seed() -> u64 {
    1
}
fn default_sinusoids() -> u32 {
    16
}

impl FitConfig {
    /// The Table 1 setting at this SNR and Doppler: 32-byte link packets, no code, BPSK,
    /// 1.5 Mbit/s, the default run, seed 1.
    pub fn new(mean_snr_db: f64, doppler_hz: f64) -> Self {
        FitConfig {
            mean_snr_db,
            doppler_hz,
            payload_bytes: default_payload(),
            code: None,
            modulation: Modulation::default(),
            rate: default_rate(),
            packets: None,
            seed: default_seed(),
            sinusoids: default_sinusoids(),
        }
    }

    fn rayleigh(&self) -> RayleighConfig {
        RayleighConfig {
            mean_snr_db: self.mean_snr_db,
            doppler_hz: Some(self.doppler_hz),
            speed_mps: None,
            carrier_hz: None,
            modulation: self.modulation,
            sinusoids: self.sinusoids,
            chunk_periods: 0.02,
            markov_fit: false,
            fit_packets: None,
        }
    }

    /// Checks every field; the message names the field, the value and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        self.rayleigh().validate()?;
        if !(1..=65_535).contains(&self.payload_bytes) {
            return Err(out_of_range("payload_bytes", self.payload_bytes));
        }
        self.coding()?;
        if let Some(n) = self.packets.filter(|n| !(PACKETS_RANGE.0..=PACKETS_RANGE.1).contains(n)) {
            return Err(out_of_range("packets", thousands(n)));
        }
        if !(1..=MAX_RATE).contains(&self.rate.0) {
            return Err(out_of_range("rate", format!("{} bps", self.rate.0)));
        }
        // A batch is one stretch of simulated time: at most a scenario's longest run, so
        // time stays far from u64 nanoseconds' limit and the fading's phases precise.
        let per_batch = self.run_packets()?.div_ceil(BATCHES) as f64 * self.packet_time()?.as_secs_f64();
        if per_batch > MAX_DURATION.as_secs_f64() {
            return Err(format!(
                "packets: {} link packets of {} s each take {:.3e} s per batch of {BATCHES}, more than \
                 {} s; use fewer packets or a higher rate",
                thousands(self.run_packets()?),
                self.packet_time()?.as_secs_f64(),
                per_batch,
                thousands(MAX_DURATION.as_secs_f64() as u64)
            ));
        }
        self.check_work()
    }

    /// Fading samples per link packet: the chunks `rayleigh.rs` cuts its air time into
    /// (at most `chunk_periods`/f_d long, at least one bit each).
    pub fn samples_per_packet(&self) -> Result<u64, String> {
        let bits = self.coding()?.coded_bits(8 * self.payload_bytes);
        Ok(self.rayleigh().samples_per_frame(self.packet_time()?.as_secs_f64(), bits))
    }

    /// The fit's work in sinusoid terms: packets × samples per packet × (sinusoids +
    /// the sample's overhead).
    pub fn work(&self) -> Result<f64, String> {
        Ok(self.run_packets()? as f64 * self.samples_per_packet()? as f64 * (self.sinusoids as u64 + SAMPLE_OVERHEAD) as f64)
    }

    /// The work is at most [`MAX_WORK`]: refused up front, naming `packets` (the
    /// default's when not given) or, when the sinusoids make it too much, `sinusoids`.
    fn check_work(&self) -> Result<(), String> {
        let work = self.work()?;
        if work <= MAX_WORK {
            return Ok(());
        }
        let (packets, samples) = (self.run_packets()?, self.samples_per_packet()?);
        let field = if self.packets.is_none() && self.sinusoids > default_sinusoids() { "sinusoids" } else { "packets" };
        let given = if self.packets.is_some() { "" } else { " (the default)" };
        let per_packet = if samples == 1 { String::new() } else { format!(" × {} fading samples", thousands(samples)) };
        Err(format!(
            "{field}: {} link packets{given}{per_packet} × ({} sinusoids + {SAMPLE_OVERHEAD}) is {work:.1e} terms of work, more than the fit's limit of {MAX_WORK:.0e} (a few CPU-minutes); use fewer packets or sinusoids",
            thousands(packets),
            self.sinusoids
        ))
    }

    /// The link packet's coding.
    pub fn coding(&self) -> Result<Coding, String> {
        match self.code {
            None => Ok(Coding::None),
            Some((n, k)) => BchCode::new(n, k)
                .map(Coding::from)
                .map_err(|e| format!("code: BCH({n}, {k}) does not exist: {e}")),
        }
    }

    /// T: the air time of one link packet (coded bits at the rate, whole nanoseconds up).
    pub fn packet_time(&self) -> Result<SimDuration, String> {
        let bits = self.coding()?.coded_bits(8 * self.payload_bytes);
        Ok(serialization_delay(bits, self.rate.0))
    }

    /// The packets to send: as given, or the default run (module doc).
    pub fn run_packets(&self) -> Result<u64, String> {
        if let Some(n) = self.packets {
            return Ok(n);
        }
        let periods_per_packet = self.doppler_hz * self.packet_time()?.as_secs_f64();
        let for_periods = (DEFAULT_PERIODS / periods_per_packet).ceil();
        Ok((for_periods.min(MAX_DEFAULT_PACKETS as f64) as u64).max(DEFAULT_MIN_PACKETS))
    }
}

/// `field: value is out of range; use <what field allows>` for the whole-number fields
/// (also for the bindings, which see negative numbers before they are `u64`).
pub fn out_of_range(field: &str, value: impl std::fmt::Display) -> String {
    let allowed = match field {
        "payload_bytes" => "a whole number of bytes from 1 to 65,535, e.g. 32".to_string(),
        "packets" | "fit_packets" => format!("a whole number from {} to {}", thousands(PACKETS_RANGE.0), thousands(PACKETS_RANGE.1)),
        "rate" => "1 bps to 1 Tbps, e.g. 1500000 or \"1.5 Mbps\"".to_string(),
        _ => "a whole number from 0 to 18,446,744,073,709,551,615".to_string(),
    };
    format!("{field}: {value} is out of range; use {allowed}")
}

/// Outcomes of one batch: packets, failures, and the pairs of consecutive packets by
/// (previous, next) outcome, index 0 success and 1 failure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchCounts {
    pub packets: u64,
    pub failures: u64,
    pub pairs: [[u64; 2]; 2],
}

/// Packets between two updates of a fit's progress counter.
const PROGRESS_EVERY: u64 = 1 << 14;

/// Sends `packets` link packets back to back in batch `batch` of the fit.
pub fn run_batch(cfg: &FitConfig, batch: u64, packets: u64) -> Result<BatchCounts, String> {
    run_batch_counting(cfg, batch, packets, None)
}

/// [`run_batch`], adding the packets sent to `done` as it goes (a caller on another
/// thread shows how far the fit has got).
fn run_batch_counting(cfg: &FitConfig, batch: u64, packets: u64, done: Option<&AtomicU64>) -> Result<BatchCounts, String> {
    let coding = cfg.coding()?;
    let data_bits = 8 * cfg.payload_bytes;
    let bits = coding.coded_bits(data_bits);
    let air = cfg.packet_time()?;
    let mut channel = LossConfig::Rayleigh(cfg.rayleigh()).build(RngStream::new(cfg.seed, batch, "channel-fit:fading"));
    let mut rng = RngStream::new(cfg.seed, batch, "channel-fit:bits");
    let mut scratch = Vec::new();
    let mut counts = BatchCounts { packets, ..BatchCounts::default() };
    let mut previous: Option<usize> = None;
    for j in 0..packets {
        let start = SimTime(j * air.as_nanos());
        let span = TxSpan { start, end: start + air, bits };
        let failed = !frame_survives(&coding, span, data_bits, &mut channel, &mut rng, &mut scratch) as usize;
        counts.failures += failed as u64;
        if let Some(prev) = previous {
            counts.pairs[prev][failed] += 1;
        }
        previous = Some(failed);
        if (j + 1) % PROGRESS_EVERY == 0 {
            if let Some(d) = done {
                d.fetch_add(PROGRESS_EVERY, Ordering::Relaxed);
            }
        }
    }
    if let Some(d) = done {
        d.fetch_add(packets % PROGRESS_EVERY, Ordering::Relaxed);
    }
    Ok(counts)
}

/// The fitted chain (Eq. 1) with standard errors, and what the run covered.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MarkovFit {
    /// P_E: fraction of link packets that failed.
    pub p_e: f64,
    pub p_e_se: f64,
    /// p = P(success | previous success).
    pub p: f64,
    pub p_se: f64,
    /// q = P(failure | previous failure).
    pub q: f64,
    pub q_se: f64,
    /// (1 − q)^−1: the mean length of a burst of failures, in link packets.
    pub burst: f64,
    pub burst_se: f64,
    /// T: the air time of one link packet, in seconds.
    pub packet_time_s: f64,
    /// T in whole nanoseconds (the `slot` of the fitted chain).
    pub packet_time_ns: u64,
    /// Bits on the air per link packet (data and parity).
    pub coded_bits: u64,
    pub packets: u64,
    pub batches: u64,
    /// Doppler periods the run spans: packets·T·f_d.
    pub doppler_periods: f64,
}

/// Σa/Σb over batches and its standard error as a ratio estimator (batches i.i.d.):
/// var ≈ Σ(aᵢ − R·bᵢ)² / (B(B − 1)·b̄²). NaN when Σb = 0 (never observed).
fn ratio(a: &[f64], b: &[f64]) -> (f64, f64) {
    let (sa, sb) = (a.iter().sum::<f64>(), b.iter().sum::<f64>());
    if sb <= 0.0 {
        return (f64::NAN, f64::NAN);
    }
    let r = sa / sb;
    let n = a.len() as f64;
    let mean_b = sb / n;
    let ss: f64 = a.iter().zip(b).map(|(x, y)| (x - r * y).powi(2)).sum();
    (r, (ss / (n * (n - 1.0))).sqrt() / mean_b)
}

/// Sums the batches into the fit.
pub fn summarize(cfg: &FitConfig, batches: &[BatchCounts]) -> Result<MarkovFit, String> {
    let col = |f: &dyn Fn(&BatchCounts) -> u64| batches.iter().map(|c| f(c) as f64).collect::<Vec<_>>();
    let packets = col(&|c| c.packets);
    let (p_e, p_e_se) = ratio(&col(&|c| c.failures), &packets);
    let after_success = col(&|c| c.pairs[0][0] + c.pairs[0][1]);
    let after_failure = col(&|c| c.pairs[1][0] + c.pairs[1][1]);
    let (p, p_se) = ratio(&col(&|c| c.pairs[0][0]), &after_success);
    let (q, q_se) = ratio(&col(&|c| c.pairs[1][1]), &after_failure);
    // (1 − q)^−1 = (pairs after a failure) / (failure → success pairs), a ratio itself.
    let (burst, burst_se) = ratio(&after_failure, &col(&|c| c.pairs[1][0]));
    let t = cfg.packet_time()?;
    let total: u64 = batches.iter().map(|c| c.packets).sum();
    Ok(MarkovFit {
        p_e,
        p_e_se,
        p,
        p_se,
        q,
        q_se,
        burst,
        burst_se,
        packet_time_s: t.as_secs_f64(),
        packet_time_ns: t.as_nanos(),
        coded_bits: cfg.coding()?.coded_bits(8 * cfg.payload_bytes),
        packets: total,
        batches: batches.len() as u64,
        doppler_periods: total as f64 * t.as_secs_f64() * cfg.doppler_hz,
    })
}

/// Runs the fit: [`BATCHES`] batches (on up to as many threads as there are cores) and
/// their summary. Deterministic in `cfg.seed` whatever the number of threads.
pub fn fit(cfg: &FitConfig) -> Result<MarkovFit, String> {
    fit_counting(cfg, None)
}

/// [`fit`], adding the link packets sent to `done` as it goes (of
/// `cfg.run_packets()`), for a progress line.
pub fn fit_counting(cfg: &FitConfig, done: Option<&AtomicU64>) -> Result<MarkovFit, String> {
    fit_on_counting(cfg, std::thread::available_parallelism().map_or(1, |n| n.get() as u64), done)
}

/// [`fit`] on at most `threads` threads.
pub fn fit_on(cfg: &FitConfig, threads: u64) -> Result<MarkovFit, String> {
    fit_on_counting(cfg, threads, None)
}

fn fit_on_counting(cfg: &FitConfig, threads: u64, done: Option<&AtomicU64>) -> Result<MarkovFit, String> {
    cfg.validate()?;
    let total = cfg.run_packets()?;
    let size = |b: u64| total / BATCHES + u64::from(b < total % BATCHES);
    let threads = threads.clamp(1, BATCHES);
    let mut counts = vec![BatchCounts::default(); BATCHES as usize];
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|w| {
                s.spawn(move || {
                    (w..BATCHES).step_by(threads as usize).map(|b| (b, run_batch_counting(cfg, b, size(b), done))).collect::<Vec<_>>()
                })
            })
            .collect();
        for worker in workers {
            for (b, c) in worker.join().expect("a fit batch panicked") {
                counts[b as usize] = c?;
            }
        }
        Ok::<(), String>(())
    })?;
    summarize(cfg, &counts)
}

#[cfg(test)]
#[path = "fit_tests.rs"]
mod tests;
