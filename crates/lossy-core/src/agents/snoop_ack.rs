//! Snoop's ACK handling (ns-2's `snoop_ack`, `snoop_cleanbufs_`): a new ACK cleans the
//! cache and samples the RTT; a duplicate for a cached segment triggers the local
//! retransmission, and the duplicates it expects for that repair are suppressed.

use super::{SnoopAgent, Verdict};
use crate::agents::AgentOutput;
use crate::packet::{Flags, Packet};
use crate::time::SimTime;

impl SnoopAgent {
    /// An ACK from the mobile host (ns-2's `snoop_ack`).
    pub(super) fn on_ack(&mut self, now: SimTime, ack: &mut Packet, a: u64, out: &mut AgentOutput) -> Verdict {
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
    pub(super) fn on_new_ack(&mut self, now: SimTime, flow: usize, a: u64) -> u32 {
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
}
