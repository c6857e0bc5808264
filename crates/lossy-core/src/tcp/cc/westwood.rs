//! `cc = "westwood"`: TCP Westwood+ (Mascolo, Casetti, Gerla, Sanadidi, Wang, "TCP
//! Westwood: bandwidth estimation for enhanced transport over wireless links", MobiCom
//! 2001; the once-per-RTT sampling of Westwood+ from Grieco & Mascolo, "Performance
//! evaluation and comparison of Westwood+, New Reno, and Vegas TCP congestion control",
//! ACM CCR 34(2), 2004) as ns-3's `TcpWestwoodPlus` (src/internet/model/
//! tcp-westwood-plus.cc) and Linux's `westwood` (net/ipv4/tcp_westwood.c) run it.
//!
//! Growth is Reno's. The sender measures the rate its ACKs return data at, once per
//! RTT, and low-pass filters it into the bandwidth estimate BWE; after a loss ssthresh
//! (and the window recovery ends at) is BWE·RTT_min, the pipe the flow was getting,
//! instead of half the window: a random wireless loss does not halve the rate.

use super::{Aimd, AnyCongestionControl, CcContext, CcSpec, CongestionControl};
use crate::tcp::state::{SenderState, Signal};
use crate::time::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The low-pass filter applied to each RTT's bandwidth sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WestwoodFilter {
    /// ns-3's default (tcp-westwood-plus.cc `EstimateBW`, Tustin's approximation):
    /// BWE = 0.9·BWE + 0.1·(sample + previous sample)/2, from 0.
    #[default]
    Tustin,
    /// Linux's (tcp_westwood.c `westwood_filter`): two cascaded stages of
    /// x = 7/8·x + 1/8·input, both filled by the first sample.
    Linux,
    /// No filter (ns-3's `FilterType = None`): BWE is the last sample.
    None,
}

impl WestwoodFilter {
    /// A default is not written back, so `cc = "westwood"` reads back as the name.
    fn is_default(&self) -> bool {
        *self == WestwoodFilter::default()
    }
}

/// TCP Westwood+'s table.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct WestwoodConfig {
    /// The bandwidth estimate's low-pass filter: "tustin" (ns-3's default), "linux" or
    /// "none". Default "tustin".
    #[serde(skip_serializing_if = "WestwoodFilter::is_default")]
    pub filter: WestwoodFilter,
}

impl CcSpec for WestwoodConfig {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }

    fn build(&self, _ctx: &CcContext) -> AnyCongestionControl {
        Westwood::new(self.filter).into()
    }
}

/// TCP Westwood+'s state.
#[derive(Clone, Debug)]
pub struct Westwood {
    filter: WestwoodFilter,
    /// BWE, bytes per second.
    bwe: f64,
    /// Tustin: the previous raw sample. Linux: the first stage (`bw_ns_est`).
    memory: f64,
    /// Whether a sample has been filtered yet (Linux fills the filter with the first).
    sampled: bool,
    /// When the sampling window opened, and the bytes acknowledged since.
    window_start: Option<SimTime>,
    window_bytes: u64,
    /// snd_una when last seen: bytes acknowledged while this control was not called
    /// (in recovery) still count, when the next ACK shows them.
    acked_to: u64,
    /// The last RTT sample, the window's length.
    rtt: Option<SimDuration>,
    /// RTT_min, the least RTT sample.
    rtt_min: Option<SimDuration>,
    /// After a timeout the next ACK restarts RTT_min from the last sample (Linux
    /// `reset_rtt_min`: the path may have changed).
    reset_rtt_min: bool,
}

impl Westwood {
    pub fn new(filter: WestwoodFilter) -> Self {
        Westwood {
            filter,
            bwe: 0.0,
            memory: 0.0,
            sampled: false,
            window_start: None,
            window_bytes: 0,
            acked_to: 0,
            rtt: None,
            rtt_min: None,
            reset_rtt_min: false,
        }
    }

    /// The bandwidth estimate in bytes per second.
    pub fn bwe(&self) -> f64 {
        self.bwe
    }

    /// One RTT's sample through the filter.
    fn filter_sample(&mut self, sample: f64) {
        match self.filter {
            WestwoodFilter::Tustin => {
                self.bwe = 0.9 * self.bwe + 0.1 * (sample + self.memory) / 2.0;
                self.memory = sample;
            }
            WestwoodFilter::Linux if !self.sampled => {
                self.memory = sample;
                self.bwe = sample;
            }
            WestwoodFilter::Linux => {
                self.memory = (7.0 * self.memory + sample) / 8.0;
                self.bwe = (7.0 * self.bwe + self.memory) / 8.0;
            }
            WestwoodFilter::None => self.bwe = sample,
        }
        self.sampled = true;
    }

    /// The ACK at `now` brought snd_una to `una`: its bytes join the window, and a window
    /// older than the last RTT closes into one sample, bytes over its length (Linux
    /// `westwood_update_window`, without Linux's 50 ms floor, as ns-3).
    fn count(&mut self, now: SimTime, una: u64) {
        let delivered = una.saturating_sub(self.acked_to);
        self.acked_to = self.acked_to.max(una);
        let Some(start) = self.window_start else {
            // The first ACK opens the first window (Linux `first_ack`).
            self.window_start = Some(now);
            return;
        };
        self.window_bytes += delivered;
        let elapsed = now - start;
        if let Some(rtt) = self.rtt {
            if elapsed > rtt && elapsed > SimDuration::ZERO {
                self.filter_sample(self.window_bytes as f64 / elapsed.as_secs_f64());
                self.window_bytes = 0;
                self.window_start = Some(now);
            }
        }
    }

    /// max(2·SMSS, BWE·RTT_min) in bytes (ns-3 `GetSsThresh`, Linux
    /// `tcp_westwood_bw_rttmin`).
    fn bw_rtt_min(&self, st: &SenderState) -> u64 {
        let pipe = self.rtt_min.map_or(0.0, |r| self.bwe * r.as_secs_f64());
        (pipe as u64).max(2 * st.mss)
    }
}

impl CongestionControl for Westwood {
    fn on_ack(&mut self, st: &mut SenderState, now: SimTime, acked: u64, rtt: Option<SimDuration>) {
        if let Some(r) = rtt.filter(|r| *r > SimDuration::ZERO) {
            self.rtt = Some(r);
        }
        // Linux `update_rtt_min`, on every ACK with the last sample.
        if let Some(r) = self.rtt {
            let keep = self.rtt_min.filter(|_| !self.reset_rtt_min);
            self.rtt_min = Some(keep.map_or(r, |m| m.min(r)));
            self.reset_rtt_min = false;
        }
        self.count(now, st.snd_una);
        // Probing is Reno's (Linux `.cong_avoid = tcp_reno_cong_avoid`; ns-3's parent
        // TcpNewReno).
        Aimd.on_ack(st, now, acked, rtt);
    }

    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64 {
        if signal.is_congestion() {
            // Mascolo et al. §2: after n duplicate ACKs ssthresh = BWE·RTTmin and cwnd =
            // ssthresh (if larger); ns-3 `GetSsThresh`, Linux CA_EVENT_COMPLETE_CWR.
            st.ssthresh = self.bw_rtt_min(st);
            st.counters.window_reductions += 1;
            st.ssthresh
        } else {
            // A wireless loss notified as such keeps the window, as every rule here.
            st.cwnd
        }
    }

    fn on_timeout(&mut self, st: &mut SenderState, _repeated: bool) {
        // Mascolo et al. §2 and Linux CA_EVENT_LOSS: ssthresh = BWE·RTT_min, cwnd = 1
        // SMSS (RFC 5681's loss window), set on every expiry as Linux does.
        st.ssthresh = self.bw_rtt_min(st);
        st.cwnd = st.mss;
        st.counters.window_reductions += 1;
        self.reset_rtt_min = true;
    }
}

#[cfg(test)]
#[path = "westwood_tests.rs"]
mod tests;
