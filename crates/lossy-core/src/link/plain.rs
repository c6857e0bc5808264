//! The plain link layer: each packet is one frame, its end given by the link's capacity,
//! and the channel decides whether it arrives. No retransmission. A coded frame travels
//! as whole codewords (`coding/frame.rs`): its air time includes the parity, and it
//! arrives when every codeword holds at most t bit errors.
//!
//! The frame's span (start, end, bits) is known when it starts, so the channel judges
//! it then and a delivered packet enters the propagation pipeline at once, due at
//! end + delay; the channel's draws come in transmission order either way. The link
//! needs an event at the frame's end only when a packet waits in the queue: otherwise
//! the next packet simply finds it free. This saves the end-of-frame event of every
//! packet that does not queue (most ACKs, uncongested hops).

use super::config::{LinkLayerConfig, LinkLayerSpec};
use super::{AnyLinkLayer, BusyUntil, LinkCtx, LinkLayer, LinkLayerCounters};
use crate::capacity::{AnyCapacity, Capacity};
use crate::channel::coded_frame::frame_survives;
use crate::channel::TxSpan;
use crate::coding::frame::{Coding, CodingConfig};
use crate::engine::{Key, Tickets};
use crate::fate::{DropCause, LinkOutcome};
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "plain"`: the default link layer.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlainConfig {
    /// FEC of the frame, e.g. `{ code = "bch", n = 127, k = 92 }`; none by default.
    #[serde(default, skip_serializing_if = "CodingConfig::is_none")]
    pub coding: CodingConfig,
}

impl Default for LinkLayerConfig {
    fn default() -> Self {
        PlainConfig::default().into()
    }
}

impl LinkLayerSpec for PlainConfig {
    fn validate(&self) -> Result<(), String> {
        self.coding.build().map(drop).map_err(|m| format!("coding.{m}"))
    }
    fn frame(&self, largest: u64) -> Result<(u64, Coding), String> {
        Ok((largest, self.coding.build()?))
    }
    fn build(&self, capacity: AnyCapacity, _delay: SimDuration, _nak_stream: &mut dyn FnMut() -> RngStream) -> AnyLinkLayer {
        Plain::new(capacity, self.coding.build().expect("validated")).into()
    }
}

/// How a frame link picks the coding of each packet's frame, and what it learns from
/// the frame's fate: one fixed [`Coding`] for the plain link, a ladder of codes for the
/// adaptive FEC link (`adaptive_fec.rs`).
pub trait CodeChoice {
    /// The coding of `pkt`'s frame.
    fn pick(&mut self, pkt: &Packet) -> &Coding;
    /// Whether that frame was lost.
    fn learn(&mut self, _lost: bool) {}
    /// Times the coding changed between frames.
    fn changes(&self) -> u64 {
        0
    }
}

impl CodeChoice for Coding {
    #[inline]
    fn pick(&mut self, _pkt: &Packet) -> &Coding {
        self
    }
}

/// A link layer that sends each packet as one frame, coded as `C` picks.
#[derive(Clone, Debug)]
pub struct FrameLink<C> {
    capacity: AnyCapacity,
    busy: BusyUntil,
    /// A frame its capacity can never finish (a trace played once ran out while it was
    /// on the air: mm-link's packet in transit when `finished`): it never leaves, and
    /// the link sends nothing more.
    stuck: Option<Box<Packet>>,
    /// Parity bytes sent (0 uncoded); frames are the packets, so no transmissions count.
    overhead_bytes: u64,
    scratch: Vec<u32>,
    pub(super) choice: C,
}

/// The plain link: one coding for every frame.
pub type Plain = FrameLink<Coding>;

impl Plain {
    pub fn new(capacity: impl Into<AnyCapacity>, coding: Coding) -> Self {
        FrameLink::with_choice(capacity.into(), coding)
    }
}

impl<C> FrameLink<C> {
    pub(super) fn with_choice(capacity: AnyCapacity, choice: C) -> Self {
        FrameLink { capacity, busy: BusyUntil::default(), stuck: None, overhead_bytes: 0, scratch: Vec::new(), choice }
    }
}

impl<C: CodeChoice> LinkLayer for FrameLink<C> {
    fn ready(&self, now: SimTime) -> bool {
        self.busy.ready(now)
    }

    fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        debug_assert!(self.ready(now), "one frame at a time");
        let coding = self.choice.pick(&pkt);
        let bits = coding.coded_bits(pkt.bits());
        let end = ctx.tickets.key(self.capacity.frame_end(now, bits));
        self.busy.set(end);
        if end.time == SimTime::MAX {
            self.stuck = Some(Box::new(pkt));
            return None;
        }
        let span = TxSpan { start: now, end: end.time, bits };
        self.overhead_bytes += (bits - pkt.bits()) / 8;
        let lost = !frame_survives(coding, span, pkt.bits(), ctx.channel, ctx.rng, &mut self.scratch);
        self.choice.learn(lost);
        Some(if lost { LinkOutcome::Lost(pkt, DropCause::Channel) } else { LinkOutcome::Delivered(pkt, end.time) })
    }

    fn next_wake(&self, queued: bool) -> Option<Key> {
        self.busy.next_wake(queued)
    }

    fn on_wake(&mut self, _now: SimTime, key: Key, _ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        self.busy.on_wake(key);
        None
    }

    /// Waits until its capacity can serve the packet (a trace's next opportunity after
    /// the packet's arrival), or for ever when the capacity has run out.
    fn holds(&mut self, now: SimTime, arrived: SimTime, tickets: &mut Tickets) -> bool {
        let at = self.capacity.first_service(now, arrived);
        if at == now {
            return false;
        }
        self.busy.set(tickets.key(at));
        true
    }

    /// The frame on the air is already in the pipeline (or lost): the link holds none,
    /// but a frame that can never finish.
    fn held(&self) -> usize {
        self.stuck.is_some() as usize
    }

    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        self.busy.clear();
        if let Some(p) = self.stuck.take() {
            f(*p);
        }
    }

    fn counters(&self) -> LinkLayerCounters {
        LinkLayerCounters { overhead_bytes: self.overhead_bytes, code_changes: self.choice.changes(), ..LinkLayerCounters::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capacity::ConstantRate;
    use crate::channel::{Bernoulli, BernoulliConfig, Channel};
    use crate::engine::Tickets;
    use crate::rng::RngStream;
    use crate::time::SimDuration;

    #[test]
    fn a_frame_is_judged_at_its_start_and_keeps_the_link_busy_until_its_end() {
        let mut l = Plain::new(ConstantRate::new(1_000_000), Coding::None);
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

    /// A Mahimahi trace with opportunities at 1 and 2 ms, played once (`capacity/mahimahi_trace.rs`).
    fn sparse_trace() -> crate::capacity::MahimahiTrace {
        let runs = crate::capacity::mahimahi_trace::Opportunities::from_runs(vec![(1, 1), (2, 1)]).unwrap();
        crate::capacity::MahimahiTrace::new(std::sync::Arc::new(runs), true)
    }

    #[test]
    fn a_trace_link_holds_the_packet_queued_until_its_first_opportunity() {
        let mut l = Plain::new(sparse_trace(), Coding::None);
        let mut tickets = Tickets::default();
        let mut ch = Channel::Bernoulli(Bernoulli::new(&BernoulliConfig { p: 0.0 }));
        let mut rng = RngStream::new(1, 0, "t");
        // Arrived at 0: held until 1 ms, with a wake then; a constant rate never holds.
        assert!(l.holds(SimTime::ZERO, SimTime::ZERO, &mut tickets));
        assert!(!l.ready(SimTime(999_999)) && l.ready(SimTime(1_000_000)));
        let wake = l.next_wake(true).unwrap();
        assert_eq!(wake.time, SimTime(1_000_000));
        assert!(!Plain::new(ConstantRate::new(1_000_000), Coding::None).holds(SimTime::ZERO, SimTime::ZERO, &mut tickets));
        let mut ctx = LinkCtx { channel: &mut ch, rng: &mut rng, tickets: &mut tickets };
        l.on_wake(wake.time, wake, &mut ctx);
        assert!(!l.holds(wake.time, SimTime::ZERO, ctx.tickets));
        // 2000 B: 1504 at 1 ms, 496 at 2 ms.
        let p = Packet::udp(0, 0, 1, 0, 1972, 2000);
        assert_eq!(l.begin(wake.time, p, &mut ctx), Some(LinkOutcome::Delivered(p, SimTime(2_000_000))));
        // The next one cannot finish before the trace ends: it never leaves, and the link
        // holds it until it is drained.
        assert!(!l.holds(SimTime(2_000_000), SimTime(1_500_000), ctx.tickets));
        assert_eq!(l.begin(SimTime(2_000_000), p, &mut ctx), None);
        assert_eq!(l.held(), 1);
        assert!(!l.ready(SimTime(u64::MAX - 1)));
        let mut drained = Vec::new();
        l.drain(&mut |q| drained.push(q));
        assert_eq!((drained, l.held()), (vec![p], 0));
    }

    #[test]
    fn a_coded_frame_carries_its_parity_and_survives_correctable_errors() {
        // Miyoshi's 100-byte segment in BCH(127,92) codewords: ⌈800/92⌉ = 9 of 127 bits.
        let code = crate::coding::BchCode::new(127, 92).unwrap();
        let mut l = Plain::new(ConstantRate::new(1_000_000), Coding::from(code));
        let mut tickets = Tickets::default();
        // BER 1e-3 on 127 bits: P(> 5 errors in a codeword) ≈ 3e-7, so nearly every frame arrives.
        let mut ch = Channel::Ber(crate::channel::Ber::new(&crate::channel::BerConfig { ber: 1e-3 }));
        let mut rng = RngStream::new(1, 0, "t");
        let mut ctx = LinkCtx { channel: &mut ch, rng: &mut rng, tickets: &mut tickets };
        let p = Packet::udp(0, 0, 1, 0, 60, 100);
        let mut delivered = 0;
        let mut now = SimTime::ZERO;
        for _ in 0..100 {
            if let Some(LinkOutcome::Delivered(_, end)) = l.begin(now, p, &mut ctx) {
                delivered += 1;
                assert_eq!(end, now + SimDuration(1_143_000)); // 9·127 bits at 1 Mbit/s
            }
            now += SimDuration(2_000_000);
        }
        assert!(delivered >= 99, "{delivered}");
        assert_eq!(l.counters().overhead_bytes, 100 * ((9 * 127 - 800) / 8));
    }
}
