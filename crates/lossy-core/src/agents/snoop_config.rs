//! The `snoop` agent's scenario table and the options it sets up a [`SnoopAgent`] with
//! (kept apart from `snoop.rs`, the agent itself).

use super::{SnoopAgent, DEFAULT_CACHE_PACKETS};
use crate::agents::{AgentSpec, AnyAgent};
use crate::error::{Error, Result};
use crate::packet::NodeId;
use crate::build_ctx::BuildCtx;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "snoop"`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnoopConfig {
    /// The node the agent runs on (the base station).
    pub node: String,
    /// The neighbour across the wireless hop (the mobile host side).
    #[serde(default)]
    pub wireless_neighbor: Option<String>,
    /// Several wireless neighbours (mobile hosts of one base station); give this or
    /// `wireless_neighbor`, not both.
    #[serde(default)]
    pub wireless_neighbors: Vec<String>,
    /// Snoop+ELN: also set ELN on the duplicate ACKs Snoop lets through, for segments
    /// lost on the wireless hop (Miyoshi §3).
    #[serde(default)]
    pub eln: bool,
    /// Segments cached per connection; when full, new segments pass uncached (ns-2's
    /// default `maxbufs_` = 0, i.e. `SNOOP_MAXWIND` = 100 packets).
    #[serde(default = "default_cache_packets")]
    pub cache_packets: u32,
    /// The duplicate ACK that triggers the local retransmission: 1, the first (as
    /// Balakrishnan et al. and Chen describe Snoop), or 2, the second (ns-2's
    /// `snoop.cc`, which lets the first through); at most 3, since the sender
    /// retransmits itself on the third it sees.
    #[serde(default = "default_local_retransmit_dupacks")]
    pub local_retransmit_dupacks: u32,
}

fn default_cache_packets() -> u32 {
    DEFAULT_CACHE_PACKETS
}

fn default_local_retransmit_dupacks() -> u32 {
    SnoopOptions::default().local_retransmit_dupacks
}

impl AgentSpec for SnoopConfig {
    fn node(&self) -> &str {
        &self.node
    }
    fn kind(&self) -> &'static str {
        "snoop"
    }
    fn build(&self, index: usize, node: NodeId, ctx: &BuildCtx) -> Result<AnyAgent> {
        let i = index;
        let wireless = ctx.wireless(i, node, &self.wireless_neighbor, &self.wireless_neighbors)?;
        if self.cache_packets == 0 {
            return Err(Error::scenario(format!("agents.{i}.cache_packets"), "0 caches nothing; use at least 1"));
        }
        let dupacks = self.local_retransmit_dupacks;
        if !(1..=3).contains(&dupacks) {
            return Err(Error::scenario(
                format!("agents.{i}.local_retransmit_dupacks"),
                format!("{dupacks} is not allowed; use 1 (the first duplicate ACK), 2 (ns-2's Snoop) or 3"),
            ));
        }
        let o = SnoopOptions { cache_packets: self.cache_packets, eln: self.eln, local_retransmit_dupacks: dupacks };
        Ok(SnoopAgent::new(&wireless, ctx.n_nodes(), ctx.n_flows(), o).into())
    }
}

/// How a Snoop agent is set up (the scenario's `snoop` agent fields).
#[derive(Clone, Copy, Debug)]
pub struct SnoopOptions {
    /// Segments cached per connection.
    pub cache_packets: u32,
    /// Snoop+ELN: ELN on the duplicate ACKs it lets through.
    pub eln: bool,
    /// The duplicate ACK (1st, 2nd, ...) that triggers the local retransmission.
    pub local_retransmit_dupacks: u32,
}

impl Default for SnoopOptions {
    fn default() -> Self {
        SnoopOptions { cache_packets: DEFAULT_CACHE_PACKETS, eln: false, local_retransmit_dupacks: 1 }
    }
}
