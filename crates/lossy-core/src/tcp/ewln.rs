//! EWLN in TCP (Shagdar et al. §III B–C, Figs. 2 and 3). A MAC that gives up on a frame
//! after its retry limit passes the TCP header on with EWLN and CORRUPT set (the payload
//! is gone). The receiver answers with an ACK carrying EWLN and the corrupted segment's
//! sequence number, and keeps EWLN on its ACKs until that segment arrives intact or a
//! new corrupted one replaces it (Fig. 2). The sender resends the named segment on the
//! first ACK that names it, with no window reduction and no wait for three duplicates,
//! and once per corrupted segment (Fig. 3); duplicate ACKs marked EWLN do not count
//! toward fast retransmit, so no congestion response follows a wireless loss.
//!
//! Our readings: the receiver keeps EWLN on every ACK while a corrupted segment is
//! outstanding (the paper says "duplicate acknowledgements"; an ACK that advances below
//! the corrupted segment names it too, and the sender's once-per-segment rule makes the
//! repeats harmless). A corrupted segment is "replaced" by a newer corrupted one whatever
//! its sequence number.

/// The receiver's half: which corrupted segment its ACKs name.
#[derive(Clone, Copy, Debug, Default)]
pub struct EwlnEcho {
    on: bool,
    /// The corrupted segment's first byte, while it has not arrived intact.
    pending: Option<u64>,
    /// Corrupted headers received (their payload lost on the wireless hop).
    pub corrupt_received: u64,
    /// ACKs sent with EWLN.
    pub ewln_acks: u64,
}

impl EwlnEcho {
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
        }
    }

    /// Data [seq, end) arrived intact; `rcv_nxt` is the next byte expected after it.
    pub fn on_data(&mut self, seq: u64, end: u64, rcv_nxt: u64) {
        if let Some(p) = self.pending {
            if (seq <= p && p < end) || p < rcv_nxt {
                self.pending = None; // its retransmission arrived
            }
        }
    }

    /// The EWLN note for an ACK of `ack`: the corrupted segment's offset above it.
    pub fn note(&mut self, ack: u64) -> Option<u32> {
        let p = self.pending.filter(|&p| p >= ack)?;
        self.ewln_acks += 1;
        Some(u32::try_from(p - ack).unwrap_or(u32::MAX))
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

    /// An ACK naming the corrupted segment at `seq`: the segment to resend now, the first
    /// time it is named (Fig. 3), if it is still unacknowledged (`snd_una..snd_max`).
    pub fn on_ewln_ack(&mut self, seq: u64, snd_una: u64, snd_max: u64) -> Option<u64> {
        if !self.on || self.last == Some(seq) || seq < snd_una || seq >= snd_max {
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
        assert_eq!(r.note(1000), Some(1000), "ACK 1000 names segment 2000");
        r.on_data(3000, 4000, 1000);
        assert_eq!(r.note(1000), Some(1000), "EWLN stays on the duplicates");
        r.on_corrupt(5000);
        assert_eq!(r.note(1000), Some(4000), "a new corrupted segment replaces it");
        r.on_data(5000, 6000, 1000);
        assert_eq!(r.note(1000), None, "its retransmission arrived");
        assert_eq!((r.corrupt_received, r.ewln_acks), (2, 3));
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
    fn fig_3_the_sender_resends_each_corrupted_segment_once() {
        let mut s = EwlnResponse::new(true);
        assert_eq!(s.on_ewln_ack(2000, 1000, 9000), Some(2000), "the first EWLN ACK: resend at once");
        assert_eq!(s.on_ewln_ack(2000, 1000, 9000), None, "its duplicates: no second resend");
        assert_eq!(s.on_ewln_ack(5000, 1000, 9000), Some(5000), "a new corrupted segment");
        assert_eq!(s.on_ewln_ack(500, 1000, 9000), None, "already acknowledged");
        assert_eq!(s.on_ewln_ack(9000, 1000, 9000), None, "never sent");
        assert_eq!(EwlnResponse::new(false).on_ewln_ack(2000, 1000, 9000), None);
    }
}
