//! `tcp.abc`, appropriate byte counting (RFC 3465): off, or the slow-start limit L. Read
//! by the `reno` rule, which builds [`super::ByteCounting`] when it is set.

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::borrow::Cow;
use std::fmt;

/// Appropriate byte counting (RFC 3465): off, or the slow-start limit L in segments.
/// A scenario writes `abc = false` or `abc = 2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Abc {
    /// RFC 5681 §3.1: growth counted per ACK.
    #[default]
    Off,
    /// L = n·SMSS with n = 1 or 2 (RFC 3465 §2.3: L > 2·SMSS MUST NOT be used).
    Limit(u8),
}

impl Abc {
    /// L in segments, or `None` when off.
    pub fn limit_segments(self) -> Option<u64> {
        match self {
            Abc::Off => None,
            Abc::Limit(n) => Some(n as u64),
        }
    }

    /// The one check of L, for parsing and `TcpConfig::validate` alike.
    pub(crate) fn limit(n: u64) -> Result<Abc, String> {
        match n {
            1 | 2 => Ok(Abc::Limit(n as u8)),
            _ => Err(format!("{n} is not allowed; use false, 1 or 2")),
        }
    }
}

impl<'de> Deserialize<'de> for Abc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Abc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("false, 1 or 2")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Abc, E> {
                match v {
                    false => Ok(Abc::Off),
                    true => Err(E::custom("true is not allowed; use 2 (L = 2 segments, the most RFC 3465 allows), 1 or false")),
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Abc, E> {
                Abc::limit(v).map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Abc, E> {
                Err(E::custom(format!("{v} is not allowed; use false, 1 or 2")))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Abc, E> {
                Err(E::custom(format!("{v} is not allowed; use false, 1 or 2")))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Abc, E> {
                Err(E::custom(format!("\"{v}\" is not allowed; use false, 1 or 2")))
            }
        }
        d.deserialize_any(V)
    }
}

impl Serialize for Abc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Abc::Off => s.serialize_bool(false),
            Abc::Limit(n) => s.serialize_u8(*n),
        }
    }
}

impl JsonSchema for Abc {
    fn schema_name() -> Cow<'static, str> {
        "Abc".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Appropriate byte counting (RFC 3465): false, or the limit L in segments (1 or 2)",
            "anyOf": [
                {"type": "boolean", "const": false},
                {"type": "integer", "enum": [1, 2]}
            ]
        })
    }
}
