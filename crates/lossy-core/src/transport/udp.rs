//! UDP with a constant-bit-rate source: one datagram every packet_size·8/rate seconds,
//! from the flow's start; and the sink that counts what arrives.

use super::{AnyEndpoint, Endpoint, FlowEnds, SeenSet, StreamProgress, TransportSpec};
use crate::apps::App;
use crate::packet::{FlowId, Header, NodeId, Packet};
use crate::result::FlowSummary;
use crate::time::{serialization_delay, SimDuration, SimTime};

/// UDP: what carries a datagram application (CBR), whatever the flow's `transport`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UdpTransport;

impl TransportSpec for UdpTransport {
    fn name(&self) -> &'static str {
        "udp"
    }

    /// No variants of its own: the application's kind.
    fn variant(&self, f: &FlowEnds) -> &'static str {
        f.app.kind()
    }

    fn reads_tcp_options(&self) -> bool {
        false
    }

    fn agents_act_on_it(&self) -> bool {
        false
    }

    fn endpoints(&self, f: &FlowEnds) -> crate::error::Result<[AnyEndpoint; 2]> {
        let d = f.app.datagrams().expect("UDP carries datagram applications only (Transport::carrier)");
        if d.packet_size + d.header > super::MAX_PACKET {
            return Err(f.too_big("app.packet_size", "the header", d.packet_size + d.header));
        }
        let source = CbrSource::new(f.flow, f.src, f.dst, f.start, d.rate, d.packet_size as u32, d.header as u32, d.packets);
        Ok([source.into(), UdpSink::new(d.packet_size as u32).into()])
    }
}

pub struct CbrSource {
    flow: FlowId,
    src: NodeId,
    dst: NodeId,
    payload: u32,
    header: u32,
    interval: SimDuration,
    remaining: Option<u64>,
    /// When the next datagram leaves; `None` once the source has sent all it was asked to.
    next_send: Option<SimTime>,
    /// A datagram due now, waiting for `poll_transmit`.
    pending: bool,
    next_seq: u64,
    pub datagrams_sent: u64,
}

impl CbrSource {
    #[allow(clippy::too_many_arguments)] // one per property of the application; called once per flow
    pub fn new(flow: FlowId, src: NodeId, dst: NodeId, start: SimTime, rate_bps: u64, payload: u32, header: u32, packets: Option<u64>) -> Self {
        CbrSource {
            flow,
            src,
            dst,
            payload,
            header,
            interval: serialization_delay(payload as u64 * 8, rate_bps),
            remaining: packets,
            next_send: Some(start),
            pending: false,
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
}

impl Endpoint for CbrSource {
    fn handle_packet(&mut self, _now: SimTime, _pkt: &Packet) {
        // Nothing comes back to a CBR source.
    }

    fn poll_transmit(&mut self, _now: SimTime) -> Option<Packet> {
        if !self.pending {
            return None;
        }
        self.pending = false;
        let seq = self.next_seq;
        self.next_seq += self.payload as u64;
        self.datagrams_sent += 1;
        // Sizes were checked against IPv4's 65,535-byte limit when the scenario was built.
        Some(Packet::udp(self.flow, self.src, self.dst, seq, self.payload, (self.payload + self.header) as u16))
    }

    fn next_timeout(&self) -> Option<SimTime> {
        self.next_send
    }

    fn handle_timeout(&mut self, now: SimTime) {
        if self.next_send.is_none_or(|t| t > now) {
            return;
        }
        if let Some(n) = self.remaining.as_mut() {
            *n -= 1;
        }
        self.pending = true;
        self.next_send = (!self.finished()).then(|| now + self.interval);
    }

    fn progress(&self) -> StreamProgress {
        StreamProgress { highest_sent: self.next_seq, ..StreamProgress::default() }
    }

    /// Every datagram sent carried one payload, numbered by its first byte.
    fn check_invariants(&self) -> Result<(), String> {
        if self.next_seq != self.datagrams_sent * self.payload as u64 {
            return Err(format!("CBR source numbered {} bytes for {} datagrams of {} B", self.next_seq, self.datagrams_sent, self.payload));
        }
        Ok(())
    }

    fn report(&mut self, _end: SimTime, out: &mut FlowSummary) {
        out.metrics.set("bytes_sent", self.bytes_sent());
        out.metrics.set("segments_sent", self.datagrams_sent);
    }
}

/// Counts what arrives. Datagrams the network duplicated are counted apart: a bit per
/// datagram index says which were seen.
#[derive(Default)]
pub struct UdpSink {
    payload: u32,
    seen: SeenSet,
    pub datagrams: u64,
    /// Payload bytes of distinct datagrams.
    pub bytes: u64,
    pub duplicate_bytes: u64,
}

impl UdpSink {
    /// A sink for datagrams of `payload` bytes.
    pub fn new(payload: u32) -> Self {
        UdpSink { payload: payload.max(1), ..Default::default() }
    }
}

impl Endpoint for UdpSink {
    fn handle_packet(&mut self, _now: SimTime, p: &Packet) {
        let Header::Udp(u) = p.header else { return };
        self.datagrams += 1;
        if self.seen.first_time(u.seq / self.payload as u64) {
            self.bytes += u.len as u64;
        } else {
            self.duplicate_bytes += u.len as u64;
        }
    }

    fn poll_transmit(&mut self, _now: SimTime) -> Option<Packet> {
        None
    }

    fn next_timeout(&self) -> Option<SimTime> {
        None
    }

    fn handle_timeout(&mut self, _now: SimTime) {}

    fn progress(&self) -> StreamProgress {
        StreamProgress { delivered: self.bytes, ..StreamProgress::default() }
    }

    /// Each datagram that arrived is counted once, as new or as a duplicate, with the
    /// source's payload size.
    fn check_invariants(&self) -> Result<(), String> {
        if self.bytes + self.duplicate_bytes != self.datagrams * self.payload as u64 {
            return Err(format!(
                "UDP sink counted {} new + {} duplicate bytes for {} datagrams of {} B",
                self.bytes, self.duplicate_bytes, self.datagrams, self.payload
            ));
        }
        Ok(())
    }

    fn report(&mut self, _end: SimTime, out: &mut FlowSummary) {
        out.metrics.set("duplicate_bytes", self.duplicate_bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_matches_the_rate_and_count_stops() {
        let mut s = CbrSource::new(0, 0, 1, SimTime::ZERO, 1_000_000, 1000, 28, Some(2));
        assert_eq!(s.interval(), SimDuration::from_millis(8));
        assert_eq!(s.next_timeout(), Some(SimTime::ZERO));
        s.handle_timeout(SimTime::ZERO);
        assert_eq!(s.poll_transmit(SimTime::ZERO).unwrap().size, 1028);
        assert!(s.poll_transmit(SimTime::ZERO).is_none());
        let t = SimTime::ZERO + s.interval();
        assert_eq!(s.next_timeout(), Some(t));
        s.handle_timeout(t);
        assert_eq!(s.poll_transmit(t).unwrap().header, crate::packet::Header::Udp(crate::packet::Udp { seq: 1000, len: 1000, sent_ns: 0 }));
        assert!(s.finished());
        assert_eq!(s.next_timeout(), None);
    }

    #[test]
    fn sink_counts_payload_and_duplicates_apart() {
        let mut k = UdpSink::new(500);
        k.handle_packet(SimTime::ZERO, &Packet::udp(0, 0, 1, 0, 500, 528));
        k.handle_packet(SimTime::ZERO, &Packet::udp(0, 0, 1, 500, 500, 528));
        k.handle_packet(SimTime::ZERO, &Packet::udp(0, 0, 1, 0, 500, 528));
        assert_eq!((k.datagrams, k.progress().delivered, k.duplicate_bytes), (3, 1000, 500));
        assert_eq!(k.check_invariants(), Ok(()));
        k.bytes += 1;
        assert!(k.check_invariants().unwrap_err().contains("1001 new + 500 duplicate bytes for 3 datagrams"));
    }

    #[test]
    fn a_source_numbering_bytes_it_never_sent_fails_its_check() {
        let mut s = CbrSource::new(0, 0, 1, SimTime::ZERO, 1_000_000, 1000, 28, None);
        s.handle_timeout(SimTime::ZERO);
        s.poll_transmit(SimTime::ZERO).unwrap();
        assert_eq!(s.check_invariants(), Ok(()));
        s.datagrams_sent += 1;
        assert!(s.check_invariants().is_err());
    }
}
