//! Scripted sends and ACKs with known times against draft-cheng-iccrg-delivery-rate-
//! estimation-02 §3's arithmetic: rs.delivered = C.delivered − P.delivered, rs.interval =
//! max(P.sent_time − P.first_sent_time, C.delivered_time − P.delivered_time).

use super::*;

const MSS: u64 = 1000;

fn ms(n: u64) -> SimTime {
    SimTime(n * 1_000_000)
}

fn dur(n: u64) -> SimDuration {
    SimDuration::from_millis(n)
}

/// Segment `k` (0-based) of MSS bytes leaves at `at`, with `una` acknowledged so far.
fn send(d: &mut DeliveryRate, at: SimTime, k: u64, una: u64) {
    d.on_send(at, SendInfo { seq: k * MSS, len: MSS, flight: (k + 1) * MSS - una });
}

#[test]
fn a_stamp_is_64_bytes() {
    assert_eq!(DeliveryRate::stamp_bytes(), 64);
}

#[test]
fn the_first_flight_is_sampled_over_its_ack_phase() {
    let mut d = DeliveryRate::default();
    for k in 0..4 {
        send(&mut d, ms(0), k, 0);
    }
    // §3.2: sent with nothing in flight, so P.delivered_time = P.first_sent_time = 0.
    let rs = d.on_ack(ms(100), 1000, &[]);
    assert_eq!((rs.delivered, rs.prior_delivered, rs.newly_acked), (1000, 0, 1000));
    assert_eq!(rs.interval, dur(100));
    assert_eq!(rs.delivery_rate, 1000.0 / 0.1);
    assert_eq!(rs.rtt, Some(dur(100)));
    assert_eq!(rs.tx_in_flight, 1000);
    let rs = d.on_ack(ms(110), 2000, &[]);
    assert_eq!((rs.delivered, rs.interval), (2000, dur(110)));
    assert!((rs.delivery_rate - 2000.0 / 0.11).abs() < 1e-6);
    // The fourth segment went out with four in flight.
    let rs = d.on_ack(ms(130), 4000, &[]);
    assert_eq!((rs.delivered, rs.tx_in_flight, rs.newly_acked), (4000, 4000, 2000));
}

#[test]
fn the_interval_is_the_longer_phase_the_send_phase_under_ack_compression() {
    let mut d = DeliveryRate::default();
    send(&mut d, ms(0), 0, 0);
    send(&mut d, ms(0), 1, 0);
    // Segment 0 delivered at 100: C.delivered_time = 100, C.first_sent_time = 0.
    let rs = d.on_ack(ms(100), 1000, &[]);
    assert_eq!(rs.interval, dur(100));
    // Segment 2 leaves at 190 (segment 1 still out: no restart of the interval).
    send(&mut d, ms(190), 2, 1000);
    // One compressed ACK for 1 and 2 at 200: newest is 2; send phase 190 − 0 = 190 ms,
    // ACK phase 200 − 100 = 100 ms; the longer one.
    let rs = d.on_ack(ms(200), 3000, &[]);
    assert_eq!((rs.prior_delivered, rs.delivered), (1000, 2000));
    assert_eq!(rs.interval, dur(190));
    assert!((rs.delivery_rate - 2000.0 / 0.19).abs() < 1e-6);
    assert_eq!(rs.rtt, Some(dur(10)));
}

#[test]
fn an_interval_below_min_rtt_is_no_sample() {
    let mut d = DeliveryRate::default();
    send(&mut d, ms(0), 0, 0);
    assert_eq!(d.on_ack(ms(100), 1000, &[]).interval, dur(100)); // min_rtt 100 ms
    send(&mut d, ms(100), 1, 1000);
    // Resent at 150 (a spurious timeout), then the original's ACK at 160: the resend's
    // stamp gives 50 ms of send phase and 60 ms of ACK phase, under min_rtt.
    send(&mut d, ms(150), 1, 1000);
    let rs = d.on_ack(ms(160), 2000, &[]);
    assert_eq!((rs.newly_acked, rs.delivered), (1000, 1000));
    assert_eq!((rs.interval, rs.delivery_rate), (SimDuration::ZERO, 0.0));
    assert_eq!(rs.rtt, None, "Karn: no RTT from a resent segment");
}

#[test]
fn sacked_segments_are_delivered_once() {
    let mut d = DeliveryRate::default();
    for k in 0..4 {
        send(&mut d, ms(0), k, 0);
    }
    // Segment 0 lost; the ACK SACKs 1 and 2: newest of the two is 2 (same send time,
    // higher end).
    let rs = d.on_ack(ms(100), 0, &[(1000, 3000)]);
    assert_eq!((rs.newly_acked, rs.delivered), (2000, 2000));
    assert_eq!(rs.tx_in_flight, 3000);
    assert_eq!(d.inflight(4000), 2000, "SACKed bytes leave the flight");
    // A repeated block delivers nothing new.
    assert_eq!(d.on_ack(ms(105), 0, &[(1000, 3000)]).newly_acked, 0);
    // The cumulative ACK delivers 0 and 3 only.
    let rs = d.on_ack(ms(110), 4000, &[]);
    assert_eq!(rs.newly_acked, 2000);
    assert_eq!(d.delivered, 4000);
    assert_eq!(d.inflight(0), 0);
}

#[test]
fn a_resent_segment_is_sampled_from_its_new_stamp_and_its_loss_counted() {
    let mut d = DeliveryRate::default();
    for k in 0..3 {
        send(&mut d, ms(0), k, 0);
    }
    // The recovery deems segment 0 lost on the ACK that SACKs 1 and 2.
    d.mark_lost_at(0);
    let rs = d.on_ack(ms(100), 0, &[(1000, 3000)]);
    assert_eq!((rs.newly_lost, rs.lost), (1000, 1000));
    // Resent at 100: stamped with C.delivered = 2000, C.delivered_time = 100 and
    // C.first_sent_time = 0 (the newest delivered segment's send time).
    send(&mut d, ms(100), 0, 0);
    let rs = d.on_ack(ms(200), 3000, &[]);
    assert_eq!((rs.prior_delivered, rs.delivered, rs.newly_acked), (2000, 1000, 1000));
    // max(100 − 0, 200 − 100).
    assert_eq!(rs.interval, dur(100));
    assert_eq!(rs.rtt, None);
    // Lost before the resend, so nothing lost between its send and this ACK.
    assert_eq!((rs.lost, rs.newly_lost), (0, 0));
}

#[test]
fn a_timeouts_losses_count_in_rs_lost_not_newly_lost() {
    let mut d = DeliveryRate::default();
    for k in 0..3 {
        send(&mut d, ms(0), k, 0);
    }
    d.on_timeout(3000);
    assert_eq!(d.lost, 3000);
    // The go-back-N resend of 0 is not counted again.
    send(&mut d, ms(300), 0, 0);
    assert_eq!(d.lost, 3000);
    let rs = d.on_ack(ms(400), 1000, &[]);
    assert_eq!((rs.newly_lost, rs.lost), (0, 0));
    // Segment 1's original stamp predates the timeout: 3000 lost since it was sent.
    let rs = d.on_ack(ms(410), 2000, &[]);
    assert_eq!(rs.lost, 3000);
}

#[test]
fn packets_in_flight_leave_out_the_sacked_and_the_marked_lost_until_resent() {
    let mut d = DeliveryRate::new(true);
    for k in 0..10 {
        send(&mut d, ms(0), k, 0);
    }
    assert_eq!(d.packets_in_flight(10_000), 10_000);
    d.on_ack(ms(100), 0, &[(5000, 7000)]);
    assert_eq!(d.packets_in_flight(10_000), 8000, "SACKed: out of the network");
    // A timeout marks the other eight lost (Linux tcp_timeout_mark_lost): none left.
    d.on_timeout(10_000);
    assert_eq!(d.packets_in_flight(10_000), 0);
    // The go-back-N resends of 0 and 1 are in the network again.
    send(&mut d, ms(300), 0, 0);
    send(&mut d, ms(300), 1, 0);
    assert_eq!(d.packets_in_flight(10_000), 2000);
    // Segment 8, marked lost, is SACKed after all: counted once, as SACKed.
    d.on_ack(ms(310), 0, &[(8000, 9000)]);
    assert_eq!(d.packets_in_flight(10_000), 2000);
    // The resends are acknowledged: 2-4, 7 and 9 are still marked lost, 5, 6, 8 SACKed.
    d.on_ack(ms(400), 2000, &[]);
    assert_eq!(d.packets_in_flight(8000), 0);
    // A recovery's mark, then its resend (mark_lost_at, as the sender's retransmit).
    d.mark_lost_at(9000);
    send(&mut d, ms(410), 2, 2000);
    assert_eq!(d.packets_in_flight(8000), 1000);
    d.on_ack(ms(500), 10_000, &[]);
    assert_eq!((d.packets_in_flight(0), d.lost_out, d.sacked), (0, 0, 0));
}

#[test]
fn sack_loss_marks_count_each_segment_once() {
    let mut d = DeliveryRate::default();
    for k in 0..5 {
        send(&mut d, ms(0), k, 0);
    }
    d.mark_lost_below(2000);
    d.mark_lost_below(2000);
    let rs = d.on_ack(ms(100), 0, &[(2000, 5000)]);
    assert_eq!(rs.newly_lost, 2000);
    d.mark_lost_below(5000); // the rest is delivered: nothing more
    assert_eq!(d.on_ack(ms(101), 0, &[(2000, 5000)]).newly_lost, 0);
}

#[test]
fn app_limited_marks_the_segments_sent_until_the_bubble_is_delivered() {
    let mut d = DeliveryRate::default();
    send(&mut d, ms(0), 0, 0);
    send(&mut d, ms(0), 1, 0);
    // §3.4: the app has nothing more; C.app_limited = C.delivered + inflight = 2000.
    d.check_app_limited(true, true, 2000);
    assert_eq!(d.app_limited, 2000);
    send(&mut d, ms(10), 2, 0); // written later, sent into the bubble
    assert!(!d.on_ack(ms(100), 1000, &[]).is_app_limited);
    assert!(!d.on_ack(ms(101), 2000, &[]).is_app_limited);
    // C.delivered = 2000 is not past 2000 yet when segment 3 goes: still marked.
    send(&mut d, ms(101), 3, 2000);
    assert!(d.on_ack(ms(110), 3000, &[]).is_app_limited);
    // Past the bubble: cleared, and later sends are not marked.
    assert_eq!(d.app_limited, 0);
    send(&mut d, ms(110), 4, 3000);
    assert!(!d.on_ack(ms(210), 5000, &[]).is_app_limited);
    // cwnd-limited or with a resend due: not application-limited.
    d.check_app_limited(false, true, 0);
    d.check_app_limited(true, false, 0);
    assert_eq!(d.app_limited, 0);
}

/// Without SACK, NewReno's recovery of two holes: segments 1..=20 leave 1 ms apart, 1 and
/// 11 are lost, the other 18 arrive and each brings a duplicate ACK; 1 is resent on the
/// third, 11 on the partial ACK. Between 11's resend (304 ms) and its ACK (404 ms) the
/// receiver got one segment, 11 itself: 1000 B over 100 ms. Counting the 9 segments
/// the partial ACK's successor jumps over (held since 212-220 ms) as delivered at 404 ms
/// made it 10,000 B over 100 ms; Linux counts each duplicate ACK as one delivered
/// segment at its arrival (tcp_add_reno_sack) and a cumulative ACK only for what those
/// did not count (tcp_remove_reno_sacks).
#[test]
fn without_sack_duplicate_acks_deliver_so_a_partial_ack_counts_no_byte_twice() {
    let mut d = DeliveryRate::new(false);
    send(&mut d, ms(0), 0, 0);
    d.on_ack(ms(100), 1000, &[]); // min_rtt 100 ms
    for k in 1..=20 {
        send(&mut d, ms(99 + k), k, 1000);
    }
    let flight = 20 * MSS;
    for k in (2..=10).chain(12..=20) {
        d.on_dupack(ms(200 + k), MSS, flight);
        if k == 4 {
            send(&mut d, ms(204), 1, 1000); // fast retransmit on the third
        }
    }
    let rs = d.on_ack(ms(304), 11 * MSS, &[]);
    assert_eq!(rs.newly_acked, 10 * MSS);
    send(&mut d, ms(304), 11, 11 * MSS);
    let rs = d.on_ack(ms(404), 21 * MSS, &[]);
    assert_eq!(rs.newly_acked, 10 * MSS, "the ACK still acknowledges 10 segments");
    assert_eq!((rs.prior_delivered, rs.delivered), (20 * MSS, MSS), "each of the 21 segments counted once");
    assert_eq!(rs.interval, dur(100));
    assert_eq!(rs.delivery_rate, 1000.0 / 0.1);
}

#[test]
fn with_sack_a_duplicate_ack_delivers_nothing_by_itself() {
    let mut d = DeliveryRate::new(true);
    send(&mut d, ms(0), 0, 0);
    send(&mut d, ms(0), 1, 0);
    d.on_dupack(ms(50), MSS, 2 * MSS);
    let rs = d.on_ack(ms(100), 2 * MSS, &[]);
    assert_eq!((rs.prior_delivered, rs.delivered), (0, 2 * MSS));
}

#[test]
fn duplicate_acks_never_count_more_than_the_flight_less_the_hole() {
    let mut d = DeliveryRate::new(false);
    for k in 0..3 {
        send(&mut d, ms(0), k, 0);
    }
    for t in 1..=5 {
        d.on_dupack(ms(t), MSS, 3 * MSS); // go-back-N resends of held data repeat them
    }
    let rs = d.on_ack(ms(100), 3 * MSS, &[]);
    assert_eq!((rs.prior_delivered, rs.delivered, rs.newly_acked), (0, 3 * MSS, 3 * MSS));
}
