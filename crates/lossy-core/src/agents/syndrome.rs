//! The Syndrome counter at a base station (Chen et al. 2002, §3, Fig. 1 lines 1–5): per
//! connection, count the data packets relayed and attach the count to each one
//! (`bs_count`, 32-bit, wrapping, 0 for the first), with the counter's epoch
//! (`bs_epoch`, never 0: 0 means "not stamped"). The base station buffers nothing and
//! keeps one number per connection. It stamps in both directions (FH → BS → MH and
//! MH → BS → FH, Fig. 1 Cases 1 and 2); the receiver does the inference
//! (`tcp/inference/syndrome.rs`).
//!
//! Readings (docs/mechanisms/syndrome.md):
//!
//! * **Queue overflow at the base station is a wireline loss** (§3). The count is
//!   attached when the packet is forwarded, before its output queue; if that queue then
//!   drops it, the number would be missing downstream and the mobile host would read an
//!   attached-number gap, i.e. a *wireless* loss. The base station counts packets it
//!   *relays*, and a dropped packet was not relayed: `on_queue_drop` takes the number
//!   back, so the next packet gets it and the receiver sees a sequence gap without an
//!   attached-number gap (a wireline loss, Prop. 1(c)). The drop comes right after the
//!   forwarding in the same node (drop-tail and RED decide on arrival), so the dropped
//!   packet holds the connection's last number; if it ever does not, the number cannot
//!   be taken back and the drop is counted (`syndrome_unreturned_drops`).
//! * **Hand-off.** When the link to a wireless neighbour goes down or up, that
//!   neighbour's connections start a new epoch: their counters restart at 0, so the
//!   receiver restarts its baseline instead of reading a gap across base stations. The
//!   paper's base station counts "for each TCP connection" and starts at 0 on "the first
//!   packet received for connection i" (Fig. 1 lines 1–2): a hand-off concerns the
//!   connections of the host that moved, so the other neighbours' connections keep
//!   counting. With no wireless neighbour named, any link change starts a new epoch for
//!   every connection (the station cannot tell whose link it was).
//! * **Epoch numbers are unique across stations.** The receiver tells a new counter from
//!   the one it was reading by its epoch, so two stations must never use the same number:
//!   the station on node `b` of a scenario of `N` nodes numbers its k-th epoch
//!   1 + (b + k·N) mod 65,535. A mobile host that moves from one station to another then
//!   always sees a new epoch, whatever the two stations' histories (they could repeat
//!   each other's numbers when every station counted 1, 2, 3, …).
//! * **Which packets.** With `wireless_neighbor(s)` named, only data going to or coming
//!   from those neighbours is stamped; with none, every TCP data packet crossing the
//!   node. Pure ACKs are never stamped.

use super::{Agent, AgentOutput, AgentSpec, AnyAgent, Verdict};
use crate::error::Result;
use crate::packet::{Header, NodeId, Packet};
use crate::build_ctx::BuildCtx;
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "syndrome"`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SyndromeConfig {
    /// The node the agent runs on (the base station); it must be on a flow's path.
    pub node: String,
    /// The neighbour across the wireless hop: only data to or from it is stamped, and
    /// only its link changes start a new epoch. Unset = every neighbour.
    #[serde(default)]
    pub wireless_neighbor: Option<String>,
    /// Several wireless neighbours; give this or `wireless_neighbor`, not both.
    #[serde(default)]
    pub wireless_neighbors: Vec<String>,
}

impl AgentSpec for SyndromeConfig {
    fn node(&self) -> &str {
        &self.node
    }
    fn kind(&self) -> &'static str {
        "syndrome"
    }
    fn build(&self, index: usize, node: NodeId, ctx: &BuildCtx) -> Result<AnyAgent> {
        let wireless = ctx.wireless_if_named(index, node, &self.wireless_neighbor, &self.wireless_neighbors)?;
        Ok(SyndromeAgent::new(node, &wireless, ctx.n_nodes(), ctx.n_flows()).into())
    }
}

/// Bytes per connection: the 32-bit count and the epoch it belongs to.
const CONN_BYTES: u64 = 4 + 2;
/// Bytes per wireless neighbour (one for the station when none is named): its epoch.
const EPOCH_BYTES: u64 = 2;

#[derive(Clone, Copy, Default)]
struct Counter {
    /// The epoch `next` counts in (0 = the connection not seen yet).
    epoch: u16,
    /// The number the next relayed packet gets.
    next: u32,
}

pub struct SyndromeAgent {
    /// `wireless[n]`: node `n` is across a wireless hop; empty = stamp everything.
    wireless: Vec<bool>,
    counters: Vec<Counter>,
    /// The epoch in force for each wireless neighbour's connections (one entry, for
    /// every connection, when no neighbour is named).
    epoch: Vec<u16>,
    /// This station's slot among the scenario's nodes and the stride of its epoch
    /// numbers (see the module notes).
    slot: u32,
    stride: u32,
    connections: u64,
    stamped: u64,
    returned: u64,
    unreturned: u64,
    epochs: u64,
}

impl SyndromeAgent {
    /// An agent on node `node` whose wireless neighbours are `wireless` (empty: every
    /// neighbour).
    pub fn new(node: NodeId, wireless: &[NodeId], n_nodes: usize, n_flows: usize) -> Self {
        let mut is_wireless = if wireless.is_empty() { Vec::new() } else { vec![false; n_nodes] };
        for &w in wireless {
            is_wireless[w as usize] = true;
        }
        let stride = (n_nodes.max(1) as u32).min(u16::MAX as u32);
        let slot = node as u32 % stride;
        let first = Self::number(slot, stride, 0);
        SyndromeAgent {
            wireless: is_wireless,
            counters: vec![Counter::default(); n_flows],
            epoch: vec![first; n_nodes.max(1)],
            slot,
            stride,
            connections: 0,
            stamped: 0,
            returned: 0,
            unreturned: 0,
            epochs: 1,
        }
    }

    fn on_wireless_side(&self, from: NodeId, to: NodeId) -> bool {
        self.wireless.is_empty() || self.wireless[from as usize] || self.wireless[to as usize]
    }

    /// The k-th epoch number of the station in `slot`: 1 + (slot + k·stride) mod 65,535,
    /// never 0 (0 means "not stamped") and never another station's.
    fn number(slot: u32, stride: u32, k: u64) -> u16 {
        (1 + (slot as u64 + k * stride as u64) % u16::MAX as u64) as u16
    }

    /// Where the epoch of a packet going `from` → `to` is kept: its wireless
    /// neighbour's entry (0 when none is named: one epoch for all).
    fn epoch_index(&self, from: NodeId, to: NodeId) -> usize {
        match self.wireless.is_empty() {
            true => 0,
            false if self.wireless[to as usize] => to as usize,
            false => from as usize,
        }
    }
}

impl Agent for SyndromeAgent {
    fn on_forward(&mut self, _now: SimTime, pkt: &mut Packet, from: NodeId, to: NodeId, _out: &mut AgentOutput) -> Verdict {
        if !self.on_wireless_side(from, to) {
            return Verdict::Forward;
        }
        let epoch = self.epoch[self.epoch_index(from, to)];
        if let Header::TcpData(d) = &mut pkt.header {
            let c = &mut self.counters[pkt.flow as usize];
            if c.epoch == 0 {
                self.connections += 1;
            }
            if c.epoch != epoch {
                // Lines 1–2: the first packet (of the connection, or of this epoch) is 0.
                *c = Counter { epoch, next: 0 };
            }
            // Lines 4–5: attach the count and forward.
            d.bs_count = c.next;
            d.bs_epoch = epoch;
            c.next = c.next.wrapping_add(1);
            self.stamped += 1;
        }
        Verdict::Forward
    }

    fn on_queue_drop(&mut self, _now: SimTime, pkt: &Packet, _to: NodeId) {
        let Header::TcpData(d) = pkt.header else { return };
        if d.bs_epoch == 0 {
            return; // not stamped
        }
        // Stamped by another station, or before a hand-off: the counter's epoch differs.
        let c = &mut self.counters[pkt.flow as usize];
        // §3: dropped here = lost in the wireline network: the number is not used.
        if c.epoch == d.bs_epoch && c.next == d.bs_count.wrapping_add(1) {
            c.next = d.bs_count;
            self.returned += 1;
        } else {
            self.unreturned += 1;
        }
    }

    fn on_link_change(&mut self, _now: SimTime, neighbor: NodeId, _up: bool, _out: &mut AgentOutput) {
        if self.wireless.is_empty() || self.wireless[neighbor as usize] {
            // A new epoch for the neighbour's connections (all of them when none is
            // named): their counters restart at 0, lazily, on their next packet.
            let number = Self::number(self.slot, self.stride, self.epochs);
            let at = if self.wireless.is_empty() { 0 } else { neighbor as usize };
            self.epoch[at] = number;
            self.epochs += 1;
        }
    }

    fn state_bytes(&self) -> u64 {
        let neighbours = self.wireless.iter().filter(|&&w| w).count().max(1) as u64;
        CONN_BYTES * self.connections + EPOCH_BYTES * neighbours
    }

    fn counters(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("syndrome_stamped", self.stamped),
            ("syndrome_connections", self.connections),
            ("syndrome_returned_drops", self.returned),
            ("syndrome_unreturned_drops", self.unreturned),
            ("syndrome_epochs", self.epochs),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FH: NodeId = 0;
    const BS: NodeId = 1;
    const MH: NodeId = 2;

    /// The k-th epoch number of the station on BS in a 3-node scenario.
    fn e(k: u64) -> u16 {
        SyndromeAgent::number(BS as u32, 3, k)
    }

    fn data(flow: u32, seq: u64) -> Packet {
        Packet::tcp_data(flow, 0, 2, seq, 1000, 1040)
    }

    fn pass(a: &mut SyndromeAgent, p: Packet, from: NodeId, to: NodeId) -> (u32, u16) {
        let mut p = p;
        let mut out = AgentOutput::default();
        assert_eq!(a.on_forward(SimTime::ZERO, &mut p, from, to, &mut out), Verdict::Forward);
        let d = p.tcp_data_header().unwrap();
        (d.bs_count, d.bs_epoch)
    }

    fn agent() -> SyndromeAgent {
        SyndromeAgent::new(BS, &[MH], 3, 2)
    }

    #[test]
    fn counts_per_connection_from_zero_in_epoch_one() {
        // Fig. 1 lines 1–5.
        let mut a = agent();
        assert_eq!(pass(&mut a, data(0, 0), FH, MH), (0, e(0)));
        assert_eq!(pass(&mut a, data(0, 1000), FH, MH), (1, e(0)));
        assert_eq!(pass(&mut a, data(1, 0), FH, MH), (0, e(0)));
        assert_eq!(pass(&mut a, data(0, 2000), FH, MH), (2, e(0)));
        assert_eq!(a.state_bytes(), 2 * CONN_BYTES + EPOCH_BYTES);
    }

    #[test]
    fn stamps_the_uplink_too_but_not_acks() {
        let mut a = agent();
        assert_eq!(pass(&mut a, data(0, 0), MH, FH), (0, e(0)));
        let mut ack = Packet::tcp_ack(0, 2, 0, 1000, 65535, 40);
        a.on_forward(SimTime::ZERO, &mut ack, MH, FH, &mut AgentOutput::default());
        assert_eq!(a.counters()[0], ("syndrome_stamped", 1));
    }

    #[test]
    fn wired_only_traffic_is_left_alone() {
        let mut a = SyndromeAgent::new(BS, &[MH], 4, 1);
        assert_eq!(pass(&mut a, data(0, 0), FH, 3), (0, 0));
    }

    #[test]
    fn a_queue_drop_returns_the_number_so_the_loss_reads_as_wireline() {
        // §3: a packet dropped at the BS by overflow is a wireline loss: the next packet
        // takes its number, so the MH sees a sequence gap and no attached-number gap.
        let mut a = agent();
        pass(&mut a, data(0, 0), FH, MH);
        let mut dropped = data(0, 1000);
        let mut out = AgentOutput::default();
        a.on_forward(SimTime::ZERO, &mut dropped, FH, MH, &mut out);
        a.on_queue_drop(SimTime::ZERO, &dropped, MH);
        assert_eq!(pass(&mut a, data(0, 2000), FH, MH), (1, e(0)));
        assert_eq!(a.counters()[2], ("syndrome_returned_drops", 1));
    }

    #[test]
    fn a_hand_off_starts_a_new_epoch_with_fresh_counters() {
        let mut a = agent();
        pass(&mut a, data(0, 0), FH, MH);
        pass(&mut a, data(0, 1000), FH, MH);
        a.on_link_change(SimTime::ZERO, MH, false, &mut AgentOutput::default());
        a.on_link_change(SimTime::ZERO, MH, true, &mut AgentOutput::default());
        assert_eq!(pass(&mut a, data(0, 2000), FH, MH), (0, e(2)));
        // A packet stamped before the hand-off and dropped after it returns nothing.
        let mut old = data(0, 1000);
        if let Header::TcpData(d) = &mut old.header {
            (d.bs_count, d.bs_epoch) = (1, e(0));
        }
        a.on_queue_drop(SimTime::ZERO, &old, MH);
        assert_eq!(pass(&mut a, data(0, 3000), FH, MH), (1, e(2)));
        // A change on the wired side is no hand-off.
        a.on_link_change(SimTime::ZERO, FH, false, &mut AgentOutput::default());
        assert_eq!(pass(&mut a, data(0, 4000), FH, MH), (2, e(2)));
    }

    /// Issue 25 item 8: every station numbered its epochs 1, 2, 3, …, so a mobile host
    /// moving between two stations could read the new station's counter as the old
    /// one's (same epoch) and take the difference of two unrelated counts for losses.
    #[test]
    fn two_stations_never_use_the_same_epoch_number() {
        // Stations on nodes 1 and 3 of a 5-node scenario, both serving MH on node 2.
        let mut a = SyndromeAgent::new(1, &[MH], 5, 1);
        let mut b = SyndromeAgent::new(3, &[MH], 5, 1);
        let (mut of_a, mut of_b) = (std::collections::HashSet::new(), std::collections::HashSet::new());
        for round in 0..50 {
            of_a.insert(pass(&mut a, data(0, round * 1000), FH, MH).1);
            of_b.insert(pass(&mut b, data(0, round * 1000), FH, MH).1);
            // The two stations' histories differ: a changes every round, b every other.
            a.on_link_change(SimTime::ZERO, MH, round % 2 == 0, &mut AgentOutput::default());
            if round % 2 == 0 {
                b.on_link_change(SimTime::ZERO, MH, true, &mut AgentOutput::default());
            }
        }
        assert!(!of_a.contains(&0) && !of_b.contains(&0));
        assert_eq!((of_a.len(), of_b.len()), (50, 26));
        assert!(of_a.is_disjoint(&of_b), "shared epochs {:?}", of_a.intersection(&of_b).collect::<Vec<_>>());
    }

    /// Issue 25 item 8: a hand-off of one mobile host restarted every connection's
    /// counter at the station. Fig. 1 lines 1–2 restart a connection's count at its
    /// first packet there: the other hosts' connections keep counting.
    #[test]
    fn one_hosts_hand_off_leaves_the_other_hosts_connections_counting() {
        const MH2: NodeId = 3;
        let mut a = SyndromeAgent::new(BS, &[MH, MH2], 4, 2);
        let first = SyndromeAgent::number(BS as u32, 4, 0);
        assert_eq!(pass(&mut a, data(0, 0), FH, MH), (0, first));
        assert_eq!(pass(&mut a, data(1, 0), FH, MH2), (0, first));
        assert_eq!(pass(&mut a, data(1, 1000), FH, MH2), (1, first));
        a.on_link_change(SimTime::ZERO, MH, false, &mut AgentOutput::default());
        a.on_link_change(SimTime::ZERO, MH, true, &mut AgentOutput::default());
        assert_eq!(pass(&mut a, data(1, 2000), FH, MH2), (2, first), "MH2's connection restarted");
        let (n, epoch) = pass(&mut a, data(0, 1000), FH, MH);
        assert_eq!(n, 0);
        assert_ne!(epoch, first);
        assert_eq!(a.counters()[4], ("syndrome_epochs", 3));
    }
}
