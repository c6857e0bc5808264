//! A piecewise-constant rate: one sample per interval, read from a `<second> <Mbit/s>`
//! log (Lumos5G's throughput traces, one sample a second: `1.0\t91.0`, `2.0\t123.0`,
//! ...). Reading: the i-th sample (line i of the samples, from 1) holds over
//! [(i-1)·interval, i·interval) of the run: Lumos5G's second 1.0 is the throughput
//! measured over the run's first second. The first column must rise (the samples in
//! time order) but is otherwise not used: the samples are taken as consecutive. A
//! frame's end integrates the rate from its start across interval boundaries; a zero
//! rate is an outage, which a frame waits through. After the last interval the schedule
//! starts again (a wrap, its base advancing by n·interval), unless it is played once:
//! then there is no capacity after its end and a frame that has not finished never
//! leaves.

use super::parsed::Parsed;
use super::{AnyCapacity, Capacity, CapacitySpec};
use crate::data_file::DataFile;
use crate::time::SimTime;
use crate::units::{Duration, MAX_RATE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

const NS_PER_S: u128 = 1_000_000_000;

/// `kind = "rate_schedule"`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RateScheduleConfig {
    /// The schedule: one sample per line, `<second> <Mbit/s>` (a tab or blanks between),
    /// the seconds rising; line i's rate holds over [(i-1)·interval, i·interval).
    pub file: DataFile,
    /// How long each sample's rate holds.
    #[serde(default = "one_second")]
    pub interval: Duration,
    /// Play the schedule once: no capacity after its last interval. By default it wraps.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub once: bool,
    #[serde(skip)]
    #[schemars(skip)]
    parsed: Parsed<Vec<u64>>,
}

fn one_second() -> Duration {
    Duration::from_secs(1)
}

impl RateScheduleConfig {
    pub fn new(file: DataFile, interval: Duration, once: bool) -> Self {
        RateScheduleConfig { file, interval, once, parsed: Parsed::default() }
    }

    fn rates(&self) -> Result<Arc<Vec<u64>>, String> {
        self.parsed.get(|| read_rates(&self.file))
    }
}

impl CapacitySpec for RateScheduleConfig {
    fn validate(&self) -> Result<(), String> {
        if self.interval.0 .0 == 0 {
            return Err("interval: 0 s holds no sample; give a positive duration such as \"1 s\"".into());
        }
        self.rates().map(drop)
    }
    fn build(&self) -> AnyCapacity {
        RateSchedule::new(self.rates().expect("validated"), self.interval.0 .0, self.once).into()
    }
}

/// The rates in bit/s, one per line; refuses a schedule that would never deliver.
fn read_rates(file: &DataFile) -> Result<Vec<u64>, String> {
    let mut rates = Vec::new();
    let mut last_second = f64::NEG_INFINITY;
    for (n, line) in file.entries()? {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [second, mbps] = fields[..] else {
            return Err(file.bad_line(n, format!("{line:?} is not a sample; give `<second> <Mbit/s>` per line, e.g. \"1.0 91.0\"")));
        };
        let second: f64 = second.parse().ok().filter(|s: &f64| s.is_finite()).ok_or_else(|| file.bad_line(n, format!("{second:?} is not a time in seconds; give `<second> <Mbit/s>` per line")))?;
        if second <= last_second {
            return Err(file.bad_line(n, format!("second {second} does not come after {last_second}; the samples must be in time order")));
        }
        last_second = second;
        let rate: f64 = mbps.parse().ok().filter(|r: &f64| r.is_finite()).ok_or_else(|| file.bad_line(n, format!("{mbps:?} is not a rate in Mbit/s; give a number >= 0 (0 is an outage)")))?;
        if rate < 0.0 {
            return Err(file.bad_line(n, format!("rate {mbps} Mbit/s is negative; give a number >= 0 (0 is an outage)")));
        }
        let bps = (rate * 1e6).round();
        if bps > MAX_RATE as f64 {
            return Err(file.bad_line(n, format!("rate {mbps} Mbit/s is over 1 Tbps, the fastest link a scenario may give")));
        }
        rates.push(bps as u64);
    }
    if rates.is_empty() {
        return Err(format!("file: {}: no samples; give `<second> <Mbit/s>` per line", file.path()));
    }
    if rates.iter().all(|&r| r == 0) {
        // Wrapping or not, such a schedule never delivers a bit.
        return Err(format!("file: {}: every rate is 0 Mbit/s, so the link would never deliver; give a rate above 0 somewhere", file.path()));
    }
    Ok(rates)
}

/// The runtime schedule: the shared rates and the interval; no state of its own (the
/// rate at any time is known, and frames come in time order).
#[derive(Clone, Debug, PartialEq)]
pub struct RateSchedule {
    rates: Arc<Vec<u64>>,
    interval_ns: u64,
    once: bool,
}

impl RateSchedule {
    /// `rates` in bit/s (not all 0), each holding for `interval_ns` (> 0).
    pub fn new(rates: Arc<Vec<u64>>, interval_ns: u64, once: bool) -> Self {
        debug_assert!(interval_ns > 0 && rates.iter().any(|&r| r > 0));
        RateSchedule { rates, interval_ns, once }
    }
}

impl Capacity for RateSchedule {
    /// Integrates the rate from `start`: in bit·ns (bits × 10⁹), so the bits an interval
    /// carries are exact and a frame within one interval ends exactly as at a constant
    /// rate (l/rate rounded up to whole nanoseconds).
    fn frame_end(&mut self, start: SimTime, bits: u64) -> SimTime {
        let n = self.rates.len() as u64;
        let mut t = start.0;
        let mut need = bits as u128 * NS_PER_S;
        loop {
            let k = t / self.interval_ns;
            if self.once && k >= n {
                return SimTime::MAX;
            }
            let rate = self.rates[(k % n) as usize] as u128;
            let boundary = (k + 1) * self.interval_ns;
            let carries = rate * (boundary - t) as u128;
            if need <= carries {
                return SimTime(t + need.div_ceil(rate) as u64);
            }
            need -= carries;
            t = boundary;
        }
    }

    /// The samples' mean.
    fn nominal_rate_bps(&self) -> u64 {
        (self.rates.iter().map(|&r| r as u128).sum::<u128>() / self.rates.len() as u128).max(1) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capacity::ConstantRate;
    use crate::time::serialization_delay;

    const S: u64 = 1_000_000_000;

    fn schedule(mbps: &[u64], once: bool) -> RateSchedule {
        RateSchedule::new(Arc::new(mbps.iter().map(|m| m * 1_000_000).collect()), S, once)
    }

    #[test]
    fn within_one_interval_a_frame_ends_as_at_a_constant_rate() {
        let mut s = schedule(&[3, 5], false);
        let mut c = ConstantRate::new(3_000_000);
        for (start, bits) in [(0, 12_000), (7, 1), (123_456_789, 99_999)] {
            assert_eq!(s.frame_end(SimTime(start), bits), c.frame_end(SimTime(start), bits));
        }
        assert_eq!(s.frame_end(SimTime(S), 12_000), SimTime(S) + serialization_delay(12_000, 5_000_000));
    }

    #[test]
    fn a_frame_across_a_boundary_integrates_the_rate() {
        let mut s = schedule(&[1, 4], false);
        // 0.5 s before the boundary carries 500 kbit at 1 Mbit/s; the other 1.5 Mbit
        // take 0.375 s at 4 Mbit/s.
        assert_eq!(s.frame_end(SimTime(S / 2), 2_000_000), SimTime(S + 375_000_000));
    }

    #[test]
    fn a_zero_rate_is_an_outage_the_frame_waits_through() {
        let mut s = schedule(&[2, 0, 0, 2], false);
        // 1 Mbit at 0.75 s: 0.25 s carries 0.5 Mbit, then two seconds of nothing, then
        // the other 0.5 Mbit in 0.25 s.
        assert_eq!(s.frame_end(SimTime(3 * S / 4), 1_000_000), SimTime(3 * S + S / 4));
    }

    #[test]
    fn it_wraps_unless_played_once() {
        let mut s = schedule(&[1, 2], false);
        // At 2.5 s the schedule is in its second lap: 1 Mbit/s again.
        assert_eq!(s.frame_end(SimTime(2 * S + S / 2), 250_000), SimTime(2 * S + 3 * S / 4));
        let mut once = schedule(&[1, 2], true);
        assert_eq!(once.frame_end(SimTime(2 * S + S / 2), 1), SimTime::MAX);
        // A frame that needs more than is left never leaves: 1.5 s at 2 Mbit/s... 2 Mbit
        // remain after 1 s, so 2 Mbit + 1 bit cannot finish.
        assert_eq!(once.frame_end(SimTime(S), 2_000_001), SimTime::MAX);
        assert_eq!(once.frame_end(SimTime(S), 2_000_000), SimTime(2 * S));
        assert_eq!(s.nominal_rate_bps(), 1_500_000);
    }

    fn file(name: &str, text: &str) -> DataFile {
        let dir = std::env::temp_dir().join(format!("lossy-rate-schedule-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        DataFile::new(path.to_string_lossy())
    }

    #[test]
    fn lumos5g_logs_are_read_and_bad_ones_refused_with_the_reason() {
        let ok = RateScheduleConfig::new(file("ok.txt", "1.0\t91.0\n2.0\t123.5\n3.0 0\n"), one_second(), false);
        assert_eq!(*ok.rates().unwrap(), vec![91_000_000, 123_500_000, 0]);
        assert!(ok.validate().is_ok());
        let err = |name: &str, text: &str| {
            let f = file(name, text);
            RateScheduleConfig::new(f.clone(), one_second(), false).validate().unwrap_err().replace(f.path(), "T")
        };
        assert_eq!(err("neg.txt", "1.0\t5\n2.0\t-3\n"), "file: T line 2: rate -3 Mbit/s is negative; give a number >= 0 (0 is an outage)");
        assert_eq!(err("nan.txt", "1.0\tfast\n"), "file: T line 1: \"fast\" is not a rate in Mbit/s; give a number >= 0 (0 is an outage)");
        assert_eq!(err("one.txt", "1.0\n"), "file: T line 1: \"1.0\" is not a sample; give `<second> <Mbit/s>` per line, e.g. \"1.0 91.0\"");
        assert_eq!(err("order.txt", "1.0 1\n1.0 2\n"), "file: T line 2: second 1 does not come after 1; the samples must be in time order");
        assert_eq!(err("empty.txt", "\n"), "file: T: no samples; give `<second> <Mbit/s>` per line");
        assert_eq!(err("zero.txt", "1 0\n2 0\n"), "file: T: every rate is 0 Mbit/s, so the link would never deliver; give a rate above 0 somewhere");
        let zero = RateScheduleConfig::new(file("ok2.txt", "1 1\n"), Duration(crate::time::SimDuration::ZERO), false);
        assert_eq!(zero.validate().unwrap_err(), "interval: 0 s holds no sample; give a positive duration such as \"1 s\"");
    }
}
