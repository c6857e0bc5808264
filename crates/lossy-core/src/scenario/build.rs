//! Checks a parsed scenario against itself (names, routes, ranges) and builds the
//! `World`. Every error names the field path, the value and what is allowed.

use super::Scenario;
use crate::agents::{eln::ElnAgent, AgentConfig, AnyAgent};
use crate::engine::{EventQueue, Timer};
use crate::error::{Error, Result};
use crate::net::{DropTail, LinkDir, Routes};
use crate::packet::NodeId;
use crate::rng::RngStream;
use crate::tcp::{TcpReceiver, TcpSender};
use crate::time::SimTime;
use crate::trace::TraceRecorder;
use crate::transport::udp::{CbrSource, UdpSink};
use crate::world::{AgentSlot, Endpoints, Flow, PacketCounters, TcpFlow, World};
use crate::apps::AppConfig;
use crate::agents::AgentOutput;

fn node_index(s: &Scenario, path: &str, name: &str) -> Result<NodeId> {
    s.nodes.iter().position(|n| n == name).map(|i| i as NodeId).ok_or_else(|| {
        Error::scenario(path, format!("\"{name}\" is not a node; nodes are {}", s.nodes.join(", ")))
    })
}

fn check_nodes(s: &Scenario) -> Result<()> {
    if s.nodes.len() < 2 {
        return Err(Error::scenario("nodes", format!("{} node(s) given; a network needs at least 2", s.nodes.len())));
    }
    if s.nodes.len() > NodeId::MAX as usize {
        return Err(Error::scenario("nodes", format!("{} nodes given; at most {}", s.nodes.len(), NodeId::MAX)));
    }
    for (i, n) in s.nodes.iter().enumerate() {
        if n.is_empty() {
            return Err(Error::scenario(format!("nodes[{i}]"), "an empty name is not allowed"));
        }
        if s.nodes[..i].contains(n) {
            return Err(Error::scenario(format!("nodes[{i}]"), format!("\"{n}\" is listed twice; node names must be unique")));
        }
    }
    if s.links.is_empty() {
        return Err(Error::scenario("links", "no links given; add at least one [[links]] table"));
    }
    if s.flows.is_empty() {
        return Err(Error::scenario("flows", "no flows given; add at least one [[flows]] table"));
    }
    if s.duration.0.as_nanos() == 0 {
        return Err(Error::scenario("duration", "0 s is not a run; use a positive duration such as \"100 s\""));
    }
    Ok(())
}

/// Builds the world for replication `replication` of master seed `seed`.
pub fn build_world(s: &Scenario, seed: u64, replication: u64) -> Result<World> {
    check_nodes(s)?;
    let mut dirs = Vec::with_capacity(2 * s.links.len());
    for (i, l) in s.links.iter().enumerate() {
        let a = node_index(s, &format!("links[{i}].between[0]"), &l.between[0])?;
        let b = node_index(s, &format!("links[{i}].between[1]"), &l.between[1])?;
        if a == b {
            return Err(Error::scenario(format!("links[{i}].between"), format!("\"{}\" is linked to itself; use two different nodes", l.between[0])));
        }
        for (field, loss) in [("loss", &l.loss), ("reverse_loss", &l.reverse_loss)] {
            loss.validate().map_err(|m| Error::nested(&format!("links[{i}].{field}"), m))?;
        }
        for (from, to, loss) in [(a, b, &l.loss), (b, a, &l.reverse_loss)] {
            let name = format!("{}->{}", s.nodes[from as usize], s.nodes[to as usize]);
            // DESIGN.md "Seeds": the stream name, not the scheme, picks the stream.
            let rng = RngStream::new(seed, replication, &format!("link:{name}:channel"));
            dirs.push(LinkDir::new(name, from, to, l.rate.0, l.delay.0, DropTail::new(l.queue), loss.build(), rng));
        }
    }
    let pairs: Vec<(NodeId, NodeId)> = dirs.iter().map(|d| (d.from, d.to)).collect();
    let routes = Routes::build(s.nodes.len(), &pairs);

    let mut flows = Vec::with_capacity(s.flows.len());
    for (i, fc) in s.flows.iter().enumerate() {
        let src = node_index(s, &format!("flows[{i}].from"), &fc.from)?;
        let dst = node_index(s, &format!("flows[{i}].to"), &fc.to)?;
        if src == dst {
            return Err(Error::scenario(format!("flows[{i}].to"), format!("\"{}\" is also the sender; a flow needs two different nodes", fc.to)));
        }
        for (a, b, field) in [(src, dst, "to"), (dst, src, "from")] {
            if routes.next_hop(a, b).is_none() {
                return Err(Error::scenario(
                    format!("flows[{i}].{field}"),
                    format!("no route from \"{}\" to \"{}\"; connect them with links", s.nodes[a as usize], s.nodes[b as usize]),
                ));
            }
        }
        fc.app.validate().map_err(|m| Error::nested(&format!("flows[{i}].app"), m))?;
        let name = fc.name.clone().unwrap_or_else(|| format!("flow{i}"));
        let endpoints = if fc.app.is_tcp() {
            fc.tcp.validate().map_err(|m| Error::nested(&format!("flows[{i}].tcp"), m))?;
            let t = &fc.tcp;
            Endpoints::Tcp(Box::new(TcpFlow {
                sender: TcpSender::new(t, i as u32, src, dst, fc.app.tcp_bytes()),
                receiver: TcpReceiver::new(i as u32, dst, src, t.mss.0 as u32, t.ack_size.0 as u32, t.max_window.0 as u32, t.delayed_ack.map(|d| d.0)),
                snd_timer: Timer::default(),
                rcv_timer: Timer::default(),
            }))
        } else {
            let AppConfig::Cbr { rate, packet_size, header, packets } = &fc.app else { unreachable!() };
            Endpoints::Udp {
                source: CbrSource::new(i as u32, src, dst, rate.0, packet_size.0 as u32, header.0 as u32, *packets),
                sink: UdpSink::default(),
            }
        };
        let total_bytes = match &fc.app {
            AppConfig::Bulk => None,
            AppConfig::File { size } => Some(size.0),
            AppConfig::Cbr { packet_size, packets, .. } => packets.map(|n| n * packet_size.0),
        };
        flows.push(Flow { name, src, dst, start: SimTime::ZERO + fc.start.0, total_bytes, finished_at: None, endpoints, sampled_bytes: 0 });
    }

    let mut node_agent = vec![None; s.nodes.len()];
    let mut agents = Vec::with_capacity(s.agents.len());
    for (i, ac) in s.agents.iter().enumerate() {
        let node = node_index(s, &format!("agents[{i}].node"), ac.node())?;
        if node_agent[node as usize].is_some() {
            return Err(Error::scenario(format!("agents[{i}].node"), format!("\"{}\" already has an agent; one agent per node", ac.node())));
        }
        let agent = match ac {
            AgentConfig::Eln { wireless_neighbor, .. } => {
                let w = node_index(s, &format!("agents[{i}].wireless_neighbor"), wireless_neighbor)?;
                if !pairs.contains(&(node, w)) {
                    return Err(Error::scenario(
                        format!("agents[{i}].wireless_neighbor"),
                        format!("\"{wireless_neighbor}\" is not linked to \"{}\"; name a neighbour of the agent's node", ac.node()),
                    ));
                }
                AnyAgent::Eln(ElnAgent::new(w, flows.len()))
            }
        };
        node_agent[node as usize] = Some(i as u32);
        agents.push(AgentSlot { agent, node, timer: Timer::default(), state_max: 0, state_sum: 0.0, packets_seen: 0 });
    }

    let unfinished = flows.iter().filter(|f| f.total_bytes.is_some()).count();
    let sample_interval = s.traces.throughput_interval.0;
    if s.traces.throughput && sample_interval.as_nanos() == 0 {
        return Err(Error::scenario("traces.throughput_interval", "0 s is not an interval; use e.g. \"100 ms\""));
    }
    Ok(World {
        now: SimTime::ZERO,
        queue: EventQueue::new(),
        node_names: s.nodes.clone(),
        node_agent,
        dirs,
        routes,
        all_finite: unfinished == flows.len(),
        flows,
        agents,
        agent_out: AgentOutput::default(),
        stop_at: SimTime::ZERO + s.duration.0,
        next_uid: 0,
        counters: PacketCounters::default(),
        traces: TraceRecorder::new(&s.traces),
        sample_interval,
        unfinished,
    })
}
