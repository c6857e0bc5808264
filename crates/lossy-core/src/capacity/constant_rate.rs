//! A constant bit rate (the scenario's `rate`): a frame of l bits takes l/rate, rounded
//! up to whole nanoseconds (`time::serialization_delay`), whenever it starts.

use super::{AnyCapacity, Capacity, CapacitySpec};
use crate::time::{serialization_delay, SimTime};
use crate::units::Rate;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "constant"`: the same as the link's `rate`, written as a table (for symmetry
/// with the traces, and for sweeps).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConstantRateConfig {
    /// The bit rate, e.g. "10 Mbps".
    pub rate: Rate,
}

impl CapacitySpec for ConstantRateConfig {
    /// A `Rate` is 1 bps to 1 Tbps when it parses (`units.rs`): nothing more to check.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
    fn build(&self) -> AnyCapacity {
        ConstantRate::new(self.rate.0).into()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstantRate {
    bps: u64,
}

impl ConstantRate {
    /// A rate of `bps` bit/s, > 0 (the scenario checks it).
    pub fn new(bps: u64) -> Self {
        debug_assert!(bps > 0);
        ConstantRate { bps }
    }
}

impl Capacity for ConstantRate {
    #[inline]
    fn frame_end(&mut self, start: SimTime, bits: u64) -> SimTime {
        start + serialization_delay(bits, self.bps)
    }

    fn nominal_rate_bps(&self) -> u64 {
        self.bps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_takes_its_bits_at_the_rate_whenever_it_starts() {
        let mut c = AnyCapacity::from(ConstantRate::new(1_500_000));
        // 256 bits at 1.5 Mbit/s: 170,666.7 ns, rounded up.
        assert_eq!(c.frame_end(SimTime::ZERO, 256), SimTime(170_667));
        assert_eq!(c.frame_end(SimTime(1_000), 256), SimTime(171_667));
        assert_eq!(c.nominal_rate_bps(), 1_500_000);
        // It serves whenever it is asked.
        assert_eq!(c.first_service(SimTime(5), SimTime(5)), SimTime(5));
    }

    #[test]
    fn the_table_builds_the_same_rate() {
        let cfg: ConstantRateConfig = serde_json::from_str(r#"{"rate": "1.5 Mbps"}"#).unwrap();
        assert!(cfg.validate().is_ok());
        assert_eq!(cfg.build(), AnyCapacity::from(ConstantRate::new(1_500_000)));
    }
}
