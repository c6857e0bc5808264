//! Retransmission timeout estimation, RFC 6298, with Karn's rule and exponential backoff.

use crate::time::SimDuration;

#[derive(Clone, Copy, Debug)]
pub struct RtoConfig {
    pub initial: SimDuration,
    pub min: SimDuration,
    pub max: SimDuration,
    /// Clock granularity G (RFC 6298 §2); also the tick the RTO is rounded up to
    /// (ns-2's `tcpTick_`). Zero means an exact clock.
    pub granularity: SimDuration,
}

#[derive(Clone, Debug)]
pub struct RttEstimator {
    cfg: RtoConfig,
    srtt: Option<SimDuration>,
    rttvar: SimDuration,
    /// RTO before backoff.
    base_rto: SimDuration,
    /// Number of consecutive backoffs (RFC 6298 §5.5).
    backoffs: u32,
}

impl RttEstimator {
    pub fn new(cfg: RtoConfig) -> Self {
        // RFC 6298 §2.1: until a sample is taken, RTO = 1 s (configurable).
        RttEstimator { cfg, srtt: None, rttvar: SimDuration::ZERO, base_rto: cfg.initial, backoffs: 0 }
    }

    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt
    }

    pub fn rttvar(&self) -> SimDuration {
        self.rttvar
    }

    /// Feeds a valid sample (never from a retransmitted segment: Karn, RFC 6298 §3).
    pub fn sample(&mut self, r: SimDuration) {
        match self.srtt {
            None => {
                // RFC 6298 §2.2: first measurement.
                self.srtt = Some(r);
                self.rttvar = SimDuration(r.0 / 2);
            }
            Some(srtt) => {
                // RFC 6298 §2.3: RTTVAR first, using the old SRTT; beta = 1/4, alpha = 1/8.
                let diff = srtt.0.abs_diff(r.0);
                self.rttvar = SimDuration((3 * self.rttvar.0 + diff) / 4);
                self.srtt = Some(SimDuration((7 * srtt.0 + r.0) / 8));
            }
        }
        let srtt = self.srtt.unwrap_or(r);
        // RFC 6298 §2.2-2.3: RTO = SRTT + max(G, 4·RTTVAR).
        let k = SimDuration(self.cfg.granularity.0.max(4 * self.rttvar.0));
        self.base_rto = self.clamp((srtt + k).ceil_to(self.cfg.granularity));
        // A new sample ends the backoff (RFC 6298 §5.7 and Karn's algorithm).
        self.backoffs = 0;
    }

    /// RFC 6298 §2.4-2.5: at least `min` (1 s per the RFC), at most `max`.
    fn clamp(&self, rto: SimDuration) -> SimDuration {
        SimDuration(rto.0.max(self.cfg.min.0).min(self.cfg.max.0))
    }

    /// The current timeout including backoff.
    pub fn rto(&self) -> SimDuration {
        let backed = self.base_rto.saturating_mul(1u64 << self.backoffs.min(32));
        SimDuration(backed.0.min(self.cfg.max.0))
    }

    /// RFC 6298 §5.5: on expiry, double the RTO (capped at `max`).
    pub fn backoff(&mut self) {
        if self.rto() < self.cfg.max {
            self.backoffs += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> RtoConfig {
        RtoConfig {
            initial: SimDuration::from_secs(1),
            min: SimDuration::from_millis(200),
            max: SimDuration::from_secs(60),
            granularity: SimDuration::from_millis(1),
        }
    }

    #[test]
    fn initial_rto_is_one_second() {
        assert_eq!(RttEstimator::new(cfg()).rto(), SimDuration::from_secs(1));
    }

    #[test]
    fn first_sample_sets_srtt_and_half_rttvar() {
        let mut e = RttEstimator::new(cfg());
        e.sample(SimDuration::from_millis(100));
        assert_eq!(e.srtt(), Some(SimDuration::from_millis(100)));
        assert_eq!(e.rttvar(), SimDuration::from_millis(50));
        // RTO = 100 + 4·50 = 300 ms.
        assert_eq!(e.rto(), SimDuration::from_millis(300));
    }

    #[test]
    fn second_sample_updates_rttvar_before_srtt() {
        let mut e = RttEstimator::new(cfg());
        e.sample(SimDuration::from_millis(100));
        e.sample(SimDuration::from_millis(200));
        // RTTVAR = 3/4·50 + 1/4·|100 − 200| = 62.5 ms; SRTT = 7/8·100 + 1/8·200 = 112.5 ms.
        assert_eq!(e.rttvar(), SimDuration::from_micros(62_500));
        assert_eq!(e.srtt(), Some(SimDuration::from_micros(112_500)));
        // RTO = 112.5 + 250 = 362.5 ms, rounded up to the 1 ms tick.
        assert_eq!(e.rto(), SimDuration::from_millis(363));
    }

    #[test]
    fn minimum_and_granularity_apply() {
        let mut c = cfg();
        c.min = SimDuration::from_secs(1);
        let mut e = RttEstimator::new(c);
        e.sample(SimDuration::from_millis(10));
        assert_eq!(e.rto(), SimDuration::from_secs(1));
        // ns-2 style 500 ms tick: G dominates 4·RTTVAR and the RTO is a multiple of it.
        c.min = SimDuration::ZERO;
        c.granularity = SimDuration::from_millis(500);
        let mut e = RttEstimator::new(c);
        e.sample(SimDuration::from_millis(120));
        assert_eq!(e.rto(), SimDuration::from_millis(1000));
    }

    #[test]
    fn backoff_doubles_up_to_max_and_a_sample_resets_it() {
        let mut e = RttEstimator::new(cfg());
        e.backoff();
        assert_eq!(e.rto(), SimDuration::from_secs(2));
        for _ in 0..10 {
            e.backoff();
        }
        assert_eq!(e.rto(), SimDuration::from_secs(60));
        e.sample(SimDuration::from_millis(100));
        assert_eq!(e.rto(), SimDuration::from_millis(300));
    }
}
