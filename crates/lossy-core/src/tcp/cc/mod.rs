//! Congestion control: how the window grows and how it answers each signal. Separate
//! from loss recovery (ns-3's TcpCongestionOps / TcpRecoveryOps split), so any window
//! rule combines with any recovery.
//!
//! The family: the [`CongestionControl`] trait, one file per scheme named after it
//! ([`aimd`]: RFC 5681's rules, [`byte_counting`]: RFC 3465), and the closed list
//! [`AnyCongestionControl`] the sender holds. The scenario picks one with `tcp.abc`
//! ([`Abc`]); [`Abc::build`] makes it.

pub mod aimd;
pub mod byte_counting;

pub use aimd::Aimd;
pub use byte_counting::ByteCounting;

use super::config::Abc;
use super::state::{SenderState, Signal};
use crate::closed::closed_enum;
use crate::time::{SimDuration, SimTime};

pub trait CongestionControl {
    /// At `now`, an ACK of `acked` new bytes outside recovery; `rtt` is the round trip
    /// it measured, if it acknowledged the timed segment (Karn: never a resent one). As
    /// smoltcp's `on_ack(now, len, rtt)` and ns-3's `PktsAcked(tcb, segments, rtt)`, so
    /// a rule that grows by time or by delay needs no other input.
    fn on_ack(&mut self, st: &mut SenderState, now: SimTime, acked: u64, rtt: Option<SimDuration>);
    /// One of the four signals reached the window (`Signal`). Sets ssthresh if it is
    /// congestion; returns the window it calls for: recovery holds it once it ends (a
    /// loss), the sender takes it at once where no recovery follows (ECN, EWLN).
    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64;
    /// The retransmission timer expired; `repeated` if it already expired for this segment.
    fn on_timeout(&mut self, st: &mut SenderState, repeated: bool);
    /// The pacing seam: the rate in bytes per second at which this control asks the
    /// sender to space its segments, from the state and the smoothed RTT; `None` (the
    /// default, every window rule here) sends as the window allows, clocked by ACKs. The
    /// sender does not pace yet; a rate-based or pacing control overrides this and the
    /// sender's transmit path spaces segments by it, with no change to the trait.
    fn pacing_rate(&self, _st: &SenderState, _srtt: Option<SimDuration>) -> Option<f64> {
        None
    }
}

closed_enum! {
    /// The window rules a scenario can pick (a closed enum: dispatch without boxing). A
    /// new rule is its file and one line here.
    #[derive(Clone, Debug)]
    pub enum AnyCongestionControl via each_congestion_control {
        Aimd(Aimd),
        ByteCounting(ByteCounting),
    }
    impl CongestionControl {
        fn on_ack(&mut self, st: &mut SenderState, now: SimTime, acked: u64, rtt: Option<SimDuration>);
        fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64;
        fn on_timeout(&mut self, st: &mut SenderState, repeated: bool);
        fn pacing_rate(&self, st: &SenderState, srtt: Option<SimDuration>) -> Option<f64>;
    }
}

impl Abc {
    /// The window rule `tcp.abc` asks for: RFC 5681's per-ACK growth when off, RFC
    /// 3465's byte counting with limit L otherwise.
    pub fn build(self) -> AnyCongestionControl {
        match self.limit_segments() {
            None => Aimd.into(),
            Some(l) => ByteCounting::new(l).into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value `tcp.abc` accepts.
    const CONFIGS: [Abc; 3] = [Abc::Off, Abc::Limit(1), Abc::Limit(2)];

    fn variant_name(cc: &AnyCongestionControl) -> String {
        format!("{cc:?}").split('(').next().unwrap_or_default().to_string()
    }

    /// Each window rule in the list, built from a scenario's config.
    fn every_control() -> Vec<(String, AnyCongestionControl)> {
        CONFIGS.iter().map(|c| c.build()).map(|cc| (variant_name(&cc), cc)).collect()
    }

    /// Ten segments in flight at cwnd 10 segments, in congestion avoidance.
    fn flight_of_ten() -> SenderState {
        let mut st = SenderState::new(1000, 10_000, 1 << 30, 3);
        st.ssthresh = 10_000;
        st.snd_max = 10_000;
        st
    }

    #[test]
    fn every_control_in_the_list_is_reachable_from_the_scenario() {
        let built: std::collections::BTreeSet<String> = every_control().into_iter().map(|(n, _)| n).collect();
        for name in AnyCongestionControl::VARIANTS {
            assert!(built.contains(*name), "no value of tcp.abc builds {name}");
        }
    }

    #[test]
    fn every_control_halves_on_congestion_and_keeps_the_window_on_a_wireless_loss() {
        for (name, mut cc) in every_control() {
            for signal in [Signal::Loss, Signal::Ecn] {
                let mut st = flight_of_ten();
                // RFC 5681 eq. 4 (a loss), RFC 3168 §6.1.2 (ECN: as for a loss).
                assert_eq!(cc.on_congestion(&mut st, signal), 5000, "{name} {signal:?}");
                assert_eq!((st.ssthresh, st.counters.window_reductions), (5000, 1), "{name} {signal:?}");
            }
            for signal in [Signal::Eln, Signal::Ewln] {
                // Chen Fig. 1 lines 19-20, Shagdar Fig. 3: no window reduction.
                let mut st = flight_of_ten();
                assert_eq!(cc.on_congestion(&mut st, signal), 10_000, "{name} {signal:?}");
                assert_eq!((st.cwnd, st.ssthresh, st.counters.window_reductions), (10_000, 10_000, 0), "{name} {signal:?}");
            }
        }
    }

    #[test]
    fn every_control_grows_within_the_maximum_and_restarts_from_one_segment_after_a_timeout() {
        for (name, mut cc) in every_control() {
            let mut st = SenderState::new(1000, 4000, 4500, 3);
            for k in 1..=3 {
                st.snd_una = k * 1000;
                st.snd_max = st.snd_una + 3000;
                let before = st.cwnd;
                cc.on_ack(&mut st, SimTime(k), 1000, Some(SimDuration::from_millis(10)));
                assert!(st.cwnd >= before && st.cwnd <= 4500, "{name}: {before} -> {}", st.cwnd);
            }
            assert_eq!(st.cwnd, 4500, "{name}: slow start reaches W_max");
            cc.on_timeout(&mut st, false);
            // RFC 5681 §3.1: the loss window is one SMSS.
            assert_eq!(st.cwnd, 1000, "{name}");
        }
    }

    #[test]
    fn every_pacing_rate_asked_for_is_a_positive_rate() {
        for (name, cc) in every_control() {
            let st = flight_of_ten();
            let rate = cc.pacing_rate(&st, Some(SimDuration::from_millis(100)));
            assert!(rate.is_none_or(|r| r.is_finite() && r > 0.0), "{name}: {rate:?}");
        }
    }
}
