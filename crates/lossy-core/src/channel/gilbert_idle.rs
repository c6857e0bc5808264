//! The Gilbert chain's clock while the link is idle (`slot` on `model = "gilbert"` with
//! packet units).
//!
//! Chockalingam et al. fit their two-state chain (Eq. 1) to link packets sent back to
//! back: one step per link packet time T. A fading channel keeps changing while the link
//! is idle (a TCP sender waiting for a timeout, an ACK-clocked flow with gaps), so with
//! `slot = T` the chain takes one step per transmission and one more per slot of idle
//! time between the end of a transmission and the start of the next. The fraction of a
//! slot left over carries to the next gap, so the chain keeps pace with time however
//! the gaps fall. Back-to-back transmissions (each starts where the last ended) see no
//! idle slot, and then the chain is exactly the slotless one.
//!
//! A gap of many slots costs O(1): within the current stay it shortens the stay; when
//! the stay ends in the gap the state after it comes from the n-step law of the chain
//! ([`state_after`]), never from a draw per slot.

use crate::channel::TxSpan;
use crate::time::{SimDuration, SimTime};

/// Counts whole idle slots between transmissions, carrying the remainder.
#[derive(Clone, Debug)]
pub(crate) struct IdleSlots {
    slot_ns: u64,
    last_end: Option<SimTime>,
    /// Idle nanoseconds not yet making a whole slot.
    carry_ns: u64,
}

impl IdleSlots {
    pub fn new(slot: SimDuration) -> Self {
        IdleSlots { slot_ns: slot.as_nanos().max(1), last_end: None, carry_ns: 0 }
    }

    /// Whole slots of idle time between the previous transmission's end and the start of
    /// `tx` (0 for the first), and `tx` becomes the previous one.
    pub fn steps_before(&mut self, tx: TxSpan) -> u64 {
        let Some(prev) = self.last_end.replace(tx.end.max(tx.start)) else { return 0 };
        let idle = tx.start.since(prev).as_nanos().saturating_add(self.carry_ns);
        self.carry_ns = idle % self.slot_ns;
        idle / self.slot_ns
    }
}

/// P(Bad n steps after a step in Bad, if `from_bad`, else in Good) for the chain with
/// P(G→B) = a, P(B→G) = b: π_B + (1{from_bad} − π_B)·(1 − a − b)^n, π_B = a/(a + b).
pub(crate) fn state_after(a: f64, b: f64, from_bad: bool, n: u64) -> f64 {
    let s = a + b;
    if s <= 0.0 {
        return if from_bad { 1.0 } else { 0.0 }; // the chain never moves
    }
    let pi_bad = a / s;
    let start = if from_bad { 1.0 } else { 0.0 };
    (pi_bad + (start - pi_bad) * power(1.0 - s, n)).clamp(0.0, 1.0)
}

/// x^n for a whole n of any size (x in [−1, 1]).
fn power(x: f64, n: u64) -> f64 {
    match i32::try_from(n) {
        Ok(k) => x.powi(k),
        Err(_) => {
            let m = x.abs().powf(n as f64);
            if x < 0.0 && n % 2 == 1 {
                -m
            } else {
                m
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::testutil::assert_within;
    use crate::channel::gilbert::GilbertUnit;
    use crate::channel::{Gilbert, GilbertConfig, LossConfig, LossProcess};
    use crate::rng::RngStream;
    use crate::units::Duration;

    const SLOT: u64 = 170_667; // ns: a 256-bit link packet at 1.5 Mbit/s

    fn chain(p_ge: f64, p_eg: f64, slot: Option<u64>) -> Gilbert {
        Gilbert::new(&GilbertConfig {
            p_ge,
            p_eg,
            unit: GilbertUnit::Packet,
            ber_good: 0.0,
            ber_bad: 1.0,
            slot: slot.map(|ns| Duration(SimDuration(ns))),
        })
    }

    fn span(start: u64, len: u64) -> TxSpan {
        TxSpan { start: SimTime(start), end: SimTime(start + len), bits: 256 }
    }

    #[test]
    fn idle_slots_carry_the_remainder() {
        let mut idle = IdleSlots::new(SimDuration(100));
        assert_eq!(idle.steps_before(span(0, 100)), 0); // the first
        assert_eq!(idle.steps_before(span(100, 100)), 0); // back to back
        assert_eq!(idle.steps_before(span(450, 100)), 2); // 250 idle: 2 slots, 50 carried
        assert_eq!(idle.steps_before(span(600, 100)), 1); // 50 + 50
        assert_eq!(idle.steps_before(span(700, 100)), 0);
    }

    #[test]
    fn n_step_law() {
        assert_eq!(state_after(0.1, 0.3, true, 0), 1.0);
        assert!((state_after(0.1, 0.3, true, 1) - 0.7).abs() < 1e-15);
        assert!((state_after(0.1, 0.3, false, 1) - 0.1).abs() < 1e-15);
        assert!((state_after(0.1, 0.3, false, 1 << 40) - 0.25).abs() < 1e-15);
        // a = b = 1 alternates: odd n flips, even n returns, for n beyond i32 too.
        assert_eq!(state_after(1.0, 1.0, true, (1 << 40) + 1), 0.0);
        assert_eq!(state_after(1.0, 1.0, true, 1 << 40), 1.0);
        assert_eq!(state_after(0.0, 0.0, true, 5), 1.0);
    }

    /// With a slot, back-to-back transmissions (and codeword counts) draw exactly what
    /// the slotless chain draws.
    #[test]
    fn back_to_back_equals_the_slotless_chain() {
        let (mut with, mut without) = (chain(0.05, 0.2, Some(SLOT)), chain(0.05, 0.2, None));
        let (mut r1, mut r2) = (RngStream::new(4, 0, "a"), RngStream::new(4, 0, "a"));
        let (mut cw1, mut cw2) = ([0u32; 3], [0u32; 3]);
        for i in 0..100_000u64 {
            let tx = span(i * SLOT, SLOT);
            if i % 3 == 0 {
                with.codeword_errors(tx, 255, &mut cw1, &mut r1);
                without.codeword_errors(tx, 255, &mut cw2, &mut r2);
                assert_eq!(cw1, cw2, "packet {i}");
            } else {
                assert_eq!(with.lost(tx, &mut r1), without.lost(tx, &mut r2), "packet {i}");
            }
        }
        assert_eq!(r1.next_u64(), r2.next_u64());
    }

    /// Pairs of packets `gap` idle slots apart, every pair far from the last: the second
    /// is lost given the first was with probability P^(gap+1)[B, B], and after a long gap
    /// that is π_B, the stationary law (no memory left). 2·10^5 pairs; 5 standard errors.
    #[test]
    fn idle_slots_step_the_chain_by_the_n_step_law() {
        let (a, b) = (0.1, 0.3);
        for gap in [0u64, 1, 3, 10_000] {
            let mut ch = chain(a, b, Some(SLOT));
            let mut rng = RngStream::new(5, gap, "idle");
            let (mut first_lost, mut both_lost, mut lost, mut sent) = (0u64, 0u64, 0u64, 0u64);
            let mut t = 0u64;
            for _ in 0..200_000 {
                let x = ch.lost(span(t, SLOT), &mut rng);
                t += SLOT + gap * SLOT;
                let y = ch.lost(span(t, SLOT), &mut rng);
                t += SLOT + 100 * SLOT; // decorrelates the pairs: 0.6^101 ≈ 4e-23
                first_lost += x as u64;
                both_lost += (x && y) as u64;
                lost += x as u64 + y as u64;
                sent += 2;
            }
            let pi_bad = a / (a + b);
            let cond = both_lost as f64 / first_lost as f64;
            let want = state_after(a, b, true, gap + 1);
            let se = (want * (1.0 - want) / first_lost as f64).sqrt();
            assert_within(&format!("P(lost | lost {gap} slots before)"), cond, se, want, 5.0);
            let loss = lost as f64 / sent as f64;
            let se = (pi_bad * (1.0 - pi_bad) / sent as f64).sqrt() * 2.0;
            assert_within(&format!("loss with gaps of {gap} slots"), loss, se, pi_bad, 5.0);
        }
        // After a long gap the second packet forgets the first.
        assert!((state_after(a, b, true, 10_001) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn a_long_gap_costs_few_draws() {
        // 10^12 idle slots with mean stays of 2 and 3 slots: O(1) work, not a loop.
        let mut ch = chain(0.5, 0.3, Some(1));
        let mut rng = RngStream::new(6, 0, "idle");
        ch.lost(span(0, 1), &mut rng);
        let t = std::time::Instant::now();
        ch.lost(span(1_000_000_000_000, 1), &mut rng);
        assert!(t.elapsed().as_millis() < 100);
    }

    #[test]
    fn slot_is_validated_and_round_trips() {
        let de = |j: &str| serde_json::from_str::<LossConfig>(j).unwrap();
        let cfg = de(r#"{"model":"gilbert","p_ge":0.01,"p_eg":0.1,"slot":"170667 ns"}"#);
        cfg.validate().unwrap();
        let text = serde_json::to_string(&cfg).unwrap();
        assert!(text.contains(r#""slot":"170667 ns""#), "{text}");
        assert_eq!(de(&text), cfg);
        assert!(!serde_json::to_string(&de(r#"{"model":"gilbert","p_ge":0.01,"p_eg":0.1}"#))
            .unwrap()
            .contains("slot"));
        assert_eq!(
            de(r#"{"model":"gilbert","p_ge":0.01,"p_eg":0.1,"slot":0}"#).validate().unwrap_err(),
            "slot: 0 s is not a positive duration; use e.g. \"170667 ns\" (one link packet time)"
        );
        assert_eq!(
            de(r#"{"model":"gilbert","p_ge":0.01,"p_eg":0.1,"unit":"bit","slot":"1 ms"}"#)
                .validate()
                .unwrap_err(),
            "slot: 0.001 s is allowed only with unit = \"packet\" (bits step with the bits sent); \
             leave slot out, or use unit = \"packet\""
        );
    }
}
