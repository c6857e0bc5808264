//! RFC 3465 appropriate byte counting: `Aimd` whose ACKs grow the window by the bytes
//! they acknowledge, not by their mere arrival.

use super::aimd::Aimd;
use super::CongestionControl;
use crate::tcp::state::{SenderState, Signal};
use crate::time::{SimDuration, SimTime};

/// `Aimd` with RFC 3465 appropriate byte counting: an ACK grows the window by the bytes
/// it acknowledges, not by its mere arrival, so delayed ACKs no longer halve growth.
/// Reductions are `Aimd`'s.
#[derive(Clone, Debug)]
pub struct ByteCounting {
    /// L in segments (RFC 3465 §2.3: 1 or 2).
    limit: u64,
    /// RFC 3465 §2.1: bytes acknowledged in congestion avoidance not yet turned into cwnd.
    bytes_acked: u64,
    /// HighData at the last RTO: ACKs from below it acknowledge go-back-N resends.
    rto_high: u64,
}

impl ByteCounting {
    pub fn new(limit_segments: u64) -> Self {
        ByteCounting { limit: limit_segments, bytes_acked: 0, rto_high: 0 }
    }

    /// RFC 3465 §2.1: when bytes_acked reaches cwnd, subtract cwnd and add one SMSS.
    fn avoidance_increment(&mut self, st: &SenderState, counted: u64) -> u64 {
        self.bytes_acked += counted;
        if self.bytes_acked < st.cwnd {
            return 0;
        }
        self.bytes_acked -= st.cwnd;
        st.mss
    }
}

impl CongestionControl for ByteCounting {
    fn on_ack(&mut self, st: &mut SenderState, _now: SimTime, acked: u64, _rtt: Option<SimDuration>) {
        // RFC 3465 §2.3: L = 1·SMSS in the slow start after an RTO, whose cumulative ACKs
        // may cover data the receiver held while one segment left the network. Until all
        // sent before the RTO is acked an ACK counts at most one SMSS (as Linux's ABC in
        // CA_Loss), which also keeps avoidance within one SMSS per RTT (RFC 5681 §3.1).
        let counted = if st.snd_una - acked < self.rto_high { acked.min(st.mss) } else { acked };
        let inc = if st.cwnd < st.ssthresh {
            // RFC 3465 §2.2: slow start, cwnd += min(N, L·SMSS).
            counted.min(self.limit * st.mss)
        } else {
            self.avoidance_increment(st, counted)
        };
        Aimd::grow(st, inc);
    }

    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64 {
        // The count restarts with the reduced window; a wireless loss does not reduce it.
        if signal.is_congestion() {
            self.bytes_acked = 0;
        }
        Aimd.on_congestion(st, signal)
    }

    fn on_timeout(&mut self, st: &mut SenderState, repeated: bool) {
        self.bytes_acked = 0;
        self.rto_high = st.snd_max;
        Aimd.on_timeout(st, repeated);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(cwnd_segs: u64) -> SenderState {
        SenderState::new(1000, cwnd_segs * 1000, 1 << 30, 3)
    }

    /// One ACK per `per_ack` bytes until `total` bytes are acknowledged.
    fn acks(cc: &mut dyn CongestionControl, st: &mut SenderState, total: u64, per_ack: u64) {
        for _ in 0..total / per_ack {
            st.snd_una += per_ack;
            st.snd_max = st.snd_max.max(st.snd_una);
            cc.on_ack(st, SimTime::ZERO, per_ack, None);
        }
    }

    #[test]
    fn abc_slow_start_counts_the_bytes_of_a_delayed_ack() {
        // An ACK covering 2 segments: 2 SMSS with ABC (RFC 3465 §2.2), 1 without.
        let mut st = state(2);
        acks(&mut ByteCounting::new(2), &mut st, 2000, 2000);
        assert_eq!(st.cwnd, 4000);
        let mut st = state(2);
        acks(&mut Aimd, &mut st, 2000, 2000);
        assert_eq!(st.cwnd, 3000);
        // L caps a stretch ACK: 4 segments add 2 SMSS with L = 2, 1 SMSS with L = 1.
        let mut st = state(2);
        acks(&mut ByteCounting::new(2), &mut st, 4000, 4000);
        assert_eq!(st.cwnd, 4000);
        let mut st = state(2);
        acks(&mut ByteCounting::new(1), &mut st, 4000, 4000);
        assert_eq!(st.cwnd, 3000);
    }

    #[test]
    fn abc_avoidance_adds_one_smss_per_window_of_bytes_whatever_the_acks() {
        // RFC 3465 §2.1, at cwnd = ssthresh = 10 segments.
        for per_ack in [500, 1000, 3000, 9000] {
            let mut st = state(10);
            st.ssthresh = 10_000;
            let mut cc = ByteCounting::new(2);
            acks(&mut cc, &mut st, 9000, per_ack);
            assert_eq!(st.cwnd, 10_000, "{per_ack} B per ACK");
            acks(&mut cc, &mut st, 1000, per_ack.min(1000));
            assert_eq!(st.cwnd, 11_000, "{per_ack} B per ACK");
            assert_eq!(cc.bytes_acked, 0);
        }
        // Without ABC, delayed ACKs (2 segments each) give about half an SMSS per window.
        let mut st = state(10);
        st.ssthresh = 10_000;
        acks(&mut Aimd, &mut st, 10_000, 2000);
        assert!(st.cwnd < 10_600, "{}", st.cwnd);
    }

    #[test]
    fn abc_count_restarts_after_a_loss_an_ece_or_a_timeout_but_not_a_wireless_loss() {
        let mut st = state(10);
        st.ssthresh = 10_000;
        st.snd_max = 20_000;
        let mut cc = ByteCounting::new(2);
        acks(&mut cc, &mut st, 6000, 1000);
        cc.on_congestion(&mut st, Signal::Eln);
        cc.on_congestion(&mut st, Signal::Ewln);
        assert_eq!(cc.bytes_acked, 6000);
        cc.on_congestion(&mut st, Signal::Loss);
        assert_eq!(cc.bytes_acked, 0);
        acks(&mut cc, &mut st, 3000, 1000);
        cc.on_congestion(&mut st, Signal::Ecn);
        assert_eq!(cc.bytes_acked, 0);
        acks(&mut cc, &mut st, 3000, 1000);
        cc.on_timeout(&mut st, false);
        assert_eq!((cc.bytes_acked, st.cwnd), (0, 1000));
    }

    #[test]
    fn abc_counts_one_smss_per_ack_until_the_data_sent_before_an_rto_is_acked() {
        // RFC 3465 §2.3: L = 1·SMSS in the slow start after an RTO.
        let mut st = state(10);
        st.snd_max = 20_000;
        let mut cc = ByteCounting::new(2);
        cc.on_timeout(&mut st, false);
        assert_eq!((st.cwnd, st.ssthresh), (1000, 10_000));
        // The resend of the first segment is acked with 5 held segments: one SMSS.
        acks(&mut cc, &mut st, 6000, 6000);
        assert_eq!(st.cwnd, 2000);
        acks(&mut cc, &mut st, 14_000, 2000);
        assert_eq!(st.cwnd, 9000);
        // Everything sent before the RTO is acked: back to L = 2 segments.
        acks(&mut cc, &mut st, 2000, 2000);
        assert_eq!(st.cwnd, 11_000);
    }
}
