//! BBR's two model filters: the windowed maximum of the delivery rate over a window of
//! round trips (BtlBw) and the windowed minimum of the RTT over a window of time
//! (RTprop / min_rtt). draft-cardwell-iccrg-bbr-congestion-control-00 §4.1.1-4.1.2;
//! Linux keeps the maximum with Kathleen Nichols' three-sample running max
//! (lib/win_minmax.c, `minmax_running_max`, called by tcp_bbr.c `bbr_update_bw`), which
//! is what [`WindowedMax`] does, and the minimum as one value and its stamp
//! (tcp_bbr.c `bbr_update_min_rtt`), which is what [`MinRttFilter`] does.

use crate::time::{SimDuration, SimTime};

/// One sample of a windowed filter: its value and when (a round count) it was taken.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Sample {
    at: u64,
    value: f64,
}

/// The maximum of the samples taken over the last `window` rounds, kept as the best,
/// second-best and third-best samples of successive sub-windows (lib/win_minmax.c): O(1)
/// per sample, and a maximum that leaves the window is replaced by the best later one.
#[derive(Clone, Debug)]
pub struct WindowedMax {
    window: u64,
    best: [Sample; 3],
}

impl WindowedMax {
    /// An empty filter (its maximum is 0) over `window` rounds.
    pub fn new(window: u64) -> Self {
        WindowedMax { window, best: [Sample::default(); 3] }
    }

    /// The windowed maximum.
    pub fn get(&self) -> f64 {
        self.best[0].value
    }

    /// Forgets everything and starts again from the sample `value` at round `at`.
    fn reset(&mut self, at: u64, value: f64) -> f64 {
        self.best = [Sample { at, value }; 3];
        value
    }

    /// Takes the sample `value` at round `at` (rounds never go back); returns the maximum.
    pub fn update(&mut self, at: u64, value: f64) -> f64 {
        let s = Sample { at, value };
        // A new overall maximum, or nothing in the window is recent enough: start over.
        if value >= self.best[0].value || at.saturating_sub(self.best[2].at) > self.window {
            return self.reset(at, value);
        }
        if value >= self.best[1].value {
            self.best[1] = s;
            self.best[2] = s;
        } else if value >= self.best[2].value {
            self.best[2] = s;
        }
        self.age(s)
    }

    /// win_minmax.c `minmax_subwin_update`: the best sample has left the window, so the
    /// second and third move up; or a quarter (a half) of the window has passed with the
    /// second (third) still equal to the best, so the new sample becomes it, keeping
    /// candidates from later sub-windows.
    fn age(&mut self, s: Sample) -> f64 {
        let dt = s.at - self.best[0].at;
        if dt > self.window {
            self.best = [self.best[1], self.best[2], s];
            if s.at - self.best[0].at > self.window {
                self.best = [self.best[1], self.best[2], s];
            }
        } else if self.best[1] == self.best[0] && dt > self.window / 4 {
            self.best[1] = s;
            self.best[2] = s;
        } else if self.best[2] == self.best[1] && dt > self.window / 2 {
            self.best[2] = s;
        }
        self.best[0].value
    }
}

/// The minimum RTT seen, and when it was last set: a sample no higher than it, or any
/// sample once it is older than the window, replaces it and restarts the window (the
/// draft §4.1.2.3 `packet.rtt <= BBR.RTprop`, as ns-3 tcp-bbr.cc `UpdateRTprop`; Linux
/// `bbr_update_min_rtt` takes only a strictly lower one, which with its microsecond
/// clock rarely differs, but here, without jitter, equal samples are common).
#[derive(Clone, Copy, Debug)]
pub struct MinRttFilter {
    window: SimDuration,
    min_rtt: Option<SimDuration>,
    stamp: SimTime,
}

impl MinRttFilter {
    pub fn new(window: SimDuration) -> Self {
        MinRttFilter { window, min_rtt: None, stamp: SimTime::ZERO }
    }

    /// The minimum, `None` before the first sample.
    pub fn get(&self) -> Option<SimDuration> {
        self.min_rtt
    }

    /// Whether the minimum is older than the window at `now` (there is one and it was
    /// not refreshed for longer than the window).
    pub fn expired(&self, now: SimTime) -> bool {
        self.min_rtt.is_some() && now > self.stamp + self.window
    }

    /// Takes an RTT sample at `now`.
    pub fn update(&mut self, now: SimTime, rtt: SimDuration) {
        let lower = self.min_rtt.is_none_or(|m| rtt <= m);
        if lower || self.expired(now) {
            self.min_rtt = Some(rtt);
            self.stamp = now;
        }
    }

    /// Restarts the window at `now` without a sample (ProbeRTT's exit, tcp_bbr.c
    /// `bbr_check_probe_rtt_done`: `min_rtt_stamp = tcp_jiffies32`).
    pub fn refresh(&mut self, now: SimTime) {
        self.stamp = now;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_max_holds_for_the_window_of_rounds_then_expires() {
        let mut f = WindowedMax::new(10);
        assert_eq!(f.update(0, 100.0), 100.0);
        // Lower samples every round: the maximum of round 0 holds through round 10...
        for r in 1..=10 {
            assert_eq!(f.update(r, 50.0 + r as f64), 100.0, "round {r}");
        }
        // ...and is gone at round 11 (more than 10 rounds old): the best later one rules.
        assert_eq!(f.update(11, 40.0), 60.0);
    }

    #[test]
    fn a_higher_sample_takes_over_at_once() {
        let mut f = WindowedMax::new(10);
        f.update(0, 100.0);
        f.update(3, 80.0);
        assert_eq!(f.update(4, 120.0), 120.0);
        assert_eq!(f.update(14, 10.0), 120.0);
        assert_eq!(f.update(15, 10.0), 10.0, "nothing else within the window");
    }

    #[test]
    fn the_second_best_from_a_later_sub_window_survives_the_best() {
        let mut f = WindowedMax::new(10);
        f.update(0, 100.0);
        f.update(3, 90.0); // more than a quarter window later: the second best
        f.update(6, 70.0); // more than half a window later: the third best
        assert_eq!(f.update(11, 20.0), 90.0);
    }

    #[test]
    fn the_min_rtt_keeps_the_lowest_until_the_window_expires() {
        let ms = SimDuration::from_millis;
        let mut f = MinRttFilter::new(SimDuration::from_secs(10));
        assert!(!f.expired(SimTime::ZERO + ms(20_000)), "nothing to expire before a sample");
        f.update(SimTime::ZERO, ms(20));
        f.update(SimTime::ZERO + ms(5_000), ms(30));
        assert_eq!(f.get(), Some(ms(20)));
        assert!(f.expired(SimTime::ZERO + ms(10_001)), "a higher sample does not refresh it");
        f.update(SimTime::ZERO + ms(6_000), ms(20));
        assert!(!f.expired(SimTime::ZERO + ms(16_000)), "an equal one does (the draft, ns-3)");
        assert!(f.expired(SimTime::ZERO + ms(16_001)));
        f.update(SimTime::ZERO + ms(16_001), ms(30));
        assert_eq!(f.get(), Some(ms(30)), "an expired minimum takes any sample");
        assert!(!f.expired(SimTime::ZERO + ms(26_001)));
    }
}
