//! The propagation stage of one link direction (docs/architecture.md#pipeline): a FIFO,
//! unless the network reorders or duplicates items as in Chen et al. (WCMC 2002, §6): "a
//! packet may become out of order with probability 0.05, and the 'distance' between the
//! in-order position of a packet and its out-of-order position is uniformly distributed
//! between [1, 10] packets. Similarly, a packet may be duplicated ... with probability
//! 0.02 ..., and the 'distance' ... is uniformly distributed between [1, 20] packets".
//!
//! Our reading of "distance": a reordered item is held at its arrival time and emitted
//! right after the k-th later *ordinary* item (one emerging at its own arrival time), in
//! the same wake; a copy is held likewise for d ordinary items while its original goes
//! on. Released items and copies do not count. A held item leaves at the latest
//! `max_hold` after its arrival, so a silent link never keeps it.
//!
//! Sans-IO, generic over the item (it does not depend on `Packet`). The caller adds the
//! propagation delay (its one home) and gives each item a ticket, its event queue's
//! tie-breaker; wakes are keyed `(time, ticket)`. The two `VecDeque`s stop growing once
//! warm: no allocation per item.

use crate::channel::{check_positive, check_probability};
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use crate::units::Duration;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use crate::metrics::{Columns, Metric, Metrics};

/// `(time, ticket)`: when a wake is due and the caller's tie-breaker at that time.
/// When something in the pipeline is due: the engine's (time, ticket) key.
pub type WakeKey = crate::engine::Key;

/// Network impairments of one link direction; the default has none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ImpairConfig {
    /// Reordering: a packet is held back and delivered after a number of later packets.
    pub reorder: Option<ReorderConfig>,
    /// Duplication: the network delivers a second copy of a packet some packets later.
    pub duplicate: Option<DuplicateConfig>,
    /// Longest time a held-back packet or copy waits for later packets before it is
    /// delivered anyway (default "1 s"), so a link that falls silent never keeps one.
    pub max_hold: Duration,
}

/// `reorder = { p = 0.05, displacement = [1, 10] }` (Chen et al. §6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReorderConfig {
    /// Probability that a packet is delivered out of order, in [0, 1] (Chen et al.: 0.05).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub p: f64,
    /// [a, b]: an out-of-order packet is delivered after k later packets, k uniform on
    /// the integers a..=b, 1 <= a <= b (default [1, 10], Chen et al. §6).
    #[serde(default = "chen_displacement")]
    pub displacement: [u32; 2],
}

/// `duplicate = { p = 0.02, distance = [1, 20] }` (Chen et al. §6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DuplicateConfig {
    /// Probability that a packet is duplicated, in [0, 1] (Chen et al.: 0.02).
    #[schemars(range(min = 0.0, max = 1.0))]
    pub p: f64,
    /// [a, b]: the copy is delivered after d later packets, d uniform on the integers
    /// a..=b, 1 <= a <= b (default [1, 20], Chen et al. §6).
    #[serde(default = "chen_distance")]
    pub distance: [u32; 2],
}

fn chen_displacement() -> [u32; 2] { [1, 10] }
fn chen_distance() -> [u32; 2] { [1, 20] }

impl Default for ImpairConfig {
    fn default() -> Self {
        ImpairConfig { reorder: None, duplicate: None, max_hold: Duration::from_secs(1) }
    }
}

/// `field: [5, 2] is not a range; use [a, b] with 1 <= a <= b` unless 1 ≤ a ≤ b.
fn check_range(field: &str, [a, b]: [u32; 2]) -> Result<(), String> {
    if 1 <= a && a <= b {
        Ok(())
    } else {
        Err(format!("{field}: [{a}, {b}] is not a range; use [a, b] with 1 <= a <= b"))
    }
}

impl ImpairConfig {
    /// Checks every field; the message names the field, the value and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(r) = &self.reorder {
            check_probability("reorder.p", r.p)?;
            check_range("reorder.displacement", r.displacement)?;
        }
        if let Some(d) = &self.duplicate {
            check_probability("duplicate.p", d.p)?;
            check_range("duplicate.distance", d.distance)?;
        }
        check_positive("max_hold", self.max_hold)
    }

    /// True when no item is ever reordered or duplicated.
    pub fn is_none(&self) -> bool {
        self.reorder.as_ref().is_none_or(|r| r.p == 0.0)
            && self.duplicate.as_ref().is_none_or(|d| d.p == 0.0)
    }
}

/// Uniform on the integers of [a, b]: a + ⌊u·(b − a + 1)⌋ from one 53-bit uniform u. The
/// bias is below 2⁻²⁰ per value for any u32 range; `min` guards the rounding of u·n to n.
fn uniform_int(rng: &mut RngStream, [a, b]: [u32; 2]) -> u32 {
    let n = (b - a) as u64 + 1;
    a + ((rng.uniform() * n as f64) as u64).min(n - 1) as u32
}

/// k (or d) when the impairment strikes, else 0: a bernoulli draw, then k if chosen.
fn draw(rng: &mut RngStream, impairment: Option<(f64, [u32; 2])>) -> u32 {
    match impairment {
        Some((p, range)) if rng.bernoulli(p) => uniform_int(rng, range),
        _ => 0,
    }
}

/// What happens to an item at its arrival time, decided when it enters (0 = no).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Fate {
    /// Held until this many later ordinary items have emerged.
    reorder: u32,
    /// A copy is held until this many later ordinary items have emerged.
    duplicate: u32,
}

/// An item before its arrival time; `key` is (arrival, ticket).
#[derive(Clone, Copy, Debug)]
struct InFlight<T> {
    key: WakeKey,
    item: T,
    fate: Fate,
}

/// A held item: released when `ordinary` reaches `release_at`, or at its deadline
/// `key` = (arrival + max_hold, ticket), whichever comes first.
#[derive(Clone, Copy, Debug)]
struct Held<T> {
    key: WakeKey,
    release_at: u64,
    item: T,
}

/// What went through a pipeline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PipelineCounters {
    /// Items pushed.
    pub entered: u64,
    /// Items held back at their arrival time (counted then, like `duplicated`).
    pub reordered: u64,
    /// Copies created (at the original's arrival time, so a drained item makes none).
    pub duplicated: u64,
    /// Items and copies emitted; `entered + duplicated = emitted + drained + held()`.
    pub emitted: u64,
    /// Of `emitted`, held items released by `max_hold` rather than by later items.
    pub expired: u64,
}

impl PipelineCounters {
    /// Their columns, which every link direction's row has: packets the pipeline
    /// delivered out of order, and copies it created.
    pub const COLUMNS: &'static Columns = &[("reordered", Metric::U64(0)), ("duplicated", Metric::U64(0))];

    pub fn report(&self, out: &mut Metrics) {
        out.set("reordered", self.reordered);
        out.set("duplicated", self.duplicated);
    }
}

/// One link direction's propagation stage.
#[derive(Clone, Debug)]
pub struct Pipeline<T: Copy> {
    reorder: Option<(f64, [u32; 2])>,
    duplicate: Option<(f64, [u32; 2])>,
    max_hold: SimDuration,
    rng: RngStream,
    /// Items not yet at their arrival time, in key order.
    fifo: VecDeque<InFlight<T>>,
    /// Held items in the order they were held, which is also their deadlines' key order.
    holding: VecDeque<Held<T>>,
    /// No impairment configured: a plain FIFO, served by a fast path.
    plain: bool,
    /// Ordinary items emitted so far.
    ordinary: u64,
    /// No held item has `release_at` below this (it may be stale low: then a scan finds
    /// nothing and refreshes it), so most ordinary items skip the scan.
    next_release: u64,
    pub counters: PipelineCounters,
}

impl<T: Copy> Pipeline<T> {
    /// A pipeline drawing from `rng` (e.g. the stream `link:A->B:impair`). Call
    /// [`ImpairConfig::validate`] first.
    pub fn new(cfg: &ImpairConfig, rng: RngStream) -> Self {
        debug_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
        Pipeline {
            reorder: cfg.reorder.as_ref().map(|r| (r.p, r.displacement)),
            duplicate: cfg.duplicate.as_ref().map(|d| (d.p, d.distance)),
            max_hold: cfg.max_hold.0,
            plain: cfg.reorder.is_none() && cfg.duplicate.is_none(),
            rng,
            fifo: VecDeque::new(),
            holding: VecDeque::new(),
            ordinary: 0,
            next_release: u64::MAX,
            counters: PipelineCounters::default(),
        }
    }

    /// An item whose transmission ended arrives at the far end at `arrival` (end of
    /// transmission + propagation delay). Pushes come in non-decreasing (arrival, ticket)
    /// order. Draws, per item: reorder (bernoulli, then k if chosen), then duplicate
    /// (bernoulli, then d if chosen); nothing for an impairment not configured.
    // Inlined in the point-to-point segment's `finish`, the per-packet path.
    #[inline(always)]
    pub fn push(&mut self, arrival: SimTime, ticket: u64, item: T) {
        if self.plain {
            // No impairment configured (`plain` is never true with one): nothing draws and
            // the fate is ordinary, so straight into the FIFO.
            debug_assert!(self.reorder.is_none() && self.duplicate.is_none());
            return self.enter(arrival, ticket, item, Fate::default());
        }
        let reorder = draw(&mut self.rng, self.reorder);
        let duplicate = draw(&mut self.rng, self.duplicate);
        self.enter(arrival, ticket, item, Fate { reorder, duplicate });
    }

    #[inline(always)]
    fn enter(&mut self, arrival: SimTime, ticket: u64, item: T, fate: Fate) {
        let key = WakeKey { time: arrival, ticket };
        debug_assert!(self.fifo.back().map(|b| b.key) <= Some(key), "pushed out of order");
        self.counters.entered += 1;
        // An impaired item takes the full path (only tests give fates without a config).
        self.plain &= fate.reorder == 0 && fate.duplicate == 0;
        self.fifo.push_back(InFlight { key, item, fate });
    }

    /// The key of the next thing due: the FIFO head's arrival or a held item's deadline.
    pub fn next_wake(&self) -> Option<WakeKey> {
        if self.plain {
            return self.fifo.front().map(|f| f.key);
        }
        self.due().map(|(key, _)| key)
    }

    /// `(key, true)` if the next thing due is a held item's deadline; at equal keys the
    /// held item (which arrived earlier) goes first.
    fn due(&self) -> Option<(WakeKey, bool)> {
        match (self.holding.front().map(|h| h.key), self.fifo.front().map(|f| f.key)) {
            (Some(h), Some(f)) if f < h => Some((f, false)),
            (Some(h), _) => Some((h, true)),
            (None, f) => f.map(|f| (f, false)),
        }
    }

    /// Emits, in order, what is due at `key` (and anything due before it that a caller
    /// skipped): a caller that wakes once per key from `next_wake` sees exactly the
    /// items of that key.
    pub fn wake(&mut self, key: WakeKey, mut out: impl FnMut(T)) {
        if self.plain {
            while let Some(f) = self.fifo.front().filter(|f| f.key <= key) {
                let item = f.item;
                self.fifo.pop_front();
                self.counters.emitted += 1;
                self.ordinary += 1;
                out(item);
            }
            return;
        }
        while let Some((_, is_held)) = self.due().filter(|&(k, _)| k <= key) {
            if !is_held {
                self.arrive(&mut out);
                continue;
            }
            let h = self.holding.pop_front().expect("due() saw it");
            self.counters.emitted += 1;
            self.counters.expired += 1;
            out(h.item);
        }
    }

    /// The FIFO head reaches its arrival time.
    fn arrive(&mut self, out: &mut impl FnMut(T)) {
        let f = self.fifo.pop_front().expect("due() saw it");
        if f.fate.reorder > 0 {
            self.counters.reordered += 1;
            self.hold(&f, f.fate.reorder);
        } else {
            out(f.item);
            self.counters.emitted += 1;
            self.ordinary += 1;
            self.release_due(out);
        }
        if f.fate.duplicate > 0 {
            self.counters.duplicated += 1;
            self.hold(&f, f.fate.duplicate);
        }
    }

    fn hold(&mut self, f: &InFlight<T>, after: u32) {
        let release_at = self.ordinary + after as u64;
        self.next_release = self.next_release.min(release_at);
        let key = WakeKey { time: f.key.time + self.max_hold, ticket: f.key.ticket };
        self.holding.push_back(Held { key, release_at, item: f.item });
    }

    /// Emits, in the order they were held, the held items whose count is reached.
    fn release_due(&mut self, out: &mut impl FnMut(T)) {
        if self.ordinary < self.next_release {
            return;
        }
        let (now, mut next, mut n) = (self.ordinary, u64::MAX, 0);
        self.holding.retain(|h| {
            if h.release_at <= now {
                out(h.item);
                n += 1;
                false
            } else {
                next = next.min(h.release_at);
                true
            }
        });
        self.counters.emitted += n;
        self.next_release = next;
    }

    /// Every item inside: not yet arrived, held back, or a held copy.
    pub fn held(&self) -> usize {
        self.fifo.len() + self.holding.len()
    }

    /// Empties the pipeline (the link went down), handing each item to `f` (not yet
    /// arrived first, then held, each in order); the caller counts them as dropped.
    pub fn drain(&mut self, mut f: impl FnMut(T)) {
        self.fifo.drain(..).for_each(|x| f(x.item));
        self.holding.drain(..).for_each(|h| f(h.item));
        self.next_release = u64::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const US: u64 = 1_000;

    fn cfg(reorder: Option<(f64, [u32; 2])>, dup: Option<(f64, [u32; 2])>) -> ImpairConfig {
        ImpairConfig {
            reorder: reorder.map(|(p, displacement)| ReorderConfig { p, displacement }),
            duplicate: dup.map(|(p, distance)| DuplicateConfig { p, distance }),
            max_hold: Duration::from_secs(1),
        }
    }

    fn pipe(c: &ImpairConfig, seed: u64) -> Pipeline<u32> {
        Pipeline::new(c, RngStream::new(seed, 0, "link:A->B:impair"))
    }

    /// A key as the (time, ticket) pair the assertions write.
    fn pair(k: WakeKey) -> (SimTime, u64) {
        (k.time, k.ticket)
    }

    /// The next key due, as a pair.
    fn next(p: &Pipeline<u32>) -> Option<(SimTime, u64)> {
        p.next_wake().map(pair)
    }

    /// Wakes at every key until empty; returns (key, item) per emitted item.
    fn run(p: &mut Pipeline<u32>) -> Vec<((SimTime, u64), u32)> {
        let mut v = Vec::new();
        while let Some(k) = p.next_wake() {
            p.wake(k, |x| v.push((pair(k), x)));
        }
        v
    }

    fn items(v: &[((SimTime, u64), u32)]) -> Vec<u32> {
        v.iter().map(|&(_, x)| x).collect()
    }

    #[test]
    fn fifo_order_and_keys_without_impairment() {
        let mut p = pipe(&ImpairConfig::default(), 1);
        assert!(ImpairConfig::default().is_none() && p.next_wake().is_none());
        for (i, t) in [(0, 5), (1, 5), (2, 9)] {
            p.push(SimTime(t * US), 10 + i as u64, i);
        }
        assert_eq!((p.held(), next(&p)), (3, Some((SimTime(5 * US), 10))));
        let (t5, t9) = (SimTime(5 * US), SimTime(9 * US));
        assert_eq!(run(&mut p), [((t5, 10), 0), ((t5, 11), 1), ((t9, 12), 2)]);
        assert_eq!(p.held(), 0);
        assert_eq!(p.counters, PipelineCounters { entered: 3, emitted: 3, ..Default::default() });
    }

    /// Item i enters at `times[i]` µs (default i µs) with the given (reorder, duplicate).
    fn scripted(fates: &[(u32, u32)], times: &[u64]) -> Vec<((SimTime, u64), u32)> {
        let mut p = pipe(&ImpairConfig::default(), 1);
        for (i, &(reorder, duplicate)) in fates.iter().enumerate() {
            let t = SimTime(times.get(i).map_or(i as u64, |&t| t) * US);
            p.enter(t, i as u64, i as u32, Fate { reorder, duplicate });
        }
        run(&mut p)
    }

    #[test]
    fn a_held_item_follows_the_kth_later_ordinary_item() {
        // Item 1 reordered by 3, item 3 by 1: item 3 does not count for item 1.
        let f = [(0, 0), (3, 0), (0, 0), (1, 0), (0, 0), (0, 0), (0, 0)];
        assert_eq!(items(&scripted(&f, &[])), [0, 2, 4, 3, 5, 1, 6]);
        // Item 0 duplicated at distance 2 and reordered by 1; ties leave in holding order.
        assert_eq!(items(&scripted(&[(1, 2), (0, 0), (0, 0), (0, 0)], &[])), [1, 0, 2, 0, 3]);
        assert_eq!(items(&scripted(&[(2, 2), (0, 0), (0, 0)], &[])), [1, 2, 0, 0]);
    }

    #[test]
    fn duplication_with_p_1_and_distance_3_in_exact_order() {
        let mut p = pipe(&cfg(None, Some((1.0, [3, 3]))), 2);
        (0..6).for_each(|i| p.push(SimTime(i as u64 * US), i as u64, i));
        // Copies of 3, 4, 5 have no 3 later items: they leave at max_hold, in order.
        assert_eq!(items(&run(&mut p)), [0, 1, 2, 3, 0, 4, 1, 5, 2, 3, 4, 5]);
        let n = p.counters;
        assert_eq!((n.duplicated, n.emitted, n.expired), (6, 12, 3));
    }

    #[test]
    fn reorder_with_p_1_and_k_3_holds_everything_until_max_hold() {
        // With p = 1 no item is ordinary, so nothing is released by count.
        let mut p = pipe(&cfg(Some((1.0, [3, 3])), None), 3);
        (0..4).for_each(|i| p.push(SimTime(i as u64 * US), 7 + i as u64, i));
        p.wake(p.next_wake().unwrap(), |_| panic!("held, not emitted"));
        let deadline = SimTime::ZERO + SimDuration::from_secs(1);
        assert_eq!(next(&p), Some((SimTime(US), 8)));
        p.wake(WakeKey { time: SimTime(3 * US), ticket: 10 }, |_| panic!("held, not emitted"));
        assert_eq!((p.held(), next(&p)), (4, Some((deadline, 7))));
        let out = run(&mut p);
        assert_eq!(out[3], ((deadline + SimDuration(3 * US), 10), 3));
        assert_eq!((items(&out), p.counters.expired), (vec![0, 1, 2, 3], 4));
    }

    #[test]
    fn a_deadline_interleaves_with_later_arrivals() {
        let out = scripted(&[(3, 0), (0, 0), (0, 0)], &[0, 500_000, 2_000_000]);
        let keys: Vec<_> = out.iter().map(|&(k, x)| (k.0 .0 / US, k.1, x)).collect();
        assert_eq!(keys, [(500_000, 1, 1), (1_000_000, 0, 0), (2_000_000, 2, 2)]);
    }

    #[test]
    fn drain_empties_and_conserves() {
        let c = cfg(Some((0.3, [1, 10])), Some((0.3, [1, 20])));
        let mut p = pipe(&c, 4);
        (0..1000).for_each(|i| p.push(SimTime(i as u64 * US), i as u64, i));
        let (mut emitted, mut drained) = (0u64, 0u64);
        p.wake(WakeKey { time: SimTime(600 * US), ticket: 600 }, |_| emitted += 1);
        assert!(p.held() > 399, "399 not yet arrived, and some held");
        p.drain(|_| drained += 1);
        let n = p.counters;
        assert_eq!((p.held(), p.next_wake(), emitted), (0, None, n.emitted));
        assert_eq!(n.entered + n.duplicated, n.emitted + drained);
    }

    #[test]
    fn draws_are_reorder_then_duplicate_per_item() {
        let c = cfg(Some((0.5, [1, 10])), Some((0.5, [1, 20])));
        let mut p = pipe(&c, 5);
        let mut rng = RngStream::new(5, 0, "link:A->B:impair");
        for i in 0..200 {
            p.push(SimTime(i), i, 0);
            let r = if rng.bernoulli(0.5) { uniform_int(&mut rng, [1, 10]) } else { 0 };
            let d = if rng.bernoulli(0.5) { uniform_int(&mut rng, [1, 20]) } else { 0 };
            assert_eq!(p.fifo.back().unwrap().fate, Fate { reorder: r, duplicate: d });
        }
    }

    /// Runs `n` items 1 µs apart, tagged by index, and measures from the output alone: how
    /// many were not emitted at their own arrival, and per held emission the ordinary
    /// items between arrival and release (a copy's distance if the item was ordinary,
    /// else a displacement). Left out: items both reordered and duplicated (their two
    /// held emissions look alike; the coins alone choose them, so k and d stay unbiased)
    /// and the last 1000 items, which may leave at max_hold for want of later items.
    fn measure(c: &ImpairConfig, n: usize) -> (usize, Vec<u32>, Vec<u32>, PipelineCounters) {
        let mut p = pipe(c, 6);
        (0..n).for_each(|i| p.push(SimTime(i as u64 * US), i as u64, i as u32));
        let (mut count, mut ord_at, mut ordinary) = (0u32, vec![0u32; n], vec![false; n]);
        let (mut extra, mut samples) = (vec![0u8; n], Vec::new());
        // Every arrival (at i µs) comes before every deadline (>= 1 s).
        while let Some(key) = p.next_wake().filter(|k| k.time == SimTime(k.ticket * US)) {
            let j = key.ticket as usize;
            p.wake(key, |x| {
                let x = x as usize;
                if x == j {
                    (count, ordinary[j]) = (count + 1, true);
                } else {
                    extra[x] += 1;
                    samples.push((x, count - ord_at[x]));
                }
            });
            ord_at[j] = count;
        }
        let (mut ks, mut ds) = (Vec::new(), Vec::new());
        for &(x, d) in samples.iter().filter(|s| s.0 < n - 1000) {
            match (ordinary[x], extra[x]) {
                (true, _) => ds.push(d),
                (false, 1) => ks.push(d),
                _ => {}
            }
        }
        (n - count as usize, ks, ds, p.counters)
    }

    /// Asserts |measured − p| ≤ 4 standard errors of a binomial proportion over `n`
    /// (two-sided normal tail 6e-5; the seed is fixed, so the result is deterministic).
    fn within_4_se(what: &str, count: usize, n: usize, p: f64) {
        let (m, se) = (count as f64 / n as f64, (p * (1.0 - p) / n as f64).sqrt());
        println!("{what}: measured {m:.5}, expected {p:.5} ± {se:.5} (1 se), n = {n}");
        assert!((m - p).abs() <= 4.0 * se, "{what}: {m} vs {p} ± 4 × {se}");
    }

    /// Each value of [a, b] within 4 standard errors of 1/(b − a + 1), and the whole
    /// histogram by Pearson's χ² (df = b − a) below its 1 − 1e-4 quantile, which a mild
    /// tilt across many values would exceed where no single cell does.
    fn uniform_on(what: &str, xs: &[u32], [a, b]: [u32; 2]) {
        assert!(xs.iter().all(|x| (a..=b).contains(x)), "{what} outside [{a}, {b}]");
        let q = 1.0 / (b - a + 1) as f64;
        let expected = q * xs.len() as f64;
        let mut chi2 = 0.0;
        for v in a..=b {
            let count = xs.iter().filter(|&&x| x == v).count();
            within_4_se(&format!("{what} = {v}"), count, xs.len(), q);
            chi2 += (count as f64 - expected).powi(2) / expected;
        }
        let bound = chi2_upper_quantile((b - a) as f64, 3.719);
        println!("{what}: chi2 {chi2:.2} on {} df, bound {bound:.2}", b - a);
        assert!(chi2 <= bound, "{what}: chi2 {chi2} above {bound} (df {})", b - a);
    }

    /// The χ² quantile at standard normal quantile `z` (3.719: 1 − 1e-4), by Wilson and
    /// Hilferty's cube-root approximation (above the exact value by 3.5 % at df = 3, 1.3 %
    /// at 9, 0.6 % at 19: 21.84, 34.15, 51.08 against 21.11, 33.72, 50.80).
    fn chi2_upper_quantile(df: f64, z: f64) -> f64 {
        let c = 2.0 / (9.0 * df);
        df * (1.0 - c + z * c.sqrt()).powi(3)
    }

    #[test]
    fn chen_rates_and_uniform_distances_over_200k_items() {
        let n = 200_000;
        let (mut rc, mut dc) = ((0.05, [1, 10]), (0.02, [1, 20]));
        let (reordered, ks, ds, counters) = measure(&cfg(Some(rc), Some(dc)), n);
        assert_eq!(reordered as u64, counters.reordered);
        within_4_se("reorder rate", reordered, n, rc.0);
        within_4_se("duplicate rate", counters.duplicated as usize, n, dc.0);
        uniform_on("displacement", &ks, rc.1);
        uniform_on("distance", &ds, dc.1);
        // Narrow ranges away from 1, each impairment alone.
        (rc, dc) = ((0.2, [4, 7]), (0.1, [2, 5]));
        uniform_on("displacement [4, 7]", &measure(&cfg(Some(rc), None), n).1, rc.1);
        uniform_on("distance [2, 5]", &measure(&cfg(None, Some(dc)), n).2, dc.1);
    }

    #[test]
    fn configs_parse_with_defaults_and_bad_ones_name_the_field_value_and_rule() {
        let c: ImpairConfig = serde_json::from_str(r#"{"reorder":{"p":0.05}}"#).unwrap();
        assert_eq!(c, cfg(Some((0.05, [1, 10])), None));
        let d: ImpairConfig = serde_json::from_str(r#"{"duplicate":{"p":0.02}}"#).unwrap();
        assert_eq!(d.duplicate.unwrap().distance, [1, 20]);
        assert!(!c.is_none() && cfg(Some((0.0, [1, 1])), None).is_none());
        let e = serde_json::from_str::<ImpairConfig>(r#"{"reorder":{"p":0.1,"k":3}}"#);
        assert!(e.unwrap_err().to_string().contains("unknown field `k`"));
        let zero = ImpairConfig { max_hold: Duration::from_secs(0), ..Default::default() };
        let prob = "is not a probability; use a number in [0, 1]";
        let range = "is not a range; use [a, b] with 1 <= a <= b";
        for (c, msg) in [
            (cfg(Some((1.5, [1, 10])), None), format!("reorder.p: 1.5 {prob}")),
            (cfg(Some((0.1, [5, 2])), None), format!("reorder.displacement: [5, 2] {range}")),
            (cfg(None, Some((-0.1, [1, 3]))), format!("duplicate.p: -0.1 {prob}")),
            (cfg(None, Some((0.1, [0, 3]))), format!("duplicate.distance: [0, 3] {range}")),
            (zero, "max_hold: 0 s is not a positive duration; use e.g. \"75 ms\"".into()),
        ] {
            assert_eq!(c.validate().unwrap_err(), msg);
        }
    }
}
