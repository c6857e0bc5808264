//! A first-in first-out queue that remembers when each packet arrived, for the
//! disciplines that judge sojourn times (CoDel, FQ-CoDel's flows, PIE, drop-head). The
//! time lives here, not in `Packet`, whose size is on every packet's path.

use crate::packet::Packet;
use crate::time::SimTime;
use crate::units::QueueLimit;
use std::collections::VecDeque;

#[derive(Clone, Debug, Default)]
pub struct TimedFifo {
    buf: VecDeque<(SimTime, Packet)>,
    bytes: u64,
}

impl TimedFifo {
    pub fn push(&mut self, now: SimTime, p: Packet) {
        self.bytes += p.size as u64;
        self.buf.push_back((now, p));
    }

    /// The oldest packet and when it arrived.
    pub fn pop(&mut self) -> Option<(SimTime, Packet)> {
        let (t, p) = self.buf.pop_front()?;
        self.bytes -= p.size as u64;
        Some((t, p))
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

    /// When the oldest packet arrived.
    pub fn head_time(&self) -> Option<SimTime> {
        self.buf.front().map(|&(t, _)| t)
    }

    pub fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        self.bytes = 0;
        self.buf.drain(..).for_each(|(_, p)| f(p));
    }
}

/// Whether `len` packets of `bytes` bytes plus one of `size` bytes are within `limit`
/// (the limit does not count the packet being sent, as DropTail's).
pub fn fits(limit: QueueLimit, len: usize, bytes: u64, size: u16) -> bool {
    match limit {
        QueueLimit::Packets(n) => (len as u64) < n,
        QueueLimit::Bytes(b) => bytes + size as u64 <= b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_arrival_times_and_bytes_in_order() {
        let mut q = TimedFifo::default();
        q.push(SimTime(5), Packet::udp(0, 0, 1, 0, 100, 100));
        q.push(SimTime(9), Packet::udp(0, 0, 1, 0, 40, 40));
        assert_eq!((q.len(), q.bytes(), q.head_time()), (2, 140, Some(SimTime(5))));
        assert_eq!(q.pop().map(|(t, p)| (t, p.size)), Some((SimTime(5), 100)));
        assert_eq!((q.bytes(), q.head_time()), (40, Some(SimTime(9))));
        assert!(fits(QueueLimit::Bytes(100), q.len(), q.bytes(), 60) && !fits(QueueLimit::Bytes(100), q.len(), q.bytes(), 61));
        assert!(fits(QueueLimit::Packets(2), q.len(), q.bytes(), 1500) && !fits(QueueLimit::Packets(1), q.len(), q.bytes(), 1));
    }
}
