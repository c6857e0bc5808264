//! The scenario's agents and the chains they form per node; what their configs build
//! from is [`BuildCtx`]. Each agent checks its own fields in its own file
//! ([`AgentSpec`](crate::agents::AgentSpec)); nothing here names an agent.

use super::Scenario;
use crate::agents::AgentSpec;
use crate::build_ctx::BuildCtx;
use crate::engine::Timer;
use crate::error::Result;
use crate::packet::NodeId;
use crate::world::AgentSlot;
use std::collections::HashMap;

/// The agents in chain order per node: (agents, chain_start, chain), and the warnings
/// their configs gave. `neighbours` are the node pairs a link or a WLAN joins,
/// `wireless` those across a lossy hop.
pub(super) fn build_agents(
    s: &Scenario,
    names: &HashMap<&str, NodeId>,
    neighbours: &[(NodeId, NodeId)],
    wireless: &[(NodeId, NodeId)],
    n_flows: usize,
) -> Result<(Vec<AgentSlot>, Vec<u32>, Vec<u32>, Vec<String>)> {
    let ctx = BuildCtx::new(&s.nodes, names, neighbours, n_flows).with_wireless(wireless);
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
    Ok((agents, chain_start, order, ctx.take_warnings()))
}
