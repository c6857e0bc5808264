//! Checks a parsed scenario against itself (names, routes, ranges) and builds the
//! `World`. Every error names the field path, the value and what is allowed.

use super::actions::{self, Names};
use super::agents::build_agents;
use super::flows::{self, FlowSpec, Origin};
use super::markov_fit::fitted_chain;
use super::{LinkConfig, Scenario, Transport};
use crate::agents::AgentOutput;
use crate::apps::AppConfig;
use crate::capacity::Capacity;
use crate::channel::LossConfig;
use crate::engine::{EventQueue, Timer, WakeTimer};
use crate::error::{Error, Result};
use crate::link::config::{LinkLayerConfig, LinkLayerSpec};
use crate::net::p2p::{DirCounters, Direction};
use crate::net::pipeline::Pipeline;
use crate::net::routing::Hop;
use crate::net::queue::QueueDiscSpec;
use crate::net::{NetOut, PointToPoint, Routes};
use crate::packet::NodeId;
use crate::rng::RngStream;
use crate::tcp::inference::LossInference;
use crate::tcp::{TcpReceiver, TcpSender};
use crate::time::SimTime;
use crate::trace::TraceRecorder;
use crate::transport::udp::{CbrSource, UdpSink};
use crate::transport::{AnyEndpoint, Endpoint};
use crate::world::{AgentSlot, EndpointSlot, Flow, NetChange, Port, SegmentSlot, World};
use std::collections::{HashMap, HashSet};

/// IPv4's total length is 16 bits: no packet on the wire is larger.
const MAX_PACKET: u64 = 65_535;

/// The id of node `name`, or an error at `path` listing the nodes.
pub(super) fn lookup(nodes: &HashMap<&str, NodeId>, path: &str, name: &str, s: &Scenario) -> Result<NodeId> {
    nodes.get(name).copied().ok_or_else(|| {
        let list = if s.nodes.len() <= 12 { s.nodes.join(", ") } else { format!("{}, ... ({} in all)", s.nodes[..12].join(", "), s.nodes.len()) };
        Error::scenario(path, format!("\"{name}\" is not a node; nodes are {list}"))
    })
}

fn check_nodes(s: &Scenario) -> Result<HashMap<&str, NodeId>> {
    if s.nodes.len() < 2 {
        return Err(Error::scenario("nodes", format!("{} node(s) given; a network needs at least 2", s.nodes.len())));
    }
    if s.nodes.len() > NodeId::MAX as usize {
        return Err(Error::scenario("nodes", format!("{} nodes given; at most {}", s.nodes.len(), NodeId::MAX)));
    }
    let mut names = HashMap::with_capacity(s.nodes.len());
    for (i, n) in s.nodes.iter().enumerate() {
        if n.is_empty() {
            return Err(Error::scenario(format!("nodes.{i}"), "an empty name is not allowed"));
        }
        if names.insert(n.as_str(), i as NodeId).is_some() {
            return Err(Error::scenario(format!("nodes.{i}"), format!("\"{n}\" is listed twice; node names must be unique")));
        }
    }
    if s.links.is_empty() && s.wlans.is_empty() {
        return Err(Error::scenario("links", "no links given; add at least one [[links]] (or [[wlans]]) table"));
    }
    if s.duration.0.as_nanos() == 0 {
        return Err(Error::scenario("duration", "0 s is not a run; use a positive duration such as \"100 s\""));
    }
    Ok(names)
}

/// One point-to-point segment per link; `streams` seeds each direction's channel and
/// impairments from its own named stream (DESIGN.md "Seeds").
/// `largest_segment` is the biggest TCP packet the flows send (what a plain link's
/// `markov_fit` is fitted for).
fn build_link(s: &Scenario, i: usize, l: &LinkConfig, ends: (NodeId, NodeId), streams: &dyn Fn(&str) -> RngStream, capture: &HashSet<&str>, largest_segment: u64) -> Result<PointToPoint> {
    for (field, loss) in [("loss", &l.loss), ("reverse_loss", &l.reverse_loss)] {
        loss.validate().map_err(|m| Error::nested(&format!("links.{i}.{field}"), m))?;
    }
    for (field, imp) in [("impair", &l.impair), ("reverse_impair", &l.reverse_impair)] {
        imp.validate().map_err(|m| Error::nested(&format!("links.{i}.{field}"), m))?;
    }
    for (field, ll, loss) in [("link_layer", &l.link_layer, &l.loss), ("reverse_link_layer", &l.reverse_link_layer, &l.reverse_loss)] {
        ll.validate().map_err(|m| Error::nested(&format!("links.{i}.{field}"), m))?;
        if ll.is_adaptive() && !loss.makes_bit_errors() {
            let message = if matches!(loss, LossConfig::Rayleigh(_)) {
                "\"adaptive_fec\" needs bit errors to correct, but markov_fit replaces the fading by a chain that loses whole packets; drop markov_fit".to_string()
            } else {
                format!(
                    "\"adaptive_fec\" needs bit errors to correct, but the loss model \"{}\" loses whole packets; use model = \"ber\", \"gilbert\" or \"rayleigh\"",
                    loss.model_name()
                )
            };
            return Err(Error::scenario(format!("links.{i}.{field}.kind"), message));
        }
    }
    let queue_err = |m| Error::nested(&format!("links.{i}.queue"), m);
    l.queue.0.validate().map_err(queue_err)?;
    let (a, b) = ends;
    // `loss_field` names the direction's loss table in errors ("loss" or "reverse_loss").
    let dir = |from: NodeId, to: NodeId, loss_field: &str, loss: &LossConfig, imp, ll: &LinkLayerConfig| -> Result<Direction> {
        let name = format!("{}->{}", s.nodes[from as usize], s.nodes[to as usize]);
        // The queue's own stream (DESIGN.md "Seeds"): RED's draws move nothing else.
        let queue = l.queue.0.build(&l.capacity(), l.delay.0, streams(&format!("link:{name}:queue"))).map_err(queue_err)?;
        Ok(Direction {
            from,
            to,
            delay: l.delay.0,
            queue,
            // NAK losses from their own stream: turning them on moves no other draw.
            link: ll.build(l.capacity(), l.delay.0, &mut || streams(&format!("link:{name}:nak"))),
            // The fading's own stream: bit draws never move the fades (rayleigh.rs).
            channel: match loss {
                LossConfig::Rayleigh(r) if r.markov_fit => {
                    let chain = fitted_chain(r, ll, largest_segment, l.capacity().nominal_rate_bps()).map_err(|m| Error::nested(&format!("links.{i}.{loss_field}"), m))?;
                    LossConfig::Gilbert(chain).build(streams(&format!("link:{name}:fading")))
                }
                _ => loss.build(streams(&format!("link:{name}:fading"))),
            },
            channel_rng: streams(&format!("link:{name}:channel")),
            pipeline: Pipeline::new(imp, streams(&format!("link:{name}:impair"))),
            counters: DirCounters::default(),
            next: None,
            capture: capture.contains(name.as_str()).then(Box::default),
            name,
        })
    };
    Ok(PointToPoint::new([dir(a, b, "loss", &l.loss, &l.impair, &l.link_layer)?, dir(b, a, "reverse_loss", &l.reverse_loss, &l.reverse_impair, &l.reverse_link_layer)?], l.up))
}

/// The flow's two endpoints; sizes on the wire are checked against IPv4's limit.
fn build_endpoints(f: u32, fc: &FlowSpec, start: SimTime, seed: u64, replication: u64) -> Result<[AnyEndpoint; 2]> {
    let (src, dst) = (fc.src, fc.dst);
    super::fectcp::check_transport(fc)?;
    let too_big = |field: &str, what: &str, n: u64| {
        Error::scenario(fc.origin.path(field), format!("{n} B on the wire with {what}; IPv4 allows at most {MAX_PACKET} B"))
    };
    if let AppConfig::Cbr { rate, packet_size, header, packets } = fc.app {
        if packet_size.0 + header.0 > MAX_PACKET {
            return Err(too_big("app.packet_size", "the header", packet_size.0 + header.0));
        }
        let source = CbrSource::new(f, src, dst, start, rate.0, packet_size.0 as u32, header.0 as u32, *packets);
        return Ok([source.into(), UdpSink::new(packet_size.0 as u32).into()]);
    }
    let t = fc.tcp;
    t.validate().map_err(|m| Error::nested(&fc.origin.path("tcp"), m))?;
    if t.mss.0 + t.header.0 > MAX_PACKET {
        return Err(too_big("tcp.mss", "the header", t.mss.0 + t.header.0));
    }
    if fc.transport == Transport::Fectcp {
        return super::fectcp::endpoints(f, fc, start, seed, replication);
    }
    let sender = TcpSender::new(t, f, src, dst, start, fc.app.tcp_bytes());
    let receiver = TcpReceiver::new(f, dst, src, t.mss.0 as u32, t.ack_size.0 as u16, t.max_window.0 as u32, t.delayed_ack.map(|d| d.0)).with_ecn(t.ecn)
        .with_ewln(t.ewln)
        .with_sack(t.sack_on())
        .with_inference(LossInference::for_role(t.syndrome, t.mss.0 as u32, t.dupack_threshold));
    Ok([sender.into(), receiver.into()])
}

/// The world's record of a flow: names for the results, bytes to deliver.
fn flow_record(fc: FlowSpec) -> Flow {
    let tcp = fc.app.is_tcp();
    let fectcp = tcp && fc.transport == Transport::Fectcp;
    let total_bytes = match fc.app {
        AppConfig::Bulk {} => None,
        AppConfig::File { size } => Some(size.0),
        AppConfig::Cbr { packet_size, packets, .. } => packets.map(|n| n * packet_size.0),
    };
    Flow {
        name: fc.name,
        group: fc.group,
        transport: if fectcp { "fectcp" } else if tcp { "tcp" } else { "udp" },
        variant: match (fectcp, tcp) {
            (true, _) => fc.fectcp.map_or(crate::transport::fectcp::FectcpConfig::default().code, |c| c.code).name(),
            (false, true) => fc.tcp.variant.name(),
            (false, false) => "cbr",
        },
        app: fc.app.kind(),
        src: fc.src,
        dst: fc.dst,
        start: SimTime::ZERO + fc.start,
        total_bytes,
        finished_at: None,
        sampled_bytes: 0,
    }
}

/// Calls `visit` with the routes at the start and after each instant of scheduled
/// changes (those at one instant apply together): every topology the run will have,
/// with the instant it ends (`None`: it lasts to the end of the run).
fn for_each_topology(n_nodes: usize, ports: &[Port], hops: &[Hop], changes: &[NetChange], mut visit: impl FnMut(&Routes, &[Hop], Option<SimTime>)) {
    let mut hops = hops.to_vec();
    let mut k = 0;
    loop {
        visit(&Routes::build(n_nodes, &hops), &hops, changes.get(k).map(|c| c.at));
        if k == changes.len() {
            return;
        }
        let at = changes[k].at;
        while k < changes.len() && changes[k].at == at {
            // The node's ports on that segment follow its attachment.
            let c = changes[k];
            for (p, h) in ports.iter().zip(hops.iter_mut()) {
                if p.segment == c.segment && (h.from == c.node || h.to == c.node) {
                    h.up = c.up;
                }
            }
            k += 1;
        }
    }
}

/// Agents act only on TCP packets they forward, so each must sit between the ends of
/// some TCP flow (at the start or after a scheduled change): one on no flow's path
/// would see nothing.
fn check_agents_on_paths(s: &Scenario, agents: &[AgentSlot], flows: &[Flow], ports: &[Port], hops: &[Hop], changes: &[NetChange]) -> Result<()> {
    if agents.is_empty() {
        return Ok(());
    }
    let mut on_path = vec![false; s.nodes.len()];
    for_each_topology(s.nodes.len(), ports, hops, changes, |routes, hops, _| {
        for f in flows.iter().filter(|f| f.transport == "tcp") {
            let mut at = f.src;
            for _ in 0..s.nodes.len() {
                let Some(p) = routes.next_hop(at, f.dst, hops) else { break };
                at = hops[p as usize].to;
                if at == f.dst {
                    break;
                }
                on_path[at as usize] = true;
            }
        }
    });
    match agents.iter().position(|a| !on_path[a.node as usize]) {
        None => Ok(()),
        Some(i) => Err(Error::scenario(
            format!("agents.{i}.node"),
            format!(
                "\"{}\" is on no TCP flow's path, so the {} agent there would see no traffic; put it on the base station the flows cross",
                s.nodes[agents[i].node as usize],
                s.agents[i].kind()
            ),
        )),
    }
}

/// Every flow must have a route both ways in some topology in effect at or after its
/// start (the one in effect when it starts counts): a route that exists only before
/// would deliver nothing. A flow that never has one is an error naming it.
fn check_routes(s: &Scenario, flows: &[Flow], origins: &[Origin], ports: &[Port], hops: &[Hop], changes: &[NetChange]) -> Result<()> {
    let (mut ever, mut from_start) = (vec![false; flows.len()], vec![false; flows.len()]);
    for_each_topology(s.nodes.len(), ports, hops, changes, |routes, hops, until| {
        for (f, flow) in flows.iter().enumerate() {
            if routes.next_hop(flow.src, flow.dst, hops).is_some() && routes.next_hop(flow.dst, flow.src, hops).is_some() {
                ever[f] = true;
                from_start[f] |= until.is_none_or(|u| u > flow.start);
            }
        }
    });
    let Some(f) = from_start.iter().position(|&o| !o) else { return Ok(()) };
    let (when, fix) = if ever[f] {
        (format!("at or after its start at {} s", super::secs(flows[f].start.0)), "connect them with links or start the flow earlier")
    } else {
        ("at any time".to_string(), "connect them with links")
    };
    Err(Error::scenario(
        origins[f].path("to"),
        format!("no route from \"{}\" to \"{}\"{} {when}; {fix}", s.nodes[flows[f].src as usize], s.nodes[flows[f].dst as usize], origins[f].which()),
    ))
}

/// A link packet larger than every TCP segment the flows send is a mistake: ARQ's link
/// packets cut segments into pieces (Chockalingam: N_L < N_T).
fn check_link_payloads(s: &Scenario, specs: &[FlowSpec]) -> Result<()> {
    let Some(largest) = largest_tcp_packet(specs) else {
        return Ok(());
    };
    for (i, l) in s.links.iter().enumerate() {
        for (field, ll) in [("link_layer", &l.link_layer), ("reverse_link_layer", &l.reverse_link_layer)] {
            ll.check_payload(largest).map_err(|m| Error::nested(&format!("links.{i}.{field}"), m))?;
        }
    }
    Ok(())
}

/// A sender's adaptive FEC needs a link that reads its requests, with as many codes as
/// its thresholds step between.
fn check_adaptive_fec(s: &Scenario, specs: &[FlowSpec]) -> Result<()> {
    let links: Vec<(usize, &str, usize)> = s
        .links
        .iter()
        .enumerate()
        .flat_map(|(i, l)| [(i, "link_layer", &l.link_layer), (i, "reverse_link_layer", &l.reverse_link_layer)])
        .filter_map(|(i, field, ll)| ll.sender_chosen_codes().map(|n| (i, field, n)))
        .collect();
    for f in specs.iter().filter(|f| f.app.is_tcp()) {
        let Some(fec) = &f.tcp.adaptive_fec else { continue };
        let path = f.origin.path("tcp.adaptive_fec");
        // Its own fields first: a count compared with the links' means nothing otherwise.
        fec.validate().map_err(|m| Error::nested(&path, m))?;
        if links.is_empty() {
            return Err(Error::scenario(
                path,
                "no link reads the requested code; give the wireless link link_layer = { kind = \"adaptive_fec\", codes = [...] } without its own control",
            ));
        }
        if let Some((i, field, n)) = links.iter().copied().find(|&(_, _, n)| n != fec.codes()) {
            return Err(Error::scenario(
                format!("{path}.up"),
                format!("thresholds for {} codes ({}), but links.{i}.{field} has {n} codes; give {}", fec.codes(), count(fec.up.len(), "threshold"), n - 1),
            ));
        }
    }
    Ok(())
}

/// "1 threshold", "3 thresholds".
fn count(n: usize, what: &str) -> String {
    if n == 1 { format!("1 {what}") } else { format!("{n} {what}s") }
}

/// The biggest TCP data packet on the wire (segment and header), if any flow is TCP.
fn largest_tcp_packet(specs: &[FlowSpec]) -> Option<u64> {
    specs.iter().filter(|f| f.app.is_tcp()).map(|f| f.tcp.mss.0 + f.tcp.header.0).max()
}

/// Every name in `capture.links` is a link direction, "A->B".
fn check_capture(s: &Scenario, links: &[(NodeId, NodeId)]) -> Result<()> {
    let name = |a: NodeId, b: NodeId| format!("{}->{}", s.nodes[a as usize], s.nodes[b as usize]);
    let dirs: Vec<String> = links.iter().flat_map(|&(a, b)| [name(a, b), name(b, a)]).collect();
    let known: HashSet<&str> = dirs.iter().map(String::as_str).collect();
    match s.capture.links.iter().position(|l| !known.contains(l.as_str())) {
        None => Ok(()),
        Some(i) => {
            let shown: Vec<String> = dirs.iter().take(8).map(|d| format!("\"{d}\"")).collect();
            let more = if dirs.len() > 8 { ", ..." } else { "" };
            Err(Error::scenario(
                format!("capture.links.{i}"),
                format!("\"{}\" is not a link direction; use one of {}{more}", s.capture.links[i], shown.join(", ")),
            ))
        }
    }
}

/// Builds the world for replication `replication` of master seed `seed`.
pub fn build_world(s: &Scenario, seed: u64, replication: u64) -> Result<World> {
    let names = check_nodes(s)?;
    let streams = |name: &str| RngStream::new(seed, replication, name);
    let mut links = Vec::with_capacity(s.links.len());
    let capture: HashSet<&str> = s.capture.links.iter().map(String::as_str).collect();
    let specs = flows::expand(s, &names, seed, replication)?;
    let largest_segment = largest_tcp_packet(&specs).unwrap_or(0);
    let (mut segments, mut ports, mut hops) = (Vec::with_capacity(s.links.len()), Vec::new(), Vec::new());
    for (i, l) in s.links.iter().enumerate() {
        let a = lookup(&names, &format!("links.{i}.between.0"), &l.between[0], s)?;
        let b = lookup(&names, &format!("links.{i}.between.1"), &l.between[1], s)?;
        if a == b {
            return Err(Error::scenario(format!("links.{i}.between"), format!("\"{}\" is linked to itself; use two different nodes", l.between[0])));
        }
        let seg = build_link(s, i, l, (a, b), &streams, &capture, largest_segment)?;
        links.push((a, b));
        for (iface, (from, to)) in [(a, b), (b, a)].into_iter().enumerate() {
            ports.push(Port { segment: i as u32, iface: iface as u32 });
            hops.push(Hop { from, to, up: l.up });
        }
        segments.push(SegmentSlot { seg: seg.into(), timer: WakeTimer::default(), first_port: 2 * i as u32 });
    }

    // WLANs after the links: link i stays segment i (actions name links by index).
    let wlan_pairs = super::wlan::build_wlans(s, &names, &streams, &mut segments, &mut ports, &mut hops)?;
    check_capture(s, &links)?;
    check_link_payloads(s, &specs)?;
    check_adaptive_fec(s, &specs)?;
    let mut flows = Vec::with_capacity(specs.len());
    let mut origins = Vec::with_capacity(specs.len());
    let mut endpoints = Vec::with_capacity(2 * specs.len());
    let mut checked_group = vec![false; s.flow_groups.len()];
    for (i, fc) in specs.into_iter().enumerate() {
        if fc.src == fc.dst {
            let to = &s.nodes[fc.dst as usize];
            return Err(Error::scenario(fc.origin.path("to"), format!("\"{to}\" is also the sender{}; a flow needs two different nodes", fc.origin.which())));
        }
        // A group's app is checked once, not once per flow.
        if fc.group.is_none_or(|g| !std::mem::replace(&mut checked_group[g as usize], true)) {
            fc.app.validate().map_err(|m| Error::nested(&fc.origin.path("app"), m))?;
        }
        let start = SimTime::ZERO + fc.start;
        let [sender, receiver] = build_endpoints(i as u32, &fc, start, seed, replication)?;
        for (mut ep, node) in [(sender, fc.src), (receiver, fc.dst)] {
            if s.traces.cwnd || s.traces.seq {
                ep.enable_events();
            }
            endpoints.push(EndpointSlot { ep, node, timer: Timer::default() });
        }
        origins.push(fc.origin);
        flows.push(flow_record(fc));
    }

    let neighbours: Vec<(NodeId, NodeId)> = links.iter().copied().chain(wlan_pairs).collect();
    let (agents, chain_start, chain) = build_agents(s, &names, &neighbours, flows.len())?;
    let changes = actions::compile(s, &Names { nodes: &names, links: &links })?;
    check_routes(s, &flows, &origins, &ports, &hops, &changes)?;
    check_agents_on_paths(s, &agents, &flows, &ports, &hops, &changes)?;
    let routes = Routes::build(s.nodes.len(), &hops);

    let unfinished = flows.iter().filter(|f| f.total_bytes.is_some()).count();
    let sample_interval = s.traces.throughput_interval.0;
    if s.traces.throughput && sample_interval.as_nanos() == 0 {
        return Err(Error::scenario("traces.throughput_interval", "0 s is not an interval; use e.g. \"100 ms\""));
    }
    Ok(World {
        now: SimTime::ZERO,
        queue: EventQueue::new(),
        node_names: s.nodes.clone(),
        group_names: s.flow_groups.iter().map(|g| g.name.clone()).collect(),
        chain_start,
        chain,
        segments,
        ports,
        hops,
        routes,
        all_finite: unfinished == flows.len(),
        flows,
        endpoints,
        agents,
        changes,
        net_out: NetOut::default(),
        agent_out: AgentOutput::default(),
        stop_at: SimTime::ZERO + s.duration.0,
        next_uid: 0,
        counters: Default::default(),
        traces: TraceRecorder::new(&s.traces),
        sample_interval,
        unfinished,
    })
}
