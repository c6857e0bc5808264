//! A constant bit rate (the scenario's `rate`): a frame of l bits takes l/rate, rounded
//! up to whole nanoseconds (`time::serialization_delay`), whenever it starts.

use super::Capacity;
use crate::time::{serialization_delay, SimTime};

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
    use crate::capacity::AnyCapacity;

    #[test]
    fn a_frame_takes_its_bits_at_the_rate_whenever_it_starts() {
        let mut c = AnyCapacity::from(ConstantRate::new(1_500_000));
        // 256 bits at 1.5 Mbit/s: 170,666.7 ns, rounded up.
        assert_eq!(c.frame_end(SimTime::ZERO, 256), SimTime(170_667));
        assert_eq!(c.frame_end(SimTime(1_000), 256), SimTime(171_667));
        assert_eq!(c.nominal_rate_bps(), 1_500_000);
    }
}
