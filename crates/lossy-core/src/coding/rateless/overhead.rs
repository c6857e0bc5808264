//! The fast mode's decode-success model: a block of K source symbols is decoded once it
//! has received `needed` symbols, with needed − K drawn from the excesses the real decoder
//! needed in measured trials (measure.rs), or fixed at ceil(K·overhead) (Botoș §IV.A:
//! "a rateless code with an average overhead of 5 %").
//!
//! A measurement costs about trials × one real decoding (see docs/mechanisms/
//! rateless-codes.md for the numbers), so each (code, K, trials, seed) is measured once
//! per process and kept: the runs of a sweep share it, threads wait for the first; and
//! once per machine, kept on disk (overhead_cache.rs) for the processes after it.

use super::measure::excess_table;
use super::overhead_cache::{self, Key};
use super::RatelessCode;
use crate::rng::RngStream;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The trials a scenario measures with unless it says otherwise: as many as a fixed
/// budget of decoding work allows, between 8 and 400. A trial costs about K symbols'
/// worth of work: LT's peeling is cheap per symbol (budget 600,000 symbols: 400 trials
/// up to K = 1,500, 60 at K = 10,000), RaptorQ's matrix solve dear (120,000: 120 trials
/// at K = 1,000, 12 at K = 10,000). Either is about 0.25 s of one core at K = 10,000
/// (measured: docs/mechanisms/rateless-codes.md), and trials run on every core.
pub fn default_trials(code: RatelessCode, k: u32) -> u32 {
    let budget: u64 = match code {
        RatelessCode::RaptorQ => 120_000,
        RatelessCode::Lt => 600_000,
    };
    (budget / k.max(1) as u64).clamp(8, 400) as u32
}

/// The distribution of the symbols a block of K needs beyond K.
#[derive(Clone, Debug, PartialEq)]
pub struct OverheadModel {
    k: u32,
    /// Symbols beyond K, one per trial, ascending.
    excess: Arc<[u32]>,
}

type MemoryKey = (RatelessCode, u32, u32, u64);

fn cache() -> &'static Mutex<HashMap<MemoryKey, Arc<OnceLock<OverheadModel>>>> {
    static CACHE: OnceLock<Mutex<HashMap<MemoryKey, Arc<OnceLock<OverheadModel>>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

impl OverheadModel {
    /// The model measured by `trials` runs of `code`'s real decoder on K = `k` source
    /// symbols, from `seed`; measured once per process for the same four inputs, and
    /// read from the disk cache (`overhead_cache::default_dir`) when a process before
    /// this one measured it.
    pub fn measure(code: RatelessCode, k: u32, trials: u32, seed: u64) -> Result<OverheadModel, String> {
        OverheadModel::measure_cached(code, k, trials, seed, overhead_cache::default_dir().as_deref())
    }

    /// `measure` with the disk cache in `dir` (None: none).
    pub fn measure_cached(code: RatelessCode, k: u32, trials: u32, seed: u64, dir: Option<&std::path::Path>) -> Result<OverheadModel, String> {
        let limit = match code {
            RatelessCode::RaptorQ => super::plan::RAPTORQ_MAX_BLOCK_SYMBOLS,
            RatelessCode::Lt => super::plan::LT_MAX_BLOCK_SYMBOLS,
        };
        if k == 0 || k > limit {
            return Err(format!("k: {k} source symbols; {} blocks have 1 to {limit}", code.name()));
        }
        if trials == 0 {
            return Err("trials: 0; measure at least 1 trial".into());
        }
        let cell = {
            let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
            map.entry((code, k, trials, seed)).or_default().clone()
        };
        // Outside the map's lock: other keys measure at the same time; this one once.
        let key = Key { code, k, trials, seed };
        Ok(cell
            .get_or_init(|| {
                OverheadModel::from_excess(k, overhead_cache::load_or_measure(dir, &key, || excess_table(code, k, trials, seed)))
            })
            .clone())
    }

    /// Every block needs exactly ceil(K·(1 + overhead)) symbols; `overhead` in [0, 1].
    pub fn fixed(k: u32, overhead: f64) -> Result<OverheadModel, String> {
        if !(0.0..=1.0).contains(&overhead) {
            return Err(format!("overhead: {overhead}; an overhead is 0 to 1 (0.05 = 5 %)"));
        }
        if k == 0 {
            return Err("k: 0 source symbols; a block has at least 1".into());
        }
        // Less a hair, so that 100 × 0.05 is 5 and not 5.000000000000001 → 6.
        let excess = (k as f64 * overhead - 1e-9).ceil().max(0.0) as u32;
        Ok(OverheadModel::from_excess(k, vec![excess]))
    }

    /// The model of a table of excesses (symbols beyond K, in any order).
    pub fn from_excess(k: u32, mut excess: Vec<u32>) -> OverheadModel {
        assert!(!excess.is_empty(), "an empty table");
        excess.sort_unstable();
        OverheadModel { k, excess: excess.into() }
    }

    pub fn k(&self) -> u32 {
        self.k
    }

    /// The table: symbols beyond K, one per trial, ascending.
    pub fn excess(&self) -> &[u32] {
        &self.excess
    }

    /// P(decoded | `received` distinct symbols): the share of trials that needed at most
    /// that many (the empirical CDF of the need).
    pub fn success_probability(&self, received: u64) -> f64 {
        if received < self.k as u64 {
            return 0.0;
        }
        let beyond = (received - self.k as u64).min(u32::MAX as u64) as u32;
        self.excess.partition_point(|&x| x <= beyond) as f64 / self.excess.len() as f64
    }

    /// Symbols a block needs beyond K: one trial of the table, uniformly.
    pub fn draw_excess(&self, rng: &mut RngStream) -> u32 {
        self.excess[super::below(rng.next_u64(), self.excess.len() as u64) as usize]
    }

    /// Symbols a block needs in all: K + `draw_excess`.
    pub fn draw_needed(&self, rng: &mut RngStream) -> u64 {
        self.k as u64 + self.draw_excess(rng) as u64
    }

    /// The mean of needed / K − 1: 0.05 is the paper's 5 %.
    pub fn mean_overhead(&self) -> f64 {
        let sum: u64 = self.excess.iter().map(|&x| x as u64).sum();
        sum as f64 / self.excess.len() as f64 / self.k as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_trials_shrink_with_k_within_bounds() {
        assert_eq!(default_trials(RatelessCode::Lt, 1_000), 400);
        assert_eq!(default_trials(RatelessCode::Lt, 10_000), 60);
        assert_eq!(default_trials(RatelessCode::RaptorQ, 10_000), 12);
        assert_eq!(default_trials(RatelessCode::RaptorQ, 56_403), 8);
        assert_eq!(default_trials(RatelessCode::RaptorQ, 1), 400);
    }

    #[test]
    fn fixed_overhead_is_a_step_at_ceil_k_times_one_plus_overhead() {
        let m = OverheadModel::fixed(100, 0.05).unwrap();
        assert_eq!(m.excess(), &[5]);
        assert_eq!((m.success_probability(104), m.success_probability(105)), (0.0, 1.0));
        let m = OverheadModel::fixed(1000, 0.0505).unwrap();
        assert_eq!(m.draw_needed(&mut RngStream::new(1, 0, "x")), 1051); // ceil(50.5)
        assert!((m.mean_overhead() - 0.051).abs() < 1e-12);
        assert_eq!(OverheadModel::fixed(7, 0.0).unwrap().excess(), &[0]);
    }

    #[test]
    fn bad_inputs_name_the_field() {
        assert_eq!(OverheadModel::fixed(10, 1.5).unwrap_err(), "overhead: 1.5; an overhead is 0 to 1 (0.05 = 5 %)");
        assert!(OverheadModel::fixed(10, f64::NAN).unwrap_err().starts_with("overhead: NaN"));
        assert!(OverheadModel::fixed(10, -0.1).is_err());
        assert!(OverheadModel::measure(RatelessCode::Lt, 0, 10, 1).unwrap_err().starts_with("k: 0 source symbols"));
        assert!(OverheadModel::measure(RatelessCode::RaptorQ, 56_404, 10, 1).unwrap_err().starts_with("k: 56404"));
        assert_eq!(OverheadModel::measure(RatelessCode::Lt, 10, 0, 1).unwrap_err(), "trials: 0; measure at least 1 trial");
    }

    #[test]
    fn the_success_curve_is_the_empirical_cdf_of_the_need() {
        let m = OverheadModel::from_excess(50, vec![3, 0, 1, 1]);
        let curve: Vec<f64> = (49..55).map(|r| m.success_probability(r)).collect();
        assert_eq!(curve, vec![0.0, 0.25, 0.75, 0.75, 1.0, 1.0]);
        assert!((m.mean_overhead() - 5.0 / 4.0 / 50.0).abs() < 1e-12);
    }

    #[test]
    fn draws_follow_the_table() {
        let m = OverheadModel::from_excess(10, vec![0, 0, 0, 4]);
        let mut rng = RngStream::new(2, 0, "draw");
        let n = 40_000;
        let fours = (0..n).filter(|_| m.draw_needed(&mut rng) == 14).count();
        // 1/4 of 40,000 draws: s.d. 87, so ± 500 is a 5.8-sigma band.
        assert!((fours as i64 - 10_000).abs() < 500, "{fours}");
    }

    #[test]
    fn measuring_twice_gives_the_same_table() {
        let a = OverheadModel::measure(RatelessCode::Lt, 200, 30, 9).unwrap();
        let b = OverheadModel::measure(RatelessCode::Lt, 200, 30, 9).unwrap();
        assert!(Arc::ptr_eq(&a.excess, &b.excess), "the second call is the cached one");
        let fresh = OverheadModel::from_excess(200, excess_table(RatelessCode::Lt, 200, 30, 9));
        assert_eq!(a, fresh);
        assert_ne!(a, OverheadModel::measure(RatelessCode::Lt, 200, 30, 10).unwrap());
    }

    #[test]
    fn a_model_read_from_disk_equals_a_fresh_measurement() {
        let dir = std::env::temp_dir().join(format!("lossy-overhead-model-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for code in RatelessCode::ALL {
            // Seeds no other test measures, so the process-wide cache cannot answer first.
            let key = Key { code, k: 120, trials: 10, seed: 77 };
            let table = excess_table(code, 120, 10, 77);
            let fresh = OverheadModel::from_excess(120, table.clone());
            assert_eq!(overhead_cache::read(&dir, &key), None);
            let measured = OverheadModel::measure_cached(code, 120, 10, 77, Some(&dir)).unwrap();
            let stored = overhead_cache::read(&dir, &key).expect("the measurement was written");
            assert_eq!(stored, table, "stored exactly as measured, in trial order");
            assert_eq!((measured, OverheadModel::from_excess(120, stored)), (fresh.clone(), fresh));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
