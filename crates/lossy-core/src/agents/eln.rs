//! ELN at the base station, as Chen §2.2 describes Balakrishnan and Katz's ELN-based
//! Snoop: the agent buffers no packets. Toward the mobile host it records the holes in
//! each connection's sequence space as data arrives from the wired side (those segments
//! were lost upstream: congestion), and sets ELN on a duplicate ACK from the mobile host
//! when the missing segment is one it did forward (so it was lost on the wireless hop).
//! For mobile senders it does the converse (`uplink_eln.rs`): ELN on the ACKs toward the
//! mobile host that ask for a segment that never arrived from it.

use super::uplink_eln::UplinkEln;
use super::{Agent, AgentOutput, AgentSpec, AnyAgent, Verdict};
use crate::error::Result;
use crate::intervals::IntervalSet;
use crate::packet::{Flags, Header, NodeId, Packet, TcpData};
use crate::build_ctx::BuildCtx;
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "eln"`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ElnConfig {
    /// The node the agent runs on (the base station).
    pub node: String,
    /// The neighbour across the wireless hop (the mobile host side).
    #[serde(default)]
    pub wireless_neighbor: Option<String>,
    /// Several wireless neighbours (mobile hosts of one base station); give this or
    /// `wireless_neighbor`, not both.
    #[serde(default)]
    pub wireless_neighbors: Vec<String>,
}

impl AgentSpec for ElnConfig {
    fn node(&self) -> &str {
        &self.node
    }
    fn kind(&self) -> &'static str {
        "eln"
    }
    fn build(&self, index: usize, node: NodeId, ctx: &BuildCtx) -> Result<AnyAgent> {
        let wireless = ctx.wireless(index, node, &self.wireless_neighbor, &self.wireless_neighbors)?;
        Ok(ElnAgent::new(&wireless, ctx.n_nodes(), ctx.n_flows()).into())
    }
}

/// Bytes to hold one sequence number (32-bit TCP sequence space).
const SEQ_BYTES: u64 = 4;

#[derive(Default)]
struct Connection {
    seen: bool,
    /// One past the highest byte forwarded toward the mobile host.
    highest: u64,
    /// Highest cumulative ACK seen from the mobile host.
    last_ack: u64,
    /// Ranges never forwarded: lost before reaching the base station or in its queue.
    holes: IntervalSet,
}

impl Connection {
    /// State the agent must keep: highest, last ACK, and two numbers per hole.
    fn state_bytes(&self) -> u64 {
        if self.seen {
            SEQ_BYTES * (2 + 2 * self.holes.len() as u64)
        } else {
            0
        }
    }
}

pub struct ElnAgent {
    /// `wireless[n]`: node `n` is across a wireless hop from the agent's node.
    wireless: Vec<bool>,
    /// False inside plain Snoop, which repairs that direction itself and marks only ACKs
    /// toward mobile senders (as ns-2's Snoop does).
    downlink: bool,
    uplink: UplinkEln,
    connections: Vec<Connection>,
    state_bytes: u64,
    marked: u64,
    congestion_dupacks: u64,
}

impl ElnAgent {
    /// An agent whose wireless neighbours are `wireless` (node ids below `n_nodes`),
    /// marking ACKs in both directions.
    pub fn new(wireless: &[NodeId], n_nodes: usize, n_flows: usize) -> Self {
        Self::with_directions(wireless, n_nodes, n_flows, true)
    }

    /// Only the ACKs toward mobile senders: the part of ELN plain Snoop carries.
    pub(crate) fn uplink_only(wireless: &[NodeId], n_nodes: usize, n_flows: usize) -> Self {
        Self::with_directions(wireless, n_nodes, n_flows, false)
    }

    fn with_directions(wireless: &[NodeId], n_nodes: usize, n_flows: usize, downlink: bool) -> Self {
        let mut is_wireless = vec![false; n_nodes];
        for &w in wireless {
            is_wireless[w as usize] = true;
        }
        ElnAgent {
            wireless: is_wireless,
            downlink,
            uplink: UplinkEln::new(n_flows),
            connections: (0..n_flows).map(|_| Connection::default()).collect(),
            state_bytes: 0,
            marked: 0,
            congestion_dupacks: 0,
        }
    }

    fn with_connection(&mut self, flow: usize, f: impl FnOnce(&mut Connection)) {
        let c = &mut self.connections[flow];
        let before = c.state_bytes();
        f(c);
        self.state_bytes = self.state_bytes - before + c.state_bytes();
    }

    fn is_wireless(&self, n: NodeId) -> bool {
        self.wireless[n as usize]
    }

    /// Drops what the agent knows of `flow` (Snoop+ELN after a hand-off).
    pub(crate) fn forget(&mut self, flow: usize) {
        self.with_connection(flow, |c| *c = Connection::default());
        self.uplink.forget(flow);
    }

    fn on_data(&mut self, flow: usize, d: TcpData) {
        let (start, end) = (d.seq, d.end_seq());
        self.with_connection(flow, |c| {
            c.seen = true;
            if start > c.highest {
                // Segments between the highest seen and this one never arrived.
                c.holes.insert(c.highest, start);
            }
            // A retransmission filling a hole does not clear it: duplicate ACKs for that
            // segment still trace back to the upstream loss until an ACK covers it.
            c.highest = c.highest.max(end);
        });
    }

    fn on_ack(&mut self, pkt: &mut Packet, a: u64) {
        let mut mark = false;
        let mut congestion = false;
        self.with_connection(pkt.flow as usize, |c| {
            if !c.seen {
                return;
            }
            c.holes.remove_below(a);
            let duplicate = a == c.last_ack && a < c.highest;
            if duplicate {
                // The receiver is missing the segment at `a`: did we forward it?
                if c.holes.contains(a) {
                    congestion = true;
                } else {
                    mark = true;
                }
            }
            c.last_ack = c.last_ack.max(a);
        });
        if mark {
            pkt.flags.set(Flags::ELN);
            self.marked += 1;
        }
        self.congestion_dupacks += congestion as u64;
    }
}

impl Agent for ElnAgent {
    fn on_forward(&mut self, _now: SimTime, pkt: &mut Packet, from: NodeId, to: NodeId, _out: &mut AgentOutput) -> Verdict {
        match pkt.header {
            Header::TcpData(d) if self.downlink && self.is_wireless(to) => self.on_data(pkt.flow as usize, d),
            Header::TcpAck(a) if self.downlink && self.is_wireless(from) => self.on_ack(pkt, a.ack),
            Header::TcpData(d) if self.is_wireless(from) => self.uplink.on_data(pkt.flow as usize, &d),
            Header::TcpAck(a) if self.is_wireless(to) => self.uplink.on_ack(pkt, a.ack),
            _ => {}
        }
        Verdict::Forward
    }

    fn on_queue_drop(&mut self, _now: SimTime, pkt: &Packet, to: NodeId) {
        if let (Header::TcpData(d), true) = (pkt.header, self.downlink && self.is_wireless(to)) {
            // Dropped in our own queue: congestion, so it is a hole, not a wireless loss.
            let (start, end) = (d.seq, d.end_seq());
            self.with_connection(pkt.flow as usize, |c| {
                c.holes.insert(start, end);
            });
        }
    }

    fn state_bytes(&self) -> u64 {
        self.state_bytes + self.uplink.state_bytes()
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        let up = ("eln_marked_uplink", self.uplink.marked());
        if self.downlink {
            vec![("eln_marked", self.marked), ("congestion_dupacks", self.congestion_dupacks), up]
        } else {
            vec![up]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BS_UP: NodeId = 0; // wired side
    const MH: NodeId = 2; // wireless side

    fn data(seq: u64) -> Packet {
        Packet::tcp_data(0, 0, 2, seq, 1000, 1040)
    }

    fn ack(n: u64) -> Packet {
        Packet::tcp_ack(0, 2, 0, n, 65535, 40)
    }

    fn agent() -> ElnAgent {
        ElnAgent::new(&[MH], 3, 1)
    }

    fn pass(a: &mut ElnAgent, p: Packet, from: NodeId, to: NodeId) -> Packet {
        let mut p = p;
        let mut out = AgentOutput::default();
        assert_eq!(a.on_forward(SimTime::ZERO, &mut p, from, to, &mut out), Verdict::Forward);
        p
    }

    #[test]
    fn wireless_loss_gets_eln_on_duplicates() {
        let mut a = agent();
        for k in 0..5 {
            pass(&mut a, data(k * 1000), BS_UP, MH);
        }
        // Segment 1000 was forwarded but the MH misses it: lost on the wireless hop.
        assert!(!pass(&mut a, ack(1000), MH, BS_UP).flags.has(Flags::ELN));
        for _ in 0..3 {
            assert!(pass(&mut a, ack(1000), MH, BS_UP).flags.has(Flags::ELN));
        }
        assert_eq!(a.counters()[0], ("eln_marked", 3));
    }

    #[test]
    fn upstream_loss_is_a_hole_and_gets_no_eln() {
        let mut a = agent();
        pass(&mut a, data(0), BS_UP, MH);
        // 1000 never reaches the base station.
        for k in 2..5 {
            pass(&mut a, data(k * 1000), BS_UP, MH);
        }
        assert_eq!(a.state_bytes(), 4 * (2 + 2));
        pass(&mut a, ack(1000), MH, BS_UP);
        for _ in 0..3 {
            assert!(!pass(&mut a, ack(1000), MH, BS_UP).flags.has(Flags::ELN));
        }
        // The retransmission passes; late duplicates are still not marked, and the
        // ACK beyond the hole clears the state.
        pass(&mut a, data(1000), BS_UP, MH);
        assert!(!pass(&mut a, ack(1000), MH, BS_UP).flags.has(Flags::ELN));
        pass(&mut a, ack(5000), MH, BS_UP);
        assert_eq!(a.state_bytes(), 4 * 2);
        assert_eq!(a.counters()[1], ("congestion_dupacks", 4));
    }

    #[test]
    fn a_drop_in_the_base_station_queue_counts_as_congestion() {
        let mut a = agent();
        pass(&mut a, data(0), BS_UP, MH);
        let p = pass(&mut a, data(1000), BS_UP, MH);
        a.on_queue_drop(SimTime::ZERO, &p, MH);
        pass(&mut a, data(2000), BS_UP, MH);
        pass(&mut a, ack(1000), MH, BS_UP);
        assert!(!pass(&mut a, ack(1000), MH, BS_UP).flags.has(Flags::ELN));
    }

    #[test]
    fn mobile_senders_get_eln_for_what_never_arrived_from_them() {
        for mut a in [agent(), ElnAgent::uplink_only(&[MH], 3, 1)] {
            let up = |seq| Packet::tcp_data(0, 2, 0, seq, 1000, 1040);
            let down = |n| Packet::tcp_ack(0, 0, 2, n, 65535, 40);
            for k in [0, 2, 3] {
                pass(&mut a, up(k * 1000), MH, BS_UP);
            }
            assert_eq!(a.state_bytes(), 4 * (1 + 2 * 2));
            assert!(pass(&mut a, down(1000), BS_UP, MH).flags.has(Flags::ELN));
            assert!(pass(&mut a, down(1000), BS_UP, MH).flags.has(Flags::ELN));
            let counters = a.counters();
            assert_eq!(counters.last(), Some(&("eln_marked_uplink", 2)));
        }
    }
}
