//! Base-station agents: middleboxes that watch (and may change, absorb or emit) the
//! packets crossing one node. ELN is the first; Snoop and the Syndrome counter use the
//! same seam. The engine calls an agent for every transit packet at its node; an agent
//! never sees the clock or the queue except through these calls.

pub mod eln;

use crate::packet::{NodeId, Packet};
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the node does with a packet after the agent has seen it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Forward,
    /// The agent consumed it (e.g. Snoop suppressing a duplicate ACK).
    Absorb,
}

/// Packets an agent wants the node to send, each toward a neighbour.
#[derive(Default)]
pub struct AgentOutput {
    pub packets: Vec<(Packet, NodeId)>,
}

pub trait Agent {
    /// `pkt` crosses the agent's node from neighbour `from` toward neighbour `to`.
    fn on_forward(&mut self, now: SimTime, pkt: &mut Packet, from: NodeId, to: NodeId, out: &mut AgentOutput) -> Verdict;
    /// The output queue toward `to` dropped `pkt` after `on_forward` let it pass.
    fn on_queue_drop(&mut self, _now: SimTime, _pkt: &Packet, _to: NodeId) {}
    fn next_timeout(&self) -> Option<SimTime> {
        None
    }
    fn handle_timeout(&mut self, _now: SimTime, _out: &mut AgentOutput) {}
    /// Bytes of per-connection state the agent holds now (a cost the papers compare).
    fn state_bytes(&self) -> u64;
    /// Agent-specific counters for the run summary.
    fn counters(&self) -> Vec<(&'static str, u64)>;
}

/// Agents a scenario can place on a node.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AgentConfig {
    /// ELN at a base station (Balakrishnan and Katz's ELN-based Snoop, Chen §2.2): no
    /// packets buffered; holes in the sequence space seen arriving are congestion
    /// losses; duplicate ACKs from the wireless side for segments it did forward get ELN.
    Eln {
        /// The node the agent runs on (the base station).
        node: String,
        /// The neighbour across the wireless hop (the mobile host side).
        wireless_neighbor: String,
    },
}

impl AgentConfig {
    pub fn node(&self) -> &str {
        match self {
            AgentConfig::Eln { node, .. } => node,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self {
            AgentConfig::Eln { .. } => "eln",
        }
    }
}

/// The built-in agents (closed enum: no boxing on the per-packet path).
pub enum AnyAgent {
    Eln(eln::ElnAgent),
}

impl Agent for AnyAgent {
    fn on_forward(&mut self, now: SimTime, pkt: &mut Packet, from: NodeId, to: NodeId, out: &mut AgentOutput) -> Verdict {
        match self {
            AnyAgent::Eln(a) => a.on_forward(now, pkt, from, to, out),
        }
    }
    fn on_queue_drop(&mut self, now: SimTime, pkt: &Packet, to: NodeId) {
        match self {
            AnyAgent::Eln(a) => a.on_queue_drop(now, pkt, to),
        }
    }
    fn next_timeout(&self) -> Option<SimTime> {
        match self {
            AnyAgent::Eln(a) => a.next_timeout(),
        }
    }
    fn handle_timeout(&mut self, now: SimTime, out: &mut AgentOutput) {
        match self {
            AnyAgent::Eln(a) => a.handle_timeout(now, out),
        }
    }
    fn state_bytes(&self) -> u64 {
        match self {
            AnyAgent::Eln(a) => a.state_bytes(),
        }
    }
    fn counters(&self) -> Vec<(&'static str, u64)> {
        match self {
            AnyAgent::Eln(a) => a.counters(),
        }
    }
}
