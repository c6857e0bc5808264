//! Snoop at the base station (Balakrishnan, Seshan and Katz 1995; Chen §2.2), following
//! the facts of ns-2's `tcp/snoop.cc` and `tcp/snoop.h` (ns-2.35): per connection the
//! agent caches the data segments it forwards toward the mobile host, retransmits a
//! cached segment locally on a duplicate ACK for it or on its own timer, and suppresses
//! the duplicate ACKs it expects for what it repaired, so the sender never sees them.
//! With `eln` it is Snoop+ELN (Miyoshi §3): the duplicate ACKs it lets through get ELN
//! exactly as the ELN agent sets it (the ELN agent runs inside it). Since it hides the
//! duplicates of what it repairs, Snoop+ELN also sets ELN on the new ACK that passes a
//! segment it retransmitted locally, so the sender still learns of each wireless loss
//! (our reading of Miyoshi §4, whose adaptive FEC counts them; a new ACK's ELN changes
//! no TCP sender's window). That ACK also carries how many times the link lost those
//! segments (`Packet::link_losses`: one per local retransmission), so that adaptive FEC
//! counts the link's losses, not the segments that had one.
//!
//! Which duplicate triggers the local retransmission is `local_retransmit_dupacks`: the
//! first (1, Balakrishnan et al. and Chen's description), or the second (2, ns-2, whose
//! `RTX_THRESH` 1 lets the first through). ns-2 counts them in one `static` counter
//! shared by every connection and never reset; here each connection counts its own from
//! its last new ACK.
//!
//! Data from the mobile host (a mobile sender) is never cached, and no ACK toward it is
//! suppressed: ns-2 caches and retransmits only in `snoop_data`, for data from the wired
//! side. For data from the wireless side it records which sequence numbers arrived
//! (`snoop_wless_data`) and sets ELN on the ACKs from the wired side that ask for one
//! that never did (`snoop_wired_ack`); so does this agent, through the ELN agent's
//! uplink half (`uplink_eln.rs`), with or without `eln`.

use super::eln::ElnAgent;
pub use super::snoop_config::{SnoopConfig, SnoopOptions};
use super::{Agent, AgentOutput, Verdict};
use crate::packet::{Flags, Header, NodeId, Packet};
use crate::time::{SimDuration, SimTime};
use crate::timers::TimerTable;
use std::collections::VecDeque;

/// Segments cached per connection by default: ns-2's `maxbufs_` is 0 in
/// `tcl/lan/ns-ll.tcl`, which `Snoop::Snoop()` turns into `SNOOP_MAXWIND` = 100 (snoop.h).
pub const DEFAULT_CACHE_PACKETS: u32 = 100;
/// Initial smoothed RTT of the wireless hop: `Snoop set srtt_ 0.1` (ns-ll.tcl).
const INITIAL_SRTT: SimDuration = SimDuration::from_millis(100);
/// Initial mean deviation: `Snoop set rttvar_ 0.25` (ns-ll.tcl).
const INITIAL_RTTVAR: SimDuration = SimDuration::from_millis(250);
/// Gain g = 1/8 of the estimator, `Snoop set g_ 0.125` (ns-ll.tcl), used as ns-2's
/// `snoop_rtt` uses it: srtt = g·srtt + (1 − g)·rtt, so the new sample weighs 7/8.
const G_NUM: u64 = 1;
const G_DEN: u64 = 8;
/// Floor of the timeout, `snoopTick_` 0.1 s (ns-ll.tcl): timeout = max(srtt + 4·rttvar,
/// snoopTick) (`Snoop::timeout()`, snoop.h).
const SNOOP_TICK: SimDuration = SimDuration::from_millis(100);
/// Local retransmissions of one segment at most: `SNOOP_MAX_RXMIT` 10 (snoop.h).
const MAX_LOCAL_REXMITS: u8 = 10;
/// Per-connection state besides the cache: last ACK, highest segment seen, expected
/// duplicates, srtt, rttvar and the timer deadline, 4 bytes each (ns-2's `Snoop` fields).
const CONN_BYTES: u64 = 24;
/// Per cached segment besides its bytes on the wire: send time (4), retransmission
/// count and sender-retransmission flag (ns-2's `hdr_snoop`).
const ENTRY_BYTES: u64 = 8;

struct Entry {
    pkt: Packet,
    /// When the agent last forwarded it (ns-2's `sndTime`): RTT samples and no Karn.
    sent: SimTime,
    local_rexmits: u8,
    /// The sender resent it, so its duplicates are the sender's business (`senderRxmit`).
    sender_rexmit: bool,
}

impl Entry {
    fn seq(&self) -> u64 {
        self.pkt.tcp_data_header().map_or(0, |d| d.seq)
    }
    fn end(&self) -> u64 {
        self.pkt.tcp_data_header().map_or(0, |d| d.end_seq())
    }
}

#[derive(Default)]
struct Connection {
    seen: bool,
    /// The wireless neighbour its data goes to (a hand-off to or from it resets it).
    mh: NodeId,
    /// Highest cumulative ACK from the mobile host (ns-2's `lastAck_`).
    last_ack: u64,
    /// First byte of the newest segment seen from the wired side (`lastSeen_`).
    last_seen: u64,
    /// Cached segments, in sequence order; the front is the oldest unacknowledged.
    cache: VecDeque<Entry>,
    /// Duplicate ACKs since the last new ACK, up to the one that triggers the local
    /// retransmission (ns-2's `thresh`, per connection here).
    dupacks: u32,
    /// Duplicate ACKs still expected for the segment retransmitted locally
    /// (`expDupacks_`); `None` until the triggering duplicate after a new ACK.
    exp_dupacks: Option<u32>,
    srtt: SimDuration,
    rttvar: SimDuration,
    deadline: Option<SimTime>,
    /// Snoop+ELN: a duplicate of `last_ack` went to the sender with ELN, so the loss
    /// there is reported already (ns-2's second-duplicate mode lets the first through).
    eln_passed: bool,
    /// The FEC code the sender last asked for (adaptive FEC): local retransmissions ask
    /// for it too, not for the code of the segment's first transmission.
    code: Option<usize>,
}

impl Connection {
    fn timeout(&self) -> SimDuration {
        SimDuration(self.srtt.0 + 4 * self.rttvar.0).max(SNOOP_TICK)
    }

    /// ns-2's `snoop_rtt`: EWMA with gain g on the sample's side as ns-2 writes it.
    fn rtt_sample(&mut self, rtt: SimDuration) {
        if rtt.0 == 0 {
            return;
        }
        self.srtt = SimDuration((G_NUM * self.srtt.0 + (G_DEN - G_NUM) * rtt.0) / G_DEN);
        let delta = rtt.0.abs_diff(self.srtt.0);
        self.rttvar = if self.rttvar.0 == 0 {
            SimDuration(delta)
        } else {
            SimDuration((G_NUM * delta + (G_DEN - G_NUM) * self.rttvar.0) / G_DEN)
        };
    }
}

/// Totals across connections, kept so `state_bytes` is O(1).
#[derive(Default)]
struct Totals {
    connections: u64,
    packets: u64,
    bytes: u64,
    max_packets: u64,
    max_bytes: u64,
}

#[derive(Default)]
struct Counts {
    local_rexmits: u64,
    timeouts: u64,
    suppressed: u64,
    cache_full: u64,
    resets: u64,
    repairs_reported: u64,
}

pub struct SnoopAgent {
    wireless: Vec<bool>,
    cache_packets: usize,
    rtx_dupacks: u32,
    connections: Vec<Connection>,
    /// (deadline, flow); an entry whose connection has another deadline is stale.
    timers: TimerTable<u32>,
    /// The ELN agent: toward mobile senders always (as ns-2's Snoop), and with Snoop+ELN
    /// on the duplicate ACKs Snoop lets through too.
    eln: ElnAgent,
    /// Snoop+ELN: ELN on the new ACK that passes a locally repaired segment.
    report_repairs: bool,
    totals: Totals,
    counts: Counts,
}

impl SnoopAgent {
    /// An agent whose wireless neighbours are `wireless` (node ids below `n_nodes`).
    pub fn new(wireless: &[NodeId], n_nodes: usize, n_flows: usize, o: SnoopOptions) -> Self {
        let mut is_wireless = vec![false; n_nodes];
        for &w in wireless {
            is_wireless[w as usize] = true;
        }
        SnoopAgent {
            wireless: is_wireless,
            cache_packets: o.cache_packets as usize,
            rtx_dupacks: o.local_retransmit_dupacks.max(1),
            connections: (0..n_flows).map(|_| Connection::default()).collect(),
            timers: TimerTable::default(),
            eln: if o.eln {
                ElnAgent::new(wireless, n_nodes, n_flows)
            } else {
                ElnAgent::uplink_only(wireless, n_nodes, n_flows)
            },
            report_repairs: o.eln,
            totals: Totals::default(),
            counts: Counts::default(),
        }
    }

    fn is_wireless(&self, n: NodeId) -> bool {
        self.wireless[n as usize]
    }

    fn arm(&mut self, flow: usize, at: SimTime) {
        self.connections[flow].deadline = Some(at);
        self.timers.arm(at, flow as u32);
    }

    /// Pops stale timer entries off the top, so `next_timeout` is the true deadline.
    fn prune(&mut self) {
        let connections = &self.connections;
        self.timers.prune(|t, flow| connections[flow as usize].deadline == Some(t));
    }

    fn cached(&mut self, pkt: &Packet) {
        self.totals.packets += 1;
        self.totals.bytes += pkt.size as u64;
        self.totals.max_packets = self.totals.max_packets.max(self.totals.packets);
        self.totals.max_bytes = self.totals.max_bytes.max(self.totals.bytes);
    }

    fn uncached(&mut self, pkt: &Packet) {
        self.totals.packets -= 1;
        self.totals.bytes -= pkt.size as u64;
    }

    /// Data from the wired side toward `to` (ns-2's `snoop_data` and `snoop_insert`).
    fn on_data(&mut self, now: SimTime, pkt: &Packet, to: NodeId) {
        let flow = pkt.flow as usize;
        let seq = pkt.tcp_data_header().map_or(0, |d| d.seq);
        let c = &mut self.connections[flow];
        if !c.seen {
            *c = Connection {
                seen: true,
                mh: to,
                srtt: INITIAL_SRTT,
                rttvar: INITIAL_RTTVAR,
                ..Connection::default()
            };
            self.totals.connections += 1;
        }
        if let Some(code) = pkt.requested_code() {
            c.code = Some(code);
        }
        let in_order = seq >= c.last_seen;
        if in_order {
            c.last_seen = seq;
        }
        // A full cache forwards without caching (ns-2 with `lru_` 0, its default).
        if c.cache.len() >= self.cache_packets {
            self.counts.cache_full += 1;
            return;
        }
        // Already acknowledged: nothing to cache (`seq <= lastAck_` in ns-2's packet numbers).
        if seq < c.last_ack {
            return;
        }
        let i = if c.cache.back().is_none_or(|e| e.seq() < seq) {
            c.cache.len()
        } else {
            c.cache.partition_point(|e| e.seq() < seq)
        };
        let mut restart_timer = !in_order;
        if let Some(e) = c.cache.get_mut(i).filter(|e| e.seq() == seq) {
            // Cached before: the sender resent it; its duplicates go to the sender.
            *e = Entry {
                pkt: *pkt,
                sent: now,
                local_rexmits: 0,
                sender_rexmit: true,
            };
            restart_timer = true;
        } else {
            // Out of order or a sender retransmission we had not cached: if it is the
            // oldest, its duplicates are the sender's too.
            c.cache.insert(
                i,
                Entry {
                    pkt: *pkt,
                    sent: now,
                    local_rexmits: 0,
                    sender_rexmit: !in_order && i == 0,
                },
            );
            self.cached(pkt);
        }
        let c = &self.connections[flow];
        if restart_timer || c.deadline.is_none() {
            let at = now + c.timeout();
            self.arm(flow, at);
        }
    }

    /// An ACK from the mobile host (ns-2's `snoop_ack`).
    fn on_ack(&mut self, now: SimTime, ack: &mut Packet, a: u64, out: &mut AgentOutput) -> Verdict {
        let flow = ack.flow as usize;
        let c = &mut self.connections[flow];
        if !c.seen || a < c.last_ack {
            return Verdict::Forward; // no state, or ACKs out of order
        }
        if a > c.last_ack {
            let reported = std::mem::take(&mut c.eln_passed);
            let losses = self.on_new_ack(now, flow, a);
            if losses > 0 && self.report_repairs {
                if !reported {
                    ack.flags.set(Flags::ELN);
                    self.counts.repairs_reported += 1;
                }
                // Each local retransmission followed one loss of the segment on the link;
                // a duplicate that left with ELN reported one of them already.
                ack.set_link_losses(losses - reported as u32);
            }
            return Verdict::Forward;
        }
        // A duplicate: do we hold the segment at `a`? If not, it was lost upstream.
        let Some(front) = c.cache.front() else {
            return Verdict::Forward;
        };
        if front.seq() > a {
            return Verdict::Forward;
        }
        match c.exp_dupacks {
            None => {
                c.dupacks += 1;
                if c.dupacks < self.rtx_dupacks || front.sender_rexmit {
                    return Verdict::Forward;
                }
                // The segments cached above the lost one each bring a duplicate (the
                // retransmission enters the queue after them); `dupacks` have come.
                // (ns-2 expects one more: its count includes the lost segment.)
                let above = c.cache.len().saturating_sub(1) as u32;
                c.exp_dupacks = Some(above.saturating_sub(c.dupacks));
                if front.local_rexmits == 0 && self.retransmit(now, flow, out) {
                    self.counts.suppressed += 1;
                    return Verdict::Absorb;
                }
                Verdict::Forward
            }
            Some(n) if n > 0 => {
                c.exp_dupacks = Some(n - 1);
                self.counts.suppressed += 1;
                Verdict::Absorb
            }
            // More duplicates than expected: the sender deals with them.
            Some(_) => Verdict::Forward,
        }
    }

    /// ns-2's `snoop_cleanbufs_` and the new-ACK branch of `snoop_ack`; the local
    /// retransmissions of the segments it passes (0: none was repaired locally).
    fn on_new_ack(&mut self, now: SimTime, flow: usize, a: u64) -> u32 {
        let c = &mut self.connections[flow];
        let mut sent = None;
        let (mut n, mut bytes) = (0, 0);
        let mut repaired = 0u32;
        while let Some(e) = c.cache.front().filter(|e| e.end() <= a) {
            sent = Some(e.sent);
            repaired += e.local_rexmits as u32;
            n += 1;
            bytes += e.pkt.size as u64;
            c.cache.pop_front();
        }
        if let Some(t) = sent {
            c.rtt_sample(now.since(t));
        }
        c.exp_dupacks = None;
        c.dupacks = 0;
        c.last_ack = a;
        c.deadline = None;
        self.totals.packets -= n;
        self.totals.bytes -= bytes;
        if !self.connections[flow].cache.is_empty() {
            let at = now + self.connections[flow].timeout();
            self.arm(flow, at);
        }
        repaired
    }

    /// Resends the oldest cached segment (ns-2's `snoop_rxmit`); false if it was resent
    /// `SNOOP_MAX_RXMIT` times already.
    fn retransmit(&mut self, now: SimTime, flow: usize, out: &mut AgentOutput) -> bool {
        let c = &mut self.connections[flow];
        let Some(e) = c.cache.front_mut() else {
            return false;
        };
        if e.local_rexmits >= MAX_LOCAL_REXMITS {
            return false;
        }
        e.sent = now;
        e.local_rexmits += 1;
        // The segment as it was, header fields kept, marked as a retransmission.
        let mut p = e.pkt;
        p.flags.set(Flags::RETX);
        if let Some(code) = c.code {
            p.request_code(code);
        }
        out.packets.push(p);
        self.counts.local_rexmits += 1;
        let at = now + c.timeout();
        self.arm(flow, at);
        true
    }

    /// The connection's timer fired (ns-2's `SnoopRxmitHandler::handle`): resend the
    /// oldest segment if it is the one the mobile host waits for.
    fn on_timer(&mut self, now: SimTime, flow: usize, out: &mut AgentOutput) {
        let c = &mut self.connections[flow];
        c.deadline = None;
        if c.cache.front().is_some_and(|e| e.seq() == c.last_ack) && self.retransmit(now, flow, out)
        {
            self.counts.timeouts += 1;
        }
    }

    /// A hand-off: the connection starts fresh, nothing carried over (Chen §2.2).
    fn reset(&mut self, flow: usize) {
        let c = std::mem::take(&mut self.connections[flow]);
        if c.seen {
            self.totals.connections -= 1;
            self.counts.resets += 1;
        }
        for e in &c.cache {
            self.uncached(&e.pkt);
        }
        self.eln.forget(flow);
    }
}

impl Agent for SnoopAgent {
    fn on_forward(
        &mut self,
        now: SimTime,
        pkt: &mut Packet,
        from: NodeId,
        to: NodeId,
        out: &mut AgentOutput,
    ) -> Verdict {
        let verdict = match pkt.header {
            Header::TcpData(_) if self.is_wireless(to) => {
                self.on_data(now, pkt, to);
                Verdict::Forward
            }
            Header::TcpAck(a) if self.is_wireless(from) => self.on_ack(now, pkt, a.ack, out),
            _ => Verdict::Forward,
        };
        self.prune();
        match verdict {
            Verdict::Forward => {
                let v = self.eln.on_forward(now, pkt, from, to, out);
                // A duplicate that left with ELN has reported its loss (see `eln_passed`).
                if let (Header::TcpAck(a), true) = (pkt.header, self.is_wireless(from) && pkt.flags.has(Flags::ELN)) {
                    let c = &mut self.connections[pkt.flow as usize];
                    if c.seen && a.ack == c.last_ack {
                        c.eln_passed = true;
                    }
                }
                v
            }
            Verdict::Absorb => verdict,
        }
    }

    fn on_queue_drop(&mut self, now: SimTime, pkt: &Packet, to: NodeId) {
        if let (Header::TcpData(d), true) = (pkt.header, self.is_wireless(to)) {
            // Dropped in our own queue: congestion, whose duplicates must reach the
            // sender. ns-2 does not cache a segment when the queue is (nearly) full "since
            // otherwise we want congestion control to kick in" (`snoop_data`); the agent
            // cannot see the queue, so it forgets the dropped segment instead. A local
            // retransmission (another uid) dropped there stays cached.
            let c = &mut self.connections[pkt.flow as usize];
            if let Some(i) = c
                .cache
                .iter()
                .position(|e| e.seq() == d.seq && e.pkt.uid == pkt.uid)
            {
                let e = c.cache.remove(i).expect("position is in range");
                self.uncached(&e.pkt);
            }
        }
        self.eln.on_queue_drop(now, pkt, to);
    }

    fn on_link_change(
        &mut self,
        _now: SimTime,
        neighbor: NodeId,
        _up: bool,
        _out: &mut AgentOutput,
    ) {
        if !self.is_wireless(neighbor) {
            return;
        }
        for flow in 0..self.connections.len() {
            if self.connections[flow].seen && self.connections[flow].mh == neighbor {
                self.reset(flow);
            }
        }
        self.prune();
    }

    fn next_timeout(&self) -> Option<SimTime> {
        // Stale entries are pruned off the top after every call: this is the deadline.
        self.timers.next()
    }

    fn handle_timeout(&mut self, now: SimTime, out: &mut AgentOutput) {
        while let Some((t, flow)) = self.timers.pop_due(now) {
            if self.connections[flow as usize].deadline == Some(t) {
                self.on_timer(now, flow as usize, out);
            }
        }
        self.prune();
    }

    fn state_bytes(&self) -> u64 {
        let t = &self.totals;
        t.connections * CONN_BYTES
            + t.packets * ENTRY_BYTES
            + t.bytes
            + self.eln.state_bytes()
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let (c, t) = (&self.counts, &self.totals);
        let mut v = vec![
            ("local_retransmits", c.local_rexmits),
            ("timeout_retransmits", c.timeouts),
            ("dupacks_suppressed", c.suppressed),
            ("cache_full", c.cache_full),
            ("cache_max_packets", t.max_packets),
            ("cache_max_bytes", t.max_bytes),
            ("handoff_resets", c.resets),
            ("repairs_reported", c.repairs_reported),
        ];
        v.extend(self.eln.counters());
        v
    }
}

#[cfg(test)]
#[path = "snoop_tests.rs"]
mod tests;
