//! The scenario: plain serde structs with documented defaults
//! (docs/architecture.md#config), parsed with field paths for errors, checked, then built
//! into a `World`.

mod actions;
mod agents;
mod bare_numbers;
mod build;
mod checks;
mod field_schema;
mod flows;
mod groups;
mod limits;
mod markov_fit;
mod messages;
mod parse;
mod wlan;

pub use actions::ActionConfig;
pub use bare_numbers::bare_number_warnings;
pub use groups::{FlowGroupConfig, StartConfig};
pub use build::{build_world, build_world_fitting, build_world_unfitted, Fits, PendingFits, Unfitted};
pub use parse::{parse_json, schema_json};

use crate::agents::AgentConfig;
use crate::apps::AppConfig;
use crate::capacity::{AnyCapacity, CapacityConfig, CapacitySpec, ConstantRate};
use crate::capture::CaptureConfig;
use crate::channel::LossConfig;
use crate::link::config::LinkLayerConfig;
use crate::net::pipeline::ImpairConfig;
use crate::net::queue::QueueConfig;
use crate::net::wlan::WlanConfig;
use crate::tcp::TcpConfig;
use crate::trace::TraceConfig;
use crate::transport::fectcp::FectcpConfig;
pub use crate::transport::Transport;
use crate::units::{Duration, QueueLimit, Rate};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A whole simulation: nodes, full-duplex links between them, flows and agents.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// A label carried into results.
    #[serde(default)]
    pub name: String,
    /// Free text for people; ignored by the simulator.
    #[serde(default)]
    pub description: String,
    /// Simulated time to run; the run also stops once every application has finished.
    #[serde(default = "default_duration")]
    pub duration: Duration,
    /// Node names; links, flows and agents refer to nodes by name.
    pub nodes: Vec<String>,
    /// Full-duplex links between nodes; routes follow them (fewest hops).
    #[serde(default)]
    pub links: Vec<LinkConfig>,
    /// 802.11b WLANs: stations sharing one medium under DCF; every ordered pair of
    /// stations is a hop for routes, as a link direction is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wlans: Vec<WlanConfig>,
    /// Transfers, one table each.
    #[serde(default)]
    pub flows: Vec<FlowConfig>,
    /// Many flows declared at once (their flows come after `flows`, named `<group>.<i>`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flow_groups: Vec<FlowGroupConfig>,
    /// Agents on nodes (ELN at a base station), in chain order per node.
    #[serde(default)]
    pub agents: Vec<AgentConfig>,
    /// Changes of the network at given times: links going down or up, hand-offs.
    #[serde(default)]
    pub actions: Vec<ActionConfig>,
    /// Time series to record (off by default).
    #[serde(default)]
    pub traces: TraceConfig,
    /// Link directions whose packets are captured as pcap files (off by default).
    #[serde(default, skip_serializing_if = "CaptureConfig::is_empty")]
    pub capture: CaptureConfig,
}

fn default_duration() -> Duration {
    Duration::from_secs(100)
}

/// A full-duplex point-to-point link: the same delay and queue limit in both directions;
/// rate (or a capacity table) and loss set per direction.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkConfig {
    /// The two end nodes; "forward" is from the first to the second.
    pub between: [String; 2],
    /// Bit rate of each direction that has no capacity table (required then; refused
    /// when both directions have one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<Rate>,
    /// The forward direction's capacity (first → second node), instead of `rate`: `{ kind
    /// = "mahimahi", file, once }` (a Mahimahi trace), `{ kind = "rate_schedule", file,
    /// interval, once }` or `{ kind = "constant", rate }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<CapacityConfig>,
    /// The reverse direction's capacity (second → first node), instead of `rate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_capacity: Option<CapacityConfig>,
    /// Propagation delay, one way.
    pub delay: Duration,
    /// Each direction's output queue: a DropTail limit (ns-3's point-to-point default:
    /// 100 packets) or a queue discipline table with a `kind`.
    #[serde(default = "default_queue")]
    pub queue: QueueConfig,
    /// Loss process on the forward direction (first → second node).
    #[serde(default)]
    pub loss: LossConfig,
    /// Loss process on the reverse direction (second → first node).
    #[serde(default)]
    pub reverse_loss: LossConfig,
    /// Reordering and duplication on the forward direction (Chen §6), each from the
    /// direction's own random stream.
    #[serde(default)]
    pub impair: ImpairConfig,
    /// Reordering and duplication on the reverse direction.
    #[serde(default)]
    pub reverse_impair: ImpairConfig,
    /// How the forward direction carries packets: `{ kind = "plain" }` (the default,
    /// one frame per packet) or `{ kind = "arq", payload, attempts }` (segmentation with
    /// selective-repeat ARQ, Chockalingam et al.).
    #[serde(default, skip_serializing_if = "LinkLayerConfig::is_plain")]
    pub link_layer: LinkLayerConfig,
    /// How the reverse direction carries packets.
    #[serde(default, skip_serializing_if = "LinkLayerConfig::is_plain")]
    pub reverse_link_layer: LinkLayerConfig,
    /// Whether the link is up at the start (a mobile host's link to the base station it
    /// hands over to starts down).
    #[serde(default = "default_up")]
    pub up: bool,
}

impl LinkConfig {
    /// Direction `dir`'s capacity (`capacity/`; 0 forward, 1 reverse): its table, or a
    /// constant `rate`; each direction builds its own (a trace has state). Errors are
    /// `field: message` under `links.<i>` (`capacity.file: ...`, `rate: ...`).
    pub fn capacity(&self, dir: usize) -> Result<AnyCapacity, String> {
        let (field, table) = if dir == 0 { ("capacity", &self.capacity) } else { ("reverse_capacity", &self.reverse_capacity) };
        if self.capacity.is_some() && self.reverse_capacity.is_some() {
            if let Some(r) = self.rate {
                return Err(format!("rate: {} is not used: both directions have a capacity table; remove it", format!("\"{} bps\"", r.0)));
            }
        }
        match (table, self.rate) {
            (Some(t), _) => {
                t.validate().map_err(|m| format!("{field}.{m}"))?;
                Ok(t.build())
            }
            (None, Some(r)) => Ok(ConstantRate::new(r.0).into()),
            (None, None) => Err(format!("rate: missing: the {} direction has no `{field}` table; give rate = \"10 Mbps\" or a `{field}` table", ["forward", "reverse"][dir])),
        }
    }
}

fn default_queue() -> QueueConfig {
    QueueConfig::drop_tail(QueueLimit::Packets(100))
}

fn default_up() -> bool {
    true
}

/// One transfer from a sender node to a receiver node.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowConfig {
    /// A label; defaults to "flow<index>".
    #[serde(default)]
    pub name: Option<String>,
    /// The sender's node.
    pub from: String,
    /// The receiver's node.
    pub to: String,
    /// When the application starts.
    #[serde(default)]
    pub start: Duration,
    /// What the flow carries: bulk (the default), file or cbr.
    #[serde(default)]
    pub app: AppConfig,
    /// TCP options (ignored for UDP applications); `mss`, `header` and `ack_size` also
    /// size FECTCP's segments.
    #[serde(default)]
    pub tcp: TcpConfig,
    /// What carries a file or bulk transfer: "tcp" (the default) or "fectcp" (Botoș: the
    /// file sent as rateless-code symbols, `app.kind = "file"` only). CBR rides on UDP.
    #[serde(default, skip_serializing_if = "Transport::is_tcp")]
    pub transport: Transport,
    /// FECTCP options (with `transport = "fectcp"`; defaults when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fectcp: Option<FectcpConfig>,
}

/// Seconds as error messages show them: one correctly rounded division is exact for a
/// decimal count of nanoseconds ("7.5"), where `as_secs_f64` multiplies and may show
/// 7.500000000000001.
pub(crate) fn secs(ns: u64) -> f64 {
    ns as f64 / 1e9
}
