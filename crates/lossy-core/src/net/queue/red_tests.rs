//! RED's rules one by one, and its drop probability against the formulas over long
//! synthetic arrival streams.

use super::*;
use crate::time::SimDuration;
use crate::units::QueueLimit;
use crate::net::queue::testing::{offer, take};

/// Packet mode, min_th 5, max_th 15, max_p 0.1, w_q 0.002, gentle, 1000-packet limit,
/// C = 1000 mean packets per second.
fn params() -> RedParams {
    RedParams {
        limit: QueueLimit::Packets(1000),
        min_th: 5.0,
        max_th: 15.0,
        max_p: 0.1,
        w_q: 0.002,
        gentle: true,
        bytes: false,
        mean: 1000.0,
        ecn: false,
        wait: false,
        mark_p: None,
        ptc: 1000.0,
        nominal_rate_bps: 8_000_000,
    }
}

fn red(p: RedParams) -> Red {
    Red::new(p, RngStream::new(1, 0, "test:red"))
}

fn pkt(size: u16) -> Packet {
    Packet::udp(0, 0, 1, 0, size as u32, size)
}

fn ect(size: u16) -> Packet {
    let mut p = pkt(size);
    p.flags.set(Flags::ECT);
    p
}

fn at(ms: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(ms)
}

/// A queue holding `n` packets of `size` with the average pinned at `avg` (w_q tiny).
fn holding(mut p: RedParams, n: usize, size: u16, avg: f64) -> Red {
    p.w_q = 1e-300;
    let mut q = red(p);
    for _ in 0..n {
        q.fifo.push(pkt(size)).expect("under the limit");
    }
    q.idle = false;
    q.avg = avg;
    q.old = true;
    q
}

#[test]
fn the_average_is_an_ewma_of_the_queue_seen_by_arrivals() {
    let mut q = red(RedParams { w_q: 0.5, ..params() });
    q.idle = false;
    for _ in 0..3 {
        offer(&mut q, SimTime::ZERO, pkt(100)).unwrap();
    }
    // Queues seen: 0, 1, 2: avg = 0, 0.5, 0.5·0.5 + 0.5·2 = 1.25.
    assert_eq!(q.avg, 1.25);
}

#[test]
fn an_idle_queue_decays_as_if_m_small_packets_had_come() {
    let mut q = red(RedParams { w_q: 0.01, ..params() });
    q.idle = false;
    q.avg = 8.0;
    assert!(take(&mut q, at(100)).is_none(), "empty: idle from 100 ms");
    // 20 ms idle at C = 1000/s: m = 20, then the arrival's own update with q = 0.
    offer(&mut q, at(120), pkt(100)).unwrap();
    assert!((q.avg - 8.0 * 0.99f64.powi(21)).abs() < 1e-12, "{}", q.avg);
    // Busy again: the next arrival is one plain update.
    let before = q.avg;
    offer(&mut q, at(130), pkt(100)).unwrap();
    assert!((q.avg - (0.99 * before + 0.01 * 1.0)).abs() < 1e-12);
}

#[test]
fn idle_time_starts_when_the_last_packet_has_been_sent() {
    let mut q = red(RedParams { w_q: 0.01, ..params() });
    offer(&mut q, at(0), pkt(1000)).unwrap();
    q.avg = 8.0;
    // The last packet leaves at 10 ms; at 8 Mbps it is on the wire until 11 ms.
    assert!(take(&mut q, at(10)).is_some());
    offer(&mut q, at(11), pkt(1000)).unwrap(); // no idle time yet: one plain step
    assert!((q.avg - 8.0 * 0.99).abs() < 1e-12);
    q.avg = 8.0;
    take(&mut q, at(20));
    // Sent until 21 ms, idle until 41 ms: m = 20.
    offer(&mut q, at(41), pkt(1000)).unwrap();
    assert!((q.avg - 8.0 * 0.99f64.powi(21)).abs() < 1e-12, "{}", q.avg);
}

#[test]
fn p_b_rises_linearly_then_gently_to_one_at_twice_max_th() {
    let at_avg = |avg: f64, gentle: bool| holding(RedParams { gentle, ..params() }, 3, 100, avg).p_b();
    assert_eq!(at_avg(5.0, true), 0.0);
    assert!((at_avg(10.0, true) - 0.05).abs() < 1e-15);
    assert!((at_avg(15.0, true) - 0.1).abs() < 1e-15);
    // Gentle: max_p + (1 − max_p)(avg − max_th)/max_th.
    assert!((at_avg(22.5, true) - 0.55).abs() < 1e-15);
    assert_eq!(at_avg(30.0, true), 1.0);
    assert_eq!(at_avg(15.0, false), 1.0);
}

#[test]
fn count_spaces_drops_as_p_b_over_one_minus_count_p_b() {
    let mut q = holding(params(), 3, 100, 10.0);
    for (count, want) in [(0, 0.05), (1, 0.05 / 0.95), (10, 0.1), (19, 0.05 / 0.05), (20, 1.0)] {
        q.count = count;
        assert!((q.p_a(0.05, 100) - want).abs() < 1e-12, "count {count}");
    }
    // ns-2's wait_: nothing until count·p_b ≥ 1, then p_b / (2 − count·p_b).
    q.p.wait = true;
    q.count = 19;
    assert_eq!(q.p_a(0.05, 100), 0.0);
    q.count = 30;
    assert!((q.p_a(0.05, 100) - 0.05 / 0.5).abs() < 1e-12);
    q.count = 40;
    assert_eq!(q.p_a(0.05, 100), 1.0);
}

#[test]
fn byte_mode_scales_by_size_and_counts_bytes() {
    let p = RedParams { bytes: true, min_th: 5000.0, max_th: 15000.0, ..params() };
    let mut q = holding(p, 10, 1000, 10_000.0);
    assert!((q.p_b() - 0.05).abs() < 1e-15);
    q.count = 99; // packets do not count in byte mode: 2500 B is ⌊2.5⌋ = 2 mean packets.
    q.count_bytes = 2500;
    let p_a = 0.05 / (1.0 - 2.0 * 0.05);
    assert!((q.p_a(0.05, 1000) - p_a).abs() < 1e-12);
    assert!((q.p_a(0.05, 500) - p_a / 2.0).abs() < 1e-12);
    assert!((q.p_a(0.05, 2000) - p_a * 2.0).abs() < 1e-12);
}

#[test]
fn the_first_arrival_above_min_th_only_starts_the_count() {
    let mut q = holding(params(), 3, 100, 14.9);
    q.old = false;
    q.count = 500; // far past 1/p_b: any draw would drop
    offer(&mut q, SimTime::ZERO, pkt(100)).unwrap();
    assert_eq!((q.count, q.old), (1, true));
}

#[test]
fn ect_packets_are_marked_below_twice_max_th_and_dropped_beyond() {
    let p = RedParams { ecn: true, ..params() };
    // p_a = 1 (count past 1/p_b) in the linear and the gentle region: marked, kept.
    for avg in [10.0, 20.0] {
        let mut q = holding(p, 3, 100, avg);
        q.count = 1000;
        offer(&mut q, SimTime::ZERO, ect(100)).expect("marked, not dropped");
        assert!(q.fifo.last().unwrap().flags.has(Flags::CE));
        assert_eq!((q.marks, q.early, q.count), (1, 0, 0));
        // Not ECT: dropped early.
        q.count = 1000;
        assert!(offer(&mut q, SimTime::ZERO, pkt(100)).is_err());
        assert_eq!((q.marks, q.early), (1, 1));
    }
    // At 2·max_th every arrival is dropped, ECT or not (a forced drop).
    let mut q = holding(p, 3, 100, 30.0);
    let back = offer(&mut q, SimTime::ZERO, ect(100)).unwrap_err();
    assert!(!back.flags.has(Flags::CE));
    assert_eq!((q.marks, q.forced), (0, 1));
    // Without gentle mode the ramp ends at max_th.
    let mut q = holding(RedParams { gentle: false, ..p }, 3, 100, 15.0);
    assert!(offer(&mut q, SimTime::ZERO, ect(100)).is_err());
    assert_eq!(q.forced, 1);
    // With ecn off, ECT packets are dropped like the rest.
    let mut q = holding(params(), 3, 100, 10.0);
    q.count = 1000;
    assert!(offer(&mut q, SimTime::ZERO, ect(100)).is_err());
    assert_eq!((q.marks, q.early), (0, 1));
}

#[test]
fn a_full_queue_drops_whatever_the_average_and_never_marks() {
    let mut q = holding(RedParams { ecn: true, limit: QueueLimit::Packets(3), ..params() }, 3, 100, 0.0);
    assert!(offer(&mut q, SimTime::ZERO, ect(100)).is_err(), "below min_th but full");
    q.avg = 10.0;
    q.count = 1000; // a mark was due, but there is no room
    let back = offer(&mut q, SimTime::ZERO, ect(100)).unwrap_err();
    assert!(!back.flags.has(Flags::CE));
    assert_eq!((q.marks, q.early, q.forced, q.len()), (0, 0, 0, 3));
    let mut q = holding(RedParams { limit: QueueLimit::Bytes(250), ..params() }, 2, 100, 0.0);
    assert!(offer(&mut q, SimTime::ZERO, pkt(60)).is_err());
    assert!(offer(&mut q, SimTime::ZERO, pkt(50)).is_ok());
}

#[test]
fn nothing_is_dropped_with_one_packet_queued_as_in_ns2() {
    let mut q = holding(params(), 1, 100, 20.0);
    q.count = 1000;
    assert!(offer(&mut q, SimTime::ZERO, pkt(100)).is_ok());
}

#[test]
fn the_time_weighted_average_is_reported_in_packets() {
    let mut q = red(RedParams { w_q: 1.0, bytes: true, mean: 100.0, min_th: 500.0, max_th: 1500.0, ..params() });
    q.idle = false;
    offer(&mut q, at(0), pkt(100)).unwrap(); // avg = 0 B
    offer(&mut q, at(1000), pkt(100)).unwrap(); // avg = 100 B = 1 mean packet from 1 s
    let s = q.stats(4.0);
    assert_eq!((s.avg_packets, s.early_drops, s.marks), (Some(0.75), 0, 0));
}

#[test]
fn same_stream_same_drops() {
    let run = || {
        let mut q = holding(params(), 3, 100, 12.0);
        (0..10_000).map(|_| offer(&mut q, SimTime::ZERO, pkt(100)).is_err()).map(|d| d as u8).collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

/// The mean and variance of the number of arrivals from one drop to the next, when every
/// arrival is dropped with p_a(count) (count = 1 for the first after a drop).
fn gap_moments(q: &mut Red, p_b: f64, size: u16) -> (f64, f64) {
    let (mut survive, mut mean, mut second) = (1.0, 0.0, 0.0);
    for n in 1..100_000u64 {
        q.count = n;
        q.count_bytes = n * size as u64;
        let p = q.p_a(p_b, size);
        mean += n as f64 * survive * p;
        second += (n * n) as f64 * survive * p;
        survive *= 1.0 - p;
        if survive < 1e-15 {
            break;
        }
    }
    (mean, second - mean * mean)
}

/// Over 200,000 arrivals at a pinned average, the fraction dropped (or marked) is
/// 1 / E[gap], E[gap] computed from p_b(avg) = the paper's formula through the count
/// spacing (≈ 1 / (2 p_b) for small p_b). Tolerance: 5 standard errors of a renewal
/// count, √(n·Var[gap] / E[gap]³).
#[test]
fn measured_drop_and_mark_rates_match_the_formula() {
    let n = 200_000u64;
    let cases = [
        // (avg, ecn, byte mode, packet size)
        (6.0, false, false, 100u16),
        (10.0, false, false, 100),
        (14.0, true, false, 100),
        (20.0, false, false, 100),
        (17.0, true, false, 100),
        (27.0, true, false, 100), // p_a(1) > 1: every arrival is marked
        (10.0, false, true, 2000),
    ];
    for (avg, ecn, bytes, size) in cases {
        let unit = if bytes { 1000.0 } else { 1.0 };
        let p = RedParams { ecn, bytes, min_th: 5.0 * unit, max_th: 15.0 * unit, ..params() };
        let mut q = holding(p, 3, size, avg * unit);
        let p_b = q.p_b();
        let want_p_b = if avg < 15.0 { 0.1 * (avg - 5.0) / 10.0 } else { 0.1 + 0.9 * (avg - 15.0) / 15.0 };
        assert!((p_b - want_p_b).abs() < 1e-12, "avg {avg}: p_b {p_b}");
        let (mean, var) = gap_moments(&mut q.clone(), p_b, size);
        q.count = 0;
        q.count_bytes = 0;
        let mut hits = 0u64;
        for _ in 0..n {
            let pk = if ecn { ect(size) } else { pkt(size) };
            match offer(&mut q, SimTime::ZERO, pk) {
                Ok(()) => {
                    take(&mut q, SimTime::ZERO);
                }
                Err(_) => hits += 1,
            }
        }
        // ECT packets with ECN on are marked, never dropped; the others dropped early.
        let hits = if ecn {
            assert_eq!((hits, q.early), (0, 0), "avg {avg}");
            q.marks
        } else {
            assert_eq!((hits, q.marks), (q.early, 0), "avg {avg}");
            hits
        };
        let want = n as f64 / mean;
        let tol = 5.0 * (n as f64 * var / mean.powi(3)).sqrt();
        assert!((hits as f64 - want).abs() <= tol, "avg {avg}: {hits} hits, want {want:.0} ± {tol:.0}");
    }
}

#[test]
fn with_ns2_2002s_mark_p_ect_packets_are_marked_only_while_p_b_is_below_it() {
    // ns-2 of 2002 (queue/red.cc drop_early, mark_p_ 0.1 from April 2002): "if (setbit
    // && ect && v_prob1 < mark_p)" mark, else drop. With max_p 0.1 that is below max_th.
    let p = RedParams { ecn: true, mark_p: Some(0.1), ..params() };
    let mut q = holding(p, 3, 100, 10.0); // p_b = 0.05
    q.count = 1000;
    offer(&mut q, SimTime::ZERO, ect(100)).expect("marked below max_th");
    assert_eq!((q.marks, q.early), (1, 0));
    let mut q = holding(p, 3, 100, 20.0); // gentle region: p_b = 0.4
    q.count = 1000;
    let back = offer(&mut q, SimTime::ZERO, ect(100)).unwrap_err();
    assert!(!back.flags.has(Flags::CE));
    assert_eq!((q.marks, q.early), (0, 1), "dropped early in the gentle region");
}
