//! The scenario's `[[wlans]]` tables: one 802.11b WLAN (a shared medium under DCF) per
//! table. Defaults cite their source; `validate` names the field, the value and what is
//! allowed, as `LossConfig::validate` does.

use crate::channel::LossConfig;
use crate::net::queue::QueueConfig;
use crate::units::{Bytes, QueueLimit, Rate};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One 802.11b WLAN: stations that all hear each other, contending for one medium with
/// the distributed coordination function (DCF).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WlanConfig {
    /// The stations (node names), at least 2; every ordered pair is a port that routes
    /// use like a link direction, named "A->B" in the link rows.
    pub stations: Vec<String>,
    /// Data frames' rate: 1, 2, 5.5 or 11 Mbps (802.11b §18.1; default "2 Mbps", the rate
    /// Shagdar et al. simulate).
    #[serde(default = "two_mbps")]
    pub rate: Rate,
    /// Rate of ACK, RTS and CTS frames (default "1 Mbps", ns-2's `basicRate_`).
    #[serde(default = "one_mbps")]
    pub basic_rate: Rate,
    /// Each station's interface queue: a DropTail limit or a queue discipline table
    /// (default "50 packets", ns-2's wireless `ifqlen_`).
    #[serde(default = "default_queue")]
    pub queue: QueueConfig,
    /// Frame errors on every (sender, receiver) pair, each pair its own instance on its
    /// own random stream (`wlan:<i>:A->B:channel`).
    #[serde(default)]
    pub loss: LossConfig,
    /// EWLN at the MAC (Shagdar §III A): a TCP segment still corrupted after the retry
    /// limit reaches the next node as a header with EWLN and CORRUPT set.
    #[serde(default)]
    pub ewln: bool,
    /// Attempts of a frame no longer than `rts_threshold` (and of an RTS) before it is
    /// dropped (dot11ShortRetryLimit: 7, as ns-2's `ShortRetryLimit_`).
    #[serde(default = "seven")]
    pub short_retry_limit: u32,
    /// Attempts of a data frame longer than `rts_threshold` (dot11LongRetryLimit: 4, as
    /// ns-2's `LongRetryLimit_`).
    #[serde(default = "four")]
    pub long_retry_limit: u32,
    /// The smallest contention window, in slots (aCWmin = 31 for DSSS, §15.3.3).
    #[serde(default = "cw_min")]
    pub cw_min: u32,
    /// The largest contention window, in slots (aCWmax = 1023 for DSSS).
    #[serde(default = "cw_max")]
    pub cw_max: u32,
    /// Data frames (MAC header + packet + FCS) longer than this go after an RTS/CTS
    /// exchange. Absent (the default): never, as the issue asks; ns-2's default is 0
    /// (always), the standard's 2347 B (never).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rts_threshold: Option<Bytes>,
    /// MAC header + FCS bytes of a data frame (default "28 B": the 24-byte three-address
    /// header of §7.2.2 and the 4-byte FCS; ns-2's `hdr_mac802_11` counts 34 B, with a
    /// fourth address).
    #[serde(default = "mac_header")]
    pub mac_header: Bytes,
}

fn two_mbps() -> Rate {
    Rate(2_000_000)
}
fn one_mbps() -> Rate {
    Rate(1_000_000)
}
fn default_queue() -> QueueConfig {
    QueueConfig::drop_tail(QueueLimit::Packets(50))
}
fn seven() -> u32 {
    7
}
fn four() -> u32 {
    4
}
fn cw_min() -> u32 {
    31
}
fn cw_max() -> u32 {
    1023
}
fn mac_header() -> Bytes {
    Bytes(28)
}

/// The 802.11b rates (§18.1: 1 and 2 Mbit/s DSSS, 5.5 and 11 Mbit/s CCK).
pub const RATES: [u64; 4] = [1_000_000, 2_000_000, 5_500_000, 11_000_000];
/// The largest retry limit (the MIB's counters are 8-bit).
pub const MAX_RETRY_LIMIT: u32 = 255;
/// The largest contention window: 802.11 windows are 2^k − 1 slots, and aCWmax = 1023.
pub const MAX_CW: u32 = 65_535;
/// MAC header bytes beyond any real 802.11 header (30 B with four addresses + 4 B FCS).
pub const MAX_MAC_HEADER: u64 = 255;

impl WlanConfig {
    /// Checks the fields that need no other part of the scenario; the message starts
    /// with the field's name (stations are checked against the nodes when built).
    pub fn validate(&self) -> Result<(), String> {
        for (field, r) in [("rate", self.rate), ("basic_rate", self.basic_rate)] {
            if !RATES.contains(&r.0) {
                return Err(format!("{field}: {} Mbps is not an 802.11b rate; use 1, 2, 5.5 or 11 Mbps", r.0 as f64 / 1e6));
            }
        }
        for (field, v, default) in [("short_retry_limit", self.short_retry_limit, 7), ("long_retry_limit", self.long_retry_limit, 4)] {
            if !(1..=MAX_RETRY_LIMIT).contains(&v) {
                return Err(format!("{field}: {v} is not allowed; use 1 to {MAX_RETRY_LIMIT} attempts (default {default})"));
            }
        }
        if !(1..=MAX_CW).contains(&self.cw_min) {
            return Err(format!("cw_min: {} is not allowed; use 1 to {MAX_CW} slots (default 31)", self.cw_min));
        }
        if !(1..=MAX_CW).contains(&self.cw_max) {
            return Err(format!("cw_max: {} is not allowed; use 1 to {MAX_CW} slots (default 1023)", self.cw_max));
        }
        if self.cw_min > self.cw_max {
            return Err(format!("cw_min: {} is more than cw_max = {}; use cw_min <= cw_max", self.cw_min, self.cw_max));
        }
        if self.mac_header.0 > MAX_MAC_HEADER {
            return Err(format!("mac_header: {} B is not allowed; use 0 B to {MAX_MAC_HEADER} B (default 28 B)", self.mac_header.0));
        }
        self.loss.validate().map_err(|m| format!("loss.{m}"))?;
        let queue = &self.queue.0;
        crate::net::queue::QueueDiscSpec::validate(queue).map_err(|m| format!("queue.{m}"))?;
        // A station keeps each queued packet's receiver beside its queue, in arrival order
        // (`station.rs`), so its discipline may drop only arrivals.
        match crate::net::queue::QueueDiscSpec::drops_queued(queue) {
            Some(why) => Err(format!("queue.kind: {why}, which a WLAN station cannot do (it keeps each queued packet's receiver in arrival order); use drop_tail, red or pie")),
            None => Ok(()),
        }
    }

    /// The RTS threshold in bytes; `u64::MAX` when RTS/CTS is off.
    pub fn rts_threshold_bytes(&self) -> u64 {
        self.rts_threshold.map_or(u64::MAX, |b| b.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn de(json: &str) -> Result<WlanConfig, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn defaults_follow_the_standard_and_ns2() {
        let c = de(r#"{"stations": ["a", "b"]}"#).unwrap();
        assert_eq!((c.rate.0, c.basic_rate.0), (2_000_000, 1_000_000));
        assert_eq!((c.short_retry_limit, c.long_retry_limit, c.cw_min, c.cw_max), (7, 4, 31, 1023));
        assert_eq!((c.rts_threshold, c.mac_header.0, c.ewln), (None, 28, false));
        assert_eq!(c.queue, QueueConfig::drop_tail(QueueLimit::Packets(50)));
        c.validate().unwrap();
        assert_eq!(de(&serde_json::to_string(&c).unwrap()).unwrap(), c);
    }

    #[test]
    fn a_discipline_that_drops_queued_packets_is_refused_with_the_reason() {
        let msg = |q: &str| de(&format!(r#"{{"stations": ["a", "b"], "queue": {q}}}"#)).unwrap().validate();
        for (kind, why) in [("codel", "codel drops packets it has queued (at dequeue"), ("fq_codel", "fq_codel drops packets it has queued"), ("drop_head", "drop_head drops the oldest queued packet")] {
            let e = msg(&format!(r#"{{"kind": "{kind}", "limit": "50 packets"}}"#)).unwrap_err();
            assert!(e.starts_with(&format!("queue.kind: {why}")), "{e}");
            assert!(e.ends_with("use drop_tail, red or pie"), "{e}");
        }
        // Disciplines that drop only arrivals keep the receivers aligned.
        for q in [r#"{"kind": "pie"}"#, r#"{"kind": "red"}"#, r#""20 packets""#] {
            msg(q).unwrap();
        }
    }

    #[test]
    fn bad_values_name_field_value_and_range() {
        let msg = |j: &str| de(j).unwrap().validate().unwrap_err();
        assert_eq!(msg(r#"{"stations": ["a", "b"], "rate": "3 Mbps"}"#), "rate: 3 Mbps is not an 802.11b rate; use 1, 2, 5.5 or 11 Mbps");
        assert_eq!(msg(r#"{"stations": ["a", "b"], "short_retry_limit": 0}"#), "short_retry_limit: 0 is not allowed; use 1 to 255 attempts (default 7)");
        assert_eq!(msg(r#"{"stations": ["a", "b"], "long_retry_limit": 1000}"#), "long_retry_limit: 1000 is not allowed; use 1 to 255 attempts (default 4)");
        assert_eq!(msg(r#"{"stations": ["a", "b"], "cw_min": 63, "cw_max": 31}"#), "cw_min: 63 is more than cw_max = 31; use cw_min <= cw_max");
        assert_eq!(msg(r#"{"stations": ["a", "b"], "loss": {"model": "ber", "ber": 2}}"#), "loss.ber: 2 is not a probability; use a number in [0, 1]");
        assert!(de(r#"{"stations": ["a", "b"], "colour": 1}"#).unwrap_err().contains("unknown field `colour`"));
    }
}
