//! What a run returns: one summary (every metric a typed field) and optional traces.

use crate::aggregate::FlowAggregates;
use crate::capture::Capture;
use crate::tcp::state::SenderCounters;
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
    pub events_per_s: f64,
    pub sim_s_per_wall_s: f64,
    /// Data packets (TCP segments and UDP datagrams) that reached their receivers.
    pub packets_delivered: u64,
    /// Conservation (DESIGN.md): injected + duplicated = delivered (all packets) + the
    /// drops by cause + absorbed + held at the end.
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
    /// Goodput over all flows: count, mean, min, p5/p50/p95, Jain's index.
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

#[derive(Clone, Debug, Serialize)]
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
    /// Bytes and segments sent, retransmissions by cause, timeouts, recoveries.
    #[serde(flatten)]
    pub counters: SenderCounters,
    /// Time-weighted mean of cwnd without fast-recovery inflation (in recovery, the
    /// window it returns to; ns-3's CongestionWindow), in segments.
    pub cwnd_mean_segments: f64,
    /// Time-weighted mean of cwnd with fast-recovery inflation (ns-3's
    /// CongestionWindowInflated), in segments.
    pub cwnd_inflated_mean_segments: f64,
    /// Largest cwnd without fast-recovery inflation, in segments.
    pub cwnd_max_segments: f64,
    pub rtt_samples: u64,
    pub rtt_mean_s: Option<f64>,
    pub rtt_min_s: Option<f64>,
    pub rtt_max_s: Option<f64>,
    /// Retransmission timeout at the end of the run.
    pub rto_final_s: Option<f64>,
    /// Bytes the receiver got more than once.
    pub duplicate_bytes: u64,
    /// ECN (RFC 3168 §6.1.3): CE-marked data segments the receiver got, and ACKs it
    /// sent with ECE.
    pub ce_received: u64,
    pub ece_sent: u64,
    /// Syndrome receivers (Chen et al. 2002): data segments that carried a base-station
    /// counter (0 = the flow met no Syndrome base station and ran as plain TCP), credits
    /// given, and ACKs sent with ELN. Zero for other flows.
    pub syndrome_stamped_packets: u64,
    pub syndrome_credits: u64,
    pub syndrome_eln_acks: u64,
    /// EWLN (Shagdar §III): corrupted headers a MAC passed to the receiver (payload lost
    /// on the wireless hop), and ACKs it sent with EWLN.
    pub ewln_corrupt_received: u64,
    pub ewln_acks: u64,
    /// File transfers: from the start to the last byte delivered.
    pub completion_time_s: Option<f64>,
    /// FECTCP flows: the handshake, symbols, decoding and teardown (absent otherwise).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub fectcp: Option<crate::transport::fectcp::FectcpReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct LinkSummary {
    pub name: String,
    pub packets_offered: u64,
    pub queue_drops: u64,
    pub channel_losses: u64,
    /// Packets the channel let through (judged when their frame starts, so a frame on
    /// the air when the run ends counts).
    pub packets_delivered: u64,
    /// Bits that reached the far end per second of the run.
    pub throughput_bps: f64,
    /// channel_losses / packets sent on the channel.
    pub loss_rate: f64,
    /// Packets a retrying link layer gave up on (its residual failures).
    pub link_retry_drops: u64,
    /// Frames a segmenting link layer sent, retransmissions included (0 for the plain
    /// link, whose frames are its packets).
    pub link_transmissions: u64,
    /// Bytes a link layer put on the air beyond each packet's own bytes once: parity,
    /// link headers, retransmissions.
    pub link_overhead_bytes: u64,
    /// NAKs an ARQ link's far end sent (repeats of lost ones included), and how many of
    /// them were lost (0 for the plain link, and with the paper's error-free NAKs).
    pub link_naks_sent: u64,
    pub link_naks_lost: u64,
    /// Times an adaptive FEC link changed code between frames (0 for other links).
    pub link_code_changes: u64,
    /// Packets dropped because the link was or went down.
    pub link_down_drops: u64,
    /// Packets the pipeline delivered out of order, and copies it created.
    pub reordered: u64,
    pub duplicated: u64,
    /// Of queue_drops: RED's random early drops; drops because RED's average was past
    /// its ramp (max_th, or 2·max_th in gentle mode); and drops of a full queue.
    pub queue_early_drops: u64,
    pub queue_forced_drops: u64,
    pub queue_overflow_drops: u64,
    /// Packets RED marked CE instead of dropping.
    pub queue_marks: u64,
    /// RED's average queue (its EWMA), time-weighted over the run, in packets (in mean
    /// packet sizes in byte mode, the unit of min_th and max_th); null without RED.
    pub queue_avg_packets: Option<f64>,
    /// A WLAN pair's MAC counts (absent for point-to-point links).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub wlan: Option<WlanCounters>,
}

/// What an 802.11 pair (sender → receiver) counts beyond a link direction's columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WlanCounters {
    /// First frames (RTS, or data without RTS) of this pair lost in collisions.
    pub mac_collisions: u64,
    /// RTS, CTS and ACK frames the channel corrupted.
    pub mac_control_losses: u64,
    pub mac_rts_sent: u64,
    /// Retransmissions the receiver recognised by sequence number and did not pass up.
    pub mac_duplicates: u64,
    /// TCP segments still corrupted after the retry limit, passed up as headers with
    /// EWLN and CORRUPT set (Shagdar §III A).
    pub ewln_marked: u64,
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
