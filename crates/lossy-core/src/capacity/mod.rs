//! Link capacity: a link direction's service process, the seam under the link layers
//! (issue 26 item 3). A link layer puts frames on the air and asks its capacity when
//! each one's last bit has left; consumers that need one number for the link (RED's
//! idle-time packet count and `ptc`, a NAK's air time, the Markov fit's packet time)
//! ask for the nominal rate, named for what it is. The link layers, the queue
//! disciplines and the fit never hold a rate of their own.
//!
//! Kinds (issue 30): a constant rate (the scenario's `rate = "2Mbps"`, or `capacity =
//! { kind = "constant", rate }`), a trace of delivery opportunities replayed with
//! Mahimahi's rules (`mahimahi_trace.rs`, `src/frontend/link_queue.cc`) and a
//! piecewise-constant rate schedule (`rate_schedule.rs`, Lumos5G's logs). `frame_end` is
//! stateful (`&mut self`) so a trace consumes its opportunities as frames take them, and
//! starts from any time, so it needs no event of its own; `first_service` lets a link
//! layer keep a packet in its queue until the capacity can first serve it (Mahimahi
//! serves only at its opportunities, and only packets that arrived before one).

use crate::closed::family;
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub mod parsed;

pub trait Capacity {
    /// When the last bit of a frame of `bits` put on the air at `start` has left. The
    /// frame takes the capacity it uses: frames are asked about in the order they go on
    /// the air, each starting no earlier than the previous one's end. `SimTime::MAX`
    /// when it never leaves (a trace played once has ended first).
    fn frame_end(&mut self, start: SimTime, bits: u64) -> SimTime;
    /// The long-run rate in bit/s, for what needs the link summed up in one number (a
    /// trace's mean capacity): never used to time a frame.
    fn nominal_rate_bps(&self) -> u64;
    /// The earliest time, no earlier than `now`, at which the frame of a packet that
    /// joined the queue at `arrived` (≤ `now`) can take its first bit, or `SimTime::MAX`
    /// for never. A link layer that asks keeps the packet queued until then (so a
    /// drop-tail limit counts it as Mahimahi's queue does) and starts the frame then. A
    /// capacity that serves at any time (a constant rate) serves at once.
    fn first_service(&self, now: SimTime, _arrived: SimTime) -> SimTime {
        now
    }
}

/// What every capacity table does; [`CapacityConfig`] delegates to it, so a new kind
/// implements it in its own file and adds one line to the list.
pub trait CapacitySpec {
    /// `field: message` for a value no capacity can have, the file's contents included
    /// (`field` unprefixed: the caller nests it under `links.<i>.capacity`).
    fn validate(&self) -> Result<(), String>;
    /// The capacity of one direction, fresh (a trace's state starts at its beginning).
    /// Call `validate` first.
    fn build(&self) -> AnyCapacity;
}

// One line per kind (`closed::family!`): its module, its runtime type and its table. The
// doc comments are the schema's descriptions (`lossy schema`).
family! {
    runtime {
        /// Every kind of link capacity (the constant rate inline: asked once per frame;
        /// the traces boxed, so a plain link stays small).
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyCapacity via each_capacity;
        impl Capacity {
            fn frame_end(&mut self, start: SimTime, bits: u64) -> SimTime;
            fn nominal_rate_bps(&self) -> u64;
            fn first_service(&self, now: SimTime, arrived: SimTime) -> SimTime;
        }
    }
    config {
        /// A link direction's capacity: `{ kind = "constant", rate }`, `{ kind =
        /// "mahimahi", file, once }` or `{ kind = "rate_schedule", file, interval, once }`.
        #[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
        #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
        pub enum CapacityConfig via each_capacity_config;
        impl CapacitySpec {
            fn validate(&self) -> Result<(), String>;
            fn build(&self) -> AnyCapacity;
        }
    }
    schemes {
        /// A constant bit rate: a frame of l bits takes l/rate (the same as the link's `rate`).
        #[serde(rename = "constant")]
        constant_rate::ConstantRate(ConstantRate, ConstantRateConfig),
        /// A Mahimahi trace (mm-link, `src/frontend/link_queue.cc`): each line an opportunity
        /// to send 1504 bytes at an integer millisecond from the run's start, bytes counted
        /// across packets, unused opportunities wasted; it wraps unless `once`.
        #[serde(rename = "mahimahi")]
        mahimahi_trace::MahimahiTrace(Box<MahimahiTrace>, MahimahiTraceConfig),
        /// A piecewise-constant rate, one sample per `interval` (Lumos5G's `<second> <Mbit/s>`
        /// logs): line i holds over [(i-1)·interval, i·interval); a zero rate is an outage;
        /// it wraps unless `once`.
        rate_schedule::RateSchedule(Box<RateSchedule>, RateScheduleConfig),
    }
}
