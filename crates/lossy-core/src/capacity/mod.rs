//! Link capacity: a link direction's service process, the seam under the link layers
//! (issue 26 item 3). A link layer puts frames on the air and asks its capacity when
//! each one's last bit has left; consumers that need one number for the link (RED's
//! idle-time packet count and `ptc`, a NAK's air time, the Markov fit's packet time)
//! ask for the nominal rate, named for what it is. The link layers, the queue
//! disciplines and the fit never hold a rate of their own.
//!
//! Kinds: `ConstantRate` (the scenario's `rate = "2Mbps"`) today. A trace of delivery
//! opportunities (Mahimahi's `mm-link`, `src/frontend/link_queue.cc`: each trace line an
//! opportunity for 1504 bytes at an integer millisecond, bytes accounted across frames,
//! wrapping at the trace's end) or a piecewise-constant rate schedule is one more file
//! here and one line in the `family!` list below ([`AnyCapacity`]): `frame_end` is stateful (`&mut self`) so such
//! a kind consumes its opportunities as frames take them, and starts from any time, so
//! it needs no event of its own.

use crate::closed::family;
use crate::time::SimTime;

pub trait Capacity {
    /// When the last bit of a frame of `bits` put on the air at `start` has left. The
    /// frame takes the capacity it uses: frames are asked about in the order they go on
    /// the air, each starting no earlier than the previous one's end.
    fn frame_end(&mut self, start: SimTime, bits: u64) -> SimTime;
    /// The long-run rate in bit/s, for what needs the link summed up in one number (a
    /// trace's mean capacity): never used to time a frame.
    fn nominal_rate_bps(&self) -> u64;
}

// One line per kind (`closed::family!`): its module and its type.
family! {
    runtime {
        /// Every kind of link capacity (unboxed: asked once per frame).
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyCapacity via each_capacity;
        impl Capacity {
            fn frame_end(&mut self, start: SimTime, bits: u64) -> SimTime;
            fn nominal_rate_bps(&self) -> u64;
        }
    }
    schemes {
        constant_rate::ConstantRate(ConstantRate),
    }
}
