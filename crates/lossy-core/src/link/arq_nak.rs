//! Selective-repeat ARQ whose NAKs take time and may be lost (issue 11; the paper's NAKs
//! are instantaneous and error-free, Chockalingam et al. §III, which is `arq.rs`). Link
//! packets are cut and sent as there (`Framing`); what changes is when a NAKed link
//! packet can go again, and so that several packets are in progress at once:
//!
//! - The receiver finds a link packet bad when it has arrived (its end + the link's
//!   delay) and sends a NAK back: the NAK's air time at the link's rate plus its delay
//!   (`NakTiming::back`). Each NAK is lost with probability `loss`, from the direction's
//!   own stream (`link:A->B:nak`, so NAK loss never moves the channel's draws); the
//!   receiver repeats a lost NAK `timeout` after sending it, and a lost NAK costs the
//!   link packet no attempt. NAKs travel beside the reverse direction's traffic, not in
//!   its queue (a control channel): they neither wait behind nor delay its packets.
//! - Meanwhile the sender keeps sending (selective repeat, §II): the next link packets
//!   of the packet it is sending, and when it has none left, the next packet from the
//!   queue. A link packet whose NAK has arrived goes before any new link packet, in the
//!   order the NAKs arrived.
//! - n_l still bounds each link packet's transmissions. The receiver gives a packet up
//!   when one of its link packets fails its n_l-th transmission, and ignores the rest of
//!   it; it NAKs that failure too, and the sender, counting the transmissions, learns
//!   from that NAK to stop sending the packet (until then it may waste air time on it).
//! - The receiver hands a packet on when all its link packets are through: in order (a
//!   packet waits for every earlier one to be through or given up; IS-99's RLP) or as
//!   it completes (`Delivery`).
//!
//! Each transmission is judged by the channel when it starts, as `Plain` and `arq.rs`
//! do: transmissions follow one another, so the channel is asked in time order, and a
//! packet's fate (through at its last link packet's end, or given up) is known when
//! that transmission starts. The packet then enters the pipeline at once (due at that
//! end + delay, or later if it waits for an earlier one), so the link needs events only
//! at the ends of its transmissions and at the NAKs' arrivals.

use super::framing::Framing;
use super::nak_config::{Delivery, NakTiming};
use super::{LinkCtx, LinkLayer, LinkLayerCounters};
use crate::engine::{Key, Tickets};
use crate::fate::{DropCause, LinkOutcome};
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::SimTime;
use crate::timers::TimerTable;
use std::collections::VecDeque;

/// A NAK: link packet `index` of the packet numbered `seq` failed its `sent`-th
/// transmission.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Nak {
    seq: u64,
    index: u32,
    sent: u32,
}

/// Where a packet stands at the receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rx {
    /// This many of its link packets are not through yet (sent or not).
    Missing(u32),
    /// All through; the last one's transmission ended at this time.
    Through(SimTime),
    /// Given up when a link packet's n_l-th transmission, ending at this time, failed.
    GivenUp(SimTime),
}

impl Rx {
    /// When the receiver was done with the packet, either way.
    fn settled(self) -> Option<SimTime> {
        match self {
            Rx::Missing(_) => None,
            Rx::Through(t) | Rx::GivenUp(t) => Some(t),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct InProgress {
    pkt: Packet,
    pieces: u32,
    /// Its first link packet not sent yet.
    next_new: u32,
    rx: Rx,
    /// Handed to the segment (delivered or lost).
    reported: bool,
    /// The sender knows the receiver gave it up.
    aborted: bool,
}

#[derive(Clone, Debug)]
pub struct ArqNak {
    framing: Framing,
    timing: NakTiming,
    delivery: Delivery,
    /// `link:A->B:nak`: which NAKs are lost.
    rng: RngStream,
    /// Packets in progress in the order they began; the front is numbered `first_seq`.
    packets: VecDeque<InProgress>,
    first_seq: u64,
    /// In order: the next packet to hand on, and the latest time one was (a later one
    /// never goes before it).
    next_report: u64,
    released: SimTime,
    /// Packets begun and not yet handed on.
    unreported: usize,
    /// NAKs on their way back, by the key of their arrival (none is ever cancelled).
    naks: TimerTable<Nak, Key>,
    /// Link packets whose NAK has arrived, to be sent again before any new one.
    due: VecDeque<Nak>,
    /// The end of the transmission on the air (its wake always comes: see `next_wake`).
    on_air: Option<Key>,
    /// The capacity's first opportunity for the packet at the head of the queue, when it
    /// arrived between opportunities (`holds`): the link takes no new packet before it.
    waiting: Option<Key>,
    /// Fates decided and not yet handed out, oldest first: one per call, the rest at
    /// `flush`, a deadline at the moment they were decided.
    done: VecDeque<LinkOutcome>,
    flush: Option<Key>,
}

impl ArqNak {
    pub fn new(framing: Framing, timing: NakTiming, delivery: Delivery, rng: RngStream) -> Self {
        ArqNak {
            framing,
            timing,
            delivery,
            rng,
            packets: VecDeque::new(),
            first_seq: 0,
            next_report: 0,
            released: SimTime::ZERO,
            unreported: 0,
            naks: TimerTable::default(),
            due: VecDeque::new(),
            on_air: None,
            waiting: None,
            done: VecDeque::new(),
            flush: None,
        }
    }

    /// The oldest fate decided, if any; a deadline now for the next one.
    fn hand_out(&mut self, now: SimTime, tickets: &mut Tickets) -> Option<LinkOutcome> {
        let first = self.done.pop_front();
        self.flush = (!self.done.is_empty()).then(|| tickets.key(now));
        first
    }

    fn get(&mut self, seq: u64) -> Option<&mut InProgress> {
        let i = seq.checked_sub(self.first_seq)?;
        self.packets.get_mut(i as usize)
    }

    /// A new link packet is left to send: the newest packet's, unless given up.
    fn new_left(&self) -> bool {
        self.packets.back().is_some_and(|p| !p.aborted && p.next_new < p.pieces)
    }

    /// The NAKs that have arrived by `now` join the retransmissions due; a NAK of a
    /// link packet out of attempts tells the sender to stop sending its packet.
    fn take_naks(&mut self, now: SimTime) {
        while let Some((_, nak)) = self.naks.pop_due(now) {
            if nak.sent == self.framing.attempts {
                if let Some(p) = self.get(nak.seq) {
                    p.aborted = true;
                }
                self.tidy();
            } else {
                self.due.push_back(nak);
            }
        }
    }

    /// The next link packet to send, as (packet, index, transmissions so far): a due
    /// retransmission first (skipping those of packets given up), else a new one.
    fn next_to_send(&mut self) -> Option<(u64, u32, u32)> {
        while let Some(n) = self.due.pop_front() {
            if self.get(n.seq).is_some_and(|p| !p.aborted) {
                return Some((n.seq, n.index, n.sent));
            }
        }
        if !self.new_left() {
            return None;
        }
        let seq = self.first_seq + self.packets.len() as u64 - 1;
        let p = self.packets.back_mut()?;
        p.next_new += 1;
        Some((seq, p.next_new - 1, 0))
    }

    /// Puts the next link packet on the air at `now`, if there is one.
    fn send_next(&mut self, now: SimTime, ctx: &mut LinkCtx) {
        let Some((seq, index, sent)) = self.next_to_send() else { return };
        let size = self.get(seq).expect("live").pkt.size;
        let shape = self.framing.shape(size, index);
        let (end, through) = self.framing.transmit(now, shape, sent == 0, ctx);
        self.on_air = Some(ctx.tickets.key(end));
        self.judge(seq, index, sent + 1, end, through, ctx.tickets);
    }

    /// What the receiver makes of the `sent`-th transmission of link packet `index` of
    /// packet `seq`, ending at `end`.
    fn judge(&mut self, seq: u64, index: u32, sent: u32, end: SimTime, through: bool, tickets: &mut Tickets) {
        let attempts = self.framing.attempts;
        let p = self.get(seq).expect("live");
        // A packet the receiver gave up: the rest of it is ignored.
        let Rx::Missing(missing) = p.rx else { return };
        if through {
            p.rx = if missing == 1 { Rx::Through(end) } else { Rx::Missing(missing - 1) };
        } else {
            if sent == attempts {
                p.rx = Rx::GivenUp(end);
            }
            self.nak(Nak { seq, index, sent }, end, tickets);
        }
        if self.get(seq).expect("live").rx.settled().is_some() {
            self.resolved(seq);
        }
    }

    /// The receiver NAKs a link packet found bad at `end` + delay; each lost NAK is
    /// repeated `timeout` after it was sent (one geometric draw: the NAKs lost in a row).
    fn nak(&mut self, nak: Nak, end: SimTime, tickets: &mut Tickets) {
        let t = self.timing;
        let lost = if t.loss > 0.0 { self.rng.geometric_failures(1.0 - t.loss) } else { 0 };
        self.framing.counters.naks_sent += lost + 1;
        self.framing.counters.naks_lost += lost;
        let arrives = tickets.key(end + t.forward + t.timeout.saturating_mul(lost) + t.back);
        self.naks.arm(arrives, nak);
    }

    /// Packet `seq` is through or given up at the receiver: hand it on, in order (with
    /// every later one that was waiting for it) or at once.
    fn resolved(&mut self, seq: u64) {
        if self.delivery == Delivery::AsCompleted {
            let rx = self.get(seq).expect("live").rx;
            self.report(seq, rx, None);
        } else {
            while let Some((rx, t)) = self.get(self.next_report).and_then(|p| Some((p.rx, p.rx.settled()?))) {
                // IS-99 RLP: a packet goes up no earlier than the one before it.
                self.released = self.released.max(t);
                self.report(self.next_report, rx, Some(self.released));
                self.next_report += 1;
            }
        }
        self.tidy();
    }

    /// Hands packet `seq` on: delivered, its last bit sent at `at` (default: when its
    /// last link packet ended), or lost.
    fn report(&mut self, seq: u64, rx: Rx, at: Option<SimTime>) {
        let p = self.get(seq).expect("live");
        p.reported = true;
        let pkt = p.pkt;
        self.unreported -= 1;
        self.done.push_back(match rx {
            Rx::Through(end) => LinkOutcome::Delivered(pkt, at.unwrap_or(end)),
            _ => LinkOutcome::Lost(pkt, DropCause::LinkRetry),
        });
    }

    /// Forgets the oldest packets once handed on and of no more use to the sender (all
    /// through, or the sender knows they were given up).
    fn tidy(&mut self) {
        while self.packets.front().is_some_and(|p| p.reported && (p.aborted || matches!(p.rx, Rx::Through(_)))) {
            self.packets.pop_front();
            self.first_seq += 1;
        }
    }
}

// Its per-event methods stay out of line (`#[inline(never)]`): inlined into the link
// layers' dispatch they would crowd the plain link's path in the segment.
impl LinkLayer for ArqNak {
    /// Free, with no retransmission due or arrived and nothing left of the packets in
    /// progress: only then does the link take the next packet from the queue.
    #[inline(never)]
    fn ready(&self, now: SimTime) -> bool {
        self.on_air.is_none_or(|k| k.time <= now)
            && self.waiting.is_none_or(|k| k.time <= now)
            && self.due.is_empty()
            && !self.new_left()
            && self.naks.next().is_none_or(|k| k.time > now)
    }

    #[inline(never)]
    fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        debug_assert!(self.ready(now));
        let pieces = self.framing.pieces(pkt.size).max(1);
        self.packets.push_back(InProgress { pkt, pieces, next_new: 0, rx: Rx::Missing(pieces), reported: false, aborted: false });
        self.unreported += 1;
        self.send_next(now, ctx);
        self.hand_out(now, ctx.tickets)
    }

    /// The end of every transmission, whether or not anything waits (so the link never
    /// holds a key that has passed, and a NAK arriving as a transmission ends is always
    /// taken before the link picks what to send next), the next NAK's arrival, and the
    /// moment fates wait to be handed out.
    #[inline(never)]
    fn next_wake(&self, _queued: bool) -> Option<Key> {
        [self.on_air, self.waiting, self.naks.next(), self.flush].into_iter().flatten().min()
    }

    #[inline(never)]
    fn on_wake(&mut self, now: SimTime, _key: Key, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        self.take_naks(now);
        if self.on_air.is_some_and(|k| k.time <= now) {
            self.on_air = None;
        }
        if self.waiting.is_some_and(|k| k.time <= now) {
            self.waiting = None;
        }
        if self.on_air.is_none() {
            self.send_next(now, ctx);
        }
        self.hand_out(now, ctx.tickets)
    }

    /// Waits until its capacity can serve the packet (a trace's next opportunity after
    /// its arrival), as the plain link and the instant ARQ do; NAKed link packets already
    /// in progress are not held (they are the link's, not the queue's).
    #[inline(never)]
    fn holds(&mut self, now: SimTime, arrived: SimTime, tickets: &mut Tickets) -> bool {
        let at = self.framing.first_service(now, arrived);
        if at == now {
            return false;
        }
        self.waiting = Some(tickets.key(at));
        true
    }

    fn serves_due_before_arrivals(&self) -> bool {
        self.framing.serves_due_before_arrivals()
    }

    /// Packets in progress, and those decided but not yet handed out.
    fn held(&self) -> usize {
        self.unreported + self.done.len()
    }

    /// Everything held goes (a fate decided but not handed out included: the link went
    /// down first).
    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        for o in self.done.drain(..) {
            f(match o {
                LinkOutcome::Delivered(p, _) | LinkOutcome::Lost(p, _) => p,
            });
        }
        self.flush = None;
        self.packets.iter().filter(|p| !p.reported).for_each(|p| f(p.pkt));
        self.first_seq += self.packets.len() as u64;
        self.next_report = self.first_seq;
        // What was handed on is drained from the pipeline too: nothing to wait behind.
        self.released = SimTime::ZERO;
        self.packets.clear();
        self.unreported = 0;
        self.naks.clear();
        self.due.clear();
        self.waiting = None;
        self.on_air = None;
    }

    fn counters(&self) -> LinkLayerCounters {
        self.framing.counters
    }
}

#[cfg(test)]
#[path = "arq_nak_tests.rs"]
mod tests;
