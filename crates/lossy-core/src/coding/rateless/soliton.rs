//! The LT code's graph: each encoded symbol is the XOR of d source symbols, d drawn from
//! the robust soliton distribution and the d neighbours uniformly without repeats, all
//! from (code seed, block, symbol id) alone, so the receiver rebuilds a symbol's
//! neighbours from its id (Luby, "LT codes", FOCS 2002, §2 and Def. 11).
//!
//! Robust soliton μ(d) = (ρ(d) + τ(d)) / β, d = 1..K (Luby 2002 Def. 11):
//! - ideal soliton ρ(1) = 1/K, ρ(d) = 1/(d(d − 1));
//! - R = c·ln(K/δ)·√K, τ(d) = R/(dK) for d < K/R, τ(K/R) = R·ln(R/δ)/K, 0 beyond;
//! - β = Σ ρ + τ.
//!
//! Luby proves K + O(√K·ln²(K/δ)) symbols decode with probability at least 1 − δ. Our
//! defaults c = 0.03, δ = 0.5 are one of MacKay's worked examples (D. J. C. MacKay,
//! Information Theory, Inference, and Learning Algorithms, CUP 2003, §50.2, Fig. 50.4:
//! K = 10,000, R = 30, K/R = 337). Two readings of ours: the spike sits
//! at round(K/R), clamped to 1..K; and R is at least 1, so ln(R/δ) > 0 and the spike's
//! mass is never negative for small K (where c·ln(K/δ)·√K < δ).

use super::below;
use rand_core::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use std::sync::Arc;

/// Luby's c (Def. 11): larger c, more degree-1 symbols and a larger spike.
pub const LT_C: f64 = 0.03;
/// Luby's δ (Def. 11): the failure probability the bound is stated for.
pub const LT_DELTA: f64 = 0.5;

/// The robust soliton distribution on 1..=K, as its cumulative table.
#[derive(Clone, Debug)]
pub struct RobustSoliton {
    cdf: Vec<f64>,
}

impl RobustSoliton {
    pub fn new(k: u32, c: f64, delta: f64) -> RobustSoliton {
        assert!(k >= 1 && c > 0.0 && delta > 0.0 && delta < 1.0, "K = {k}, c = {c}, δ = {delta}");
        let kf = k as f64;
        let r = (c * (kf / delta).ln() * kf.sqrt()).max(1.0);
        let spike = ((kf / r).round() as u32).clamp(1, k);
        let mut mass = Vec::with_capacity(k as usize);
        for d in 1..=k {
            let df = d as f64;
            let rho = if d == 1 { 1.0 / kf } else { 1.0 / (df * (df - 1.0)) };
            let tau = match d.cmp(&spike) {
                std::cmp::Ordering::Less => r / (df * kf),
                std::cmp::Ordering::Equal => r * (r / delta).ln() / kf,
                std::cmp::Ordering::Greater => 0.0,
            };
            mass.push(rho + tau);
        }
        let beta: f64 = mass.iter().sum();
        let mut acc = 0.0;
        let mut cdf: Vec<f64> = mass.iter().map(|m| { acc += m / beta; acc }).collect();
        *cdf.last_mut().unwrap() = 1.0; // no rounding gap at the top
        RobustSoliton { cdf }
    }

    /// The default code of K source symbols (c = 0.03, δ = 0.5).
    pub fn default_for(k: u32) -> RobustSoliton {
        RobustSoliton::new(k, LT_C, LT_DELTA)
    }

    /// μ(d).
    pub fn pmf(&self, d: u32) -> f64 {
        let i = d as usize - 1;
        self.cdf[i] - if i == 0 { 0.0 } else { self.cdf[i - 1] }
    }

    /// The mean degree: encoding or decoding costs this many XORs per symbol.
    pub fn mean(&self) -> f64 {
        (1..=self.cdf.len() as u32).map(|d| d as f64 * self.pmf(d)).sum()
    }

    /// The degree whose cumulative interval holds `u` in [0, 1) (inversion).
    pub fn sample(&self, u: f64) -> u32 {
        self.cdf.partition_point(|&f| f <= u).min(self.cdf.len() - 1) as u32 + 1
    }
}

/// Makes the neighbours of a block's symbols: one per block and side, with scratch space
/// so that no symbol allocates.
#[derive(Clone, Debug)]
pub struct Neighbours {
    k: u32,
    seed: u64,
    degrees: Arc<RobustSoliton>,
    mark: Vec<u32>,
    stamp: u32,
}

impl Neighbours {
    /// The graph of block `block` of K symbols under `code_seed` (exchanged by the two ends
    /// with the other code parameters, Botoș §II.A).
    pub fn new(k: u32, code_seed: u64, block: u32, degrees: Arc<RobustSoliton>) -> Neighbours {
        assert_eq!(degrees.cdf.len(), k as usize, "a degree table for another K");
        let seed = crate::rng::stream_seed(code_seed, block as u64, "rateless:lt");
        Neighbours { k, seed, degrees, mark: vec![0; k as usize], stamp: 0 }
    }

    /// The source symbols symbol `esi` is the XOR of, into `out` (cleared first).
    pub fn of(&mut self, esi: u32, out: &mut Vec<u32>) {
        out.clear();
        // A generator per symbol: its id alone fixes its draws (SplitMix64 expands the seed).
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(self.seed ^ (esi as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let u = (rand_core::Rng::next_u64(&mut rng) >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let d = self.degrees.sample(u);
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        // Floyd's sampling of d distinct values from 0..K: O(d), marks stamped per symbol.
        for j in (self.k - d)..self.k {
            let t = below(rand_core::Rng::next_u64(&mut rng), j as u64 + 1) as u32;
            let pick = if self.mark[t as usize] == self.stamp { j } else { t };
            self.mark[pick as usize] = self.stamp;
            out.push(pick);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robust_soliton_matches_luby_definition_11_at_k_10000() {
        let (k, c, delta) = (10_000u32, 0.03, 0.5);
        let mu = RobustSoliton::new(k, c, delta);
        let kf = k as f64;
        let r = c * (kf / delta).ln() * kf.sqrt(); // 29.71
        let spike = (kf / r).round() as u32; // 337
        assert_eq!(spike, 337);
        let rho2 = 0.5;
        let tau2 = r / (2.0 * kf);
        let tau_spike = r * (r / delta).ln() / kf;
        // β from the closed forms: Σρ = 1; Στ = R/K·H(spike − 1) + τ(spike).
        let harmonic: f64 = (1..spike).map(|d| 1.0 / d as f64).sum();
        let beta = 1.0 + r / kf * harmonic + tau_spike;
        assert!((mu.pmf(2) - (rho2 + tau2) / beta).abs() < 1e-12);
        let rho_spike = 1.0 / (spike as f64 * (spike as f64 - 1.0));
        assert!((mu.pmf(spike) - (rho_spike + tau_spike) / beta).abs() < 1e-12);
        assert!((mu.pmf(spike + 1) - 1.0 / ((spike + 1) as f64 * spike as f64) / beta).abs() < 1e-12);
        let total: f64 = (1..=k).map(|d| mu.pmf(d)).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }

    #[test]
    fn small_k_has_no_negative_mass() {
        for k in 1..=20 {
            let mu = RobustSoliton::default_for(k);
            assert!((1..=k).all(|d| mu.pmf(d) >= 0.0), "K = {k}");
            assert!(mu.sample(0.999_999_9) <= k);
        }
        assert_eq!(RobustSoliton::default_for(1).sample(0.7), 1);
    }

    #[test]
    fn sampling_inverts_the_table() {
        let mu = RobustSoliton::default_for(1000);
        assert_eq!(mu.sample(0.0), 1);
        assert_eq!(mu.sample(mu.cdf[0]), 2); // the boundary belongs to the next degree
        assert!(mu.sample(0.999_999_999) <= 1000);
        assert_eq!(mu.sample(mu.cdf[998]), 1000);
    }

    #[test]
    fn neighbours_are_distinct_in_range_and_a_function_of_the_id() {
        let k = 500;
        let mu = Arc::new(RobustSoliton::default_for(k));
        let mut a = Neighbours::new(k, 9, 0, mu.clone());
        let mut b = Neighbours::new(k, 9, 0, mu.clone());
        let (mut x, mut y) = (Vec::new(), Vec::new());
        let mut degree_sum = 0usize;
        for esi in 0..5_000 {
            a.of(esi, &mut x);
            b.of(4_999 - esi, &mut y); // another order on the other side
            b.of(esi, &mut y);
            assert_eq!(x, y);
            let mut s = x.clone();
            s.sort_unstable();
            s.dedup();
            assert_eq!(s.len(), x.len(), "repeated neighbour in {x:?}");
            assert!(x.iter().all(|&v| v < k));
            degree_sum += x.len();
        }
        // The mean degree over 5,000 symbols is near μ's mean (its s.d. over 5,000 draws
        // is below 0.3 here).
        let mean = degree_sum as f64 / 5_000.0;
        assert!((mean - mu.mean()).abs() < 1.0, "{mean} against {}", mu.mean());
        let mut c = Neighbours::new(k, 9, 1, mu);
        c.of(0, &mut y);
        a.of(0, &mut x);
        let other_block_differs = (0..50).any(|e| { a.of(e, &mut x); c.of(e, &mut y); x != y });
        assert!(other_block_differs);
    }

    #[test]
    fn every_source_symbol_is_hit_about_equally() {
        // Floyd's sampling is uniform: over 20,000 symbols of K = 50, each source symbol's
        // share of the edges is within 15 % of 1/50 (the counts are ~ 2,000 ± 45).
        let k = 50;
        let mu = Arc::new(RobustSoliton::default_for(k));
        let mut n = Neighbours::new(k, 3, 0, mu);
        let mut hits = vec![0u32; k as usize];
        let mut out = Vec::new();
        let mut edges = 0;
        for esi in 0..20_000 {
            n.of(esi, &mut out);
            out.iter().for_each(|&v| hits[v as usize] += 1);
            edges += out.len();
        }
        let expect = edges as f64 / k as f64;
        assert!(hits.iter().all(|&h| (h as f64 - expect).abs() < 0.15 * expect), "{hits:?}");
    }
}
