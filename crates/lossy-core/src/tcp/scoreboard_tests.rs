//! One test per RFC 6675 §4 rule, on 1000-byte segments numbered from 0: segment k is
//! [1000·k, 1000·k + 1000).

use super::*;

const MSS: u64 = 1000;

/// A scoreboard with segments `sacked` reported held, ten segments sent.
fn board(sacked: &[u64]) -> Scoreboard {
    let mut sb = Scoreboard::new(MSS, 3);
    let blocks: Vec<_> = sacked.iter().map(|&k| (k * MSS, (k + 1) * MSS)).collect();
    sb.update(0, 10 * MSS, &blocks);
    sb
}

#[test]
fn update_counts_only_newly_sacked_bytes_and_clips() {
    let mut sb = Scoreboard::new(MSS, 3);
    assert_eq!(sb.update(0, 10_000, &[(2000, 3000)]), 1000);
    assert_eq!(sb.update(0, 10_000, &[(2000, 4000)]), 1000, "the repeated part is not new");
    assert_eq!(sb.update(0, 10_000, &[(2000, 4000)]), 0, "a repeat is not a duplicate ACK");
    // Blocks below HighACK or above HighData are clipped away.
    assert_eq!(sb.update(3000, 10_000, &[(1000, 2500), (9500, 12_000)]), 500);
    assert_eq!(sb.sacked_between(0, 20_000), 1500);
}

#[test]
fn is_lost_by_bytes_needs_more_than_dupthresh_minus_one_segments_above() {
    // Two SACKed segments above hole 0 (2000 B = (3 − 1)·SMSS, not more): not lost.
    let sb = board(&[1, 2]);
    assert!(!sb.is_lost(0));
    // Three contiguous segments: one range, but 3000 B > 2000 B: lost.
    let sb = board(&[1, 2, 3]);
    assert!(sb.is_lost(0));
    assert!(!sb.is_lost(4000), "nothing SACKed above the highest SACK");
    assert!(!sb.is_lost(2000), "a SACKed byte is never lost");
}

#[test]
fn is_lost_by_blocks_counts_discontiguous_ranges() {
    // Three 100-byte SACKed pieces above byte 0: 300 B is below (3 − 1)·SMSS, but they
    // are three discontiguous ranges.
    let mut sb = Scoreboard::new(MSS, 3);
    sb.update(0, 10_000, &[(1000, 1100), (2000, 2100), (3000, 3100)]);
    assert!(sb.is_lost(0));
    // Above byte 1500 lie only two ranges (200 B): not lost.
    assert!(!sb.is_lost(1500));
}

#[test]
fn pipe_counts_unsacked_not_lost_and_retransmitted_bytes() {
    // Segments 0 and 4 lost, 1-3 SACKed, 5-9 in flight; HighData = 10 segments.
    let mut sb = board(&[1, 2, 3]);
    // Segment 0 is lost (3 SACKed above); segments 4-9 are not (nothing SACKed above).
    assert_eq!(sb.pipe(0, 10_000), 6000);
    // Retransmitting segment 0 puts it back in the pipe.
    sb.on_sent(NextSeg { seq: 0, len: 1000, rule: Rule::Lost }, 10_000);
    assert_eq!(sb.pipe(0, 10_000), 7000);
    // A retransmitted byte that is not lost counts twice (original and resend).
    sb.high_rxt = 5000;
    assert_eq!(sb.pipe(0, 10_000), 6000 + 1000 + 1000);
    // Nothing SACKed: pipe is the FlightSize.
    assert_eq!(Scoreboard::new(MSS, 3).pipe(2000, 9000), 7000);
}

#[test]
fn next_seg_rule_1_resends_the_first_lost_hole_above_high_rxt() {
    let mut sb = board(&[1, 3, 4, 5]);
    // Holes 0 and 2 are lost; rule (1) takes 0, then 2 once HighRxt passed 0.
    let seg = sb.next_seg(0, 10_000, 5000).unwrap();
    assert_eq!(seg, NextSeg { seq: 0, len: 1000, rule: Rule::Lost });
    sb.on_sent(seg, 10_000);
    assert_eq!(sb.high_rxt, 1000);
    let seg = sb.next_seg(0, 10_000, 5000).unwrap();
    assert_eq!((seg.seq, seg.rule), (2000, Rule::Lost));
    sb.on_sent(seg, 10_000);
    // Hole 6.. is above the highest SACK: rule (2), new data.
    assert_eq!(sb.next_seg(0, 10_000, 5000).unwrap(), NextSeg { seq: 10_000, len: 1000, rule: Rule::NewData });
}

#[test]
fn next_seg_rule_1_trims_to_the_hole() {
    let mut sb = Scoreboard::new(MSS, 3);
    sb.update(0, 10_000, &[(500, 4000)]);
    assert_eq!(sb.next_seg(0, 10_000, 0).unwrap(), NextSeg { seq: 0, len: 500, rule: Rule::Lost });
}

#[test]
fn next_seg_rule_2_new_data_before_unlost_holes() {
    // Hole 0 with only two segments SACKed above: not lost. New data goes first.
    let sb = board(&[1, 2]);
    assert_eq!(sb.next_seg(0, 10_000, 700).unwrap(), NextSeg { seq: 10_000, len: 700, rule: Rule::NewData });
}

#[test]
fn next_seg_rule_3_unsacked_hole_when_no_new_data() {
    let sb = board(&[1, 2]);
    assert_eq!(sb.next_seg(0, 10_000, 0).unwrap(), NextSeg { seq: 0, len: 1000, rule: Rule::Unsacked });
}

#[test]
fn next_seg_rule_4_one_rescue_of_the_highest_unsacked_segment() {
    // Everything below HighRxt already resent, no new data: rule (4) resends the tail.
    let mut sb = board(&[1, 2, 3]);
    sb.high_rxt = 10_000;
    let seg = sb.next_seg(0, 10_000, 0).unwrap();
    assert_eq!(seg, NextSeg { seq: 9000, len: 1000, rule: Rule::Rescue });
    sb.on_sent(seg, 10_000);
    assert_eq!((sb.high_rxt, sb.rescue_rxt), (10_000, Some(10_000)), "HighRxt unchanged");
    // Once per recovery: not again until HighACK passes RescueRxt.
    assert_eq!(sb.next_seg(0, 10_000, 0), None);
    assert!(sb.next_seg(10_001, 12_000, 0).is_some());
}

#[test]
fn rescue_holds_the_highest_unsacked_byte_below_a_sacked_tail() {
    // Segment 9 SACKed: the highest un-SACKed byte is in segment 8.
    let mut sb = board(&[5, 9]);
    sb.high_rxt = 10_000;
    assert_eq!(sb.next_seg(0, 10_000, 0).unwrap(), NextSeg { seq: 8000, len: 1000, rule: Rule::Rescue });
}

#[test]
fn nothing_outstanding_nothing_to_send() {
    let sb = Scoreboard::new(MSS, 3);
    assert_eq!(sb.next_seg(5000, 5000, 0), None);
}

#[test]
fn clear_forgets_sacks_and_recovery_marks() {
    let mut sb = board(&[1, 2, 3]);
    sb.high_rxt = 1000;
    sb.rescue_rxt = Some(5000);
    sb.clear();
    assert_eq!((sb.ranges(), sb.high_rxt, sb.rescue_rxt), (0, 0, None));
    assert!(!sb.is_lost(0));
}

#[test]
fn skip_sacked_jumps_over_held_ranges() {
    let sb = board(&[1, 2, 4]);
    assert_eq!(sb.skip_sacked(0), 0);
    assert_eq!(sb.skip_sacked(1000), 3000);
    assert_eq!(sb.skip_sacked(4500), 5000);
}
