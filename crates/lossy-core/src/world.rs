//! The simulated world and its event loop. It owns the clock, the event queue, the
//! links and the endpoints, moves packets between them, and drives the sans-IO state
//! machines (TCP, agents) by their `handle_*`/`poll_*` methods.

use crate::agents::{Agent, AgentOutput, AnyAgent, Verdict};
use crate::engine::{Arm, EventQueue, Timer, TimerEntry};
use crate::error::{Error, Result};
use crate::net::{LinkDir, Routes};
use crate::packet::{Kind, NodeId, Packet};
use crate::tcp::{TcpReceiver, TcpSender};
use crate::time::{SimDuration, SimTime};
use crate::trace::{TraceRecorder, SEQ_ACKED, SEQ_RESENT, SEQ_SENT};
use crate::transport::udp::{CbrSource, UdpSink};

#[derive(Clone, Copy, Debug)]
pub(crate) enum Event {
    /// The transmission in service on link direction `dir` has ended.
    TxEnd(u32),
    /// `pkt` reaches the far end of link direction `dir`.
    Arrive { dir: u32, pkt: Packet },
    SenderTimer(u32),
    ReceiverTimer(u32),
    AgentTimer(u32),
    FlowStart(u32),
    CbrSend(u32),
    /// Throughput trace sampling tick.
    Sample,
}

pub(crate) struct TcpFlow {
    pub sender: TcpSender,
    pub receiver: TcpReceiver,
    pub snd_timer: Timer,
    pub rcv_timer: Timer,
}

pub(crate) enum Endpoints {
    Tcp(Box<TcpFlow>),
    Udp { source: CbrSource, sink: UdpSink },
}

pub(crate) struct Flow {
    pub name: String,
    pub src: NodeId,
    pub dst: NodeId,
    pub start: SimTime,
    /// Bytes the application delivers in all; `None` = runs until the end.
    pub total_bytes: Option<u64>,
    pub finished_at: Option<SimTime>,
    pub endpoints: Endpoints,
    pub sampled_bytes: u64,
}

impl Flow {
    pub fn delivered(&self) -> u64 {
        match &self.endpoints {
            Endpoints::Tcp(t) => t.receiver.delivered,
            Endpoints::Udp { sink, .. } => sink.bytes,
        }
    }
}

pub(crate) struct AgentSlot {
    pub agent: AnyAgent,
    pub node: NodeId,
    pub timer: Timer,
    pub state_max: u64,
    pub state_sum: f64,
    pub packets_seen: u64,
}

/// Packet accounting for the conservation invariant.
#[derive(Clone, Debug, Default)]
pub(crate) struct PacketCounters {
    pub injected: u64,
    pub delivered: u64,
    pub data_delivered: u64,
    pub queue_dropped: u64,
    pub channel_lost: u64,
    pub absorbed: u64,
}

/// Points a lazily cancelled timer at `deadline`, queueing an entry if one is needed.
fn rearm(queue: &mut EventQueue<Event>, timer: &mut Timer, deadline: Option<SimTime>, event: Event) {
    if timer.deadline() != deadline {
        if let Arm::Schedule(t) = timer.set(deadline) {
            queue.schedule(t, event);
        }
    }
}

/// The TCP endpoints of flow `f` (a borrow of `flows` alone, so the queue stays free).
fn tcp_of(flows: &mut [Flow], f: usize) -> &mut TcpFlow {
    match &mut flows[f].endpoints {
        Endpoints::Tcp(t) => t,
        Endpoints::Udp { .. } => unreachable!("flow {f} is not TCP"),
    }
}

pub struct World {
    pub(crate) now: SimTime,
    pub(crate) queue: EventQueue<Event>,
    pub(crate) node_names: Vec<String>,
    pub(crate) node_agent: Vec<Option<u32>>,
    pub(crate) dirs: Vec<LinkDir>,
    pub(crate) routes: Routes,
    pub(crate) flows: Vec<Flow>,
    pub(crate) agents: Vec<AgentSlot>,
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

impl World {
    /// Runs to the stop time or until every application has finished; returns the
    /// simulated end time.
    pub fn run_loop(&mut self) -> SimTime {
        for f in 0..self.flows.len() {
            let start = self.flows[f].start;
            self.queue.schedule(start, Event::FlowStart(f as u32));
        }
        if self.traces.wants_throughput() {
            self.queue.schedule(SimTime::ZERO + self.sample_interval, Event::Sample);
        }
        while let Some(t) = self.queue.peek_time() {
            if t > self.stop_at {
                break;
            }
            let (t, ev) = self.queue.pop().expect("peeked");
            self.now = t;
            self.dispatch(ev);
            if self.all_finite && self.unfinished == 0 {
                return self.now;
            }
        }
        self.now = self.stop_at;
        self.stop_at
    }

    fn dispatch(&mut self, ev: Event) {
        match ev {
            Event::TxEnd(d) => self.on_tx_end(d as usize),
            Event::Arrive { dir, pkt } => self.on_arrive(dir as usize, pkt),
            Event::SenderTimer(f) => self.on_sender_timer(f as usize),
            Event::ReceiverTimer(f) => self.on_receiver_timer(f as usize),
            Event::AgentTimer(a) => self.on_agent_timer(a as usize),
            Event::FlowStart(f) => self.on_flow_start(f as usize),
            Event::CbrSend(f) => self.on_cbr_send(f as usize),
            Event::Sample => self.on_sample(),
        }
    }

    // ---- packets on links -------------------------------------------------------

    /// An endpoint or agent at `node` sends `pkt` toward `pkt.dst`.
    fn inject(&mut self, node: NodeId, mut pkt: Packet) {
        pkt.uid = self.next_uid;
        self.next_uid += 1;
        self.counters.injected += 1;
        match self.routes.next_hop(node, pkt.dst) {
            Some(d) => self.offer(d, pkt),
            // Checked at build time: every flow's ends are connected.
            None => unreachable!("no route from {} to {}", node, pkt.dst),
        }
    }

    fn offer(&mut self, d: usize, pkt: Packet) {
        match self.dirs[d].offer(self.now, pkt) {
            Ok(Some(end)) => self.queue.schedule(end, Event::TxEnd(d as u32)),
            Ok(None) => {}
            Err(dropped) => {
                self.counters.queue_dropped += 1;
                let from = self.dirs[d].from;
                if let Some(a) = self.node_agent[from as usize] {
                    let to = self.dirs[d].to;
                    self.agents[a as usize].agent.on_queue_drop(self.now, &dropped, to);
                }
            }
        }
    }

    fn on_tx_end(&mut self, d: usize) {
        let (arrival, next) = self.dirs[d].complete(self.now);
        match arrival {
            Some((pkt, at)) => self.queue.schedule(at, Event::Arrive { dir: d as u32, pkt }),
            None => self.counters.channel_lost += 1,
        }
        if let Some(end) = next {
            self.queue.schedule(end, Event::TxEnd(d as u32));
        }
    }

    fn on_arrive(&mut self, d: usize, mut pkt: Packet) {
        let node = self.dirs[d].to;
        if pkt.dst == node {
            self.counters.delivered += 1;
            self.deliver(pkt);
            return;
        }
        let next = self.routes.next_hop(node, pkt.dst).expect("routes were checked at build time");
        if let Some(a) = self.node_agent[node as usize] {
            let from = self.dirs[d].from;
            let to = self.dirs[next].to;
            if self.run_agent(a as usize, |agent, now, out| agent.on_forward(now, &mut pkt, from, to, out)) == Verdict::Absorb {
                self.counters.absorbed += 1;
                return;
            }
        }
        self.offer(next, pkt);
    }

    // ---- agents -----------------------------------------------------------------

    /// Calls an agent, then sends what it emitted, re-arms its timer and samples its state.
    fn run_agent<R>(&mut self, a: usize, f: impl FnOnce(&mut AnyAgent, SimTime, &mut AgentOutput) -> R) -> R {
        let mut out = std::mem::take(&mut self.agent_out);
        let r = f(&mut self.agents[a].agent, self.now, &mut out);
        let node = self.agents[a].node;
        for (pkt, _toward) in out.packets.drain(..) {
            self.inject(node, pkt);
        }
        self.agent_out = out;
        let slot = &mut self.agents[a];
        let deadline = slot.agent.next_timeout();
        rearm(&mut self.queue, &mut slot.timer, deadline, Event::AgentTimer(a as u32));
        let bytes = slot.agent.state_bytes();
        slot.state_max = slot.state_max.max(bytes);
        slot.state_sum += bytes as f64;
        slot.packets_seen += 1;
        r
    }

    fn on_agent_timer(&mut self, a: usize) {
        match self.agents[a].timer.on_entry(self.now) {
            TimerEntry::Fire => self.run_agent(a, |agent, now, out| agent.handle_timeout(now, out)),
            TimerEntry::Reschedule(t) => self.queue.schedule(t, Event::AgentTimer(a as u32)),
            TimerEntry::Stale => {}
        }
    }

    // ---- endpoints --------------------------------------------------------------

    fn deliver(&mut self, pkt: Packet) {
        let f = pkt.flow as usize;
        match (&mut self.flows[f].endpoints, pkt.kind) {
            (Endpoints::Tcp(t), Kind::Data) => {
                self.counters.data_delivered += 1;
                t.receiver.handle_data(self.now, &pkt);
                self.pump_receiver(f);
                self.check_finished(f);
            }
            (Endpoints::Tcp(t), Kind::Ack) => {
                t.sender.handle_ack(self.now, &pkt);
                let (una, cwnd, ssthresh) = (t.sender.st.snd_una, t.sender.st.cwnd, t.sender.st.ssthresh);
                self.traces.seq(self.now, f as u32, SEQ_ACKED, una);
                self.traces.cwnd(self.now, f as u32, cwnd, ssthresh);
                self.pump_sender(f);
            }
            (Endpoints::Udp { sink, .. }, Kind::Udp) => {
                self.counters.data_delivered += 1;
                sink.handle(&pkt);
                self.check_finished(f);
            }
            (_, kind) => unreachable!("flow {f} got a {kind:?} packet"),
        }
    }

    fn tcp(&mut self, f: usize) -> &mut TcpFlow {
        tcp_of(&mut self.flows, f)
    }

    /// Sends whatever the sender may send now and re-arms its retransmission timer.
    fn pump_sender(&mut self, f: usize) {
        let src = self.flows[f].src;
        let now = self.now;
        while let Some(p) = self.tcp(f).sender.poll_transmit(now) {
            let event = if p.flags.has(crate::packet::Flags::RETX) { SEQ_RESENT } else { SEQ_SENT };
            self.traces.seq(now, f as u32, event, p.seq);
            self.inject(src, p);
        }
        let t = tcp_of(&mut self.flows, f);
        rearm(&mut self.queue, &mut t.snd_timer, t.sender.next_timeout(), Event::SenderTimer(f as u32));
    }

    fn pump_receiver(&mut self, f: usize) {
        let dst = self.flows[f].dst;
        let now = self.now;
        while let Some(p) = self.tcp(f).receiver.poll_transmit(now) {
            self.inject(dst, p);
        }
        let t = tcp_of(&mut self.flows, f);
        rearm(&mut self.queue, &mut t.rcv_timer, t.receiver.next_timeout(), Event::ReceiverTimer(f as u32));
    }

    fn on_sender_timer(&mut self, f: usize) {
        let now = self.now;
        let t = self.tcp(f);
        match t.snd_timer.on_entry(now) {
            TimerEntry::Fire => {
                t.sender.handle_timeout(now);
                let (cwnd, ssthresh) = (t.sender.st.cwnd, t.sender.st.ssthresh);
                self.traces.cwnd(now, f as u32, cwnd, ssthresh);
                self.pump_sender(f);
            }
            TimerEntry::Reschedule(at) => self.queue.schedule(at, Event::SenderTimer(f as u32)),
            TimerEntry::Stale => {}
        }
    }

    fn on_receiver_timer(&mut self, f: usize) {
        let now = self.now;
        let t = self.tcp(f);
        match t.rcv_timer.on_entry(now) {
            TimerEntry::Fire => {
                t.receiver.handle_timeout(now);
                self.pump_receiver(f);
            }
            TimerEntry::Reschedule(at) => self.queue.schedule(at, Event::ReceiverTimer(f as u32)),
            TimerEntry::Stale => {}
        }
    }

    fn on_flow_start(&mut self, f: usize) {
        let now = self.now;
        match &mut self.flows[f].endpoints {
            Endpoints::Tcp(t) => {
                t.sender.start(now);
                let (cwnd, ssthresh) = (t.sender.st.cwnd, t.sender.st.ssthresh);
                self.traces.cwnd(now, f as u32, cwnd, ssthresh);
                self.pump_sender(f);
            }
            Endpoints::Udp { .. } => self.on_cbr_send(f),
        }
    }

    fn on_cbr_send(&mut self, f: usize) {
        let now = self.now;
        let src = self.flows[f].src;
        let Endpoints::Udp { source, .. } = &mut self.flows[f].endpoints else { unreachable!("flow {f} is not CBR") };
        let interval = source.interval();
        if let Some(p) = source.emit(now) {
            self.inject(src, p);
            self.queue.schedule(now + interval, Event::CbrSend(f as u32));
        }
    }

    /// Marks a finite application finished once every byte has been delivered.
    fn check_finished(&mut self, f: usize) {
        let flow = &mut self.flows[f];
        if flow.finished_at.is_none() && flow.total_bytes.is_some_and(|n| flow.delivered() >= n) {
            flow.finished_at = Some(self.now);
            self.unfinished -= 1;
        }
    }

    fn on_sample(&mut self) {
        let secs = self.sample_interval.as_secs_f64();
        for f in 0..self.flows.len() {
            let bytes = self.flows[f].delivered();
            let bps = (bytes - self.flows[f].sampled_bytes) as f64 * 8.0 / secs;
            self.flows[f].sampled_bytes = bytes;
            self.traces.throughput(self.now, f as u32, bps);
        }
        self.queue.schedule(self.now + self.sample_interval, Event::Sample);
    }

    // ---- invariants -------------------------------------------------------------

    /// Whole-run checks (DESIGN.md "Tests at three depths"): every packet injected is
    /// delivered, dropped, or still in the network; every byte delivered was sent, in
    /// order, once.
    pub fn check_invariants(&self) -> Result<()> {
        let c = &self.counters;
        let held: u64 = self.dirs.iter().map(|d| d.held() as u64).sum();
        let propagating = self.queue.pending().filter(|e| matches!(e, Event::Arrive { .. })).count() as u64;
        let accounted = c.delivered + c.queue_dropped + c.channel_lost + c.absorbed + held + propagating;
        if c.injected != accounted {
            return Err(Error::Invariant(format!(
                "packets not conserved: injected {} != delivered {} + queue drops {} + channel losses {} + absorbed {} + queued {} + propagating {}",
                c.injected, c.delivered, c.queue_dropped, c.channel_lost, c.absorbed, held, propagating
            )));
        }
        let link_drops: u64 = self.dirs.iter().map(|d| d.counters.queue_drops).sum();
        let link_losses: u64 = self.dirs.iter().map(|d| d.counters.channel_losses).sum();
        if link_drops != c.queue_dropped || link_losses != c.channel_lost {
            return Err(Error::Invariant("link counters disagree with the world's".into()));
        }
        for flow in &self.flows {
            if let Endpoints::Tcp(t) = &flow.endpoints {
                let (r, s) = (&t.receiver, &t.sender);
                if r.delivered != r.rcv_nxt() {
                    return Err(Error::Invariant(format!("{}: delivered {} != rcv_nxt {}", flow.name, r.delivered, r.rcv_nxt())));
                }
                if r.rcv_nxt() > s.st.snd_max {
                    return Err(Error::Invariant(format!("{}: received bytes never sent", flow.name)));
                }
                if s.st.snd_una > r.rcv_nxt() {
                    return Err(Error::Invariant(format!("{}: sender saw an ACK beyond what was delivered", flow.name)));
                }
                if flow.total_bytes.is_some_and(|n| r.delivered > n) {
                    return Err(Error::Invariant(format!("{}: delivered more than the file", flow.name)));
                }
            }
        }
        Ok(())
    }
}
