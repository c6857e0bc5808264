//! Segmentation with NAK-based selective-repeat ARQ (Chockalingam, Zorzi, Tralli §II–III;
//! the IS-99 radio link protocol they cite): a packet of N_T bytes is cut into
//! ⌈N_T/N_L⌉ link packets of N_L bytes (the last one shorter), each coded by the link's
//! `Coding`; a link packet the far end cannot decode is NAKed and sent again, up to
//! `attempts` (n_l) transmissions in all. When one exhausts its attempts the link gives
//! the whole packet up (`DropCause::LinkRetry`) and sends none of its remaining link
//! packets: the transport recovers it.
//!
//! This file is the paper's link (§III): NAKs instantaneous and error-free, so a NAKed
//! link packet goes out again in the very next slot, and packets pass one at a time,
//! each delivered whole when its last link packet gets through — in order by
//! construction. The whole sequence of transmissions is therefore known when the packet
//! starts: the channel judges each span in time order then (as `Plain` judges its one
//! frame), and the link stays busy until the last one ends. NAKs that take time and can
//! be lost are `arq_nak.rs`; both cut and send link packets with [`Framing`].

use super::arq_nak::ArqNak;
use super::coding::Coding;
use super::{BusyUntil, LinkCtx, LinkLayer, LinkLayerCounters, LinkOutcome};
use crate::closed::closed_enum;
use crate::channel::TxSpan;
use crate::engine::Key;
use crate::net::DropCause;
use crate::packet::Packet;
use crate::time::{serialization_delay, SimDuration, SimTime};

/// How a segmenting link cuts packets into link packets and puts one on the air: the
/// link's rate, N_L, the link header, n_l and the coding, with the counters of what it
/// sent.
#[derive(Clone, Debug)]
pub struct Framing {
    rate_bps: u64,
    /// N_L: data bytes per link packet.
    payload_bytes: u32,
    /// Link header bytes added to every link packet before coding (0 in the paper).
    header_bytes: u32,
    /// n_l: transmissions allowed per link packet.
    pub attempts: u32,
    coding: Coding,
    /// A full link packet (N_L data bytes): every one but a packet's last, worked out once.
    full: Shape,
    pub counters: LinkLayerCounters,
    scratch: Vec<u32>,
}

/// One link packet as it goes on the air.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Its data bytes (N_L, or what is left for the last one).
    bytes: u32,
    /// Data and header bits, before coding.
    data_bits: u64,
    /// Bits on the air.
    bits: u64,
    pub air: SimDuration,
}

impl Framing {
    pub fn new(rate_bps: u64, payload_bytes: u32, header_bytes: u32, attempts: u32, coding: Coding) -> Self {
        debug_assert!(payload_bytes > 0 && attempts > 0);
        let full = shape_of(payload_bytes, header_bytes, &coding, rate_bps);
        Framing { rate_bps, payload_bytes, header_bytes, attempts, coding, full, counters: LinkLayerCounters::default(), scratch: Vec::new() }
    }

    /// ⌈N_T/N_L⌉: the link packets a packet of `size` bytes is cut into.
    pub fn pieces(&self, size: u16) -> u32 {
        (size as u32).div_ceil(self.payload_bytes)
    }

    /// Link packet `index` of a packet of `size` bytes: N_L bytes, or what is left.
    #[inline]
    pub fn shape(&self, size: u16, index: u32) -> Shape {
        let bytes = size as u32 - index * self.payload_bytes;
        if bytes >= self.payload_bytes {
            self.full
        } else {
            shape_of(bytes, self.header_bytes, &self.coding, self.rate_bps)
        }
    }

    /// Air time of a full link packet (N_L data bytes).
    pub fn full_air(&self) -> SimDuration {
        self.full.air
    }

    /// Sends link packet `shape` once from `start` (`first`: its first transmission) and
    /// asks the channel whether it gets through; counts it. The caller keeps the
    /// transmissions in time order.
    #[inline]
    pub fn transmit(&mut self, start: SimTime, shape: Shape, first: bool, ctx: &mut LinkCtx) -> bool {
        let span = TxSpan { start, end: start + shape.air, bits: shape.bits };
        self.counters.transmissions += 1;
        // Everything but the data bytes' first transmission is overhead.
        self.counters.overhead_bytes += shape.bits / 8 - if first { shape.bytes as u64 } else { 0 };
        self.coding.survives(span, shape.data_bits, ctx.channel, ctx.rng, &mut self.scratch)
    }
}

/// A link packet of `bytes` data bytes (and `header` bytes of header) on the air.
fn shape_of(bytes: u32, header: u32, coding: &Coding, rate_bps: u64) -> Shape {
    let data_bits = (bytes + header) as u64 * 8;
    let bits = coding.coded_bits(data_bits);
    Shape { bytes, data_bits, bits, air: serialization_delay(bits, rate_bps) }
}

closed_enum! {
    /// Segmentation with selective-repeat ARQ (`kind = "arq"`): NAKs as the paper has
    /// them (`Instant`, below) or taking time and sometimes lost (`Delayed`,
    /// `arq_nak.rs`). One scheme, one variant of `AnyLinkLayer`, so that the plain
    /// link's dispatch does not widen.
    // The fast path unboxed; the delayed one boxed, as its queues of packets in
    // progress would triple every link's size.
    #[allow(clippy::large_enum_variant)]
    #[derive(Clone, Debug)]
    pub enum Arq via each_arq {
        Instant(InstantArq),
        Delayed(Box<ArqNak>),
    }
}

impl LinkLayer for Arq {
    #[inline]
    fn ready(&self, now: SimTime) -> bool {
        each_arq!(self, l => l.ready(now))
    }
    #[inline]
    fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        each_arq!(self, l => l.begin(now, pkt, ctx))
    }
    #[inline]
    fn next_wake(&self, queued: bool) -> Option<Key> {
        each_arq!(self, l => l.next_wake(queued))
    }
    #[inline]
    fn on_wake(&mut self, now: SimTime, key: Key, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        each_arq!(self, l => l.on_wake(now, key, ctx))
    }
    fn held(&self) -> usize {
        each_arq!(self, l => l.held())
    }
    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        each_arq!(self, l => l.drain(f))
    }
    fn counters(&self) -> LinkLayerCounters {
        each_arq!(self, l => l.counters())
    }
}

/// The paper's link (§III): each packet's transmissions worked out when it begins.
#[derive(Clone, Debug)]
pub struct InstantArq {
    framing: Framing,
    busy: BusyUntil,
}

impl InstantArq {
    pub fn new(framing: Framing) -> Self {
        InstantArq { framing, busy: BusyUntil::default() }
    }

    /// Sends link packet `shape` from `*t` until it gets through or runs out of
    /// attempts; advances `*t` past every transmission.
    fn send_link_packet(&mut self, t: &mut SimTime, shape: Shape, ctx: &mut LinkCtx) -> bool {
        for attempt in 0..self.framing.attempts {
            let start = *t;
            *t = start + shape.air;
            if self.framing.transmit(start, shape, attempt == 0, ctx) {
                return true;
            }
            // The far end NAKs it (§II), and the NAK is back at once (§III).
            self.framing.counters.naks_sent += 1;
        }
        false
    }
}

impl LinkLayer for InstantArq {
    fn ready(&self, now: SimTime) -> bool {
        self.busy.ready(now)
    }

    fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        debug_assert!(self.ready(now), "one packet at a time");
        let mut t = now;
        let delivered = (0..self.framing.pieces(pkt.size)).all(|i| {
            let shape = self.framing.shape(pkt.size, i);
            self.send_link_packet(&mut t, shape, ctx)
        });
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
        self.framing.counters
    }
}

#[cfg(test)]
#[path = "arq_tests.rs"]
mod tests;
