//! The TCP receiver: cumulative ACKs, an out-of-order buffer, immediate duplicate ACKs
//! and optional delayed ACKs (RFC 5681 §4.2). It also checks that the application sees
//! the byte stream in order and exactly once.

use super::ecn::EcnReceiver;
use super::ewln::EwlnEcho;
use super::inference::LossInference;
use super::sack_blocks::SackReporter;
use crate::intervals::IntervalSet;
use crate::packet::{sack_option_bytes, Flags, FlowId, NodeId, Packet, TcpData};
use crate::result::FlowSummary;
use crate::time::{SimDuration, SimTime};
use crate::endpoint::{Endpoint, StreamProgress};

pub struct TcpReceiver {
    flow: FlowId,
    node: NodeId,
    peer: NodeId,
    ack_size: u16,
    wnd: u32,
    delayed_ack: Option<SimDuration>,
    /// Next byte expected (RCV.NXT).
    rcv_nxt: u64,
    /// Out-of-order data held.
    ooo: IntervalSet,
    /// Full-sized in-order segments received since the last ACK.
    unacked_segments: u32,
    ack_now: bool,
    delack_deadline: Option<SimTime>,
    /// Bytes handed to the application, in order.
    pub delivered: u64,
    /// Data segments received, and payload bytes received more than once.
    pub segments_received: u64,
    pub duplicate_bytes: u64,
    pub acks_sent: u64,
    mss: u32,
    pub(crate) ecn: EcnReceiver,
    sack: SackReporter,
    /// Receiver-side loss inference (docs/architecture.md#loss-inference): none or
    /// Syndrome.
    pub(crate) inference: LossInference,
    /// EWLN: the corrupted segment its ACKs name (Shagdar Fig. 2).
    pub(crate) ewln: EwlnEcho,
}

impl TcpReceiver {
    pub fn new(flow: FlowId, node: NodeId, peer: NodeId, mss: u32, ack_size: u16, wnd: u32, delayed_ack: Option<SimDuration>) -> Self {
        TcpReceiver {
            flow,
            node,
            peer,
            ack_size,
            wnd,
            delayed_ack,
            rcv_nxt: 0,
            ooo: IntervalSet::new(),
            unacked_segments: 0,
            ack_now: false,
            delack_deadline: None,
            delivered: 0,
            segments_received: 0,
            duplicate_bytes: 0,
            acks_sent: 0,
            mss,
            ecn: EcnReceiver::default(),
            sack: SackReporter::default(),
            inference: LossInference::None,
            ewln: EwlnEcho::default(),
        }
    }

    /// ECN on (RFC 3168 §6.1.3): echo CE with ECE until CWR.
    pub fn with_ecn(mut self, on: bool) -> Self {
        self.ecn = EcnReceiver::new(on);
        self
    }

    /// SACK on (RFC 2018): every ACK reports up to three blocks held above it.
    pub fn with_sack(mut self, on: bool) -> Self {
        self.sack = SackReporter::new(on);
        self
    }

    /// EWLN on (Shagdar §III B): answer corrupted headers with ACKs naming them.
    pub fn with_ewln(mut self, on: bool) -> Self {
        self.ewln = EwlnEcho::new(on);
        self
    }

    /// Loss inference on the ACKs (Syndrome, Chen et al. 2002).
    pub fn with_inference(mut self, inference: LossInference) -> Self {
        self.inference = inference;
        self
    }

    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    /// Bytes held out of order (in the receive buffer, not yet deliverable).
    pub fn buffered(&self) -> u64 {
        self.ooo.covered()
    }

    pub fn handle_data(&mut self, now: SimTime, pkt: &TcpData) {
        self.segments_received += 1;
        let (start, end) = (pkt.seq, pkt.end_seq());
        let in_order = start <= self.rcv_nxt && end > self.rcv_nxt;
        if end <= self.rcv_nxt {
            // Entirely old: a duplicate. ACK at once so the sender learns RCV.NXT.
            self.duplicate_bytes += end - start;
            self.ack_now = true;
        } else if in_order {
            self.duplicate_bytes += self.rcv_nxt - start;
            self.deliver_to(end);
            let filled_hole = self.absorb_buffered();
            // RFC 5681 §4.2: ACK at once when a segment fills (part of) a gap.
            if filled_hole || !self.ooo.is_empty() {
                self.ack_now = true;
            } else {
                self.count_for_delayed_ack(now, pkt.len);
            }
        } else {
            self.duplicate_bytes += self.ooo.insert(start, end);
            self.sack.on_out_of_order(start);
            // RFC 5681 §4.2: an out-of-order segment is ACKed immediately (a duplicate ACK).
            self.ack_now = true;
        }
    }

    fn count_for_delayed_ack(&mut self, now: SimTime, len: u32) {
        match self.delayed_ack {
            None => self.ack_now = true,
            Some(delay) => {
                if len >= self.mss {
                    self.unacked_segments += 1;
                }
                // RFC 5681 §4.2: ACK at least every second full-sized segment.
                if self.unacked_segments >= 2 {
                    self.ack_now = true;
                } else if self.delack_deadline.is_none() {
                    self.delack_deadline = Some(now + delay);
                }
            }
        }
    }

    /// Delivers in-order bytes up to `end`: exactly once and contiguously.
    fn deliver_to(&mut self, end: u64) {
        assert!(end > self.rcv_nxt, "delivery must advance the stream");
        self.delivered += end - self.rcv_nxt;
        self.rcv_nxt = end;
        debug_assert_eq!(self.delivered, self.rcv_nxt, "stream delivered in order, once");
    }

    /// Moves buffered ranges that are now contiguous into the stream.
    fn absorb_buffered(&mut self) -> bool {
        let mut absorbed = false;
        while let Some((s, e)) = self.ooo.pop_first_at_or_below(self.rcv_nxt) {
            if e > self.rcv_nxt {
                self.duplicate_bytes += self.rcv_nxt - s;
                self.deliver_to(e);
            } else {
                self.duplicate_bytes += e - s;
            }
            absorbed = true;
        }
        absorbed
    }

}

impl Endpoint for TcpReceiver {
    fn handle_packet(&mut self, now: SimTime, pkt: &Packet) {
        if let Some(d) = pkt.tcp_data_header() {
            if pkt.flags.has(Flags::CORRUPT) {
                // A header whose payload a MAC gave up on: no data arrived. With EWLN,
                // answer at once naming it (Fig. 2); without, it is a loss like another.
                self.ewln.on_corrupt(d.seq);
                self.ack_now |= self.ewln.enabled();
                return;
            }
            self.inference.on_data(&d);
            self.handle_data(now, &d);
            self.ewln.on_data(d.seq, d.end_seq(), self.rcv_nxt);
            if self.ecn.on_data(pkt.flags) {
                self.ack_now = true;
            }
        }
    }

    /// The ACK to send now, if one is due.
    fn poll_transmit(&mut self, _now: SimTime) -> Option<Packet> {
        if !self.ack_now {
            return None;
        }
        self.ack_now = false;
        self.unacked_segments = 0;
        self.delack_deadline = None;
        self.acks_sent += 1;
        let mut p = Packet::tcp_ack(self.flow, self.node, self.peer, self.rcv_nxt, self.wnd, self.ack_size);
        if self.sack.enabled() {
            p = p.with_sack(self.sack.blocks(self.rcv_nxt, &self.ooo));
            // ack_size + 28 <= 65,535 was checked when the scenario was built.
            let used = p.tcp_ack_header().map_or(0, |a| a.sack_blocks_used());
            p.size += sack_option_bytes(used);
        }
        self.ecn.mark_ack(&mut p.flags);
        self.inference.note_ack(self.rcv_nxt, &mut p.flags);
        if let Some((offset, first)) = self.ewln.note(self.rcv_nxt) {
            p.flags.set(if first { Flags::EWLN | Flags::EWLN_FIRST } else { Flags::EWLN });
            p.set_ewln_offset(offset);
        }
        Some(p)
    }

    fn next_timeout(&self) -> Option<SimTime> {
        self.delack_deadline
    }

    fn handle_timeout(&mut self, now: SimTime) {
        if self.delack_deadline.is_some_and(|d| d <= now) {
            self.ack_now = true;
        }
    }

    fn progress(&self) -> StreamProgress {
        StreamProgress { delivered: self.delivered, ..StreamProgress::default() }
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.delivered != self.rcv_nxt {
            return Err(format!("delivered {} != rcv_nxt {}", self.delivered, self.rcv_nxt));
        }
        Ok(())
    }

    fn report(&mut self, _end: SimTime, out: &mut FlowSummary) {
        let out = &mut out.metrics;
        out.set("duplicate_bytes", self.duplicate_bytes);
        self.ecn.report(out);
        self.ewln.report(out);
        self.inference.report(out);
    }

    /// An EWLN receiver answers corrupted headers (Shagdar Fig. 2); others never see them.
    fn takes_corrupt(&self) -> bool {
        self.ewln.enabled()
    }

    fn note(&self) -> Option<String> {
        if self.ewln.enabled() && self.ewln.corrupt_received == 0 && self.segments_received > 0 {
            return Some("tcp.ewln is on but no corrupted header reached the receiver (no WLAN with ewln = true on its path gave up on a frame), so no EWLN was set".into());
        }
        self.inference.note()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(seq: u64, len: u32) -> TcpData {
        Packet::tcp_data(0, 0, 1, seq, len, len as u16 + 40).tcp_data_header().unwrap()
    }

    fn rx(delay: Option<SimDuration>) -> TcpReceiver {
        TcpReceiver::new(0, 1, 0, 1000, 40, 65535, delay)
    }

    fn acks(r: &mut TcpReceiver, now: SimTime) -> Vec<u64> {
        std::iter::from_fn(|| r.poll_transmit(now)).map(|p| p.tcp_ack_header().unwrap().ack).collect()
    }

    #[test]
    fn in_order_segments_are_acked_cumulatively() {
        let mut r = rx(None);
        r.handle_data(SimTime(0), &seg(0, 1000));
        assert_eq!(acks(&mut r, SimTime(0)), vec![1000]);
        r.handle_data(SimTime(0), &seg(1000, 1000));
        assert_eq!(acks(&mut r, SimTime(0)), vec![2000]);
        assert_eq!(r.delivered, 2000);
    }

    #[test]
    fn a_gap_gives_duplicate_acks_and_filling_it_jumps() {
        let mut r = rx(None);
        r.handle_data(SimTime(0), &seg(0, 1000));
        acks(&mut r, SimTime(0));
        for k in 2..5 {
            r.handle_data(SimTime(0), &seg(k * 1000, 1000));
            assert_eq!(acks(&mut r, SimTime(0)), vec![1000]);
        }
        assert_eq!(r.buffered(), 3000);
        r.handle_data(SimTime(0), &seg(1000, 1000));
        assert_eq!(acks(&mut r, SimTime(0)), vec![5000]);
        assert_eq!((r.delivered, r.buffered()), (5000, 0));
    }

    #[test]
    fn duplicates_are_counted_not_delivered_twice() {
        let mut r = rx(None);
        r.handle_data(SimTime(0), &seg(0, 1000));
        r.handle_data(SimTime(0), &seg(0, 1000));
        r.handle_data(SimTime(0), &seg(3000, 1000));
        r.handle_data(SimTime(0), &seg(3000, 1000));
        assert_eq!(r.delivered, 1000);
        assert_eq!(r.duplicate_bytes, 2000);
    }

    #[test]
    fn overlapping_out_of_order_ranges_merge() {
        let mut r = rx(None);
        r.handle_data(SimTime(0), &seg(2000, 1000));
        r.handle_data(SimTime(0), &seg(4000, 1000));
        r.handle_data(SimTime(0), &seg(2500, 2000));
        assert_eq!(r.ooo.ranges(), &[(2000, 5000)]);
        assert_eq!(r.duplicate_bytes, 1000);
    }

    #[test]
    fn delayed_ack_every_second_segment_or_on_timer() {
        let d = SimDuration::from_millis(200);
        let mut r = rx(Some(d));
        r.handle_data(SimTime(0), &seg(0, 1000));
        assert!(acks(&mut r, SimTime(0)).is_empty());
        assert_eq!(r.next_timeout(), Some(SimTime(0) + d));
        r.handle_data(SimTime(1), &seg(1000, 1000));
        assert_eq!(acks(&mut r, SimTime(1)), vec![2000]);
        r.handle_data(SimTime(2), &seg(2000, 1000));
        r.handle_timeout(SimTime(2) + d);
        assert_eq!(acks(&mut r, SimTime(2) + d), vec![3000]);
        // Out-of-order data is never delayed.
        r.handle_data(SimTime(3), &seg(5000, 1000));
        assert_eq!(acks(&mut r, SimTime(3)), vec![3000]);
    }

    #[test]
    fn fig_2_a_corrupted_header_is_answered_at_once_with_acks_naming_it() {
        let data = |seq: u64, corrupt: bool| {
            let mut p = Packet::tcp_data(0, 0, 1, seq, 1000, 1040);
            if corrupt {
                p.flags.set(Flags::CORRUPT);
                p.flags.set(Flags::EWLN);
            }
            p
        };
        let named = |p: &Packet| p.flags.has(Flags::EWLN).then(|| p.tcp_ack_header().unwrap().ewln_offset);
        let first = |p: &Packet| p.flags.has(Flags::EWLN_FIRST);
        let mut r = rx(None).with_ewln(true);
        r.handle_packet(SimTime(0), &data(0, false));
        r.poll_transmit(SimTime(0));
        r.handle_packet(SimTime(1), &data(1000, true));
        let a = r.poll_transmit(SimTime(1)).expect("an ACK at once");
        assert_eq!((a.tcp_ack_header().unwrap().ack, named(&a), first(&a)), (1000, Some(0), true));
        assert_eq!((r.delivered, r.segments_received), (1000, 1), "no payload from a corrupted header");
        r.handle_packet(SimTime(2), &data(2000, false));
        let a = r.poll_transmit(SimTime(2)).unwrap();
        assert_eq!((named(&a), first(&a)), (Some(0), false), "the duplicate keeps EWLN, not the notice's first mark");
        r.handle_packet(SimTime(3), &data(1000, false));
        let a = r.poll_transmit(SimTime(3)).unwrap();
        assert_eq!((a.tcp_ack_header().unwrap().ack, named(&a)), (3000, None), "the retransmission arrived");
        assert_eq!((r.ewln.corrupt_received, r.ewln.ewln_acks), (1, 2));
        // Without EWLN a corrupted header is a loss: no ACK, no note.
        let mut plain = rx(None);
        plain.handle_packet(SimTime(0), &data(0, true));
        assert!(plain.poll_transmit(SimTime(0)).is_none());
        assert_eq!(plain.ewln.corrupt_received, 1);
    }
}
