//! Output queues. DropTail now; RED with ECN marking comes with the ECN issue and will
//! sit behind the same `enqueue`/`dequeue` pair.

use crate::packet::Packet;
use crate::units::QueueLimit;
use std::collections::VecDeque;

/// A first-in first-out queue that drops arrivals when full (limit in packets or bytes).
#[derive(Clone, Debug)]
pub struct DropTail {
    buf: VecDeque<Packet>,
    limit: QueueLimit,
    bytes: u64,
}

impl DropTail {
    pub fn new(limit: QueueLimit) -> Self {
        let cap = match limit {
            QueueLimit::Packets(n) => n.min(4096) as usize,
            QueueLimit::Bytes(_) => 64,
        };
        DropTail { buf: VecDeque::with_capacity(cap), limit, bytes: 0 }
    }

    /// Adds `p`; gives it back if the queue is full.
    pub fn enqueue(&mut self, p: Packet) -> Result<(), Packet> {
        let full = match self.limit {
            QueueLimit::Packets(n) => self.buf.len() as u64 >= n,
            QueueLimit::Bytes(b) => self.bytes + p.size as u64 > b,
        };
        if full {
            return Err(p);
        }
        self.bytes += p.size as u64;
        self.buf.push_back(p);
        Ok(())
    }

    pub fn dequeue(&mut self) -> Option<Packet> {
        let p = self.buf.pop_front()?;
        self.bytes -= p.size as u64;
        Some(p)
    }

    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn iter(&self) -> impl Iterator<Item = &Packet> {
        self.buf.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{Flags, Kind};
    use crate::time::SimTime;

    fn pkt(size: u32) -> Packet {
        Packet { uid: 0, flow: 0, src: 0, dst: 1, kind: Kind::Udp, seq: 0, ack: 0, wnd: 0, len: size, size, flags: Flags::default(), sent_at: SimTime::ZERO }
    }

    #[test]
    fn packet_limit_drops_the_arrival() {
        let mut q = DropTail::new(QueueLimit::Packets(2));
        assert!(q.enqueue(pkt(10)).is_ok());
        assert!(q.enqueue(pkt(10)).is_ok());
        assert!(q.enqueue(pkt(10)).is_err());
        assert_eq!(q.len(), 2);
    }

    #[test]
    fn byte_limit_counts_sizes_fifo() {
        let mut q = DropTail::new(QueueLimit::Bytes(100));
        assert!(q.enqueue(pkt(60)).is_ok());
        assert!(q.enqueue(pkt(50)).is_err());
        assert!(q.enqueue(pkt(40)).is_ok());
        assert_eq!(q.bytes(), 100);
        assert_eq!(q.dequeue().unwrap().size, 60);
        assert_eq!(q.bytes(), 40);
    }
}
