//! SACK recovery through the sender (RFC 6675 §5 and ns-2's Sack1), on 1000-byte
//! segments: segment k is [1000·k, 1000·k + 1000).

use crate::packet::{Flags, Packet, SackBlock, SACK_BLOCKS};
use crate::tcp::config::{LossRecoveryConfig, TcpConfig};
use crate::tcp::receiver::TcpReceiver;
use crate::tcp::sender::TcpSender;
use crate::time::{SimDuration, SimTime};
use crate::endpoint::Endpoint;
use crate::units::Bytes;

const K: u64 = 1000;

fn sender(variant: LossRecoveryConfig, iw: u32) -> TcpSender {
    let cfg = TcpConfig { variant, initial_window: Some(iw), max_window: Bytes(1 << 20), ..Default::default() };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
    s.start(SimTime::ZERO);
    s
}

/// An ACK of `ack` SACKing segments `blocks` (first..=last segment numbers), most recent first.
fn ack(ack: u64, blocks: &[(u64, u64)]) -> Packet {
    let mut b = [SackBlock::default(); SACK_BLOCKS];
    for (slot, &(first, last)) in b.iter_mut().zip(blocks) {
        *slot = SackBlock { start: (first * K - ack) as u32, end: ((last + 1) * K - ack) as u32 };
    }
    Packet::tcp_ack(0, 1, 0, ack, 1 << 20, 40).with_sack(b)
}

/// (segment number, retransmission?) of everything the sender may send now.
fn drain(s: &mut TcpSender, now: SimTime) -> Vec<(u64, bool)> {
    std::iter::from_fn(|| s.poll_transmit(now))
        .map(|p| (p.tcp_data_header().unwrap().seq / K, p.flags.has(Flags::RETX)))
        .collect()
}

const T: SimTime = SimTime(1);

/// Ten segments out, segment 0 lost; the ACKs of 1, 2 and 3 arrive.
fn three_sacking_duplicates(variant: LossRecoveryConfig) -> (TcpSender, Vec<(u64, bool)>) {
    let mut s = sender(variant, 10);
    assert_eq!(drain(&mut s, SimTime::ZERO).len(), 10);
    let mut out = vec![];
    for k in 1..=3 {
        s.handle_ack(T, &ack(0, &[(1, k)]));
        out.extend(drain(&mut s, T));
    }
    (s, out)
}

#[test]
fn rfc6675_limited_transmit_then_recovery_on_the_third_duplicate() {
    let (s, out) = three_sacking_duplicates(LossRecoveryConfig::Sack);
    // Step (3): each of the first two duplicates lets one new segment out (SACKed
    // bytes leave the pipe); step (4) on the third: segment 0 resent first.
    assert_eq!(out, vec![(10, false), (11, false), (0, true)]);
    assert!(s.st.in_recovery);
    // (4.2) ssthresh = cwnd = FlightSize / 2, without the 2 segments limited transmit
    // sent (RFC 5681 §3.2 step 2): 10 segments / 2.
    assert_eq!((s.st.ssthresh, s.st.cwnd), (5 * K, 5 * K));
    assert_eq!(s.st.counters.fast_recoveries, 1);
}

#[test]
fn rfc6675_an_ack_sacking_three_segments_enters_at_once_by_is_lost() {
    let mut s = sender(LossRecoveryConfig::Sack, 10);
    drain(&mut s, SimTime::ZERO);
    // Two ACKs were lost: the first to arrive SACKs 1-3. DupAcks = 1 but IsLost(0).
    s.handle_ack(T, &ack(0, &[(1, 3)]));
    assert!(s.st.in_recovery);
    assert_eq!(drain(&mut s, T)[0], (0, true));
}

#[test]
fn rfc6675_a_repeated_ack_without_new_sack_information_is_not_a_duplicate() {
    let mut s = sender(LossRecoveryConfig::Sack, 10);
    drain(&mut s, SimTime::ZERO);
    for _ in 0..5 {
        s.handle_ack(T, &ack(0, &[(1, 1)]));
    }
    assert_eq!(s.st.dupacks, 1);
    assert!(!s.st.in_recovery);
}

#[test]
fn rfc6675_repairs_several_holes_in_one_round_trip() {
    let mut s = sender(LossRecoveryConfig::Sack, 10);
    drain(&mut s, SimTime::ZERO);
    // Segments 0, 2 and 4 lost; the ACKs of 1, 3, 5, 6, ... arrive, each SACKing.
    let mut resent = vec![];
    let mut held: Vec<(u64, u64)> = vec![];
    for k in [1, 3, 5, 6, 7, 8, 9] {
        held.push((k, k));
        held.sort();
        // Merge adjacent segments into blocks, most recent (k) first.
        let mut blocks: Vec<(u64, u64)> = vec![];
        for &(a, b) in &held {
            match blocks.last_mut() {
                Some(last) if last.1 + 1 == a => last.1 = b,
                _ => blocks.push((a, b)),
            }
        }
        blocks.sort_by_key(|&(a, b)| !(a <= k && k <= b));
        s.handle_ack(T, &ack(0, &blocks));
        resent.extend(drain(&mut s, T).into_iter().filter(|&(_, r)| r).map(|(k, _)| k));
    }
    // All three holes resent before any cumulative ACK moved: one RTT, not three.
    assert_eq!(resent, vec![0, 2, 4]);
    assert_eq!(s.st.snd_una, 0);
}

#[test]
fn rfc6675_pipe_governs_sending_in_recovery() {
    let (mut s, _) = three_sacking_duplicates(LossRecoveryConfig::Sack);
    // cwnd 5 segments; in flight: 4-9, 10, 11 not SACKed or lost, plus the resent 0
    // → pipe 9 segments: nothing may go.
    assert!(drain(&mut s, T).is_empty());
    // Each further SACK takes a segment out of the pipe; at pipe 4, one goes out.
    let mut sent = vec![];
    for k in 4..=9 {
        s.handle_ack(T, &ack(0, &[(1, k)]));
        sent.extend(drain(&mut s, T));
    }
    assert_eq!(sent, vec![(12, false), (13, false)]);
}

#[test]
fn rfc6675_recovery_ends_at_the_recovery_point_with_cwnd_at_ssthresh() {
    let (mut s, _) = three_sacking_duplicates(LossRecoveryConfig::Sack);
    // A partial ACK (0 resent and ACKed, 12 SACKed... nothing else lost).
    s.handle_ack(T, &ack(10 * K, &[]));
    assert!(s.st.in_recovery, "RecoveryPoint is 12 segments");
    s.handle_ack(T, &ack(12 * K, &[]));
    assert!(!s.st.in_recovery);
    assert_eq!(s.st.cwnd, 5 * K);
}

#[test]
fn rfc6675_timeout_clears_the_scoreboard_and_go_back_n_skips_what_is_sacked_again() {
    let (mut s, _) = three_sacking_duplicates(LossRecoveryConfig::Sack);
    s.handle_timeout(SimTime::ZERO + SimDuration::from_secs(1));
    assert!(!s.st.in_recovery);
    assert_eq!(drain(&mut s, T), vec![(0, true)]);
    let Some(t) = s.next_timeout() else { panic!("timer runs") };
    // The ACK of the resent segment 0 reports 1-3 and 5-7 held (4 was lost too).
    s.handle_ack(t, &ack(4 * K, &[(5, 7)]));
    // cwnd 2 segments: 4, then 8 (5-7 skipped), not 5.
    assert_eq!(drain(&mut s, t), vec![(4, true), (8, true)]);
    // No new recovery before everything sent before the timeout is acknowledged.
    for k in 9..12 {
        s.handle_ack(t, &ack(4 * K, &[(5, 7), (k, k)]));
    }
    assert!(!s.st.in_recovery);
}

/// Ten segments out, 0 and 4 lost, 1-3 and 5-7 SACKed; the timer expires and the ACK of
/// the resent 0 carries no blocks (a receiver reports only its 3 newest, RFC 2018 §4).
fn go_back_n_after_a_timeout(keep: crate::tcp::config::SackAfterTimeout) -> Vec<(u64, bool)> {
    let cfg = TcpConfig {
        variant: LossRecoveryConfig::Sack,
        sack_after_timeout: keep,
        initial_window: Some(10),
        max_window: Bytes(1 << 20),
        ..Default::default()
    };
    let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
    s.start(SimTime::ZERO);
    assert_eq!(drain(&mut s, SimTime::ZERO).len(), 10);
    for k in 1..=3 {
        s.handle_ack(T, &ack(0, &[(1, k)]));
    }
    s.handle_ack(T, &ack(0, &[(5, 7), (1, 3)]));
    drain(&mut s, T);
    s.handle_timeout(SimTime::ZERO + SimDuration::from_secs(1));
    assert_eq!(drain(&mut s, T), vec![(0, true)]);
    let Some(t) = s.next_timeout() else { panic!("timer runs") };
    s.handle_ack(t, &ack(4 * K, &[]));
    drain(&mut s, t)
}

#[test]
fn rfc6675_keeping_the_scoreboard_across_a_timeout_skips_what_was_sacked_before_it() {
    use crate::tcp::config::SackAfterTimeout;
    // Linux and ns-3 keep the SACKed marks: after 4, the go-back-N goes on at 8.
    assert_eq!(go_back_n_after_a_timeout(SackAfterTimeout::Keep), vec![(4, true), (8, true)]);
    // RFC 2018 §8 / RFC 6675 §5.1 drop them: with no block re-reported, 5 is resent.
    assert_eq!(go_back_n_after_a_timeout(SackAfterTimeout::Clear), vec![(4, true), (5, true)]);
}

#[test]
fn eln_with_sack_resends_without_a_reduction() {
    let mut s = sender(LossRecoveryConfig::Sack, 10);
    drain(&mut s, SimTime::ZERO);
    let cwnd = s.st.cwnd;
    for k in 1..=3 {
        let mut a = ack(0, &[(1, k)]);
        a.flags.set(Flags::ELN);
        s.handle_ack(T, &a);
    }
    assert!(drain(&mut s, T).contains(&(0, true)));
    assert_eq!((s.st.counters.eln_recoveries, s.st.counters.window_reductions), (1, 0));
    assert_eq!(s.st.cwnd, cwnd);
}

#[test]
fn sack1_halves_once_and_counts_pipe_as_ns2_does() {
    let (mut s, out) = three_sacking_duplicates(LossRecoveryConfig::Sack1);
    // ns-2's limited transmit (singledup_) sends one new segment per early duplicate.
    assert_eq!(out, vec![(10, false), (11, false), (0, true)]);
    // ns-2 halves cwnd (10 segments); FlightSize without limited transmit is the same.
    assert_eq!(s.st.cwnd, 5 * K);
    // pipe = maxseq − highest_ack − 3 = 12 − 3 = 9 segments, +1 for the resend.
    let Some(pipe) = s.pipe() else { panic!("SACK sender") };
    assert_eq!(pipe, 10 * K);
    // Each duplicate takes one segment off, however many it SACKs; below cwnd (5) the
    // next goes out: at the 9th.
    let mut sent = vec![];
    for k in 4..=9 {
        s.handle_ack(T, &ack(0, &[(1, k)]));
        sent.extend(drain(&mut s, T));
    }
    assert_eq!(sent, vec![(12, false)]);
}

#[test]
fn sack1_resends_every_hole_below_the_highest_sack_without_is_lost() {
    let mut s = sender(LossRecoveryConfig::Sack1, 10);
    drain(&mut s, SimTime::ZERO);
    // Segments 0, 4 and 5 lost: three duplicates SACK 1-3, the next ones 6 and 7.
    for k in 1..=3 {
        s.handle_ack(T, &ack(0, &[(1, k)]));
    }
    s.handle_ack(T, &ack(0, &[(6, 6), (1, 3)]));
    let mut resent: Vec<u64> = drain(&mut s, T).into_iter().filter(|&(_, r)| r).map(|(k, _)| k).collect();
    for _ in 0..4 {
        s.handle_ack(T, &ack(0, &[(6, 6), (1, 3)]));
    }
    s.handle_ack(T, &ack(0, &[(7, 7), (6, 6), (1, 3)]));
    resent.extend(drain(&mut s, T).into_iter().filter(|&(_, r)| r).map(|(k, _)| k));
    // Segments 4 and 5 have only 6-7 SACKed above: RFC 6675 would not call them lost
    // (2000 B, one range); ns-2 resends every hole below the highest SACK.
    assert_eq!(resent, vec![0, 4, 5]);
}

#[test]
fn sack1_timeout_resends_everything() {
    let (mut s, _) = three_sacking_duplicates(LossRecoveryConfig::Sack1);
    s.handle_timeout(SimTime::ZERO + SimDuration::from_secs(1));
    drain(&mut s, T);
    let Some(t) = s.next_timeout() else { panic!("timer runs") };
    s.handle_ack(t, &ack(4 * K, &[(5, 7)]));
    assert_eq!(drain(&mut s, t), vec![(4, true), (5, true)]);
}

#[test]
fn receiver_reports_blocks_and_the_ack_grows_by_the_option() {
    let mut r = TcpReceiver::new(0, 1, 0, 1000, 40, 65535, None).with_sack(true);
    let data = |k: u64| Packet::tcp_data(0, 0, 1, k * K, 1000, 1040);
    let mut acks = vec![];
    for k in [0, 2, 4] {
        r.handle_packet(T, &data(k));
        acks.push(r.poll_transmit(T).unwrap());
    }
    let sizes: Vec<u16> = acks.iter().map(|p| p.size).collect();
    assert_eq!(sizes, vec![40, 52, 60]);
    let last = acks[2].tcp_ack_header().unwrap();
    assert_eq!(last.sack_ranges().collect::<Vec<_>>(), vec![(4000, 5000), (2000, 3000)]);
    // Without SACK the same ACKs carry no option.
    let mut plain = TcpReceiver::new(0, 1, 0, 1000, 40, 65535, None);
    plain.handle_packet(T, &data(2));
    assert_eq!(plain.poll_transmit(T).unwrap().size, 40);
}
