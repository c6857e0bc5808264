//! `cc = "vegas"`: TCP Vegas (Brakmo & Peterson, "TCP Vegas: end to end congestion
//! avoidance on a global Internet", IEEE JSAC 13(8), 1995) as ns-3's `TcpVegas`
//! (src/internet/model/tcp-vegas.cc) and Linux's `vegas` (net/ipv4/tcp_vegas.c) run it.
//!
//! BaseRTT is the least RTT ever seen; once per round trip the least RTT of that round
//! gives Diff = cwnd·(RTT − BaseRTT)/RTT, the segments the flow keeps queued, and the
//! window moves one segment towards α ≤ Diff ≤ β. Slow start ends when Diff > γ.
//! Loss and timeout are Reno's (Linux's `.ssthresh = tcp_reno_ssthresh`). Where ns-3
//! and Linux differ, this follows ns-3 (the side by side); docs/mechanisms/tcp-vegas.md
//! lists the differences.

use super::ack_rtt::AckRtt;
use super::{Aimd, AnyCongestionControl, CcContext, CcSpec, CongestionControl};
use crate::tcp::state::{SenderState, Signal};
use crate::time::{SimDuration, SimTime};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// TCP Vegas's thresholds, in segments (ns-3's `Alpha`, `Beta`, `Gamma` attributes and
/// Linux's module parameters, with their defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct VegasConfig {
    /// α: below this many segments queued (Diff < α) the window grows by one segment per
    /// RTT. Default 2.
    #[serde(skip_serializing_if = "is_default_alpha")]
    pub alpha: u32,
    /// β: above this many (Diff > β) it shrinks by one segment per RTT. At least `alpha`.
    /// Default 4.
    #[serde(skip_serializing_if = "is_default_beta")]
    pub beta: u32,
    /// γ: slow start ends once Diff exceeds this many segments. Default 1.
    #[serde(skip_serializing_if = "is_default_gamma")]
    pub gamma: u32,
    /// The answer to a loss, an ECN echo and a timeout: "reno" (Linux's
    /// `tcp_reno_ssthresh`, RFC 5681 eq. 4) or "ns3" (ns-3's `TcpVegas::GetSsThresh`,
    /// which the socket also calls on a loss: ssthresh = max(min(ssthresh, cwnd − SMSS),
    /// 2·SMSS), a cut of one segment to a quarter of the window). Default "reno".
    #[serde(skip_serializing_if = "VegasLoss::is_default")]
    pub loss: VegasLoss,
}

/// Which implementation's loss response Vegas runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VegasLoss {
    /// Reno's halving (Linux `vegas`), written "reno".
    #[default]
    #[serde(rename = "reno")]
    Halving,
    /// ns-3.44 `TcpVegas::GetSsThresh`.
    Ns3,
}

impl VegasLoss {
    fn is_default(&self) -> bool {
        *self == VegasLoss::default()
    }
}

// A default is not written back, so `cc = "vegas"` reads back as the name (`CcChoice`).
fn is_default_alpha(v: &u32) -> bool {
    *v == VegasConfig::default().alpha
}
fn is_default_beta(v: &u32) -> bool {
    *v == VegasConfig::default().beta
}
fn is_default_gamma(v: &u32) -> bool {
    *v == VegasConfig::default().gamma
}

impl Default for VegasConfig {
    fn default() -> Self {
        VegasConfig { alpha: 2, beta: 4, gamma: 1, loss: VegasLoss::Halving }
    }
}

impl CcSpec for VegasConfig {
    fn validate(&self) -> Result<(), String> {
        for (field, v) in [("alpha", self.alpha), ("beta", self.beta), ("gamma", self.gamma)] {
            if v == 0 {
                return Err(format!("{field}: 0 is out of range; use a whole number of segments > 0"));
            }
        }
        if self.alpha > self.beta {
            return Err(format!(
                "beta: {} is below alpha ({}); use beta >= alpha (Vegas holds the window while alpha <= Diff <= beta)",
                self.beta, self.alpha
            ));
        }
        Ok(())
    }

    fn build(&self, _ctx: &CcContext) -> AnyCongestionControl {
        Vegas::new(self).into()
    }
}

/// TCP Vegas's state (ns-3's `TcpVegas` members, Linux's `struct vegas`).
#[derive(Clone, Debug)]
pub struct Vegas {
    alpha: u64,
    beta: u64,
    gamma: u64,
    /// The least RTT ever seen (the propagation delay's estimate).
    base_rtt: Option<SimDuration>,
    /// The least RTT of the round under way, and how many samples it is the least of.
    min_rtt: Option<SimDuration>,
    cnt_rtt: u32,
    /// The round ends when snd_una reaches this (the right edge when it began).
    beg_snd_nxt: u64,
    loss: VegasLoss,
    /// Off from a congestion signal or timeout until the next ACK outside recovery,
    /// which starts a fresh round (ns-3 `CongestionStateSet`, Linux `tcp_vegas_state`).
    doing_vegas_now: bool,
    rtts: AckRtt,
}

impl Vegas {
    pub fn new(cfg: &VegasConfig) -> Self {
        Vegas {
            alpha: cfg.alpha as u64,
            beta: cfg.beta as u64,
            gamma: cfg.gamma as u64,
            base_rtt: None,
            min_rtt: None,
            cnt_rtt: 0,
            beg_snd_nxt: 0,
            loss: cfg.loss,
            doing_vegas_now: true,
            rtts: AckRtt::default(),
        }
    }

    /// ns-3 `PktsAcked`, Linux `tcp_vegas_pkts_acked`: both minima and the count.
    fn sample(&mut self, rtt: SimDuration) {
        if rtt == SimDuration::ZERO {
            return;
        }
        self.base_rtt = Some(self.base_rtt.map_or(rtt, |b| b.min(rtt)));
        self.min_rtt = Some(self.min_rtt.map_or(rtt, |m| m.min(rtt)));
        self.cnt_rtt += 1;
    }

    /// ns-3 `EnableVegas`, Linux `vegas_enable`: a fresh round from the data sent so far.
    fn enable(&mut self, st: &SenderState) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = st.snd_max;
        self.cnt_rtt = 0;
        self.min_rtt = None;
    }

    /// Diff in whole segments as ns-3 rounds it: cwnd − ⌊cwnd·BaseRTT/RTT⌋, and that
    /// target window ⌊cwnd·BaseRTT/RTT⌋ (tcp-vegas.cc `IncreaseWindow`).
    fn diff(seg_cwnd: u64, base: SimDuration, rtt: SimDuration) -> (u64, u64) {
        let target = ((seg_cwnd as u128 * base.as_nanos() as u128) / rtt.as_nanos().max(1) as u128) as u64;
        let target = target.min(seg_cwnd);
        (seg_cwnd - target, target)
    }

    /// ns-3 `GetSsThresh` used inside the adjustment: max(min(ssthresh, cwnd − SMSS), 2·SMSS),
    /// so the flow leaves slow start.
    fn lowered_ssthresh(st: &SenderState) -> u64 {
        st.ssthresh.min(st.cwnd.saturating_sub(st.mss)).max(2 * st.mss)
    }

    /// The once-per-round adjustment with enough samples (ns-3 `IncreaseWindow`, the
    /// `m_cntRtt > 2` branch; Linux `tcp_vegas_cong_avoid`).
    fn adjust(&mut self, st: &mut SenderState, acked: u64, base: SimDuration, rtt: SimDuration) {
        let mut seg_cwnd = st.cwnd / st.mss;
        let (diff, target) = Self::diff(seg_cwnd, base, rtt);
        let slow_start = st.cwnd < st.ssthresh;
        if diff > self.gamma && slow_start {
            // Too fast for slow start: the window the measured rate fills at BaseRTT,
            // plus one for the truncation.
            seg_cwnd = seg_cwnd.min(target + 1);
            st.cwnd = seg_cwnd * st.mss;
            st.ssthresh = Self::lowered_ssthresh(st);
        } else if slow_start {
            Aimd::grow(st, acked.min(st.mss));
        } else if diff > self.beta {
            st.cwnd = (seg_cwnd - 1).max(1) * st.mss;
            st.ssthresh = Self::lowered_ssthresh(st);
        } else if diff < self.alpha {
            st.cwnd = ((seg_cwnd + 1) * st.mss).min(st.max_cwnd.max(st.cwnd));
        }
        // Both: ssthresh at least 3/4 of the window (ns-3; Linux `tcp_current_ssthresh`).
        st.ssthresh = st.ssthresh.max(3 * st.cwnd / 4);
    }
}

impl CongestionControl for Vegas {
    fn on_ack(&mut self, st: &mut SenderState, now: SimTime, acked: u64, rtt: Option<SimDuration>) {
        // The sender's timed segment is among the ACK's; its own history times every ACK.
        if let Some(r) = self.rtts.on_ack(now, st.snd_una, acked).or(rtt) {
            self.sample(r);
        }
        if !self.doing_vegas_now {
            self.enable(st);
        }
        if st.snd_una >= self.beg_snd_nxt {
            // A round ended: the once-per-RTT decision.
            self.beg_snd_nxt = st.snd_max;
            match (self.base_rtt, self.min_rtt) {
                // At least 3 samples, so one is not from a delayed ACK (both sources).
                (Some(base), Some(min)) if self.cnt_rtt > 2 => self.adjust(st, acked, base, min),
                _ => Aimd.on_ack(st, now, acked, rtt),
            }
            self.cnt_rtt = 0;
            self.min_rtt = None;
        } else if st.cwnd < st.ssthresh {
            // Inside a round only slow start grows (RFC 5681 eq. 2, as ns-3's SlowStart).
            Aimd::grow(st, acked.min(st.mss));
        }
    }

    fn on_congestion(&mut self, st: &mut SenderState, signal: Signal) -> u64 {
        // Any signal leaves CA_Open (recovery, CWR): Vegas pauses until it is Open again.
        self.doing_vegas_now = false;
        match self.loss {
            VegasLoss::Ns3 if signal.is_congestion() => {
                st.ssthresh = Self::lowered_ssthresh(st);
                st.counters.window_reductions += 1;
                st.ssthresh
            }
            _ => Aimd.on_congestion(st, signal),
        }
    }

    fn on_timeout(&mut self, st: &mut SenderState, repeated: bool) {
        self.doing_vegas_now = false;
        self.rtts.clear();
        match self.loss {
            // ns-3 `ReTxTimeout`: ssthresh from `GetSsThresh`, cwnd one segment.
            VegasLoss::Ns3 => {
                st.ssthresh = Self::lowered_ssthresh(st);
                st.cwnd = st.mss;
                st.counters.window_reductions += 1;
            }
            VegasLoss::Halving => Aimd.on_timeout(st, repeated),
        }
    }

    fn on_send(&mut self, now: SimTime, seq: u64, len: u64, retransmission: bool) {
        self.rtts.on_send(now, seq, len, retransmission);
    }
}

#[cfg(test)]
#[path = "vegas_tests.rs"]
mod tests;
