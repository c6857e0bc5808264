//! The plain link layer: each packet is one frame, serialised at the link's rate; the
//! channel decides at the frame's end whether it arrives. No retransmission.

use super::{LinkCtx, LinkLayer, LinkOutcome};
use crate::channel::{LossProcess, TxSpan};
use crate::engine::{Key, Tickets};
use crate::net::DropCause;
use crate::packet::Packet;
use crate::time::{serialization_delay, SimTime};

#[derive(Clone, Debug)]
struct InService {
    pkt: Packet,
    start: SimTime,
    end: Key,
}

#[derive(Clone, Debug)]
pub struct Plain {
    rate_bps: u64,
    in_service: Option<InService>,
}

impl Plain {
    pub fn new(rate_bps: u64) -> Self {
        Plain { rate_bps, in_service: None }
    }
}

impl LinkLayer for Plain {
    fn ready(&self) -> bool {
        self.in_service.is_none()
    }

    fn begin(&mut self, now: SimTime, pkt: Packet, tickets: &mut Tickets) {
        debug_assert!(self.in_service.is_none(), "one frame at a time");
        let end = tickets.key(now + serialization_delay(pkt.bits(), self.rate_bps));
        self.in_service = Some(InService { pkt, start: now, end });
    }

    fn next_wake(&self) -> Option<Key> {
        self.in_service.as_ref().map(|s| s.end)
    }

    fn on_wake(&mut self, now: SimTime, key: Key, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        if self.next_wake() != Some(key) {
            return None;
        }
        let s = self.in_service.take()?;
        let span = TxSpan { start: s.start, end: now, bits: s.pkt.bits() };
        Some(if ctx.channel.lost(span, ctx.rng) {
            LinkOutcome::Lost(s.pkt, DropCause::Channel)
        } else {
            LinkOutcome::Delivered(s.pkt)
        })
    }

    fn held(&self) -> usize {
        self.in_service.is_some() as usize
    }

    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        if let Some(s) = self.in_service.take() {
            f(s.pkt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{Bernoulli, BernoulliConfig, Channel};
    use crate::rng::RngStream;

    #[test]
    fn a_frame_takes_its_serialisation_time_and_the_channel_decides() {
        let mut l = Plain::new(1_000_000);
        let mut tickets = Tickets::default();
        let p = Packet::udp(0, 0, 1, 0, 972, 1000);
        l.begin(SimTime::ZERO, p, &mut tickets);
        assert!(!l.ready());
        let key = l.next_wake().unwrap();
        assert_eq!(key.time, SimTime(8_000_000));
        let mut ch = Channel::Bernoulli(Bernoulli::new(&BernoulliConfig { p: 1.0 }));
        let mut rng = RngStream::new(1, 0, "t");
        let mut ctx = LinkCtx { channel: &mut ch, rng: &mut rng, tickets: &mut tickets };
        assert_eq!(l.on_wake(key.time, key, &mut ctx), Some(LinkOutcome::Lost(p, DropCause::Channel)));
        assert!(l.ready() && l.held() == 0);
    }
}
