//! The world's tables: what it keeps per flow, endpoint, segment, port and agent, and
//! the scheduled changes of the network. Plain data, filled by `scenario::build`.

use crate::agents::AnyAgent;
use crate::engine::{Timer, KeyedTimer};
use crate::net::routing::PortId;
use crate::net::AnySegment;
use crate::packet::NodeId;
use crate::time::SimTime;
use crate::transport::one_way_delay::OneWayDelay;
use crate::transport::AnyEndpoint;

/// One flow; its sender is endpoint `2·f`, its receiver `2·f + 1`.
pub(crate) struct Flow {
    pub name: String,
    /// Index of its flow group, if it came from one.
    pub group: Option<u32>,
    /// Labels for reports only, never branched on (what the builder needs to know of a
    /// transport it asks its `TransportSpec`): the transport's, its variant's and the
    /// application's names.
    pub transport: &'static str,
    pub variant: &'static str,
    pub app: &'static str,
    pub src: NodeId,
    pub dst: NodeId,
    pub start: SimTime,
    /// Bytes the application delivers in all; `None` = runs until the end.
    pub total_bytes: Option<u64>,
    pub finished_at: Option<SimTime>,
    pub sampled_bytes: u64,
    /// Its delivered data packets' one-way delays, recorded by the world.
    pub owd: OneWayDelay,
}

pub(crate) struct EndpointSlot {
    pub ep: AnyEndpoint,
    pub node: NodeId,
    pub timer: Timer,
}

pub(crate) struct SegmentSlot {
    pub seg: AnySegment,
    pub timer: KeyedTimer,
    /// Its ports are `first_port ..` in the world's port table, in the segment's order.
    pub first_port: PortId,
}

/// Where port `p` leads: a segment and the port's index in it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Port {
    pub segment: u32,
    pub iface: u32,
}

pub(crate) struct AgentSlot {
    pub agent: AnyAgent,
    pub node: NodeId,
    pub timer: Timer,
    pub state_max: u64,
    pub state_sum: f64,
    pub packets_seen: u64,
}

/// A scheduled change: at `at`, `node`'s attachment to `segment` goes up or down.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NetChange {
    pub at: SimTime,
    pub segment: u32,
    pub node: NodeId,
    pub up: bool,
}
