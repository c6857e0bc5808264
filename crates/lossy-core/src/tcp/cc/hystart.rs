//! HyStart, the hybrid slow start Linux's CUBIC runs by default (net/ipv4/tcp_cubic.c:
//! `hystart_update`, `cubictcp_acked`, `bictcp_hystart_reset`; Ha & Rhee, "Taming the
//! elephants: new TCP slow start", 2008/2011). Slow start ends, without a loss, at the
//! first of two signs that the pipe is full: an ACK train as long as half the minimum
//! RTT, or a round whose minimum RTT rose above the path's by a clamped eighth.
//!
//! Our sender times one segment per round trip (RFC 6298 §3, Karn), so where Linux has
//! an RTT sample on every ACK this detector has about one per round. Linux checks the
//! round's minimum from its 9th sample on; here a round that ends with fewer samples is
//! also checked once as it ends, so the delay test still runs (one round later).

use crate::tcp::state::SenderState;
use crate::time::{SimDuration, SimTime};

/// `hystart_low_window`: detection starts at 16 segments.
pub const LOW_WINDOW_SEGMENTS: u64 = 16;
/// `hystart_ack_delta_us`: ACKs closer than 2 ms belong to one train.
pub const ACK_DELTA: SimDuration = SimDuration::from_millis(2);
/// `HYSTART_MIN_SAMPLES`: the round's minimum is taken over its first 8 samples.
pub const MIN_SAMPLES: u32 = 8;
/// `HYSTART_DELAY_MIN`/`HYSTART_DELAY_MAX`: the delay threshold's clamp.
pub const DELAY_THRESH_MIN: SimDuration = SimDuration::from_millis(4);
pub const DELAY_THRESH_MAX: SimDuration = SimDuration::from_millis(16);

/// `HYSTART_DELAY_THRESH(delay_min >> 3)`: an eighth of the minimum RTT, within 4..16 ms.
pub fn delay_threshold(delay_min: SimDuration) -> SimDuration {
    SimDuration(delay_min.0 / 8).max(DELAY_THRESH_MIN).min(DELAY_THRESH_MAX)
}

/// Linux's HyStart state (`struct bictcp`'s hystart fields).
#[derive(Clone, Debug, Default)]
pub struct HyStart {
    /// `round_start`: when the current round began.
    round_start: SimTime,
    /// `last_ack`: the last ACK of the current train.
    last_ack: SimTime,
    /// `end_seq`: snd_nxt when the round began; the round ends when snd_una passes it.
    end_seq: u64,
    /// `curr_rtt`: the round's minimum RTT so far.
    curr_rtt: Option<SimDuration>,
    /// `sample_cnt`: RTT samples counted toward `curr_rtt`.
    sample_cnt: u32,
    /// `delay_min`: the smallest RTT seen (fed by the window rule, `note_delay`).
    delay_min: Option<SimDuration>,
    /// `found`: slow start's exit point was found; no more detection until a timeout.
    found: bool,
    /// The sender is paced (`sk_pacing_status != SK_PACING_NONE`): see `ack_train`.
    paced: bool,
}

impl HyStart {
    pub fn new(paced: bool) -> Self {
        HyStart { paced, ..HyStart::default() }
    }

    /// `cubictcp_acked`: every accepted RTT sample lowers `delay_min`.
    pub fn note_delay(&mut self, rtt: SimDuration) {
        let rtt = rtt.max(SimDuration::from_micros(1)); // Linux: "if (delay == 0) delay = 1"
        self.delay_min = Some(self.delay_min.map_or(rtt, |d| d.min(rtt)));
    }

    /// The minimum RTT seen, if any.
    pub fn delay_min(&self) -> Option<SimDuration> {
        self.delay_min
    }

    /// Whether an exit point was found since the last reset.
    pub fn found(&self) -> bool {
        self.found
    }

    /// An ACK in slow start at `now`, with its RTT sample if it has one (`hystart_update`).
    /// On a detection, ssthresh = cwnd: slow start ends here.
    pub fn on_ack(&mut self, st: &mut SenderState, now: SimTime, rtt: Option<SimDuration>) {
        if self.found {
            return;
        }
        if st.snd_una > self.end_seq {
            self.end_round(st);
            if self.found {
                return;
            }
            self.start_round(now, st.snd_max);
        }
        if st.cwnd < LOW_WINDOW_SEGMENTS * st.mss {
            return;
        }
        self.ack_train(st, now);
        if let Some(r) = rtt {
            self.delay_increase(st, r);
        }
    }

    /// `bictcp_hystart_reset`: a new round from `now`, ending when `snd_nxt` is acked.
    fn start_round(&mut self, now: SimTime, snd_nxt: u64) {
        self.round_start = now;
        self.last_ack = now;
        self.end_seq = snd_nxt;
        self.curr_rtt = None;
        self.sample_cnt = 0;
    }

    /// A round that ended before its 9th sample was never checked in Linux's loop; with
    /// one sample per round trip (our sender's), check its minimum once here.
    fn end_round(&mut self, st: &mut SenderState) {
        if (1..=MIN_SAMPLES).contains(&self.sample_cnt) && st.cwnd >= LOW_WINDOW_SEGMENTS * st.mss {
            self.check_delay(st);
        }
    }

    /// The ACK train: ACKs spaced by less than 2 ms for longer than delay_min / 2 since the
    /// round began mean the window already spans the path's minimum RTT. A paced sender
    /// spreads a slow-start round over up to half an RTT itself, so Linux waits for a
    /// whole delay_min then (`hystart_update`: the threshold is halved only when
    /// `sk_pacing_status == SK_PACING_NONE`; `self.paced`). Linux adds a TSO/GRO cushion
    /// (`hystart_ack_delay`), zero here: no segment aggregation.
    fn ack_train(&mut self, st: &mut SenderState, now: SimTime) {
        let Some(delay_min) = self.delay_min else { return };
        if now - self.last_ack <= ACK_DELTA {
            self.last_ack = now;
            let threshold = if self.paced { delay_min } else { SimDuration(delay_min.0 / 2) };
            if now - self.round_start > threshold {
                self.exit(st);
            }
        }
    }

    /// The delay increase: the round's minimum RTT over the first samples exceeds
    /// delay_min by more than the clamped eighth.
    fn delay_increase(&mut self, st: &mut SenderState, rtt: SimDuration) {
        self.curr_rtt = Some(self.curr_rtt.map_or(rtt, |c| c.min(rtt)));
        if self.sample_cnt < MIN_SAMPLES {
            self.sample_cnt += 1;
        } else {
            self.check_delay(st);
        }
    }

    fn check_delay(&mut self, st: &mut SenderState) {
        if let (Some(curr), Some(min)) = (self.curr_rtt, self.delay_min) {
            if curr > min + delay_threshold(min) {
                self.exit(st);
            }
        }
    }

    fn exit(&mut self, st: &mut SenderState) {
        self.found = true;
        st.ssthresh = st.cwnd;
    }

    /// `cubictcp_state(TCP_CA_Loss)`: a timeout resets HyStart (and `delay_min`, which
    /// `bictcp_reset` clears); the next slow start detects afresh.
    pub fn on_timeout(&mut self) {
        *self = HyStart::new(self.paced);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::state::SSTHRESH_UNSET;

    const MS: fn(u64) -> SimDuration = SimDuration::from_millis;

    fn at(ms: f64) -> SimTime {
        SimTime((ms * 1e6) as u64)
    }

    fn state(cwnd_segs: u64) -> SenderState {
        SenderState::new(1000, cwnd_segs * 1000, 1 << 30, 3)
    }

    #[test]
    fn the_delay_threshold_is_an_eighth_of_the_minimum_rtt_clamped_to_4_and_16_ms() {
        assert_eq!(delay_threshold(MS(10)), MS(4));
        assert_eq!(delay_threshold(MS(80)), MS(10));
        assert_eq!(delay_threshold(MS(400)), MS(16));
    }

    /// Rounds of 20 ACKs spaced 5 ms (no train), one RTT sample per ACK: the minimum RTT
    /// climbs from 100 ms to 120 ms in the third round, past 100 + 12.5 ms.
    #[test]
    fn a_round_whose_minimum_rtt_rises_past_the_threshold_ends_slow_start() {
        let mut h = HyStart::default();
        let mut st = state(20);
        let mut t = 0.0;
        for (round, rtt) in [(0, 100), (1, 101), (2, 120)] {
            for i in 0..20 {
                st.snd_una = round * 100_000 + i * 1000 + 1000;
                st.snd_max = st.snd_una + 20_000;
                h.note_delay(MS(rtt));
                h.on_ack(&mut st, at(t), Some(MS(rtt)));
                t += 5.0;
                if h.found() {
                    assert_eq!((round, st.ssthresh), (2, 20_000));
                    // Found on the 9th sample of the round (Linux checks from there).
                    assert_eq!(i, MIN_SAMPLES as u64);
                    return;
                }
            }
            st.snd_una = (round + 1) * 100_000;
        }
        panic!("no exit; ssthresh {}", st.ssthresh);
    }

    #[test]
    fn a_rise_within_the_threshold_does_not_end_slow_start() {
        let mut h = HyStart::default();
        let mut st = state(20);
        for i in 0..60u64 {
            st.snd_una = i * 1000 + 1000;
            st.snd_max = st.snd_una + 20_000;
            let rtt = MS(100 + (i / 20) * 4); // +12 ms at most: under 12.5 ms
            h.note_delay(rtt);
            h.on_ack(&mut st, at(i as f64 * 5.0), Some(rtt));
        }
        assert!(!h.found());
        assert_eq!(st.ssthresh, SSTHRESH_UNSET);
    }

    /// One sample per round (our sender's timing): the round's minimum is checked as the
    /// round ends.
    #[test]
    fn with_one_sample_per_round_the_check_runs_at_the_round_end() {
        let mut h = HyStart::default();
        let mut st = state(32);
        for (round, rtt) in [(0u64, 50), (1, 50), (2, 70)] {
            for i in 0..32u64 {
                st.snd_una = round * 32_000 + i * 1000 + 1;
                st.snd_max = (round + 1) * 32_000;
                let sample = (i == 5).then(|| MS(rtt));
                if let Some(r) = sample {
                    h.note_delay(r);
                }
                h.on_ack(&mut st, at((round * 200 + i * 5) as f64), sample);
                assert!(!h.found(), "round {round} ack {i}");
            }
        }
        // The first ACK of the next round ends round 2: 70 > 50 + 6.25 ms.
        st.snd_una = 3 * 32_000 + 1;
        h.on_ack(&mut st, at(700.0), None);
        assert!(h.found());
        assert_eq!(st.ssthresh, st.cwnd);
    }

    /// The ACK at which a train of ACKs every 0.5 ms ends slow start (delay_min 20 ms).
    fn train_exit(paced: bool) -> Option<u64> {
        let mut h = HyStart::new(paced);
        let mut st = state(80);
        h.note_delay(MS(20));
        for i in 0..80u64 {
            st.snd_una = i * 1000 + 1;
            st.snd_max = 80_000;
            h.on_ack(&mut st, at(i as f64 * 0.5), None);
            if h.found() {
                return Some(i);
            }
        }
        None
    }

    #[test]
    fn an_ack_train_longer_than_half_the_minimum_rtt_ends_slow_start() {
        // Unpaced: the train passes 10 ms after 21 ACKs.
        assert_eq!(train_exit(false), Some(21));
    }

    #[test]
    fn a_paced_senders_train_must_span_the_whole_minimum_rtt() {
        // Paced (tcp.pacing = "linux"), Linux does not halve: 20 ms, after 41 ACKs.
        assert_eq!(train_exit(true), Some(41));
    }

    #[test]
    fn acks_spaced_wider_than_2_ms_are_no_train_and_small_windows_are_not_watched() {
        let mut h = HyStart::default();
        let mut st = state(40);
        h.note_delay(MS(20));
        for i in 0..40u64 {
            st.snd_una = i * 1000 + 1;
            st.snd_max = 40_000;
            h.on_ack(&mut st, at(i as f64 * 2.5), None);
        }
        assert!(!h.found());
        let mut small = state(15);
        let mut h = HyStart::default();
        h.note_delay(MS(20));
        for i in 0..40u64 {
            small.snd_una = i * 1000 + 1;
            small.snd_max = 40_000;
            h.on_ack(&mut small, at(i as f64 * 0.5), None);
        }
        assert!(!h.found(), "below hystart_low_window");
    }
}
