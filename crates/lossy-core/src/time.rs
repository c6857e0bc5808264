//! Simulated time in integer nanoseconds (docs/architecture.md#integer-time): no float
//! drift, and event-queue order is exact. Floats appear only in statistics.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in simulated time, nanoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A span of simulated time in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimDuration(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }

    /// Time elapsed since `earlier` (zero if `earlier` is later).
    pub fn since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    pub const ZERO: SimDuration = SimDuration(0);

    pub const fn from_nanos(ns: u64) -> Self {
        SimDuration(ns)
    }
    pub const fn from_micros(us: u64) -> Self {
        SimDuration(us * 1_000)
    }
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration(ms * 1_000_000)
    }
    pub const fn from_secs(s: u64) -> Self {
        SimDuration(s * 1_000_000_000)
    }
    /// Rounds to the nearest nanosecond; negative or NaN becomes zero.
    pub fn from_secs_f64(s: f64) -> Self {
        if s.is_nan() || s <= 0.0 {
            SimDuration(0)
        } else {
            SimDuration((s * 1e9).round().min(u64::MAX as f64) as u64)
        }
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    pub fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn saturating_mul(self, k: u64) -> Self {
        SimDuration(self.0.saturating_mul(k))
    }
    /// Rounds up to a whole number of `tick`s (ns-2's `tcpTick_`); a zero tick is a no-op.
    pub fn ceil_to(self, tick: SimDuration) -> Self {
        if tick.0 == 0 {
            self
        } else {
            SimDuration(self.0.div_ceil(tick.0).saturating_mul(tick.0))
        }
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}

impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        self.0 = self.0.saturating_add(d.0);
    }
}

impl Sub<SimTime> for SimTime {
    type Output = SimDuration;
    fn sub(self, other: SimTime) -> SimDuration {
        self.since(other)
    }
}

impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(d.0))
    }
}

impl Sub for SimDuration {
    type Output = SimDuration;
    fn sub(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_sub(d.0))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9} s", self.as_secs_f64())
    }
}

impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9} s", self.as_secs_f64())
    }
}

/// Time to serialize `bits` onto a link of `bps` bits per second, rounded up so a
/// packet never leaves before its last bit.
pub fn serialization_delay(bits: u64, bps: u64) -> SimDuration {
    debug_assert!(bps > 0);
    const NS: u64 = 1_000_000_000;
    match bits.checked_mul(NS) {
        // Every packet (at most 65,535 bytes) takes this path: no 128-bit division.
        Some(n) => SimDuration(n.div_ceil(bps)),
        None => SimDuration(((bits as u128 * NS as u128).div_ceil(bps as u128)) as u64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialization_of_1000_bytes_at_2_mbps_is_4_ms() {
        assert_eq!(serialization_delay(8000, 2_000_000), SimDuration::from_millis(4));
    }

    #[test]
    fn serialization_rounds_up_to_the_next_nanosecond() {
        assert_eq!(serialization_delay(1, 3_000_000_000), SimDuration(1));
    }

    #[test]
    fn ceil_to_tick_rounds_up() {
        let tick = SimDuration::from_millis(500);
        assert_eq!(SimDuration::from_millis(501).ceil_to(tick), SimDuration::from_millis(1000));
        assert_eq!(SimDuration::from_millis(500).ceil_to(tick), SimDuration::from_millis(500));
        assert_eq!(SimDuration::from_millis(7).ceil_to(SimDuration::ZERO), SimDuration::from_millis(7));
    }

    #[test]
    fn time_arithmetic_saturates() {
        assert_eq!(SimTime::MAX + SimDuration(5), SimTime::MAX);
        assert_eq!(SimTime(3) - SimTime(5), SimDuration::ZERO);
    }
}
