//! Segments (docs/architecture.md#segments): what carries packets
//! between nodes. A segment offers ports (directions from one attached node to another),
//! takes packets with `send`, keeps every packet it holds (queues, frames on the air,
//! packets propagating) and wakes at its own deadlines; what comes out goes into a
//! [`NetOut`] that the world drains. Routing picks a port per (node, destination).

pub mod link_columns;
pub mod p2p;
pub mod pipeline;
pub mod queue;
pub mod queue_delay;
pub mod routing;
pub mod wlan;

use crate::capture::Capture;
use crate::closed::closed_enum;
use crate::engine::{Key, Tickets};
use crate::packet::{NodeId, Packet};
use crate::result::LinkSummary;
use crate::time::SimTime;
use std::collections::VecDeque;

pub use p2p::PointToPoint;
pub use routing::Routes;
pub use wlan::Wlan;

// Where the segments and the world name it (`fate.rs`: below the link layers too).
pub use crate::fate::DropCause;

/// A packet reaching `node` from neighbour `from`.
#[derive(Clone, Copy, Debug)]
pub struct Arrival {
    pub node: NodeId,
    pub from: NodeId,
    pub pkt: Packet,
}

/// A packet the network dropped on the way from `from` toward `to`.
#[derive(Clone, Copy, Debug)]
pub struct Dropped {
    pub pkt: Packet,
    pub cause: DropCause,
    pub from: NodeId,
    pub to: NodeId,
}

/// What segments hand back to the world; drained by the world with a work queue.
#[derive(Default)]
pub struct NetOut {
    pub arrivals: VecDeque<Arrival>,
    pub drops: Vec<Dropped>,
}

/// Packets dropped, by cause: kept by each link direction and by the world, so the
/// conservation check can hold one against the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DropCounts {
    pub queue: u64,
    pub channel: u64,
    pub link_retry: u64,
    pub link_down: u64,
    pub no_route: u64,
}

impl DropCounts {
    pub fn count(&mut self, cause: DropCause) {
        match cause {
            DropCause::Queue => self.queue += 1,
            DropCause::Channel => self.channel += 1,
            DropCause::LinkRetry => self.link_retry += 1,
            DropCause::LinkDown => self.link_down += 1,
            DropCause::NoRoute => self.no_route += 1,
        }
    }

    pub fn add(&mut self, o: &DropCounts) {
        self.queue += o.queue;
        self.channel += o.channel;
        self.link_retry += o.link_retry;
        self.link_down += o.link_down;
        self.no_route += o.no_route;
    }

    pub fn total(&self) -> u64 {
        self.queue + self.channel + self.link_retry + self.link_down + self.no_route
    }
}

/// What a segment reports for the conservation check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub drops: DropCounts,
    /// Copies the network created (duplication).
    pub duplicated: u64,
    /// Packets held now.
    pub held: u64,
}

impl Tally {
    pub fn add(&mut self, o: &Tally) {
        self.drops.add(&o.drops);
        self.duplicated += o.duplicated;
        self.held += o.held;
    }
}

/// One direction a segment offers: from an attached node to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortEnds {
    pub from: NodeId,
    pub to: NodeId,
}

pub trait Segment {
    /// The ports, in a fixed order; a port's index is its `iface`.
    fn ports(&self) -> Vec<PortEnds>;
    /// Whether port `iface` carries packets now.
    fn port_up(&self, iface: usize) -> bool;
    /// `pkt` leaves through port `iface` at `now`. Returns whether the segment's next
    /// deadline may have changed (so the world re-arms its timer only then).
    fn send(&mut self, now: SimTime, iface: usize, pkt: Packet, tickets: &mut Tickets, out: &mut NetOut) -> bool;
    /// The next deadline inside the segment.
    fn next_wake(&self) -> Option<Key>;
    /// Acts on the deadline `key` (and only on it).
    fn wake(&mut self, now: SimTime, key: Key, tickets: &mut Tickets, out: &mut NetOut);
    /// Attaches or detaches `node`; a detached node's ports stop, and what they held is
    /// dropped (`LinkDown`). Returns whether anything changed.
    fn set_attached(&mut self, now: SimTime, node: NodeId, up: bool, out: &mut NetOut) -> bool;
    /// Per-cause counts and packets held.
    fn tally(&self) -> Tally;
    /// One summary row per direction.
    fn report(&self, end_s: f64, out: &mut Vec<LinkSummary>);
    /// Hands over the captures of its directions, in port order.
    fn take_captures(&mut self, out: &mut Vec<Capture>);
    /// The sojourn trace's samples of its `row`-th summary row, (dequeue time, sojourn)
    /// in ns; none where the segment does not measure sojourns.
    fn sojourn_trace(&self, _row: usize) -> &[(u64, u64)] {
        &[]
    }
}

closed_enum! {
    /// Every built-in segment (unboxed: the world touches one on every event).
    #[allow(clippy::large_enum_variant)]
    pub enum AnySegment via each_segment {
        PointToPoint(PointToPoint),
        Wlan(Wlan),
    }
    impl Segment {
        fn ports(&self) -> Vec<PortEnds>;
        fn port_up(&self, iface: usize) -> bool;
        fn send(&mut self, now: SimTime, iface: usize, pkt: Packet, tickets: &mut Tickets, out: &mut NetOut) -> bool;
        fn next_wake(&self) -> Option<Key>;
        fn wake(&mut self, now: SimTime, key: Key, tickets: &mut Tickets, out: &mut NetOut);
        fn set_attached(&mut self, now: SimTime, node: NodeId, up: bool, out: &mut NetOut) -> bool;
        fn tally(&self) -> Tally;
        fn report(&self, end_s: f64, out: &mut Vec<LinkSummary>);
        fn take_captures(&mut self, out: &mut Vec<Capture>);
        fn sojourn_trace(&self, row: usize) -> &[(u64, u64)];
    }
}

