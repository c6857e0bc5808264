//! Loss processes behind one trait (docs/architecture.md#family-loss-model).
//!
//! A channel is asked, once per transmission and in time order, whether the frame sent
//! over the [`TxSpan`] (start, end, bits) is lost ([`LossProcess::lost`]), or how many
//! bit errors each of its FEC codewords holds ([`LossProcess::codeword_errors`]). Every
//! draw comes from the caller's stream. Models indexed by time read the span's end
//! (fading over the span comes with the Rayleigh channel).
//!
//! Models, one per file: [`bernoulli`], [`ber`] (independent bit errors),
//! [`gilbert_elliott`] (netem's 4-parameter model, per packet), [`gilbert`] (Miyoshi §5,
//! geometric sojourns in packets or bits), [`markov`] (Chen Fig. 8, exponential sojourns
//! in continuous time), [`rayleigh`] (bit errors under Rayleigh fading, with
//! [`modulation`]'s bit error probabilities), [`neyman`] (Neyman Type A clustered errors,
//! Botoș §II C) and [`trace`] (replay). [`LossConfig`] is
//! the scenario's `loss = { model = "...", ... }` table; [`LossConfig::build`] makes a
//! [`Channel`]. Each model's file also holds its config table and its [`ModelConfig`]
//! impl, so a new model is its file and one line in the `family!` list below, which
//! declares its module and makes its variants of [`Channel`] and [`LossConfig`].

pub mod coded_frame;
pub mod erfc;
pub mod fit;
pub mod modulation;
pub mod sequence;
mod two_state;

use crate::closed::family;
use crate::rng::RngStream;
use crate::time::SimTime;
use crate::units::Duration;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use modulation::Modulation;

/// Bit-error count meaning "more errors than any code corrects": what packet-level
/// models write into every codeword of a lost packet.
pub const UNCORRECTABLE: u32 = u32::MAX;

/// One transmission on a channel: when it starts and ends, and how many bits it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxSpan {
    pub start: SimTime,
    pub end: SimTime,
    pub bits: u64,
}

impl TxSpan {
    /// A span of `bits` bits that ends at `end` and takes no time (for packet-level
    /// models and tests, where only the end matters).
    pub fn at(end: SimTime, bits: u64) -> Self {
        TxSpan { start: end, end, bits }
    }
}

/// The codeword errors of a model that loses whole packets: [`UNCORRECTABLE`] in every
/// codeword of a lost packet, 0 otherwise (the default of
/// [`LossProcess::codeword_errors`], and Neyman's per-packet unit).
pub(crate) fn whole_packet_errors<L: LossProcess + ?Sized>(model: &mut L, tx: TxSpan, codeword_bits: u32, errors: &mut [u32], rng: &mut RngStream) {
    let bits = codeword_bits as u64 * errors.len() as u64;
    let lost = model.lost(TxSpan { bits, ..tx }, rng);
    errors.fill(if lost { UNCORRECTABLE } else { 0 });
}

/// A loss process: decides the fate of each transmission on a link.
pub trait LossProcess {
    /// Is the frame sent over `tx` lost? Called once per transmission, in time order.
    fn lost(&mut self, tx: TxSpan, rng: &mut RngStream) -> bool;

    /// Fills `errors[i]` with the number of bit errors in codeword `i` of the
    /// `errors.len()` consecutive codewords of `codeword_bits` bits that make up one
    /// packet (called instead of `lost` for that packet). Bit-level models count real
    /// errors; this default, for packet-level models, writes [`UNCORRECTABLE`] into every
    /// codeword of a lost packet and 0 otherwise.
    fn codeword_errors(
        &mut self,
        tx: TxSpan,
        codeword_bits: u32,
        errors: &mut [u32],
        rng: &mut RngStream,
    ) {
        whole_packet_errors(self, tx, codeword_bits, errors, rng)
    }

    /// Long-run probability that a packet of `bits` bits is lost, where a closed form
    /// exists.
    fn stationary_loss(&self, bits: u64) -> Option<f64>;

    /// Long-run mean number of consecutive lost packets (mean length of a run of losses)
    /// for back-to-back packets of `bits` bits, where a closed form exists. `None` when
    /// losses never happen, or when the answer depends on packet timing (continuous-time
    /// models: see [`Markov::mean_burst_at_spacing`]).
    fn mean_burst(&self, bits: u64) -> Option<f64>;
}

/// What every model's config table does; [`LossConfig`] dispatches to it, so a new
/// model implements it in its own file and adds one line to [`LossConfig`].
pub trait ModelConfig {
    /// Checks every field; the message names the field, the value and what is allowed.
    fn validate(&self) -> Result<(), String>;
    /// Whether it makes bit errors a code can correct, as opposed to losing whole packets.
    fn makes_bit_errors(&self) -> bool;
    /// The model's name as a scenario writes it (its `model` tag).
    fn model_name(&self) -> &'static str;
    /// The loss process, in its initial state, for a valid config. `fading` is the
    /// stream a model draws its fixed random parameters from (the Rayleigh channel's
    /// phases and angles), apart from the per-transmission draws.
    fn build(&self, fading: RngStream) -> Channel;
    /// What judging one frame of `bits` bits sent over `span_secs` costs, in sinusoid
    /// terms (`fit.rs`, [`fit::MAX_WORK`]), for a model whose cost grows with its
    /// parameters (the Rayleigh fading's sum of sinusoids); None when it is a few
    /// operations whatever they are.
    fn frame_work(&self, _span_secs: f64, _bits: u64) -> Option<f64> {
        None
    }
}

// One line per model (`closed::family!`): its module, its process (boxed or not; none
// for a table that builds another model's) and its table. The doc comments are the
// schema's descriptions (`lossy schema`).
family! {
    runtime {
        /// Every built-in loss model, dispatched by `match` (no `dyn` on the per-packet
        /// path). The models with more state than two words are boxed: every link direction
        /// holds a `Channel`, and Neyman's 168 B padded each Bernoulli channel to its size
        /// (issue 28; `layout_tests.rs` bounds it). Boxed once when built, never per packet.
        #[derive(Clone, Debug)]
        pub enum Channel via each_channel;
        impl LossProcess {
            fn lost(&mut self, tx: TxSpan, rng: &mut RngStream) -> bool;
            fn codeword_errors(&mut self, tx: TxSpan, codeword_bits: u32, errors: &mut [u32], rng: &mut RngStream);
            fn stationary_loss(&self, bits: u64) -> Option<f64>;
            fn mean_burst(&self, bits: u64) -> Option<f64>;
        }
    }
    config {
        /// A link's loss model, chosen by `model`.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "model", rename_all = "snake_case", deny_unknown_fields)]
        pub enum LossConfig via each_loss;
    }
    schemes {
        /// No loss.
        no_loss::None(NoLoss, NoLossConfig),
        /// Each packet is lost independently with probability `p`.
        bernoulli::Bernoulli(Bernoulli, BernoulliConfig),
        /// Independent bit errors at ratio `ber`; a packet with any bit error is lost.
        ber::Ber(Ber, BerConfig),
        /// Independent bit errors at the ratio a modulation has at a constant SNR (Shagdar Eq. 1).
        snr::Snr(_, SnrConfig),
        /// Gilbert–Elliott per packet, netem's `loss gemodel p r 1-h 1-k`.
        gilbert_elliott::GilbertElliott(Box<GilbertElliott>, GilbertElliottConfig),
        /// Gilbert model with geometric sojourns counted in packets or bits (Miyoshi §5).
        gilbert::Gilbert(Box<Gilbert>, GilbertConfig),
        /// Two states in continuous time with exponential sojourns (Chen et al. Fig. 8).
        markov::Markov(Box<Markov>, MarkovConfig),
        /// Bit errors under Rayleigh fading (sum of sinusoids), BPSK or DPSK, by time.
        rayleigh::Rayleigh(Box<Rayleigh>, RayleighConfig),
        /// Neyman Type A clustered errors (compound Poisson), per bit or per packet (Botoș §II C).
        neyman::Neyman(Box<Neyman>, NeymanConfig),
        /// Replay of a loss trace, by packet index or by time.
        trace::Trace(Box<LossTrace>, LossTraceConfig),
    }
}

impl LossConfig {
    /// Checks every field; the message names the field, the value and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        each_loss!(self, c => c.validate())
    }

    /// Whether it makes bit errors a code can correct, as opposed to losing whole packets
    /// (the Rayleigh channel replaced by its fitted chain loses whole packets); no loss
    /// at all counts as bit-level (nothing to correct, nothing wrong either).
    pub fn makes_bit_errors(&self) -> bool {
        each_loss!(self, c => c.makes_bit_errors())
    }

    /// The cost of judging one frame, in sinusoid terms, where it grows with the model's
    /// parameters (`ModelConfig::frame_work`).
    pub fn frame_work(&self, span_secs: f64, bits: u64) -> Option<f64> {
        each_loss!(self, c => c.frame_work(span_secs, bits))
    }

    /// The model's name as a scenario writes it.
    pub fn model_name(&self) -> &'static str {
        each_loss!(self, c => c.model_name())
    }

    /// The loss process, in its initial state. Call [`validate`](Self::validate) first:
    /// an invalid config builds a process whose behaviour is unspecified. `fading` is
    /// the stream a model draws its fixed random parameters from (the Rayleigh
    /// channel's phases and angles), apart from the per-transmission draws; the other
    /// models ignore it.
    pub fn build(&self, fading: RngStream) -> Channel {
        debug_assert!(self.validate().is_ok(), "{:?}", self.validate());
        each_loss!(self, c => c.build(fading))
    }
}

/// `field: value is not a probability; use a number in [0, 1]` unless 0 ≤ v ≤ 1.
pub(crate) fn check_probability(field: &str, v: f64) -> Result<(), String> {
    if (0.0..=1.0).contains(&v) {
        Ok(())
    } else {
        Err(format!(
            "{field}: {v} is not a probability; use a number in [0, 1]"
        ))
    }
}

/// `field: 0 s is not a positive duration; use e.g. "75 ms"` unless d > 0.
pub(crate) fn check_positive(field: &str, d: Duration) -> Result<(), String> {
    if d.0.as_nanos() > 0 {
        Ok(())
    } else {
        Err(format!(
            "{field}: {} s is not a positive duration; use e.g. \"75 ms\"",
            d.0.as_secs_f64()
        ))
    }
}

/// `serde(default)` for loss probabilities that default to 1 (a Bad state loses all).
pub(crate) fn one() -> f64 {
    1.0
}

/// True with probability `p`, drawing nothing when `p` is 0 or 1.
#[inline]
pub(crate) fn chance(rng: &mut RngStream, p: f64) -> bool {
    p >= 1.0 || rng.bernoulli(p)
}

/// P(at least one error among `n` independent bits) = 1 − (1 − ber)^n (Miyoshi A·1).
#[inline]
pub(crate) fn any_error_prob(ber: f64, n: u64) -> f64 {
    if n == 0 || ber <= 0.0 {
        0.0
    } else if ber >= 1.0 {
        1.0
    } else {
        -((n as f64) * (-ber).ln_1p()).exp_m1()
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Monte Carlo measurement of a loss process, with standard errors.
    use super::LossProcess;
    use crate::rng::RngStream;
    use crate::time::{SimDuration, SimTime};

    pub struct Measured {
        pub loss: f64,
        /// Standard error of `loss` by batch means over 100 batches, which absorbs the
        /// correlation between neighbouring packets of a bursty channel.
        pub loss_se: f64,
        /// Mean length of runs of consecutive losses.
        pub burst: f64,
        /// Standard error of `burst`: sd of run lengths / √(number of runs).
        pub burst_se: f64,
    }

    /// Offers `n` packets of `bits` bits, one every `spacing`, and measures.
    pub fn measure<L: LossProcess>(
        ch: &mut L,
        n: u64,
        bits: u64,
        spacing: SimDuration,
        seed: u64,
    ) -> Measured {
        let mut rng = RngStream::new(seed, 0, "channel-test");
        let batches = 100;
        let per_batch = n / batches;
        let mut batch_rates = Vec::with_capacity(batches as usize);
        let (mut lost_total, mut run, mut runs, mut run_sum, mut run_sq) =
            (0u64, 0u64, 0u64, 0f64, 0f64);
        let mut now = SimTime::ZERO;
        for _ in 0..batches {
            let mut lost_batch = 0u64;
            for _ in 0..per_batch {
                now += spacing;
                if ch.lost(super::TxSpan::at(now, bits), &mut rng) {
                    lost_batch += 1;
                    run += 1;
                } else if run > 0 {
                    runs += 1;
                    run_sum += run as f64;
                    run_sq += (run * run) as f64;
                    run = 0;
                }
            }
            lost_total += lost_batch;
            batch_rates.push(lost_batch as f64 / per_batch as f64);
        }
        let total = (per_batch * batches) as f64;
        let loss = lost_total as f64 / total;
        let var_b =
            batch_rates.iter().map(|r| (r - loss).powi(2)).sum::<f64>() / (batches - 1) as f64;
        let burst = run_sum / runs.max(1) as f64;
        let var_run = (run_sq / runs.max(1) as f64 - burst * burst).max(0.0);
        Measured {
            loss,
            loss_se: (var_b / batches as f64).sqrt(),
            burst,
            burst_se: (var_run / runs.max(1) as f64).sqrt(),
        }
    }

    /// Asserts |measured − formula| ≤ k·se (and prints both, for `--nocapture`).
    pub fn assert_within(what: &str, measured: f64, se: f64, formula: f64, k: f64) {
        println!("{what}: measured {measured:.6} ± {se:.6} (1 se), formula {formula:.6}");
        assert!(
            (measured - formula).abs() <= k * se,
            "{what}: measured {measured} is more than {k} standard errors ({se}) from {formula}"
        );
    }
}

#[cfg(test)]
#[path = "mod_tests.rs"]
mod tests;
