//! The slow start a window rule runs below ssthresh (`tcp.cc.slow_start`): RFC 5681's,
//! Linux's HyStart ([`HyStart`]) or RFC 9406's HyStart++ ([`HyStartPlusPlus`]). Each
//! decides when slow start ends without a loss (by setting ssthresh = cwnd) and how much
//! an ACK grows the window.

use super::hystart::HyStart;
use super::hystart_pp::HyStartPlusPlus;
use crate::tcp::state::SenderState;
use crate::time::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which slow start runs below ssthresh.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum SlowStartKind {
    /// Linux's hybrid slow start (net/ipv4/tcp_cubic.c): leaves on an ACK train as long as
    /// half the minimum RTT or on a rise of the round's minimum RTT. Linux's default.
    #[default]
    #[serde(rename = "hystart")]
    HyStart,
    /// RFC 9406: leaves on a rise of the round's minimum RTT into Conservative Slow Start,
    /// then congestion avoidance after 5 rounds; only in the first slow start.
    #[serde(rename = "hystart++")]
    HyStartPlusPlus,
    /// RFC 5681 §3.1: slow start until a loss or ssthresh.
    #[serde(rename = "standard")]
    Standard,
}

impl SlowStartKind {
    /// The running slow start; `paced`: the sender paces (`CcContext::paced`).
    pub fn build(self, paced: bool) -> SlowStart {
        match self {
            SlowStartKind::HyStart => SlowStart::HyStart(HyStart::new(paced)),
            SlowStartKind::HyStartPlusPlus => SlowStart::HyStartPlusPlus(HyStartPlusPlus::default()),
            SlowStartKind::Standard => SlowStart::Standard,
        }
    }
}

/// A running slow start.
#[derive(Clone, Debug)]
pub enum SlowStart {
    HyStart(HyStart),
    HyStartPlusPlus(HyStartPlusPlus),
    Standard,
}

impl SlowStart {
    /// Whether it reads RTT samples (`note_delay`, `on_ack`'s `rtt`): its delay detector.
    pub fn reads_delay(&self) -> bool {
        !matches!(self, SlowStart::Standard)
    }

    /// Every RTT sample the window rule accepts, in slow start or not (Linux's
    /// `cubictcp_acked` keeps `delay_min` from all of them).
    pub fn note_delay(&mut self, rtt: SimDuration) {
        if let SlowStart::HyStart(h) = self {
            h.note_delay(rtt);
        }
    }

    /// An ACK while cwnd < ssthresh, before the window grows: may end slow start by
    /// setting ssthresh = cwnd.
    pub fn on_ack(&mut self, st: &mut SenderState, now: SimTime, rtt: Option<SimDuration>) {
        match self {
            SlowStart::HyStart(h) => h.on_ack(st, now, rtt),
            SlowStart::HyStartPlusPlus(h) => h.on_ack(st, now, rtt),
            SlowStart::Standard => {}
        }
    }

    /// Bytes an ACK of `acked` new bytes adds in slow start (at most up to ssthresh).
    pub fn growth(&self, st: &SenderState, acked: u64) -> u64 {
        let inc = match self {
            // Linux's tcp_slow_start adds every segment acked; an unpaced sender cannot
            // take that from a cumulative ACK after a go-back-N resend (hundreds of
            // segments at once), so RFC 3465 §2.2's L = 2·SMSS bounds it: the same as
            // Linux's for an ACK per segment or per two (delayed ACKs).
            SlowStart::HyStart(_) => acked.min(2 * st.mss),
            SlowStart::HyStartPlusPlus(h) => h.growth(st, acked),
            // RFC 5681 §3.1 eq. 2: cwnd += min(N, SMSS).
            SlowStart::Standard => acked.min(st.mss),
        };
        inc.min(st.ssthresh.saturating_sub(st.cwnd))
    }

    /// A retransmission timeout: Linux resets HyStart (`cubictcp_state`, TCP_CA_Loss);
    /// HyStart++ is over once ssthresh is set (RFC 9406 §4.3).
    pub fn on_timeout(&mut self) {
        if let SlowStart::HyStart(h) = self {
            h.on_timeout();
        }
    }
}
