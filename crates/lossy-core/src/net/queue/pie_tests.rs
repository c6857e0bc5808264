//! PIE against RFC 8033: the update of §4.2 and its auto-tuning ladder worked by hand,
//! §5.5's cap, the decay, the burst allowance of §4.4, the suppressions of §4.1,
//! derandomization (§5.4) and ECN marking below 10 % (§5.1).

use super::*;
use crate::net::queue::testing::{offer, offer_dropping, take};

const MS: u64 = 1_000_000;

fn at(ms: u64) -> SimTime {
    SimTime(ms * MS)
}

fn pkt() -> Packet {
    Packet::udp(0, 0, 1, 0, 1000, 1000)
}

fn params() -> PieParams {
    PieParams {
        limit: QueueLimit::Packets(100_000),
        target: 0.015,
        tupdate: SimDuration::from_millis(15),
        alpha: 0.125,
        beta: 1.25,
        max_burst: SimDuration::from_millis(150),
        derandomize: false,
        ecn: false,
        mean_packet_size: 1000,
    }
}

fn pie(p: PieParams) -> Pie {
    Pie::new(p, RngStream::new(1, 0, "pie"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1e-12)
}

#[test]
fn the_update_climbs_the_ladder_under_a_standing_delay() {
    // A steady 100 ms delay. Step 1 from p = 0: (α·0.085 + β·0.1) / 2048; then β's term
    // is 0 and each step adds α·0.085 divided by the rung p has reached.
    let p = params();
    let mut c = Controller::new();
    c.current_qdelay = 0.1;
    c.update(&p);
    let p1 = (0.125 * 0.085 + 1.25 * 0.1) / 2048.0;
    assert!(close(c.drop_prob, p1), "{}", c.drop_prob);
    let d = 0.125 * 0.085;
    c.update(&p);
    let p2 = p1 + d / 128.0; // p1 ≈ 6.6e-5 is on the [1e-5, 1e-4) rung
    assert!(close(c.drop_prob, p2), "{}", c.drop_prob);
    c.update(&p);
    let p3 = p2 + d / 32.0; // p2 ≈ 1.5e-4: [1e-4, 1e-3)
    assert!(close(c.drop_prob, p3));
    // It keeps rising while the delay stays above target, up to 1.
    let mut last = c.drop_prob;
    for _ in 0..200 {
        c.update(&p);
        assert!(c.drop_prob > last || c.drop_prob == 1.0);
        last = c.drop_prob;
    }
    assert_eq!(c.drop_prob, 1.0);
}

#[test]
fn each_rung_of_the_ladder_divides_the_step() {
    let p = params();
    // A delay 8 ms above target, unchanged: the raw step is α · 0.008 = 0.001.
    let raw = 0.125 * 0.008;
    for (prob, div) in [(0.0, 2048.0), (5e-6, 512.0), (5e-5, 128.0), (5e-4, 32.0), (5e-3, 8.0), (0.05, 2.0), (0.15, 1.0)] {
        let mut c = Controller::new();
        (c.drop_prob, c.current_qdelay, c.qdelay_old) = (prob, 0.023, 0.023);
        c.update(&p);
        assert!(close(c.drop_prob - prob, raw / div), "p = {prob}: step {}", c.drop_prob - prob);
    }
    // §5.5: above 10 %, at most 2 % per update.
    let mut c = Controller::new();
    (c.drop_prob, c.current_qdelay) = (0.3, 0.5);
    c.update(&p);
    assert!(close(c.drop_prob, 0.32));
    // §4.2: an empty queue twice running decays p by 2 %.
    let mut c = Controller::new();
    c.drop_prob = 0.5;
    c.update(&p);
    assert!(close(c.drop_prob, (0.5 - 0.125 * 0.015 / 1.0) * 0.98));
}

#[test]
fn a_standing_queue_above_target_raises_p_and_gets_drops() {
    // Two arrivals and one departure a ms: the delay stays far above target.
    let mut q = pie(params());
    let mut dropped = Vec::new();
    let mut last = 0.0;
    for t in 1..=1000u64 {
        offer_dropping(&mut q, at(t), pkt(), &mut dropped);
        offer_dropping(&mut q, at(t), pkt(), &mut dropped);
        take(&mut q, at(t));
        if t % 100 == 0 && t < 1000 {
            assert!(q.ctl.drop_prob > last, "p = {} at {t} ms", q.ctl.drop_prob);
            last = q.ctl.drop_prob;
        }
    }
    assert!(!dropped.is_empty());
    let s = q.stats(1.0);
    assert_eq!(s.early_drops, dropped.len() as u64);
    let mean = s.drop_probability.unwrap();
    assert!(mean > 0.0 && mean < last, "time-weighted mean {mean} below the final {last}");
}

/// `n` arrivals a ms apart from 1 ms, nothing leaving, on a queue under a congestion
/// worth p = 0.5; returns the ms of the early drops.
fn congested_arrivals(max_burst_ms: u64, n: u64) -> Vec<u64> {
    let mut q = pie(PieParams { max_burst: SimDuration::from_millis(max_burst_ms), ..params() });
    // The first arrival finds a quiet queue: the allowance is set (if any).
    offer(&mut q, at(0), pkt()).unwrap();
    (q.ctl.drop_prob, q.ctl.qdelay_old) = (0.5, 0.1);
    let mut drops = Vec::new();
    for t in 1..=n {
        let mut gone = Vec::new();
        offer_dropping(&mut q, at(t), pkt(), &mut gone);
        if !gone.is_empty() {
            drops.push(t);
        }
    }
    drops
}

#[test]
fn the_burst_allowance_lets_a_short_burst_through() {
    // §4.4: 150 ms of allowance, run down by 15 ms per update (at 15, 30, ... 150 ms).
    let drops = congested_arrivals(150, 300);
    assert!(drops.iter().all(|&t| t >= 150), "{drops:?}");
    assert!(drops.len() > 30, "dropped after the allowance: {}", drops.len());
    // Without the allowance the same arrivals are dropped from the start.
    let drops = congested_arrivals(0, 300);
    assert!(drops.iter().any(|&t| t < 150));
}

#[test]
fn no_early_drop_with_two_packets_queued_or_a_low_delay_and_p() {
    let mut q = pie(PieParams { max_burst: SimDuration::ZERO, ..params() });
    offer(&mut q, at(0), pkt()).unwrap();
    (q.ctl.drop_prob, q.ctl.qdelay_old) = (1.0, 1.0);
    // With one and two queued the arrival is kept whatever p.
    offer(&mut q, at(0), pkt()).unwrap();
    offer(&mut q, at(0), pkt()).unwrap();
    // With three queued: dropped (p = 1).
    assert!(offer(&mut q, at(0), pkt()).is_err());
    // A low old delay and p < 0.2: kept.
    (q.ctl.drop_prob, q.ctl.qdelay_old) = (0.19, 0.007);
    for _ in 0..100 {
        offer(&mut q, at(0), pkt()).unwrap();
    }
    q.ctl.drop_prob = 0.2;
    let mut gone = Vec::new();
    (0..100).for_each(|_| offer_dropping(&mut q, at(0), pkt(), &mut gone));
    assert!(!gone.is_empty());
}

#[test]
fn derandomized_drops_are_at_least_nine_arrivals_apart_at_p_one_tenth() {
    // §5.4: with p = 0.1 the accumulated probability reaches 0.85 only at the 9th arrival.
    let mut q = pie(PieParams { max_burst: SimDuration::ZERO, derandomize: true, tupdate: SimDuration::from_secs(10_000), ..params() });
    (0..10).for_each(|_| offer(&mut q, at(0), pkt()).unwrap());
    (q.ctl.drop_prob, q.ctl.qdelay_old) = (0.1, 0.1);
    let mut last = None;
    let mut drops = 0;
    for k in 0..10_000u64 {
        if offer(&mut q, at(1), pkt()).is_err() {
            if let Some(l) = last {
                assert!(k - l >= 9, "drops at arrivals {l} and {k}");
            }
            last = Some(k);
            drops += 1;
        }
    }
    // Plain PIE would drop about 1000 of them; derandomized, fewer than 1/9 of them.
    assert!(drops > 500 && drops <= 10_000 / 9, "{drops}");
}

#[test]
fn ect_packets_are_marked_below_ten_percent_and_dropped_above() {
    let mut q = pie(PieParams { max_burst: SimDuration::ZERO, ecn: true, tupdate: SimDuration::from_secs(10_000), ..params() });
    (0..10).for_each(|_| offer(&mut q, at(0), pkt()).unwrap());
    let ect = || {
        let mut p = pkt();
        p.flags.set(Flags::ECT);
        p
    };
    (q.ctl.drop_prob, q.ctl.qdelay_old) = (0.09, 0.1);
    let mut gone = Vec::new();
    (0..1000).for_each(|_| offer_dropping(&mut q, at(1), ect(), &mut gone));
    assert!(gone.is_empty() && q.marks > 50, "marks {}", q.marks);
    q.ctl.drop_prob = 0.1;
    (0..1000).for_each(|_| offer_dropping(&mut q, at(1), ect(), &mut gone));
    assert!(gone.len() > 50 && gone.iter().all(|p| !p.flags.has(Flags::CE)));
}
