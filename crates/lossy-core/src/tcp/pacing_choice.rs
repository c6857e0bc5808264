//! `tcp.pacing`: the pacing rate the sender uses when its congestion control asks for
//! none (`CongestionControl::pacing_rate` returns `None`). A control with a rate of its
//! own (BBR, BBRv3) keeps it, as in Linux, where such a module sets `sk_pacing_rate`
//! itself (`tcp_bbr.c` `bbr_set_pacing_rate`) and `tcp_cong_control` returns before
//! `tcp_update_pacing_rate` when the module has a `cong_control` hook.
//!
//! "linux" is the rate Linux sets for every other TCP flow, which the fq qdisc then
//! enforces (net/ipv4/tcp_input.c `tcp_update_pacing_rate`, from commit 43e122b014c9
//! "tcp: refine pacing rate determination"; its ratio branch at lines 910-918 of Linux 5.19):
//! `rate = mss × ratio × max(snd_cwnd, packets_out) / srtt`, with ratio
//! `sysctl_tcp_pacing_ss_ratio` (default 200 %) while `snd_cwnd < snd_ssthresh / 2` and
//! `sysctl_tcp_pacing_ca_ratio` (default 120 %) otherwise. Pantheon's hosts ran fq
//! (docs/papers/pantheon-emulators.md), so their Reno and CUBIC were paced this way.

use super::state::SenderState;
use crate::time::SimDuration;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `net.ipv4.tcp_pacing_ss_ratio`'s default, 200 % (Documentation/networking/ip-sysctl).
pub const LINUX_SS_RATIO: f64 = 2.0;
/// `net.ipv4.tcp_pacing_ca_ratio`'s default, 120 %.
pub const LINUX_CA_RATIO: f64 = 1.2;

/// How the sender paces a congestion control that asks for no rate of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PacingChoice {
    /// Not at all: the window leaves as the ACKs allow (the default; RFC 5681 senders).
    #[default]
    None,
    /// At Linux's rate for every TCP flow under the fq qdisc (net/ipv4/tcp_input.c
    /// `tcp_update_pacing_rate`): max(cwnd, FlightSize) / SRTT × 2 while cwnd <
    /// ssthresh / 2 (slow start), × 1.2 otherwise. Unpaced until the first RTT sample.
    /// A control with its own rate (bbr, bbr3) keeps its own.
    Linux,
}

impl PacingChoice {
    pub fn is_none(&self) -> bool {
        *self == PacingChoice::None
    }

    /// The rate, bytes/s, for a control that asked for none; `None` leaves it unpaced.
    #[inline]
    pub fn rate(self, st: &SenderState, srtt: Option<SimDuration>) -> Option<f64> {
        match self {
            PacingChoice::None => None,
            PacingChoice::Linux => linux_rate(st, srtt?),
        }
    }
}

/// Linux's `tcp_update_pacing_rate` in bytes: the slow-start test `snd_cwnd <
/// snd_ssthresh / 2` is on bytes here (Linux counts segments; the same test up to
/// rounding), and `packets_out` (segments sent and not cumulatively acknowledged,
/// SACKed ones included) is FlightSize, snd_max − snd_una. Linux divides only when srtt
/// is non-zero; a zero srtt here gives no rate.
pub fn linux_rate(st: &SenderState, srtt: SimDuration) -> Option<f64> {
    let secs = srtt.as_secs_f64();
    if secs <= 0.0 {
        return None;
    }
    let ratio = if st.cwnd < st.ssthresh / 2 { LINUX_SS_RATIO } else { LINUX_CA_RATIO };
    Some(ratio * st.cwnd.max(st.flight_size()) as f64 / secs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(cwnd: u64, ssthresh: u64, flight: u64) -> SenderState {
        let mut st = SenderState::new(1000, cwnd, 1 << 30, 3);
        st.ssthresh = ssthresh;
        st.snd_una = 5000;
        st.snd_max = 5000 + flight;
        st.snd_nxt = st.snd_max;
        st
    }

    const RTT: SimDuration = SimDuration::from_millis(100);

    #[test]
    fn slow_start_paces_at_twice_cwnd_over_srtt() {
        // cwnd 10 segments, ssthresh unset: 2 × 10 000 B / 0.1 s.
        let st = SenderState::new(1000, 10_000, 1 << 30, 3);
        assert_eq!(PacingChoice::Linux.rate(&st, Some(RTT)), Some(200_000.0));
    }

    #[test]
    fn the_ratio_drops_to_120_percent_from_half_ssthresh_on() {
        // cwnd < ssthresh / 2: 200 %; cwnd = ssthresh / 2 (Linux's `<` is strict): 120 %.
        let below = state(20_000, 40_002, 0);
        assert_eq!(linux_rate(&below, RTT), Some(400_000.0));
        let at = state(20_000, 40_000, 0);
        assert!((linux_rate(&at, RTT).unwrap() - 240_000.0).abs() < 1e-6);
        let ca = state(30_000, 20_000, 0);
        assert!((linux_rate(&ca, RTT).unwrap() - 360_000.0).abs() < 1e-6);
    }

    #[test]
    fn the_larger_of_cwnd_and_the_flight_over_srtt() {
        // After a reduction the flight (packets_out) still exceeds cwnd: it sets the rate.
        let st = state(10_000, 10_000, 25_000);
        assert!((linux_rate(&st, RTT).unwrap() - 1.2 * 25_000.0 / 0.1).abs() < 1e-6);
        // The rate scales with 1 / srtt.
        let st = state(10_000, 10_000, 0);
        let r50 = linux_rate(&st, SimDuration::from_millis(50)).unwrap();
        assert!((r50 - 2.0 * linux_rate(&st, RTT).unwrap()).abs() < 1e-6);
    }

    #[test]
    fn no_rate_without_srtt_or_when_off() {
        let st = state(10_000, 10_000, 0);
        assert_eq!(PacingChoice::Linux.rate(&st, None), None);
        assert_eq!(PacingChoice::Linux.rate(&st, Some(SimDuration::ZERO)), None);
        assert_eq!(PacingChoice::None.rate(&st, Some(RTT)), None);
    }
}
