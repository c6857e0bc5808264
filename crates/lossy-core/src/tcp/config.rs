//! TCP options a scenario can set. Defaults follow the RFCs; where the papers' ns-2
//! runs differ (1-segment initial window, 500 ms tick) they set the field.

pub use super::cc::abc::Abc;
use super::cc::{CcChoice, CcSpec};
// The loss recovery a scenario picks, `tcp.variant`, from its family's list.
pub use super::recovery::{LossRecoveryConfig, SackAfterTimeout};
use super::recovery::LossRecoverySpec;
pub use super::pacing_choice::PacingChoice;
use crate::units::{Bytes, Duration, SizeRange, HEADER_SIZE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct TcpConfig {
    /// Loss recovery: tahoe, reno, newreno, sack (RFC 6675) or sack1 (ns-2's Sack1).
    pub variant: LossRecoveryConfig,
    /// The congestion control (the window rule, and the pacing rate of one that paces): a
    /// name such as "reno" (the default: RFC 5681) or a table with a `kind` and its
    /// fields. Loss recovery beside it is `variant`'s.
    #[serde(skip_serializing_if = "CcChoice::is_default")]
    pub cc: CcChoice,
    /// The SACK option (RFC 2018): up to 3 blocks on every ACK, which grow it by 12, 20
    /// or 28 B. Unset = on exactly for the SACK variants; a value that contradicts the
    /// variant is an error (a SACK variant needs the blocks, the others cannot use them).
    pub sack: Option<bool>,
    /// What the SACK recovery (`variant = "sack"`) does with its scoreboard when the
    /// retransmission timer expires: "clear" (RFC 2018 §8, RFC 6675 §5.1; the default)
    /// or "keep" (Linux, ns-3), so the go-back-N skips what the receiver holds.
    #[serde(skip_serializing_if = "is_clear")]
    pub sack_after_timeout: SackAfterTimeout,
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
    /// RFC 3465 appropriate byte counting: `false` (RFC 5681 §3.1 growth per ACK) or
    /// L = 1 or 2 segments: slow start adds min(bytes acked, L·SMSS) per ACK, congestion
    /// avoidance one SMSS per cwnd of bytes acked, so delayed ACKs no longer halve growth.
    pub abc: Abc,
    /// Delay ACKs by up to this long, ACKing at least every second full segment
    /// (RFC 5681 §4.2); unset = an ACK for every segment, as in the papers.
    pub delayed_ack: Option<Duration>,
    /// Whether duplicate ACKs carrying ELN trigger a retransmission without a window
    /// reduction (Chen Fig. 1 lines 19-22). Without an ELN agent no ACK carries it.
    pub eln: bool,
    /// The duplicate ACK, counted like `dupack_threshold`, from which one carrying ELN
    /// makes the sender resend at once and keep its window (ns-2's
    /// `eln_rxmit_thresh_`). Default 1, as in ns-2 (`tcl/lib/ns-default.tcl`, from
    /// 1998 on): the mark says the segment was lost on the wireless hop, so waiting for
    /// more duplicates adds no evidence, only delay. Chen's Fig. 1 line 19 writes three
    /// (set it to `dupack_threshold` for that reading). The duplicate-ACK senders
    /// (Tahoe, Reno, NewReno) use it; a SACK sender enters recovery by its own rules.
    pub eln_dupack_threshold: u32,
    /// ECN (RFC 3168 §6.1): new data carries ECT(0), the receiver echoes CE with ECE
    /// until CWR, the sender halves its window at most once per window. Flows start
    /// established, so this switch stands for the SYN/SYN-ACK negotiation (§6.1.1).
    pub ecn: bool,
    /// Syndrome at the receiver (Chen et al. 2002): "downlink" when the receiver is the
    /// mobile host behind the stamping base station (FH → BS → MH, Fig. 1 Case 1),
    /// "uplink" when it is the fixed host (MH → BS → FH, Case 2). The receiver then sets
    /// ELN on duplicate ACKs it attributes to wireless losses; with no stamped packet it
    /// is plain TCP. Unset = off. Pair it with `eln = true` (the default) at the sender
    /// and a `kind = "syndrome"` agent at the base station.
    pub syndrome: Option<super::inference::SyndromeRole>,
    /// Adaptive FEC at the sender (Miyoshi §4, Fig. 6): the packet error rate over each
    /// window of segments, counted from ELN-marked ACKs, picks the code of a link whose
    /// `link_layer` is `kind = "adaptive_fec"`; every data segment asks for it in its
    /// header. `{ window = 10, up = [...], down = [...] }`; unset = off.
    pub adaptive_fec: Option<crate::fec_control::FecControlConfig>,
    /// EWLN (Shagdar §III): the receiver answers a header that a WLAN's MAC passed on
    /// corrupted (`ewln = true` on the WLAN) with ACKs naming that segment, and the
    /// sender resends it at once, without a window reduction. Default false.
    pub ewln: bool,
    /// Pacing for a congestion control that asks for no rate of its own: "none" (the
    /// default) or "linux", Linux's rate for every TCP flow under the fq qdisc
    /// (net/ipv4/tcp_input.c `tcp_update_pacing_rate`: max(cwnd, FlightSize) / SRTT ×
    /// 200 % while cwnd < ssthresh / 2, × 120 % otherwise). BBR and BBRv3 keep their own.
    #[serde(skip_serializing_if = "PacingChoice::is_none")]
    pub pacing: PacingChoice,
}

impl Default for TcpConfig {
    fn default() -> Self {
        TcpConfig {
            variant: LossRecoveryConfig::default(),
            cc: CcChoice::default(),
            sack: None,
            sack_after_timeout: SackAfterTimeout::Clear,
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
            abc: Abc::Off,
            delayed_ack: None,
            eln: true,
            eln_dupack_threshold: 1,
            ecn: false,
            syndrome: None,
            adaptive_fec: None,
            ewln: false,
            pacing: PacingChoice::None,
        }
    }
}

/// What `initial_window`, `dupack_threshold` and `eln_dupack_threshold` accept: a u32
/// that is not 0.
pub const SEGMENT_COUNT: &str = "a whole number from 1 to 4,294,967,295";
/// Payload bytes per segment; 65,000 leaves room for headers in IPv4's 65,535.
pub const MSS: SizeRange = SizeRange { lo: 1, hi: 65_000 };
/// A pure ACK is one IPv4 packet of at least one byte.
pub const ACK_SIZE: SizeRange = SizeRange { lo: 1, hi: 65_535 };

/// The SACK option with three blocks (RFC 2018 §3, padded): an ACK grows by at most this.
const MAX_SACK_OPTION: u64 = 28;

fn is_clear(s: &SackAfterTimeout) -> bool {
    *s == SackAfterTimeout::Clear
}

impl TcpConfig {
    /// Whether ACKs carry SACK blocks.
    pub fn sack_on(&self) -> bool {
        self.sack.unwrap_or(self.variant.uses_sack())
    }

    /// RFC 5681 §3.1: IW = 2, 3 or 4 segments by SMSS, unless set.
    pub fn initial_window_segments(&self) -> u32 {
        self.initial_window.unwrap_or(match self.mss.0 {
            m if m > 2190 => 2,
            m if m > 1095 => 3,
            _ => 4,
        })
    }

    /// Checks ranges serde cannot express; errors name the field relative to `tcp`.
    /// The counts' range (`SEGMENT_COUNT`) is also what a wrong type is told.
    pub fn validate(&self) -> Result<(), String> {
        MSS.check("mss", self.mss)?;
        HEADER_SIZE.check("header", self.header)?;
        ACK_SIZE.check("ack_size", self.ack_size)?;
        if self.initial_window == Some(0) {
            return Err(format!("initial_window: 0 is out of range; use {SEGMENT_COUNT}"));
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
            return Err(format!("dupack_threshold: 0 is out of range; use {SEGMENT_COUNT}"));
        }
        if self.eln_dupack_threshold == 0 {
            return Err(format!("eln_dupack_threshold: 0 is out of range; use {SEGMENT_COUNT} (ns-2's default is 1)"));
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
        if let Abc::Limit(n) = self.abc {
            Abc::limit(n as u64).map_err(|m| format!("abc: {m}"))?;
            if !self.cc.0.uses_abc() {
                return Err(format!(
                    "abc: {n} has no effect with cc = \"{}\", which does not count bytes acked by RFC 3465; remove abc or use cc = \"reno\"",
                    self.cc.kind()
                ));
            }
        }
        self.cc.validate()?;
        if let Some(fec) = &self.adaptive_fec {
            fec.validate().map_err(|m| format!("adaptive_fec.{m}"))?;
        }
        if self.sack_after_timeout == SackAfterTimeout::Keep && !self.variant.can_keep_sack_after_timeout() {
            return Err(format!(
                "sack_after_timeout: \"keep\" has no effect with variant = \"{}\", which keeps no RFC 6675 scoreboard; remove it or use variant = \"sack\"",
                self.variant.name()
            ));
        }
        match (self.sack, self.variant.uses_sack()) {
            (Some(false), true) => {
                return Err(format!(
                    "sack: false contradicts variant = \"{}\", which recovers from SACK blocks; remove sack or pick tahoe, reno or newreno",
                    self.variant.name()
                ))
            }
            (Some(true), false) => {
                return Err(format!(
                    "sack: true has no SACK sender with variant = \"{}\"; use variant = \"sack\" (RFC 6675) or \"sack1\" (ns-2's Sack1)",
                    self.variant.name()
                ))
            }
            _ => {}
        }
        if self.variant.uses_sack() && self.ack_size.0 + MAX_SACK_OPTION > ACK_SIZE.hi {
            return Err(format!(
                "ack_size: {} B leaves no room for the SACK option ({MAX_SACK_OPTION} B); use at most {} B",
                self.ack_size.0,
                ACK_SIZE.hi - MAX_SACK_OPTION
            ));
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

    fn abc_from(json: &str) -> Result<Abc, String> {
        let text = format!(r#"{{"abc": {json}}}"#);
        let de = &mut serde_json::Deserializer::from_str(&text);
        serde_path_to_error::deserialize::<_, TcpConfig>(de).map(|c| c.abc).map_err(|e| {
            let path = e.path().to_string();
            format!("{path}: {}", e.into_inner())
        })
    }

    #[test]
    fn abc_accepts_false_1_and_2_and_defaults_to_off() {
        assert_eq!(TcpConfig::default().abc, Abc::Off);
        assert_eq!(abc_from("false"), Ok(Abc::Off));
        assert_eq!(abc_from("1"), Ok(Abc::Limit(1)));
        assert_eq!(abc_from("2").map(Abc::limit_segments), Ok(Some(2)));
        let c = TcpConfig { abc: Abc::Limit(2), ..Default::default() };
        let back: TcpConfig = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back.abc, Abc::Limit(2));
        assert!(serde_json::to_string(&TcpConfig::default()).unwrap().contains(r#""abc":false"#));
    }

    #[test]
    fn abc_rejects_anything_else_naming_the_value() {
        // RFC 3465 §2.3: L > 2·SMSS MUST NOT be used.
        assert!(abc_from("3").unwrap_err().starts_with("abc: 3 is not allowed; use false, 1 or 2"));
        assert!(abc_from("0").unwrap_err().starts_with("abc: 0 is not allowed; use false, 1 or 2"));
        assert!(abc_from("-1").unwrap_err().starts_with("abc: -1 is not allowed"));
        assert!(abc_from("1.5").unwrap_err().starts_with("abc: 1.5 is not allowed"));
        assert!(abc_from(r#""2""#).unwrap_err().starts_with(r#"abc: "2" is not allowed"#));
        assert!(abc_from("true").unwrap_err().starts_with("abc: true is not allowed; use 2"));
        let c = TcpConfig { abc: Abc::Limit(3), ..Default::default() };
        assert_eq!(c.validate().unwrap_err(), "abc: 3 is not allowed; use false, 1 or 2");
    }

    #[test]
    fn abc_error_in_a_scenario_names_the_path() {
        let scenario = r#"{"nodes": ["a", "b"], "links": [{"between": ["a", "b"], "rate": "2 Mbps", "delay": "5 ms"}],
            "flows": [{"from": "a", "to": "b", "tcp": {"abc": 3}}]}"#;
        let e = crate::scenario::parse_json(scenario).unwrap_err().to_string();
        assert_eq!(e, "flows.0.tcp.abc: 3 is not allowed; use false, 1 or 2");
        let ok = scenario.replace(r#""abc": 3"#, r#""abc": 2"#);
        assert_eq!(crate::scenario::parse_json(&ok).unwrap().flows[0].tcp.abc, Abc::Limit(2));
    }

    #[test]
    fn abc_schema_allows_false_1_and_2() {
        let schema = serde_json::to_value(schemars::schema_for!(TcpConfig)).unwrap();
        let abc = &schema["$defs"]["Abc"]["anyOf"];
        assert_eq!(abc[0]["const"], false);
        assert_eq!(abc[1]["enum"], serde_json::json!([1, 2]));
        assert!(schema["properties"]["abc"]["description"].as_str().unwrap().contains("RFC 3465"));
    }
}
