//! BBRv1 from synthetic delivery-rate samples (no sender): the state machine's
//! transitions, the gain cycle, ProbeRTT, the window and pacing rate it sets, and its
//! answers to recovery and timeouts. Numbers: a 10 Mbit/s bottleneck (1.25 MB/s) and a
//! 20 ms RTprop, so one BDP is 25 000 B and 25 segments of 1000 B.

use super::*;
use crate::tcp::cc::Abc;

const MSS: u64 = 1000;
const BW: f64 = 1.25e6;
const BDP: u64 = 25_000;

fn ms(n: u64) -> SimDuration {
    SimDuration::from_millis(n)
}

struct Harness {
    bbr: Bbr,
    st: SenderState,
    now: SimTime,
    delivered: u64,
    /// `delivered` at the last ACK that ended a round.
    round_mark: u64,
    /// Bytes of the FlightSize marked lost and not resent (a timeout's): out of the
    /// network, so not in the samples' `in_flight`.
    marked_lost: u64,
}

impl Harness {
    fn new(seed: u64) -> Self {
        Self::with(&BbrConfig::default(), seed)
    }

    fn with(cfg: &BbrConfig, seed: u64) -> Self {
        let ctx = CcContext { mss: MSS, initial_window: 10 * MSS, abc: Abc::Off, seed, selective_acks: true, paced: false };
        Harness { bbr: Bbr::new(cfg, &ctx), st: SenderState::new(MSS, 10 * MSS, 1 << 30, 3), now: SimTime::ZERO, delivered: 0, round_mark: 0, marked_lost: 0 }
    }

    /// `bytes` outstanding from now on.
    fn flight(&mut self, bytes: u64) {
        self.st.snd_una = 1 << 20;
        self.st.snd_max = self.st.snd_una + bytes;
        self.st.snd_nxt = self.st.snd_max;
    }

    /// An ACK `after` the last one, of `acked` new bytes, whose sample measured `rate`
    /// over one RTT of `rtt`; it ends a round if `round` (its segment was sent after the
    /// last round's end).
    fn ack_with(&mut self, after: SimDuration, acked: u64, rate: f64, rtt: SimDuration, round: bool, app_limited: bool) {
        self.now += after;
        let prior_delivered = if round { self.delivered } else { self.round_mark.saturating_sub(1) };
        self.delivered += acked;
        if round {
            self.round_mark = self.delivered;
        }
        let rs = RateSample {
            delivered: acked,
            prior_delivered,
            interval: rtt,
            delivery_rate: rate,
            is_app_limited: app_limited,
            rtt: Some(rtt),
            newly_acked: acked,
            prior_in_flight: self.st.flight_size() - self.marked_lost + acked,
            in_flight: self.st.flight_size() - self.marked_lost,
            ..RateSample::default()
        };
        self.bbr.on_rate_sample(&mut self.st, self.now, &rs);
    }

    /// A round-ending ACK at the bottleneck's rate and the base RTT.
    fn round(&mut self) {
        self.ack_with(ms(20), 10 * MSS, BW, ms(20), true, false);
    }

    /// Startup at a flat 10 Mbit/s with less than a BDP in flight: the pipe is full at
    /// the fourth round (one to set the plateau, three without growth) and Drain ends at
    /// once.
    fn to_probe_bw(&mut self) {
        self.flight(20 * MSS);
        for _ in 0..4 {
            self.round();
        }
        assert_eq!(self.bbr.mode(), Mode::ProbeBw);
    }
}

#[test]
fn startup_paces_at_the_high_gain_and_grows_the_window_by_what_is_delivered() {
    let mut h = Harness::new(1);
    // Linux bbr_init_pacing_rate_from_rtt: high_gain · initial window / 1 ms, less 1 %.
    let initial = HIGH_GAIN * 10_000.0 / 1e-3 * 0.99;
    assert!((h.bbr.pacing_rate(&h.st, None).unwrap() - initial).abs() < 1e-6);
    h.flight(10 * MSS);
    h.ack_with(ms(20), 2 * MSS, 1e5, ms(20), true, false);
    assert_eq!((h.bbr.mode(), h.bbr.pacing_gain, h.bbr.cwnd_gain), (Mode::Startup, HIGH_GAIN, HIGH_GAIN));
    // The first RTT sample restarts it at high_gain · cwnd / RTT (cwnd still 10 segments).
    let from_rtt = HIGH_GAIN * 10_000.0 / 0.02 * 0.99;
    assert!((h.bbr.pacing_rate(&h.st, None).unwrap() - from_rtt).abs() < 1e-6);
    assert_eq!(h.st.cwnd, 12 * MSS, "cwnd += acked until an initial window is delivered");
    // Before the pipe is full the rate only rises: a lower gain·BtlBw leaves it.
    h.ack_with(ms(1), MSS, 2e5, ms(20), false, false);
    assert!((h.bbr.pacing_rate(&h.st, None).unwrap() - from_rtt).abs() < 1e-6);
    h.ack_with(ms(1), MSS, 4e6, ms(20), false, false);
    assert!((h.bbr.pacing_rate(&h.st, None).unwrap() - HIGH_GAIN * 4e6 * 0.99).abs() < 1e-3);
}

#[test]
fn the_pipe_is_full_after_three_rounds_without_25_percent_growth() {
    let mut h = Harness::new(1);
    h.flight(100 * MSS);
    // Each of the first four at least 1.25x the last plateau; then 9e5 < 1.25 · 8e5.
    for (i, rate) in [1e5, 2e5, 4e5, 8e5, 9e5, 9.5e5].into_iter().enumerate() {
        h.ack_with(ms(20), MSS, rate, ms(20), true, false);
        assert!(!h.bbr.full_bw_reached, "round {}", i + 1);
    }
    // Non-round ACKs do not count.
    h.ack_with(ms(1), MSS, 9.9e5, ms(20), false, false);
    assert!(!h.bbr.full_bw_reached);
    h.ack_with(ms(20), MSS, 9.9e5, ms(20), true, false);
    assert!(h.bbr.full_bw_reached);
    // 100 segments in flight is more than one BDP (0.99e6 · 20 ms + 3 segments): Drain,
    // pacing at 1/high_gain, with Linux's ssthresh = inflight(1) reported.
    assert_eq!((h.bbr.mode(), h.bbr.pacing_gain), (Mode::Drain, 1.0 / HIGH_GAIN));
    assert!(h.st.ssthresh.abs_diff(19_800 + 3 * MSS) <= 1, "{}", h.st.ssthresh);
    let drain_rate = 9.9e5 / HIGH_GAIN * 0.99;
    assert!((h.bbr.pacing_rate(&h.st, None).unwrap() - drain_rate).abs() < 1e-6, "the full pipe lets the rate fall");
    // Drain holds while the flight is above one BDP, and ends when it is not.
    h.ack_with(ms(5), MSS, 9.9e5, ms(20), false, false);
    assert_eq!(h.bbr.mode(), Mode::Drain);
    h.flight(22 * MSS);
    h.ack_with(ms(5), MSS, 9.9e5, ms(20), false, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeBw);
}

/// Linux `bbr_check_drain` reads `tcp_packets_in_flight`, and `tcp_enter_loss` has marked
/// every segment lost: after a timeout only the resends are in the network, whatever the
/// FlightSize (snd_max − snd_una) still holds. Reading the FlightSize kept emulator 6 of
/// pantheon-emulators (450-packet queue, 114 Mbit/s) in Drain for 10 s after its second
/// timeout, pacing at BtlBw/2.885 while BtlBw aged down to its own samples (0.1 Mbit/s).
#[test]
fn drain_ends_when_the_bytes_in_the_network_not_the_flight_size_are_down_to_one_bdp() {
    let mut h = Harness::new(1);
    h.flight(100 * MSS);
    for _ in 0..4 {
        h.round();
    }
    assert_eq!(h.bbr.mode(), Mode::Drain, "100 segments in the network: above one BDP");
    h.bbr.on_timeout(&mut h.st, false);
    // The timeout marked all 100 lost; two resent since are all that is in the network.
    h.marked_lost = 98 * MSS;
    h.ack_with(ms(5), MSS, BW, ms(20), false, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeBw, "2 segments in the network, though 100 outstanding");
}

#[test]
fn probe_rtt_counts_the_bytes_in_the_network_not_those_marked_lost() {
    let mut h = Harness::new(1);
    h.to_probe_bw();
    h.now += SimDuration::from_secs(10);
    h.flight(50 * MSS);
    h.ack_with(ms(1), MSS, BW, ms(25), false, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeRtt);
    // 50 outstanding, 47 of them marked lost by a timeout: 3 in the network, so the
    // 200 ms start (Linux bbr_update_min_rtt: tcp_packets_in_flight <= 4).
    h.marked_lost = 47 * MSS;
    h.ack_with(ms(1), MSS, BW, ms(25), false, false);
    h.ack_with(ms(201), MSS, BW, ms(25), true, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeBw, "200 ms and a round at 3 segments");
}

#[test]
fn app_limited_rounds_do_not_fill_the_pipe() {
    let mut h = Harness::new(1);
    h.flight(10 * MSS);
    h.ack_with(ms(20), MSS, BW, ms(20), true, false);
    for _ in 0..5 {
        h.ack_with(ms(20), MSS, BW, ms(20), true, true);
    }
    assert!(!h.bbr.full_bw_reached, "Linux bbr_check_full_bw_reached skips app-limited samples");
    assert_eq!(h.bbr.mode(), Mode::Startup);
}

#[test]
fn an_app_limited_sample_below_the_maximum_leaves_the_filter() {
    let mut h = Harness::new(1);
    h.flight(10 * MSS);
    h.ack_with(ms(20), MSS, BW, ms(20), true, false);
    // Ten rounds later the 1.25 MB/s sample has aged out; app-limited ones do not enter.
    for _ in 0..11 {
        h.ack_with(ms(20), MSS, 1e5, ms(20), true, true);
    }
    assert_eq!(h.bbr.bw.get(), BW, "no sample entered since, so nothing aged it out");
    h.ack_with(ms(20), MSS, 2e5, ms(20), true, false);
    assert_eq!(h.bbr.bw.get(), 2e5, "a sample that is not app-limited enters, and the old maximum has expired");
}

#[test]
fn probe_bw_starts_at_a_random_phase_other_than_0_75_from_the_flows_own_stream() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let mut h = Harness::new(seed);
        h.to_probe_bw();
        let phase = h.bbr.cycle_index;
        assert_ne!(phase, 1, "seed {seed}: Linux never starts in the 0.75 phase");
        assert_eq!(h.bbr.pacing_gain, PACING_GAIN_CYCLE[phase]);
        seen.insert(phase);
        let mut again = Harness::new(seed);
        again.to_probe_bw();
        assert_eq!(again.bbr.cycle_index, phase, "seed {seed}: the same stream, the same phase");
    }
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![0, 2, 3, 4, 5, 6, 7]);
}

#[test]
fn the_gain_cycle_goes_through_its_eight_phases_by_time_and_inflight() {
    let mut h = Harness::new(1);
    h.to_probe_bw();
    h.bbr.cycle_index = 0;
    h.bbr.cycle_stamp = h.now;
    h.bbr.update_gains();
    // 1.25·BDP plus the 3 quanta and ProbeBW's 2 extra segments in this phase.
    let probe_inflight = h.bbr.inflight(1.25);
    assert!(probe_inflight.abs_diff(31_250 + 5 * MSS) <= 1, "{probe_inflight}");
    // 1.25: a full min_rtt is not enough while the flight before the ACK is below it.
    h.flight(probe_inflight - 2 * MSS);
    h.ack_with(ms(21), MSS, BW, ms(20), false, false);
    assert_eq!(h.bbr.cycle_index, 0);
    // The flight before the ACK reaches it: on to 0.75.
    h.flight(probe_inflight - MSS);
    h.ack_with(ms(1), MSS, BW, ms(20), false, false);
    assert_eq!((h.bbr.cycle_index, h.bbr.pacing_gain), (1, 0.75));
    // 0.75 ends early once the flight is down to one BDP (+3 segments).
    let one_bdp = h.bbr.inflight(1.0);
    assert!(one_bdp.abs_diff(BDP + 3 * MSS) <= 1, "{one_bdp}");
    h.flight(one_bdp - MSS);
    h.ack_with(ms(1), MSS, BW, ms(20), false, false);
    assert_eq!((h.bbr.cycle_index, h.bbr.pacing_gain), (2, 1.0));
    // The six 1.0 phases last one min_rtt each, whatever the flight.
    for phase in 3..=8 {
        h.ack_with(ms(20), MSS, BW, ms(20), false, false);
        assert_eq!(h.bbr.cycle_index, phase - 1, "a phase lasts more than min_rtt");
        h.ack_with(ms(1), MSS, BW, ms(20), false, false);
        assert_eq!(h.bbr.cycle_index, phase % 8);
        assert_eq!(h.bbr.pacing_gain, PACING_GAIN_CYCLE[phase % 8]);
    }
    let rate = 1.25 * BW * 0.99;
    assert!((h.bbr.pacing_rate(&h.st, None).unwrap() - rate).abs() < 1e-6, "pacing = gain · BtlBw, 1 % below");
}

#[test]
fn a_loss_ends_the_1_25_phase_after_a_min_rtt() {
    let mut h = Harness::new(1);
    h.to_probe_bw();
    h.bbr.cycle_index = 0;
    h.bbr.cycle_stamp = h.now;
    h.bbr.update_gains();
    h.flight(BDP);
    h.now += ms(21);
    let rs = RateSample { interval: ms(20), delivery_rate: BW, rtt: Some(ms(20)), newly_acked: MSS, newly_lost: MSS, ..RateSample::default() };
    h.bbr.on_rate_sample(&mut h.st, h.now, &rs);
    assert_eq!(h.bbr.cycle_index, 1);
}

#[test]
fn probe_bw_window_is_two_bdps_and_three_segments() {
    let mut h = Harness::new(1);
    h.to_probe_bw();
    h.bbr.cycle_index = 3;
    h.bbr.update_gains();
    for _ in 0..10 {
        h.ack_with(ms(1), 10 * MSS, BW, ms(20), false, false);
    }
    assert!(h.st.cwnd.abs_diff(2 * BDP + 3 * MSS) <= 1, "{}", h.st.cwnd);
    // Above the target, the full pipe snaps it down (Linux bbr_set_cwnd).
    h.st.cwnd = 90 * MSS;
    h.ack_with(ms(1), MSS, BW, ms(20), false, false);
    assert!(h.st.cwnd.abs_diff(2 * BDP + 3 * MSS) <= 1, "{}", h.st.cwnd);
}

#[test]
fn probe_rtt_after_10_s_without_a_new_minimum_holds_4_segments_for_200_ms_and_a_round() {
    let mut h = Harness::new(1);
    h.to_probe_bw();
    let before = h.st.cwnd;
    let stamp = h.now; // the last 20 ms sample set RTprop's stamp (equal ones refresh it)
    // Longer RTTs every 100 ms: no new minimum.
    while h.now + ms(100) <= stamp + SimDuration::from_secs(10) {
        h.ack_with(ms(100), MSS, BW, ms(25), false, false);
        assert_ne!(h.bbr.mode(), Mode::ProbeRtt, "at {}", h.now);
    }
    h.ack_with(ms(100), MSS, BW, ms(25), false, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeRtt);
    assert_eq!((h.st.cwnd, h.bbr.pacing_gain), (MIN_PIPE_SEGMENTS * MSS, 1.0));
    // The 200 ms start once the flight is down to 4 segments.
    h.ack_with(ms(300), MSS, BW, ms(25), true, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeRtt, "flight still above 4 segments");
    h.flight(4 * MSS);
    h.ack_with(ms(10), MSS, BW, ms(25), false, false);
    h.ack_with(ms(250), MSS, BW, ms(25), false, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeRtt, "200 ms, but no round since they began");
    h.ack_with(ms(1), MSS, BW, ms(25), true, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeBw, "200 ms and a round: back to ProbeBW");

    // A round alone, before the 200 ms, is not enough either.
    let mut h = Harness::new(1);
    h.to_probe_bw();
    h.now += SimDuration::from_secs(10);
    h.ack_with(ms(1), MSS, BW, ms(25), false, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeRtt);
    h.flight(4 * MSS);
    h.ack_with(ms(1), MSS, BW, ms(25), false, false);
    h.ack_with(ms(100), MSS, BW, ms(25), true, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeRtt, "a round, but not yet 200 ms");
    h.ack_with(ms(101), MSS, BW, ms(25), false, false);
    assert_eq!(h.bbr.mode(), Mode::ProbeBw);
    assert!(h.st.cwnd >= before, "the window before ProbeRTT is restored: {} < {before}", h.st.cwnd);
    // RTprop's window restarted at the exit: no ProbeRTT for another 10 s.
    let exit = h.now;
    while h.now + ms(100) <= exit + SimDuration::from_secs(10) {
        h.ack_with(ms(100), MSS, BW, ms(25), false, false);
        assert_ne!(h.bbr.mode(), Mode::ProbeRtt);
    }
}

#[test]
fn a_new_minimum_rtt_postpones_probe_rtt() {
    let mut h = Harness::new(1);
    h.to_probe_bw();
    for _ in 0..90 {
        h.ack_with(ms(100), MSS, BW, ms(25), false, false);
    }
    h.ack_with(ms(100), MSS, BW, ms(19), false, false);
    for _ in 0..50 {
        h.ack_with(ms(100), MSS, BW, ms(25), false, false);
        assert_ne!(h.bbr.mode(), Mode::ProbeRtt);
    }
}

#[test]
fn recovery_holds_the_flight_then_the_window_before_it_is_restored() {
    let mut h = Harness::new(1);
    h.to_probe_bw();
    h.bbr.cycle_index = 3;
    for _ in 0..10 {
        h.ack_with(ms(1), 10 * MSS, BW, ms(20), false, false);
    }
    let before = h.st.cwnd;
    h.flight(30 * MSS);
    let ssthresh = h.st.ssthresh;
    // Packet conservation: the recovery holds the FlightSize; ssthresh is not BBR's.
    assert_eq!(h.bbr.on_congestion(&mut h.st, Signal::Loss), 30 * MSS);
    assert_eq!((h.st.ssthresh, h.st.counters.window_reductions), (ssthresh, 0));
    // In recovery the recovery's window (Reno's inflation, here) is left alone.
    h.st.in_recovery = true;
    h.st.cwnd = 33 * MSS;
    h.ack_with(ms(1), MSS, BW, ms(20), false, false);
    assert_eq!(h.st.cwnd, 33 * MSS);
    // Recovery ends at its target; BBR restores the window it had.
    h.st.in_recovery = false;
    h.st.cwnd = 30 * MSS;
    h.ack_with(ms(1), MSS, BW, ms(20), false, false);
    assert_eq!(h.st.cwnd, before);
}

#[test]
fn a_timeout_starts_from_one_segment_and_restores_once_its_flight_is_acknowledged() {
    let mut h = Harness::new(1);
    h.to_probe_bw();
    h.bbr.cycle_index = 3;
    for _ in 0..10 {
        h.ack_with(ms(1), 10 * MSS, BW, ms(20), false, false);
    }
    let before = h.st.cwnd;
    h.flight(30 * MSS);
    h.bbr.on_timeout(&mut h.st, false);
    assert_eq!(h.st.cwnd, MSS);
    // The data sent before the timeout is not all acknowledged: the window restarts at
    // Linux's 4-segment floor and grows by what is delivered.
    h.st.snd_una += MSS;
    h.ack_with(ms(1), MSS, BW, ms(20), false, false);
    assert_eq!(h.st.cwnd, 4 * MSS);
    h.st.snd_una = h.st.snd_max;
    h.ack_with(ms(1), MSS, BW, ms(20), false, false);
    assert_eq!(h.st.cwnd, before);
}

#[test]
fn ecn_and_wireless_notices_keep_the_window() {
    let mut h = Harness::new(1);
    h.to_probe_bw();
    let cwnd = h.st.cwnd;
    for signal in [Signal::Ecn, Signal::Ewln, Signal::Eln] {
        assert_eq!(h.bbr.on_congestion(&mut h.st, signal), cwnd, "{signal:?}");
    }
    assert_eq!(h.st.counters.window_reductions, 0);
}

#[test]
fn out_of_range_parameters_are_refused_naming_the_field() {
    let ok = BbrConfig::default();
    assert_eq!(ok.validate(), Ok(()));
    let cases = [
        (BbrConfig { high_gain: 1.0, ..ok.clone() }, "high_gain: 1 is out of range; use a number greater than 1"),
        (BbrConfig { high_gain: f64::NAN, ..ok.clone() }, "high_gain: NaN is out of range; use a number greater than 1"),
        (BbrConfig { cwnd_gain: 0.0, ..ok.clone() }, "cwnd_gain: 0 is out of range; use a number greater than 0"),
        (BbrConfig { pacing_margin: 1.0, ..ok.clone() }, "pacing_margin: 1 is out of range; use a number in [0, 1)"),
        (BbrConfig { pacing_margin: -0.1, ..ok.clone() }, "pacing_margin: -0.1 is out of range; use a number in [0, 1)"),
    ];
    for (cfg, msg) in cases {
        assert_eq!(cfg.validate(), Err(msg.to_string()));
    }
}
