//! The receiving MAC of one (sender, receiver) pair: duplicate detection by sequence
//! number (802.11-1999 §9.2.9: a retransmission whose ACK was lost is ACKed again but
//! not passed up twice), and EWLN's buffer (Shagdar §III A, Fig. 1).
//!
//! EWLN as the paper reads it: the receiver keeps the last corrupted frame (its header
//! survives: "most of time, packet corruption occurs in the payload part"); when a frame
//! from the same sender arrives with a *different* sequence number, "the local
//! retransmission has finished", and the kept frame, if it was never received correctly,
//! is passed up with EWLN and CORRUPT set and its payload dropped.
//!
//! When no next frame comes, the header stays in the buffer — held by the segment, and
//! counted as held at the end of the run — as in the paper's flow chart, which has no
//! timer. The simulation's ground truth decides only who owns the packet: while its
//! sender still retries, the buffer holds a copy and the sender the packet; when the
//! sender gives up, the packet passes to the buffer (`take_over`), and only such a
//! buffered header is ever passed up. (A sender that gives up while the buffer holds no
//! corrupted copy — every attempt collided, or the frame was not a TCP segment — drops
//! the packet, `LinkRetry`.)

use crate::packet::{Flags, Header, Packet};

/// A corrupted frame kept by the receiver.
#[derive(Clone, Copy, Debug)]
struct Kept {
    seq: u16,
    pkt: Packet,
    /// The sender has given the frame up: the packet is the buffer's now.
    owned: bool,
}

/// What the receiver passes up when a frame arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Up {
    /// A packet received correctly for the first time.
    Packet(Packet),
    /// A kept corrupted TCP segment, header only, EWLN and CORRUPT set.
    Ewln(Packet),
}

#[derive(Clone, Copy, Debug, Default)]
pub struct RxState {
    /// The sequence number of the last frame from this sender received correctly.
    last_ok: Option<u16>,
    kept: Option<Kept>,
}

/// `pkt` with EWLN and CORRUPT set and its payload gone: its size on the wire is its
/// headers only; the TCP header (seq, len) still names the segment it stood for.
pub fn ewln_header(mut pkt: Packet) -> Packet {
    pkt.flags.set(Flags::EWLN | Flags::CORRUPT);
    pkt.size = pkt.size.saturating_sub(pkt.payload().min(u16::MAX as u32) as u16);
    pkt
}

impl RxState {
    /// A frame with sequence number `seq` from this sender ends: `ok` when it arrived
    /// intact (a collided frame never comes here: nothing of it is readable). `up` gets
    /// what is passed up, in order: a kept header first (it is older), then the frame.
    /// Returns whether the frame was a duplicate.
    pub fn on_frame(&mut self, seq: u16, pkt: Packet, ok: bool, ewln: bool, mut up: impl FnMut(Up)) -> bool {
        // Fig. 1: a different sequence number means the local retries of the kept frame
        // have finished.
        if let Some(k) = self.kept.filter(|k| k.seq != seq) {
            self.kept = None;
            if k.owned {
                up(Up::Ewln(ewln_header(k.pkt)));
            }
        }
        if ok {
            if self.kept.is_some_and(|k| k.seq == seq) {
                self.kept = None;
            }
            if self.last_ok == Some(seq) {
                return true;
            }
            self.last_ok = Some(seq);
            up(Up::Packet(pkt));
        } else if ewln && matches!(pkt.header, Header::TcpData(_)) && self.last_ok != Some(seq) {
            self.kept = Some(Kept { seq, pkt, owned: false });
        }
        false
    }

    /// The sender gave up on frame `seq`: if the receiver keeps a corrupted copy of it,
    /// the packet is the buffer's from now on (returns true); else the sender drops it.
    pub fn take_over(&mut self, seq: u16) -> bool {
        match &mut self.kept {
            Some(k) if k.seq == seq && !k.owned => {
                k.owned = true;
                true
            }
            _ => false,
        }
    }

    /// 1 when the buffer owns a header (held by the segment), else 0.
    pub fn held(&self) -> u64 {
        self.kept.is_some_and(|k| k.owned) as u64
    }

    /// Empties the buffer (the receiver or the sender detached); returns the packet it
    /// owned, if any.
    pub fn clear(&mut self) -> Option<Packet> {
        self.kept.take().filter(|k| k.owned).map(|k| k.pkt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(seq: u64) -> Packet {
        Packet::tcp_data(0, 0, 1, seq, 1000, 1040)
    }

    fn run(rx: &mut RxState, seq: u16, pkt: Packet, ok: bool) -> (bool, Vec<Up>) {
        let mut ups = Vec::new();
        let dup = rx.on_frame(seq, pkt, ok, true, |u| ups.push(u));
        (dup, ups)
    }

    #[test]
    fn a_retransmission_after_a_lost_ack_is_not_passed_up_twice() {
        let mut rx = RxState::default();
        assert_eq!(run(&mut rx, 5, seg(0), true), (false, vec![Up::Packet(seg(0))]));
        assert_eq!(run(&mut rx, 5, seg(0), true), (true, vec![]));
        assert_eq!(run(&mut rx, 6, seg(1000), true), (false, vec![Up::Packet(seg(1000))]));
    }

    #[test]
    fn fig1_corrupted_until_the_limit_then_a_new_sequence_number_passes_the_header_up() {
        let mut rx = RxState::default();
        for _ in 0..7 {
            assert_eq!(run(&mut rx, 9, seg(0), false), (false, vec![]));
        }
        assert!(rx.take_over(9));
        assert_eq!(rx.held(), 1);
        // The next frame, intact: the header first, then the frame.
        let (_, ups) = run(&mut rx, 10, seg(1000), true);
        let h = ewln_header(seg(0));
        assert_eq!(ups, vec![Up::Ewln(h), Up::Packet(seg(1000))]);
        assert!(h.flags.has(Flags::EWLN) && h.flags.has(Flags::CORRUPT));
        assert_eq!((h.size, h.tcp_data_header().unwrap().seq), (40, 0));
        assert_eq!(rx.held(), 0);
    }

    #[test]
    fn fig1_a_corrupted_next_frame_also_ends_the_retries_and_is_kept_in_turn() {
        let mut rx = RxState::default();
        run(&mut rx, 1, seg(0), false);
        assert!(rx.take_over(1));
        let (_, ups) = run(&mut rx, 2, seg(1000), false);
        assert_eq!(ups, vec![Up::Ewln(ewln_header(seg(0)))]);
        assert!(rx.take_over(2));
    }

    #[test]
    fn fig1_a_frame_received_correctly_on_a_retry_is_no_ewln() {
        let mut rx = RxState::default();
        run(&mut rx, 3, seg(0), false);
        assert_eq!(run(&mut rx, 3, seg(0), true).1, vec![Up::Packet(seg(0))]);
        // Its ACK lost, then a corrupted retry: already received, so not kept.
        run(&mut rx, 3, seg(0), false);
        assert!(!rx.take_over(3));
        assert_eq!(run(&mut rx, 4, seg(1000), true).1, vec![Up::Packet(seg(1000))]);
    }

    #[test]
    fn without_ewln_or_for_other_packets_nothing_is_kept() {
        let mut rx = RxState::default();
        rx.on_frame(1, seg(0), false, false, |_| panic!());
        assert!(!rx.take_over(1));
        let ack = Packet::tcp_ack(0, 1, 0, 1000, 65535, 40);
        rx.on_frame(2, ack, false, true, |_| panic!());
        assert!(!rx.take_over(2));
    }
}
