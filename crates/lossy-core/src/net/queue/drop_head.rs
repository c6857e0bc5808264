//! Drop-head: first in, first out, but when an arrival does not fit the oldest packets
//! are dropped to make room (Linux `net/sched/sch_fifo.c`, `pfifo_head_drop`'s
//! `pfifo_tail_enqueue`: a full queue drops its head and queues the arrival; Linux has
//! it for a packet limit only, and a byte limit here drops as many heads as the arrival
//! needs). The losses reach the sender a queue's worth of time sooner than drop-tail's.

use super::drop_tail::DropTail;
use super::{AnyQueueDisc, DropSink, QueueDisc, QueueDiscSpec};
use crate::capacity::AnyCapacity;
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use crate::units::QueueLimit;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "drop_head"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DropHeadConfig {
    /// Packets or bytes the queue holds, not counting the one being sent.
    pub limit: QueueLimit,
}

impl QueueDiscSpec for DropHeadConfig {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
    fn build(&self, _capacity: &AnyCapacity, _delay: SimDuration, _rng: RngStream) -> Result<AnyQueueDisc, String> {
        Ok(DropHead { fifo: DropTail::new(self.limit), limit: self.limit }.into())
    }
    fn drops_queued(&self) -> Option<&'static str> {
        Some("drop_head drops the oldest queued packet to make room")
    }
}

#[derive(Clone, Debug)]
pub struct DropHead {
    fifo: DropTail,
    limit: QueueLimit,
}

impl DropHead {
    #[cfg(test)]
    pub fn new(limit: QueueLimit) -> Self {
        DropHead { fifo: DropTail::new(limit), limit }
    }
}

impl QueueDisc for DropHead {
    // Not inlined into `AnyQueueDisc`'s dispatch, which stays small enough to inline
    // drop-tail's path into the link (issue 28's hot path).
    #[inline(never)]
    fn enqueue(&mut self, _now: SimTime, pkt: Packet, dropped: DropSink) {
        // A packet larger than a byte limit could never fit: it is the one dropped,
        // rather than emptying the queue for nothing.
        if matches!(self.limit, QueueLimit::Bytes(b) if pkt.size as u64 > b) {
            return dropped(pkt);
        }
        while !self.fifo.fits(pkt.size) {
            dropped(self.fifo.pop().expect("a packet that fits an empty queue"));
        }
        self.fifo.push(pkt).expect("room was made");
    }

    // Not inlined into `AnyQueueDisc`'s dispatch, which stays small enough to inline
    // drop-tail's path into the link (issue 28's hot path).
    #[inline(never)]
    fn dequeue(&mut self, _now: SimTime, _dropped: DropSink) -> Option<Packet> {
        self.fifo.pop()
    }

    fn len(&self) -> usize {
        self.fifo.len()
    }

    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        self.fifo.drain(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::queue::testing::{offer_dropping, take};

    fn pkt(seq: u64, size: u16) -> Packet {
        Packet::udp(0, 0, 1, seq, size as u32, size)
    }

    fn seq(p: &Packet) -> u64 {
        match p.header {
            crate::packet::Header::Udp(u) => u.seq,
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_full_queue_drops_its_oldest_and_keeps_the_arrival() {
        let mut q = DropHead::new(QueueLimit::Packets(2));
        let mut dropped = Vec::new();
        for s in 0..4 {
            offer_dropping(&mut q, SimTime::ZERO, pkt(s, 100), &mut dropped);
        }
        assert_eq!(dropped.iter().map(seq).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(take(&mut q, SimTime::ZERO).map(|p| seq(&p)), Some(2));
        assert_eq!(take(&mut q, SimTime::ZERO).map(|p| seq(&p)), Some(3));
        assert!(take(&mut q, SimTime::ZERO).is_none());
    }

    #[test]
    fn a_byte_limit_drops_as_many_old_packets_as_the_arrival_needs() {
        let mut q = DropHead::new(QueueLimit::Bytes(300));
        let mut dropped = Vec::new();
        for s in 0..3 {
            offer_dropping(&mut q, SimTime::ZERO, pkt(s, 100), &mut dropped);
        }
        assert!(dropped.is_empty());
        offer_dropping(&mut q, SimTime::ZERO, pkt(3, 250), &mut dropped);
        assert_eq!(dropped.iter().map(seq).collect::<Vec<_>>(), [0, 1, 2]);
        // Too large for the limit at all: the arrival itself goes, the queue stays.
        offer_dropping(&mut q, SimTime::ZERO, pkt(4, 301), &mut dropped);
        assert_eq!(dropped.iter().map(seq).collect::<Vec<_>>(), [0, 1, 2, 4]);
        assert_eq!(q.len(), 1);
    }
}
