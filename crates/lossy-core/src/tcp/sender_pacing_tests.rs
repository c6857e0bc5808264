//! The sender with a test-only congestion control that asks for pacing and records the
//! rate samples it gets: departures spaced by size/rate, one wake-up per paced departure,
//! the window and the retransmission timer as without pacing.

use super::*;
use crate::endpoint::{Endpoint, TraceEvent};
use crate::packet::Header;
use crate::units::Bytes;
use std::cell::RefCell;
use std::rc::Rc;

/// What the test control saw: cwnd when each sample came, and the sample.
type Log = Rc<RefCell<Vec<(u64, RateSample)>>>;

/// Paces at a fixed rate (or not at all) and logs its rate samples; the window stays the
/// listed rule's (Reno's).
struct FixedRate {
    rate: Option<f64>,
    log: Log,
}

impl CongestionControl for FixedRate {
    fn on_ack(&mut self, _: &mut SenderState, _: SimTime, _: u64, _: Option<SimDuration>) {}
    fn on_congestion(&mut self, st: &mut SenderState, _: Signal) -> u64 {
        st.cwnd
    }
    fn on_timeout(&mut self, _: &mut SenderState, _: bool) {}
    fn pacing_rate(&self, _: &SenderState, _: Option<SimDuration>) -> Option<f64> {
        self.rate
    }
    fn on_rate_sample(&mut self, st: &mut SenderState, _: SimTime, rs: &RateSample) {
        self.log.borrow_mut().push((st.cwnd, *rs));
    }
    fn reads_rate_samples(&self) -> bool {
        true
    }
}

fn paced(rate: Option<f64>, app_limit: Option<u64>) -> (TcpSender, Log) {
    let cfg = TcpConfig { initial_window: Some(4), max_window: Bytes(1 << 20), ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, app_limit);
    let log = Log::default();
    s.model.test_cc = Some(Box::new(FixedRate { rate, log: log.clone() }));
    s.start(SimTime::ZERO);
    (s, log)
}

fn seq(p: &Packet) -> u64 {
    match p.header {
        Header::TcpData(d) => d.seq,
        _ => panic!("not data"),
    }
}

fn drain(s: &mut TcpSender, now: SimTime) -> Vec<(SimTime, u64)> {
    std::iter::from_fn(|| s.poll_transmit(now)).map(|p| (now, seq(&p))).collect()
}

/// The world's part: wake the sender at its deadline while it is before `until`, and
/// drain what it sends. Returns the wake-ups and the departures.
fn run(s: &mut TcpSender, until: SimTime) -> (usize, Vec<(SimTime, u64)>) {
    let (mut wakes, mut sent) = (0, vec![]);
    while let Some(t) = s.next_timeout().filter(|&t| t < until) {
        s.handle_timeout(t);
        wakes += 1;
        sent.extend(drain(s, t));
    }
    (wakes, sent)
}

fn ms(n: u64) -> SimTime {
    SimTime(n * 1_000_000)
}

fn ack(n: u64) -> Packet {
    Packet::tcp_ack(0, 1, 0, n, 1 << 20, 40)
}

#[test]
fn a_paced_sender_spaces_segments_by_size_over_rate_one_wake_up_each() {
    // 1000 B at 1 MB/s: one segment per millisecond.
    let (mut s, _) = paced(Some(1e6), None);
    let mut sent = drain(&mut s, ms(0));
    assert_eq!(sent, [(ms(0), 0)], "the second segment waits for its time");
    assert_eq!(s.next_timeout(), Some(ms(1)));
    let (wakes, more) = run(&mut s, ms(500));
    sent.extend(more);
    assert_eq!(sent, [(ms(0), 0), (ms(1), 1000), (ms(2), 2000), (ms(3), 3000)]);
    // Every wake-up let one segment out: no event beyond the departures.
    assert_eq!(wakes, 3);
    // cwnd (4 segments) still limits: nothing waits, the timer is the RTO again, armed
    // at the first departure (RFC 6298 §5.1) as without pacing.
    assert!(!s.model.pacer.holding());
    assert_eq!(s.next_timeout(), Some(ms(1000)));
    assert_eq!(s.st.counters.timeouts, 0);
}

#[test]
fn ack_clocked_sends_keep_the_spacing() {
    let (mut s, _) = paced(Some(1e6), None);
    drain(&mut s, ms(0));
    run(&mut s, ms(100));
    // Two ACKs at 100 ms open the window by four segments (slow start) plus two freed.
    s.handle_packet(ms(100), &ack(1000));
    s.handle_packet(ms(100), &ack(2000));
    let mut sent = drain(&mut s, ms(100));
    let (wakes, more) = run(&mut s, ms(500));
    sent.extend(more);
    let times: Vec<_> = sent.iter().map(|&(t, _)| t).collect();
    assert_eq!(times, [ms(100), ms(101), ms(102), ms(103)]);
    assert_eq!(wakes, 3);
}

#[test]
fn the_pacing_wake_up_does_not_disturb_the_retransmission_timer() {
    let (mut s, _) = paced(Some(1e6), None);
    drain(&mut s, ms(0));
    run(&mut s, ms(999));
    // No ACK: the RTO fires at 1 s as it would unpaced, and the resend goes out then.
    let (wakes, sent) = run(&mut s, ms(1001));
    assert_eq!(wakes, 1);
    assert_eq!(s.st.counters.timeouts, 1);
    assert_eq!(sent, [(ms(1000), 0)]);
    assert_eq!(s.next_timeout(), Some(ms(3000)), "backed-off RTO: 2 s from the timeout");
}

#[test]
fn no_pacing_rate_sends_the_window_at_once() {
    let (mut s, _) = paced(None, None);
    assert_eq!(drain(&mut s, ms(0)).len(), 4);
    assert_eq!(s.next_timeout(), Some(ms(1000)));
}

#[test]
fn every_ack_of_new_data_brings_a_rate_sample_after_the_window_grew() {
    let (mut s, log) = paced(None, None);
    drain(&mut s, ms(0));
    s.handle_packet(ms(100), &ack(1000));
    // A duplicate ACK delivers nothing new: no sample.
    s.handle_packet(ms(101), &ack(1000));
    s.handle_packet(ms(110), &ack(3000));
    let log = log.borrow();
    assert_eq!(log.len(), 2);
    let (cwnd, rs) = log[0];
    // Reno's slow start grew cwnd on this ACK before the sample came.
    assert_eq!(cwnd, 5000);
    assert_eq!((rs.delivered, rs.newly_acked, rs.interval), (1000, 1000, SimDuration::from_millis(100)));
    assert_eq!(rs.rtt, Some(SimDuration::from_millis(100)));
    let (_, rs) = log[1];
    assert_eq!((rs.delivered, rs.newly_acked, rs.prior_delivered), (3000, 2000, 0));
    assert_eq!(rs.interval, SimDuration::from_millis(110));
}

#[test]
fn a_finite_app_that_sent_everything_is_application_limited_a_bulk_one_never() {
    let (mut s, _) = paced(None, Some(3000));
    drain(&mut s, ms(0));
    assert!(s.model.rate.app_limited(), "all three segments out, window not full");
    let (mut s, _) = paced(None, None);
    drain(&mut s, ms(0));
    assert!(!s.model.rate.app_limited());
}

#[test]
fn a_window_rule_that_reads_no_samples_gets_no_stamps() {
    // Reno, the listed rule, without the test control: nothing stamped at the sends, the
    // ACK, the finite application's end or the timeout.
    let cfg = TcpConfig { initial_window: Some(4), max_window: Bytes(1 << 20), ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, Some(6000));
    s.start(SimTime::ZERO);
    assert!(!s.reads_rate_samples());
    assert_eq!(drain(&mut s, ms(0)).len(), 4);
    s.handle_packet(ms(100), &ack(1000));
    drain(&mut s, ms(100));
    s.on_rto(ms(5000));
    assert_eq!(format!("{:?}", s.model.rate), format!("{:?}", DeliveryRate::new(cfg.sack_on())));
    // The test control reads them: the same sends are stamped.
    let (mut s, _) = paced(None, None);
    drain(&mut s, ms(0));
    assert_ne!(format!("{:?}", s.model.rate), format!("{:?}", DeliveryRate::default()));
}

#[test]
fn the_pacing_trace_event_carries_the_rate_bbr_returned_at_each_decision() {
    // BBR paces from its start (Linux bbr_init_pacing_rate_from_rtt); every segment
    // decided reports the rate the control returned then.
    let cfg = TcpConfig {
        initial_window: Some(4),
        max_window: Bytes(1 << 20),
        cc: serde_json::from_value(serde_json::json!("bbr")).unwrap(),
        ..Default::default()
    };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
    s.enable_events();
    s.start(SimTime::ZERO);
    let mut rates = vec![];
    for round in 0..6u64 {
        let now = ms(10 * round);
        if round > 0 {
            s.handle_packet(now, &ack(1000 * round));
        }
        // No ACK until the next round: the rate asked for holds through this one.
        let rate = s.pacing_rate().expect("BBR always paces");
        drain(&mut s, now);
        run(&mut s, now + SimDuration::from_millis(10));
        let reported: Vec<f64> = std::iter::from_fn(|| s.poll_event())
            .filter_map(|e| match e {
                TraceEvent::Pacing { bytes_per_s } => Some(bytes_per_s),
                _ => None,
            })
            .collect();
        assert!(!reported.is_empty(), "round {round}: a segment was decided");
        assert!(reported.iter().all(|&r| r == rate), "round {round}: {reported:?} vs {rate}");
        rates.push(rate);
    }
    // The first ACK's RTT sample restarts the rate at high_gain·cwnd/RTT: it changes.
    assert_ne!(rates[0], rates[1], "{rates:?}");
}
