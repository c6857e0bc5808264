//! How a segmenting link (`arq.rs`, `arq_nak.rs`) cuts a packet of N_T bytes into
//! ⌈N_T/N_L⌉ link packets of N_L bytes (the last one shorter), codes each with the link's
//! `Coding`, and puts one on the air: its end from the link's capacity, its fate from
//! the channel (Chockalingam, Zorzi, Tralli §II).

use super::{LinkCtx, LinkLayerCounters};
use crate::capacity::{AnyCapacity, Capacity};
use crate::channel::coded_frame::frame_survives;
use crate::channel::TxSpan;
use crate::coding::frame::Coding;
use crate::time::{serialization_delay, SimDuration, SimTime};

/// How a segmenting link cuts packets into link packets and puts one on the air: the
/// link's capacity, N_L, the link header, n_l and the coding, with the counters of what
/// it sent.
#[derive(Clone, Debug)]
pub struct Framing {
    capacity: AnyCapacity,
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
}

impl Framing {
    pub fn new(capacity: impl Into<AnyCapacity>, payload_bytes: u32, header_bytes: u32, attempts: u32, coding: Coding) -> Self {
        debug_assert!(payload_bytes > 0 && attempts > 0);
        let full = shape_of(payload_bytes, header_bytes, &coding);
        Framing { capacity: capacity.into(), payload_bytes, header_bytes, attempts, coding, full, counters: LinkLayerCounters::default(), scratch: Vec::new() }
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
            shape_of(bytes, self.header_bytes, &self.coding)
        }
    }

    /// Air time of a full link packet (N_L data bytes) at the nominal rate (the NAK's
    /// default timeout counts in it: `NakConfig::timing`).
    pub fn full_air(&self) -> SimDuration {
        serialization_delay(self.full.bits, self.capacity.nominal_rate_bps())
    }

    /// When the capacity can first serve a packet that joined the queue at `arrived`
    /// (`Capacity::first_service`).
    pub fn first_service(&self, now: SimTime, arrived: SimTime) -> SimTime {
        self.capacity.first_service(now, arrived)
    }

    /// Whether the capacity serves what is due at an instant before that instant's
    /// arrivals are queued (`Capacity::serves_due_before_arrivals`: Mahimahi's order).
    pub fn serves_due_before_arrivals(&self) -> bool {
        self.capacity.serves_due_before_arrivals()
    }

    /// The link's capacity's nominal rate (a NAK's air time on the way back).
    pub fn nominal_rate_bps(&self) -> u64 {
        self.capacity.nominal_rate_bps()
    }

    /// Sends link packet `shape` once from `start` (`first`: its first transmission) and
    /// asks the channel whether it gets through; counts it. Returns the transmission's
    /// end and whether it got through. The caller keeps the transmissions in time order.
    /// A transmission that never ends (`SimTime::MAX`: a trace played once ran out) is
    /// not judged: the channel is never asked about an endless span.
    #[inline]
    pub fn transmit(&mut self, start: SimTime, shape: Shape, first: bool, ctx: &mut LinkCtx) -> (SimTime, bool) {
        let end = self.capacity.frame_end(start, shape.bits);
        if end == SimTime::MAX {
            return (end, true);
        }
        let span = TxSpan { start, end, bits: shape.bits };
        self.counters.transmissions += 1;
        // Everything but the data bytes' first transmission is overhead.
        self.counters.overhead_bytes += shape.bits / 8 - if first { shape.bytes as u64 } else { 0 };
        (end, frame_survives(&self.coding, span, shape.data_bits, ctx.channel, ctx.rng, &mut self.scratch))
    }
}

/// A link packet of `bytes` data bytes (and `header` bytes of header), coded.
fn shape_of(bytes: u32, header: u32, coding: &Coding) -> Shape {
    let data_bits = (bytes + header) as u64 * 8;
    Shape { bytes, data_bits, bits: coding.coded_bits(data_bits) }
}
