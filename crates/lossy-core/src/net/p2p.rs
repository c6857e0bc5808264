//! The point-to-point segment: a full-duplex link whose two directions each run
//! `QueueDisc → LinkLayer → LossProcess → Pipeline` (docs/architecture.md#packet-flow).
//! Port 0 is the first node toward the second, port 1 the way back.

use super::pipeline::Pipeline;
use super::queue::{AnyQueueDisc, QueueDisc};
use super::{Arrival, DropCause, DropCounts, Dropped, NetOut, PortEnds, Segment, Tally};
use crate::capture::{Capture, CaptureSink};
use crate::channel::Channel;
use crate::engine::{Key, Tickets};
use crate::fate::LinkOutcome;
use crate::link::{AnyLinkLayer, LinkCtx, LinkLayer};
use crate::packet::{NodeId, Packet};
use crate::result::LinkSummary;
use super::link_columns::link_metrics;
use super::queue_delay::QueueDelayRecord;
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use std::collections::VecDeque;

/// Counts of one direction, for its summary row and the conservation check.
#[derive(Clone, Debug, Default)]
pub struct DirCounters {
    /// Packets offered to the direction (queued or refused).
    pub offered: u64,
    pub drops: DropCounts,
    /// Packets that crossed the channel.
    pub delivered: u64,
    pub bytes_delivered: u64,
    /// Delivered packets whose last bit may still be on the air: (when it leaves, bytes).
    /// `throughput_bps` leaves out those still on the air at the run's end, so it never
    /// exceeds the rate (issue 27: a 9000 B frame on the air at the end of a 0.1 s run
    /// gave 145 % of a 1 Mb/s link). The latest is kept inline in `latest` (a link sends
    /// one frame at a time, so it is nearly always the only one); `on_air` holds older
    /// ones still on the air, oldest first, pruned at each delivery.
    pub latest: Option<(SimTime, u64)>,
    pub on_air: VecDeque<(SimTime, u64)>,
}

impl DirCounters {
    /// A packet crossed the channel at `now`, its last bit sent at `sent`.
    #[inline]
    fn deliver(&mut self, now: SimTime, sent: SimTime, bytes: u64) {
        self.delivered += 1;
        self.bytes_delivered += bytes;
        if let Some(l) = self.latest.filter(|&(t, _)| t > now) {
            self.keep_older(now, l);
        }
        self.latest = (sent > now).then_some((sent, bytes));
    }

    /// A second frame ends after `now` while `older` is still on the air (not the plain
    /// link's path): `older` waits in `on_air`, which drops what has left by `now`.
    #[cold]
    #[inline(never)]
    fn keep_older(&mut self, now: SimTime, older: (SimTime, u64)) {
        while self.on_air.front().is_some_and(|&(t, _)| t <= now) {
            self.on_air.pop_front();
        }
        self.on_air.push_back(older);
    }

    /// Bytes delivered whose last bit was sent by `end_s`.
    pub fn bytes_sent_by(&self, end_s: f64) -> u64 {
        let late: u64 = self.on_air.iter().chain(&self.latest).filter(|(t, _)| t.as_secs_f64() > end_s).map(|&(_, b)| b).sum();
        self.bytes_delivered - late
    }
}

/// One direction of the link.
pub struct Direction {
    pub name: String,
    pub from: NodeId,
    pub to: NodeId,
    pub delay: SimDuration,
    pub queue: AnyQueueDisc,
    pub link: AnyLinkLayer,
    pub channel: Channel,
    /// The channel's own stream (`link:A->B:channel`).
    pub channel_rng: RngStream,
    pub pipeline: Pipeline<Packet>,
    pub counters: DirCounters,
    /// Records what the direction delivers (`[capture]`); `None` costs one test per packet.
    pub capture: Option<Box<CaptureSink>>,
    /// The earliest of the link layer's and the pipeline's deadlines, kept current by
    /// `refresh` after every change (read once or twice per event).
    pub next: Option<Key>,
    /// The link layer's part of `next` as `refresh` last read it: a packet leaving the
    /// pipeline changes neither the link nor the queue, so its wake reads only the
    /// pipeline (`refresh_pipeline`), not the link layer's and queue's dispatch again.
    pub link_next: Option<Key>,
    /// Sojourns and the time-weighted queue length (issue 29).
    pub queue_delay: QueueDelayRecord,
}

impl Direction {
    fn drop(&mut self, pkt: Packet, cause: DropCause, out: &mut NetOut) {
        self.counters.drops.count(cause);
        out.drops.push(Dropped { pkt, cause, from: self.from, to: self.to });
    }

    /// Returns whether the direction's next deadline moved.
    fn send(&mut self, now: SimTime, pkt: Packet, tickets: &mut Tickets, out: &mut NetOut) -> bool {
        self.counters.offered += 1;
        let was_empty = self.queue.is_empty();
        // The delay record holds what the discipline holds: a refused arrival (the last
        // packet dropped, `QueueDisc::enqueue`) never joins it, a packet dropped from the
        // queue leaves it unserved.
        let (uid, size) = (pkt.uid, pkt.size);
        let first_drop = out.drops.len();
        let (from, to, drops) = (self.from, self.to, &mut self.counters.drops);
        let accepted = self.queue.enqueue(now, pkt, &mut |p| queue_drop(p, from, to, drops, out));
        let queued_drops = out.drops.len() - !accepted as usize;
        for d in &out.drops[first_drop..queued_drops] {
            self.queue_delay.dropped(now, d.pkt.uid);
        }
        if accepted {
            self.queue_delay.arrived(now, uid, size);
        }
        let began = self.pull(now, tickets, out);
        // A packet now waits behind a busy (or holding) link: the link wants its event.
        // Otherwise nothing that sets the deadline changed, and the world need not re-arm.
        let moved = began || (was_empty && !self.queue.is_empty());
        moved && self.refresh()
    }

    /// Hands the link layer the next queued packet when it can take one; returns
    /// whether a transmission began or the link set a wake to serve the packet later
    /// (`LinkLayer::holds`: the packet stays queued until its capacity can serve it).
    fn pull(&mut self, now: SimTime, tickets: &mut Tickets, out: &mut NetOut) -> bool {
        if !self.link.ready(now) {
            return false;
        }
        if !self.queue.is_empty() && self.link.holds(now, self.queue_delay.head_arrival(now), tickets) {
            return true;
        }
        let (from, to, drops, delay) = (self.from, self.to, &mut self.counters.drops, &mut self.queue_delay);
        let Some(p) = self.queue.dequeue(now, &mut |p| {
            delay.dropped(now, p.uid);
            queue_drop(p, from, to, drops, out)
        }) else {
            return false;
        };
        self.queue_delay.left(now, p.uid, self.queue.len());
        let mut ctx = LinkCtx { channel: &mut self.channel, rng: &mut self.channel_rng, tickets };
        if let Some(outcome) = self.link.begin(now, p, &mut ctx) {
            self.finish(now, outcome, tickets, out);
        }
        true
    }

    /// `finish` for a packet a link layer hands out as it wakes (only the delayed-NAK
    /// ARQ does): kept apart, so that `finish` stays inlined in `pull`, the plain link's
    /// path.
    #[cold]
    #[inline(never)]
    fn finish_woken(&mut self, now: SimTime, outcome: LinkOutcome, tickets: &mut Tickets, out: &mut NetOut) {
        self.finish(now, outcome, tickets, out);
    }

    /// The link layer is done with a packet: into the pipeline, or dropped. Inlined (as
    /// is `Pipeline::push`), as the compiler did when `pull` was its only caller.
    #[inline(always)]
    fn finish(&mut self, now: SimTime, outcome: LinkOutcome, tickets: &mut Tickets, out: &mut NetOut) {
        match outcome {
            LinkOutcome::Delivered(p, sent) => {
                self.counters.deliver(now, sent, p.size as u64);
                if let Some(c) = &mut self.capture {
                    c.record(sent + self.delay, &p);
                }
                self.pipeline.push(sent + self.delay, tickets.draw(), p);
            }
            LinkOutcome::Lost(p, cause) => self.drop(p, cause, out),
        }
    }

    /// Recomputes `next`; returns whether it changed (a frame that began behind others
    /// already in the pipeline moves no deadline: most sends on a busy path).
    #[inline]
    fn refresh(&mut self) -> bool {
        self.link_next = self.link.next_wake(!self.queue.is_empty());
        self.refresh_pipeline()
    }

    /// `refresh` after a change to the pipeline alone (the link's part is unchanged).
    #[inline]
    fn refresh_pipeline(&mut self) -> bool {
        let next = earliest(self.link_next, self.pipeline.next_wake());
        let moved = next != self.next;
        self.next = next;
        moved
    }

    /// Acts on `key` if it is one of this direction's deadlines.
    fn wake(&mut self, now: SimTime, key: Key, tickets: &mut Tickets, out: &mut NetOut) -> bool {
        if self.next != Some(key) {
            return false;
        }
        // `key` is the link's or the pipeline's (tickets are unique).
        debug_assert_eq!(self.link_next, self.link.next_wake(!self.queue.is_empty()));
        if self.link_next != Some(key) {
            let (node, from) = (self.to, self.from);
            self.pipeline.wake(key, |pkt| out.arrivals.push_back(Arrival { node, from, pkt }));
            self.refresh_pipeline();
        } else {
            let mut ctx = LinkCtx { channel: &mut self.channel, rng: &mut self.channel_rng, tickets };
            if let Some(outcome) = self.link.on_wake(now, key, &mut ctx) {
                self.finish_woken(now, outcome, tickets, out);
            }
            self.pull(now, tickets, out);
            self.refresh();
        }
        true
    }

    /// Drops everything the direction holds (the link went down).
    fn flush(&mut self, now: SimTime, out: &mut NetOut) {
        self.queue_delay.flushed(now);
        let mut lost = Vec::new();
        self.queue.drain(&mut |p| lost.push(p));
        self.link.drain(&mut |p| lost.push(p));
        self.pipeline.drain(|p| lost.push(p));
        for p in lost {
            self.drop(p, DropCause::LinkDown, out);
        }
        self.refresh();
    }

    fn held(&self) -> u64 {
        (self.queue.len() + self.link.held() + self.pipeline.held()) as u64
    }
}

/// A packet the queue discipline dropped (an arrival, or one it held: CoDel drops at
/// dequeue, drop-head and FQ-CoDel from a queue's head); `Direction::drop` for the
/// queue, which the closure given to the discipline cannot borrow whole.
#[inline]
fn queue_drop(pkt: Packet, from: NodeId, to: NodeId, drops: &mut DropCounts, out: &mut NetOut) {
    drops.count(DropCause::Queue);
    out.drops.push(Dropped { pkt, cause: DropCause::Queue, from, to });
}

/// The earlier of two optional deadlines.
#[inline]
fn earliest(a: Option<Key>, b: Option<Key>) -> Option<Key> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

pub struct PointToPoint {
    dirs: [Direction; 2],
    up: bool,
}

impl PointToPoint {
    /// `dirs[0]` runs from the first node to the second, `dirs[1]` back.
    pub fn new(dirs: [Direction; 2], up: bool) -> Self {
        debug_assert!(dirs[0].from == dirs[1].to && dirs[0].to == dirs[1].from);
        PointToPoint { dirs, up }
    }

    /// Puts `channel` on direction `dir` (0 or 1) before the run: a Markov fit's chain,
    /// fitted after the world was checked (`scenario/build.rs`).
    pub fn set_channel(&mut self, dir: usize, channel: Channel) {
        self.dirs[dir].channel = channel;
    }
}

impl Segment for PointToPoint {
    fn ports(&self) -> Vec<PortEnds> {
        self.dirs.iter().map(|d| PortEnds { from: d.from, to: d.to }).collect()
    }

    fn port_up(&self, _iface: usize) -> bool {
        self.up
    }

    fn send(&mut self, now: SimTime, iface: usize, pkt: Packet, tickets: &mut Tickets, out: &mut NetOut) -> bool {
        let d = &mut self.dirs[iface];
        if self.up {
            return d.send(now, pkt, tickets, out);
        }
        d.counters.offered += 1;
        d.drop(pkt, DropCause::LinkDown, out);
        false
    }

    #[inline]
    fn next_wake(&self) -> Option<Key> {
        earliest(self.dirs[0].next, self.dirs[1].next)
    }

    fn wake(&mut self, now: SimTime, key: Key, tickets: &mut Tickets, out: &mut NetOut) {
        let [a, b] = &mut self.dirs;
        if !a.wake(now, key, tickets, out) {
            b.wake(now, key, tickets, out);
        }
    }

    fn set_attached(&mut self, now: SimTime, node: NodeId, up: bool, out: &mut NetOut) -> bool {
        let ends = self.dirs[0].from == node || self.dirs[0].to == node;
        if !ends || self.up == up {
            return false;
        }
        self.up = up;
        if !up {
            self.dirs.iter_mut().for_each(|d| d.flush(now, out));
        }
        true
    }

    fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for d in &self.dirs {
            t.add(&Tally { drops: d.counters.drops, duplicated: d.pipeline.counters.duplicated, held: d.held() });
        }
        t
    }

    fn take_captures(&mut self, out: &mut Vec<Capture>) {
        for d in &mut self.dirs {
            if let Some(c) = d.capture.take() {
                out.push(c.finish(d.name.clone()));
            }
        }
    }

    fn sojourn_trace(&self, row: usize) -> &[(u64, u64)] {
        self.dirs[row].queue_delay.trace()
    }

    fn report(&self, end_s: f64, out: &mut Vec<LinkSummary>) {
        for d in &self.dirs {
            let c = &d.counters;
            let q = d.queue.stats(end_s);
            let on_channel = c.delivered + c.drops.channel;
            let mut metrics = link_metrics();
            metrics.set("link_retry_drops", c.drops.link_retry);
            d.link.counters().report(&mut metrics);
            metrics.set("link_down_drops", c.drops.link_down);
            d.pipeline.counters.report(&mut metrics);
            q.report(c.drops.queue, &mut metrics);
            d.queue_delay.report(end_s, &mut metrics);
            out.push(LinkSummary {
                name: d.name.clone(),
                packets_offered: c.offered,
                queue_drops: c.drops.queue,
                channel_losses: c.drops.channel,
                packets_delivered: c.delivered,
                throughput_bps: if end_s > 0.0 { c.bytes_sent_by(end_s) as f64 * 8.0 / end_s } else { 0.0 },
                loss_rate: if on_channel > 0 { c.drops.channel as f64 / on_channel as f64 } else { 0.0 },
                metrics,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> SimTime {
        SimTime(n * 1_000_000)
    }

    #[test]
    fn frames_still_on_the_air_at_the_end_are_left_out_when_two_overlap() {
        let mut c = DirCounters::default();
        c.deliver(ms(0), ms(10), 100);
        // A second frame ends after the first while that one is still on the air (the
        // inline slot hands the older one to the deque).
        c.deliver(ms(1), ms(20), 200);
        // The first has left by 15 ms; the second is still on the air.
        c.deliver(ms(15), ms(30), 400);
        assert_eq!((c.delivered, c.bytes_delivered), (3, 700));
        assert_eq!(c.bytes_sent_by(0.016), 100);
        assert_eq!(c.bytes_sent_by(0.025), 300);
        assert_eq!(c.bytes_sent_by(0.031), 700);
        // A frame already sent when it is delivered is never on the air.
        c.deliver(ms(40), ms(40), 50);
        assert_eq!(c.bytes_sent_by(0.040), 750);
    }
}
