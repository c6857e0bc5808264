//! Snoop's local retransmission (ns-2's `snoop_rxmit`, `SnoopRxmitHandler`): the oldest
//! cached segment resent on a duplicate ACK or on the connection's own timer, one per
//! connection, multiplexed in a `TimerTable` behind the agent's one timer.

use super::cache::MAX_LOCAL_REXMITS;
use super::SnoopAgent;
use crate::agents::AgentOutput;
use crate::packet::Flags;
use crate::time::SimTime;

impl SnoopAgent {
    pub(super) fn arm(&mut self, flow: usize, at: SimTime) {
        self.connections[flow].deadline = Some(at);
        self.timers.arm(at, flow as u32);
    }

    /// Pops stale timer entries off the top, so `next_timeout` is the true deadline.
    pub(super) fn prune(&mut self) {
        let connections = &self.connections;
        self.timers.prune(|t, flow| connections[flow as usize].deadline == Some(t));
    }

    /// Resends the oldest cached segment (ns-2's `snoop_rxmit`); false if it was resent
    /// `SNOOP_MAX_RXMIT` times already.
    pub(super) fn retransmit(&mut self, now: SimTime, flow: usize, out: &mut AgentOutput) -> bool {
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
    pub(super) fn on_timer(&mut self, now: SimTime, flow: usize, out: &mut AgentOutput) {
        let c = &mut self.connections[flow];
        c.deadline = None;
        if c.cache.front().is_some_and(|e| e.seq() == c.last_ack) && self.retransmit(now, flow, out)
        {
            self.counts.timeouts += 1;
        }
    }

    /// Fires every connection timer due at `now` whose deadline is still the
    /// connection's (an entry for an older deadline is stale).
    pub(super) fn fire_due(&mut self, now: SimTime, out: &mut AgentOutput) {
        while let Some((t, flow)) = self.timers.pop_due(now) {
            if self.connections[flow as usize].deadline == Some(t) {
                self.on_timer(now, flow as usize, out);
            }
        }
        self.prune();
    }
}
