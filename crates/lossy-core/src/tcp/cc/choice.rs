//! `tcp.cc` as a scenario writes it: a name (`cc = "cubic"`, the scheme's defaults) or a
//! table with a `kind` and the scheme's fields (`cc = { kind = "cubic", beta = 0.7 }`),
//! as a link's `queue` is a limit or a table. Written back as the name when the table
//! holds nothing but its kind.

use super::{CcSpec, CongestionControlConfig};
use crate::closed::snake_case;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

/// The congestion control a flow's sender runs (`tcp.cc`).
#[derive(Clone, Debug, PartialEq)]
pub struct CcChoice(pub CongestionControlConfig);

impl CcChoice {
    /// Whether it is the default (`reno`), which scenarios need not write.
    pub fn is_default(&self) -> bool {
        *self == CcChoice::default()
    }

    /// Its `kind` as a scenario writes it.
    pub fn kind(&self) -> String {
        match serde_json::to_value(&self.0) {
            Ok(serde_json::Value::Object(map)) => map.get("kind").and_then(|k| k.as_str()).unwrap_or_default().to_string(),
            _ => String::new(),
        }
    }

    /// The kinds `tcp.cc` accepts, as a scenario writes them.
    pub fn kinds() -> Vec<String> {
        CongestionControlConfig::VARIANTS.iter().map(|v| snake_case(v)).collect()
    }

    /// Checks the scheme's fields; messages name the field relative to `tcp`.
    pub fn validate(&self) -> Result<(), String> {
        self.0.validate().map_err(|m| format!("cc.{m}"))
    }
}

impl Serialize for CcChoice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let table = serde_json::to_value(&self.0).map_err(serde::ser::Error::custom)?;
        match table.as_object() {
            Some(map) if map.len() == 1 => s.serialize_str(&self.kind()),
            _ => table.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for CcChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CcChoice;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "a congestion control's name ({}) or a table with a `kind`", CcChoice::kinds().join(", "))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<CcChoice, E> {
                let table = serde_json::json!({ "kind": v });
                CongestionControlConfig::deserialize(table).map(CcChoice).map_err(|e| E::custom(e.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<CcChoice, A::Error> {
                CongestionControlConfig::deserialize(de::value::MapAccessDeserializer::new(map)).map(CcChoice)
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for CcChoice {
    fn schema_name() -> Cow<'static, str> {
        "CcChoice".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let table = g.subschema_for::<CongestionControlConfig>();
        json_schema!({
            "description": "A congestion control's name (its defaults), or a table with a `kind` and its fields",
            "anyOf": [{"type": "string", "enum": CcChoice::kinds()}, table]
        })
    }
}
