//! Segmentation with NAK-based selective-repeat ARQ (Chockalingam, Zorzi, Tralli §II–III;
//! the IS-99 radio link protocol they cite): a packet of N_T bytes is cut into
//! ⌈N_T/N_L⌉ link packets of N_L bytes (the last one shorter), each coded by the link's
//! `Coding`; a link packet the far end cannot decode is NAKed and sent again, up to
//! `attempts` (n_l) transmissions in all. When one exhausts its attempts the link gives
//! the whole packet up (`DropCause::LinkRetry`) and sends none of its remaining link
//! packets: the transport recovers it.
//!
//! NAKs here are as the paper assumes: instantaneous and error-free, so a NAKed link
//! packet goes out again in the very next slot, and packets pass one at a time, each
//! delivered whole when its last link packet gets through — in order by construction.
//! The whole sequence of transmissions is therefore known when the packet starts: the
//! channel judges each span in time order then (as `Plain` judges its one frame), and
//! the link stays busy until the last one ends.

use super::coding::Coding;
use super::{BusyUntil, LinkCtx, LinkLayer, LinkLayerCounters, LinkOutcome};
use crate::engine::Key;
use crate::net::DropCause;
use crate::packet::Packet;
use crate::channel::TxSpan;
use crate::time::{serialization_delay, SimTime};

#[derive(Clone, Debug)]
pub struct Arq {
    rate_bps: u64,
    /// N_L: data bytes per link packet.
    payload_bytes: u32,
    /// Link header bytes added to every link packet before coding (0 in the paper).
    header_bytes: u32,
    /// n_l: transmissions allowed per link packet.
    attempts: u32,
    coding: Coding,
    busy: BusyUntil,
    counters: LinkLayerCounters,
    scratch: Vec<u32>,
}

impl Arq {
    pub fn new(rate_bps: u64, payload_bytes: u32, header_bytes: u32, attempts: u32, coding: Coding) -> Self {
        debug_assert!(payload_bytes > 0 && attempts > 0);
        Arq { rate_bps, payload_bytes, header_bytes, attempts, coding, busy: BusyUntil::default(), counters: LinkLayerCounters::default(), scratch: Vec::new() }
    }

    /// Sends the link packet of `bytes` data bytes from `*t` until it gets through or
    /// runs out of attempts; advances `*t` past every transmission.
    fn send_link_packet(&mut self, t: &mut SimTime, bytes: u32, ctx: &mut LinkCtx) -> bool {
        let data_bits = (bytes + self.header_bytes) as u64 * 8;
        let bits = self.coding.coded_bits(data_bits);
        let air = serialization_delay(bits, self.rate_bps);
        for attempt in 0..self.attempts {
            let span = TxSpan { start: *t, end: *t + air, bits };
            *t = span.end;
            self.counters.transmissions += 1;
            // Everything but the data bytes' first transmission is overhead.
            self.counters.overhead_bytes += bits / 8 - if attempt == 0 { bytes as u64 } else { 0 };
            if self.coding.survives(span, data_bits, ctx.channel, ctx.rng, &mut self.scratch) {
                return true;
            }
        }
        false
    }
}

impl LinkLayer for Arq {
    fn ready(&self, now: SimTime) -> bool {
        self.busy.ready(now)
    }

    fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        debug_assert!(self.ready(now), "one packet at a time");
        let mut t = now;
        let mut left = pkt.size as u32;
        let mut delivered = true;
        while left > 0 {
            let bytes = left.min(self.payload_bytes);
            left -= bytes;
            if !self.send_link_packet(&mut t, bytes, ctx) {
                delivered = false;
                break;
            }
        }
        self.busy.set(ctx.tickets.key(t));
        Some(if delivered { LinkOutcome::Delivered(pkt, t) } else { LinkOutcome::Lost(pkt, DropCause::LinkRetry) })
    }

    fn next_wake(&self, queued: bool) -> Option<Key> {
        self.busy.next_wake(queued)
    }

    fn on_wake(&mut self, _now: SimTime, key: Key, _ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        self.busy.on_wake(key);
        None
    }

    /// The packet on the air is already in the pipeline (or lost): the link holds none.
    fn held(&self) -> usize {
        0
    }

    fn drain(&mut self, _f: &mut dyn FnMut(Packet)) {
        self.busy.clear();
    }

    fn counters(&self) -> LinkLayerCounters {
        self.counters
    }
}

#[cfg(test)]
#[path = "arq_tests.rs"]
mod tests;
