//! Syndrome's worked examples (Chen §3–5: Examples 1–5, Tables 2–4) and Propositions 1
//! and 2 as property tests, run through a real `TcpReceiver` with the inference on.
//!
//! The harness is a lock-step model of the path: packets reach the base station in the
//! order a test gives (a packet lost upstream of it simply never appears), the base
//! station stamps each with its counter, and a packet lost downstream is stamped but not
//! delivered. The sender's part is Fig. 1 lines 19–22 reduced to what the tests count:
//! when a duplicate-ACK set reaches three, the set is an ELN set (no window reduction) or
//! a plain one (one halving), and the missing packet is resent at once through the base
//! station, never lost. The figures with the exact orders are missing from the extracted
//! text; each test gives the order it reconstructs from the prose.

use super::syndrome::SyndromeRole;
use super::LossInference;
use crate::packet::{Flags, Packet};
use crate::rng::RngStream;
use crate::tcp::TcpReceiver;
use crate::time::SimTime;
use crate::endpoint::Endpoint;

const MSS: u64 = 1000;

/// What happens to a packet around the base station.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fate {
    /// Reaches the base station and the receiver.
    Ok,
    /// Lost before the base station: never stamped.
    Before,
    /// Stamped by the base station, then lost.
    After,
}
use Fate::*;

struct Lab {
    rx: TcpReceiver,
    count: u32,
    epoch: u16,
    last_ack: Option<u64>,
    dups: u32,
    /// Packet numbers whose duplicate-ACK set reached three with ELN, and without.
    eln_sets: Vec<u64>,
    plain_sets: Vec<u64>,
}

impl Lab {
    fn new(role: SyndromeRole) -> Self {
        let rx = TcpReceiver::new(0, 1, 0, MSS as u32, 40, 1 << 30, None).with_inference(LossInference::for_role(Some(role), MSS as u32, 3));
        Lab { rx, count: 0, epoch: 1, last_ack: None, dups: 0, eln_sets: vec![], plain_sets: vec![] }
    }

    fn syndrome(&self) -> &super::Syndrome {
        match &self.rx.inference {
            LossInference::Syndrome(s) => s,
            LossInference::None => unreachable!(),
        }
    }

    /// Packet `n` meets fate `f` (Fig. 1 lines 1–5 at the base station).
    fn send(&mut self, n: u64, f: Fate) {
        if f == Before {
            return;
        }
        let mut p = Packet::tcp_data(0, 0, 1, n * MSS, MSS as u32, 1040);
        if let crate::packet::Header::TcpData(d) = &mut p.header {
            d.bs_count = self.count;
            d.bs_epoch = self.epoch;
        }
        self.count = self.count.wrapping_add(1);
        if f == Ok {
            self.deliver(p);
        }
    }

    fn deliver(&mut self, p: Packet) {
        self.rx.handle_packet(SimTime::ZERO, &p);
        let mut resend = None;
        while let Some(a) = self.rx.poll_transmit(SimTime::ZERO) {
            let ack = a.tcp_ack_header().unwrap().ack;
            if self.last_ack == Some(ack) {
                self.dups += 1;
                if self.dups == 3 {
                    let sets = if a.flags.has(Flags::ELN) { &mut self.eln_sets } else { &mut self.plain_sets };
                    sets.push(ack / MSS);
                    resend = Some(ack / MSS);
                }
            } else {
                (self.last_ack, self.dups) = (Some(ack), 0);
            }
        }
        if let Some(n) = resend {
            self.send(n, Ok); // lines 19–22: the sender resends the lost packet
        }
    }

    fn run(&mut self, order: &[(u64, Fate)]) {
        for &(n, f) in order {
            self.send(n, f);
        }
    }

    /// New packets from `from`, all delivered, until every hole is repaired (at least
    /// one, so a loss of the last packet is seen).
    fn drain(&mut self, from: u64) {
        let mut n = from;
        while n == from || self.syndrome().pending_losses() > 0 || self.rx.buffered() > 0 {
            self.send(n, Ok);
            n += 1;
            assert!(n < from + 100_000, "holes never repaired");
        }
    }

    fn halvings(&self) -> usize {
        self.plain_sets.len()
    }
}

/// `ok(10..=11)` etc.: packets delivered in order.
fn ok(r: std::ops::RangeInclusive<u64>) -> Vec<(u64, Fate)> {
    r.map(|n| (n, Ok)).collect()
}

fn order(parts: &[&[(u64, Fate)]]) -> Vec<(u64, Fate)> {
    parts.concat()
}

#[test]
fn example_1_eln_for_12_and_16_not_13_and_one_halving() {
    // FH → MH: 12 and 13 lost on the wireless link, 16 in the wireline network.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(12, After), (13, After), (14, Ok), (15, Ok), (16, Before)], &ok(17..=30)]));
    lab.drain(31);
    assert_eq!(lab.eln_sets, vec![12, 16]);
    assert_eq!(lab.plain_sets, vec![13]);
    assert_eq!(lab.halvings(), 1, "one wireline loss, one halving");
    assert_eq!((lab.syndrome().credits_given, lab.syndrome().credit), (2, 0));
}

#[test]
fn example_2_out_of_order_then_lost_on_the_wireless_link() {
    // (O, L): 13 reaches the base station after 15 and is lost on the wireless link: the
    // MH sees (G_1, G_0) at 14 and (G_0, G_1) at 16, one credit, and the third duplicate
    // ACK for 13 carries ELN.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=12), &[(14, Ok), (15, Ok), (13, After)], &ok(16..=25)]));
    lab.drain(26);
    assert_eq!((lab.eln_sets.clone(), lab.halvings()), (vec![13], 0));
    assert_eq!(lab.syndrome().credits_given, 1);
}

#[test]
fn example_3_scenario_1_n_below_m() {
    // (O, L): 17 arrives early at the base station; 12 and 17 are lost on the wireless
    // link. At 13 the MH sees (G_1, G_2): two credits, both used, no halving.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(12, After), (17, After)], &ok(13..=16), &ok(18..=30)]));
    lab.drain(31);
    assert_eq!((lab.eln_sets.clone(), lab.halvings()), (vec![12, 17], 0));
    assert_eq!(lab.syndrome().credits_given, 2);
}

#[test]
fn example_3_scenario_2_wired_loss_reduction_comes_late() {
    // (O + L, L): 12 lost in the wireline network, 17 and 18 arrive early and are lost on
    // the wireless link. Indistinguishable from scenario 1 before 12 is resent: 12 gets
    // ELN, and the one halving falls on 18 instead (delayed, but one in all).
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(12, Before), (17, After), (18, After)], &ok(13..=16), &ok(19..=30)]));
    lab.drain(31);
    assert_eq!(lab.eln_sets, vec![12, 17]);
    assert_eq!(lab.plain_sets, vec![18]);
    assert_eq!(lab.syndrome().credits_given, 2);
}

#[test]
fn example_4_scenario_1_two_wired_one_wireless() {
    // (L, L): 12 and 13 lost upstream, 14 on the wireless link: (G_3, G_1) at 15, one
    // credit on k = 1 (12), two halvings (13, 14) = two wireline losses.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(12, Before), (13, Before), (14, After)], &ok(15..=30)]));
    lab.drain(31);
    assert_eq!((lab.eln_sets.clone(), lab.plain_sets.clone()), (vec![12], vec![13, 14]));
    assert_eq!(lab.syndrome().credits_given, 1);
}

#[test]
fn example_4_scenario_2_a_delayed_packet_gets_the_credit() {
    // (O, L): 12 and 13 reach the base station late (after 17), 14 is lost on the
    // wireless link. The one credit keeps the window when 12's lateness draws three
    // duplicate ACKs (Reno would halve there). Reading: with a single credit and two
    // sets that reach three (12, spurious; 14, the wireless loss) the second set is a
    // plain one; the paper's "total equals the wireline losses" cannot hold for this
    // scenario under any rule that gives one credit per wireless loss.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(14, After)], &ok(15..=17), &[(12, Ok), (13, Ok)], &ok(18..=30)]));
    lab.drain(31);
    assert_eq!((lab.eln_sets.clone(), lab.plain_sets.clone()), (vec![12], vec![14]));
    assert_eq!(lab.syndrome().credits_given, 1);
}

#[test]
fn example_4_scenario_3_wired_loss_reordering_and_wireless_loss() {
    // (O + L, L): 12 lost upstream, 13 late at the base station, 14 lost on the wireless
    // link: the credit goes to 12, the halving to 14: one, as there is one wireline loss.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(12, Before), (14, After)], &ok(15..=17), &[(13, Ok)], &ok(18..=30)]));
    lab.drain(31);
    assert_eq!((lab.eln_sets.clone(), lab.plain_sets.clone()), (vec![12], vec![14]));
    assert_eq!(lab.halvings(), 1);
}

#[test]
fn example_5_scenario_1_one_wireless_loss() {
    // (-, L): (G_1, G_1) at 13: one credit, ELN on 12's set, no halving.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(12, After)], &ok(13..=25)]));
    lab.drain(26);
    assert_eq!((lab.eln_sets.clone(), lab.halvings()), (vec![12], 0));
}

#[test]
fn example_5_scenario_2_credit_kept_when_the_late_packet_comes_before_three_duplicates() {
    // (O, L): 17 arrives early and is lost on the wireless link, 12 arrives late. The
    // credit of (G_1, G_1) at 13 is not spent when 12 arrives (only three ACKs for 12:
    // the first and two duplicates) and serves 17's set later: no halving.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(17, After), (13, Ok), (14, Ok), (12, Ok)], &ok(15..=16), &ok(18..=30)]));
    lab.drain(31);
    assert_eq!((lab.eln_sets.clone(), lab.halvings()), (vec![17], 0));
    assert_eq!((lab.syndrome().credits_given, lab.syndrome().credit), (1, 0));
}

#[test]
fn example_5_scenario_3_wired_loss_and_early_wireless_loss() {
    // (O + L, L): 12 lost upstream, 17 early and lost on the wireless link: 12 gets the
    // credit, 17's set the halving: one, as there is one wireline loss.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(12, Before), (17, After)], &ok(13..=16), &ok(18..=30)]));
    lab.drain(31);
    assert_eq!((lab.eln_sets.clone(), lab.plain_sets.clone()), (vec![12], vec![17]));
}

/// Runs `n` packets with losses `p_before` / `p_after` around the base station; returns
/// (lost before, lost after).
fn random_run(lab: &mut Lab, rng: &mut RngStream, n: u64, p_before: f64, p_after: f64) -> (u64, u64) {
    let (mut before, mut after) = (0, 0);
    for k in 0..n {
        let f = if rng.bernoulli(p_before) {
            before += 1;
            Before
        } else if rng.bernoulli(p_after) {
            after += 1;
            After
        } else {
            Ok
        };
        lab.send(k, f);
    }
    lab.drain(n);
    (before, after)
}

#[test]
fn proposition_1_credits_are_wireless_losses_and_halvings_wired_ones() {
    let mut rng = RngStream::new(1, 0, "syndrome:prop1");
    for case in 0..200 {
        let p_wired = [0.0, 0.01, 0.05, 0.2][case % 4];
        let p_wireless = [0.0, 0.02, 0.1, 0.3, 0.5][case % 5];
        let mut lab = Lab::new(SyndromeRole::Downlink);
        let (wired, wireless) = random_run(&mut lab, &mut rng, 300, p_wired, p_wireless);
        let s = lab.syndrome();
        assert_eq!(s.credits_given, wireless, "case {case}");
        assert_eq!(lab.eln_sets.len() as u64, wireless, "case {case}");
        assert_eq!(lab.halvings() as u64, wired, "case {case} {:?} {:?}", lab.plain_sets, lab.eln_sets);
        assert_eq!(s.credit, 0, "case {case}");
    }
}

#[test]
fn proposition_2_uplink_roles_swap() {
    // MH → BS → FH: losses before the base station are wireless, after it wired.
    let mut rng = RngStream::new(2, 0, "syndrome:prop2");
    for case in 0..200 {
        let p_wireless = [0.0, 0.02, 0.1, 0.3, 0.5][case % 5];
        let p_wired = [0.0, 0.01, 0.05, 0.2][case % 4];
        let mut lab = Lab::new(SyndromeRole::Uplink);
        let (wireless, wired) = random_run(&mut lab, &mut rng, 300, p_wireless, p_wired);
        let s = lab.syndrome();
        assert_eq!(s.credits_given, wireless, "case {case}");
        assert_eq!(lab.eln_sets.len() as u64, wireless, "case {case}");
        assert_eq!(lab.halvings() as u64, wired, "case {case}");
        assert_eq!((s.credit, s.impossible), (0, 0), "case {case}");
    }
}

/// The syndrome of each packet in `deliveries` (number, attached number), fed directly.
fn syndromes(role: SyndromeRole, deliveries: &[(u64, u32)]) -> super::Syndrome {
    let mut s = super::Syndrome::new(role, MSS as u32, 3);
    let first = deliveries[0].0;
    for &(n, an) in deliveries {
        let mut d = Packet::tcp_data(0, 0, 1, (n - first) * MSS, MSS as u32, 1040).tcp_data_header().unwrap();
        (d.bs_count, d.bs_epoch) = (an, 1);
        s.on_data(&d);
    }
    s
}

#[test]
fn table_2_credits_per_syndrome() {
    use SyndromeRole::Downlink as D;
    // (G_0, G_0) and (G_n, G_0): no op (Props. 3, 4).
    assert_eq!(syndromes(D, &[(10, 0), (11, 1)]).credits_given, 0);
    assert_eq!(syndromes(D, &[(10, 0), (13, 1)]).credits_given, 0);
    // (G_0, G_m): +m (Prop. 5); (G_n, G_m) with n < m, m < n, n = m: +m (Props. 6–8).
    assert_eq!(syndromes(D, &[(10, 0), (11, 3)]).credits_given, 2);
    assert_eq!(syndromes(D, &[(10, 0), (12, 4)]).credits_given, 3);
    assert_eq!(syndromes(D, &[(10, 0), (15, 2)]).credits_given, 1);
    assert_eq!(syndromes(D, &[(10, 0), (13, 3)]).credits_given, 2);
}

#[test]
fn table_3_credits_per_syndrome_on_the_uplink() {
    use SyndromeRole::Uplink as U;
    // Prop. 9: (G_0, G_0) no loss. Prop. 10: (G_n, G_0) n wireless losses: +n.
    assert_eq!(syndromes(U, &[(10, 0), (11, 1)]).credits_given, 0);
    assert_eq!(syndromes(U, &[(10, 0), (13, 1)]).credits_given, 2);
    // Props. 11, 12: (G_0, G_m) and n < m cannot happen: no credit, counted.
    let s = syndromes(U, &[(10, 0), (11, 3)]);
    assert_eq!((s.credits_given, s.impossible), (0, 1));
    let s = syndromes(U, &[(10, 0), (12, 4)]);
    assert_eq!((s.credits_given, s.impossible), (0, 1));
    // Prop. 13: 0 < m < n: n − m. Prop. 14: 0 < m = n: none.
    assert_eq!(syndromes(U, &[(10, 0), (15, 2)]).credits_given, 3);
    assert_eq!(syndromes(U, &[(10, 0), (13, 3)]).credits_given, 0);
}

#[test]
fn uplink_reordering_on_the_wired_part_gives_no_credit() {
    // Stamped 10, 11, 12, 13 and reordered after the base station to 10, 11, 13, 12:
    // (G_1, G_1) at 13 (Prop. 14, (O, −)), then nothing at 12, which fills its hole.
    let s = syndromes(SyndromeRole::Uplink, &[(0, 0), (1, 1), (3, 3), (2, 2)]);
    assert_eq!((s.credits_given, s.impossible, s.pending_losses()), (0, 0, 0));
}

#[test]
fn a_new_epoch_restarts_the_baseline() {
    let mut s = syndromes(SyndromeRole::Downlink, &[(0, 0), (1, 1)]);
    // Hand-off: the new base station counts from 0 in epoch 2; no gap across epochs.
    let mut d = Packet::tcp_data(0, 0, 1, 2 * MSS, MSS as u32, 1040).tcp_data_header().unwrap();
    (d.bs_count, d.bs_epoch) = (0, 2);
    s.on_data(&d);
    (d.seq, d.bs_count) = (4 * MSS, 2);
    s.on_data(&d);
    assert_eq!((s.credits_given, s.stamped), (1, 4));
    // A first packet numbered 3 in epoch 3: three packets lost after the stamping.
    (d.seq, d.bs_count, d.bs_epoch) = (8 * MSS, 3, 3);
    s.on_data(&d);
    assert_eq!(s.credits_given, 4);
}

#[test]
fn wrapping_counters_give_the_right_gap() {
    let mut s = syndromes(SyndromeRole::Downlink, &[(10, 0)]);
    s.max_an = u32::MAX - 1;
    let mut d = Packet::tcp_data(0, 0, 1, 3 * MSS, MSS as u32, 1040).tcp_data_header().unwrap();
    (d.bs_count, d.bs_epoch) = (1, 1);
    s.on_data(&d);
    assert_eq!(s.credits_given, 2);
}

#[test]
fn unstamped_packets_leave_plain_tcp() {
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.epoch = 0; // a plain base station
    lab.run(&order(&[&ok(0..=11), &[(12, After)], &ok(13..=25)]));
    lab.drain(26);
    assert_eq!((lab.eln_sets.len(), lab.plain_sets.clone()), (0, vec![12]));
    assert_eq!((lab.syndrome().stamped, lab.syndrome().eln_acks), (0, 0));
}

// §5, Table 4: duplicates that both reach the base station (case C1); both copies are
// stamped. Packet 12' is the copy of 12.

#[test]
fn c1a_both_copies_arrive_no_credit() {
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=12), &[(12, Ok)], &ok(13..=25)]));
    lab.drain(26);
    assert_eq!((lab.syndrome().credits_given, lab.eln_sets.len(), lab.halvings()), (0, 0, 0));
}

#[test]
fn c1b_original_lost_copy_arrives_credit_left_over_errs_optimistically() {
    // (G_1, G_1) at 13 gives a credit; 12' arrives before three duplicates, so the credit
    // is unused, and a later wireline loss (20) gets ELN: one reduction too few.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(12, After), (13, Ok), (12, Ok)], &ok(14..=19), &[(20, Before)], &ok(21..=30)]));
    lab.drain(31);
    assert_eq!((lab.eln_sets.clone(), lab.halvings()), (vec![20], 0));
}

#[test]
fn c1c_copy_lost_gives_a_spare_credit() {
    // (G_0, G_0) at 12', then (G_0, G_1) at 14: one credit with nothing missing, used on
    // the later wireline loss 20.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=13), &[(12, After)], &ok(14..=19), &[(20, Before)], &ok(21..=30)]));
    lab.drain(31);
    assert_eq!(lab.syndrome().credits_given, 1);
    assert_eq!((lab.eln_sets.clone(), lab.halvings()), (vec![20], 0));
}

#[test]
fn c1d_both_lost_two_credits_one_misused() {
    // (G_1, G_1) at 13 and (G_0, G_1) after 12': two credits, one for 12's set, the other
    // spent on the later wireline loss 20.
    let mut lab = Lab::new(SyndromeRole::Downlink);
    lab.run(&order(&[&ok(0..=11), &[(12, After), (13, Ok), (12, After)], &ok(14..=19), &[(20, Before)], &ok(21..=30)]));
    lab.drain(31);
    assert_eq!(lab.syndrome().credits_given, 2);
    assert_eq!((lab.eln_sets.clone(), lab.halvings()), (vec![12, 20], 0));
}
