//! Checks a parsed scenario against itself (names, routes, ranges) and builds the
//! `World`. Every error names the field path, the value and what is allowed.

use crate::net::queue_delay::QueueDelayRecord;
use super::actions::{self, Names};
use super::agents::build_agents;
use super::checks::*;
use super::flows::{self, FlowSpec, Origin};
use super::markov_fit::{fitted_chain, largest_data_packet, plan};
use super::{LinkConfig, Scenario};
use crate::agents::AgentOutput;
use crate::apps::App;
use crate::build_ctx::node_id;
use crate::capacity::Capacity;
use crate::channel::fit::FitConfig;
use crate::channel::LossConfig;
use crate::engine::{EventQueue, KeyedTimer, Timer};
use crate::error::{Error, Result};
use crate::link::config::{LinkLayerConfig, LinkLayerSpec};
use crate::net::p2p::{DirCounters, Direction};
use crate::net::pipeline::Pipeline;
use crate::net::routing::Hop;
use crate::net::queue::QueueDiscSpec;
use crate::net::{AnySegment, NetOut, PointToPoint, Routes};
use crate::packet::NodeId;
use crate::rng::RngStream;
use crate::time::SimTime;
use crate::trace::TraceRecorder;
use crate::transport::{check_transport, AnyEndpoint, Endpoint, TransportSpec};
use crate::world::{EndpointSlot, Flow, Port, Progress, SegmentSlot, World};
use std::collections::{HashMap, HashSet};

/// The id of node `name`, or an error at `path` listing the nodes.
pub(super) fn lookup(nodes: &HashMap<&str, NodeId>, path: &str, name: &str, s: &Scenario) -> Result<NodeId> {
    node_id(nodes, path, name, &s.nodes)
}

/// Whether `build_world` runs the Markov fits (`scenario/markov_fit.rs`) once every
/// check has passed, or only checks them (`validate`: accepting a scenario fits nothing).
#[derive(Clone, Copy)]
pub enum Fits<'a> {
    /// Fit (cached per process), counting the link packets sent in the progress.
    Run(Option<&'a Progress>),
    /// Check each fit's fields and cost, and leave the channel lossless.
    CheckOnly,
}

/// A direction whose channel is the chain fitted to its Rayleigh fading: fitted after
/// every check has passed, then put in place of the lossless placeholder.
struct PendingFit {
    link: usize,
    dir: usize,
    loss_path: String,
    cfg: FitConfig,
    fading: RngStream,
}

/// One point-to-point segment per link; `streams` seeds each direction's channel and
/// impairments from its own named stream (docs/architecture.md#seeds).
/// `largest_packet` is the biggest data packet the flows send (what a plain link's
/// `markov_fit` is fitted for); a direction with `markov_fit` goes into `fits`.
#[allow(clippy::too_many_arguments)]
fn build_link(s: &Scenario, i: usize, l: &LinkConfig, ends: (NodeId, NodeId), streams: &dyn Fn(&str) -> RngStream, capture: &HashSet<&str>, largest_packet: u64, fits: &mut Vec<PendingFit>) -> Result<PointToPoint> {
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
    let mut dir = |from: NodeId, to: NodeId, loss_field: &str, loss: &LossConfig, imp, ll: &LinkLayerConfig| -> Result<Direction> {
        let name = format!("{}->{}", s.nodes[from as usize], s.nodes[to as usize]);
        // The direction's capacity, built once: a trace's state is its own.
        let capacity = l.capacity(usize::from(loss_field != "loss")).map_err(|m| Error::nested(&format!("links.{i}"), m))?;
        // The queue's own stream (docs/architecture.md#seeds): RED's draws move nothing
        // else.
        let queue = l.queue.0.build(&capacity, l.delay.0, streams(&format!("link:{name}:queue"))).map_err(queue_err)?;
        let nominal_bps = capacity.nominal_rate_bps();
        Ok(Direction {
            from,
            to,
            delay: l.delay.0,
            queue,
            // NAK losses from their own stream: turning them on moves no other draw.
            link: ll.build(capacity, l.delay.0, &mut || streams(&format!("link:{name}:nak"))),
            // The fading's own stream: bit draws never move the fades (rayleigh.rs).
            channel: match loss {
                LossConfig::Rayleigh(r) if r.markov_fit => {
                    let loss_path = format!("links.{i}.{loss_field}");
                    let cfg = plan(r, ll, largest_packet, nominal_bps).map_err(|m| Error::nested(&loss_path, m))?;
                    let which = usize::from(loss_field != "loss");
                    fits.push(PendingFit { link: i, dir: which, loss_path, cfg, fading: streams(&format!("link:{name}:fading")) });
                    LossConfig::default().build(streams(&format!("link:{name}:fading")))
                }
                _ => loss.build(streams(&format!("link:{name}:fading"))),
            },
            channel_rng: streams(&format!("link:{name}:channel")),
            pipeline: Pipeline::new(imp, streams(&format!("link:{name}:impair"))),
            counters: DirCounters::default(),
            next: None,
            link_next: None,
            capture: capture.contains(name.as_str()).then(Box::default),
            queue_delay: QueueDelayRecord::new(s.traces.sojourn),
            name,
        })
    };
    Ok(PointToPoint::new([dir(a, b, "loss", &l.loss, &l.impair, &l.link_layer)?, dir(b, a, "reverse_loss", &l.reverse_loss, &l.reverse_impair, &l.reverse_link_layer)?], l.up))
}

/// A link whose loss model or link layer says it is the wireless hop (an agent's
/// `wireless_neighbor` must be across one when the node has one).
fn is_wireless(l: &LinkConfig) -> bool {
    // The default loss table is no loss (a model of its own, not named here).
    let lossless = LossConfig::default();
    l.loss != lossless || l.reverse_loss != lossless || !l.link_layer.is_plain() || !l.reverse_link_layer.is_plain()
}

/// The flow's two endpoints, built by the transport that carries it.
fn build_endpoints(f: u32, fc: &FlowSpec, seed: u64, replication: u64) -> Result<[AnyEndpoint; 2]> {
    let path = |field: &str| fc.origin.path(field);
    let ends = fc.ends(f, seed, replication, &path);
    check_transport(&ends)?;
    fc.carrier().endpoints(&ends)
}

/// The world's record of a flow: names for the results, bytes to deliver.
fn flow_record(f: u32, fc: FlowSpec, seed: u64, replication: u64) -> Flow {
    let carrier = fc.carrier();
    let path = |field: &str| fc.origin.path(field);
    let ends = fc.ends(f, seed, replication, &path);
    let (variant, cc) = (carrier.variant(&ends), carrier.cc(&ends));
    Flow {
        group: fc.group,
        transport: carrier.name(),
        variant,
        cc,
        app: fc.app.kind(),
        src: fc.src,
        dst: fc.dst,
        start: SimTime::ZERO + fc.start,
        total_bytes: fc.app.total_bytes(),
        finished_at: None,
        sampled_bytes: 0,
        owd: Default::default(),
        name: fc.name,
    }
}

/// Fits each pending direction's chain (the last step of a build: every check has
/// passed) and puts it in place; `progress` counts the link packets the fits send.
fn run_fits(pending: Vec<PendingFit>, segments: &mut [SegmentSlot], progress: Option<&Progress>) -> Result<()> {
    if let Some(p) = progress {
        let total = pending.iter().map(|f| f.cfg.run_packets().unwrap_or(0)).sum();
        p.fit_total.store(total, std::sync::atomic::Ordering::Relaxed);
    }
    for f in pending {
        let chain = fitted_chain(&f.cfg, progress.map(|p| &p.fit_done)).map_err(|m| Error::nested(&f.loss_path, m))?;
        if let AnySegment::PointToPoint(p2p) = &mut segments[f.link].seg {
            p2p.set_channel(f.dir, LossConfig::Gilbert(chain).build(f.fading));
        }
    }
    Ok(())
}

/// The point-to-point segments, one per link (segment i is link i: actions name links
/// by index), with their ports and hops; and each link's two ends.
struct Links {
    segments: Vec<SegmentSlot>,
    ports: Vec<Port>,
    hops: Vec<Hop>,
    ends: Vec<(NodeId, NodeId)>,
}

fn build_links(s: &Scenario, names: &HashMap<&str, NodeId>, streams: &dyn Fn(&str) -> RngStream, largest_packet: u64, fits: &mut Vec<PendingFit>) -> Result<Links> {
    let capture: HashSet<&str> = s.capture.links.iter().map(String::as_str).collect();
    let n = s.links.len();
    let mut out = Links { segments: Vec::with_capacity(n), ports: Vec::new(), hops: Vec::new(), ends: Vec::with_capacity(n) };
    // Routes take one link per pair of nodes, and a link direction is named by its two
    // nodes: a second link between them would carry nothing and print under the same
    // name, so it is refused (the simulator has no parallel links).
    let mut joined: HashMap<(NodeId, NodeId), usize> = HashMap::with_capacity(n);
    for (i, l) in s.links.iter().enumerate() {
        let a = lookup(names, &format!("links.{i}.between.0"), &l.between[0], s)?;
        let b = lookup(names, &format!("links.{i}.between.1"), &l.between[1], s)?;
        if a == b {
            return Err(Error::scenario(format!("links.{i}.between"), format!("\"{}\" is linked to itself; use two different nodes", l.between[0])));
        }
        if let Some(first) = joined.insert((a.min(b), a.max(b)), i) {
            return Err(Error::scenario(
                format!("links.{i}.between"),
                format!(
                    "\"{}\" and \"{}\" are already joined by links.{first}; the simulator has one link per pair of nodes (a second would carry nothing), so remove one or join other nodes",
                    l.between[0], l.between[1]
                ),
            ));
        }
        let seg = build_link(s, i, l, (a, b), streams, &capture, largest_packet, fits)?;
        out.ends.push((a, b));
        for (iface, (from, to)) in [(a, b), (b, a)].into_iter().enumerate() {
            out.ports.push(Port { segment: i as u32, iface: iface as u32 });
            out.hops.push(Hop { from, to, up: l.up });
        }
        out.segments.push(SegmentSlot { seg: seg.into(), timer: KeyedTimer::default(), first_port: 2 * i as u32 });
    }
    Ok(out)
}

/// Every flow's record, its origin (for errors), its two endpoints (sender `2·f`,
/// receiver `2·f + 1`), and whether agents act on its packets.
struct Flows {
    flows: Vec<Flow>,
    origins: Vec<Origin>,
    endpoints: Vec<EndpointSlot>,
    acted_on: Vec<bool>,
}

fn build_flows(s: &Scenario, specs: Vec<FlowSpec>, seed: u64, replication: u64) -> Result<Flows> {
    let n = specs.len();
    let mut out = Flows { flows: Vec::with_capacity(n), origins: Vec::with_capacity(n), endpoints: Vec::with_capacity(2 * n), acted_on: Vec::with_capacity(n) };
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
        let [sender, receiver] = build_endpoints(i as u32, &fc, seed, replication)?;
        for (mut ep, node) in [(sender, fc.src), (receiver, fc.dst)] {
            if s.traces.cwnd || s.traces.seq {
                ep.enable_events();
            }
            out.endpoints.push(EndpointSlot { ep, node, timer: Timer::default() });
        }
        out.acted_on.push(fc.carrier().agents_act_on_it());
        out.origins.push(fc.origin);
        out.flows.push(flow_record(i as u32, fc, seed, replication));
    }
    Ok(out)
}

/// Builds the world for replication `replication` of master seed `seed`.
pub fn build_world(s: &Scenario, seed: u64, replication: u64) -> Result<World> {
    build_world_fitting(s, seed, replication, Fits::Run(None))
}

/// `build_world`, running its Markov fits or only checking them (`fits`).
pub fn build_world_fitting(s: &Scenario, seed: u64, replication: u64, fits: Fits) -> Result<World> {
    let Unfitted { mut world, fits: pending, .. } = build_world_unfitted(s, seed, replication)?;
    if let Fits::Run(progress) = fits {
        pending.run(&mut world, progress)?;
    }
    Ok(world)
}

/// A world checked and built but for its Markov fits, which run last (`PendingFits::run`),
/// with the warnings on a scenario that builds but almost surely not as meant (an agent's
/// wireless neighbour on the wired side), one line each: a caller shows them before a
/// fit that may take seconds, and only for a scenario that can run.
pub struct Unfitted {
    pub world: World,
    pub warnings: Vec<String>,
    pub fits: PendingFits,
}

/// The Markov fits a built world still needs (every check has passed).
pub struct PendingFits(Vec<PendingFit>);

impl PendingFits {
    /// Fits each chain and puts it in place; `progress` counts the link packets they send.
    pub fn run(self, world: &mut World, progress: Option<&Progress>) -> Result<()> {
        run_fits(self.0, &mut world.segments, progress)
    }
}

/// Checks and builds everything but the Markov fits (see [`Unfitted`]).
pub fn build_world_unfitted(s: &Scenario, seed: u64, replication: u64) -> Result<Unfitted> {
    let names = check_nodes(s)?;
    let streams = |name: &str| RngStream::new(seed, replication, name);
    let specs = flows::expand(s, &names, seed, replication)?;
    let mut pending = Vec::new();
    let Links { mut segments, mut ports, mut hops, ends: links } = build_links(s, &names, &streams, largest_data_packet(&specs), &mut pending)?;
    // WLANs after the links: link i stays segment i (actions name links by index).
    let wlan_pairs = super::wlan::build_wlans(s, &names, &streams, &mut segments, &mut ports, &mut hops)?;
    check_capture(s, &links)?;
    check_link_payloads(s, &specs)?;
    check_adaptive_fec(s, &specs)?;
    let flow_reads_syndrome = specs.iter().any(|f| f.carrier().reads_tcp_options() && f.tcp.syndrome.is_some());
    super::limits::check_verified_files(&specs)?;
    let Flows { flows, origins, endpoints, acted_on } = build_flows(s, specs, seed, replication)?;

    let neighbours: Vec<(NodeId, NodeId)> = links.iter().copied().chain(wlan_pairs.iter().copied()).collect();
    // Wireless hops: a link with a loss model or a link layer, and every WLAN pair.
    let wireless: Vec<(NodeId, NodeId)> =
        links.iter().zip(&s.links).filter(|(_, l)| is_wireless(l)).map(|(&p, _)| p).chain(wlan_pairs).collect();
    let (agents, chain_start, chain, warnings) = build_agents(s, &names, &neighbours, &wireless, flows.len())?;
    let changes = actions::compile(s, &Names { nodes: &names, links: &links })?;
    check_routes(s, &flows, &origins, &ports, &hops, &changes)?;
    check_agents_on_paths(s, &agents, &flows, &acted_on, &ports, &hops, &changes)?;
    check_syndrome_receivers(s, &flow_reads_syndrome)?;
    let routes = Routes::build(s.nodes.len(), &hops);

    let unfinished = flows.iter().filter(|f| f.total_bytes.is_some()).count();
    let sample_interval = s.traces.throughput_interval.0;
    if s.traces.throughput {
        super::limits::check_throughput_rows(s, flows.len())?;
    }
    let world = World {
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
    };
    Ok(Unfitted { world, warnings, fits: PendingFits(pending) })
}
