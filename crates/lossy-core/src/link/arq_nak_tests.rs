//! Unit tests of the delayed-NAK ARQ link layer (`arq_nak.rs`), driven as the segment
//! drives it, on trace channels that lose chosen transmissions.

use super::*;
use crate::channel::{Ber, BerConfig, Channel, NoLoss, LossTrace, LossTraceConfig};
use crate::link::arq::InstantArq;
use crate::capacity::ConstantRate;
use crate::coding::frame::Coding;
use crate::time::{serialization_delay, SimDuration};

const RATE: u64 = 1_500_000; // Chockalingam's link, bit/s

/// Air time of a 32-byte link packet at RATE (its end is k·A after a run of k).
const A: SimDuration = SimDuration(170_667);

fn at(k: u64) -> SimTime {
    SimTime(k * A.0)
}

/// A packet of `size` bytes (32-byte link packets: `size / 32` of them).
fn packet(uid: u64, size: u16) -> Packet {
    let mut p = Packet::udp(0, 0, 1, 0, size as u32, size);
    p.uid = uid;
    p
}

/// NAKs `forward + back` after a link packet ends, back in one air time each way plus
/// `extra`, repeated after `timeout` when lost with probability `loss`.
fn timing(round_trip: SimDuration, loss: f64) -> NakTiming {
    NakTiming { forward: SimDuration(round_trip.0 / 2), back: SimDuration(round_trip.0 - round_trip.0 / 2), timeout: SimDuration::from_millis(3), loss }
}

fn link(attempts: u32, t: NakTiming, delivery: Delivery) -> ArqNak {
    ArqNak::new(Framing::new(ConstantRate::new(RATE), 32, 0, attempts, Coding::None), t, delivery, RngStream::new(1, 0, "nak"))
}

fn losing(transmissions: &[u64]) -> Channel {
    Channel::from(LossTrace::new(&LossTraceConfig { packets: transmissions.to_vec(), times: vec![], file: None }))
}

/// What a run did: each transmission's start, and each fate with the time the link
/// handed it out.
#[derive(Debug, Default)]
struct Log {
    starts: Vec<SimTime>,
    outcomes: Vec<(SimTime, LinkOutcome)>,
    end: SimTime,
}

/// Drives `l` as the point-to-point segment does, with `packets` queued at time 0:
/// a packet is taken whenever the link is ready, and the link is woken at each key it
/// asks for. `on_air` reads the transmission on the air, to log starts.
fn drive<L: LinkLayer>(l: &mut L, mut channel: Channel, packets: &[Packet], on_air: fn(&L) -> Option<Key>) -> Log {
    let mut tickets = Tickets::default();
    let mut rng = RngStream::new(1, 0, "channel");
    let mut ctx = LinkCtx { channel: &mut channel, rng: &mut rng, tickets: &mut tickets };
    let mut queue: VecDeque<Packet> = packets.iter().copied().collect();
    let mut log = Log::default();
    let (mut now, mut last) = (SimTime::ZERO, None);
    loop {
        let before = on_air(l);
        let outcome = if l.ready(now) && !queue.is_empty() {
            l.begin(now, queue.pop_front().unwrap(), &mut ctx)
        } else if let Some(key) = l.next_wake(!queue.is_empty()) {
            assert!(last < Some(key), "a key that has passed");
            (now, last) = (key.time, Some(key));
            l.on_wake(now, key, &mut ctx)
        } else {
            break;
        };
        if on_air(l) != before && on_air(l).is_some() {
            log.starts.push(now);
        }
        log.outcomes.extend(outcome.map(|o| (now, o)));
    }
    log.end = now;
    assert_eq!(l.held(), 0, "every packet begun was handed out");
    log
}

fn run(l: &mut ArqNak, channel: Channel, packets: &[Packet]) -> Log {
    drive(l, channel, packets, |l| l.on_air)
}

/// The first transmission end (k·A) at or after `t`: when a NAK arriving at `t` is
/// served while the link sends back to back.
fn slot_at_or_after(t: SimTime) -> u64 {
    t.0.div_ceil(A.0)
}

#[test]
fn a_nak_brings_the_link_packet_back_a_round_trip_later_and_new_ones_fill_the_gap() {
    assert_eq!(serialization_delay(256, RATE), A);
    let rtt = SimDuration::from_millis(1);
    let mut l = link(16, timing(rtt, 0.0), Delivery::InOrder);
    // Link packet 0 of a 1024-byte packet (32 link packets) fails once.
    let log = run(&mut l, losing(&[0]), &[packet(1, 1024)]);
    // The NAK is back at A + rtt; the link packet goes at the first slot after, and the
    // sender never idles: 33 transmissions back to back.
    let k = slot_at_or_after(at(1) + rtt);
    assert_eq!(log.starts, (0..33).map(at).collect::<Vec<_>>());
    assert_eq!(l.counters(), LinkLayerCounters { transmissions: 33, overhead_bytes: 32, naks_sent: 1, naks_lost: 0, code_changes: 0 });
    assert!(k > 1 && k < 32, "the retransmission is among the new link packets: {k}");
    assert_eq!(log.outcomes, vec![(at(32), LinkOutcome::Delivered(packet(1, 1024), at(33)))]);
}

#[test]
fn the_retransmission_goes_no_earlier_than_the_nak_is_back_and_before_new_link_packets() {
    // Link packets 0 and 1 of a 1024-byte packet fail. With a NAK round trip of 10 slots
    // and 5 ns, link packet 0's NAK is back at 11·A + 5 ns and link packet 1's at
    // 12·A + 5 ns: each goes again at the next slot end, 12·A and 13·A, ahead of the
    // new link packets 12, 13, … that wait.
    let rtt = SimDuration(10 * A.0 + 5);
    let mut l = link(16, timing(rtt, 0.0), Delivery::InOrder);
    let mut ch = losing(&[0, 1]);
    let mut tickets = Tickets::default();
    let mut rng = RngStream::new(1, 0, "channel");
    let mut ctx = LinkCtx { channel: &mut ch, rng: &mut rng, tickets: &mut tickets };
    l.begin(SimTime::ZERO, packet(1, 1024), &mut ctx);
    // (time, transmissions so far, new link packets sent so far) after each wake.
    let mut log = vec![];
    while log.last().is_none_or(|&(t, _, _)| t < at(13)) {
        let key = l.next_wake(false).unwrap();
        l.on_wake(key.time, key, &mut ctx);
        log.push((key.time, l.framing.counters.transmissions, l.packets[0].next_new));
    }
    let tail = &log[log.len() - 5..];
    assert_eq!(
        tail,
        [(at(11), 12, 12), (at(11) + SimDuration(5), 12, 12), (at(12), 13, 12), (at(12) + SimDuration(5), 13, 12), (at(13), 14, 12)]
    );
    assert_eq!(l.packets[0].rx, Rx::Missing(20), "link packets 0 and 1 are through at last");
}

#[test]
fn a_lost_nak_is_repeated_after_the_timeout() {
    let rtt = SimDuration::from_millis(1);
    // A seed whose first NAK draw loses at least one NAK at loss 0.5.
    let (seed, lost) = (1..)
        .map(|s| (s, RngStream::new(s, 0, "nak").geometric_failures(0.5)))
        .find(|&(_, k)| k >= 1)
        .unwrap();
    let t = timing(rtt, 0.5);
    let mut l = ArqNak::new(Framing::new(ConstantRate::new(RATE), 32, 0, 16, Coding::None), t, Delivery::InOrder, RngStream::new(seed, 0, "nak"));
    // One 32-byte packet: one link packet, lost once. Nothing else to send: the link
    // idles until the NAK gets through, lost·timeout later than it would have.
    let log = run(&mut l, losing(&[0]), &[packet(1, 32)]);
    let back = at(1) + rtt + t.timeout.saturating_mul(lost);
    assert_eq!(log.starts, vec![SimTime::ZERO, back]);
    assert_eq!(log.outcomes, vec![(back, LinkOutcome::Delivered(packet(1, 32), back + A))]);
    let c = l.counters();
    assert_eq!((c.naks_sent, c.naks_lost), (lost + 1, lost));
}

/// Two 96-byte packets (3 link packets each); link packet 0 of the first fails once, and
/// its NAK comes back long after the second packet is through.
fn held_behind(delivery: Delivery) -> Log {
    let rtt = SimDuration::from_millis(2);
    let mut l = link(16, timing(rtt, 0.0), delivery);
    run(&mut l, losing(&[0]), &[packet(1, 96), packet(2, 96)])
}

#[test]
fn in_order_holds_a_completed_packet_behind_an_earlier_one_and_releases_both() {
    let log = held_behind(Delivery::InOrder);
    // Slots 0–2 the first packet, 3–5 the second (through at 6·A); the link then idles
    // until the NAK is back at A + 2 ms and sends link packet 0 again.
    let again = at(1) + SimDuration::from_millis(2);
    assert_eq!(log.starts, vec![at(0), at(1), at(2), at(3), at(4), at(5), again]);
    let done = again + A;
    assert_eq!(
        log.outcomes,
        vec![(again, LinkOutcome::Delivered(packet(1, 96), done)), (again, LinkOutcome::Delivered(packet(2, 96), done))]
    );
}

#[test]
fn fates_decided_together_go_one_per_call_and_the_rest_at_once() {
    // As in the test above: at `again` both packets are through. The wake hands out
    // the first and asks for a deadline at that same moment for the second; a link
    // going down before then gives the second up.
    let mut l = link(16, timing(SimDuration::from_millis(2), 0.0), Delivery::InOrder);
    let (mut ch, mut tickets, mut rng) = (losing(&[0]), Tickets::default(), RngStream::new(1, 0, "channel"));
    let mut ctx = LinkCtx { channel: &mut ch, rng: &mut rng, tickets: &mut tickets };
    let mut queue = vec![packet(2, 96)];
    assert_eq!(l.begin(SimTime::ZERO, packet(1, 96), &mut ctx), None);
    let (now, first) = loop {
        let key = l.next_wake(!queue.is_empty()).unwrap();
        if let Some(o) = l.on_wake(key.time, key, &mut ctx) {
            break (key.time, o);
        }
        if l.ready(key.time) && !queue.is_empty() {
            assert_eq!(l.begin(key.time, queue.pop().unwrap(), &mut ctx), None);
        }
    };
    assert_eq!((now, first), (at(1) + SimDuration::from_millis(2), LinkOutcome::Delivered(packet(1, 96), now + A)));
    assert_eq!((l.held(), l.next_wake(false).unwrap().time), (1, now));
    let mut lost = vec![];
    l.drain(&mut |p| lost.push(p.uid));
    assert_eq!((lost, l.held(), l.next_wake(false)), (vec![2], 0, None));
}

#[test]
fn as_completed_hands_each_packet_on_when_it_is_through() {
    let log = held_behind(Delivery::AsCompleted);
    let again = at(1) + SimDuration::from_millis(2);
    assert_eq!(
        log.outcomes,
        vec![(at(5), LinkOutcome::Delivered(packet(2, 96), at(6))), (again, LinkOutcome::Delivered(packet(1, 96), again + A))]
    );
}

#[test]
fn out_of_attempts_loses_the_packet_and_later_ones_still_go() {
    // Two attempts; link packet 1 of a 96-byte packet fails both: transmission 1, and
    // transmission 4, once its NAK is back (a round trip of 2 slots less 5 ns). The
    // 32-byte packet after it is through at 4·A; in order it waits for the receiver to
    // give the first up, at 5·A; the third is not held.
    let rtt = SimDuration(2 * A.0 - 5);
    let lost = LinkOutcome::Lost(packet(1, 96), DropCause::LinkRetry);
    let packets = [packet(1, 96), packet(2, 32), packet(3, 32)];
    let mut l = link(2, timing(rtt, 0.0), Delivery::InOrder);
    let log = run(&mut l, losing(&[1, 4]), &packets);
    assert_eq!(slot_at_or_after(at(2) + rtt), 4);
    assert_eq!(log.starts, (0..6).map(at).collect::<Vec<_>>());
    let third = (at(5), LinkOutcome::Delivered(packet(3, 32), at(6)));
    assert_eq!(log.outcomes, vec![(at(4), lost), (at(4), LinkOutcome::Delivered(packet(2, 32), at(5))), third]);
    // The second NAK tells the sender, which has nothing of it left to send by then.
    assert_eq!((l.counters().naks_sent, l.packets.len()), (2, 0));
    // As completed, the second packet does not wait.
    let mut l = link(2, timing(rtt, 0.0), Delivery::AsCompleted);
    let log = run(&mut l, losing(&[1, 4]), &packets);
    assert_eq!(log.outcomes, vec![(at(3), LinkOutcome::Delivered(packet(2, 32), at(4))), (at(4), lost), third]);
}

#[test]
fn the_sender_stops_a_given_up_packet_when_the_nak_says_so() {
    // One attempt: link packet 0 fails and the receiver gives the packet up; the sender
    // hears so a round trip later and sends none of the packet's link packets after that,
    // then takes the next packet.
    let rtt = SimDuration(4 * A.0 + 5);
    let mut l = link(1, timing(rtt, 0.0), Delivery::InOrder);
    let log = run(&mut l, losing(&[0]), &[packet(1, 1024), packet(2, 64)]);
    let heard = slot_at_or_after(at(1) + rtt);
    assert_eq!(heard, 6);
    assert_eq!(log.starts, (0..heard + 2).map(at).collect::<Vec<_>>(), "6 of the first packet, 2 of the second");
    assert_eq!(
        log.outcomes,
        vec![(at(0), LinkOutcome::Lost(packet(1, 1024), DropCause::LinkRetry)), (at(7), LinkOutcome::Delivered(packet(2, 64), at(8)))]
    );
    assert!(l.packets.is_empty() && l.naks.is_empty());
}

#[test]
fn a_link_going_down_gives_up_what_is_in_progress() {
    let rtt = SimDuration::from_millis(2);
    let mut l = link(16, timing(rtt, 0.0), Delivery::InOrder);
    let mut ch = losing(&[0]);
    let mut tickets = Tickets::default();
    let mut rng = RngStream::new(1, 0, "channel");
    let mut ctx = LinkCtx { channel: &mut ch, rng: &mut rng, tickets: &mut tickets };
    // The first packet waits for its NAK; the second is through but held behind it.
    l.begin(SimTime::ZERO, packet(1, 96), &mut ctx);
    let mut now = SimTime::ZERO;
    while l.packets.len() < 2 || l.new_left() {
        let key = l.next_wake(true).unwrap();
        now = key.time;
        l.on_wake(now, key, &mut ctx);
        if l.ready(now) {
            l.begin(now, packet(2, 96), &mut ctx);
        }
    }
    assert_eq!(l.held(), 2);
    let mut lost = vec![];
    l.drain(&mut |p| lost.push(p.uid));
    assert_eq!((lost, l.held()), (vec![1, 2], 0));
    assert_eq!(l.next_wake(true), None);
    assert!(l.ready(now));
    // Up again, it starts afresh.
    assert_eq!(l.begin(now, packet(3, 32), &mut ctx), Some(LinkOutcome::Delivered(packet(3, 32), now + A)));
}

#[test]
fn instant_error_free_naks_give_the_papers_link_exactly() {
    // NAKs back as the link packet ends, never lost: the same transmissions, fates and
    // times as `arq.rs`, on a channel with random bit errors (BER 1e-3: a 32-byte link
    // packet fails with probability 0.23, so some packets run out of 4 attempts).
    let packets: Vec<Packet> = (0..200).map(|i| packet(i, 1040 - (i % 7) as u16 * 100)).collect();
    let ber = || Channel::Ber(Ber::new(&BerConfig { ber: 1e-3 }));
    let framing = || Framing::new(ConstantRate::new(RATE), 32, 0, 4, Coding::None);
    let mut instant = InstantArq::new(framing());
    let want = drive(&mut instant, ber(), &packets, |_| None);
    let zero = NakTiming { forward: SimDuration::ZERO, back: SimDuration::ZERO, timeout: SimDuration::from_millis(1), loss: 0.0 };
    for delivery in [Delivery::InOrder, Delivery::AsCompleted] {
        let mut delayed = ArqNak::new(framing(), zero, delivery, RngStream::new(1, 0, "nak"));
        let got = run(&mut delayed, ber(), &packets);
        let fates = |log: &Log| log.outcomes.iter().map(|o| o.1).collect::<Vec<_>>();
        assert_eq!(fates(&got), fates(&want));
        assert_eq!(delayed.counters(), instant.counters());
        assert!(fates(&got).iter().any(|o| matches!(o, LinkOutcome::Lost(..))));
    }
    // And a clean channel needs no NAK at all.
    let mut l = link(16, timing(SimDuration::from_millis(1), 0.5), Delivery::InOrder);
    run(&mut l, Channel::None(NoLoss), &packets[..3]);
    assert_eq!(l.counters().naks_sent, 0);
}

/// Over a Mahimahi trace (opportunities at 1 and 2 ms, played once), as the instant ARQ
/// (`arq_tests.rs`): a packet queued at 0 stays queued until the first opportunity, and
/// the link takes nothing new before it; then its link packets go at the opportunities.
#[test]
fn over_a_trace_the_link_waits_for_the_first_opportunity() {
    let runs = crate::capacity::mahimahi_trace::Opportunities::from_runs(vec![(1, 1), (2, 1)]).unwrap();
    let trace = crate::capacity::MahimahiTrace::new(std::sync::Arc::new(runs), true);
    let mut l = ArqNak::new(Framing::new(trace, 500, 0, 4, Coding::None), timing(SimDuration::from_millis(4), 0.0),
                            Delivery::InOrder, RngStream::new(1, 0, "nak"));
    let mut tickets = Tickets::default();
    assert!(l.ready(SimTime::ZERO));
    assert!(l.holds(SimTime::ZERO, SimTime::ZERO, &mut tickets));
    assert!(!l.ready(SimTime(999_999)), "nothing new before the opportunity");
    let wake = l.next_wake(true).unwrap();
    assert_eq!(wake.time, SimTime(1_000_000));
    let mut channel = Channel::from(NoLoss);
    let mut rng = RngStream::new(1, 0, "channel");
    let mut ctx = LinkCtx { channel: &mut channel, rng: &mut rng, tickets: &mut tickets };
    assert_eq!(l.on_wake(wake.time, wake, &mut ctx), None);
    assert!(l.ready(wake.time));
    // Queued before the opportunity: served by it, not held again.
    assert!(!l.holds(wake.time, SimTime::ZERO, ctx.tickets));
    // 1000 B in two link packets of 500 B: both fit the 1504 bytes at 1 ms.
    let mut outcome = l.begin(wake.time, packet(1, 1000), &mut ctx);
    while outcome.is_none() {
        let k = l.next_wake(false).expect("the packet's fate comes");
        outcome = l.on_wake(k.time, k, &mut ctx);
    }
    assert!(matches!(outcome, Some(LinkOutcome::Delivered(p, SimTime(1_000_000))) if p.uid == 1), "{outcome:?}");
    let mut constant = link(4, timing(SimDuration::from_millis(1), 0.0), Delivery::InOrder);
    assert!(!constant.holds(SimTime::ZERO, SimTime::ZERO, &mut Tickets::default()), "a constant rate never holds");
    assert!(!constant.serves_due_before_arrivals() && l.serves_due_before_arrivals());
}
