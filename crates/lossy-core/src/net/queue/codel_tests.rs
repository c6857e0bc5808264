//! CoDel against RFC 8289 §5's pseudocode: the drop times of the control law under a
//! standing queue, no drops below target or with one packet queued, the count reuse
//! rule, and ECN marks in place of drops.

use super::*;
use crate::net::queue::codel_law::control_law;
use crate::net::queue::testing::{offer, take_dropping};
use crate::packet::Flags;

const MS: u64 = 1_000_000;

fn at(ms: u64) -> SimTime {
    SimTime(ms * MS)
}

fn pkt(size: u16) -> Packet {
    Packet::udp(0, 0, 1, 0, size as u32, size)
}

fn params(ecn: bool) -> CodelParams {
    CodelParams { target: SimDuration::from_millis(5), interval: SimDuration::from_millis(100), ecn }
}

fn codel(ecn: bool) -> Codel {
    Codel::new(QueueLimit::Packets(10_000), params(ecn))
}

/// 100 packets queued at 0, then from 1 ms one arrival and one departure every ms until
/// `end_ms`: the head's sojourn stays far above target. Returns the times (ms) of the
/// drops, and the packets marked CE.
fn standing_queue(q: &mut Codel, end_ms: u64, make: impl Fn() -> Packet) -> (Vec<u64>, usize) {
    for _ in 0..100 {
        offer(q, at(0), make()).unwrap();
    }
    let (mut drops, mut marks) = (Vec::new(), 0);
    for t in 1..=end_ms {
        offer(q, at(t), make()).unwrap();
        let mut gone = Vec::new();
        let sent = take_dropping(q, at(t), &mut gone).expect("a standing queue");
        drops.extend(gone.iter().map(|_| t));
        marks += sent.flags.has(Flags::CE) as usize;
    }
    (drops, marks)
}

/// The RFC's drop schedule for that queue, worked out from §5 by hand: the sojourn
/// reaches target at 5 ms, so dropping may start an interval later, at 105 ms (count 1);
/// then drop_next = drop_next + interval/√count, each drop at the first departure (a
/// whole ms) at or after it.
fn rfc_schedule(end_ms: u64) -> Vec<u64> {
    schedule(end_ms, false)
}

/// The same, each next signal scheduled from `drop_next` (drops) or from the time of the
/// signal (marks, ns-3's `DoDequeue`).
fn schedule(end_ms: u64, from_now: bool) -> Vec<u64> {
    let mut times = vec![105];
    let (mut next, mut count) = (at(105), 1u32);
    loop {
        let base = if from_now { at(*times.last().unwrap()) } else { next };
        // The count the control law sees at this step: 1 on entering, then one more per signal.
        next = base + SimDuration((100.0 * MS as f64 / (count as f64).sqrt()).round() as u64);
        count += 1;
        let t = next.0.div_ceil(MS);
        if t > end_ms {
            return times;
        }
        times.push(t);
    }
}

#[test]
fn drops_follow_interval_over_root_count_under_a_standing_queue() {
    let mut q = codel(false);
    let (drops, marks) = standing_queue(&mut q, 1000, || pkt(1000));
    let want = rfc_schedule(1000);
    assert_eq!(&want[..5], &[105, 205, 276, 334, 384], "100 ms, then 100/√2, 100/√3, 100/√4 ms apart");
    assert_eq!(drops, want);
    assert_eq!(marks, 0);
    assert_eq!(q.stats(1.0).early_drops, want.len() as u64);
    assert_eq!(q.state().count as usize, want.len());
}

#[test]
fn nothing_is_dropped_below_target() {
    let mut q = codel(false);
    // Each packet waits 4 ms (< 5 ms), ten at a time, for 10 s.
    for t in 0..10_000u64 {
        offer(&mut q, at(t), pkt(1000)).unwrap();
        if t >= 4 {
            let mut gone = Vec::new();
            take_dropping(&mut q, at(t), &mut gone).unwrap();
            assert!(gone.is_empty(), "dropped at {t} ms");
        }
    }
    assert_eq!(q.stats(10.0).early_drops, 0);
}

#[test]
fn one_packet_left_in_the_queue_is_never_dropped_for() {
    // RFC 8289 §4.4 / §5.3: a packet waiting 200 ms is not dropped while what is left
    // behind it is at most one maximum-size packet (a slow link must not starve).
    let mut q = codel(false);
    offer(&mut q, at(0), pkt(1000)).unwrap();
    for k in 1..100u64 {
        offer(&mut q, at(200 * k), pkt(1000)).unwrap();
        let mut gone = Vec::new();
        take_dropping(&mut q, at(200 * k), &mut gone).unwrap();
        assert!(gone.is_empty());
    }
    // The same delays with a second packet behind are dropped.
    let mut q = codel(false);
    let mut dropped = 0;
    for k in 0..100u64 {
        offer(&mut q, at(200 * k), pkt(1000)).unwrap();
        offer(&mut q, at(200 * k), pkt(1000)).unwrap();
        let mut gone = Vec::new();
        if k >= 1 {
            take_dropping(&mut q, at(200 * k), &mut gone);
            take_dropping(&mut q, at(200 * k), &mut gone);
        }
        dropped += gone.len();
    }
    assert!(dropped > 0);
}

#[test]
fn re_entering_soon_starts_from_the_last_cycles_count() {
    let p = params(false);
    let mut s = CodelState::default();
    let mut fifo = TimedFifo::default();
    let mut counts = CodelCounts::default();
    // One arrival and one departure a ms over [from, to].
    let run = |s: &mut CodelState, fifo: &mut TimedFifo, from: u64, to: u64| {
        let mut counts = CodelCounts::default();
        for t in from..=to {
            fifo.push(at(t), pkt(1000));
            s.dequeue(at(t), fifo, 1000, &p, &mut |_| {}, &mut counts);
        }
    };
    // A standing queue from 0 to 400 ms: drops at 105, 205, 276, 334, 384 (count 5,
    // lastcount 1 from entering at 105).
    (0..100).for_each(|_| fifo.push(at(0), pkt(1000)));
    run(&mut s, &mut fifo, 1, 400);
    assert_eq!((s.count, s.dropping), (5, true));
    // drop_next: 105 + 100 + 100/√2 + 100/√3 + 100/√4 + 100/√5 ms ≈ 428.17 ms.
    let mut want = at(205);
    (2..=5).for_each(|c| want = control_law(want, p.interval, c));
    assert_eq!(s.drop_next, want);
    assert!(at(428) < want && want < at(429));
    // The queue drains: below target, leave the dropping state.
    fifo.drain(&mut |_| {});
    fifo.push(at(401), pkt(1000));
    fifo.push(at(401), pkt(1000));
    s.dequeue(at(402), &mut fifo, 1000, &p, &mut |_| {}, &mut counts);
    assert!(!s.dropping);
    // It builds again at 410 ms: above target from 415, dropping at 515 ms, 86 ms after
    // drop_next (< 16 intervals): count = count − lastcount = 4, and the next drop is
    // interval/√4 later.
    fifo.drain(&mut |_| {});
    (0..100).for_each(|_| fifo.push(at(410), pkt(1000)));
    run(&mut s, &mut fifo, 411, 515);
    assert_eq!((s.count, s.dropping), (4, true));
    assert_eq!(s.drop_next, at(565));
    // After more than 16 intervals the count starts again at 1.
    let mut late = s.clone();
    late.dropping = false;
    late.count = 9;
    let mut fifo2 = TimedFifo::default();
    (0..100).for_each(|_| fifo2.push(at(5000), pkt(1000)));
    run(&mut late, &mut fifo2, 5001, 5105);
    assert_eq!((late.count, late.dropping, late.drop_next), (1, true, at(5205)));
}

#[test]
fn ecn_capable_packets_are_marked_on_the_same_schedule() {
    let mut q = codel(true);
    let ect = || {
        let mut p = pkt(1000);
        p.flags.set(Flags::ECT);
        p
    };
    let (drops, marks) = standing_queue(&mut q, 1000, ect);
    assert!(drops.is_empty());
    // A mark instead of each drop, each next one interval/√count after the mark.
    let want = schedule(1000, true);
    assert_eq!(&want[..4], &[105, 205, 276, 334]);
    assert_eq!(marks, want.len());
    assert_eq!(q.stats(1.0).marks, marks as u64);
    // Not ECN-capable: dropped even with ecn on.
    let mut q = codel(true);
    let (drops, marks) = standing_queue(&mut q, 1000, || pkt(1000));
    assert_eq!((drops.len(), marks), (rfc_schedule(1000).len(), 0));
}

#[test]
fn bad_target_and_interval_name_the_field() {
    let de = |j: &str| serde_json::from_str::<CodelConfig>(j).unwrap();
    assert_eq!(de("{}"), CodelConfig::default());
    let msg = |j: &str| de(j).validate().unwrap_err();
    assert!(msg(r#"{"target": "0 ms"}"#).starts_with("target: 0 s is not allowed; use a duration > 0"));
    assert_eq!(msg(r#"{"target": "10 ms", "interval": "5 ms"}"#), "interval: 5 ms is not allowed; use a duration at least target (10 ms), e.g. \"100 ms\" (RFC 8289 §4.3)");
}
