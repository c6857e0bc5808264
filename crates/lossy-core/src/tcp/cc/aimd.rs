//! RFC 5681's window rules: slow start, congestion avoidance, halving (the AIMD every
//! recovery here was written against; ns-2's and ns-3's "NewReno" congestion ops).

use super::CongestionControl;
use crate::tcp::state::{SenderState, Signal};
use crate::time::{SimDuration, SimTime};

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
    pub(super) fn grow(st: &mut SenderState, inc: u64) {
        st.cwnd = (st.cwnd + inc).min(st.max_cwnd.max(st.cwnd));
    }
}

impl CongestionControl for Aimd {
    fn on_ack(&mut self, st: &mut SenderState, _now: SimTime, acked: u64, _rtt: Option<SimDuration>) {
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
        if signal.is_congestion() {
            // RFC 5681 eq. 4 for a loss; RFC 3168 §6.1.2: ECE "the same as" a dropped packet.
            st.ssthresh = Self::halved(st);
            st.counters.window_reductions += 1;
            st.ssthresh
        } else {
            // Chen Fig. 1 lines 19-20, Miyoshi §3, Shagdar Fig. 3: a wireless loss does
            // not shrink the window.
            st.cwnd
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

#[cfg(test)]
mod tests {
    use super::*;

    fn state(cwnd_segs: u64) -> SenderState {
        SenderState::new(1000, cwnd_segs * 1000, 1 << 30, 3)
    }

    fn ack(st: &mut SenderState, acked: u64) {
        Aimd.on_ack(st, SimTime::ZERO, acked, None);
    }

    #[test]
    fn slow_start_adds_at_most_one_smss_per_ack() {
        let mut st = state(1);
        ack(&mut st, 1000);
        assert_eq!(st.cwnd, 2000);
        // A stretch ACK of 3 segments still adds only one SMSS (RFC 5681 eq. 2).
        ack(&mut st, 3000);
        assert_eq!(st.cwnd, 3000);
    }

    #[test]
    fn congestion_avoidance_adds_about_one_smss_per_window() {
        let mut st = state(10);
        st.ssthresh = 10_000;
        for _ in 0..10 {
            ack(&mut st, 1000);
        }
        // Ten ACKs of 1000 B at cwnd ≈ 10 segments: just under one SMSS of growth.
        assert!(st.cwnd > 10_900 && st.cwnd <= 11_000, "{}", st.cwnd);
    }

    #[test]
    fn growth_stops_at_the_maximum_window() {
        let mut st = SenderState::new(1000, 4000, 4500, 3);
        ack(&mut st, 1000);
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
}
