//! What a run returns: one summary, a row per flow, link direction and agent, and
//! optional traces. Rows are a few typed core fields plus an open record of named
//! metrics (`metrics.rs`) the schemes fill, so this file names no scheme.

use crate::aggregate::FlowAggregates;
use crate::capture::Capture;
use crate::metrics::Metrics;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub scenario: String,
    pub seed: u64,
    pub replication: u64,
    /// Simulated time reached (the duration, or when the last application finished).
    pub sim_time_s: f64,
    pub events: u64,
    pub wall_s: f64,
    /// CPU seconds of the event loop's thread (None where the platform has no such clock).
    pub cpu_s: Option<f64>,
    pub events_per_s: f64,
    pub sim_s_per_wall_s: f64,
    /// Data packets (TCP segments and UDP datagrams) that reached their receivers.
    pub packets_delivered: u64,
    /// Conservation (docs/architecture.md#conservation): injected + duplicated =
    /// delivered (all packets) + the drops by cause + absorbed + held at the end.
    pub packets_injected: u64,
    pub packets_duplicated: u64,
    pub packets_delivered_all: u64,
    /// Of those, headers whose payload was lost on a WLAN (EWLN and CORRUPT set), not
    /// counted in `packets_delivered`.
    pub packets_corrupt_delivered: u64,
    pub drops_queue: u64,
    pub drops_channel: u64,
    pub drops_link_retry: u64,
    pub drops_link_down: u64,
    pub drops_no_route: u64,
    pub packets_absorbed: u64,
    pub packets_held_at_end: u64,
    /// Over all flows: count, goodput mean, min, p5/p50/p95, Jain's index, pooled one-way delay p50/p95/p99.
    #[serde(flatten)]
    pub aggregates: FlowAggregates,
    /// The same per flow group, as `groups.<name>.<key>`, in the scenario's order.
    #[serde(serialize_with = "in_order", skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<(String, FlowAggregates)>,
}

/// A list of (name, value) pairs as a map that keeps its order.
fn in_order<S: Serializer>(pairs: &[(String, FlowAggregates)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

/// A flow's row: what the world measures of every flow, typed, and the record its
/// endpoints fill (`Endpoint::report`): counters, window, RTT, a transport's own columns.
#[derive(Clone, Debug)]
pub struct FlowSummary {
    pub name: String,
    pub from: String,
    pub to: String,
    pub transport: &'static str,
    pub variant: &'static str,
    pub app: &'static str,
    /// The flow group it belongs to; "" for a `[[flows]]` table.
    pub group: String,
    /// Application bytes delivered in order per second of the flow's lifetime, in bit/s.
    pub goodput_bps: f64,
    pub bytes_delivered: u64,
    /// The endpoints' metrics: the columns every flow has (the transports declare them
    /// with defaults, `transport::flow_columns`), then a transport's own (FECTCP's).
    pub metrics: Metrics,
    /// File transfers: from the start to the last byte delivered.
    pub completion_time_s: Option<f64>,
    /// The congestion control's kind (`tcp.cc`, "reno" by default; "" for a transport
    /// that runs none). Its column follows `completion_time_s`, so that older columns
    /// keep their places.
    pub cc: String,
}

/// Labels and core numbers, the declared metrics, the completion time, then the own
/// metrics: the order the row's columns have always had (Parquet stores, `lossy run`).
impl Serialize for FlowSummary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("name", &self.name)?;
        m.serialize_entry("from", &self.from)?;
        m.serialize_entry("to", &self.to)?;
        m.serialize_entry("transport", self.transport)?;
        m.serialize_entry("variant", self.variant)?;
        m.serialize_entry("app", self.app)?;
        m.serialize_entry("group", &self.group)?;
        m.serialize_entry("goodput_bps", &self.goodput_bps)?;
        m.serialize_entry("bytes_delivered", &self.bytes_delivered)?;
        for (k, v) in self.metrics.declared_part() {
            m.serialize_entry(k, v)?;
        }
        m.serialize_entry("completion_time_s", &self.completion_time_s)?;
        m.serialize_entry("cc", &self.cc)?;
        for (k, v) in self.metrics.own_part() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// A link direction's row: what every segment counts of a direction, typed, and the
/// record its parts fill (the segment's other drop causes, the link layer's, the
/// impairments', the queue discipline's, a WLAN's MAC counts).
#[derive(Clone, Debug)]
pub struct LinkSummary {
    pub name: String,
    pub packets_offered: u64,
    pub queue_drops: u64,
    pub channel_losses: u64,
    /// Packets the channel let through (judged when their frame starts, so a frame on
    /// the air when the run ends counts).
    pub packets_delivered: u64,
    /// Bits of the delivered packets whose last bit was sent by the run's end, per second
    /// of the run: never more than the rate (a frame still on the air is left out).
    pub throughput_bps: f64,
    /// channel_losses / packets the channel judged, in [0, 1] (a WLAN's: of data frames
    /// not collided).
    pub loss_rate: f64,
    /// The columns every direction has (`net::link_columns`), then a segment's own.
    pub metrics: Metrics,
}

impl Serialize for LinkSummary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("name", &self.name)?;
        m.serialize_entry("packets_offered", &self.packets_offered)?;
        m.serialize_entry("queue_drops", &self.queue_drops)?;
        m.serialize_entry("channel_losses", &self.channel_losses)?;
        m.serialize_entry("packets_delivered", &self.packets_delivered)?;
        m.serialize_entry("throughput_bps", &self.throughput_bps)?;
        m.serialize_entry("loss_rate", &self.loss_rate)?;
        for (k, v) in self.metrics.iter() {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct AgentSummary {
    pub name: String,
    pub kind: &'static str,
    pub node: String,
    pub state_bytes_max: u64,
    /// Mean over the packets the agent saw.
    pub state_bytes_mean: f64,
    pub packets_seen: u64,
    #[serde(flatten)]
    pub counters: BTreeMap<String, u64>,
}

/// One trace column.
#[derive(Clone, Debug)]
pub enum Column {
    F64(Vec<f64>),
    U32(Vec<u32>),
    U8(Vec<u8>),
}

#[derive(Clone, Debug)]
pub struct Trace {
    pub name: &'static str,
    pub columns: Vec<(&'static str, Column)>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    pub summary: Summary,
    pub flows: Vec<FlowSummary>,
    pub links: Vec<LinkSummary>,
    pub agents: Vec<AgentSummary>,
    /// What a reader should know about a valid run, one line each (e.g. a Syndrome
    /// receiver whose data never carried a counter). Not in `summary`: its fields are
    /// sweep columns. Left out of the JSON when empty, as most runs have none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    #[serde(skip)]
    pub traces: Vec<Trace>,
    /// One pcap file per captured link direction (`[capture]`), in the links' order.
    #[serde(skip)]
    pub captures: Vec<Capture>,
}

impl RunResult {
    /// Everything but the traces, as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("results serialise")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::columns::{to_columns, ColumnData};
    use crate::metrics::{Columns, Metric};

    /// A scheme this file never names declares a column every flow has and sets one of
    /// its own: both reach the row by name, around the typed completion time.
    #[test]
    fn a_schemes_counters_reach_the_flow_row_by_name() {
        const SCHEME: &Columns = &[("scheme_count", Metric::U64(0))];
        let row = |set: bool| {
            let mut f = FlowSummary {
                name: "f".into(),
                from: "a".into(),
                to: "b".into(),
                transport: "t",
                variant: "v",
                app: "bulk",
                group: String::new(),
                goodput_bps: 1.0,
                bytes_delivered: 2,
                metrics: Metrics::declared(&[SCHEME]),
                completion_time_s: None,
                cc: "reno".into(),
            };
            if set {
                f.metrics.set("scheme_count", 7u64);
                f.metrics.set("scheme_own_s", 0.5);
            }
            f
        };
        let json = serde_json::to_string(&row(true)).unwrap();
        assert!(json.ends_with(r#""bytes_delivered":2,"scheme_count":7,"completion_time_s":null,"cc":"reno","scheme_own_s":0.5}"#), "{json}");
        let t = to_columns(&[row(true), row(false)]);
        let col = |n: &str| t.columns.iter().find(|(k, _)| k == n).unwrap().1.clone();
        // Declared: the default where the scheme did not run, and its type kept.
        assert_eq!(col("scheme_count"), ColumnData::U64(vec![7, 0]));
        // Own: missing (NaN) in the other row.
        let ColumnData::F64(own) = col("scheme_own_s") else { panic!() };
        assert!(own[0] == 0.5 && own[1].is_nan());
    }
}
