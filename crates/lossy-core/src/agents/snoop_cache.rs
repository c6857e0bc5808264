//! Snoop's per-connection cache (ns-2's `snoop_data`, `snoop_insert`, `hdr_snoop`):
//! the data segments forwarded toward the mobile host, in sequence order, with what
//! the agent knows of each connection (last ACK, RTT estimate of the wireless hop), and
//! the totals that make `state_bytes` O(1).

use super::SnoopAgent;
use crate::packet::{NodeId, Packet};
use crate::time::{SimDuration, SimTime};
use std::collections::VecDeque;

/// Segments cached per connection by default: ns-2's `maxbufs_` is 0 in
/// `tcl/lan/ns-ll.tcl`, which `Snoop::Snoop()` turns into `SNOOP_MAXWIND` = 100 (snoop.h).
pub const DEFAULT_CACHE_PACKETS: u32 = 100;
/// Initial smoothed RTT of the wireless hop: `Snoop set srtt_ 0.1` (ns-ll.tcl).
pub(super) const INITIAL_SRTT: SimDuration = SimDuration::from_millis(100);
/// Initial mean deviation: `Snoop set rttvar_ 0.25` (ns-ll.tcl).
pub(super) const INITIAL_RTTVAR: SimDuration = SimDuration::from_millis(250);
/// Gain g = 1/8 of the estimator, `Snoop set g_ 0.125` (ns-ll.tcl), used as ns-2's
/// `snoop_rtt` uses it: srtt = g·srtt + (1 − g)·rtt, so the new sample weighs 7/8.
pub(super) const G_NUM: u64 = 1;
pub(super) const G_DEN: u64 = 8;
/// Floor of the timeout, `snoopTick_` 0.1 s (ns-ll.tcl): timeout = max(srtt + 4·rttvar,
/// snoopTick) (`Snoop::timeout()`, snoop.h).
pub(super) const SNOOP_TICK: SimDuration = SimDuration::from_millis(100);
/// Local retransmissions of one segment at most: `SNOOP_MAX_RXMIT` 10 (snoop.h).
pub(super) const MAX_LOCAL_REXMITS: u8 = 10;
/// Per-connection state besides the cache: last ACK, highest segment seen, expected
/// duplicates, srtt, rttvar and the timer deadline, 4 bytes each (ns-2's `Snoop` fields).
pub(super) const CONN_BYTES: u64 = 24;
/// Per cached segment besides its bytes on the wire: send time (4), retransmission
/// count and sender-retransmission flag (ns-2's `hdr_snoop`).
pub(super) const ENTRY_BYTES: u64 = 8;

pub(super) struct Entry {
    pub(super) pkt: Packet,
    /// When the agent last forwarded it (ns-2's `sndTime`): RTT samples and no Karn.
    pub(super) sent: SimTime,
    pub(super) local_rexmits: u8,
    /// The sender resent it, so its duplicates are the sender's business (`senderRxmit`).
    pub(super) sender_rexmit: bool,
}

impl Entry {
    pub(super) fn seq(&self) -> u64 {
        self.pkt.tcp_data_header().map_or(0, |d| d.seq)
    }
    pub(super) fn end(&self) -> u64 {
        self.pkt.tcp_data_header().map_or(0, |d| d.end_seq())
    }
}

#[derive(Default)]
pub(super) struct Connection {
    pub(super) seen: bool,
    /// The wireless neighbour its data goes to (a hand-off to or from it resets it).
    pub(super) mh: NodeId,
    /// Highest cumulative ACK from the mobile host (ns-2's `lastAck_`).
    pub(super) last_ack: u64,
    /// First byte of the newest segment seen from the wired side (`lastSeen_`).
    pub(super) last_seen: u64,
    /// Cached segments, in sequence order; the front is the oldest unacknowledged.
    pub(super) cache: VecDeque<Entry>,
    /// Duplicate ACKs since the last new ACK, up to the one that triggers the local
    /// retransmission (ns-2's `thresh`, per connection here).
    pub(super) dupacks: u32,
    /// Duplicate ACKs still expected for the segment retransmitted locally
    /// (`expDupacks_`); `None` until the triggering duplicate after a new ACK.
    pub(super) exp_dupacks: Option<u32>,
    pub(super) srtt: SimDuration,
    pub(super) rttvar: SimDuration,
    pub(super) deadline: Option<SimTime>,
    /// Snoop+ELN: a duplicate of `last_ack` went to the sender with ELN, so the loss
    /// there is reported already (ns-2's second-duplicate mode lets the first through).
    pub(super) eln_passed: bool,
    /// The FEC code the sender last asked for (adaptive FEC): local retransmissions ask
    /// for it too, not for the code of the segment's first transmission.
    pub(super) code: Option<usize>,
}

impl Connection {
    pub(super) fn timeout(&self) -> SimDuration {
        SimDuration(self.srtt.0 + 4 * self.rttvar.0).max(SNOOP_TICK)
    }

    /// ns-2's `snoop_rtt`: EWMA with gain g on the sample's side as ns-2 writes it.
    pub(super) fn rtt_sample(&mut self, rtt: SimDuration) {
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
pub(super) struct Totals {
    pub(super) connections: u64,
    pub(super) packets: u64,
    pub(super) bytes: u64,
    pub(super) max_packets: u64,
    pub(super) max_bytes: u64,
}

impl SnoopAgent {
    /// Data from the wired side toward `to` (ns-2's `snoop_data` and `snoop_insert`).
    pub(super) fn on_data(&mut self, now: SimTime, pkt: &Packet, to: NodeId) {
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

    pub(super) fn cached(&mut self, pkt: &Packet) {
        self.totals.packets += 1;
        self.totals.bytes += pkt.size as u64;
        self.totals.max_packets = self.totals.max_packets.max(self.totals.packets);
        self.totals.max_bytes = self.totals.max_bytes.max(self.totals.bytes);
    }

    pub(super) fn uncached(&mut self, pkt: &Packet) {
        self.totals.packets -= 1;
        self.totals.bytes -= pkt.size as u64;
    }
}
