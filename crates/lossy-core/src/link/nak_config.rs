//! The `nak = { delay, loss, bytes, timeout }` table and the `delivery` order of an ARQ
//! link layer (`config.rs`): NAKs that come back over the link's reverse direction,
//! taking time and sometimes lost — where the paper assumes them instantaneous and
//! error-free (Chockalingam et al. §III) — and whether the link hands packets on in
//! order. What the readings are and why: docs/mechanisms/link-arq.md.

use crate::channel::{check_positive, check_probability};
use crate::time::{serialization_delay, SimDuration};
use crate::units::{Bytes, Duration, HEADER_SIZE};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserializer, IntoDeserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// NAKs that take time and may be lost.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NakConfig {
    /// One-way propagation delay of a NAK's trip back: `"link"` (the link's own `delay`,
    /// the default) or a duration.
    #[serde(default)]
    pub delay: NakDelay,
    /// Probability that a NAK is lost, in [0, 1) (default 0: error-free, as in the paper);
    /// the receiver repeats a lost NAK after `timeout`.
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub loss: f64,
    /// A NAK's size on the air, sent at the link's rate (default 6 B: an HDLC selective
    /// reject frame with extended control field — address, 2 control bytes, 2 FCS bytes,
    /// one flag).
    #[serde(default = "hdlc_srej")]
    pub bytes: Bytes,
    /// How long the receiver waits for the retransmission a NAK asked for before it sends
    /// the NAK again (default: the NAK's trip back, then a full link packet the sender
    /// may be finishing, the retransmission's own air time and its trip forward — the
    /// latest a retransmission comes when the NAK got through and nothing else waits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<Duration>,
}

fn hdlc_srej() -> Bytes {
    Bytes(6)
}

impl NakConfig {
    /// `field: message`, the field under `nak.` (the caller nests it further).
    pub fn validate(&self) -> Result<(), String> {
        check_probability("nak.loss", self.loss)?;
        if self.loss == 1.0 {
            return Err("nak.loss: 1 loses every NAK, so no link packet would ever be sent again; use a number in [0, 1)".into());
        }
        HEADER_SIZE.check("nak.bytes", self.bytes)?;
        self.timeout.map_or(Ok(()), |t| check_positive("nak.timeout", t))
    }

    /// The NAK's timing on a link of `nominal_rate_bps` (its capacity's: a NAK's air
    /// time is judged at it) and one-way `delay` whose full link packet takes `full_air`
    /// on the air.
    pub fn timing(&self, nominal_rate_bps: u64, delay: SimDuration, full_air: SimDuration) -> NakTiming {
        let back = serialization_delay(self.bytes.0 * 8, nominal_rate_bps) + self.delay.resolve(delay);
        NakTiming {
            forward: delay,
            back,
            timeout: self.timeout.map_or(back + full_air + full_air + delay, |t| t.0),
            loss: self.loss,
        }
    }
}

/// The NAK's timing and loss on one link direction (`NakConfig::timing`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NakTiming {
    /// The data's propagation delay: the receiver finds a link packet bad at its end + this.
    pub forward: SimDuration,
    /// A NAK's trip back: its air time at the link's rate + its propagation delay.
    pub back: SimDuration,
    /// How long the receiver waits before it repeats a NAK that was lost.
    pub timeout: SimDuration,
    /// Probability that a NAK is lost, in [0, 1).
    pub loss: f64,
}

/// A NAK's propagation delay back: the link's own, or a given one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NakDelay {
    #[default]
    Link,
    Fixed(Duration),
}

impl NakDelay {
    fn resolve(self, link: SimDuration) -> SimDuration {
        match self {
            NakDelay::Link => link,
            NakDelay::Fixed(d) => d.0,
        }
    }
}

impl<'de> Deserialize<'de> for NakDelay {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NakDelay;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("\"link\" or a duration such as \"5 ms\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<NakDelay, E> {
                if v.trim() == "link" {
                    return Ok(NakDelay::Link);
                }
                Duration::deserialize(v.into_deserializer())
                    .map(NakDelay::Fixed)
                    .map_err(|e: de::value::Error| E::custom(format!("{e}, or \"link\" (the link's own delay)")))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<NakDelay, E> {
                Duration::deserialize(v.into_deserializer()).map(NakDelay::Fixed)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<NakDelay, E> {
                Duration::deserialize(v.into_deserializer()).map(NakDelay::Fixed)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<NakDelay, E> {
                Duration::deserialize(v.into_deserializer()).map(NakDelay::Fixed)
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for NakDelay {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            NakDelay::Link => s.serialize_str("link"),
            NakDelay::Fixed(d) => d.serialize(s),
        }
    }
}

impl JsonSchema for NakDelay {
    fn schema_name() -> Cow<'static, str> {
        "NakDelay".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let duration = g.subschema_for::<Duration>();
        json_schema!({
            "description": "A NAK's propagation delay back: \"link\" (the link's own delay) or a duration",
            "anyOf": [{"type": "string", "const": "link"}, duration]
        })
    }
}

/// The order in which the link hands packets on to the far end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// A packet whose link packets are all through waits for every earlier packet to be
    /// through or given up (IS-99's radio link protocol).
    #[default]
    InOrder,
    /// Each packet goes on as soon as its link packets are all through.
    AsCompleted,
}

impl Delivery {
    /// The default: left out when a scenario is written back.
    pub fn is_in_order(&self) -> bool {
        *self == Delivery::InOrder
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn de(json: &str) -> Result<NakConfig, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_nak_table_takes_defaults_and_link_or_a_duration() {
        let n = de("{}").unwrap();
        assert_eq!((n.delay, n.loss, n.bytes, n.timeout), (NakDelay::Link, 0.0, Bytes(6), None));
        assert_eq!(de(r#"{"delay": "2 ms"}"#).unwrap().delay, NakDelay::Fixed(Duration::from_millis(2)));
        assert_eq!(de(r#"{"delay": 0}"#).unwrap().delay, NakDelay::Fixed(Duration::default()));
        assert!(de(r#"{"delay": "soon"}"#).unwrap_err().contains(r#"is not a duration; use e.g. "5 ms", or "link""#));
        assert!(de(r#"{"lost": 0.1}"#).unwrap_err().contains("unknown field `lost`"));
        assert_eq!(serde_json::to_string(&de(r#"{"delay": "link"}"#).unwrap()).unwrap(), r#"{"delay":"link","loss":0.0,"bytes":"6 B"}"#);
    }

    #[test]
    fn bad_nak_values_name_the_field() {
        let bad = |json| de(json).unwrap().validate().unwrap_err();
        assert_eq!(bad(r#"{"loss": 1.5}"#), "nak.loss: 1.5 is not a probability; use a number in [0, 1]");
        assert!(bad(r#"{"loss": 1}"#).starts_with("nak.loss: 1 loses every NAK"));
        assert_eq!(bad(r#"{"bytes": "70000 B"}"#), "nak.bytes: 70000 B is out of range; use 0 B to 65,535 B");
        assert!(bad(r#"{"timeout": "0 s"}"#).starts_with("nak.timeout: 0 s is not a positive duration"));
        assert!(de(r#"{"loss": 0.99, "bytes": "0 B", "delay": "0 s"}"#).unwrap().validate().is_ok());
    }

    #[test]
    fn the_default_timeout_waits_for_the_nak_a_link_packet_and_the_retransmission() {
        // 1.5 Mbit/s, 5 ms each way, 6-byte NAK (32 us), 32-byte link packet (171 us).
        let air = serialization_delay(256, 1_500_000);
        let t = de("{}").unwrap().timing(1_500_000, SimDuration::from_millis(5), air);
        assert_eq!(t.forward, SimDuration::from_millis(5));
        assert_eq!(t.back, SimDuration(32_000) + SimDuration::from_millis(5));
        assert_eq!(t.timeout, t.back + air + air + t.forward);
        let given = de(r#"{"delay": "1 ms", "bytes": "0 B", "timeout": "40 ms"}"#).unwrap().timing(1_500_000, SimDuration::from_millis(5), air);
        assert_eq!((given.back, given.timeout), (SimDuration::from_millis(1), SimDuration::from_millis(40)));
    }
}
