//! PIE's scenario table (`queue = { kind = "pie", ... }`) and its checks. Defaults are
//! RFC 8033's (§4, §5 and Appendix A) and, where the RFC leaves a value open, ns-3's
//! `src/traffic-control/model/pie-queue-disc.cc` attributes.

use super::pie::{Pie, PieParams};
use super::{AnyQueueDisc, QueueDiscSpec};
use crate::capacity::AnyCapacity;
use crate::rng::RngStream;
use crate::time::SimDuration;
use crate::units::{Bytes, Duration, QueueLimit};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "pie"`: PIE (RFC 8033) with the timestamp method of measuring the queueing
/// delay (the RFC's Appendix A).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PieConfig {
    /// Packets or bytes the queue holds, not counting the one being sent; an arrival
    /// that does not fit is dropped. Default "1000 packets" (RFC 8033 sets none; ns-3's
    /// `MaxSize` is 25 packets).
    #[serde(default = "default_limit")]
    pub limit: QueueLimit,
    /// The queueing delay PIE steers toward (QDELAY_REF), > 0. Default "15 ms" (RFC 8033 §5).
    #[serde(default = "default_target")]
    pub target: Duration,
    /// The period of the drop-probability update (T_UPDATE), > 0. Default "15 ms" (RFC 8033 §5).
    #[serde(default = "default_tupdate")]
    pub tupdate: Duration,
    /// Weight of the delay's distance from target, per second, in (0, 10]. Default 0.125
    /// (RFC 8033 §5: alpha = 1/8 Hz).
    #[serde(default = "default_alpha")]
    #[schemars(range(min = 0.0, max = 10.0))]
    pub alpha: f64,
    /// Weight of the delay's change since the last update, per second, in (0, 100].
    /// Default 1.25 (RFC 8033 §5: beta = 1 + 1/4 Hz).
    #[serde(default = "default_beta")]
    #[schemars(range(min = 0.0, max = 100.0))]
    pub beta: f64,
    /// Burst allowance (MAX_BURST): after a quiet spell no early drop for this long.
    /// Default "150 ms" (RFC 8033 §5); "0 s" turns it off.
    #[serde(default = "default_max_burst")]
    pub max_burst: Duration,
    /// Derandomization (RFC 8033 §5.4, Appendix B): drop only once the probabilities
    /// accumulated since the last drop reach 0.85, and surely by 8.5. Default false
    /// (ns-3's `UseDerandomization`).
    #[serde(default)]
    pub derandomize: bool,
    /// Mark ECN-capable packets CE instead of dropping them early while the drop
    /// probability is below 10 % (RFC 8033 §5.1, mark_ecnth). Default false.
    #[serde(default)]
    pub ecn: bool,
    /// With a byte limit, the queue of at most 2 mean packets in which PIE drops nothing
    /// early (RFC 8033 §4.1's `2 * MEAN_PKTSIZE`). Default "1000 B" (ns-3's `MeanPktSize`).
    #[serde(default = "default_mean_packet_size")]
    pub mean_packet_size: Bytes,
}

fn default_limit() -> QueueLimit {
    QueueLimit::Packets(1000)
}
fn default_target() -> Duration {
    Duration::from_millis(15)
}
fn default_tupdate() -> Duration {
    Duration::from_millis(15)
}
fn default_alpha() -> f64 {
    0.125
}
fn default_beta() -> f64 {
    1.25
}
fn default_max_burst() -> Duration {
    Duration::from_millis(150)
}
fn default_mean_packet_size() -> Bytes {
    Bytes(1000)
}

impl Default for PieConfig {
    fn default() -> Self {
        PieConfig {
            limit: default_limit(),
            target: default_target(),
            tupdate: default_tupdate(),
            alpha: default_alpha(),
            beta: default_beta(),
            max_burst: default_max_burst(),
            derandomize: false,
            ecn: false,
            mean_packet_size: default_mean_packet_size(),
        }
    }
}

impl QueueDiscSpec for PieConfig {
    fn validate(&self) -> Result<(), String> {
        if self.target.0 == SimDuration::ZERO {
            return Err("target: 0 s is not allowed; use a duration > 0, e.g. \"15 ms\" (RFC 8033 §5)".into());
        }
        if self.tupdate.0 == SimDuration::ZERO {
            return Err("tupdate: 0 s is not allowed; use a duration > 0, e.g. \"15 ms\" (RFC 8033 §5)".into());
        }
        // The RFC's α and β are per second (Hz, §4.2); far beyond its values the update
        // overshoots on every step.
        if !(self.alpha > 0.0 && self.alpha <= 10.0) {
            return Err(format!("alpha: {} is not allowed; use a number in (0, 10] per second, e.g. 0.125 (RFC 8033 §5)", self.alpha));
        }
        if !(self.beta > 0.0 && self.beta <= 100.0) {
            return Err(format!("beta: {} is not allowed; use a number in (0, 100] per second, e.g. 1.25 (RFC 8033 §5)", self.beta));
        }
        if self.mean_packet_size.0 == 0 {
            return Err("mean_packet_size: 0 B is not allowed; use a size > 0, e.g. \"1000 B\"".into());
        }
        Ok(())
    }

    fn build(&self, _capacity: &AnyCapacity, _delay: SimDuration, rng: RngStream) -> Result<AnyQueueDisc, String> {
        self.validate()?;
        let p = PieParams {
            limit: self.limit,
            target: self.target.0.as_secs_f64(),
            tupdate: self.tupdate.0,
            alpha: self.alpha,
            beta: self.beta,
            max_burst: self.max_burst.0,
            derandomize: self.derandomize,
            ecn: self.ecn,
            mean_packet_size: self.mean_packet_size.0,
        };
        Ok(Pie::new(p, rng).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn de(json: &str) -> PieConfig {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn defaults_are_rfc_8033s() {
        let c = de("{}");
        assert_eq!(c, PieConfig::default());
        assert_eq!((c.target, c.tupdate, c.alpha, c.beta, c.max_burst), (Duration::from_millis(15), Duration::from_millis(15), 0.125, 1.25, Duration::from_millis(150)));
        assert!(!c.derandomize && !c.ecn);
    }

    #[test]
    fn bad_values_name_the_field_and_what_is_allowed() {
        let msg = |j: &str| de(j).validate().unwrap_err();
        assert!(msg(r#"{"target": "0 ms"}"#).starts_with("target: 0 s is not allowed; use a duration > 0"));
        assert!(msg(r#"{"tupdate": 0}"#).starts_with("tupdate: 0 s is not allowed; use a duration > 0"));
        assert!(msg(r#"{"alpha": 0}"#).starts_with("alpha: 0 is not allowed; use a number in (0, 10]"));
        assert!(msg(r#"{"alpha": 11}"#).starts_with("alpha: 11 is not allowed"));
        assert!(msg(r#"{"beta": -1}"#).starts_with("beta: -1 is not allowed; use a number in (0, 100]"));
        assert!(msg(r#"{"mean_packet_size": "0 B"}"#).starts_with("mean_packet_size: 0 B is not allowed"));
    }
}
