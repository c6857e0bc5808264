//! Loss processes behind one trait (DESIGN.md "Channels are given time and size").
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
//! [`Channel`].

pub mod ber;
pub mod bernoulli;
pub mod fit;
pub mod gilbert;
pub mod gilbert_elliott;
mod gilbert_idle;
pub mod markov;
pub mod modulation;
pub mod neyman;
pub mod rayleigh;
pub mod sequence;
pub mod snr;
pub mod trace;
mod two_state;

use crate::closed::closed_enum;
use crate::rng::RngStream;
use crate::time::SimTime;
use crate::units::Duration;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use ber::{Ber, BerConfig};
pub use bernoulli::{Bernoulli, BernoulliConfig};
pub use gilbert::{Gilbert, GilbertConfig, GilbertUnit};
pub use gilbert_elliott::{GilbertElliott, GilbertElliottConfig};
pub use markov::{Markov, MarkovConfig};
pub use modulation::Modulation;
pub use neyman::{Neyman, NeymanConfig, NeymanUnit};
pub use rayleigh::{Rayleigh, RayleighConfig};
pub use snr::SnrConfig;
pub use trace::{Trace, TraceConfig};

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
        let bits = codeword_bits as u64 * errors.len() as u64;
        let value = if self.lost(TxSpan { bits, ..tx }, rng) {
            UNCORRECTABLE
        } else {
            0
        };
        errors.fill(value);
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

/// The model that never loses a packet.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NoLoss;

impl LossProcess for NoLoss {
    fn lost(&mut self, _tx: TxSpan, _rng: &mut RngStream) -> bool {
        false
    }
    fn codeword_errors(&mut self, _: TxSpan, _: u32, errors: &mut [u32], _: &mut RngStream) {
        errors.fill(0);
    }
    fn stationary_loss(&self, _bits: u64) -> Option<f64> {
        Some(0.0)
    }
    fn mean_burst(&self, _bits: u64) -> Option<f64> {
        None
    }
}

closed_enum! {
    /// Every built-in loss model, dispatched by `match` (no boxing on the per-packet path).
    #[derive(Clone, Debug)]
    pub enum Channel via each_channel {
        None(NoLoss),
        Bernoulli(Bernoulli),
        Ber(Ber),
        GilbertElliott(GilbertElliott),
        Gilbert(Gilbert),
        Markov(Markov),
        Rayleigh(Rayleigh),
        Neyman(Neyman),
        Trace(Trace),
    }
}

impl LossProcess for Channel {
    #[inline]
    fn lost(&mut self, tx: TxSpan, rng: &mut RngStream) -> bool {
        each_channel!(self, m => m.lost(tx, rng))
    }
    #[inline]
    fn codeword_errors(
        &mut self,
        tx: TxSpan,
        codeword_bits: u32,
        errors: &mut [u32],
        rng: &mut RngStream,
    ) {
        each_channel!(self, m => m.codeword_errors(tx, codeword_bits, errors, rng))
    }
    fn stationary_loss(&self, bits: u64) -> Option<f64> {
        each_channel!(self, m => m.stationary_loss(bits))
    }
    fn mean_burst(&self, bits: u64) -> Option<f64> {
        each_channel!(self, m => m.mean_burst(bits))
    }
}

/// A link's loss model, chosen by `model`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "model", rename_all = "snake_case", deny_unknown_fields)]
pub enum LossConfig {
    /// No loss.
    // An empty struct variant, not a unit one: serde lets a unit variant of an
    // internally tagged enum accept unknown fields.
    None {},
    /// Each packet is lost independently with probability `p`.
    Bernoulli(BernoulliConfig),
    /// Independent bit errors at ratio `ber`; a packet with any bit error is lost.
    Ber(BerConfig),
    /// Independent bit errors at the ratio a modulation has at a constant SNR (Shagdar Eq. 1).
    Snr(SnrConfig),
    /// Gilbert–Elliott per packet, netem's `loss gemodel p r 1-h 1-k`.
    GilbertElliott(GilbertElliottConfig),
    /// Gilbert model with geometric sojourns counted in packets or bits (Miyoshi §5).
    Gilbert(GilbertConfig),
    /// Two states in continuous time with exponential sojourns (Chen et al. Fig. 8).
    Markov(MarkovConfig),
    /// Bit errors under Rayleigh fading (sum of sinusoids), BPSK or DPSK, by time.
    Rayleigh(RayleighConfig),
    /// Neyman Type A clustered errors (compound Poisson), per bit or per packet (Botoș §II C).
    Neyman(NeymanConfig),
    /// Replay of a loss trace, by packet index or by time.
    Trace(TraceConfig),
}

impl Default for LossConfig {
    fn default() -> Self {
        LossConfig::None {}
    }
}

impl LossConfig {
    /// Checks every field; the message names the field, the value and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            LossConfig::None {} => Ok(()),
            LossConfig::Bernoulli(c) => c.validate(),
            LossConfig::Ber(c) => c.validate(),
            LossConfig::Snr(c) => c.validate(),
            LossConfig::GilbertElliott(c) => c.validate(),
            LossConfig::Gilbert(c) => c.validate(),
            LossConfig::Markov(c) => c.validate(),
            LossConfig::Rayleigh(c) => c.validate(),
            LossConfig::Neyman(c) => c.validate(),
            LossConfig::Trace(c) => c.validate(),
        }
    }

    /// Whether it makes bit errors a code can correct, as opposed to losing whole packets
    /// (the Rayleigh channel replaced by its fitted chain loses whole packets); no loss
    /// at all counts as bit-level (nothing to correct, nothing wrong either).
    pub fn makes_bit_errors(&self) -> bool {
        match self {
            LossConfig::None {} | LossConfig::Ber(_) | LossConfig::Snr(_) | LossConfig::Gilbert(_) => true,
            LossConfig::Rayleigh(r) => !r.markov_fit,
            LossConfig::Neyman(c) => c.unit == NeymanUnit::Bit,
            LossConfig::Bernoulli(_) | LossConfig::GilbertElliott(_) | LossConfig::Markov(_) | LossConfig::Trace(_) => false,
        }
    }

    /// The model's name as a scenario writes it.
    pub fn model_name(&self) -> &'static str {
        match self {
            LossConfig::None {} => "none",
            LossConfig::Bernoulli(_) => "bernoulli",
            LossConfig::Ber(_) => "ber",
            LossConfig::Snr(_) => "snr",
            LossConfig::GilbertElliott(_) => "gilbert_elliott",
            LossConfig::Gilbert(_) => "gilbert",
            LossConfig::Markov(_) => "markov",
            LossConfig::Rayleigh(_) => "rayleigh",
            LossConfig::Neyman(_) => "neyman",
            LossConfig::Trace(_) => "trace",
        }
    }

    /// The loss process, in its initial state. Call [`validate`](Self::validate) first:
    /// an invalid config builds a process whose behaviour is unspecified. `fading` is
    /// the stream a model draws its fixed random parameters from (the Rayleigh
    /// channel's phases and angles), apart from the per-transmission draws; the other
    /// models ignore it.
    pub fn build(&self, mut fading: RngStream) -> Channel {
        debug_assert!(self.validate().is_ok(), "{:?}", self.validate());
        match self {
            LossConfig::None {} => Channel::None(NoLoss),
            LossConfig::Bernoulli(c) => Channel::Bernoulli(Bernoulli::new(c)),
            LossConfig::Ber(c) => Channel::Ber(Ber::new(c)),
            LossConfig::Snr(c) => Channel::Ber(Ber::new(&c.as_ber())),
            LossConfig::GilbertElliott(c) => Channel::GilbertElliott(GilbertElliott::new(c)),
            LossConfig::Gilbert(c) => Channel::Gilbert(Gilbert::new(c)),
            LossConfig::Markov(c) => Channel::Markov(Markov::new(c)),
            LossConfig::Rayleigh(c) => Channel::Rayleigh(Rayleigh::new(c, &mut fading)),
            LossConfig::Neyman(c) => Channel::Neyman(Neyman::new(c)),
            LossConfig::Trace(c) => Channel::Trace(Trace::new(c)),
        }
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
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn de(json: &str) -> Result<LossConfig, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    fn all_configs() -> Vec<LossConfig> {
        [
            r#"{"model":"none"}"#,
            r#"{"model":"bernoulli","p":0.1}"#,
            r#"{"model":"ber","ber":1e-4}"#,
            r#"{"model":"gilbert_elliott","p":0.01,"r":0.2,"bad_loss":0.8,"good_loss":0.01}"#,
            r#"{"model":"gilbert","p_ge":0.006,"p_eg":0.05}"#,
            r#"{"model":"gilbert","p_ge":0.001,"p_eg":0.02,"unit":"bit","ber_bad":0.1}"#,
            r#"{"model":"gilbert","p_ge":0.006,"p_eg":0.05,"slot":"150 us"}"#,
            r#"{"model":"markov","mean_a":"75 ms","mean_b":"3.75 ms","loss_a":0.0002,"loss_b":0.5}"#,
            r#"{"model":"rayleigh","mean_snr_db":20,"doppler_hz":10}"#,
            r#"{"model":"rayleigh","mean_snr_db":-3,"speed_mps":1.5,"carrier_hz":9e8,"modulation":"dpsk","sinusoids":8,"chunk_periods":0.05}"#,
            r#"{"model":"trace","packets":[3,1,4,1,5]}"#,
            r#"{"model":"trace","times":["10 ms","0.5 s"]}"#,
            r#"{"model":"neyman","errors_per_cluster":3,"clusters_per_unit":1e-5}"#,
            r#"{"model":"neyman","errors_per_cluster":3,"packet_loss":0.05,"packet_bytes":1500,"span":16}"#,
            r#"{"model":"neyman","unit":"packet","errors_per_cluster":2,"packet_loss":0.1}"#,
        ]
        .iter()
        .map(|j| de(j).unwrap())
        .collect()
    }

    #[test]
    fn serde_round_trip_of_every_model() {
        for cfg in all_configs() {
            cfg.validate().unwrap();
            let text = serde_json::to_string(&cfg).unwrap();
            let back: LossConfig = serde_json::from_str(&text).unwrap();
            assert_eq!(cfg, back, "{text}");
        }
        let cfg = de(r#"{"model":"bernoulli","p":0.01}"#).unwrap();
        assert_eq!(cfg, LossConfig::Bernoulli(BernoulliConfig { p: 0.01 }));
        assert_eq!(LossConfig::default(), de(r#"{"model":"none"}"#).unwrap());
    }

    #[test]
    fn defaults_are_filled_in() {
        let LossConfig::GilbertElliott(c) =
            de(r#"{"model":"gilbert_elliott","p":0.01,"r":0.1}"#).unwrap()
        else {
            panic!()
        };
        assert_eq!((c.bad_loss, c.good_loss), (1.0, 0.0));
        let LossConfig::Gilbert(c) = de(r#"{"model":"gilbert","p_ge":0.006,"p_eg":0.05}"#).unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (c.unit, c.ber_good, c.ber_bad),
            (GilbertUnit::Packet, 0.0, 1.0)
        );
        let LossConfig::Markov(c) =
            de(r#"{"model":"markov","mean_a":"75 ms","mean_b":"3.75 ms","loss_a":0,"loss_b":1}"#)
                .unwrap()
        else {
            panic!()
        };
        assert_eq!(c.mean_b.0, SimDuration::from_micros(3750));
        let LossConfig::Rayleigh(c) =
            de(r#"{"model":"rayleigh","mean_snr_db":20,"doppler_hz":10}"#).unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (c.modulation, c.sinusoids, c.chunk_periods),
            (Modulation::Bpsk, 16, 0.02)
        );
    }

    #[test]
    fn unknown_fields_and_models_are_rejected() {
        let e = de(r#"{"model":"bernoulli","p":0.01,"q":0.5}"#).unwrap_err();
        assert!(e.contains("unknown field `q`"), "{e}");
        let e = de(r#"{"model":"gilbert_elliott","p":0.01,"r":0.1,"h":0.5}"#).unwrap_err();
        assert!(e.contains("unknown field `h`"), "{e}");
        let e = de(r#"{"model":"none","p":0.01}"#).unwrap_err();
        assert!(e.contains("unknown field `p`"), "{e}");
        let e = de(r#"{"model":"bernouli","p":0.01}"#).unwrap_err();
        assert!(e.contains("unknown variant `bernouli`"), "{e}");
        assert!(de(r#"{"model":"bernoulli"}"#)
            .unwrap_err()
            .contains("missing field `p`"));
        let e =
            de(r#"{"model":"markov","mean_a":"75 parsecs","mean_b":"1 ms","loss_a":0,"loss_b":1}"#)
                .unwrap_err();
        assert!(e.contains("\"75 parsecs\" is not a duration"), "{e}");
    }

    #[test]
    fn validate_names_field_value_and_range() {
        let msg = |j: &str| de(j).unwrap().validate().unwrap_err();
        assert_eq!(
            msg(r#"{"model":"bernoulli","p":1.5}"#),
            "p: 1.5 is not a probability; use a number in [0, 1]"
        );
        assert_eq!(
            msg(r#"{"model":"ber","ber":-0.1}"#),
            "ber: -0.1 is not a probability; use a number in [0, 1]"
        );
        assert_eq!(
            msg(r#"{"model":"gilbert_elliott","p":0.1,"r":0.1,"bad_loss":2}"#),
            "bad_loss: 2 is not a probability; use a number in [0, 1]"
        );
        assert_eq!(
            msg(r#"{"model":"gilbert","p_ge":0.1,"p_eg":7}"#),
            "p_eg: 7 is not a probability; use a number in [0, 1]"
        );
        assert_eq!(
            msg(r#"{"model":"markov","mean_a":"0 ms","mean_b":"1 ms","loss_a":0,"loss_b":1}"#),
            "mean_a: 0 s is not a positive duration; use e.g. \"75 ms\""
        );
        assert_eq!(
            msg(r#"{"model":"markov","mean_a":"1 ms","mean_b":"1 ms","loss_a":0,"loss_b":1.01}"#),
            "loss_b: 1.01 is not a probability; use a number in [0, 1]"
        );
        assert!(msg(r#"{"model":"trace"}"#)
            .starts_with("trace: give exactly one of `packets` or `times`"));
        assert!(msg(r#"{"model":"trace","packets":[1],"times":[1]}"#)
            .starts_with("trace: give exactly one of `packets` or `times`"));
        assert_eq!(
            msg(r#"{"model":"rayleigh","mean_snr_db":20,"doppler_hz":-10}"#),
            "doppler_hz: -10 is not allowed; use a finite number of Hz > 0, e.g. 10"
        );
        assert_eq!(
            msg(r#"{"model":"rayleigh","mean_snr_db":20,"speed_mps":0,"carrier_hz":9e8}"#),
            "speed_mps: 0 is not allowed; use a finite number of m/s > 0, e.g. 1.5"
        );
        assert_eq!(
            msg(r#"{"model":"rayleigh","mean_snr_db":20,"speed_mps":1,"carrier_hz":-1}"#),
            "carrier_hz: -1 is not allowed; use a finite number of Hz > 0, e.g. 900e6"
        );
        let neyman = |fields: &str| msg(&format!(r#"{{"model":"neyman",{fields}}}"#));
        assert_eq!(
            neyman(r#""errors_per_cluster":-1,"clusters_per_unit":1e-5"#),
            "errors_per_cluster: -1 is not allowed; use a finite mean number of errors per cluster > 0, e.g. 3"
        );
        assert_eq!(
            neyman(r#""errors_per_cluster":3,"clusters_per_unit":-0.5"#),
            "clusters_per_unit: -0.5 is not allowed; use a finite number of clusters per bit ≥ 0, e.g. 1e-5"
        );
        assert_eq!(
            neyman(r#""unit":"packet","errors_per_cluster":3,"clusters_per_unit":-0.5"#),
            "clusters_per_unit: -0.5 is not allowed; use a finite number of clusters per packet ≥ 0, e.g. 0.02"
        );
        assert_eq!(
            neyman(r#""errors_per_cluster":3"#),
            "clusters_per_unit: missing; give clusters_per_unit (clusters per bit), or packet_loss with packet_bytes"
        );
        assert_eq!(
            neyman(r#""errors_per_cluster":3,"clusters_per_unit":1e-5,"packet_loss":0.1"#),
            "packet_loss: 0.1 is given with clusters_per_unit; give one of them"
        );
        assert_eq!(
            neyman(r#""errors_per_cluster":3,"packet_loss":1,"packet_bytes":1500"#),
            "packet_loss: 1 is not allowed; use a probability in [0, 1), e.g. 0.05"
        );
        assert_eq!(
            neyman(r#""errors_per_cluster":3,"packet_loss":0.1"#),
            "packet_bytes: missing; packet_loss with unit = \"bit\" is for packets of a given size, e.g. packet_bytes = 1500"
        );
        assert_eq!(
            neyman(r#""errors_per_cluster":3,"packet_loss":0.1,"packet_bytes":-1500"#),
            "packet_bytes: -1500 is not allowed; use a whole number of bytes > 0, e.g. 1500"
        );
        assert_eq!(
            neyman(r#""unit":"packet","errors_per_cluster":3,"packet_loss":0.1,"packet_bytes":1500"#),
            "packet_bytes: 1500 is not used with unit = \"packet\" (a packet is one unit whatever its size); leave it out"
        );
        assert_eq!(
            neyman(r#""errors_per_cluster":3,"clusters_per_unit":1e-5,"packet_bytes":1500"#),
            "packet_bytes: 1500 is used only with packet_loss; leave it out"
        );
        assert_eq!(
            neyman(r#""errors_per_cluster":3,"clusters_per_unit":1e-5,"span":2.5"#),
            "span: 2.5 is not allowed; use a whole number of bits ≥ 1, e.g. 8 (default: ⌈2·errors_per_cluster⌉)"
        );
        assert_eq!(
            neyman(r#""errors_per_cluster":3,"clusters_per_unit":1e-5,"span":0"#),
            "span: 0 is not allowed; use a whole number of bits ≥ 1, e.g. 8 (default: ⌈2·errors_per_cluster⌉)"
        );
        let nan = LossConfig::Neyman(NeymanConfig {
            unit: NeymanUnit::Bit,
            errors_per_cluster: f64::NAN,
            clusters_per_unit: Some(1e-5),
            packet_loss: None,
            packet_bytes: None,
            span: None,
        });
        assert!(nan.validate().unwrap_err().starts_with("errors_per_cluster: NaN is not allowed"));
        let e = de(r#"{"model":"neyman","unit":"byte","errors_per_cluster":3,"clusters_per_unit":1e-5}"#).unwrap_err();
        assert!(e.contains("unknown variant `byte`, expected `bit` or `packet`"), "{e}");
        let nan = LossConfig::Bernoulli(BernoulliConfig { p: f64::NAN });
        assert_eq!(
            nan.validate().unwrap_err(),
            "p: NaN is not a probability; use a number in [0, 1]"
        );
    }

    #[test]
    fn same_seed_same_sequence_for_every_model() {
        for cfg in all_configs() {
            let run = |seed: u64| {
                let mut ch = cfg.build(RngStream::new(seed, 0, "fading"));
                let mut rng = RngStream::new(seed, 0, "det");
                let mut now = SimTime::ZERO;
                let mut out = Vec::new();
                let mut cw = [0u32; 4];
                for i in 0..20_000u64 {
                    now += SimDuration::from_micros(400);
                    if i % 2 == 0 {
                        out.push(ch.lost(super::TxSpan::at(now, 8000), &mut rng) as u32);
                    } else {
                        ch.codeword_errors(super::TxSpan::at(now, 0), 2000, &mut cw, &mut rng);
                        out.extend_from_slice(&cw);
                    }
                }
                out
            };
            let a = run(11);
            assert_eq!(a, run(11), "{cfg:?}");
            let lossy = a.iter().any(|&x| x != 0);
            let random = !matches!(cfg, LossConfig::None {} | LossConfig::Trace(_));
            if random {
                assert!(lossy, "{cfg:?} lost nothing");
                assert_ne!(a, run(12), "{cfg:?}: seed does not matter");
            }
        }
    }

    #[test]
    fn none_never_loses() {
        let mut ch = LossConfig::None {}.build(RngStream::new(1, 0, "fading"));
        let mut rng = RngStream::new(1, 0, "none");
        assert!((0..1000).all(|i| !ch.lost(super::TxSpan::at(SimTime(i), 8000), &mut rng)));
        let mut cw = [9u32; 3];
        ch.codeword_errors(super::TxSpan::at(SimTime(5), 0), 127, &mut cw, &mut rng);
        assert_eq!(cw, [0; 3]);
        assert_eq!(ch.stationary_loss(8000), Some(0.0));
        assert_eq!(ch.mean_burst(8000), None);
    }

    #[test]
    fn packet_models_mark_every_codeword_of_a_lost_packet_uncorrectable() {
        let mut ch = de(r#"{"model":"bernoulli","p":0.5}"#).unwrap().build(RngStream::new(2, 0, "fading"));
        let mut rng = RngStream::new(2, 0, "cw");
        let mut seen = [false; 2];
        for _ in 0..100 {
            let mut cw = [7u32; 5];
            ch.codeword_errors(super::TxSpan::at(SimTime::ZERO, 0), 127, &mut cw, &mut rng);
            assert!(cw == [0; 5] || cw == [UNCORRECTABLE; 5], "{cw:?}");
            seen[(cw[0] == 0) as usize] = true;
        }
        assert_eq!(seen, [true, true]);
    }

    #[test]
    fn json_schema_carries_field_docs() {
        let schema = serde_json::to_string(&schemars::schema_for!(LossConfig)).unwrap();
        for needle in [
            "gilbert_elliott",
            "bad_loss",
            "p_ge",
            "mean_a",
            "packets",
            "netem",
            "doppler_hz",
            "dpsk",
            "errors_per_cluster",
            "clusters_per_unit",
        ] {
            assert!(schema.contains(needle), "schema lacks {needle}: {schema}");
        }
    }
}
