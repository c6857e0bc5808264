//! One test per RFC 3168 §6.1 rule, on the sender and receiver state machines.

use crate::packet::{Flags, Packet};
use crate::tcp::{TcpConfig, TcpReceiver, TcpSender, LossRecoveryConfig};
use crate::time::{SimDuration, SimTime};
use crate::endpoint::Endpoint;
use crate::units::Bytes;

fn sender(variant: LossRecoveryConfig, ecn: bool) -> TcpSender {
    let cfg = TcpConfig { variant, ecn, initial_window: Some(4), max_window: Bytes(1 << 20), ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
    s.start(SimTime::ZERO);
    s
}

fn ack(n: u64, ece: bool) -> Packet {
    let mut p = Packet::tcp_ack(0, 1, 0, n, 1 << 20, 40);
    if ece {
        p.flags.set(Flags::ECE);
    }
    p
}

fn drain(s: &mut TcpSender, now: SimTime) -> Vec<Packet> {
    std::iter::from_fn(|| s.poll_transmit(now)).collect()
}

fn seq(p: &Packet) -> u64 {
    p.tcp_data_header().unwrap().seq
}

fn data(seq: u64, flags: u16) -> Packet {
    let mut p = Packet::tcp_data(0, 0, 1, seq, 1000, 1040);
    p.flags.set(flags);
    p
}

/// The ECE bit of each ACK the receiver sends now.
fn eces(r: &mut TcpReceiver, now: SimTime) -> Vec<bool> {
    std::iter::from_fn(|| r.poll_transmit(now)).map(|a| a.flags.has(Flags::ECE)).collect()
}

/// Sends 4, ACKs them (cwnd 8), sends 8 more: snd_una 4000, snd_max 12 000.
fn twelve_sent(variant: LossRecoveryConfig) -> TcpSender {
    let mut s = sender(variant, true);
    drain(&mut s, SimTime::ZERO);
    for k in 1..=4 {
        s.handle_ack(SimTime(1), &ack(k * 1000, false));
    }
    assert_eq!(drain(&mut s, SimTime(1)).len(), 8);
    s
}

#[test]
fn ect_only_on_new_data_not_on_retransmissions_or_acks() {
    let mut s = sender(LossRecoveryConfig::Reno, true);
    let first = drain(&mut s, SimTime::ZERO);
    assert!(first.iter().all(|p| p.flags.has(Flags::ECT)));
    for _ in 0..3 {
        s.handle_ack(SimTime(1), &ack(0, false));
    }
    let out = drain(&mut s, SimTime(1));
    let retx: Vec<_> = out.iter().filter(|p| p.flags.has(Flags::RETX)).collect();
    assert_eq!(retx.len(), 1);
    // §6.1.5: a retransmission is Not-ECT; the limited-transmit segments were new data.
    assert!(!retx[0].flags.has(Flags::ECT));
    assert!(out.iter().filter(|p| !p.flags.has(Flags::RETX)).all(|p| p.flags.has(Flags::ECT)));
    // §6.1.4: pure ACKs are Not-ECT.
    let mut r = TcpReceiver::new(0, 1, 0, 1000, 40, 65535, None).with_ecn(true);
    r.handle_packet(SimTime(0), &data(0, Flags::ECT));
    assert!(!r.poll_transmit(SimTime(0)).unwrap().flags.has(Flags::ECT));
}

#[test]
fn ece_repeats_until_cwr_and_a_ce_segment_is_acked_at_once() {
    let mut r = TcpReceiver::new(0, 1, 0, 1000, 40, 65535, Some(SimDuration::from_millis(200))).with_ecn(true);
    r.handle_packet(SimTime(0), &data(0, Flags::ECT));
    assert!(eces(&mut r, SimTime(0)).is_empty(), "delayed");
    r.handle_packet(SimTime(1), &data(1000, Flags::ECT | Flags::CE));
    assert_eq!(eces(&mut r, SimTime(1)), vec![true]);
    // Not CE, but still echoed, on every ACK, until CWR.
    r.handle_packet(SimTime(2), &data(2000, Flags::ECT));
    r.handle_packet(SimTime(3), &data(3000, Flags::ECT));
    assert_eq!(eces(&mut r, SimTime(3)), vec![true]);
    r.handle_packet(SimTime(4), &data(5000, Flags::ECT)); // out of order: a duplicate ACK
    assert_eq!(eces(&mut r, SimTime(4)), vec![true]);
    r.handle_packet(SimTime(5), &data(4000, Flags::ECT | Flags::CWR));
    assert_eq!(eces(&mut r, SimTime(5)), vec![false]);
    // A CE on the CWR segment itself starts the echo again (§6.1.3).
    r.handle_packet(SimTime(6), &data(6000, Flags::ECT | Flags::CE | Flags::CWR));
    assert_eq!(eces(&mut r, SimTime(6)), vec![true]);
    assert_eq!((r.ecn.ce_received, r.ecn.ece_sent), (2, 4));
}

#[test]
fn ece_halves_without_retransmitting_or_growing_on_that_ack() {
    let mut s = twelve_sent(LossRecoveryConfig::NewReno);
    assert_eq!(s.st.cwnd, 8000);
    s.handle_ack(SimTime(2), &ack(5000, true));
    // ssthresh = max(FlightSize / 2, 2·SMSS) = 7000 / 2; cwnd = ssthresh, no growth.
    assert_eq!((s.st.ssthresh, s.st.cwnd), (3500, 3500));
    assert_eq!((s.st.counters.ecn_reductions, s.st.counters.window_reductions), (1, 1));
    assert!(drain(&mut s, SimTime(2)).is_empty());
    let c = &s.st.counters;
    assert_eq!(c.retransmits_fast + c.retransmits_timeout + c.fast_recoveries, 0);
}

#[test]
fn one_reduction_per_window_and_cwr_once_on_the_next_new_data() {
    let mut s = twelve_sent(LossRecoveryConfig::NewReno);
    s.handle_ack(SimTime(2), &ack(5000, true));
    // Further ECEs for data sent before the reduction (up to 12 000) are not answered.
    for a in [6000, 8000, 10_000, 12_000] {
        s.handle_ack(SimTime(3), &ack(a, true));
    }
    assert_eq!(s.st.counters.ecn_reductions, 1);
    let out = drain(&mut s, SimTime(3));
    assert!(out.len() >= 2, "{}", out.len());
    assert_eq!(seq(&out[0]), 12_000);
    assert!(out[0].flags.has(Flags::CWR));
    assert!(out[1..].iter().all(|p| !p.flags.has(Flags::CWR)));
    // An ECE for data sent after the reduction is new congestion: a second reduction.
    s.handle_ack(SimTime(4), &ack(13_000, true));
    assert_eq!(s.st.counters.ecn_reductions, 2);
    assert!(drain(&mut s, SimTime(4)).first().is_none_or(|p| p.flags.has(Flags::CWR)));
}

#[test]
fn no_ecn_reduction_in_fast_recovery_or_after_a_loss_in_the_same_window() {
    let mut s = sender(LossRecoveryConfig::Reno, true);
    drain(&mut s, SimTime::ZERO);
    for _ in 0..3 {
        s.handle_ack(SimTime(1), &ack(0, false));
        drain(&mut s, SimTime(1));
    }
    assert!(s.st.in_recovery);
    let (ssthresh, cwnd) = (s.st.ssthresh, s.st.cwnd);
    s.handle_ack(SimTime(2), &ack(0, true));
    assert_eq!((s.st.ssthresh, s.st.cwnd), (ssthresh, cwnd + 1000), "only the RFC 5681 inflation");
    // Recovery ends on an ACK of data outstanding at the loss: still the same window.
    s.handle_ack(SimTime(3), &ack(6000, true));
    assert!(!s.st.in_recovery);
    assert_eq!((s.st.counters.ecn_reductions, s.st.counters.window_reductions), (0, 1));
    // The loss reduction also sets CWR on the next new data (§6.1.2, "for any reason").
    assert!(drain(&mut s, SimTime(3))[0].flags.has(Flags::CWR));
}

#[test]
fn an_ece_on_the_duplicate_that_starts_fast_recovery_reduces_once() {
    let mut s = sender(LossRecoveryConfig::Reno, true);
    drain(&mut s, SimTime::ZERO);
    for k in 0..3 {
        s.handle_ack(SimTime(1), &ack(0, k == 2));
        drain(&mut s, SimTime(1));
    }
    // Fast recovery's entry, not the ECN reduction: ssthresh half the 4 segments sent
    // before limited transmit's 2 (RFC 5681 §3.2 step 2), cwnd inflated by 3.
    assert!(s.st.in_recovery);
    assert_eq!((s.st.ssthresh, s.st.cwnd), (2000, 5000));
    assert_eq!((s.st.counters.ecn_reductions, s.st.counters.window_reductions), (0, 1));
}

#[test]
fn ecn_off_ignores_ece_and_marks_nothing() {
    let (mut a, mut b) = (sender(LossRecoveryConfig::NewReno, false), sender(LossRecoveryConfig::NewReno, false));
    let mut sent = (drain(&mut a, SimTime::ZERO), drain(&mut b, SimTime::ZERO));
    for k in 1..=6 {
        a.handle_ack(SimTime(k), &ack(k * 1000, false));
        b.handle_ack(SimTime(k), &ack(k * 1000, true));
        sent.0.extend(drain(&mut a, SimTime(k)));
        sent.1.extend(drain(&mut b, SimTime(k)));
    }
    assert_eq!(sent.0, sent.1);
    assert!(sent.0.iter().all(|p| p.flags == Flags::default()));
    assert_eq!((a.st.cwnd, a.st.ssthresh), (b.st.cwnd, b.st.ssthresh));
    let mut r = TcpReceiver::new(0, 1, 0, 1000, 40, 65535, None);
    r.handle_packet(SimTime(0), &data(0, Flags::ECT | Flags::CE));
    assert_eq!(eces(&mut r, SimTime(0)), vec![false]);
}
