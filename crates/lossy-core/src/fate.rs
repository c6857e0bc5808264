//! What becomes of a packet the network does not deliver, and of one a link layer is done
//! with (docs/architecture.md#conservation). Below both the link layers,
//! which decide a packet's fate, and the segments and world, which count it: neither
//! imports the other for it.

use crate::packet::Packet;
use crate::time::SimTime;

/// Why the network dropped a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropCause {
    /// The queue discipline refused it.
    Queue,
    /// The channel corrupted it and nothing repaired it.
    Channel,
    /// A retrying link layer gave up on it.
    LinkRetry,
    /// It was on, or sent to, a link that went down.
    LinkDown,
    /// No route led to its destination.
    NoRoute,
}

/// The fate of a packet the link layer has finished with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkOutcome {
    /// Passed to the far end's propagation pipeline, its last bit sent at the time given.
    Delivered(Packet, SimTime),
    /// Lost: `Channel` for a frame the channel corrupted, `LinkRetry` when a retrying
    /// link layer gave up.
    Lost(Packet, DropCause),
}
