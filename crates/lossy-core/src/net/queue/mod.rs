//! Queue disciplines (DESIGN.md `QueueDisc`): what a link direction does with packets
//! waiting to be sent. Every arrival is offered to the discipline, even when the link is
//! idle (as in ns-2 and ns-3), so an active queue sees every packet.
//!
//! A scenario's `queue` is either a limit (`"100 packets"`, `"64 KB"`: DropTail, as
//! before queues became tables) or a table with a `kind`.

pub mod drop_tail;

use crate::closed::closed_enum;
use crate::packet::Packet;
use crate::time::SimTime;
use crate::units::QueueLimit;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;

pub use drop_tail::DropTail;

pub trait QueueDisc {
    /// Offers an arriving packet (which the discipline may mark); gives it back if dropped.
    fn enqueue(&mut self, now: SimTime, pkt: Packet) -> Result<(), Packet>;
    /// The next packet to send, when the link is ready for one.
    fn dequeue(&mut self, now: SimTime) -> Option<Packet>;
    /// Packets waiting.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Empties the queue (the link went down), handing over each packet.
    fn drain(&mut self, f: &mut dyn FnMut(Packet));
}

closed_enum! {
    /// Every built-in queue discipline.
    pub enum AnyQueueDisc via each_queue {
        DropTail(DropTail),
    }
}

impl QueueDisc for AnyQueueDisc {
    #[inline]
    fn enqueue(&mut self, now: SimTime, pkt: Packet) -> Result<(), Packet> {
        each_queue!(self, q => q.enqueue(now, pkt))
    }
    #[inline]
    fn dequeue(&mut self, now: SimTime) -> Option<Packet> {
        each_queue!(self, q => q.dequeue(now))
    }
    fn len(&self) -> usize {
        each_queue!(self, q => q.len())
    }
    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        each_queue!(self, q => q.drain(f))
    }
}

/// A queue discipline chosen by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum QueueDiscConfig {
    /// First in, first out; an arrival that does not fit is dropped.
    DropTail {
        /// Packets or bytes the queue holds, not counting the one being sent.
        limit: QueueLimit,
    },
}

impl QueueDiscConfig {
    pub fn build(&self) -> AnyQueueDisc {
        match self {
            QueueDiscConfig::DropTail { limit } => DropTail::new(*limit).into(),
        }
    }
}

/// A link direction's queue: a limit (DropTail) or a discipline table.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueConfig(pub QueueDiscConfig);

impl QueueConfig {
    pub fn drop_tail(limit: QueueLimit) -> Self {
        QueueConfig(QueueDiscConfig::DropTail { limit })
    }
}

impl Serialize for QueueConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            QueueDiscConfig::DropTail { limit } => limit.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for QueueConfig {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = QueueConfig;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a queue limit such as \"100 packets\", or a table with a `kind`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<QueueConfig, E> {
                QueueLimit::deserialize(v.into_deserializer()).map(QueueConfig::drop_tail)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<QueueConfig, E> {
                QueueLimit::deserialize(v.into_deserializer()).map(QueueConfig::drop_tail)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<QueueConfig, E> {
                QueueLimit::deserialize(v.into_deserializer()).map(QueueConfig::drop_tail)
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<QueueConfig, E> {
                QueueLimit::deserialize(v.into_deserializer()).map(QueueConfig::drop_tail)
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<QueueConfig, A::Error> {
                QueueDiscConfig::deserialize(de::value::MapAccessDeserializer::new(map)).map(QueueConfig)
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for QueueConfig {
    fn schema_name() -> Cow<'static, str> {
        "QueueConfig".into()
    }
    fn json_schema(g: &mut SchemaGenerator) -> Schema {
        let limit = g.subschema_for::<QueueLimit>();
        let disc = g.subschema_for::<QueueDiscConfig>();
        json_schema!({
            "description": "A queue limit (DropTail), e.g. \"100 packets\", or a queue discipline table with a `kind`",
            "anyOf": [limit, disc]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn de(json: &str) -> Result<QueueConfig, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_limit_is_drop_tail_and_a_table_names_its_kind() {
        let want = QueueConfig::drop_tail(QueueLimit::Packets(100));
        assert_eq!(de(r#""100 packets""#).unwrap(), want);
        assert_eq!(de(r#"{"kind": "drop_tail", "limit": "100 packets"}"#).unwrap(), want);
        assert_eq!(serde_json::to_string(&want).unwrap(), r#""100 packets""#);
    }

    #[test]
    fn bad_queues_say_what_is_allowed() {
        assert!(de(r#""0 packets""#).unwrap_err().contains("is not a queue limit"));
        let e = de(r#"{"kind": "drop_tail", "limit": "10 packets", "max_th": 3}"#).unwrap_err();
        assert!(e.contains("unknown field `max_th`"), "{e}");
        let e = de(r#"{"kind": "droptail", "limit": "10 packets"}"#).unwrap_err();
        assert!(e.contains("unknown variant `droptail`"), "{e}");
    }
}
