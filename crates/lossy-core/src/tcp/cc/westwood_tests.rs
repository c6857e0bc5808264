//! Westwood+ from the formulas of ns-3's tcp-westwood-plus.cc (`EstimateBW`,
//! `GetSsThresh`) and Linux's tcp_westwood.c (`westwood_filter`,
//! `tcp_westwood_bw_rttmin`), with synthetic ACK streams.

use super::*;

fn ms(m: u64) -> SimDuration {
    SimDuration::from_millis(m)
}

fn at_ms(m: u64) -> SimTime {
    SimTime::ZERO + ms(m)
}

/// In congestion avoidance at 20 segments, so Reno's growth stays small.
fn state() -> SenderState {
    let mut st = SenderState::new(1000, 20_000, 1 << 30, 3);
    st.ssthresh = 10_000;
    st
}

/// An ACK of `bytes` every millisecond from `from_ms` to `to_ms`, each measuring `rtt`.
fn stream(w: &mut Westwood, st: &mut SenderState, from_ms: u64, to_ms: u64, bytes: u64, rtt: u64) {
    for t in from_ms..to_ms {
        st.snd_una += bytes;
        w.on_ack(st, at_ms(t), bytes, Some(ms(rtt)));
    }
}

#[test]
fn every_filter_converges_to_a_constant_rate_ack_stream() {
    for filter in [WestwoodFilter::Tustin, WestwoodFilter::Linux, WestwoodFilter::None] {
        let (mut w, mut st) = (Westwood::new(filter), state());
        // 1000 B a millisecond: 10⁶ B/s.
        stream(&mut w, &mut st, 0, 3000, 1000, 10);
        assert!((w.bwe() - 1e6).abs() < 1e3, "{filter:?}: {}", w.bwe());
    }
}

#[test]
fn the_filters_start_as_their_sources_do() {
    // ns-3's Tustin filter starts from 0: the first sample s gives 0.1·(s + 0)/2.
    let mut w = Westwood::new(WestwoodFilter::Tustin);
    w.filter_sample(1e6);
    assert!((w.bwe() - 5e4).abs() < 1e-6);
    w.filter_sample(1e6);
    assert!((w.bwe() - (0.9 * 5e4 + 0.1 * 1e6)).abs() < 1e-6);
    // Linux fills both stages with the first, then x = 7/8·x + 1/8·input twice.
    let mut w = Westwood::new(WestwoodFilter::Linux);
    w.filter_sample(1e6);
    assert_eq!(w.bwe(), 1e6);
    w.filter_sample(2e6);
    let first = (7.0 * 1e6 + 2e6) / 8.0;
    assert!((w.bwe() - (7.0 * 1e6 + first) / 8.0).abs() < 1e-6);
}

#[test]
fn the_rate_is_sampled_once_per_rtt() {
    let (mut w, mut st) = (Westwood::new(WestwoodFilter::None), state());
    // The first ACK opens the window; ten more within the 10 ms RTT give no sample.
    stream(&mut w, &mut st, 0, 11, 1000, 10);
    assert_eq!(w.bwe(), 0.0);
    // The first ACK more than an RTT after the opening closes it: 11 kB over 11 ms.
    stream(&mut w, &mut st, 11, 12, 1000, 10);
    assert!((w.bwe() - 1e6).abs() < 1e-3, "{}", w.bwe());
    // The rate halves: the next window's sample shows it, not sooner.
    stream(&mut w, &mut st, 12, 22, 500, 10);
    assert!((w.bwe() - 1e6).abs() < 1e-3);
    stream(&mut w, &mut st, 22, 23, 500, 10);
    assert!((w.bwe() - 5e5).abs() < 1e-3, "{}", w.bwe());
}

#[test]
fn bytes_acknowledged_in_recovery_count_when_the_next_ack_shows_them() {
    let (mut w, mut st) = (Westwood::new(WestwoodFilter::None), state());
    stream(&mut w, &mut st, 0, 12, 1000, 10);
    // 20 ms with no call (recovery), then one ACK: snd_una moved 20 kB in all.
    st.snd_una += 19_000;
    stream(&mut w, &mut st, 31, 32, 1000, 10);
    assert!((w.bwe() - 1e6).abs() < 1e-3, "{}", w.bwe());
}

#[test]
fn a_loss_sets_ssthresh_to_bwe_times_the_least_rtt() {
    let (mut w, mut st) = (Westwood::new(WestwoodFilter::Linux), state());
    stream(&mut w, &mut st, 0, 1000, 1000, 12);
    stream(&mut w, &mut st, 1000, 2000, 1000, 10);
    stream(&mut w, &mut st, 2000, 3000, 1000, 15);
    // BWE 10⁶ B/s · RTT_min 10 ms = 10 000 B, not half the window (20 kB).
    let expected = (w.bwe() * 0.010) as u64;
    assert!((9_990..=10_010).contains(&expected), "{expected}");
    st.snd_max = st.snd_una + 20_000;
    assert_eq!(w.on_congestion(&mut st, Signal::Loss), expected);
    assert_eq!((st.ssthresh, st.counters.window_reductions), (expected, 1));
    // ECN is congestion too; ELN and EWLN keep the window.
    assert_eq!(w.on_congestion(&mut st, Signal::Ecn), expected);
    st.cwnd = 20_000;
    assert_eq!(w.on_congestion(&mut st, Signal::Eln), 20_000);
    assert_eq!(w.on_congestion(&mut st, Signal::Ewln), 20_000);
    assert_eq!(st.counters.window_reductions, 2);
}

#[test]
fn with_no_estimate_yet_ssthresh_is_two_segments() {
    let (mut w, mut st) = (Westwood::new(WestwoodFilter::Tustin), state());
    st.snd_max = 20_000;
    assert_eq!(w.on_congestion(&mut st, Signal::Loss), 2000);
}

#[test]
fn a_timeout_sets_one_segment_and_ssthresh_from_the_estimate_then_restarts_rtt_min() {
    let (mut w, mut st) = (Westwood::new(WestwoodFilter::None), state());
    stream(&mut w, &mut st, 0, 100, 1000, 10);
    w.on_timeout(&mut st, false);
    assert_eq!(st.cwnd, 1000);
    assert!((9_990..=10_010).contains(&st.ssthresh), "{}", st.ssthresh);
    // After the timeout RTT_min follows the next sample, even a larger one.
    stream(&mut w, &mut st, 100, 101, 1000, 40);
    assert_eq!(w.rtt_min, Some(ms(40)));
}

#[test]
fn growth_is_renos() {
    let (mut w, mut st) = (Westwood::new(WestwoodFilter::Tustin), state());
    let mut reno = st.clone();
    for k in 1..=30 {
        st.snd_una = k * 1000;
        reno.snd_una = k * 1000;
        w.on_ack(&mut st, at_ms(k), 1000, Some(ms(10)));
        Aimd.on_ack(&mut reno, at_ms(k), 1000, Some(ms(10)));
    }
    assert_eq!(st.cwnd, reno.cwnd);
}
