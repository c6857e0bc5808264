//! DropTail: first in, first out; an arrival that does not fit is dropped (ns-2's
//! `DropTail`, ns-3's `DropTailQueue`), with a limit in packets or bytes that does not
//! count the packet being sent.

use super::{AnyQueueDisc, DropSink, QueueConfig, QueueDisc, QueueDiscSpec};
use crate::capacity::AnyCapacity;
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use crate::units::QueueLimit;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// `kind = "drop_tail"`, or the queue given as a bare limit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DropTailConfig {
    /// Packets or bytes the queue holds, not counting the one being sent.
    pub limit: QueueLimit,
}

impl QueueDiscSpec for DropTailConfig {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
    fn build(&self, _capacity: &AnyCapacity, _delay: SimDuration, _rng: RngStream) -> Result<AnyQueueDisc, String> {
        Ok(DropTail::new(self.limit).into())
    }
    fn as_limit(&self) -> Option<QueueLimit> {
        Some(self.limit)
    }
}

impl QueueConfig {
    /// A DropTail queue of `limit`: what a bare limit (`queue = "100 packets"`) means.
    pub fn drop_tail(limit: QueueLimit) -> Self {
        QueueConfig(DropTailConfig { limit }.into())
    }
}

#[derive(Clone, Debug)]
pub struct DropTail {
    buf: VecDeque<Packet>,
    limit: QueueLimit,
    bytes: u64,
}

impl DropTail {
    /// An empty queue; its buffer grows with use (a link that never queues costs nothing,
    /// which matters with thousands of links) and then keeps its capacity.
    pub fn new(limit: QueueLimit) -> Self {
        DropTail { buf: VecDeque::new(), limit, bytes: 0 }
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Whether a packet of `size` bytes fits under the limit.
    pub fn fits(&self, size: u16) -> bool {
        match self.limit {
            QueueLimit::Packets(n) => (self.buf.len() as u64) < n,
            QueueLimit::Bytes(b) => self.bytes + size as u64 <= b,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The packet that arrived last.
    #[cfg(test)]
    pub fn last(&self) -> Option<&Packet> {
        self.buf.back()
    }
}

impl DropTail {
    /// Queues `p` if it fits; gives it back if not.
    #[inline]
    pub fn push(&mut self, p: Packet) -> Result<(), Packet> {
        if !self.fits(p.size) {
            return Err(p);
        }
        self.bytes += p.size as u64;
        self.buf.push_back(p);
        Ok(())
    }

    #[inline]
    pub fn pop(&mut self) -> Option<Packet> {
        let p = self.buf.pop_front()?;
        self.bytes -= p.size as u64;
        Some(p)
    }
}

// Inlined: drop-tail is on every plain link's per-packet path (issue 28's hot path).
impl QueueDisc for DropTail {
    #[inline]
    fn enqueue(&mut self, _now: SimTime, p: Packet, dropped: DropSink) {
        if let Err(p) = self.push(p) {
            dropped(p);
        }
    }

    #[inline]
    fn dequeue(&mut self, _now: SimTime, _dropped: DropSink) -> Option<Packet> {
        self.pop()
    }

    #[inline]
    fn len(&self) -> usize {
        self.buf.len()
    }

    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        self.bytes = 0;
        self.buf.drain(..).for_each(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::queue::testing::{offer, take};

    fn pkt(size: u16) -> Packet {
        Packet::udp(0, 0, 1, 0, size as u32, size)
    }

    const T: SimTime = SimTime::ZERO;

    #[test]
    fn packet_limit_drops_the_arrival() {
        let mut q = DropTail::new(QueueLimit::Packets(2));
        assert!(offer(&mut q, T, pkt(10)).is_ok());
        assert!(offer(&mut q, T, pkt(10)).is_ok());
        assert!(offer(&mut q, T, pkt(10)).is_err());
        assert_eq!(q.len(), 2);
    }

    #[test]
    fn byte_limit_counts_sizes_fifo() {
        let mut q = DropTail::new(QueueLimit::Bytes(100));
        assert!(offer(&mut q, T, pkt(60)).is_ok());
        assert!(offer(&mut q, T, pkt(50)).is_err());
        assert!(offer(&mut q, T, pkt(40)).is_ok());
        assert_eq!(q.bytes(), 100);
        assert_eq!(take(&mut q, T).unwrap().size, 60);
        assert_eq!(q.bytes(), 40);
        let mut n = 0;
        q.drain(&mut |_| n += 1);
        assert_eq!((n, q.len(), q.bytes()), (1, 0, 0));
    }
}
