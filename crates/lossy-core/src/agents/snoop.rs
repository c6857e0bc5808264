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
pub use config::{SnoopConfig, SnoopOptions};
use super::{Agent, AgentOutput, Verdict};
use crate::packet::{Flags, Header, NodeId, Packet};
use crate::time::SimTime;
use crate::timers::TimerTable;
use cache::{Connection, Totals, CONN_BYTES, ENTRY_BYTES};
pub use cache::DEFAULT_CACHE_PACKETS;

// The agent by concern, each an `impl SnoopAgent` in its own file.
#[path = "snoop_ack.rs"]
mod ack;
#[path = "snoop_cache.rs"]
mod cache;
#[path = "snoop_config.rs"]
mod config;
#[path = "snoop_rexmit.rs"]
mod rexmit;

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
        self.fire_due(now, out);
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
