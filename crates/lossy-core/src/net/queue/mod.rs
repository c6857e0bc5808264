//! Queue disciplines (docs/architecture.md#family-queue): what a link direction does with
//! packets waiting to be sent. Every arrival is offered to the discipline, even when the
//! link is idle (as in ns-2 and ns-3), so an active queue sees every packet.
//!
//! A scenario's `queue` is either a limit (`"100 packets"`, `"64 KB"`: DropTail, as
//! before queues became tables) or a table with a `kind` (`drop_tail`, `red`, `codel`,
//! `fq_codel`, `pie`, `drop_head`).
//!
//! A discipline is one file (its runtime type, and its table implementing
//! [`QueueDiscSpec`]) and one line in the `family!` list below, which makes both
//! [`AnyQueueDisc`] and [`QueueDiscConfig`]. Disciplines that need the link's rate ask its capacity for the
//! nominal rate (`crate::capacity`).

// Parts the disciplines share that are not schemes of the family: CoDel's control law
// (CoDel's and FQ-CoDel's), a FIFO that keeps each packet's arrival time, PIE's table.
pub mod codel_law;
pub mod pie_config;
pub mod timed_fifo;

use crate::capacity::AnyCapacity;
use crate::closed::family;
use crate::metrics::{Columns, Metric, Metrics};
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use crate::units::QueueLimit;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Cow;


/// What a discipline counts beyond its drops, for the link's summary row.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QueueStats {
    /// Random early drops (RED's "unforced" drops).
    pub early_drops: u64,
    /// Drops because the average was past the ramp (RED's "forced" drops other than a
    /// full queue).
    pub forced_drops: u64,
    /// Packets marked CE instead of dropped.
    pub marks: u64,
    /// The time-weighted mean of RED's average queue over the run, in packets (in mean
    /// packet sizes in byte mode); None without an average.
    pub avg_packets: Option<f64>,
    /// The drop probability of a discipline that keeps one (PIE), over the run; None
    /// for the others, whose rows leave its columns null.
    pub drop_probability: Option<DropProbability>,
}

/// A discipline's drop probability over a run: its time-weighted mean and its largest
/// value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DropProbability {
    pub mean: f64,
    pub max: f64,
}

impl QueueStats {
    /// Their columns, which every link direction's row has: of the queue's drops, the
    /// active queue management's early ones (RED's random drops, CoDel's and
    /// FQ-CoDel's control-law drops, PIE's random drops), drops because RED's average
    /// was past its ramp (max_th, or 2·max_th in gentle mode), and drops of a full queue
    /// (the arrival, or drop-head's and FQ-CoDel's queued packet); packets marked CE
    /// instead of dropped; RED's average queue, time-weighted over the run (null without
    /// RED).
    pub const COLUMNS: &'static Columns = &[
        ("queue_early_drops", Metric::U64(0)),
        ("queue_forced_drops", Metric::U64(0)),
        ("queue_overflow_drops", Metric::U64(0)),
        ("queue_marks", Metric::U64(0)),
        ("queue_avg_packets", Metric::OptF64(None)),
    ];

    /// The drop probability's columns (null for a discipline without one): its
    /// time-weighted mean over the run and its largest value. Listed after the queue
    /// delay's (`link_columns.rs`), so that older columns keep their places.
    pub const DROP_PROBABILITY_COLUMNS: &'static Columns =
        &[("queue_drop_prob_mean", Metric::OptF64(None)), ("queue_drop_prob_max", Metric::OptF64(None))];

    /// Writes them into the direction's row; `queue_drops` is every drop at the queue
    /// (the rest of them, past the early and forced ones, are overflows).
    pub fn report(&self, queue_drops: u64, out: &mut Metrics) {
        out.set("queue_early_drops", self.early_drops);
        out.set("queue_forced_drops", self.forced_drops);
        out.set("queue_overflow_drops", queue_drops - self.early_drops - self.forced_drops);
        out.set("queue_marks", self.marks);
        out.set("queue_avg_packets", self.avg_packets);
        out.set("queue_drop_prob_mean", self.drop_probability.map(|p| p.mean));
        out.set("queue_drop_prob_max", self.drop_probability.map(|p| p.max));
    }
}

/// Where a discipline hands the packets it drops; the host counts each as a queue drop.
pub type DropSink<'a> = &'a mut dyn FnMut(Packet);

pub trait QueueDisc {
    /// Offers an arriving packet (which the discipline may mark). A packet dropped, the
    /// arrival or one already queued (drop-head, FQ-CoDel's fattest flow), goes to
    /// `dropped`. Returns whether the arrival stays queued; when it does not (refused, or
    /// dropped at once with its flow's head, FQ-CoDel), it is the last packet given to
    /// `dropped`, so a host can tell it from the queued packets dropped without reading
    /// uids (`net/p2p.rs`'s delay record).
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: DropSink) -> bool;
    /// The next packet to send, when the link is ready for one; packets the discipline
    /// drops on the way out (CoDel's control law) go to `dropped`.
    fn dequeue(&mut self, now: SimTime, dropped: DropSink) -> Option<Packet>;
    /// Packets waiting.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Empties the queue (the link went down), handing over each packet.
    fn drain(&mut self, f: &mut dyn FnMut(Packet));
    /// Counts for the summary of a run that ended at `end_s` seconds.
    fn stats(&self, _end_s: f64) -> QueueStats {
        QueueStats::default()
    }
}


/// What every discipline's table does; [`QueueDiscConfig`] delegates to it, so a new
/// discipline implements it in its own file and adds one line to the list.
pub trait QueueDiscSpec {
    /// Checks the fields; the message starts with the field's name.
    fn validate(&self) -> Result<(), String>;
    /// The discipline for a link direction of `capacity` and one-way `delay` (RED's
    /// automatic values depend on them); `rng` is the direction's queue stream.
    fn build(&self, capacity: &AnyCapacity, delay: SimDuration, rng: RngStream) -> Result<AnyQueueDisc, String>;
    /// The limit a scenario may give instead of the table (`queue = "100 packets"`),
    /// written back that way; `None` for a discipline that needs its table.
    fn as_limit(&self) -> Option<QueueLimit> {
        None
    }
    /// Why the discipline needs a host that lets it drop packets it has already
    /// queued (at dequeue, or from the head), in a phrase that starts with its kind;
    /// `None` when it drops only arrivals (a host that keeps per-packet state beside
    /// the queue in arrival order, the WLAN station, refuses the others).
    fn drops_queued(&self) -> Option<&'static str> {
        None
    }
}

// One line per discipline (`closed::family!`): its module, its runtime type (boxed or
// not) and its table. The doc comments are the schema's descriptions (`lossy schema`).
family! {
    runtime {
        /// Every built-in queue discipline. Drop-tail inline (one is touched per packet);
        /// the others boxed, as RED's 272 B padded every drop-tail queue of every link
        /// direction to its size (issue 28; `layout_tests.rs` bounds it).
        pub enum AnyQueueDisc via each_queue;
        // Always inlined: once per packet each, and out of line they cost the plain
        // link 4 % of its instructions (drop-tail's push and pop are a few, and the
        // drop sink's closure is only devirtualised where the match is inlined).
        impl QueueDisc {
            #[inline(always)]
            fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: DropSink) -> bool;
            #[inline(always)]
            fn dequeue(&mut self, now: SimTime, dropped: DropSink) -> Option<Packet>;
            #[inline(always)]
            fn len(&self) -> usize;
            #[inline(always)]
            fn is_empty(&self) -> bool;
            fn drain(&mut self, f: &mut dyn FnMut(Packet));
            fn stats(&self, end_s: f64) -> QueueStats;
        }
    }
    config {
        /// A queue discipline chosen by `kind`.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
        pub enum QueueDiscConfig via each_queue_config;
        impl QueueDiscSpec {
            fn validate(&self) -> Result<(), String>;
            fn build(&self, capacity: &AnyCapacity, delay: SimDuration, rng: RngStream) -> Result<AnyQueueDisc, String>;
            fn as_limit(&self) -> Option<QueueLimit>;
            fn drops_queued(&self) -> Option<&'static str>;
        }
    }
    schemes {
        /// First in, first out; an arrival that does not fit is dropped.
        drop_tail::DropTail(DropTail, DropTailConfig),
        /// Random Early Detection (Floyd and Jacobson 1993) with ns-2.35's defaults.
        red::Red(Box<Red>, RedConfig),
        /// CoDel, Controlled Delay (RFC 8289): drops at dequeue when the packets' sojourn
        /// time stays above `target` for an `interval`.
        codel::Codel(Box<Codel>, CodelConfig),
        /// FQ-CoDel (RFC 8290): flows hashed into queues served by deficit round robin,
        /// new flows first, CoDel on each queue.
        fq_codel::FqCodel(Box<FqCodel>, FqCodelConfig),
        /// PIE, Proportional Integral controller Enhanced (RFC 8033): drops arrivals
        /// with a probability driven by the queueing delay.
        pie::Pie(Box<Pie>, PieConfig),
        /// First in, first out; when an arrival does not fit, the oldest packets are
        /// dropped to make room.
        drop_head::DropHead(Box<DropHead>, DropHeadConfig),
    }
}

/// A link direction's queue: a limit (DropTail) or a discipline table.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueConfig(pub QueueDiscConfig);

impl Serialize for QueueConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.as_limit() {
            Some(limit) => limit.serialize(s),
            None => self.0.serialize(s),
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
    use crate::net::queue::red::{RedConfig, RedMode};

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
        assert!(de(r#""0 packets""#).unwrap_err().contains("0 packets must be ≥ 1 packet"));
        let e = de(r#"{"kind": "drop_tail", "limit": "10 packets", "max_th": 3}"#).unwrap_err();
        assert!(e.contains("unknown field `max_th`"), "{e}");
        let e = de(r#"{"kind": "droptail", "limit": "10 packets"}"#).unwrap_err();
        assert!(e.contains("unknown variant `droptail`"), "{e}");
        let e = de(r#"{"kind": "red", "maxth": 3}"#).unwrap_err();
        assert!(e.contains("unknown field `maxth`"), "{e}");
    }

    #[test]
    fn every_discipline_is_a_kind_of_the_table() {
        // The schema's `kind` tags, generated from the list: one per variant.
        let schema = serde_json::to_value(schemars::schema_for!(QueueDiscConfig)).unwrap();
        let kinds: Vec<&str> = schema["oneOf"].as_array().unwrap().iter().map(|v| v["properties"]["kind"]["const"].as_str().unwrap()).collect();
        let variants: Vec<String> = QueueDiscConfig::VARIANTS.iter().map(|v| crate::closed::snake_case(v)).collect();
        assert_eq!(kinds, variants);
        assert_eq!(AnyQueueDisc::VARIANTS, QueueDiscConfig::VARIANTS);
    }

    #[test]
    fn a_red_table_parses_and_round_trips() {
        let q = de(r#"{"kind": "red", "limit": "50 packets", "min_th": 5, "max_th": 15, "max_p": 0.02, "w_q": 0.002, "gentle": false, "mode": "packets", "mean_packet_size": "1000 B", "ecn": true}"#).unwrap();
        let QueueDiscConfig::Red(c) = &q.0 else { panic!("{q:?}") };
        assert_eq!((c.min_th, c.max_th, c.max_p, c.w_q, c.gentle, c.mode, c.ecn), (Some(5.0), Some(15.0), 0.02, Some(0.002), false, RedMode::Packets, true));
        assert_eq!(de(&serde_json::to_string(&q).unwrap()).unwrap(), q);
        // Everything automatic or defaulted.
        assert_eq!(de(r#"{"kind": "red"}"#).unwrap(), QueueConfig(QueueDiscConfig::Red(RedConfig::default())));
    }
}

// Test helpers for the disciplines' tests; declared last, as the source-reading tests
// (tests/family_shape/) stop at a file's first `#[cfg(test)]`.
#[cfg(test)]
pub(crate) mod testing;
