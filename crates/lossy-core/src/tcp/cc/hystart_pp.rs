//! HyStart++ (RFC 9406): slow start that leaves on a rise in the round's minimum RTT
//! (§4.2), then grows a quarter as fast for up to CSS_ROUNDS rounds (Conservative Slow
//! Start) before congestion avoidance, going back to slow start if the RTT falls again
//! (the rise was jitter). The constants are §4.3's recommended values.
//!
//! Our sender times one segment per round trip (RFC 6298 §3, Karn), so a round rarely
//! reaches N_RTT_SAMPLE samples; a round that ends with fewer is checked once as it ends
//! (the §4.2 checks with the samples it has).

use crate::tcp::state::{SenderState, SSTHRESH_UNSET};
use crate::time::{SimDuration, SimTime};

/// §4.3: MIN_RTT_THRESH, MAX_RTT_THRESH, MIN_RTT_DIVISOR, N_RTT_SAMPLE.
pub const MIN_RTT_THRESH: SimDuration = SimDuration::from_millis(4);
pub const MAX_RTT_THRESH: SimDuration = SimDuration::from_millis(16);
pub const MIN_RTT_DIVISOR: u64 = 8;
pub const N_RTT_SAMPLE: u32 = 8;
/// §4.3: CSS_GROWTH_DIVISOR and CSS_ROUNDS.
pub const CSS_GROWTH_DIVISOR: u64 = 4;
pub const CSS_ROUNDS: u32 = 5;
/// §4.3: L = 8 segments for a sender that does not pace (ours does not).
pub const L_SEGMENTS: u64 = 8;

/// §4.2: RttThresh = max(MIN_RTT_THRESH, min(lastRoundMinRTT / MIN_RTT_DIVISOR, MAX_RTT_THRESH)).
pub fn rtt_threshold(last_round_min: SimDuration) -> SimDuration {
    SimDuration(last_round_min.0 / MIN_RTT_DIVISOR).min(MAX_RTT_THRESH).max(MIN_RTT_THRESH)
}

/// §4.2's variables; `None` is the RFC's infinity.
#[derive(Clone, Debug, Default)]
pub struct HyStartPlusPlus {
    /// windowEnd: the round ends when it is acknowledged; `None` before the first round.
    window_end: Option<u64>,
    last_round_min: Option<SimDuration>,
    current_round_min: Option<SimDuration>,
    rtt_sample_count: u32,
    /// cssBaselineMinRtt: `Some` while in CSS.
    css_baseline: Option<SimDuration>,
    /// CSS rounds completed.
    css_rounds: u32,
}

impl HyStartPlusPlus {
    /// Whether it is in Conservative Slow Start.
    pub fn in_css(&self) -> bool {
        self.css_baseline.is_some()
    }

    /// §4.3: HyStart++ runs in the initial slow start only (ssthresh still arbitrarily
    /// high); later slow starts are standard, ended by the ssthresh found.
    fn active(st: &SenderState) -> bool {
        st.ssthresh == SSTHRESH_UNSET
    }

    /// An ACK in slow start with its RTT sample if it has one: the round bookkeeping
    /// and §4.2's checks. Leaving CSS after CSS_ROUNDS sets ssthresh = cwnd.
    pub fn on_ack(&mut self, st: &mut SenderState, _now: SimTime, rtt: Option<SimDuration>) {
        if !Self::active(st) {
            return;
        }
        if let Some(r) = rtt {
            // §4.2: currentRoundMinRTT = min(currentRoundMinRTT, currRTT); rttSampleCount += 1.
            self.current_round_min = Some(self.current_round_min.map_or(r, |c| c.min(r)));
            self.rtt_sample_count += 1;
            if self.rtt_sample_count >= N_RTT_SAMPLE {
                self.check();
            }
        }
        if self.window_end.is_none_or(|end| st.snd_una >= end) {
            self.end_round(st);
        }
    }

    /// §4.2: when windowEnd is acknowledged the round ends; in CSS it counts toward
    /// CSS_ROUNDS, after which congestion avoidance begins (ssthresh = cwnd).
    fn end_round(&mut self, st: &mut SenderState) {
        if self.window_end.is_some() {
            if (1..N_RTT_SAMPLE).contains(&self.rtt_sample_count) {
                self.check();
            }
            if self.in_css() {
                self.css_rounds += 1;
                if self.css_rounds >= CSS_ROUNDS {
                    st.ssthresh = st.cwnd;
                    return;
                }
            }
        }
        // §4.2: at the start of each round, lastRoundMinRTT = currentRoundMinRTT,
        // currentRoundMinRTT = infinity, rttSampleCount = 0; windowEnd = SND.NXT.
        self.last_round_min = self.current_round_min;
        self.current_round_min = None;
        self.rtt_sample_count = 0;
        self.window_end = Some(st.snd_max);
    }

    /// §4.2's two checks on the round's samples: in slow start, a delay increase enters
    /// CSS; in CSS, a minimum below the baseline means the exit was spurious.
    fn check(&mut self) {
        let Some(current) = self.current_round_min else { return };
        match self.css_baseline {
            Some(baseline) => {
                if current < baseline {
                    // "cssBaselineMinRtt = infinity; resume slow start including HyStart++".
                    self.css_baseline = None;
                    self.css_rounds = 0;
                }
            }
            None => {
                if let Some(last) = self.last_round_min {
                    if current >= last + rtt_threshold(last) {
                        self.css_baseline = Some(current);
                        self.css_rounds = 0;
                    }
                }
            }
        }
    }

    /// §4.2: cwnd += min(N, L·SMSS) in slow start, divided by CSS_GROWTH_DIVISOR in CSS;
    /// RFC 5681's min(N, SMSS) once HyStart++ is no longer active.
    pub fn growth(&self, st: &SenderState, acked: u64) -> u64 {
        if !Self::active(st) {
            return acked.min(st.mss);
        }
        let n = acked.min(L_SEGMENTS * st.mss);
        if self.in_css() {
            n / CSS_GROWTH_DIVISOR
        } else {
            n
        }
    }

    /// Completed CSS rounds (for tests and traces).
    pub fn css_rounds(&self) -> u32 {
        self.css_rounds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> SimDuration = SimDuration::from_millis;

    fn state() -> SenderState {
        SenderState::new(1000, 20_000, 1 << 30, 3)
    }

    /// One round: `acks` ACKs each with an RTT sample `rtt`, each sending as much again
    /// (snd_max runs `acks` segments ahead), the last acknowledging the round's end.
    fn round(h: &mut HyStartPlusPlus, st: &mut SenderState, acks: u64, rtt: u64) {
        let start = st.snd_una;
        for i in 1..=acks {
            st.snd_una = start + i * 1000;
            st.snd_max = st.snd_una + acks * 1000;
            h.on_ack(st, SimTime::ZERO, Some(MS(rtt)));
        }
    }

    #[test]
    fn the_rtt_threshold_is_an_eighth_of_the_last_rounds_minimum_clamped_to_4_and_16_ms() {
        assert_eq!(rtt_threshold(MS(20)), MS(4));
        assert_eq!(rtt_threshold(MS(100)), MS(12) + SimDuration::from_micros(500));
        assert_eq!(rtt_threshold(MS(300)), MS(16));
    }

    /// A rise of the round's minimum by the threshold enters CSS, where growth is a
    /// quarter; after CSS_ROUNDS rounds congestion avoidance begins (ssthresh = cwnd).
    #[test]
    fn a_delay_increase_enters_css_and_css_rounds_later_congestion_avoidance() {
        let mut h = HyStartPlusPlus::default();
        let mut st = state();
        st.snd_max = 20_000;
        h.on_ack(&mut st, SimTime::ZERO, None); // the first round starts
        round(&mut h, &mut st, 20, 100);
        round(&mut h, &mut st, 20, 105);
        assert!(!h.in_css(), "105 < 100 + 12.5 ms");
        assert_eq!(h.growth(&st, 1000), 1000);
        assert_eq!(h.growth(&st, 20_000), 8000, "min(N, L·SMSS)");
        round(&mut h, &mut st, 20, 120);
        assert!(h.in_css(), "120 >= 105 + 13.1 ms");
        assert_eq!(h.growth(&st, 1000), 250, "CSS grows by a quarter");
        // The round that entered CSS counts as its first.
        assert_eq!(h.css_rounds(), 1);
        for r in 2..CSS_ROUNDS {
            round(&mut h, &mut st, 20, 121);
            assert_eq!((h.css_rounds(), st.ssthresh), (r, SSTHRESH_UNSET));
        }
        round(&mut h, &mut st, 20, 121);
        assert_eq!(st.ssthresh, st.cwnd, "CSS_ROUNDS rounds of CSS end slow start");
    }

    #[test]
    fn a_minimum_below_the_css_baseline_resumes_slow_start() {
        let mut h = HyStartPlusPlus::default();
        let mut st = state();
        st.snd_max = 20_000;
        h.on_ack(&mut st, SimTime::ZERO, None);
        round(&mut h, &mut st, 20, 100);
        round(&mut h, &mut st, 20, 120);
        assert!(h.in_css());
        round(&mut h, &mut st, 20, 110);
        assert!(!h.in_css(), "110 < the 120 ms baseline: the exit was spurious");
        assert_eq!(st.ssthresh, SSTHRESH_UNSET);
    }

    #[test]
    fn with_one_sample_per_round_the_checks_run_as_the_round_ends() {
        let mut h = HyStartPlusPlus::default();
        let mut st = state();
        st.snd_max = 1000;
        h.on_ack(&mut st, SimTime::ZERO, None);
        round(&mut h, &mut st, 1, 100);
        round(&mut h, &mut st, 1, 100);
        assert!(!h.in_css());
        // The sample lands in the round and is checked when the round ends.
        st.snd_una += 500;
        h.on_ack(&mut st, SimTime::ZERO, Some(MS(130)));
        assert!(!h.in_css(), "not yet: 1 of 8 samples, the round goes on");
        st.snd_una = st.snd_max;
        h.on_ack(&mut st, SimTime::ZERO, None);
        assert!(h.in_css());
    }

    #[test]
    fn only_the_initial_slow_start_runs_hystart_plus_plus() {
        let mut h = HyStartPlusPlus::default();
        let mut st = state();
        st.ssthresh = 50_000;
        assert_eq!(h.growth(&st, 3000), 1000, "RFC 5681 slow start");
        st.snd_max = 20_000;
        h.on_ack(&mut st, SimTime::ZERO, None);
        round(&mut h, &mut st, 20, 100);
        round(&mut h, &mut st, 20, 200);
        assert!(!h.in_css());
    }
}
