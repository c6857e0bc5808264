//! TCP options a scenario can set. Defaults follow the RFCs; where the papers' ns-2
//! runs differ (1-segment initial window, 500 ms tick) they set the field.

use crate::units::{Bytes, Duration};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Fast retransmit, then slow start from one segment.
    Tahoe,
    /// RFC 5681 fast retransmit and fast recovery.
    Reno,
    /// RFC 6582: Reno with partial-ACK handling.
    #[default]
    Newreno,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct TcpConfig {
    /// Loss recovery: tahoe, reno or newreno.
    pub variant: Variant,
    /// Sender maximum segment size (payload bytes per segment). Default 1000 B, as in
    /// the papers' ns-2 runs and the ns-3 anchor.
    pub mss: Bytes,
    /// TCP/IP header bytes added to every data segment (20 + 20).
    pub header: Bytes,
    /// Bytes on the wire of a pure ACK.
    pub ack_size: Bytes,
    /// Initial window in segments; unset = RFC 5681 §3.1 (2, 3 or 4 by SMSS). ns-2 used 1.
    pub initial_window: Option<u32>,
    /// Maximum window W_max (the receiver's advertised window / socket buffer).
    pub max_window: Bytes,
    /// Duplicate ACKs that trigger fast retransmit, K (RFC 5681: 3).
    pub dupack_threshold: u32,
    /// RTO before the first RTT sample (RFC 6298 §2.1: 1 s).
    pub initial_rto: Duration,
    /// Lower bound on the RTO (RFC 6298 §2.4: 1 s). Chockalingam uses 100 packet times.
    pub min_rto: Duration,
    /// Upper bound on the RTO (RFC 6298 §2.5 allows a cap of at least 60 s).
    pub max_rto: Duration,
    /// Timer granularity G; the RTO is rounded up to a multiple of it (ns-2: 500 ms).
    pub timer_granularity: Duration,
    /// RFC 3042 limited transmit: send new data on the first two duplicate ACKs.
    pub limited_transmit: bool,
    /// Delay ACKs by up to this long, ACKing at least every second full segment
    /// (RFC 5681 §4.2); unset = an ACK for every segment, as in the papers.
    pub delayed_ack: Option<Duration>,
    /// Whether duplicate ACKs carrying ELN trigger a retransmission without a window
    /// reduction (Chen Fig. 1 lines 19-22). Without an ELN agent no ACK carries it.
    pub eln: bool,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            variant: Variant::default(),
            mss: Bytes(1000),
            header: Bytes(40),
            ack_size: Bytes(40),
            initial_window: None,
            max_window: Bytes(65_535),
            dupack_threshold: 3,
            initial_rto: Duration::from_secs(1),
            min_rto: Duration::from_secs(1),
            max_rto: Duration::from_secs(60),
            timer_granularity: Duration::from_millis(1),
            limited_transmit: true,
            delayed_ack: None,
            eln: true,
        }
    }
}

impl TcpConfig {
    /// RFC 5681 §3.1: IW = 2, 3 or 4 segments by SMSS, unless set.
    pub fn initial_window_segments(&self) -> u32 {
        self.initial_window.unwrap_or(match self.mss.0 {
            m if m > 2190 => 2,
            m if m > 1095 => 3,
            _ => 4,
        })
    }

    /// Checks ranges serde cannot express; errors name the field relative to `tcp`.
    pub fn validate(&self) -> Result<(), String> {
        if self.mss.0 == 0 || self.mss.0 > 65_000 {
            return Err(format!("mss: {} B is out of range; use 1 B to 65000 B", self.mss.0));
        }
        if self.ack_size.0 == 0 {
            return Err("ack_size: 0 B is too small; an ACK has at least 1 byte".into());
        }
        if self.initial_window == Some(0) {
            return Err("initial_window: 0 is not allowed; use 1 or more segments".into());
        }
        if self.max_window.0 < self.mss.0 {
            return Err(format!(
                "max_window: {} B is smaller than one segment ({} B); use at least the mss",
                self.max_window.0, self.mss.0
            ));
        }
        if self.max_window.0 > u32::MAX as u64 {
            return Err(format!("max_window: {} B is too large; use at most 4 GiB", self.max_window.0));
        }
        if self.dupack_threshold == 0 {
            return Err("dupack_threshold: 0 is not allowed; use 1 or more".into());
        }
        if self.min_rto > self.max_rto {
            return Err(format!(
                "min_rto: {} s is above max_rto ({} s); make min_rto <= max_rto",
                self.min_rto.0.as_secs_f64(),
                self.max_rto.0.as_secs_f64()
            ));
        }
        if self.initial_rto.0.as_nanos() == 0 {
            return Err("initial_rto: 0 s is not allowed; use a positive duration such as \"1 s\"".into());
        }
        if self.max_rto.0.as_nanos() == 0 {
            return Err("max_rto: 0 s is not allowed; use a positive duration such as \"60 s\"".into());
        }
        if self.delayed_ack.is_some_and(|d| d.0.as_nanos() == 0) {
            return Err("delayed_ack: 0 s is not allowed; leave it unset for an ACK per segment".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_window_follows_rfc5681_by_smss() {
        let mut c = TcpConfig::default();
        assert_eq!(c.initial_window_segments(), 4);
        c.mss = Bytes(1460);
        assert_eq!(c.initial_window_segments(), 3);
        c.mss = Bytes(4000);
        assert_eq!(c.initial_window_segments(), 2);
        c.initial_window = Some(1);
        assert_eq!(c.initial_window_segments(), 1);
    }

    #[test]
    fn unknown_fields_are_rejected() {
        let e = serde_json::from_str::<TcpConfig>(r#"{"varient": "reno"}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `varient`"), "{e}");
    }

    #[test]
    fn validation_names_the_field() {
        let c = TcpConfig { dupack_threshold: 0, ..Default::default() };
        assert!(c.validate().unwrap_err().starts_with("dupack_threshold:"));
    }
}
