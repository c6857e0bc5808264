//! EWLN in TCP (Shagdar et al. §III B–C, Figs. 2 and 3). A MAC that gives up on a frame
//! after its retry limit passes the TCP header on with EWLN and CORRUPT set (the payload
//! is gone). The receiver answers with an ACK carrying EWLN and the corrupted segment's
//! sequence number, and keeps EWLN on its ACKs until that segment arrives intact or a
//! new corrupted one replaces it (Fig. 2). The sender resends the named segment on the
//! first ACK of each notice, with no window reduction and no wait for three duplicates
//! (Fig. 3); duplicate ACKs marked EWLN do not count toward fast retransmit, so no
//! congestion response follows a wireless loss.
//!
//! Our readings: the receiver keeps EWLN on every ACK while a corrupted segment is
//! outstanding (the paper says "duplicate acknowledgements"; an ACK that advances below
//! the corrupted segment names it too). A corrupted segment is "replaced" by a newer
//! corrupted one whatever its sequence number — its own corrupted retransmission too:
//! every corrupted header is a notice of its own, and the ACK that answers it is the
//! notice's first (`Flags::EWLN_FIRST`), the one the sender resends on. The paper does
//! not say how the sender tells the first ACK from its duplicates when a retransmission
//! is corrupted again (both name the same segment); the mark says it. The sender also
//! resends on an EWLN ACK naming another segment than the one it last resent, so a
//! notice whose first ACK was lost on the way is still answered.

use crate::metrics::{Columns, Metric, Metrics};

/// The receiver's half: which corrupted segment its ACKs name.
#[derive(Clone, Copy, Debug, Default)]
pub struct EwlnEcho {
    on: bool,
    /// The corrupted segment's first byte, while it has not arrived intact.
    pending: Option<u64>,
    /// A corrupted header arrived and no ACK has answered it yet (the notice's first).
    fresh: bool,
    /// Corrupted headers received (their payload lost on the wireless hop).
    pub corrupt_received: u64,
    /// ACKs sent with EWLN.
    pub ewln_acks: u64,
}

impl EwlnEcho {
    /// Its columns, which every flow's row has (Shagdar §III): corrupted headers a MAC
    /// passed to the receiver (payload lost on the wireless hop), and ACKs it sent with
    /// EWLN.
    pub const COLUMNS: &'static Columns = &[("ewln_corrupt_received", Metric::U64(0)), ("ewln_acks", Metric::U64(0))];

    pub fn report(&self, out: &mut Metrics) {
        out.set("ewln_corrupt_received", self.corrupt_received);
        out.set("ewln_acks", self.ewln_acks);
    }

    pub fn new(on: bool) -> Self {
        EwlnEcho { on, ..EwlnEcho::default() }
    }

    pub fn enabled(&self) -> bool {
        self.on
    }

    /// A corrupted header of the segment at `seq` arrived (Fig. 2: answer at once).
    pub fn on_corrupt(&mut self, seq: u64) {
        self.corrupt_received += 1;
        if self.on {
            self.pending = Some(seq);
            self.fresh = true;
        }
    }

    /// Data [seq, end) arrived intact; `rcv_nxt` is the next byte expected after it.
    pub fn on_data(&mut self, seq: u64, end: u64, rcv_nxt: u64) {
        if let Some(p) = self.pending {
            if (seq <= p && p < end) || p < rcv_nxt {
                self.pending = None; // its retransmission arrived
                self.fresh = false;
            }
        }
    }

    /// The EWLN note for an ACK of `ack`: the corrupted segment's offset above it, and
    /// whether this ACK is the first of its notice.
    pub fn note(&mut self, ack: u64) -> Option<(u32, bool)> {
        let p = self.pending.filter(|&p| p >= ack)?;
        self.ewln_acks += 1;
        Some((u32::try_from(p - ack).unwrap_or(u32::MAX), std::mem::take(&mut self.fresh)))
    }
}

/// The sender's half: the corrupted segment it last resent.
#[derive(Clone, Copy, Debug, Default)]
pub struct EwlnResponse {
    on: bool,
    last: Option<u64>,
}

impl EwlnResponse {
    pub fn new(on: bool) -> Self {
        EwlnResponse { on, last: None }
    }

    pub fn enabled(&self) -> bool {
        self.on
    }

    /// An ACK naming the corrupted segment at `seq` (`first`: the first ACK of its
    /// notice): the segment to resend now, once per notice (Fig. 3), if it is still
    /// unacknowledged (`snd_una..snd_max`). A duplicate of a notice whose first ACK was
    /// lost resends too when it names another segment than the last resent.
    pub fn on_ewln_ack(&mut self, seq: u64, first: bool, snd_una: u64, snd_max: u64) -> Option<u64> {
        if !self.on || (!first && self.last == Some(seq)) || seq < snd_una || seq >= snd_max {
            return None;
        }
        self.last = Some(seq);
        Some(seq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fig_2_the_receiver_names_the_corrupted_segment_until_it_arrives_or_another_replaces_it() {
        let mut r = EwlnEcho::new(true);
        assert_eq!(r.note(1000), None, "no EWLN before a corrupted header");
        r.on_corrupt(2000);
        assert_eq!(r.note(1000), Some((1000, true)), "ACK 1000 names segment 2000, the notice's first");
        r.on_data(3000, 4000, 1000);
        assert_eq!(r.note(1000), Some((1000, false)), "EWLN stays on the duplicates");
        r.on_corrupt(5000);
        assert_eq!(r.note(1000), Some((4000, true)), "a new corrupted segment replaces it");
        r.on_corrupt(5000);
        assert_eq!(r.note(1000), Some((4000, true)), "its corrupted retransmission: a new notice");
        assert_eq!(r.note(1000), Some((4000, false)));
        r.on_data(5000, 6000, 1000);
        assert_eq!(r.note(1000), None, "its retransmission arrived");
        assert_eq!((r.corrupt_received, r.ewln_acks), (3, 5));
        // Delivered below the cumulative ACK: nothing left to name.
        r.on_corrupt(7000);
        r.on_data(1000, 8000, 8000);
        assert_eq!(r.note(8000), None);
        // Without EWLN the receiver only counts them.
        let mut off = EwlnEcho::new(false);
        off.on_corrupt(2000);
        assert_eq!((off.note(1000), off.corrupt_received), (None, 1));
    }

    #[test]
    fn fig_3_the_sender_resends_once_per_notice() {
        let mut s = EwlnResponse::new(true);
        assert_eq!(s.on_ewln_ack(2000, true, 1000, 9000), Some(2000), "the first EWLN ACK: resend at once");
        assert_eq!(s.on_ewln_ack(2000, false, 1000, 9000), None, "its duplicates: no second resend");
        assert_eq!(s.on_ewln_ack(2000, true, 1000, 9000), Some(2000), "its retransmission corrupted: a new notice");
        assert_eq!(s.on_ewln_ack(2000, false, 1000, 9000), None);
        assert_eq!(s.on_ewln_ack(5000, false, 1000, 9000), Some(5000), "a new segment, its first ACK lost");
        assert_eq!(s.on_ewln_ack(500, true, 1000, 9000), None, "already acknowledged");
        assert_eq!(s.on_ewln_ack(9000, true, 1000, 9000), None, "never sent");
        assert_eq!(EwlnResponse::new(false).on_ewln_ack(2000, true, 1000, 9000), None);
    }
}
