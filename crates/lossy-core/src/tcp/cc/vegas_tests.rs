//! Vegas from the formulas of ns-3's tcp-vegas.cc `IncreaseWindow` and Linux's
//! tcp_vegas.c `tcp_vegas_cong_avoid`, with synthetic RTTs.

use super::*;
use crate::tcp::state::SSTHRESH_UNSET;

fn ms(m: u64) -> SimDuration {
    SimDuration::from_millis(m)
}

fn vegas() -> Vegas {
    Vegas::new(&VegasConfig::default())
}

/// cwnd `segs` segments, ssthresh `ssthresh` bytes, nothing sent yet.
fn state(segs: u64, ssthresh: u64) -> SenderState {
    let mut st = SenderState::new(1000, segs * 1000, 1 << 30, 3);
    st.ssthresh = ssthresh;
    st
}

/// ACKs of one segment each, every one measuring `rtt_ms`, the window kept full, up to
/// and including the ACK that ends the round under way.
fn round(v: &mut Vegas, st: &mut SenderState, rtt_ms: u64) {
    let end = v.beg_snd_nxt;
    loop {
        st.snd_una += 1000;
        st.snd_max = st.snd_max.max(st.snd_una + st.cwnd);
        let now = SimTime(st.snd_una);
        v.on_ack(st, now, 1000, Some(ms(rtt_ms)));
        if st.snd_una >= end {
            break;
        }
    }
}

/// A first round (one ACK: too few samples, so Reno's step) that sets BaseRTT, then the
/// window put back to `segs` segments.
fn warmed_up(segs: u64, ssthresh: u64, base_ms: u64) -> (Vegas, SenderState) {
    let (mut v, mut st) = (vegas(), state(segs, ssthresh));
    round(&mut v, &mut st, base_ms);
    st.cwnd = segs * 1000;
    (v, st)
}

#[test]
fn diff_is_the_window_less_the_window_the_measured_rate_fills_at_base_rtt() {
    // Brakmo & Peterson: Diff = (Expected − Actual)·BaseRTT = cwnd·(RTT − BaseRTT)/RTT.
    // 20·(125 − 100)/125 = 4 exactly; ns-3 truncates the target, so 20·(112−100)/112 =
    // 2.14 counts as 20 − ⌊17.86⌋ = 3.
    assert_eq!(Vegas::diff(20, ms(100), ms(125)), (4, 16));
    assert_eq!(Vegas::diff(20, ms(100), ms(112)), (3, 17));
    assert_eq!(Vegas::diff(20, ms(100), ms(100)), (0, 20));
}

#[test]
fn base_rtt_is_the_least_rtt_ever_seen_and_min_rtt_the_least_of_the_round() {
    let mut v = vegas();
    for r in [120, 100, 130] {
        v.sample(ms(r));
    }
    assert_eq!((v.base_rtt, v.min_rtt, v.cnt_rtt), (Some(ms(100)), Some(ms(100)), 3));
    let mut st = state(4, 1000);
    st.snd_una = 1000;
    st.snd_max = 5000;
    v.on_ack(&mut st, SimTime(1), 1000, Some(ms(140)));
    // The round ended (beg_snd_nxt was 0): its minimum is forgotten, BaseRTT is not.
    assert_eq!((v.base_rtt, v.min_rtt, v.cnt_rtt), (Some(ms(100)), None, 0));
}

#[test]
fn in_congestion_avoidance_the_window_grows_holds_or_shrinks_by_one_segment_per_round() {
    // Diff 0 < α = 2: one more segment.
    let (mut v, mut st) = warmed_up(20, 10_000, 100);
    round(&mut v, &mut st, 100);
    assert_eq!(st.cwnd, 21_000);
    // Diff 3, α ≤ 3 ≤ β: held.
    let (mut v, mut st) = warmed_up(20, 10_000, 100);
    round(&mut v, &mut st, 112);
    assert_eq!(st.cwnd, 20_000);
    // Diff 20 − ⌊20·100/130⌋ = 5 > β = 4: one fewer, and ssthresh follows (ns-3: below
    // the window, then at least 3/4 of it).
    let (mut v, mut st) = warmed_up(20, 10_000, 100);
    round(&mut v, &mut st, 130);
    assert_eq!((st.cwnd, st.ssthresh), (19_000, 14_250));
}

#[test]
fn the_window_moves_only_once_per_round() {
    let (mut v, mut st) = warmed_up(20, 10_000, 100);
    let end = v.beg_snd_nxt;
    while st.snd_una + 1000 < end {
        st.snd_una += 1000;
        let now = SimTime(st.snd_una);
        v.on_ack(&mut st, now, 1000, Some(ms(100)));
        assert_eq!(st.cwnd, 20_000, "inside a round, congestion avoidance holds the window");
    }
}

#[test]
fn slow_start_ends_when_diff_exceeds_gamma_at_the_rate_it_measured() {
    let (mut v, mut st) = (vegas(), state(10, SSTHRESH_UNSET));
    round(&mut v, &mut st, 100); // one ACK: Reno's slow start, 11 segments
    round(&mut v, &mut st, 100); // Diff 0: slow start, one segment per ACK, 21 segments
    assert_eq!(st.cwnd, 21_000);
    let mut fast = (v.clone(), st.clone());
    // 20 more ACKs: 40 segments at the end; Diff = 40 − ⌊40·100/115⌋ = 6 > γ = 1. The
    // window becomes the target plus one, and ssthresh below it ends slow start.
    round(&mut fast.0, &mut fast.1, 115);
    assert_eq!((fast.1.cwnd, fast.1.ssthresh), (35_000, 34_000));
    // Diff = 40 − ⌊40·100/102⌋ = 1, not above γ: slow start goes on.
    round(&mut v, &mut st, 102);
    assert_eq!((st.cwnd, st.ssthresh), (41_000, SSTHRESH_UNSET));
}

#[test]
fn with_fewer_than_three_samples_in_a_round_it_is_reno() {
    // A window of 2 segments gives 2 ACKs a round: Reno's congestion avoidance
    // (+SMSS²/cwnd), not Vegas's +1 segment.
    let (mut v, mut st) = warmed_up(2, 1000, 100);
    round(&mut v, &mut st, 100);
    assert_eq!(st.cwnd, 2500);
}

#[test]
fn every_ack_is_timed_through_the_send_history() {
    let (mut v, mut st) = (vegas(), state(10, 5000));
    st.snd_max = 10_000;
    v.beg_snd_nxt = 10_000;
    for k in 0..10 {
        v.on_send(SimTime(k * 1_000_000), k * 1000, 1000, false);
    }
    for k in 1..=9 {
        st.snd_una = k * 1000;
        // The sender timed no segment: the history alone gives the samples.
        v.on_ack(&mut st, SimTime(k * 1_000_000 + 99_000_000), 1000, None);
    }
    assert_eq!((v.cnt_rtt, v.min_rtt, v.base_rtt), (9, Some(ms(100)), Some(ms(100))));
}

#[test]
fn loss_is_renos_and_the_next_round_starts_fresh() {
    let (mut v, mut st) = warmed_up(20, 10_000, 100);
    st.snd_una = 50_000;
    st.snd_max = 70_000;
    assert_eq!(v.on_congestion(&mut st, Signal::Loss), 10_000);
    assert!(!v.doing_vegas_now);
    // Recovery over: cwnd = ssthresh, and the first ACK outside it opens a round from
    // the data then in flight, with no adjustment on stale samples.
    st.cwnd = 10_000;
    st.snd_una = 70_000;
    st.snd_max = 80_000;
    v.on_ack(&mut st, SimTime(1), 1000, Some(ms(300)));
    assert!(v.doing_vegas_now);
    assert_eq!((v.beg_snd_nxt, st.cwnd), (80_000, 10_000));
}

#[test]
fn a_timeout_is_renos() {
    let (mut v, mut st) = warmed_up(20, 10_000, 100);
    st.snd_max = st.snd_una + 20_000;
    v.on_timeout(&mut st, false);
    assert_eq!((st.cwnd, st.ssthresh), (1000, 10_000));
}

#[test]
fn thresholds_out_of_range_are_refused_naming_the_field() {
    let bad = |alpha, beta, gamma| VegasConfig { alpha, beta, gamma, ..Default::default() }.validate().unwrap_err();
    assert!(bad(0, 4, 1).starts_with("alpha: 0 is out of range"));
    assert!(bad(2, 4, 0).starts_with("gamma: 0 is out of range"));
    assert!(bad(5, 4, 1).starts_with("beta: 4 is below alpha (5)"));
    assert!(VegasConfig { alpha: 3, beta: 3, gamma: 1, ..Default::default() }.validate().is_ok());
}

#[test]
fn ns3s_loss_response_cuts_one_segment_below_the_window_when_ssthresh_allows() {
    let cfg = VegasConfig { loss: VegasLoss::Ns3, ..Default::default() };
    let mut v = Vegas::new(&cfg);
    // After a Vegas round ssthresh is at least 3/4 of cwnd: 15 of 20 segments.
    let mut st = state(20, 15_000);
    st.snd_max = 20_000;
    // ns-3 GetSsThresh: max(min(15 000, 20 000 − 1000), 2000) = 15 000 (Reno: 10 000).
    assert_eq!(v.on_congestion(&mut st, Signal::Loss), 15_000);
    let mut st = state(20, SSTHRESH_UNSET);
    st.snd_max = 20_000;
    assert_eq!(v.on_congestion(&mut st, Signal::Ecn), 19_000);
    assert_eq!(v.on_congestion(&mut st, Signal::Eln), 20_000);
    v.on_timeout(&mut st, false);
    assert_eq!((st.cwnd, st.ssthresh, st.counters.window_reductions), (1000, 19_000, 2));
}
