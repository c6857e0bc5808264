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
//! * **Hand-off.** When a link of the node goes down or up (of a wireless neighbour's,
//!   if they are named), a new epoch starts and every connection's counter restarts at 0,
//!   so the receiver restarts its baseline instead of reading a gap across base stations.
//! * **Which packets.** With `wireless_neighbor(s)` named, only data going to or coming
//!   from those neighbours is stamped; with none, every TCP data packet crossing the
//!   node. Pure ACKs are never stamped.

use super::{Agent, AgentOutput, AgentSpec, AnyAgent, Verdict};
use crate::error::Result;
use crate::packet::{Header, NodeId, Packet};
use crate::scenario::BuildCtx;
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
        Ok(SyndromeAgent::new(&wireless, ctx.n_nodes(), ctx.n_flows()).into())
    }
}

/// Bytes per connection: the 32-bit count and the epoch it belongs to.
const CONN_BYTES: u64 = 4 + 2;

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
    epoch: u16,
    connections: u64,
    stamped: u64,
    returned: u64,
    unreturned: u64,
    epochs: u64,
}

impl SyndromeAgent {
    /// An agent whose wireless neighbours are `wireless` (empty: every neighbour).
    pub fn new(wireless: &[NodeId], n_nodes: usize, n_flows: usize) -> Self {
        let mut is_wireless = if wireless.is_empty() { Vec::new() } else { vec![false; n_nodes] };
        for &w in wireless {
            is_wireless[w as usize] = true;
        }
        SyndromeAgent {
            wireless: is_wireless,
            counters: vec![Counter::default(); n_flows],
            epoch: 1,
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
}

impl Agent for SyndromeAgent {
    fn on_forward(&mut self, _now: SimTime, pkt: &mut Packet, from: NodeId, to: NodeId, _out: &mut AgentOutput) -> Verdict {
        if !self.on_wireless_side(from, to) {
            return Verdict::Forward;
        }
        if let Header::TcpData(d) = &mut pkt.header {
            let c = &mut self.counters[pkt.flow as usize];
            if c.epoch == 0 {
                self.connections += 1;
            }
            if c.epoch != self.epoch {
                // Lines 1–2: the first packet (of the connection, or of this epoch) is 0.
                *c = Counter { epoch: self.epoch, next: 0 };
            }
            // Lines 4–5: attach the count and forward.
            d.bs_count = c.next;
            d.bs_epoch = self.epoch;
            c.next = c.next.wrapping_add(1);
            self.stamped += 1;
        }
        Verdict::Forward
    }

    fn on_queue_drop(&mut self, _now: SimTime, pkt: &Packet, _to: NodeId) {
        let Header::TcpData(d) = pkt.header else { return };
        if d.bs_epoch == 0 || d.bs_epoch != self.epoch {
            return; // not ours, or stamped before a hand-off
        }
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
            // A new epoch: every counter restarts at 0 (lazily, on its next packet).
            self.epoch = self.epoch.checked_add(1).unwrap_or(1);
            self.epochs += 1;
        }
    }

    fn state_bytes(&self) -> u64 {
        CONN_BYTES * self.connections
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

    const FH: NodeId = 0; // the base station is node 1
    const MH: NodeId = 2;

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
        SyndromeAgent::new(&[MH], 3, 2)
    }

    #[test]
    fn counts_per_connection_from_zero_in_epoch_one() {
        // Fig. 1 lines 1–5.
        let mut a = agent();
        assert_eq!(pass(&mut a, data(0, 0), FH, MH), (0, 1));
        assert_eq!(pass(&mut a, data(0, 1000), FH, MH), (1, 1));
        assert_eq!(pass(&mut a, data(1, 0), FH, MH), (0, 1));
        assert_eq!(pass(&mut a, data(0, 2000), FH, MH), (2, 1));
        assert_eq!(a.state_bytes(), 2 * CONN_BYTES);
    }

    #[test]
    fn stamps_the_uplink_too_but_not_acks() {
        let mut a = agent();
        assert_eq!(pass(&mut a, data(0, 0), MH, FH), (0, 1));
        let mut ack = Packet::tcp_ack(0, 2, 0, 1000, 65535, 40);
        a.on_forward(SimTime::ZERO, &mut ack, MH, FH, &mut AgentOutput::default());
        assert_eq!(a.counters()[0], ("syndrome_stamped", 1));
    }

    #[test]
    fn wired_only_traffic_is_left_alone() {
        let mut a = SyndromeAgent::new(&[MH], 4, 1);
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
        assert_eq!(pass(&mut a, data(0, 2000), FH, MH), (1, 1));
        assert_eq!(a.counters()[2], ("syndrome_returned_drops", 1));
    }

    #[test]
    fn a_hand_off_starts_a_new_epoch_with_fresh_counters() {
        let mut a = agent();
        pass(&mut a, data(0, 0), FH, MH);
        pass(&mut a, data(0, 1000), FH, MH);
        a.on_link_change(SimTime::ZERO, MH, false, &mut AgentOutput::default());
        a.on_link_change(SimTime::ZERO, MH, true, &mut AgentOutput::default());
        assert_eq!(pass(&mut a, data(0, 2000), FH, MH), (0, 3));
        // A packet stamped before the hand-off and dropped after it returns nothing.
        let mut old = data(0, 1000);
        if let Header::TcpData(d) = &mut old.header {
            (d.bs_count, d.bs_epoch) = (1, 1);
        }
        a.on_queue_drop(SimTime::ZERO, &old, MH);
        assert_eq!(pass(&mut a, data(0, 3000), FH, MH), (1, 3));
        // A change on the wired side is no hand-off.
        a.on_link_change(SimTime::ZERO, FH, false, &mut AgentOutput::default());
        assert_eq!(pass(&mut a, data(0, 4000), FH, MH), (2, 3));
    }
}
