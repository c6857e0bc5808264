//! RED's scenario table (`queue = { kind = "red", ... }`), its checks, and the automatic
//! values ns-2.35 derives from the link (`REDQueue::initialize_params`, `reset`).
//! Defaults are ns-2.35's (`tcl/lib/ns-default.tcl`) unless a field says otherwise.

use super::Red;
use crate::net::queue::{AnyQueueDisc, QueueDiscSpec};
use crate::capacity::{AnyCapacity, Capacity};
use crate::rng::RngStream;
use crate::time::SimDuration;
use crate::units::{Bytes, QueueLimit};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Whether RED measures the queue in packets or in bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RedMode {
    /// The queue is counted in packets; every packet has the same drop probability.
    Packets,
    /// The queue is counted in bytes, the thresholds are in mean packet sizes, and the
    /// drop probability is scaled by size / mean_packet_size (ns-2.35's default:
    /// `bytes_` and `queue_in_bytes_` true).
    #[default]
    Bytes,
}

/// `kind = "red"`: Random Early Detection (Floyd and Jacobson 1993) as ns-2.35's
/// `Queue/RED`. Omit min_th, max_th or w_q for ns-2.35's automatic values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RedConfig {
    /// Hard limit, in packets or bytes, not counting the packet being sent: an arrival
    /// that does not fit is dropped. Default "100 packets" (lossy's DropTail default;
    /// ns-2's `limit_` is 50 and in byte mode counts mean packet sizes).
    #[serde(default = "default_limit")]
    pub limit: QueueLimit,
    /// Minimum threshold of the average queue, in packets (mean packet sizes in byte
    /// mode), >= 0. Omitted: ns-2.35's automatic value max(5, 0.005 s × C / 2), C the
    /// link's rate in mean packets per second (`thresh_ 0`, `targetdelay_ 0.005`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub min_th: Option<f64>,
    /// Maximum threshold, in the unit of min_th, above min_th. Omitted: 3 × min_th
    /// (ns-2.35's `maxthresh_ 0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0))]
    pub max_th: Option<f64>,
    /// Drop probability at max_th, in (0, 1]. Default 0.1 (ns-2.35's `linterm_ 10`;
    /// the paper used 1/50).
    #[serde(default = "default_max_p")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub max_p: f64,
    /// Weight of the average, in (0, 1]. Omitted: ns-2.35's automatic value
    /// 1 − exp(−1 / (10 · RTT · C)), RTT = max(0.1 s, 3 × (delay + 1/C)) (`q_weight_ -1`;
    /// the paper used 0.002).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub w_q: Option<f64>,
    /// Gentle mode: between max_th and 2 × max_th the probability rises from max_p to 1
    /// instead of jumping to 1. Default true (ns-2.35's `gentle_`).
    #[serde(default = "default_true")]
    pub gentle: bool,
    /// "packets" or "bytes". Default "bytes" (ns-2.35's `bytes_` and `queue_in_bytes_`).
    #[serde(default)]
    pub mode: RedMode,
    /// Mean packet size: the unit of the thresholds in byte mode, the scale of byte-mode
    /// probabilities, and the packet rate C of the idle-time decay and the automatic
    /// values. Default "500 B" (ns-2.35's `mean_pktsize_`).
    #[serde(default = "default_mean_packet_size")]
    pub mean_packet_size: Bytes,
    /// Mark ECN-capable packets (set CE) instead of dropping them early. Default false
    /// (ns-2.35's `setbit_`).
    #[serde(default)]
    pub ecn: bool,
    /// ns-2's `wait_`: spacing p_a = p_b / (2 − count·p_b), 0 while count·p_b < 1.
    /// Default false: the paper's p_a = p_b / (1 − count·p_b) (ns-2.35's default is true).
    #[serde(default)]
    pub wait: bool,
    /// ns-2's `mark_p_`: an ECN-capable packet chosen early is marked only while p_b <
    /// mark_p, and dropped otherwise (ns-2 from April 2002, `queue/red.cc` `drop_early`;
    /// before, while avg < max_th). Omitted: every early choice of an ECT packet is a
    /// mark, up to 2 × max_th in gentle mode (ns-2.35 with `use_mark_p_ false`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub mark_p: Option<f64>,
}

fn default_limit() -> QueueLimit {
    QueueLimit::Packets(100)
}
fn default_max_p() -> f64 {
    0.1
}
fn default_true() -> bool {
    true
}
fn default_mean_packet_size() -> Bytes {
    Bytes(500)
}

impl Default for RedConfig {
    fn default() -> Self {
        RedConfig {
            limit: default_limit(),
            min_th: None,
            max_th: None,
            max_p: default_max_p(),
            w_q: None,
            gentle: true,
            mode: RedMode::default(),
            mean_packet_size: default_mean_packet_size(),
            ecn: false,
            wait: false,
            mark_p: None,
        }
    }
}

/// RED's settings with the automatic ones resolved; thresholds in the queue's unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedParams {
    pub limit: QueueLimit,
    /// Thresholds in packets, or in bytes in byte mode.
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub w_q: f64,
    pub gentle: bool,
    pub bytes: bool,
    /// Mean packet size in bytes.
    pub mean: f64,
    pub ecn: bool,
    pub wait: bool,
    /// Marks only while p_b < mark_p (ns-2's `mark_p_`); `None`: always.
    pub mark_p: Option<f64>,
    /// The link's nominal rate in mean packets per second (ns-2's `ptc`).
    pub ptc: f64,
    /// The link capacity's nominal rate: the queue is idle once the last packet's
    /// transmission ends, which RED works out at this rate (`red.rs`, `dequeue`).
    pub nominal_rate_bps: u64,
}

/// `field: v is not allowed; use ...` unless `ok`.
fn check(ok: bool, field: &str, v: f64, allowed: &str) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("{field}: {v} is not allowed; use {allowed}"))
    }
}

impl QueueDiscSpec for RedConfig {
    fn validate(&self) -> Result<(), String> {
        RedConfig::validate(self)
    }
    /// RED's automatic values depend on the link's nominal rate and delay.
    fn build(&self, capacity: &AnyCapacity, delay: SimDuration, rng: RngStream) -> Result<AnyQueueDisc, String> {
        Ok(Red::new(self.resolve(capacity.nominal_rate_bps(), delay)?, rng).into())
    }
}

impl RedConfig {
    /// Checks the fields that do not depend on the link; messages name the field.
    pub fn validate(&self) -> Result<(), String> {
        let omit = "or omit it for the automatic value";
        if let Some(v) = self.min_th {
            check(v.is_finite() && v >= 0.0, "min_th", v, &format!("a number of packets >= 0, {omit}"))?;
        }
        if let Some(v) = self.max_th {
            check(v.is_finite() && v > 0.0, "max_th", v, &format!("a number of packets above min_th, {omit}"))?;
        }
        check(self.max_p > 0.0 && self.max_p <= 1.0, "max_p", self.max_p, "a number in (0, 1], e.g. 0.1")?;
        if let Some(v) = self.w_q {
            check(v > 0.0 && v <= 1.0, "w_q", v, &format!("a number in (0, 1], e.g. 0.002, {omit}"))?;
        }
        if let Some(v) = self.mark_p {
            check(v > 0.0 && v <= 1.0, "mark_p", v, "a number in (0, 1], e.g. 0.1 (ns-2's mark_p_), or omit it to mark every early choice")?;
        }
        if self.mean_packet_size.0 == 0 {
            return Err("mean_packet_size: 0 B is not allowed; use a size > 0, e.g. \"500 B\"".into());
        }
        if let (Some(lo), Some(hi)) = (self.min_th, self.max_th) {
            check(hi > lo, "max_th", hi, &format!("a number of packets above min_th ({lo})"))?;
        }
        Ok(())
    }

    /// The settings for a link of `nominal_rate_bps` (its capacity's) and one-way
    /// `delay`, automatic values filled in as ns-2.35 does; fails when an automatic
    /// min_th is not below max_th.
    pub fn resolve(&self, nominal_rate_bps: u64, delay: SimDuration) -> Result<RedParams, String> {
        self.validate()?;
        let mean = self.mean_packet_size.0 as f64;
        let ptc = nominal_rate_bps as f64 / (8.0 * mean);
        // ns-2.35 initialize_params: th_min = max(5, targetdelay · ptc / 2), th_max = 3 · th_min.
        let min_th = self.min_th.unwrap_or_else(|| (0.005 * ptc / 2.0).max(5.0));
        let max_th = self.max_th.unwrap_or(3.0 * min_th);
        if max_th <= min_th {
            let how = if self.min_th.is_some() { "" } else { ", automatic" };
            return Err(format!("max_th: {max_th} is not allowed; use a number of packets above min_th ({min_th}{how})"));
        }
        // ns-2.35 initialize_params, q_weight_ = -1: RTT = max(0.1 s, 3 (delay + 1/ptc)).
        let w_q = self.w_q.unwrap_or_else(|| {
            let rtt = (3.0 * (delay.as_secs_f64() + 1.0 / ptc)).max(0.1);
            1.0 - (-1.0 / (10.0 * rtt * ptc)).exp()
        });
        let bytes = self.mode == RedMode::Bytes;
        // ns-2.35 reset: with queue_in_bytes_ the thresholds count mean packet sizes.
        let unit = if bytes { mean } else { 1.0 };
        Ok(RedParams {
            limit: self.limit,
            min_th: min_th * unit,
            max_th: max_th * unit,
            max_p: self.max_p,
            w_q,
            gentle: self.gentle,
            bytes,
            mean,
            ecn: self.ecn,
            wait: self.wait,
            mark_p: self.mark_p,
            ptc,
            nominal_rate_bps,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn de(json: &str) -> RedConfig {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn defaults_are_ns2_35s() {
        let c = de("{}");
        assert_eq!(c, RedConfig::default());
        assert_eq!((c.max_p, c.gentle, c.mode, c.mean_packet_size, c.ecn, c.wait), (0.1, true, RedMode::Bytes, Bytes(500), false, false));
        assert_eq!((c.min_th, c.max_th, c.w_q), (None, None, None));
    }

    #[test]
    fn automatic_values_follow_ns2_35() {
        // 10 Mbps, 500-B mean: C = 2500 pkt/s; min_th = max(5, 0.005·2500/2 = 6.25).
        let p = RedConfig { mode: RedMode::Packets, ..RedConfig::default() }.resolve(10_000_000, SimDuration::from_millis(10)).unwrap();
        assert_eq!((p.ptc, p.min_th, p.max_th), (2500.0, 6.25, 18.75));
        // RTT = max(0.1, 3·(0.01 + 0.0004)) = 0.1 s: w_q = 1 − e^(−1/2500).
        assert!((p.w_q - (1.0 - (-1.0f64 / 2500.0).exp())).abs() < 1e-15);
        // A slow link: min_th 5; a long delay sets the RTT: 3·(0.1 + 1/250) = 0.312 s.
        let p = RedConfig::default().resolve(1_000_000, SimDuration::from_millis(100)).unwrap();
        assert_eq!((p.min_th, p.max_th), (5.0 * 500.0, 15.0 * 500.0), "byte mode counts mean packet sizes");
        assert!((p.w_q - (1.0 - (-1.0f64 / (10.0 * 0.312 * 250.0)).exp())).abs() < 1e-12);
        // Given values are kept; max_th alone follows a given min_th.
        let c = RedConfig { min_th: Some(4.0), w_q: Some(0.002), mode: RedMode::Packets, ..RedConfig::default() };
        let p = c.resolve(1_000_000, SimDuration::ZERO).unwrap();
        assert_eq!((p.min_th, p.max_th, p.w_q), (4.0, 12.0, 0.002));
    }

    #[test]
    fn bad_values_name_the_field_and_what_is_allowed() {
        let msg = |j: &str| de(j).validate().unwrap_err();
        assert_eq!(msg(r#"{"max_p": 0}"#), "max_p: 0 is not allowed; use a number in (0, 1], e.g. 0.1");
        assert_eq!(msg(r#"{"max_p": 1.5}"#), "max_p: 1.5 is not allowed; use a number in (0, 1], e.g. 0.1");
        assert!(msg(r#"{"w_q": 0}"#).starts_with("w_q: 0 is not allowed; use a number in (0, 1]"));
        assert!(msg(r#"{"w_q": 2}"#).starts_with("w_q: 2 is not allowed"));
        assert!(msg(r#"{"min_th": -1}"#).starts_with("min_th: -1 is not allowed; use a number of packets >= 0"));
        assert!(msg(r#"{"max_th": -3}"#).starts_with("max_th: -3 is not allowed"));
        assert_eq!(msg(r#"{"min_th": 15, "max_th": 15}"#), "max_th: 15 is not allowed; use a number of packets above min_th (15)");
        assert!(msg(r#"{"mean_packet_size": 0}"#).starts_with("mean_packet_size: 0 B is not allowed"));
        assert!(msg(r#"{"mark_p": 0}"#).starts_with("mark_p: 0 is not allowed; use a number in (0, 1]"));
        // An automatic min_th (5 on a slow link) above a given max_th.
        let e = de(r#"{"max_th": 4}"#).resolve(1_000_000, SimDuration::ZERO).unwrap_err();
        assert_eq!(e, "max_th: 4 is not allowed; use a number of packets above min_th (5, automatic)");
        let e = serde_json::from_str::<RedConfig>(r#"{"mode": "frames"}"#).unwrap_err().to_string();
        assert!(e.contains("unknown variant `frames`"), "{e}");
    }
}
