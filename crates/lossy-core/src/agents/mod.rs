//! Base-station agents: middleboxes that watch (and may change, absorb or emit) the
//! packets crossing one node. ELN is the first; Snoop and the Syndrome counter use the
//! same seam. A node's agents form an ordered chain: the world hands every transit packet
//! to each in scenario order until one absorbs it. An agent never sees the clock or the
//! queue except through these calls.
//!
//! Each agent's file also holds its scenario table (`ElnConfig`, `SnoopConfig` in
//! `snoop_config.rs`, `SyndromeConfig`), which checks its fields and builds the agent
//! ([`AgentSpec`]); so a new agent is its file and one line in the `family!` list below
//! (which makes both [`AgentConfig`] and [`AnyAgent`]), and the scenario builder names none.

mod uplink_eln;

use crate::closed::family;
use crate::error::Result;
use crate::packet::{NodeId, Packet};
use crate::build_ctx::BuildCtx;
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

/// Packets an agent wants its node to send (routed from the node like any other).
#[derive(Default)]
pub struct AgentOutput {
    pub packets: Vec<Packet>,
}

pub trait Agent {
    /// `pkt` crosses the agent's node from neighbour `from` toward neighbour `to`.
    fn on_forward(&mut self, now: SimTime, pkt: &mut Packet, from: NodeId, to: NodeId, out: &mut AgentOutput) -> Verdict;
    /// The output queue toward `to` dropped `pkt` after the node's agents let it pass.
    fn on_queue_drop(&mut self, _now: SimTime, _pkt: &Packet, _to: NodeId) {}
    /// The link between the agent's node and `neighbor` went down or came up (a
    /// hand-off, a failure); routes have been rebuilt already.
    fn on_link_change(&mut self, _now: SimTime, _neighbor: NodeId, _up: bool, _out: &mut AgentOutput) {}
    /// Called after every packet the agent sees: must be O(1).
    fn next_timeout(&self) -> Option<SimTime> {
        None
    }
    fn handle_timeout(&mut self, _now: SimTime, _out: &mut AgentOutput) {}
    /// Bytes of per-connection state the agent holds now (a cost the papers compare);
    /// called after every packet the agent sees: must be O(1).
    fn state_bytes(&self) -> u64;
    /// Agent-specific counters for the run summary.
    fn counters(&self) -> Vec<(&'static str, u64)>;
}

/// What every agent's config table does; [`AgentConfig`] dispatches to it, so a new
/// agent implements it in its own file and adds one line to [`AgentConfig`] (and one to
/// [`AnyAgent`]).
pub trait AgentSpec {
    /// The name of the node the agent runs on.
    fn node(&self) -> &str;
    /// The agent's `kind` as a scenario writes it.
    fn kind(&self) -> &'static str;
    /// Checks the fields and builds agent `index` of the scenario, on node `node` (the
    /// id of [`node`](Self::node)); errors name the field path `agents.<index>.<field>`.
    fn build(&self, index: usize, node: NodeId, ctx: &BuildCtx) -> Result<AnyAgent>;
}

// One line per agent (`closed::family!`): its module, its runtime type and its table.
// The doc comments are the schema's descriptions (`lossy schema`).
family! {
    runtime {
        /// The built-in agents (closed enum: no boxing on the per-packet path).
        pub enum AnyAgent via each_agent;
        impl Agent {
            fn on_forward(&mut self, now: SimTime, pkt: &mut Packet, from: NodeId, to: NodeId, out: &mut AgentOutput) -> Verdict;
            fn on_queue_drop(&mut self, now: SimTime, pkt: &Packet, to: NodeId);
            fn on_link_change(&mut self, now: SimTime, neighbor: NodeId, up: bool, out: &mut AgentOutput);
            fn next_timeout(&self) -> Option<SimTime>;
            fn handle_timeout(&mut self, now: SimTime, out: &mut AgentOutput);
            fn state_bytes(&self) -> u64;
            fn counters(&self) -> Vec<(&'static str, u64)>;
        }
    }
    config {
        /// Agents a scenario can place on a node.
        #[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
        #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
        pub enum AgentConfig via each_agent_config;
        impl AgentSpec {
            fn node(&self) -> &str;
            fn kind(&self) -> &'static str;
            fn build(&self, index: usize, node: NodeId, ctx: &BuildCtx) -> Result<AnyAgent>;
        }
    }
    schemes {
        /// ELN at a base station (Balakrishnan and Katz's ELN-based Snoop, Chen §2.2): no
        /// packets buffered; holes in the sequence space seen arriving are congestion
        /// losses; duplicate ACKs from the wireless side for segments it did forward get ELN.
        eln::Eln(ElnAgent, ElnConfig),
        /// Snoop at a base station (Balakrishnan, Seshan and Katz 1995; ns-2's `tcp/snoop.cc`;
        /// Chen §2.2): caches the segments it forwards toward the mobile host, resends one
        /// locally on the first duplicate ACK for it or on its own timer, and absorbs the
        /// duplicate ACKs it expects for what it resent; ACKs toward mobile senders get ELN
        /// when they ask for a segment that never arrived from them (ns-2). With `eln = true`, Snoop+ELN
        /// (Miyoshi §3): the duplicate ACKs it lets through get ELN as the `eln` agent sets it.
        snoop::Snoop(SnoopAgent, SnoopConfig),
        /// The Syndrome counter at a base station (Chen et al. 2002, Fig. 1 lines 1–5): per
        /// connection, the number of data packets relayed, stamped on each with the
        /// counter's epoch (a new one after a hand-off). Receivers with `tcp.syndrome` read it.
        syndrome::Syndrome(SyndromeAgent, SyndromeConfig),
    }
}
