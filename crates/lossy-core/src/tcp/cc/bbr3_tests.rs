//! BBRv3 from synthetic delivery-rate samples (no sender), against draft-ietf-ccwg-bbr-06's
//! pseudocode: the state machine's transitions, ProbeBW's phases, ProbeRTT, the loss
//! threshold and the bounds it sets, the pacing rate at each gain. Numbers: a 10 Mbit/s
//! bottleneck (1.25 MB/s) and a 20 ms min_rtt, so one BDP is 25 000 B (25 segments).

use super::*;
use crate::tcp::cc::Abc;

const MSS: u64 = 1000;
const BW: f64 = 1.25e6;
const BDP: u64 = 25_000;

fn ms(n: u64) -> SimDuration {
    SimDuration::from_millis(n)
}

struct Harness {
    bbr: Bbr3,
    st: SenderState,
    now: SimTime,
    delivered: u64,
    /// `delivered` at the last ACK that ended a round.
    round_mark: u64,
    /// Bytes of the FlightSize marked lost and not resent (a timeout's): out of the
    /// network, so not in the samples' `in_flight` and `prior_in_flight`.
    marked_lost: u64,
}

/// One ACK's sample: `acked` bytes at `rate` over the RTT `rtt`.
#[derive(Clone, Copy)]
struct Ack {
    acked: u64,
    rate: f64,
    rtt: u64,
    round: bool,
    app_limited: bool,
    newly_lost: u64,
    lost: u64,
    tx_in_flight: u64,
}

fn ack() -> Ack {
    Ack { acked: MSS, rate: BW, rtt: 20, round: false, app_limited: false, newly_lost: 0, lost: 0, tx_in_flight: 30 * MSS }
}

impl Harness {
    fn new(seed: u64) -> Self {
        Self::with_sack(seed, true)
    }

    /// A harness whose sender reads SACK blocks or not (C.has_selective_acks).
    fn with_sack(seed: u64, selective_acks: bool) -> Self {
        let ctx = CcContext { mss: MSS, initial_window: 10 * MSS, abc: Abc::Off, seed, selective_acks, paced: false };
        Harness { bbr: Bbr3::new(&Bbr3Config::default(), &ctx), st: SenderState::new(MSS, 10 * MSS, 1 << 30, 3), now: SimTime::ZERO, delivered: 0, round_mark: 0, marked_lost: 0 }
    }

    /// `bytes` outstanding from now on.
    fn flight(&mut self, bytes: u64) {
        self.st.snd_una = 1 << 20;
        self.st.snd_max = self.st.snd_una + bytes;
        self.st.snd_nxt = self.st.snd_max;
    }

    /// The ACK `a`, `after` the last one.
    fn send(&mut self, after: SimDuration, a: Ack) {
        self.now += after;
        let prior_delivered = if a.round { self.delivered } else { self.round_mark.saturating_sub(1) };
        self.delivered += a.acked;
        if a.round {
            self.round_mark = self.delivered;
        }
        let rs = RateSample {
            delivered: a.acked,
            prior_delivered,
            interval: ms(a.rtt),
            delivery_rate: a.rate,
            is_app_limited: a.app_limited,
            rtt: Some(ms(a.rtt)),
            newly_acked: a.acked,
            newly_lost: a.newly_lost,
            tx_in_flight: a.tx_in_flight,
            lost: a.lost,
            prior_in_flight: self.st.flight_size() - self.marked_lost + a.acked,
            in_flight: self.st.flight_size() - self.marked_lost,
        };
        self.bbr.on_rate_sample(&mut self.st, self.now, &rs);
    }

    /// A round-ending ACK at the bottleneck's rate and the base RTT.
    fn round(&mut self) {
        self.send(ms(20), Ack { acked: 10 * MSS, round: true, ..ack() });
    }

    /// Startup at a flat 10 Mbit/s with less than a BDP in flight: the pipe is full at
    /// the fourth round, Drain ends at once, and DOWN at once too (the 15 segments left
    /// and the 10 each round's ACK delivers are below the BDP).
    fn reach_cruise(&mut self) {
        self.flight(15 * MSS);
        for _ in 0..4 {
            self.round();
        }
        assert_eq!(self.bbr.state(), State::ProbeBwCruise);
    }
}

#[test]
fn startup_paces_at_2_77_and_leaves_on_a_plateau_of_three_rounds_then_drains_at_0_5() {
    let mut h = Harness::new(1);
    // §5.6.2 InitPacingRate: 2.77 · initial window / 1 ms, then / the first RTT.
    assert!((h.bbr.pacing_rate(&h.st, None).unwrap() - 2.77 * 10_000.0 / 1e-3).abs() < 1e-6);
    h.flight(100 * MSS);
    for (i, rate) in [1e5, 2e5, 4e5, 8e5, 9e5, 9.5e5].into_iter().enumerate() {
        h.send(ms(20), Ack { rate, round: true, ..ack() });
        assert_eq!((h.bbr.state(), h.bbr.pacing_gain, h.bbr.cwnd_gain), (State::Startup, 2.77, 2.0), "round {}", i + 1);
    }
    // Non-round ACKs do not count; the third round without 25 % growth (over 8e5) does.
    h.send(ms(1), Ack { rate: 9.9e5, ..ack() });
    assert_eq!(h.bbr.state(), State::Startup);
    h.send(ms(20), Ack { rate: 9.9e5, round: true, ..ack() });
    assert!(h.bbr.full_bw_reached);
    assert_eq!((h.bbr.state(), h.bbr.pacing_gain, h.bbr.cwnd_gain), (State::Drain, 0.5, 2.0));
    let drain = 0.5 * 9.9e5 * 0.99;
    assert!((h.bbr.pacing_rate(&h.st, None).unwrap() - drain).abs() < 1e-6, "the full pipe lets the rate fall");
    // Drain holds while the flight is above the BDP (9.9e5 · 20 ms = 19 800 B)...
    h.send(ms(5), ack());
    assert_eq!(h.bbr.state(), State::Drain);
    // ...and ends once it is not: ProbeBW_DOWN, and at once CRUISE (below the BDP).
    h.flight(19 * MSS);
    h.send(ms(5), ack());
    assert_eq!(h.bbr.state(), State::ProbeBwCruise);
}

#[test]
fn drain_ends_after_three_rounds_even_with_the_flight_above_the_bdp() {
    let mut h = Harness::new(1);
    h.flight(100 * MSS);
    for _ in 0..4 {
        h.round();
    }
    assert_eq!(h.bbr.state(), State::Drain);
    for _ in 0..3 {
        h.round();
        assert_eq!(h.bbr.state(), State::Drain);
    }
    h.round();
    assert_eq!(h.bbr.state(), State::ProbeBwDown, "§5.3.2: round_count > drain_start_round + 3");
}

/// Google's v3 `bbr_check_drain` reads `tcp_packets_in_flight`, and a timeout marks every
/// outstanding segment lost (tcp_input.c `tcp_timeout_mark_lost`): only the resends are in
/// the network then, whatever the FlightSize (snd_max − snd_una) still holds.
#[test]
fn drain_ends_when_the_bytes_in_the_network_not_the_flight_size_are_down_to_one_bdp() {
    let mut h = Harness::new(1);
    h.flight(100 * MSS);
    for _ in 0..4 {
        h.round();
    }
    assert_eq!(h.bbr.state(), State::Drain, "100 segments in the network: above one BDP");
    h.bbr.on_timeout(&mut h.st, false);
    // The timeout marked all 100 lost; the two resent since are all that is in the network.
    h.marked_lost = 98 * MSS;
    h.send(ms(5), ack());
    // ProbeBW (DOWN, and on to REFILL at once: after the timeout's 1-segment window the
    // Reno-coexistence count of rounds is already reached).
    assert!(h.bbr.in_probe_bw(), "2 segments in the network, though 100 outstanding: {:?}", h.bbr.state());
}

/// Google's v3 `bbr_update_cycle_phase` gives `bbr_check_time_to_cruise` the bytes in the
/// network before the ACK (`rs->prior_in_flight`), not the FlightSize.
#[test]
fn down_goes_to_cruise_on_the_bytes_in_the_network_before_the_ack() {
    let mut h = Harness::new(3);
    to_refill(&mut h);
    for _ in 0..4 {
        h.round();
    }
    assert_eq!(h.bbr.state(), State::ProbeBwDown);
    h.flight(BDP + 20 * MSS);
    h.send(ms(1), ack());
    assert_eq!(h.bbr.state(), State::ProbeBwDown, "45 segments in the network");
    // 21 of the 45 marked lost and not resent: 25 in the network before this ACK.
    h.marked_lost = 21 * MSS;
    h.send(ms(1), ack());
    assert_eq!(h.bbr.state(), State::ProbeBwCruise, "one BDP in the network, though 45 outstanding");
}

#[test]
fn startup_ends_on_excessive_loss_with_sack_after_a_round_of_recovery_and_six_loss_events() {
    let mut h = Harness::new(1);
    h.flight(100 * MSS);
    h.send(ms(20), Ack { rate: 1e5, round: true, ..ack() });
    h.st.in_recovery = true;
    h.send(ms(1), Ack { rate: 2e5, ..ack() });
    // Five loss events in the round: not enough.
    let lossy = Ack { rate: 2e5, newly_lost: MSS, lost: 3 * MSS, tx_in_flight: 100 * MSS, ..ack() };
    for _ in 0..5 {
        h.send(ms(1), lossy);
    }
    h.send(ms(20), Ack { rate: 4e5, round: true, lost: 3 * MSS, tx_in_flight: 100 * MSS, ..ack() });
    assert_eq!(h.bbr.state(), State::Startup, "5 loss events");
    // Six, and 3 % of the flight lost: Drain, inflight_longterm = max(BDP, inflight_latest).
    for _ in 0..6 {
        h.send(ms(1), lossy);
    }
    h.send(ms(20), Ack { rate: 4e5, round: true, lost: 3 * MSS, tx_in_flight: 100 * MSS, ..ack() });
    assert!(h.bbr.full_bw_reached);
    assert_eq!(h.bbr.state(), State::Drain);
    let bdp = (4e5 * 0.02) as u64; // max_bw 4e5 over 20 ms
    assert_eq!(h.bbr.inflight_longterm, bdp.max(MSS));

    // Exactly 2 % lost is not excessive (§5.5.10.2: more than LossThresh).
    let mut h = Harness::new(1);
    h.flight(100 * MSS);
    h.send(ms(20), Ack { rate: 1e5, round: true, ..ack() });
    h.st.in_recovery = true;
    h.send(ms(1), Ack { rate: 2e5, ..ack() });
    for _ in 0..6 {
        h.send(ms(1), Ack { newly_lost: MSS, lost: 2 * MSS, tx_in_flight: 100 * MSS, rate: 2e5, ..ack() });
    }
    h.send(ms(20), Ack { rate: 4e5, round: true, lost: 2 * MSS, tx_in_flight: 100 * MSS, ..ack() });
    assert_eq!(h.bbr.state(), State::Startup);
}

#[test]
fn without_sack_any_loss_in_fast_recovery_ends_startup() {
    let mut h = Harness::with_sack(1, false);
    h.flight(100 * MSS);
    h.send(ms(20), Ack { rate: 1e5, round: true, ..ack() });
    h.send(ms(1), Ack { newly_lost: MSS, lost: MSS, ..ack() });
    assert_eq!(h.bbr.state(), State::Startup, "not in fast recovery");
    h.st.in_recovery = true;
    h.send(ms(1), Ack { newly_lost: MSS, lost: MSS, ..ack() });
    assert_eq!(h.bbr.state(), State::Drain);
}

#[test]
fn is_inflight_too_high_above_two_percent_of_the_flight_or_any_loss_without_sack() {
    let h = Harness::new(1);
    let rs = |lost: u64| RateSample { lost, tx_in_flight: 100_000, ..RateSample::default() };
    assert!(!h.bbr.is_inflight_too_high(&rs(2_000)), "2 % exactly is tolerated");
    assert!(h.bbr.is_inflight_too_high(&rs(2_001)));
    assert!(!h.bbr.is_inflight_too_high(&rs(1)));
    let h = Harness::with_sack(1, false);
    assert!(h.bbr.is_inflight_too_high(&rs(1)), "§5.5.10.2: RS.lost > 0 && !C.has_selective_acks");
    assert!(!h.bbr.is_inflight_too_high(&rs(0)));
}

/// From CRUISE to REFILL by Reno-coexistence rounds (TargetInflight = 25 segments).
fn to_refill(h: &mut Harness) {
    h.reach_cruise();
    let mut rounds = 0;
    while h.bbr.state() == State::ProbeBwCruise {
        h.round();
        rounds += 1;
        assert!(rounds <= 25, "§5.3.3.8: at most min(TargetInflight in segments, 63) rounds");
    }
    assert_eq!(h.bbr.state(), State::ProbeBwRefill);
}

#[test]
fn probe_bw_goes_down_cruise_refill_up_down() {
    let mut h = Harness::new(3);
    to_refill(&mut h);
    assert!(h.bbr.bw_shortterm.is_infinite() && h.bbr.inflight_shortterm == UNSET, "REFILL drops the short-term model");
    assert_eq!((h.bbr.pacing_gain, h.bbr.cwnd_gain), (1.0, 2.0));
    // A non-round ACK keeps REFILL; after one round, UP.
    h.send(ms(1), ack());
    assert_eq!(h.bbr.state(), State::ProbeBwRefill);
    h.round();
    assert_eq!((h.bbr.state(), h.bbr.pacing_gain, h.bbr.cwnd_gain), (State::ProbeBwUp, 1.25, 2.25));
    assert!(h.bbr.is_bw_probe_sample);
    // UP until the bandwidth plateaus for three rounds (the full-pipe estimator).
    for _ in 0..2 {
        h.round();
        assert_eq!(h.bbr.state(), State::ProbeBwUp);
    }
    h.round();
    assert_eq!((h.bbr.state(), h.bbr.pacing_gain), (State::ProbeBwDown, 0.9));
    // DOWN until the bytes in the network before the ACK (`rs.prior_in_flight`: those
    // left and the one it delivers) are at most the BDP.
    h.flight(BDP);
    h.send(ms(1), ack());
    assert_eq!(h.bbr.state(), State::ProbeBwDown, "BDP + 1 segment before the ACK");
    h.flight(BDP - MSS);
    h.send(ms(1), ack());
    assert_eq!(h.bbr.state(), State::ProbeBwCruise);
}

#[test]
fn cruise_probes_again_after_the_wall_clock_wait_of_two_to_three_seconds() {
    let mut h = Harness::new(5);
    h.reach_cruise();
    let wait = h.bbr.bw_probe_wait;
    assert!(wait >= SimDuration::from_secs(2) && wait < SimDuration::from_secs(3), "{wait:?}");
    assert!(h.bbr.rounds_since_probe_up <= 2);
    let start = h.bbr.cycle_stamp;
    // Non-round ACKs: only the wall clock can end CRUISE.
    while h.now + ms(50) <= start + wait {
        h.send(ms(50), ack());
        assert_eq!(h.bbr.state(), State::ProbeBwCruise, "at {:?}", h.now);
    }
    h.send(ms(50), ack());
    assert_eq!(h.bbr.state(), State::ProbeBwRefill);
    // The same seed, the same draw; the draws vary across seeds.
    let mut again = Harness::new(5);
    again.reach_cruise();
    assert_eq!(again.bbr.bw_probe_wait, wait);
    let waits: std::collections::BTreeSet<u64> = (0..20)
        .map(|s| {
            let mut h = Harness::new(s);
            h.reach_cruise();
            h.bbr.bw_probe_wait.0
        })
        .collect();
    assert!(waits.len() > 10);
}

#[test]
fn too_much_loss_in_up_cuts_inflight_longterm_to_the_flight_or_0_7_of_the_target_and_goes_down() {
    let mut h = Harness::new(3);
    to_refill(&mut h);
    h.round();
    assert_eq!(h.bbr.state(), State::ProbeBwUp);
    // 2 % of the flight is tolerated.
    h.send(ms(1), Ack { newly_lost: MSS, lost: 600, tx_in_flight: 30 * MSS, ..ack() });
    assert_eq!((h.bbr.state(), h.bbr.inflight_longterm), (State::ProbeBwUp, UNSET));
    // 3 %: inflight_longterm = max(tx_in_flight, 0.7 · min(BDP, cwnd)), and DOWN (which
    // a flight above the BDP keeps from going on to CRUISE).
    let target = BDP.min(h.st.cwnd);
    h.flight(BDP + 5 * MSS);
    h.send(ms(1), Ack { newly_lost: MSS, lost: 900, tx_in_flight: 30 * MSS, ..ack() });
    assert_eq!(h.bbr.state(), State::ProbeBwDown);
    assert_eq!(h.bbr.inflight_longterm, (30 * MSS).max((target as f64 * 0.7) as u64));
    assert!(h.bbr.prev_probe_too_high && !h.bbr.is_bw_probe_sample, "once per probe");
    // A small flight at the loss: the β floor rules.
    let mut h = Harness::new(3);
    to_refill(&mut h);
    h.round();
    let target = BDP.min(h.st.cwnd);
    h.send(ms(1), Ack { newly_lost: MSS, lost: 900, tx_in_flight: 10 * MSS, ..ack() });
    assert_eq!(h.bbr.inflight_longterm, (target as f64 * 0.7) as u64);
    // The window in ProbeBW is capped by it (§5.6.4.7), less the headroom in CRUISE.
    h.flight(10 * MSS);
    h.send(ms(1), ack());
    assert!(h.st.cwnd <= h.bbr.inflight_longterm, "{} > {}", h.st.cwnd, h.bbr.inflight_longterm);
}

#[test]
fn a_round_with_loss_outside_probing_cuts_bw_and_inflight_shortterm_by_beta() {
    let mut h = Harness::new(1);
    h.reach_cruise();
    // A round starting at half the rate (bw_latest is the round's max from its first
    // sample), a loss in it: at the round's end
    // bw_shortterm = max(bw_latest, 0.7 · max_bw), inflight_shortterm = max(1000, 0.7 · cwnd).
    h.send(ms(20), Ack { rate: BW / 2.0, round: true, ..ack() });
    h.send(ms(1), Ack { newly_lost: MSS, lost: MSS, rate: BW / 2.0, ..ack() });
    assert!(h.bbr.is_loss_in_round);
    h.send(ms(1), Ack { rate: BW / 2.0, ..ack() });
    assert!(h.bbr.bw_shortterm.is_infinite(), "once per round, at its end");
    let cwnd = h.st.cwnd; // InitLowerBounds takes C.cwnd before this ACK's SetCwnd
    h.send(ms(20), Ack { rate: BW / 2.0, round: true, ..ack() });
    assert_eq!(h.bbr.bw_shortterm, 0.7 * BW);
    assert_eq!(h.bbr.inflight_shortterm, (0.7 * cwnd as f64) as u64);
    assert_eq!(h.bbr.bw, 0.7 * BW, "BoundBWForModel: min(max_bw, bw_shortterm)");
    assert!((h.bbr.pacing_rate(&h.st, None).unwrap() - 0.7 * BW * 0.99).abs() < 1e-6);
    // A second round with loss: β again, the latest rate now a floor above it.
    h.send(ms(1), Ack { newly_lost: MSS, lost: MSS, rate: 0.6 * BW, ..ack() });
    h.send(ms(20), Ack { rate: 0.6 * BW, round: true, ..ack() });
    assert_eq!(h.bbr.bw_shortterm, 0.6 * BW, "max(0.6 · BW, 0.49 · BW)");
    // A round without loss leaves them.
    h.send(ms(20), Ack { rate: 0.3 * BW, round: true, ..ack() });
    assert_eq!(h.bbr.bw_shortterm, 0.6 * BW);
}

#[test]
fn loss_while_probing_leaves_the_short_term_model() {
    let mut h = Harness::new(3);
    to_refill(&mut h);
    h.send(ms(1), Ack { newly_lost: MSS, lost: MSS, ..ack() });
    h.round();
    assert!(h.bbr.bw_shortterm.is_infinite(), "§5.5.10.3: not while IsProbingBW");
}

#[test]
fn pacing_rate_is_gain_times_bw_one_percent_below_in_each_state() {
    let mut h = Harness::new(1);
    h.reach_cruise();
    let rs = RateSample { delivery_rate: BW, ..RateSample::default() };
    for (state, gain) in [(State::ProbeBwDown, 0.9), (State::ProbeBwCruise, 1.0), (State::ProbeBwRefill, 1.0), (State::ProbeBwUp, 1.25), (State::ProbeRtt, 1.0), (State::Drain, 0.5)] {
        h.bbr.set_state(state);
        h.bbr.set_pacing_rate(&rs);
        let rate = h.bbr.pacing_rate(&h.st, None).unwrap();
        assert!((rate - gain * BW * 0.99).abs() < 1e-6, "{state:?}: {rate}");
    }
    // §5.6.3: the send quantum is 1 ms at the pacing rate, at least 2 segments.
    h.bbr.set_send_quantum();
    assert_eq!(h.bbr.send_quantum, 2 * MSS);
}

#[test]
fn max_inflight_is_two_bdps_plus_the_aggregation_allowance_capped_at_100_ms_at_bw() {
    let mut h = Harness::new(1);
    h.reach_cruise();
    h.bbr.extra_acked_filter = WindowedMax::new(10);
    h.bbr.extra_acked_filter.update(h.bbr.round_count, 5_000.0);
    assert_eq!(h.bbr.max_inflight(), 2 * BDP + 5_000, "§5.6.4.2 UpdateMaxInflight");
    h.bbr.extra_acked_filter.update(h.bbr.round_count, 1e9);
    assert_eq!(h.bbr.max_inflight(), 2 * BDP + (0.1 * BW) as u64, "Linux's bbr_extra_acked_max_us");
}

#[test]
fn probe_rtt_after_5_s_without_a_lower_rtt_holds_half_a_bdp_for_200_ms_and_a_round() {
    let mut h = Harness::new(1);
    h.reach_cruise();
    let before = h.st.cwnd;
    let stamp = h.bbr.probe_rtt_min_stamp;
    // Equal RTTs do not refresh probe_rtt_min_delay (§5.3.4.3: strictly lower).
    while h.now + ms(100) <= stamp + PROBE_RTT_INTERVAL {
        h.send(ms(100), ack());
        assert_ne!(h.bbr.state(), State::ProbeRtt, "at {:?}", h.now);
    }
    h.send(ms(100), ack());
    assert_eq!((h.bbr.state(), h.bbr.pacing_gain, h.bbr.cwnd_gain), (State::ProbeRtt, 1.0, 0.5));
    assert_eq!(h.st.cwnd, BDP / 2, "ProbeRTTCwnd: 0.5 · BDP");
    // The 200 ms start once the flight is down to it.
    h.send(ms(300), Ack { round: true, ..ack() });
    assert_eq!(h.bbr.state(), State::ProbeRtt, "flight still above half a BDP");
    h.flight(BDP / 2);
    h.send(ms(10), ack());
    h.send(ms(250), ack());
    assert_eq!(h.bbr.state(), State::ProbeRtt, "200 ms, but no round since");
    h.send(ms(1), Ack { round: true, ..ack() });
    assert_eq!(h.bbr.state(), State::ProbeBwCruise, "§5.3.4.4: DOWN then at once CRUISE");
    assert!(h.st.cwnd >= before.min(h.bbr.model_cap()), "the saved window is restored");
    // The next one 5 s after the exit.
    let exit = h.now;
    while h.now + ms(100) <= exit + PROBE_RTT_INTERVAL {
        h.send(ms(100), ack());
        assert_ne!(h.bbr.state(), State::ProbeRtt);
    }
    h.send(ms(100), ack());
    assert_eq!(h.bbr.state(), State::ProbeRtt);
}

/// Google's v3 `bbr_update_min_rtt` starts ProbeRTT's 200 ms once `tcp_packets_in_flight`
/// is at most ProbeRTTCwnd: segments a timeout marked lost do not hold it back.
#[test]
fn probe_rtt_counts_the_bytes_in_the_network_not_those_marked_lost() {
    let mut h = Harness::new(1);
    h.reach_cruise();
    h.flight(50 * MSS);
    let stamp = h.bbr.probe_rtt_min_stamp;
    while h.bbr.state() != State::ProbeRtt {
        h.send(ms(100), ack());
        assert!(h.now <= stamp + PROBE_RTT_INTERVAL + ms(100));
    }
    h.send(ms(10), Ack { round: true, ..ack() });
    h.send(ms(250), Ack { round: true, ..ack() });
    assert_eq!(h.bbr.state(), State::ProbeRtt, "50 segments in the network, above half a BDP");
    // 45 of the 50 marked lost by a timeout: 5 in the network, so the 200 ms start.
    h.marked_lost = 45 * MSS;
    h.send(ms(10), ack());
    h.send(ms(201), Ack { round: true, ..ack() });
    assert_eq!(h.bbr.state(), State::ProbeBwCruise, "200 ms and a round at 5 segments");
}

#[test]
fn a_lower_rtt_postpones_probe_rtt() {
    let mut h = Harness::new(1);
    h.reach_cruise();
    for _ in 0..40 {
        h.send(ms(100), ack());
    }
    h.send(ms(100), Ack { rtt: 19, ..ack() });
    for _ in 0..45 {
        h.send(ms(100), ack());
        assert_ne!(h.bbr.state(), State::ProbeRtt);
    }
}

#[test]
fn ecn_is_congestion_for_the_round_and_wireless_notices_keep_everything() {
    let mut h = Harness::new(1);
    h.reach_cruise();
    let cwnd = h.st.cwnd;
    for signal in [Signal::Ewln, Signal::Eln] {
        assert_eq!(h.bbr.on_congestion(&mut h.st, signal), cwnd, "{signal:?}");
    }
    assert!(!h.bbr.is_loss_in_round);
    assert_eq!(h.bbr.on_congestion(&mut h.st, Signal::Ecn), cwnd);
    assert!(h.bbr.is_loss_in_round, "§3.7: CE marks are congestion");
    assert_eq!(h.st.counters.window_reductions, 0);
}

#[test]
fn recovery_holds_the_flight_then_restores_the_window_within_the_bounds() {
    let mut h = Harness::new(1);
    h.reach_cruise();
    let before = h.st.cwnd;
    h.flight(20 * MSS);
    assert_eq!(h.bbr.on_congestion(&mut h.st, Signal::Loss), 20 * MSS, "packet conservation");
    h.st.in_recovery = true;
    h.st.cwnd = 23 * MSS;
    h.send(ms(1), ack());
    assert_eq!(h.st.cwnd, 23 * MSS, "the recovery's window is left alone");
    h.st.in_recovery = false;
    h.st.cwnd = 20 * MSS;
    h.send(ms(1), ack());
    // RestoreCwnd, then SetCwnd adds what the ACK delivered, within the bounds.
    assert_eq!(h.st.cwnd, (before + MSS).min(h.bbr.model_cap()));
}

#[test]
fn out_of_range_parameters_are_refused_naming_the_field() {
    let ok = Bbr3Config::default();
    assert_eq!(ok.validate(), Ok(()));
    let cases = [
        (Bbr3Config { startup_pacing_gain: 1.0, ..ok.clone() }, "startup_pacing_gain: 1 is out of range; use a number greater than 1"),
        (Bbr3Config { drain_pacing_gain: 0.0, ..ok.clone() }, "drain_pacing_gain: 0 is out of range; use a number in (0, 1)"),
        (Bbr3Config { cwnd_gain: -1.0, ..ok.clone() }, "cwnd_gain: -1 is out of range; use a number greater than 0"),
        (Bbr3Config { loss_thresh: 1.0, ..ok.clone() }, "loss_thresh: 1 is out of range; use a number in (0, 1)"),
        (Bbr3Config { beta: f64::NAN, ..ok.clone() }, "beta: NaN is out of range; use a number in (0, 1)"),
        (Bbr3Config { headroom: 1.0, ..ok.clone() }, "headroom: 1 is out of range; use a number in [0, 1)"),
        (Bbr3Config { pacing_margin: -0.1, ..ok.clone() }, "pacing_margin: -0.1 is out of range; use a number in [0, 1)"),
    ];
    for (cfg, msg) in cases {
        assert_eq!(cfg.validate(), Err(msg.to_string()));
    }
}
