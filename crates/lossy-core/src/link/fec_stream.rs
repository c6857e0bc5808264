//! Miyoshi §5 and Fig. 6: a stream of fixed-size packets over a bit-level channel, each
//! judged by the code it was sent with, the code fixed or chosen per packet by adaptive
//! FEC's controller (`crate::fec_control`) fed by every loss (each one reported by ELN).
//! Tables 3 and 4 count, out of the packets sent, the lost ones, the received ones, the
//! overhead (the parity share H = (n − k)/n of each received packet; Eq. A·5 as the
//! tables use it) and the available ones (received minus overhead).
//!
//! Readings (docs/papers/miyoshi-adaptive-fec.md):
//! - **A packet is one decoding unit.** A packet of l bits (parity included) coded with
//!   a code correcting t errors is lost when it holds more than t bit errors: Eq. A·4
//!   with l the packet length, which Table 3's FEC rows agree with. (The TCP runs code
//!   frames in whole BCH codewords instead, `coding/frame.rs`.)
//! - **Back to back.** Packet j occupies [j·T, (j + 1)·T], T = l / rate, so a time-driven
//!   channel (Rayleigh fading) sees the stream as a link sending without pause.
//! - **The controller starts on code 0** (the weakest) and sees every packet's outcome.
//! - **Codes as the tables name them.** Besides BCH codes a stream takes any (n, k) block
//!   code correcting t errors per packet (`code = "block"`): Tables 3–4 run an
//!   "FEC(127,94)" whose overhead column is 33/127 of the received packets, which no
//!   BCH code of length 127 has (its neighbours are (127,92), t = 5, and (127,99), t = 4).

use crate::coding::frame::{Coding, CodingConfig};
use crate::fec_control::{check_control, FecControlConfig, FecController};
use crate::channel::{LossConfig, LossProcess, TxSpan};
use crate::rng::RngStream;
use crate::time::{serialization_delay, SimTime};
use crate::units::Rate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// At most this many packets per stream (a few seconds of work).
pub const MAX_PACKETS: u64 = 100_000_000;

/// A stream's code: none, a BCH code (as a link's `coding`), or any (n, k) block code
/// correcting t errors per packet (`code = "block"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "code", rename_all = "snake_case", deny_unknown_fields)]
pub enum StreamCode {
    /// No code: a packet with any bit error is lost.
    None {},
    /// A narrow-sense binary BCH(n, k, t) code (give `k` or `t`).
    Bch {
        n: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        k: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        t: Option<u32>,
    },
    /// An (n, k) block code that corrects `t` bit errors per packet, BCH or not (Miyoshi's
    /// "FEC(127,94)", t = 4): only its parity share (n − k)/n and t matter here.
    Block { n: u32, k: u32, t: u32 },
}

impl StreamCode {
    /// (t, H): the errors a packet survives and its parity share, or `field: message`.
    fn judge(&self) -> Result<(u32, f64), String> {
        match *self {
            StreamCode::None {} => Ok((0, 0.0)),
            StreamCode::Bch { n, k, t } => match (CodingConfig::Bch { n, k, t }).build()? {
                Coding::Bch(b) => Ok((b.t() as u32, (b.n() - b.k()) as f64 / b.n() as f64)),
                Coding::None => unreachable!("a BCH table builds a BCH code"),
            },
            StreamCode::Block { n, k, t } => {
                if n == 0 {
                    return Err("n: 0 bits; use the codeword length in bits".into());
                }
                if k == 0 || k > n {
                    return Err(format!("k: {k} data bits of {n}; use 1 to n"));
                }
                // Singleton: d ≤ n − k + 1, so 2t ≤ n − k.
                if 2 * t > n - k {
                    return Err(format!("t: {t} errors need at least {} parity bits (2t ≤ n − k); ({n}, {k}) has {}", 2 * t, n - k));
                }
                Ok((t, (n - k) as f64 / n as f64))
            }
        }
    }
}

/// One stream: `codes` with one entry is fixed FEC; with several and `control`, adaptive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FecStreamConfig {
    /// Packets sent (Miyoshi §5: 50,000).
    pub packets: u64,
    /// Bits per packet on the air, parity included (Miyoshi §5: 800).
    pub packet_bits: u32,
    /// The rate packets are sent at, back to back (what a time-driven channel sees).
    pub rate: Rate,
    /// The channel; it must make bit errors (ber, gilbert, rayleigh).
    pub loss: LossConfig,
    /// The code, or with `control` the codes to choose from, weakest first.
    pub codes: Vec<StreamCode>,
    /// Adaptive FEC's controller; unset for a fixed code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub control: Option<FecControlConfig>,
}

/// What became of the stream's packets (Tables 3 and 4's columns).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FecStreamResult {
    pub sent: u64,
    pub lost: u64,
    pub received: u64,
    /// Σ H over received packets: the parity they carried, in packets.
    pub overhead: f64,
    /// received − overhead.
    pub available: f64,
    /// Packets sent with each code.
    pub sent_per_code: Vec<u64>,
    pub code_changes: u64,
}

impl FecStreamConfig {
    /// `field: message` for a stream that cannot run.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_PACKETS).contains(&self.packets) {
            return Err(format!("packets: {} is out of range; use 1 to {MAX_PACKETS}", self.packets));
        }
        if self.packet_bits == 0 {
            return Err("packet_bits: 0 carries nothing; use 1 or more".into());
        }
        if self.rate.0 == 0 {
            return Err("rate: 0 bit/s sends nothing; use a positive rate such as \"384 kbps\"".into());
        }
        self.loss.validate().map_err(|m| format!("loss.{m}"))?;
        if !self.loss.makes_bit_errors() {
            return Err(format!(
                "loss.model: \"{}\" loses whole packets, leaving FEC no bit errors to correct; use \"ber\", \"gilbert\" or \"rayleigh\"",
                self.loss.model_name()
            ));
        }
        if self.codes.is_empty() {
            return Err("codes: empty; give one code, or several with control".into());
        }
        for (j, c) in self.codes.iter().enumerate() {
            c.judge().map_err(|m| format!("codes.{j}.{m}"))?;
        }
        check_control(self.codes.len(), self.control.as_ref())?;
        if self.control.is_none() && self.codes.len() > 1 {
            return Err(format!("control: missing; {} codes need a controller to choose among them", self.codes.len()));
        }
        Ok(())
    }
}

/// A stream from JSON text; errors are `field: what is wrong`, the field in `--set`
/// notation (`loss.ber`, `codes.1.k`), whether the text does not parse or the values do
/// not fit together.
pub fn parse_fec_stream(text: &str) -> Result<FecStreamConfig, String> {
    let cfg: FecStreamConfig = crate::config::parse_table(text, "")?;
    cfg.validate()?;
    Ok(cfg)
}

/// Runs the stream; the channel draws from `seed`'s streams `fec-stream:fading` and
/// `fec-stream:channel`.
pub fn run_fec_stream(cfg: &FecStreamConfig, seed: u64) -> Result<FecStreamResult, String> {
    cfg.validate()?;
    let codes: Vec<(u32, f64)> = cfg.codes.iter().map(|c| c.judge().expect("validated")).collect();
    let mut channel = cfg.loss.build(RngStream::new(seed, 0, "fec-stream:fading"));
    let mut rng = RngStream::new(seed, 0, "fec-stream:channel");
    let mut ctl = cfg.control.as_ref().map(FecController::new);
    let bits = cfg.packet_bits as u64;
    let airtime = serialization_delay(bits, cfg.rate.0);
    let mut r = FecStreamResult { sent_per_code: vec![0; codes.len()], ..FecStreamResult::default() };
    let mut errors = [0u32; 1];
    let mut now = SimTime::ZERO;
    for _ in 0..cfg.packets {
        let level = ctl.as_ref().map_or(0, FecController::level);
        let (t, h) = codes[level];
        let span = TxSpan { start: now, end: now + airtime, bits };
        channel.codeword_errors(span, cfg.packet_bits, &mut errors, &mut rng);
        let lost = errors[0] > t;
        r.sent += 1;
        r.sent_per_code[level] += 1;
        if lost {
            r.lost += 1;
        } else {
            r.received += 1;
            r.overhead += h;
        }
        if let Some(c) = &mut ctl {
            c.record(lost);
        }
        now = span.end;
    }
    r.available = r.received as f64 - r.overhead;
    r.code_changes = ctl.map_or(0, |c| c.changes());
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stream(v: serde_json::Value) -> Result<FecStreamResult, String> {
        run_fec_stream(&parse_fec_stream(&v.to_string())?, 1)
    }

    fn ber(codes: serde_json::Value) -> serde_json::Value {
        json!({"packets": 50_000, "packet_bits": 800, "rate": "384 kbps", "loss": {"model": "ber", "ber": 7.5e-4}, "codes": codes})
    }

    #[test]
    fn independent_errors_match_eqs_a1_and_a4() {
        // A·1: 1 − (1 − 7.5e-4)^800 = 0.4512; A·4 with t = 5: P(Binomial(800, 7.5e-4) > 5) ≈ 4.6e-4.
        let none = stream(ber(json!([{"code": "none"}]))).unwrap();
        let p = none.lost as f64 / 50_000.0;
        assert!((p - 0.4512).abs() < 4.0 * (0.4512f64 * 0.5488 / 50_000.0).sqrt(), "{p}");
        assert_eq!((none.overhead, none.available), (0.0, none.received as f64));
        let bch = stream(ber(json!([{"code": "bch", "n": 127, "k": 92}]))).unwrap();
        assert!(bch.lost < 50, "{}", bch.lost);
        // A·5 as the tables use it: H = (127 − 92)/127 of each received packet is parity.
        assert!((bch.overhead - bch.received as f64 * 35.0 / 127.0).abs() < 1e-6);
    }

    #[test]
    fn the_tables_fec_127_94_is_a_block_code_correcting_4() {
        // Tables 3–4's first code: parity 33/127 of each received packet, lost above 4
        // errors in 800 bits (P(Binomial(800, 7.5e-4) > 4) ≈ 3.9e-4: 20 of 50,000).
        let r = stream(ber(json!([{"code": "block", "n": 127, "k": 94, "t": 4}]))).unwrap();
        assert!((r.overhead - r.received as f64 * 33.0 / 127.0).abs() < 1e-6);
        assert!((5..40).contains(&r.lost), "{}", r.lost);
    }

    #[test]
    fn adaptive_fec_switches_with_the_gilbert_state() {
        // Table 2's higher BER case, the Error state's bits in error at 1 %: the
        // controller climbs in long Error stays and falls back in long Error-free ones.
        let mut v = ber(json!([{"code": "none"}, {"code": "bch", "n": 127, "t": 5}, {"code": "bch", "n": 127, "t": 15}]));
        v["loss"] = json!({"model": "gilbert", "p_ge": 0.006, "p_eg": 0.007, "ber_bad": 0.01});
        v["control"] = json!({"window": 10, "up": [0.15, 0.15], "down": [0.0, 0.0]});
        let r = stream(v).unwrap();
        assert!(r.code_changes > 0 && r.sent_per_code.iter().all(|&n| n > 0), "{r:?}");
        assert_eq!(r.sent, r.lost + r.received);
    }

    #[test]
    fn bad_streams_name_the_field() {
        let err = |v| stream(v).unwrap_err();
        let mut v = ber(json!([{"code": "none"}]));
        v["loss"] = json!({"model": "bernoulli", "p": 0.1});
        assert!(err(v).starts_with("loss.model: \"bernoulli\" loses whole packets"));
        assert!(err(ber(json!([{"code": "bch", "n": 127, "k": 94}]))).starts_with("codes.0.k: k = 94 is not the dimension"));
        assert!(err(ber(json!([{"code": "block", "n": 127, "k": 94, "t": 17}]))).starts_with("codes.0.t: 17 errors"));
        assert!(err(ber(json!([{"code": "block", "n": 127, "k": 128, "t": 0}]))).starts_with("codes.0.k: 128"));
        assert!(err(ber(json!([{"code": "none"}, {"code": "bch", "n": 127, "k": 92}]))).starts_with("control: missing"));
        let mut v = ber(json!([{"code": "none"}, {"code": "bch", "n": 127, "k": 92}]));
        v["control"] = json!({"window": 0, "up": [0.1], "down": [0.0]});
        assert!(err(v).starts_with("control.window: 0"));
        let mut v = ber(json!([{"code": "none"}]));
        v["rate"] = json!("fast");
        assert!(err(v).starts_with("rate: \"fast\" is not a bit rate"), "{}", err(ber(json!([]))));
        let mut v = ber(json!([{"code": "none"}]));
        v["pakets"] = json!(1);
        assert!(err(v).starts_with("pakets: unknown field"));
    }
}
