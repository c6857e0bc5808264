//! The sender's unit tests: ACK clocking, fast retransmit, ELN, timeouts, the window.

use super::*;
use crate::tcp::LossRecoveryConfig;
use crate::packet::{Flags, Header};
use crate::endpoint::Endpoint;
use crate::units::{Bytes, Duration};

fn sender(variant: LossRecoveryConfig) -> TcpSender {
    let cfg = TcpConfig { variant, initial_window: Some(4), max_window: Bytes(1 << 20), ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
    s.start(SimTime::ZERO);
    s
}

fn ack(n: u64, eln: bool) -> Packet {
    let mut flags = Flags::default();
    if eln {
        flags.set(Flags::ELN);
    }
    let mut p = Packet::tcp_ack(0, 1, 0, n, 1 << 20, 40);
    p.flags = flags;
    p
}

fn seq_of(p: &Packet) -> u64 {
    match p.header {
        Header::TcpData(d) => d.seq,
        _ => panic!("not data"),
    }
}

fn drain(s: &mut TcpSender, now: SimTime) -> Vec<Packet> {
    std::iter::from_fn(|| s.poll_transmit(now)).collect()
}

#[test]
fn sends_the_initial_window_and_starts_the_timer() {
    let mut s = sender(LossRecoveryConfig::NewReno);
    let sent = drain(&mut s, SimTime::ZERO);
    assert_eq!(sent.len(), 4);
    assert_eq!(seq_of(&sent[3]), 3000);
    assert_eq!(sent[0].size, 1040);
    assert_eq!(s.next_timeout(), Some(SimTime::ZERO + SimDuration::from_secs(1)));
}

#[test]
fn ack_clock_slow_start_doubles_per_round() {
    let mut s = sender(LossRecoveryConfig::NewReno);
    drain(&mut s, SimTime::ZERO);
    let t = SimTime::ZERO + SimDuration::from_millis(100);
    for k in 1..=4 {
        s.handle_ack(t, &ack(k * 1000, false));
    }
    assert_eq!(s.st.cwnd, 8000);
    assert_eq!(drain(&mut s, t).len(), 8);
    // One timed segment gave one RTT sample of 100 ms.
    assert_eq!(s.metrics.rtt.samples, 1);
    assert_eq!(s.srtt(), Some(SimDuration::from_millis(100)));
}

#[test]
fn abc_option_counts_the_bytes_of_delayed_acks() {
    use crate::tcp::config::Abc;
    for (abc, cwnd) in [(Abc::Off, 6000), (Abc::Limit(2), 8000)] {
        let cfg = TcpConfig { abc, initial_window: Some(4), ..Default::default() };
        let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
        s.start(SimTime::ZERO);
        drain(&mut s, SimTime::ZERO);
        s.handle_ack(SimTime(1), &ack(2000, false));
        s.handle_ack(SimTime(2), &ack(4000, false));
        assert_eq!(s.st.cwnd, cwnd, "{abc:?}");
    }
}

#[test]
fn third_duplicate_ack_retransmits_the_first_unacked_segment() {
    let mut s = sender(LossRecoveryConfig::Reno);
    drain(&mut s, SimTime::ZERO);
    let t = SimTime(1);
    s.handle_ack(t, &ack(0, false));
    // Limited transmit: one new segment per early duplicate.
    assert_eq!(drain(&mut s, t).iter().map(seq_of).collect::<Vec<_>>(), vec![4000]);
    s.handle_ack(t, &ack(0, false));
    assert_eq!(drain(&mut s, t).iter().map(seq_of).collect::<Vec<_>>(), vec![5000]);
    s.handle_ack(t, &ack(0, false));
    let out = drain(&mut s, t);
    assert_eq!(seq_of(&out[0]), 0);
    assert!(out[0].flags.has(Flags::RETX));
    assert_eq!(s.st.counters.retransmits_fast, 1);
    assert_eq!(s.st.counters.fast_recoveries, 1);
}

#[test]
fn eln_duplicates_retransmit_without_reduction() {
    let mut s = sender(LossRecoveryConfig::Reno);
    drain(&mut s, SimTime::ZERO);
    let cwnd = s.st.cwnd;
    for _ in 0..3 {
        s.handle_ack(SimTime(1), &ack(0, true));
    }
    let out = drain(&mut s, SimTime(1));
    assert_eq!(seq_of(&out[0]), 0);
    assert_eq!(s.st.counters.retransmits_eln, 1);
    assert_eq!(s.st.counters.window_reductions, 0);
    s.handle_ack(SimTime(2), &ack(6000, false));
    assert_eq!(s.st.cwnd, cwnd);
}

#[test]
fn eln_ignored_when_switched_off() {
    let cfg = TcpConfig { eln: false, initial_window: Some(4), ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
    s.start(SimTime::ZERO);
    drain(&mut s, SimTime::ZERO);
    for _ in 0..3 {
        s.handle_ack(SimTime(1), &ack(0, true));
    }
    assert_eq!(s.st.counters.retransmits_fast, 0);
    drain(&mut s, SimTime(1));
    assert_eq!((s.st.counters.retransmits_fast, s.st.counters.window_reductions), (1, 1));
}

/// Issue 25 item 3: ns-2's ELN sender (`TcpAgent::tcp_eln`, tcp/tcp.cc of ns-2.1b7)
/// resends on the `eln_rxmit_thresh_`-th duplicate, default 1; the core's default is
/// that one. One marked duplicate resends at once, keeps the window, and the next
/// marked duplicates of that loss resend nothing more.
#[test]
fn eln_resends_on_the_first_marked_duplicate_by_default() {
    for variant in [LossRecoveryConfig::Tahoe, LossRecoveryConfig::Reno, LossRecoveryConfig::NewReno] {
        let mut s = sender(variant);
        drain(&mut s, SimTime::ZERO);
        let cwnd = s.st.cwnd;
        s.handle_ack(SimTime(1), &ack(0, true));
        let out = drain(&mut s, SimTime(1));
        assert!(!out.is_empty(), "{variant:?}: nothing sent on the first ELN duplicate");
        assert_eq!(seq_of(&out[0]), 0, "{variant:?}: the first ELN duplicate resends the lost segment");
        assert!(out[0].flags.has(Flags::RETX));
        assert_eq!(s.st.counters.retransmits_eln, 1, "{variant:?}");
        for _ in 0..3 {
            s.handle_ack(SimTime(1), &ack(0, true));
            assert!(drain(&mut s, SimTime(1)).iter().all(|p| seq_of(p) != 0), "{variant:?}: resent twice");
        }
        assert_eq!(s.st.counters.retransmits_eln, 1, "{variant:?}");
        assert_eq!((s.st.counters.retransmits_fast, s.st.counters.window_reductions), (0, 0), "{variant:?}");
        s.handle_ack(SimTime(2), &ack(4000, false));
        assert!(s.st.cwnd >= cwnd, "{variant:?}: the window was cut to {}", s.st.cwnd);
    }
}

/// Chen Fig. 1 line 19's reading ("upon receipt of three duplicate acks"):
/// `eln_dupack_threshold = 3` resends on the third marked duplicate, as before.
#[test]
fn eln_threshold_three_waits_for_the_third_duplicate() {
    let cfg = TcpConfig { variant: LossRecoveryConfig::Reno, initial_window: Some(4), max_window: Bytes(1 << 20), eln_dupack_threshold: 3, ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
    s.start(SimTime::ZERO);
    drain(&mut s, SimTime::ZERO);
    for (k, new) in [(1, 4000), (2, 5000)] {
        s.handle_ack(SimTime(1), &ack(0, true));
        assert_eq!(drain(&mut s, SimTime(1)).iter().map(seq_of).collect::<Vec<_>>(), vec![new], "duplicate {k}: limited transmit only");
    }
    s.handle_ack(SimTime(1), &ack(0, true));
    let out = drain(&mut s, SimTime(1));
    assert_eq!(seq_of(&out[0]), 0);
    assert_eq!((s.st.counters.retransmits_eln, s.st.counters.window_reductions), (1, 0));
}

/// A first ELN mark on a later duplicate still resends (ns-2 compares with `==` and
/// would wait for the timeout); an unmarked duplicate below K does nothing.
#[test]
fn eln_mark_after_the_threshold_still_resends() {
    let mut s = sender(LossRecoveryConfig::NewReno);
    drain(&mut s, SimTime::ZERO);
    s.handle_ack(SimTime(1), &ack(0, false));
    assert_eq!(drain(&mut s, SimTime(1)).iter().map(seq_of).collect::<Vec<_>>(), vec![4000]);
    s.handle_ack(SimTime(1), &ack(0, true));
    let out = drain(&mut s, SimTime(1));
    assert_eq!(seq_of(&out[0]), 0);
    assert_eq!((s.st.counters.retransmits_eln, s.st.counters.window_reductions), (1, 0));
}

#[test]
fn eln_threshold_zero_is_refused() {
    let c = TcpConfig { eln_dupack_threshold: 0, ..Default::default() };
    assert!(c.validate().unwrap_err().starts_with("eln_dupack_threshold:"));
}

#[test]
fn timeout_goes_back_n_with_backoff_and_karn() {
    let mut s = sender(LossRecoveryConfig::NewReno);
    drain(&mut s, SimTime::ZERO);
    let t1 = SimTime::ZERO + SimDuration::from_secs(1);
    s.handle_timeout(t1);
    assert_eq!((s.st.cwnd, s.st.ssthresh), (1000, 2000));
    let out = drain(&mut s, t1);
    assert_eq!(out.len(), 1);
    assert_eq!(seq_of(&out[0]), 0);
    assert_eq!(s.st.counters.retransmits_timeout, 1);
    // Backoff: the next expiry is 2 s later.
    assert_eq!(s.next_timeout(), Some(t1 + SimDuration::from_secs(2)));
    // Karn: the ACK of the retransmission gives no RTT sample.
    s.handle_ack(t1 + SimDuration::from_millis(100), &ack(1000, false));
    assert_eq!(s.metrics.rtt.samples, 0);
    // Go-back-N continues from 1000 and counts as timeout retransmissions.
    let out = drain(&mut s, t1 + SimDuration::from_millis(100));
    assert_eq!(out.iter().map(seq_of).collect::<Vec<_>>(), vec![1000, 2000]);
    assert_eq!(s.st.counters.retransmits_timeout, 3);
}

#[test]
fn timeout_during_fast_recovery_keeps_the_entry_ssthresh() {
    let mut s = sender(LossRecoveryConfig::NewReno);
    drain(&mut s, SimTime::ZERO);
    for _ in 0..20 {
        s.handle_ack(SimTime(1), &ack(0, false));
        drain(&mut s, SimTime(1));
    }
    // Entry at 6 segments in flight, 2 of them sent by limited transmit, which
    // RFC 5681 §3.2 step 2 leaves out: ssthresh 4 / 2 = 2 segments.
    let entry = s.st.ssthresh;
    assert_eq!(entry, 2000);
    assert!(s.st.in_recovery && s.st.flight_size() > 6 * entry, "{}", s.st.flight_size());
    s.handle_timeout(SimTime::ZERO + SimDuration::from_secs(1));
    assert_eq!((s.st.ssthresh, s.st.cwnd), (entry, 1000));
    assert!(!s.st.in_recovery);
}

#[test]
fn limited_transmit_data_is_left_out_of_the_halved_flight_size() {
    // RFC 5681 §3.2 step 2. Without limited transmit the same loss halves 4 segments.
    for lt in [true, false] {
        let cfg = TcpConfig { limited_transmit: lt, initial_window: Some(4), ..Default::default() };
        let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
        s.start(SimTime::ZERO);
        drain(&mut s, SimTime::ZERO);
        let mut sent = 0;
        for _ in 0..3 {
            s.handle_ack(SimTime(1), &ack(0, false));
            sent += drain(&mut s, SimTime(1)).len();
        }
        // With it: 2 new segments, then the fast retransmit fills the inflated window
        // (2 + 3 segments for 6 in flight). Without: the retransmit and 1 new segment.
        assert_eq!(sent, if lt { 3 } else { 2 }, "lt = {lt}");
        assert_eq!(s.st.ssthresh, 2000, "lt = {lt}");
    }
}

#[test]
fn cwnd_mean_counts_the_recovery_target_not_the_inflation() {
    let mut s = sender(LossRecoveryConfig::Reno);
    let ms = |n| SimTime::ZERO + SimDuration::from_millis(n);
    drain(&mut s, ms(0));
    // 100 ms at 4 segments; then recovery from 6 in flight (4 + 2 limited transmit,
    // which RFC 5681 §3.2 step 2 leaves out): target = ssthresh = 2 segments, cwnd
    // inflated to 9 by 7 duplicates in all.
    for _ in 0..7 {
        s.handle_ack(ms(100), &ack(0, false));
        drain(&mut s, ms(100));
    }
    assert_eq!((s.st.recovery_target, s.st.cwnd), (2000, 9000));
    // 200 ms in recovery; the ACK of new data ends it at 2 segments for 100 ms more.
    s.handle_ack(ms(300), &ack(6000, false));
    assert!(!s.st.in_recovery);
    s.finish_metrics(ms(400));
    let m = &s.metrics;
    // (4000·0.1 + 2000·0.2 + 2000·0.1) / 0.4 and (4000·0.1 + 9000·0.2 + 2000·0.1) / 0.4.
    assert!((m.cwnd_mean() - 2500.0).abs() < 1e-6, "{}", m.cwnd_mean());
    assert!((m.cwnd_inflated_mean() - 6000.0).abs() < 1e-6, "{}", m.cwnd_inflated_mean());
    assert_eq!((m.cwnd_max, m.cwnd_inflated_max), (4000, 9000));
}

#[test]
fn tahoe_fast_retransmit_restarts_from_one_segment() {
    let mut s = sender(LossRecoveryConfig::Tahoe);
    drain(&mut s, SimTime::ZERO);
    for _ in 0..3 {
        s.handle_ack(SimTime(1), &ack(0, false));
    }
    drain(&mut s, SimTime(1));
    let out = drain(&mut s, SimTime(1));
    assert!(out.is_empty());
    assert_eq!(s.st.cwnd, 1000);
    assert_eq!(s.st.counters.retransmits_fast, 1);
}

#[test]
fn file_transfer_finishes_with_a_short_last_segment() {
    let cfg = TcpConfig { initial_window: Some(4), min_rto: Duration::from_millis(200), ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, Some(2500));
    s.start(SimTime::ZERO);
    let out = drain(&mut s, SimTime::ZERO);
    assert_eq!(out.iter().map(|p| p.payload()).collect::<Vec<_>>(), vec![1000, 1000, 500]);
    s.handle_ack(SimTime(5), &ack(2500, false));
    assert!(s.finished());
    assert_eq!(s.next_timeout(), None);
}

#[test]
fn window_is_limited_by_the_receiver() {
    let mut s = sender(LossRecoveryConfig::NewReno);
    drain(&mut s, SimTime::ZERO);
    s.handle_ack(SimTime(1), &ack(4000, false));
    s.handle_ack(SimTime(2), &Packet::tcp_ack(0, 1, 0, 4000, 2000, 40));
    assert_eq!(drain(&mut s, SimTime(2)).len(), 2);
}

fn ewln_ack(n: u64, named: u64) -> Packet {
    let mut p = Packet::tcp_ack(0, 1, 0, n, 1 << 20, 40);
    p.flags.set(Flags::EWLN);
    p.set_ewln_offset((named - n) as u32);
    p
}

fn ewln_sender(variant: LossRecoveryConfig) -> TcpSender {
    let cfg = TcpConfig { variant, ewln: true, initial_window: Some(4), max_window: Bytes(1 << 20), ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
    s.start(SimTime::ZERO);
    s
}

#[test]
fn fig_3_the_first_ewln_ack_resends_the_named_segment_without_reduction() {
    for variant in [LossRecoveryConfig::Reno, LossRecoveryConfig::NewReno, LossRecoveryConfig::Sack] {
        let mut s = ewln_sender(variant);
        drain(&mut s, SimTime::ZERO);
        let cwnd = s.st.cwnd;
        // Segment 1000 was corrupted: the receiver's ACK of 1000 names it; no waiting for
        // three duplicates.
        s.handle_ack(SimTime(1), &ack(1000, false));
        s.handle_ack(SimTime(2), &ewln_ack(1000, 1000));
        let out = drain(&mut s, SimTime(2));
        assert_eq!(seq_of(&out[0]), 1000, "{variant:?}");
        assert!(out[0].flags.has(Flags::RETX));
        // Its duplicates, still marked: no second EWLN resend, nor a fast retransmit.
        for t in 3..8 {
            s.handle_ack(SimTime(t), &ewln_ack(1000, 1000));
            let out = drain(&mut s, SimTime(t));
            assert!(out.iter().all(|p| seq_of(p) != 1000), "{variant:?}");
        }
        let c = &s.st.counters;
        assert_eq!(c.retransmits_ewln, 1, "{variant:?}");
        assert_eq!((c.retransmits_fast, c.window_reductions), (0, 0), "{variant:?}");
        s.handle_ack(SimTime(9), &ack(4000, false));
        assert!(s.st.cwnd >= cwnd, "{variant:?}: no reduction");
    }
}

#[test]
fn ewln_names_a_segment_above_the_cumulative_ack_too() {
    let mut s = ewln_sender(LossRecoveryConfig::Reno);
    drain(&mut s, SimTime::ZERO);
    // 0 lost to congestion (no EWLN), 2000 corrupted: the ACK of 0 names 2000.
    s.handle_ack(SimTime(1), &ewln_ack(0, 2000));
    assert_eq!(seq_of(&drain(&mut s, SimTime(1))[0]), 2000);
    // Without EWLN at the sender the mark is ignored: a plain duplicate.
    let mut plain = sender(LossRecoveryConfig::Reno);
    drain(&mut plain, SimTime::ZERO);
    plain.handle_ack(SimTime(1), &ewln_ack(0, 2000));
    assert!(drain(&mut plain, SimTime(1)).iter().all(|p| seq_of(p) >= 4000), "only new data (limited transmit)");
    assert_eq!(plain.st.dupacks, 1);
}

/// An EWLN receiver (SACK when `sack`) beside an EWLN sender: the sender's segments are
/// handed over intact or as corrupted headers (a MAC out of retries, Shagdar Fig. 1),
/// and every ACK the receiver makes goes straight back.
struct EwlnPair {
    s: TcpSender,
    r: crate::tcp::receiver::TcpReceiver,
    t: u64,
}

impl EwlnPair {
    fn new(variant: LossRecoveryConfig, window: u32) -> Self {
        let mut s = ewln_sender(variant);
        s.st.cwnd = window as u64 * 1000;
        let sack = variant.uses_sack();
        let r = crate::tcp::receiver::TcpReceiver::new(0, 1, 0, 1000, 40, 1 << 20, None).with_ewln(true).with_sack(sack);
        EwlnPair { s, r, t: 0 }
    }

    /// What the sender sends now (its sequence numbers).
    fn sent(&mut self) -> Vec<u64> {
        self.t += 1;
        drain(&mut self.s, SimTime(self.t)).iter().map(seq_of).collect()
    }

    /// Segment `seq` reaches the receiver, corrupted or not; its ACKs go back. Returns
    /// what the sender sends in answer.
    fn deliver(&mut self, seq: u64, corrupt: bool) -> Vec<u64> {
        self.t += 1;
        let now = SimTime(self.t);
        let mut p = Packet::tcp_data(0, 0, 1, seq, 1000, 1040);
        if corrupt {
            p.flags.set(Flags::EWLN | Flags::CORRUPT);
        }
        self.r.handle_packet(now, &p);
        while let Some(a) = self.r.poll_transmit(now) {
            self.s.handle_ack(now, &a);
        }
        self.sent()
    }
}

#[test]
fn fig_3_a_corrupted_retransmission_is_a_new_notice_resent_at_once() {
    // Shagdar §III B: the receiver keeps EWLN on "until the retransmission of the
    // corrupted packet is finished or a new corrupted packet with the EWLN bit set
    // arrives"; §III C: the sender resends on the first ACK of each notice. A corrupted
    // retransmission is such a new corrupted packet.
    for variant in [LossRecoveryConfig::Reno, LossRecoveryConfig::NewReno, LossRecoveryConfig::Sack] {
        let mut x = EwlnPair::new(variant, 8);
        assert_eq!(x.sent(), (0..8).map(|k| k * 1000).collect::<Vec<_>>());
        x.deliver(0, false);
        assert!(x.deliver(1000, true).contains(&1000), "{variant:?}: the first EWLN ACK resends 1000");
        for k in 2..5 {
            assert!(!x.deliver(k * 1000, false).contains(&1000), "{variant:?}: the notice's duplicates resend nothing");
        }
        // The retransmission is corrupted too: a new notice, resent at once (today's code
        // waited for the timer).
        assert!(x.deliver(1000, true).contains(&1000), "{variant:?}: a corrupted retransmission is resent on its notice");
        for k in 5..8 {
            assert!(!x.deliver(k * 1000, false).contains(&1000), "{variant:?}: once per notice");
        }
        x.deliver(1000, false);
        assert_eq!(x.r.rcv_nxt(), 8000, "{variant:?}");
        let c = &x.s.st.counters;
        assert_eq!((c.retransmits_ewln, c.timeouts), (2, 0), "{variant:?}");
        if variant != LossRecoveryConfig::Sack {
            assert_eq!((c.retransmits_fast, c.window_reductions), (0, 0), "{variant:?}");
        }
    }
}

#[test]
fn fig_3_with_sack_an_ewln_named_hole_is_lost_not_congested() {
    // §III C: the sender "performs retransmission without invoking the associated
    // congestion control procedures", with SACK as with Reno (§IV A, Fig. 6). The hole
    // EWLN named is resent on its notice; the SACK blocks above it are no loss signal.
    let mut x = EwlnPair::new(LossRecoveryConfig::Sack, 10);
    x.sent();
    x.deliver(0, false);
    assert_eq!(x.deliver(1000, true), vec![1000], "resent at once");
    for k in 2..10 {
        assert!(!x.deliver(k * 1000, false).contains(&1000), "no second resend of 1000");
    }
    let c = x.s.st.counters.clone();
    assert_eq!((c.retransmits_ewln, c.retransmits_fast, c.window_reductions), (1, 0, 0));
    assert!(!x.s.st.in_recovery);
    x.deliver(1000, false);
    assert_eq!((x.r.rcv_nxt(), x.s.st.snd_una), (10_000, 10_000));
    assert_eq!(x.s.st.counters.window_reductions, 0);
    assert!(x.s.st.cwnd >= 10_000, "the window kept");

    // A congestion loss (no header arrives) below a corrupted segment is still one: the
    // SACK blocks above it start recovery, and the EWLN-named segment is resent once.
    let mut x = EwlnPair::new(LossRecoveryConfig::Sack, 10);
    x.sent();
    x.deliver(0, false); // 1000 dropped by a queue: never arrives
    assert_eq!(x.deliver(2000, true), vec![2000]);
    for k in 3..10 {
        x.deliver(k * 1000, false);
    }
    let c = x.s.st.counters.clone();
    assert_eq!((c.retransmits_ewln, c.window_reductions), (1, 1), "one reduction, for the congestion loss");
    assert!(x.s.st.in_recovery);
}
