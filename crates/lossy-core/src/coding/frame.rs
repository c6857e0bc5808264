//! The coded-frame model: FEC as a `Coding` of a frame
//! (docs/architecture.md#dependencies: a coding, not a layer). A frame of l data bits
//! travels as ⌈l/k⌉ codewords of n bits of a binary BCH(n, k, t) code, so its air time
//! and overhead include the parity, and it survives when every codeword holds at most t
//! bit errors (the decoder's guarantee; beyond t the data is lost whether the decoder
//! detects the failure or miscorrects): the code's fast path, which the real decoder
//! agrees with (`bch.rs`).
//!
//! Pure arithmetic, below both its users: the link layers that send coded frames and the
//! channel fit that measures them (`channel/fit.rs`). How a channel's bit errors fall
//! into the codewords is the channel's side: `channel/coded_frame.rs`.

use super::BchCode;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The scenario's `coding = { code = "bch", n = 255, k = 131 }` of a link layer (or `t`
/// instead of `k`: the code of length n correcting t errors).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "code", rename_all = "snake_case", deny_unknown_fields)]
pub enum CodingConfig {
    /// No code: a frame with any bit error is lost.
    // An empty struct variant: serde lets a unit variant of a tagged enum accept unknown fields.
    None {},
    /// A narrow-sense binary BCH(n, k, t) code, n = 2^m − 1 with m = 3 to 10.
    Bch {
        /// Codeword length n in bits: 7, 15, 31, 63, 127, 255, 511 or 1023.
        n: u32,
        /// Data bits per codeword; give `k` or `t`, not both.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        k: Option<u32>,
        /// Bit errors corrected per codeword; give `k` or `t`, not both.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        t: Option<u32>,
    },
}

impl Default for CodingConfig {
    fn default() -> Self {
        CodingConfig::None {}
    }
}

impl CodingConfig {
    /// The default: left out when a scenario is written back.
    pub fn is_none(&self) -> bool {
        matches!(self, CodingConfig::None {})
    }

    /// The coding, or `field: message` (unprefixed: the caller nests it under
    /// `...coding`) for a code the codec cannot build.
    pub fn build(&self) -> Result<Coding, String> {
        match *self {
            CodingConfig::None {} => Ok(Coding::None),
            CodingConfig::Bch { n, k, t } => {
                let n = n as usize;
                let code = match (k, t) {
                    (Some(k), None) => BchCode::new(n, k as usize),
                    (None, Some(t)) => BchCode::from_t(n, t as usize),
                    (Some(_), Some(_)) => return Err("t: give k or t, not both".into()),
                    (None, None) => return Err("k: missing; give the data bits per codeword k (or t, the errors corrected)".into()),
                };
                // Name the field the codec's message is about: n for the length, else k or t.
                code.map(Coding::from).map_err(|m| {
                    let field = if m.starts_with("n = ") { "n" } else if k.is_some() { "k" } else { "t" };
                    format!("{field}: {m}")
                })
            }
        }
    }
}

/// Boxed code: every plain link direction holds a `Coding`, nearly always `None`, and
/// an inline `BchCode` (112 B) made each of them that large (issue 28).
#[derive(Clone, Debug)]
pub enum Coding {
    /// The frame's bits as they are: lost on any bit error.
    None,
    /// A binary BCH(n, k, t) code: codewords of n bits carrying k data bits.
    Bch(Box<BchCode>),
}

impl From<BchCode> for Coding {
    fn from(code: BchCode) -> Self {
        Coding::Bch(Box::new(code))
    }
}

impl Coding {
    /// Bits on the air for `data_bits` of frame.
    pub fn coded_bits(&self, data_bits: u64) -> u64 {
        match self {
            Coding::None => data_bits,
            Coding::Bch(code) => data_bits.div_ceil(code.k() as u64) * code.n() as u64,
        }
    }

    /// The codewords a frame of `data_bits` travels in (0 uncoded: it is judged whole).
    pub fn codewords(&self, data_bits: u64) -> u64 {
        match self {
            Coding::None => 0,
            Coding::Bch(code) => data_bits.div_ceil(code.k() as u64),
        }
    }

    /// Whether a codeword with `errors` bit errors decodes (uncoded: only an error-free frame).
    pub fn corrects(&self, errors: u32) -> bool {
        match self {
            Coding::None => errors == 0,
            Coding::Bch(code) => code.survives(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(json: &str) -> Result<Coding, String> {
        serde_json::from_str::<CodingConfig>(json).map_err(|e| e.to_string())?.build()
    }

    #[test]
    fn tables_name_the_code_and_bad_codes_name_the_field() {
        let Coding::Bch(c) = config(r#"{"code": "bch", "n": 255, "k": 87}"#).unwrap() else { panic!() };
        assert_eq!((c.n(), c.k(), c.t()), (255, 87, 26));
        let Coding::Bch(c) = config(r#"{"code": "bch", "n": 127, "t": 5}"#).unwrap() else { panic!() };
        assert_eq!((c.n(), c.k(), c.t()), (127, 92, 5));
        assert!(matches!(config(r#"{"code": "none"}"#), Ok(Coding::None)));
        assert!(config(r#"{"code": "bch", "n": 255, "k": 131, "d": 3}"#).is_err());
        let field = |json| config(json).unwrap_err().split(':').next().unwrap().to_string();
        assert_eq!(field(r#"{"code": "bch", "n": 100, "k": 50}"#), "n");
        assert_eq!(field(r#"{"code": "bch", "n": 255, "k": 200}"#), "k");
        assert_eq!(field(r#"{"code": "bch", "n": 255, "t": 200}"#), "t");
        assert_eq!(field(r#"{"code": "bch", "n": 255, "k": 131, "t": 18}"#), "t");
        assert_eq!(field(r#"{"code": "bch", "n": 255}"#), "k");
    }

    fn rate_half() -> Coding {
        Coding::from(BchCode::new(255, 131).unwrap())
    }

    #[test]
    fn a_frame_takes_whole_codewords() {
        // Chockalingam's link packet: 32 data bytes = 256 bits in two BCH(255,131) codewords.
        assert_eq!(rate_half().coded_bits(256), 510);
        assert_eq!(rate_half().coded_bits(262), 510);
        assert_eq!(rate_half().coded_bits(263), 765);
        assert_eq!(Coding::None.coded_bits(256), 256);
    }

    #[test]
    fn a_codeword_decodes_up_to_t_errors_and_an_uncoded_frame_only_without_any() {
        assert_eq!((rate_half().codewords(256), Coding::None.codewords(256)), (2, 0));
        assert!(rate_half().corrects(18) && !rate_half().corrects(19));
        assert!(Coding::None.corrects(0) && !Coding::None.corrects(1));
    }
}
