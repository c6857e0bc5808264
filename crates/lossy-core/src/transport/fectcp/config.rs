//! A FECTCP flow's `fectcp` table (Botoș §II). Every choice the paper leaves open is a
//! field with its default and the reason for it; `validate` names the field, the value
//! and what is allowed.

use crate::coding::rateless::RatelessCode;
use crate::units::{Bytes, Duration};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How the receiver decides that it can decode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Decoding {
    /// Fast: decoding succeeds once each source block has as many distinct symbols as a
    /// count drawn from the code's overhead distribution (measured by its real decoder),
    /// or K·(1 + overhead) when `overhead` is given.
    #[default]
    Model,
    /// Real symbols: the receiver regenerates each symbol's bytes, runs the real decoder
    /// and compares the file byte for byte with what was sent.
    Verify,
}

/// The mean RTT of Eq. 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RttAverage {
    /// Over every sample of the connection ("update the mean RTT", read literally).
    #[default]
    All,
    /// Over the last cwnd samples (one window's worth).
    Window,
}

/// σ_RTT of Eq. 2, which the paper calls "the variance of the RTT".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sigma {
    /// The standard deviation, so that Eq. 2 adds seconds to seconds.
    #[default]
    Std,
    /// The variance in s², its number taken as seconds (the paper's word, literally).
    Variance,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct FectcpConfig {
    /// The rateless code: "raptorq" (RFC 6330) or "lt" (Luby's LT code).
    pub code: RatelessCode,
    /// "model" (fast: decoding success by received-symbol count) or "verify" (real
    /// symbols, real decoder, the file compared byte for byte).
    pub decoding: Decoding,
    /// With `decoding = "model"`: a fixed decoding overhead, the receiver needing
    /// ⌈K·(1 + overhead)⌉ symbols per block (Botoș assume about 5 %: 0.05). Unset = the
    /// overhead distribution the code's real decoder shows.
    pub overhead: Option<f64>,
    /// Symbol bytes per segment (at most `tcp.mss`); unset = `tcp.mss`. The segment on
    /// the wire adds `tcp.header`.
    pub symbol_size: Option<Bytes>,
    /// α of Eq. 1, in (0, 1): the weight of the old sRTT (default 0.875, TCP's 1 − 1/8,
    /// RFC 6298 §2.3).
    pub alpha: f64,
    /// σ_RTT of Eq. 2: "std" (default) or "variance".
    pub sigma: Sigma,
    /// The mean RTT of Eq. 1: "all" samples (default) or the last cwnd ("window").
    pub rtt_average: RttAverage,
    /// The window's reduction when a timer expires, in (0, 1): cwnd and ssthresh become
    /// decrease·cwnd (default 0.5, TCP's halving, RFC 5681 eq. 4), once per window.
    pub decrease: f64,
    /// The window after the handshake, in segments (default 2, ns-2.35's `windowInit_`).
    pub initial_window: u32,
    /// The SYN's first timeout, doubled per retry (RFC 6298 §2.1 and §5.5: 1 s).
    pub handshake_timeout: Duration,
}

impl Default for FectcpConfig {
    fn default() -> Self {
        FectcpConfig {
            code: RatelessCode::RaptorQ,
            decoding: Decoding::Model,
            overhead: None,
            symbol_size: None,
            alpha: 0.875,
            sigma: Sigma::Std,
            rtt_average: RttAverage::All,
            decrease: 0.5,
            initial_window: 2,
            handshake_timeout: Duration::from_secs(1),
        }
    }
}

impl FectcpConfig {
    /// Checks every field against the flow's MSS; the message starts with the field.
    pub fn validate(&self, mss: u64) -> Result<(), String> {
        let open_unit = |field: &str, v: f64, what: &str| {
            if v.is_finite() && v > 0.0 && v < 1.0 {
                Ok(())
            } else {
                Err(format!("{field}: {v} is not allowed; use a number in (0, 1), {what}"))
            }
        };
        open_unit("alpha", self.alpha, "the weight of the old sRTT in Eq. 1 (default 0.875)")?;
        open_unit("decrease", self.decrease, "the factor on cwnd when a timer expires (default 0.5)")?;
        if let Some(o) = self.overhead {
            if !(0.0..=1.0).contains(&o) {
                return Err(format!("overhead: {o} is not allowed; use a fraction in [0, 1] (Botoș: about 0.05), or leave it unset for the measured distribution"));
            }
            if self.decoding == Decoding::Verify {
                return Err("overhead: a fixed overhead is for decoding = \"model\"; the real decoder in \"verify\" needs what it needs".into());
            }
        }
        if let Some(s) = self.symbol_size {
            if s.0 == 0 || s.0 > mss {
                return Err(format!("symbol_size: {} B is not allowed; use 1 B to the MSS (tcp.mss = {mss} B)", s.0));
            }
        }
        if self.initial_window == 0 {
            return Err("initial_window: 0 segments sends nothing; use 1 or more (default 2)".into());
        }
        if self.handshake_timeout.0.as_nanos() == 0 {
            return Err("handshake_timeout: 0 s is not a timeout; use more than 0 (RFC 6298: 1 s)".into());
        }
        Ok(())
    }

    /// Symbol bytes per segment.
    pub fn symbol_bytes(&self, mss: u64) -> u32 {
        self.symbol_size.map_or(mss, |s| s.0) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(json: &str) -> String {
        let c: FectcpConfig = serde_json::from_str(json).unwrap();
        c.validate(1000).unwrap_err()
    }

    #[test]
    fn defaults_are_valid_and_documented() {
        let c = FectcpConfig::default();
        assert_eq!(c.validate(1000), Ok(()));
        assert_eq!((c.alpha, c.decrease, c.initial_window), (0.875, 0.5, 2));
        assert_eq!(c.symbol_bytes(1000), 1000);
    }

    #[test]
    fn bad_fields_are_named() {
        assert_eq!(msg(r#"{"alpha": 1.0}"#), "alpha: 1 is not allowed; use a number in (0, 1), the weight of the old sRTT in Eq. 1 (default 0.875)");
        assert!(msg(r#"{"alpha": 0}"#).starts_with("alpha: 0 is not allowed"));
        assert!(msg(r#"{"decrease": 1.5}"#).starts_with("decrease: 1.5 is not allowed"));
        assert!(msg(r#"{"overhead": 1.2}"#).starts_with("overhead: 1.2 is not allowed; use a fraction in [0, 1]"));
        assert!(msg(r#"{"overhead": -0.1}"#).starts_with("overhead: -0.1 is not allowed"));
        assert!(msg(r#"{"overhead": 0.05, "decoding": "verify"}"#).starts_with("overhead: a fixed overhead is for decoding"));
        assert_eq!(msg(r#"{"symbol_size": "1460 B"}"#), "symbol_size: 1460 B is not allowed; use 1 B to the MSS (tcp.mss = 1000 B)");
        assert!(msg(r#"{"initial_window": 0}"#).starts_with("initial_window: 0 segments"));
        assert!(msg(r#"{"handshake_timeout": "0 s"}"#).starts_with("handshake_timeout: 0 s"));
    }

    #[test]
    fn unknown_code_names_are_rejected_by_the_schema() {
        let e = serde_json::from_str::<FectcpConfig>(r#"{"code": "turbo"}"#).unwrap_err().to_string();
        assert!(e.contains("turbo"), "{e}");
    }
}
