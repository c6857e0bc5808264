//! Link layers (DESIGN.md `LinkLayer`): how one direction of a point-to-point link
//! turns the packets its queue hands over into transmissions on the channel. `Plain`
//! sends each packet as one frame; segmentation with ARQ, FEC codings and the adaptive
//! FEC link come as further variants of [`AnyLinkLayer`].
//!
//! A link layer is sans-IO: it is told to begin a packet, reports when it next needs to
//! act (`next_wake`), and at that moment consults the channel and says what became of
//! the packet.

pub mod plain;

use crate::channel::Channel;
use crate::closed::closed_enum;
use crate::engine::{Key, Tickets};
use crate::net::DropCause;
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::SimTime;

pub use plain::Plain;

/// What a link layer works with when it acts: the direction's channel and the channel's
/// random stream, and the ticket counter for new deadlines.
pub struct LinkCtx<'a> {
    pub channel: &'a mut Channel,
    pub rng: &'a mut RngStream,
    pub tickets: &'a mut Tickets,
}

/// The fate of a packet the link layer has finished with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkOutcome {
    /// Passed to the far end's propagation pipeline.
    Delivered(Packet),
    /// Lost: `Channel` for a frame the channel corrupted, `LinkRetry` when a retrying
    /// link layer gave up.
    Lost(Packet, DropCause),
}

pub trait LinkLayer {
    /// Whether it can take the next packet from the queue now.
    fn ready(&self) -> bool;
    /// Starts carrying `pkt` at `now`.
    fn begin(&mut self, now: SimTime, pkt: Packet, tickets: &mut Tickets);
    /// When it next needs `on_wake` (the end of a frame).
    fn next_wake(&self) -> Option<Key>;
    /// Acts at the deadline `key`; returns the packet it is done with, if any.
    fn on_wake(&mut self, now: SimTime, key: Key, ctx: &mut LinkCtx) -> Option<LinkOutcome>;
    /// Packets it holds.
    fn held(&self) -> usize;
    /// Gives up everything it holds (the link went down).
    fn drain(&mut self, f: &mut dyn FnMut(Packet));
}

closed_enum! {
    /// Every built-in link layer.
    pub enum AnyLinkLayer via each_link {
        Plain(Plain),
    }
}

impl LinkLayer for AnyLinkLayer {
    #[inline]
    fn ready(&self) -> bool {
        each_link!(self, l => l.ready())
    }
    #[inline]
    fn begin(&mut self, now: SimTime, pkt: Packet, tickets: &mut Tickets) {
        each_link!(self, l => l.begin(now, pkt, tickets))
    }
    #[inline]
    fn next_wake(&self) -> Option<Key> {
        each_link!(self, l => l.next_wake())
    }
    #[inline]
    fn on_wake(&mut self, now: SimTime, key: Key, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        each_link!(self, l => l.on_wake(now, key, ctx))
    }
    fn held(&self) -> usize {
        each_link!(self, l => l.held())
    }
    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        each_link!(self, l => l.drain(f))
    }
}
