//! Link layers (docs/architecture.md#family-link-layer): how one direction of a
//! point-to-point link turns the packets its queue hands over into transmissions on the
//! channel, each frame timed by the direction's capacity (`crate::capacity`). The plain
//! link sends each packet as one frame; segmentation with ARQ and the adaptive FEC link
//! are further variants of [`AnyLinkLayer`]. A link layer is one file (its runtime type,
//! and its scenario table implementing `config::LinkLayerSpec`) and one line in the
//! `family!` list below, which makes both [`AnyLinkLayer`] and [`LinkLayerConfig`].
//!
//! A link layer is sans-IO: it is told to begin a packet, reports when it next needs to
//! act (`next_wake`), and at that moment consults the channel and says what became of
//! a packet. One that finishes several packets at one moment (the delayed-NAK ARQ,
//! releasing packets held in order) hands them out one per call, asking for further
//! deadlines at that same moment for the rest.

pub mod arq_nak;
pub mod config;
pub mod fec_stream;
pub mod framing;
pub mod nak_config;

use crate::channel::Channel;
use crate::capacity::AnyCapacity;
use crate::closed::family;
use crate::coding::frame::Coding;
use crate::time::SimDuration;
use config::LinkLayerSpec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use crate::engine::{Key, Tickets};
use crate::metrics::{Columns, Metric, Metrics};
use crate::fate::LinkOutcome;
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::SimTime;

/// What a link layer works with when it acts: the direction's channel and the channel's
/// random stream, and the ticket counter for new deadlines.
pub struct LinkCtx<'a> {
    pub channel: &'a mut Channel,
    pub rng: &'a mut RngStream,
    pub tickets: &'a mut Tickets,
}

/// What a link layer did beyond passing packets, for the link's summary (zeros for the
/// plain link, whose one frame per packet the channel counters already describe). The
/// packets it gave up are counted by the segment, as `LinkRetry` drops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkLayerCounters {
    /// Link frames sent, retransmissions included.
    pub transmissions: u64,
    /// Bytes on the air beyond each packet's own bytes sent once: parity, link headers
    /// and retransmissions.
    pub overhead_bytes: u64,
    /// NAKs the far end sent, repeats of lost ones included.
    pub naks_sent: u64,
    /// Of those, NAKs lost on the way back.
    pub naks_lost: u64,
    /// Times an adaptive FEC link changed code between frames.
    pub code_changes: u64,
}

impl LinkLayerCounters {
    /// Their columns, which every link direction's row has (zeros for the plain link,
    /// and for a WLAN pair's NAKs and code changes).
    pub const COLUMNS: &'static Columns = &[
        ("link_transmissions", Metric::U64(0)),
        ("link_overhead_bytes", Metric::U64(0)),
        ("link_naks_sent", Metric::U64(0)),
        ("link_naks_lost", Metric::U64(0)),
        ("link_code_changes", Metric::U64(0)),
    ];

    /// Writes them into the direction's row.
    pub fn report(&self, out: &mut Metrics) {
        out.set("link_transmissions", self.transmissions);
        out.set("link_overhead_bytes", self.overhead_bytes);
        out.set("link_naks_sent", self.naks_sent);
        out.set("link_naks_lost", self.naks_lost);
        out.set("link_code_changes", self.code_changes);
    }
}

/// When a link that judges each packet as it starts is free again: the end of what it
/// has on the air (the key drawn when it started). Shared by the link layers that know a
/// packet's fate at once (`Plain`, `Arq`), which need an event at that end only when a
/// packet waits in the queue: otherwise the next packet simply finds the link free.
#[derive(Clone, Copy, Debug, Default)]
pub struct BusyUntil(Option<Key>);

impl BusyUntil {
    pub fn ready(&self, now: SimTime) -> bool {
        self.0.is_none_or(|k| k.time <= now)
    }
    pub fn set(&mut self, end: Key) {
        self.0 = Some(end);
    }
    pub fn next_wake(&self, queued: bool) -> Option<Key> {
        self.0.filter(|_| queued)
    }
    /// The deadline `key` has come: free if it is this link's.
    pub fn on_wake(&mut self, key: Key) {
        if self.0 == Some(key) {
            self.0 = None;
        }
    }
    pub fn clear(&mut self) {
        self.0 = None;
    }
}

pub trait LinkLayer {
    /// Whether it can take the next packet from the queue at `now`.
    fn ready(&self, now: SimTime) -> bool;
    /// Starts carrying `pkt` at `now`; returns the fate of a packet it is done with, if
    /// any: `pkt`'s own when it is known at once (a plain frame: the channel judges the
    /// whole span when it starts).
    fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome>;
    /// When it next needs `on_wake`, given whether packets wait in the queue (a link
    /// that is only waiting to become free needs no event when nothing waits). Never a
    /// key that has already passed.
    fn next_wake(&self, queued: bool) -> Option<Key>;
    /// Acts at the deadline `key`; returns the packet it is done with, if any.
    fn on_wake(&mut self, now: SimTime, key: Key, ctx: &mut LinkCtx) -> Option<LinkOutcome>;
    /// Asked when it is ready and a packet waits, before that packet leaves the queue:
    /// whether the packet, which joined the queue at `arrived`, stays queued past `now`
    /// because the capacity cannot serve it yet (`Capacity::first_service`: Mahimahi
    /// serves only at its opportunities, and only packets queued before one). If so the
    /// link is not ready until then and `next_wake` gives that time (never, when the
    /// capacity has run out). A link layer that does not ask starts frames at once.
    fn holds(&mut self, _now: SimTime, _arrived: SimTime, _tickets: &mut Tickets) -> bool {
        false
    }
    /// Packets it holds: begun, fate not yet handed out.
    fn held(&self) -> usize;
    /// Gives up every packet it holds (the link went down) and forgets what it was
    /// sending.
    fn drain(&mut self, f: &mut dyn FnMut(Packet));
    fn counters(&self) -> LinkLayerCounters {
        LinkLayerCounters::default()
    }
}

// One line per link layer (`closed::family!`): its module, its runtime type (boxed or
// not) and its table. The doc comments are the schema's descriptions (`lossy schema`).
family! {
    runtime {
        /// Every built-in link layer. Only the plain link is held inline: every link
        /// direction holds one, and the others' state (framing, code ladders) would pad
        /// each plain link to their size (issue 28; `layout_tests.rs` bounds it).
        pub enum AnyLinkLayer via each_link;
        impl LinkLayer {
            fn ready(&self, now: SimTime) -> bool;
            fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome>;
            fn next_wake(&self, queued: bool) -> Option<Key>;
            fn on_wake(&mut self, now: SimTime, key: Key, ctx: &mut LinkCtx) -> Option<LinkOutcome>;
            fn holds(&mut self, now: SimTime, arrived: SimTime, tickets: &mut Tickets) -> bool;
            fn held(&self) -> usize;
            fn drain(&mut self, f: &mut dyn FnMut(Packet));
            fn counters(&self) -> LinkLayerCounters;
        }
    }
    config {
        /// How a link direction carries packets.
        #[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
        #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
        pub enum LinkLayerConfig via each_link_config;
        impl LinkLayerSpec {
            fn validate(&self) -> Result<(), String>;
            fn check_payload(&self, largest: u64) -> Result<(), String>;
            fn frame(&self, largest: u64) -> Result<(u64, Coding), String>;
            fn is_adaptive(&self) -> bool;
            fn sender_chosen_codes(&self) -> Option<usize>;
            fn build(&self, capacity: AnyCapacity, delay: SimDuration, nak_stream: &mut dyn FnMut() -> RngStream) -> AnyLinkLayer;
        }
    }
    schemes {
        /// Each packet is one frame (in codewords when coded); the channel decides whether it
        /// arrives.
        plain::Plain(Plain, PlainConfig),
        /// Segmentation with NAK-based selective-repeat ARQ (Chockalingam et al. §II): each
        /// packet is cut into link packets of `payload` data bytes, each resent on a NAK up
        /// to `attempts` transmissions in all; a link packet out of attempts loses its
        /// packet, which the transport then recovers. NAKs are instantaneous and error-free
        /// (the paper's assumption, §III) unless a `nak` table says otherwise.
        arq::Arq(Arq, ArqConfig),
        /// Adaptive FEC (Miyoshi §4): each packet one frame, as `plain`, in one of `codes`
        /// (weakest first). The TCP sender picks the code and asks for it in each data
        /// segment's header (its `tcp.adaptive_fec`, fed by ELN), unless `control` gives the
        /// link its own controller, fed by its own frames' outcomes.
        adaptive_fec::AdaptiveFec(Box<AdaptiveFec>, AdaptiveFecConfig),
    }
}
