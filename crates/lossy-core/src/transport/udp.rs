//! UDP with a constant-bit-rate source: one datagram every packet_size·8/rate seconds.

use crate::packet::{Flags, FlowId, Kind, NodeId, Packet};
use crate::time::{serialization_delay, SimDuration, SimTime};

pub struct CbrSource {
    flow: FlowId,
    src: NodeId,
    dst: NodeId,
    payload: u32,
    header: u32,
    interval: SimDuration,
    remaining: Option<u64>,
    next_seq: u64,
    pub datagrams_sent: u64,
}

impl CbrSource {
    pub fn new(flow: FlowId, src: NodeId, dst: NodeId, rate_bps: u64, payload: u32, header: u32, packets: Option<u64>) -> Self {
        CbrSource {
            flow,
            src,
            dst,
            payload,
            header,
            interval: serialization_delay(payload as u64 * 8, rate_bps),
            remaining: packets,
            next_seq: 0,
            datagrams_sent: 0,
        }
    }

    pub fn interval(&self) -> SimDuration {
        self.interval
    }

    pub fn finished(&self) -> bool {
        self.remaining == Some(0)
    }

    pub fn bytes_sent(&self) -> u64 {
        self.next_seq
    }

    /// The next datagram, unless the source has sent all it was asked to.
    pub fn emit(&mut self, now: SimTime) -> Option<Packet> {
        if let Some(n) = self.remaining.as_mut() {
            if *n == 0 {
                return None;
            }
            *n -= 1;
        }
        let seq = self.next_seq;
        self.next_seq += self.payload as u64;
        self.datagrams_sent += 1;
        Some(Packet {
            uid: 0,
            flow: self.flow,
            src: self.src,
            dst: self.dst,
            kind: Kind::Udp,
            seq,
            ack: 0,
            wnd: 0,
            len: self.payload,
            size: self.payload + self.header,
            flags: Flags::default(),
            sent_at: now,
        })
    }
}

/// Counts what arrives.
#[derive(Default)]
pub struct UdpSink {
    pub datagrams: u64,
    pub bytes: u64,
}

impl UdpSink {
    pub fn handle(&mut self, p: &Packet) {
        self.datagrams += 1;
        self.bytes += p.len as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_matches_the_rate_and_count_stops() {
        let mut s = CbrSource::new(0, 0, 1, 1_000_000, 1000, 28, Some(2));
        assert_eq!(s.interval(), SimDuration::from_millis(8));
        assert_eq!(s.emit(SimTime::ZERO).unwrap().size, 1028);
        assert_eq!(s.emit(SimTime::ZERO).unwrap().seq, 1000);
        assert!(s.emit(SimTime::ZERO).is_none());
        assert!(s.finished());
    }
}
