//! The simulated world and its event loop (docs/architecture.md#world). It owns the clock
//! and the event queue, and knows three kinds of entity — endpoints, segments, agents —
//! by their traits only. Its own work is routing, agent chains, delivery, scheduled
//! network actions and accounting.
//!
//! Events carry no packets: `Wake(entity)` runs an entity's one timer, `Action(k)` one
//! scheduled change of the network, `Sample` the throughput trace. Packets live in the
//! entities; what segments let out comes back through a `NetOut` drained with a work
//! queue, never by recursion.

use std::sync::atomic::{AtomicU64, Ordering};
use crate::agents::{Agent, AgentOutput, AnyAgent, Verdict};
use crate::engine::{EntityTimer, EventQueue, Key, WakeEntry};
use crate::net::routing::{Hop, PortId};
use crate::net::{Arrival, DropCause, NetOut, Routes, Segment};
use crate::packet::{Flags, NodeId, Packet};
use crate::time::{SimDuration, SimTime};
use crate::trace::TraceRecorder;
use crate::transport::{Endpoint, TraceEvent};
use crate::world_checks::PacketCounters;
pub(crate) use crate::world_tables::{AgentSlot, EndpointSlot, Flow, NetChange, Port, SegmentSlot};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entity {
    Endpoint(u32),
    Segment(u32),
    Agent(u32),
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Event {
    /// The entity's timer is due.
    Wake(Entity),
    /// Scheduled network change `k` (docs/architecture.md#actions).
    Action(u32),
    /// Throughput trace sampling tick.
    Sample,
}

pub struct World {
    pub(crate) now: SimTime,
    pub(crate) queue: EventQueue<Event>,
    pub(crate) node_names: Vec<String>,
    pub(crate) group_names: Vec<String>,
    /// Agents at each node, in chain order: `chain[chain_start[n]..chain_start[n + 1]]`.
    pub(crate) chain_start: Vec<u32>,
    pub(crate) chain: Vec<u32>,
    pub(crate) segments: Vec<SegmentSlot>,
    pub(crate) ports: Vec<Port>,
    pub(crate) hops: Vec<Hop>,
    pub(crate) routes: Routes,
    pub(crate) flows: Vec<Flow>,
    pub(crate) endpoints: Vec<EndpointSlot>,
    pub(crate) agents: Vec<AgentSlot>,
    pub(crate) changes: Vec<NetChange>,
    pub(crate) net_out: NetOut,
    pub(crate) agent_out: AgentOutput,
    pub(crate) stop_at: SimTime,
    pub(crate) next_uid: u64,
    pub(crate) counters: PacketCounters,
    pub(crate) traces: TraceRecorder,
    pub(crate) sample_interval: SimDuration,
    /// Flows with a finite application that have not finished yet.
    pub(crate) unfinished: usize,
    pub(crate) all_finite: bool,
}

/// How far a run has got, readable from another thread while it runs: the simulated
/// time reached and the time it stops at, in nanoseconds; before the run, the link
/// packets its Markov fits have sent and will send (`scenario/markov_fit.rs`).
#[derive(Debug, Default)]
pub struct Progress {
    pub now_ns: AtomicU64,
    pub end_ns: AtomicU64,
    pub fit_done: AtomicU64,
    pub fit_total: AtomicU64,
}

/// Events between two progress reports: a few milliseconds of wall time, and a store
/// too rare to cost anything measurable.
const PROGRESS_EVERY: u32 = 1 << 16;

impl World {
    /// Runs to the stop time or until every application has finished; returns the
    /// simulated end time.
    pub fn run_loop(&mut self) -> SimTime {
        self.run_loop_reporting(None)
    }

    /// `run_loop`, storing the simulated time reached (ns) in `progress` every
    /// PROGRESS_EVERY events, so that a caller on another thread can show how far a long
    /// run has got (the core never calls back into Python).
    pub fn run_loop_reporting(&mut self, progress: Option<&Progress>) -> SimTime {
        if let Some(p) = progress {
            p.end_ns.store(self.stop_at.0, Ordering::Relaxed);
        }
        let mut until_report = PROGRESS_EVERY;
        for e in 0..self.endpoints.len() {
            self.rearm(Entity::Endpoint(e as u32));
        }
        if self.traces.wants_throughput() {
            self.queue.schedule(SimTime::ZERO + self.sample_interval, Event::Sample);
        }
        for (k, c) in self.changes.iter().enumerate() {
            self.queue.schedule(c.at, Event::Action(k as u32));
        }
        while let Some((key, ev)) = self.queue.pop_until(self.stop_at) {
            self.now = key.time;
            self.dispatch(key, ev);
            until_report -= 1;
            if until_report == 0 {
                until_report = PROGRESS_EVERY;
                if let Some(p) = progress {
                    p.now_ns.store(self.now.0, Ordering::Relaxed);
                }
            }
            if self.all_finite && self.unfinished == 0 {
                return self.now;
            }
        }
        self.now = self.stop_at;
        self.stop_at
    }

    fn dispatch(&mut self, key: Key, ev: Event) {
        match ev {
            Event::Wake(entity) => self.wake(entity, key),
            Event::Action(k) => self.apply_change(k as usize),
            Event::Sample => self.on_sample(),
        }
    }

    // ---- the one wake path ------------------------------------------------------

    /// An entry of `entity`'s timer popped at `key`: run the entity if it is due.
    fn wake(&mut self, entity: Entity, key: Key) {
        let tickets = &mut self.queue.tickets;
        let entry = match entity {
            Entity::Endpoint(e) => self.endpoints[e as usize].timer.on_entry(key, tickets),
            Entity::Segment(s) => self.segments[s as usize].timer.on_entry(key, tickets),
            Entity::Agent(a) => self.agents[a as usize].timer.on_entry(key, tickets),
        };
        match entry {
            WakeEntry::Fire => self.fire(entity, key),
            WakeEntry::Reschedule(k) => self.queue.schedule_key(k, Event::Wake(entity)),
            WakeEntry::Stale => {}
        }
    }

    /// Points `entity`'s timer at its next deadline, queueing an entry if one is needed.
    /// Inlined: each caller names its kind of entity, so the match folds away.
    #[inline]
    fn rearm(&mut self, entity: Entity) {
        let tickets = &mut self.queue.tickets;
        let push = match entity {
            Entity::Endpoint(e) => {
                let slot = &mut self.endpoints[e as usize];
                slot.timer.set(slot.ep.next_timeout(), tickets)
            }
            Entity::Segment(s) => {
                let slot = &mut self.segments[s as usize];
                slot.timer.set(slot.seg.next_wake(), tickets)
            }
            Entity::Agent(a) => {
                let slot = &mut self.agents[a as usize];
                slot.timer.set(slot.agent.next_timeout(), tickets)
            }
        };
        if let Some(k) = push {
            self.queue.schedule_key(k, Event::Wake(entity));
        }
    }

    /// The entity's deadline is due: it runs, then what it did is sent on.
    fn fire(&mut self, entity: Entity, key: Key) {
        match entity {
            Entity::Endpoint(e) => {
                self.endpoints[e as usize].ep.handle_timeout(self.now);
                self.pump(e as usize);
            }
            Entity::Segment(s) => {
                let slot = &mut self.segments[s as usize];
                slot.seg.wake(self.now, key, &mut self.queue.tickets, &mut self.net_out);
                self.rearm(Entity::Segment(s));
                self.take_drops();
                while let Some(a) = self.net_out.arrivals.pop_front() {
                    self.on_arrival(a);
                }
            }
            Entity::Agent(a) => self.call_agent(a as usize, |agent, now, out| agent.handle_timeout(now, out)),
        }
    }

    // ---- packets in the network -------------------------------------------------

    /// An endpoint or agent at `node` sends `pkt` toward `pkt.dst`.
    fn inject(&mut self, node: NodeId, mut pkt: Packet) {
        pkt.uid = self.next_uid;
        self.next_uid += 1;
        self.counters.injected += 1;
        match self.routes.next_hop(node, pkt.dst, &self.hops) {
            Some(p) => self.send_port(p, pkt),
            None => self.counters.drops.count(DropCause::NoRoute),
        }
    }

    fn send_port(&mut self, p: PortId, pkt: Packet) {
        let Port { segment, iface } = self.ports[p as usize];
        let slot = &mut self.segments[segment as usize];
        if slot.seg.send(self.now, iface as usize, pkt, &mut self.queue.tickets, &mut self.net_out) {
            self.rearm(Entity::Segment(segment));
        }
        self.take_drops();
    }

    /// Counts what the network dropped; agents at the node hear of their queue's drops.
    #[inline]
    fn take_drops(&mut self) {
        if !self.net_out.drops.is_empty() {
            self.count_drops();
        }
    }

    fn count_drops(&mut self) {
        let mut drops = std::mem::take(&mut self.net_out.drops);
        for d in drops.drain(..) {
            self.counters.drops.count(d.cause);
            if d.cause == DropCause::Queue {
                for i in self.chain_of(d.from) {
                    let a = self.chain[i] as usize;
                    self.agents[a].agent.on_queue_drop(self.now, &d.pkt, d.to);
                }
            }
        }
        self.net_out.drops = drops;
    }

    fn on_arrival(&mut self, Arrival { node, from, mut pkt }: Arrival) {
        if pkt.dst == node {
            self.counters.delivered += 1;
            self.deliver(pkt);
            return;
        }
        let Some(next) = self.routes.next_hop(node, pkt.dst, &self.hops) else {
            self.counters.drops.count(DropCause::NoRoute);
            return;
        };
        let to = self.hops[next as usize].to;
        for i in self.chain_of(node) {
            let a = self.chain[i] as usize;
            if self.run_agent(a, |agent, now, out| agent.on_forward(now, &mut pkt, from, to, out)) == Verdict::Absorb {
                self.counters.absorbed += 1;
                return;
            }
        }
        self.send_port(next, pkt);
    }

    // ---- agents -----------------------------------------------------------------

    /// Positions in `chain` of the agents at `node` (an owned range, so agents can run
    /// while it is walked).
    fn chain_of(&self, node: NodeId) -> std::ops::Range<usize> {
        let n = node as usize;
        self.chain_start[n] as usize..self.chain_start[n + 1] as usize
    }

    /// Calls an agent, then sends what it emitted, re-arms its timer and samples its state
    /// (the state-size metrics are per packet the agent sees).
    fn run_agent<R>(&mut self, a: usize, f: impl FnOnce(&mut AnyAgent, SimTime, &mut AgentOutput) -> R) -> R {
        let r = self.call_agent(a, f);
        let slot = &mut self.agents[a];
        let bytes = slot.agent.state_bytes();
        slot.state_max = slot.state_max.max(bytes);
        slot.state_sum += bytes as f64;
        slot.packets_seen += 1;
        r
    }

    /// Calls an agent, then sends what it emitted and re-arms its timer.
    fn call_agent<R>(&mut self, a: usize, f: impl FnOnce(&mut AnyAgent, SimTime, &mut AgentOutput) -> R) -> R {
        let mut out = std::mem::take(&mut self.agent_out);
        let r = f(&mut self.agents[a].agent, self.now, &mut out);
        let node = self.agents[a].node;
        for pkt in out.packets.drain(..) {
            self.inject(node, pkt);
        }
        self.agent_out = out;
        self.rearm(Entity::Agent(a as u32));
        r
    }

    // ---- endpoints --------------------------------------------------------------

    fn deliver(&mut self, pkt: Packet) {
        let f = pkt.flow as usize;
        let e = if pkt.dst == self.flows[f].dst { 2 * f + 1 } else { 2 * f };
        if pkt.flags.has(Flags::CORRUPT) {
            // A header whose payload was lost: counted apart from data deliveries, and
            // handed only to an endpoint that can use it (`Endpoint::takes_corrupt`).
            self.counters.corrupt_delivered += 1;
            if !self.endpoints[e].ep.takes_corrupt() {
                return;
            }
        } else {
            self.counters.data_delivered += pkt.carries_data() as u64;
            if let Some(ns) = self.flows[f].owd.record(self.now, &pkt) {
                self.traces.owd(self.now, f as u32, ns);
            }
        }
        self.endpoints[e].ep.handle_packet(self.now, &pkt);
        self.pump(e);
        self.check_finished(f);
    }

    /// Sends whatever endpoint `e` wants to send now, records its trace events and
    /// re-arms its timer.
    fn pump(&mut self, e: usize) {
        let (node, now) = (self.endpoints[e].node, self.now);
        while let Some(mut p) = self.endpoints[e].ep.poll_transmit(now) {
            // The one-way delay starts here (`transport::one_way_delay`).
            p.stamp_sent(now);
            self.inject(node, p);
        }
        if self.traces.wants_events() {
            self.record_events(e);
        }
        self.rearm(Entity::Endpoint(e as u32));
    }

    fn record_events(&mut self, e: usize) {
        let (flow, now) = ((e / 2) as u32, self.now);
        while let Some(ev) = self.endpoints[e].ep.poll_event() {
            match ev {
                TraceEvent::Cwnd { cwnd, ssthresh } => self.traces.cwnd(now, flow, cwnd, ssthresh),
                TraceEvent::Seq { event, seq } => self.traces.seq(now, flow, event, seq),
                TraceEvent::Pacing { bytes_per_s } => self.traces.pacing(now, flow, bytes_per_s),
            }
        }
    }

    /// Bytes flow `f`'s application has received in order.
    pub(crate) fn delivered(&self, f: usize) -> u64 {
        self.endpoints[2 * f + 1].ep.delivered()
    }

    /// Marks a finite application finished once every byte has been delivered.
    fn check_finished(&mut self, f: usize) {
        let delivered = self.delivered(f);
        let flow = &mut self.flows[f];
        if flow.finished_at.is_none() && flow.total_bytes.is_some_and(|n| delivered >= n) {
            flow.finished_at = Some(self.now);
            self.unfinished -= 1;
        }
    }

    fn on_sample(&mut self) {
        let secs = self.sample_interval.as_secs_f64();
        for f in 0..self.flows.len() {
            let bytes = self.endpoints[2 * f + 1].ep.rate_bytes();
            let bps = (bytes - self.flows[f].sampled_bytes) as f64 * 8.0 / secs;
            self.flows[f].sampled_bytes = bytes;
            self.traces.throughput(self.now, f as u32, bps);
        }
        self.queue.schedule(self.now + self.sample_interval, Event::Sample);
    }

    // ---- network actions --------------------------------------------------------

    /// Applies scheduled change `k`: the attachment changes, what the link held is
    /// dropped, routes are rebuilt and the agents at both ends are told.
    fn apply_change(&mut self, k: usize) {
        let NetChange { segment, node, up, .. } = self.changes[k];
        let s = segment as usize;
        if !self.segments[s].seg.set_attached(self.now, node, up, &mut self.net_out) {
            return;
        }
        let first = self.segments[s].first_port as usize;
        let mut ends = Vec::new();
        for (i, p) in self.segments[s].seg.ports().iter().enumerate() {
            self.hops[first + i].up = self.segments[s].seg.port_up(i);
            ends.push((p.from, p.to));
        }
        self.routes = Routes::build(self.node_names.len(), &self.hops);
        self.rearm(Entity::Segment(segment));
        self.take_drops();
        for (from, to) in ends {
            for i in self.chain_of(from) {
                let a = self.chain[i] as usize;
                self.call_agent(a, |agent, now, out| agent.on_link_change(now, to, up, out));
            }
        }
    }
}
