//! The plain link layer: each packet is one frame, serialised at the link's rate, and
//! the channel decides whether it arrives. No retransmission.
//!
//! The frame's span (start, end, bits) is known when it starts, so the channel judges
//! it then and a delivered packet enters the propagation pipeline at once, due at
//! end + delay; the channel's draws come in transmission order either way. The link
//! needs an event at the frame's end only when a packet waits in the queue: otherwise
//! the next packet simply finds it free. This saves the end-of-frame event of every
//! packet that does not queue (most ACKs, uncongested hops).

use super::{BusyUntil, LinkCtx, LinkLayer, LinkOutcome};
use crate::channel::{LossProcess, TxSpan};
use crate::engine::Key;
use crate::net::DropCause;
use crate::packet::Packet;
use crate::time::{serialization_delay, SimTime};

#[derive(Clone, Debug)]
pub struct Plain {
    rate_bps: u64,
        busy: BusyUntil,
}

impl Plain {
    pub fn new(rate_bps: u64) -> Self {
        Plain { rate_bps, busy: BusyUntil::default() }
    }
}

impl LinkLayer for Plain {
    fn ready(&self, now: SimTime) -> bool {
        self.busy.ready(now)
    }

    fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        debug_assert!(self.ready(now), "one frame at a time");
        let end = ctx.tickets.key(now + serialization_delay(pkt.bits(), self.rate_bps));
        self.busy.set(end);
        let span = TxSpan { start: now, end: end.time, bits: pkt.bits() };
        Some(if ctx.channel.lost(span, ctx.rng) {
            LinkOutcome::Lost(pkt, DropCause::Channel)
        } else {
            LinkOutcome::Delivered(pkt, end.time)
        })
    }

    fn next_wake(&self, queued: bool) -> Option<Key> {
        self.busy.next_wake(queued)
    }

    fn on_wake(&mut self, _now: SimTime, key: Key, _ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        self.busy.on_wake(key);
        None
    }

    /// The frame on the air is already in the pipeline (or lost): the link holds none.
    fn held(&self) -> usize {
        0
    }

    fn drain(&mut self, _f: &mut dyn FnMut(Packet)) {
        self.busy.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{Bernoulli, BernoulliConfig, Channel};
    use crate::engine::Tickets;
    use crate::rng::RngStream;

    #[test]
    fn a_frame_is_judged_at_its_start_and_keeps_the_link_busy_until_its_end() {
        let mut l = Plain::new(1_000_000);
        let mut tickets = Tickets::default();
        let mut ch = Channel::Bernoulli(Bernoulli::new(&BernoulliConfig { p: 1.0 }));
        let mut rng = RngStream::new(1, 0, "t");
        let mut ctx = LinkCtx { channel: &mut ch, rng: &mut rng, tickets: &mut tickets };
        let p = Packet::udp(0, 0, 1, 0, 972, 1000);
        assert_eq!(l.begin(SimTime::ZERO, p, &mut ctx), Some(LinkOutcome::Lost(p, DropCause::Channel)));
        let end = SimTime(8_000_000);
        assert!(!l.ready(SimTime(7_999_999)) && l.ready(end));
        // An event at the end only when a packet waits.
        assert_eq!(l.next_wake(false), None);
        let key = l.next_wake(true).unwrap();
        assert_eq!(key.time, end);
        assert_eq!(l.on_wake(end, key, &mut ctx), None);
        assert_eq!(l.next_wake(true), None);
    }
}
