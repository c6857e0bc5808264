//! The scenario's agents: what their configs build from ([`BuildCtx`]) and the chains
//! they form per node. Each agent checks its own fields in its own file
//! ([`AgentSpec`](crate::agents::AgentSpec)); nothing here names an agent.

use super::build::lookup;
use super::Scenario;
use crate::engine::Timer;
use crate::error::{Error, Result};
use crate::packet::NodeId;
use crate::world::AgentSlot;
use std::collections::{HashMap, HashSet};

/// What an agent's config needs from the scenario to build its agent.
pub struct BuildCtx<'a> {
    s: &'a Scenario,
    names: &'a HashMap<&'a str, NodeId>,
    /// Every pair of neighbours as (smaller id, larger id), built once: "is linked to"
    /// costs one look-up, not a scan of every link (10,000 hosts: 10^8 comparisons).
    linked: HashSet<(NodeId, NodeId)>,
    n_flows: usize,
}

impl<'a> BuildCtx<'a> {
    pub(super) fn new(s: &'a Scenario, names: &'a HashMap<&'a str, NodeId>, neighbours: &[(NodeId, NodeId)], n_flows: usize) -> Self {
        let linked = neighbours.iter().map(|&(a, b)| (a.min(b), a.max(b))).collect();
        BuildCtx { s, names, linked, n_flows }
    }

    pub fn n_nodes(&self) -> usize {
        self.s.nodes.len()
    }

    pub fn n_flows(&self) -> usize {
        self.n_flows
    }

    /// The id of node `name`, or an error at `path` listing the nodes.
    pub fn node(&self, path: &str, name: &str) -> Result<NodeId> {
        lookup(self.names, path, name, self.s)
    }

    /// Agent `index`'s wireless neighbours: given in `wireless_neighbor` (`one`) or
    /// `wireless_neighbors` (`many`), not both, each a node linked to the agent's `node`.
    pub fn wireless(&self, index: usize, node: NodeId, one: &Option<String>, many: &[String]) -> Result<Vec<NodeId>> {
        let i = index;
        let given: Vec<(String, &String)> = match (one, many.is_empty()) {
            (Some(w), true) => vec![(format!("agents.{i}.wireless_neighbor"), w)],
            (None, false) => many.iter().enumerate().map(|(k, w)| (format!("agents.{i}.wireless_neighbors.{k}"), w)).collect(),
            (Some(_), false) => return Err(Error::scenario(format!("agents.{i}.wireless_neighbors"), "give wireless_neighbor or wireless_neighbors, not both")),
            (None, true) => return Err(Error::scenario(format!("agents.{i}.wireless_neighbor"), "missing; name the neighbour across the wireless hop")),
        };
        let mut wireless = Vec::with_capacity(given.len());
        for (path, w) in given {
            let id = self.node(&path, w)?;
            if !self.linked.contains(&(node.min(id), node.max(id))) {
                return Err(Error::scenario(path, format!("\"{w}\" is not linked to \"{}\"; name a neighbour of the agent's node", self.s.nodes[node as usize])));
            }
            wireless.push(id);
        }
        Ok(wireless)
    }

    /// As [`wireless`](Self::wireless), but naming none is allowed: an empty list, for
    /// an agent that then treats every neighbour alike.
    pub fn wireless_if_named(&self, index: usize, node: NodeId, one: &Option<String>, many: &[String]) -> Result<Vec<NodeId>> {
        if one.is_none() && many.is_empty() {
            return Ok(Vec::new());
        }
        self.wireless(index, node, one, many)
    }
}

/// The agents in chain order per node: (agents, chain_start, chain). `neighbours` are
/// the node pairs a link or a WLAN joins.
pub(super) fn build_agents(s: &Scenario, names: &HashMap<&str, NodeId>, neighbours: &[(NodeId, NodeId)], n_flows: usize) -> Result<(Vec<AgentSlot>, Vec<u32>, Vec<u32>)> {
    let ctx = BuildCtx::new(s, names, neighbours, n_flows);
    let mut agents = Vec::with_capacity(s.agents.len());
    for (i, ac) in s.agents.iter().enumerate() {
        let node = ctx.node(&format!("agents.{i}.node"), ac.node())?;
        let agent = ac.build(i, node, &ctx)?;
        agents.push(AgentSlot { agent, node, timer: Timer::default(), state_max: 0, state_sum: 0.0, packets_seen: 0 });
    }
    // Chains: agents grouped by node, in scenario order within a node.
    let mut order: Vec<u32> = (0..agents.len() as u32).collect();
    order.sort_by_key(|&a| agents[a as usize].node);
    let mut chain_start = vec![0u32; s.nodes.len() + 1];
    for a in &agents {
        chain_start[a.node as usize + 1] += 1;
    }
    for n in 0..s.nodes.len() {
        chain_start[n + 1] += chain_start[n];
    }
    Ok((agents, chain_start, order))
}
