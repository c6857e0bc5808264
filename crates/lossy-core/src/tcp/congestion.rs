//! Congestion control: how the window grows and how it answers a congestion signal.
//! Separate from loss recovery (ns-3's TcpCongestionOps / TcpRecoveryOps split), so any
//! window rule combines with any recovery.

use crate::closed::closed_enum;
use super::state::{SenderState, Signal};

pub trait CongestionControl {
    /// An ACK of `acked` new bytes outside recovery.
    fn on_ack(&mut self, st: &mut SenderState, acked: u64);
    /// A loss or notification detected by duplicate ACKs. Sets ssthresh if the signal
    /// is congestion; returns the window to hold once recovery ends.
    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64;
    /// The retransmission timer expired; `repeated` if it already expired for this segment.
    fn on_timeout(&mut self, st: &mut SenderState, repeated: bool);
}

/// The window rules of RFC 5681: slow start, congestion avoidance, halving.
#[derive(Clone, Debug, Default)]
pub struct Aimd;

impl Aimd {
    /// RFC 5681 eq. 4: ssthresh = max(FlightSize / 2, 2·SMSS), limited transmit's
    /// segments not counted (§3.2 step 2).
    fn halved(st: &SenderState) -> u64 {
        Self::half_of(st.reduction_flight(), st.mss)
    }

    fn half_of(flight: u64, mss: u64) -> u64 {
        (flight / 2).max(2 * mss)
    }

    /// ssthresh on a first expiry. RFC 5681 §3.1 sets it to "no more than" eq. 4. In
    /// fast recovery the duplicate ACKs have inflated cwnd and sent new data, so the
    /// FlightSize now is not the window that met congestion: halve the FlightSize at
    /// recovery entry instead (what entry set for a loss; Linux's tcp_enter_loss keeps
    /// ssthresh in CA_Recovery), and never exceed eq. 4 on the FlightSize now.
    fn timeout_ssthresh(st: &SenderState) -> u64 {
        let now = Self::halved(st);
        if st.in_recovery {
            now.min(Self::half_of(st.recovery_flight, st.mss))
        } else {
            now
        }
    }

    /// Adds `inc` to cwnd. Growth stops at W_max: a window the receiver would never allow
    /// is meaningless.
    fn grow(st: &mut SenderState, inc: u64) {
        st.cwnd = (st.cwnd + inc).min(st.max_cwnd.max(st.cwnd));
    }
}

impl CongestionControl for Aimd {
    fn on_ack(&mut self, st: &mut SenderState, acked: u64) {
        let inc = if st.cwnd < st.ssthresh {
            // RFC 5681 §3.1 eq. 2: slow start, cwnd += min(N, SMSS).
            acked.min(st.mss)
        } else {
            // RFC 5681 §3.1 eq. 3: congestion avoidance, cwnd += SMSS·SMSS/cwnd (at least 1 byte).
            (st.mss * st.mss / st.cwnd.max(1)).max(1)
        };
        Self::grow(st, inc);
    }

    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64 {
        match signal {
            Signal::Loss => {
                st.ssthresh = Self::halved(st);
                st.counters.window_reductions += 1;
                st.ssthresh
            }
            // Chen Fig. 1 lines 19-20, Miyoshi §3: a wireless loss does not shrink the window.
            Signal::Eln => st.cwnd,
        }
    }

    fn on_timeout(&mut self, st: &mut SenderState, repeated: bool) {
        // RFC 5681 §3.1: on a second expiry for the same segment ssthresh is held.
        if !repeated {
            st.ssthresh = Self::timeout_ssthresh(st);
        }
        // RFC 5681 §3.1: cwnd = loss window = 1 SMSS.
        st.cwnd = st.mss;
        st.counters.window_reductions += 1;
    }
}

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
    fn on_ack(&mut self, st: &mut SenderState, acked: u64) {
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
        // The count restarts with the reduced window; an ELN does not reduce it.
        if signal == Signal::Loss {
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

closed_enum! {
    /// The window rules a scenario can pick (a closed enum: dispatch without boxing).
    #[derive(Clone, Debug)]
    pub enum Congestion via each_congestion {
        Aimd(Aimd),
        ByteCounting(ByteCounting),
    }
}

impl CongestionControl for Congestion {
    fn on_ack(&mut self, st: &mut SenderState, acked: u64) {
        each_congestion!(self, c => c.on_ack(st, acked))
    }
    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64 {
        each_congestion!(self, c => c.on_congestion(st, signal))
    }
    fn on_timeout(&mut self, st: &mut SenderState, repeated: bool) {
        each_congestion!(self, c => c.on_timeout(st, repeated))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(cwnd_segs: u64) -> SenderState {
        SenderState::new(1000, cwnd_segs * 1000, 1 << 30, 3)
    }

    #[test]
    fn slow_start_adds_at_most_one_smss_per_ack() {
        let mut st = state(1);
        Aimd.on_ack(&mut st, 1000);
        assert_eq!(st.cwnd, 2000);
        // A stretch ACK of 3 segments still adds only one SMSS (RFC 5681 eq. 2).
        Aimd.on_ack(&mut st, 3000);
        assert_eq!(st.cwnd, 3000);
    }

    #[test]
    fn congestion_avoidance_adds_about_one_smss_per_window() {
        let mut st = state(10);
        st.ssthresh = 10_000;
        for _ in 0..10 {
            Aimd.on_ack(&mut st, 1000);
        }
        // Ten ACKs of 1000 B at cwnd ≈ 10 segments: just under one SMSS of growth.
        assert!(st.cwnd > 10_900 && st.cwnd <= 11_000, "{}", st.cwnd);
    }

    #[test]
    fn growth_stops_at_the_maximum_window() {
        let mut st = SenderState::new(1000, 4000, 4500, 3);
        Aimd.on_ack(&mut st, 1000);
        assert_eq!(st.cwnd, 4500);
    }

    #[test]
    fn loss_halves_flight_size_with_a_floor_of_two_segments() {
        let mut st = state(10);
        st.snd_max = 8000;
        assert_eq!(Aimd.on_congestion(&mut st, Signal::Loss), 4000);
        assert_eq!(st.ssthresh, 4000);
        st.snd_max = 3000;
        assert_eq!(Aimd.on_congestion(&mut st, Signal::Loss), 2000);
        assert_eq!(st.counters.window_reductions, 2);
    }

    #[test]
    fn eln_keeps_the_window_and_ssthresh() {
        let mut st = state(10);
        st.snd_max = 10_000;
        let before = st.ssthresh;
        assert_eq!(Aimd.on_congestion(&mut st, Signal::Eln), 10_000);
        assert_eq!(st.ssthresh, before);
        assert_eq!(st.counters.window_reductions, 0);
    }

    #[test]
    fn timeout_sets_loss_window_and_holds_ssthresh_when_repeated() {
        let mut st = state(10);
        st.snd_max = 10_000;
        Aimd.on_timeout(&mut st, false);
        assert_eq!((st.cwnd, st.ssthresh), (1000, 5000));
        st.snd_max = 2000;
        Aimd.on_timeout(&mut st, true);
        assert_eq!((st.cwnd, st.ssthresh), (1000, 5000));
    }

    /// In recovery after a loss at FlightSize 10 segments (ssthresh 5), with FlightSize
    /// since inflated to `flight_now` segments.
    fn in_loss_recovery(flight_now: u64) -> SenderState {
        let mut st = state(10);
        st.snd_max = 10_000;
        st.recovery_flight = st.flight_size();
        Aimd.on_congestion(&mut st, Signal::Loss);
        st.in_recovery = true;
        st.cwnd = 40_000;
        st.snd_una = 1000;
        st.snd_max = 1000 + flight_now * 1000;
        st
    }

    #[test]
    fn timeout_in_recovery_keeps_the_ssthresh_of_recovery_entry() {
        let mut st = in_loss_recovery(38);
        Aimd.on_timeout(&mut st, false);
        // Not 38 000 / 2: the inflated FlightSize does not raise ssthresh.
        assert_eq!((st.cwnd, st.ssthresh), (1000, 5000));
    }

    #[test]
    fn timeout_in_recovery_is_still_capped_by_the_flight_size_now() {
        // NewReno partial ACKs shrank FlightSize to 6 segments: eq. 4 gives 3 segments.
        let mut st = in_loss_recovery(6);
        Aimd.on_timeout(&mut st, false);
        assert_eq!(st.ssthresh, 3000);
    }

    #[test]
    fn timeout_in_eln_recovery_halves_the_flight_size_at_entry() {
        let mut st = state(10);
        st.snd_max = 10_000;
        st.recovery_flight = st.flight_size();
        let target = Aimd.on_congestion(&mut st, Signal::Eln);
        st.in_recovery = true;
        st.cwnd = target + 20_000;
        st.snd_max = 30_000;
        Aimd.on_timeout(&mut st, false);
        assert_eq!((st.cwnd, st.ssthresh), (1000, 5000));
    }

    #[test]
    fn timeout_outside_recovery_ignores_an_old_recovery_flight_size() {
        let mut st = state(10);
        st.recovery_flight = 4000;
        st.snd_max = 30_000;
        Aimd.on_timeout(&mut st, false);
        assert_eq!(st.ssthresh, 15_000);
    }
    /// One ACK per `per_ack` bytes until `total` bytes are acknowledged.
    fn acks(cc: &mut dyn CongestionControl, st: &mut SenderState, total: u64, per_ack: u64) {
        for _ in 0..total / per_ack {
            st.snd_una += per_ack;
            st.snd_max = st.snd_max.max(st.snd_una);
            cc.on_ack(st, per_ack);
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
    fn abc_count_restarts_after_a_loss_or_timeout_but_not_an_eln() {
        let mut st = state(10);
        st.ssthresh = 10_000;
        st.snd_max = 20_000;
        let mut cc = ByteCounting::new(2);
        acks(&mut cc, &mut st, 6000, 1000);
        cc.on_congestion(&mut st, Signal::Eln);
        assert_eq!(cc.bytes_acked, 6000);
        cc.on_congestion(&mut st, Signal::Loss);
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
