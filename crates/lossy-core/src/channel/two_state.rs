//! Closed forms for a two-state hidden Markov loss process, shared by
//! `gilbert_elliott`, `gilbert` and `markov`.
//!
//! A "step" is one packet (or one bit). In each step the chain is in Good (0) or Bad (1);
//! the step is clean with probability `clean[s]`, independently given the state, and
//! then the chain moves with P(0→1) = `to_bad`, P(1→0) = `to_good`. Started from the
//! stationary law π, the probability that `n` consecutive steps are all clean is
//!
//!   f(n) = π · D · (P·D)^(n−1) · 1,   D = diag(clean), P the transition matrix,
//!
//! so a packet of n steps is lost with probability 1 − f(n), and the mean length of a run
//! of lost packets is P(lost) / P(lost, next clean) = (1 − f(n)) / (f(n) − f(2n)),
//! because P(lost, next clean) = P(next clean) − P(both clean).

#[derive(Clone, Copy, Debug)]
pub(crate) struct TwoState {
    pub to_bad: f64,
    pub to_good: f64,
    pub clean_good: f64,
    pub clean_bad: f64,
}

type M2 = [[f64; 2]; 2];

fn mul(a: &M2, b: &M2) -> M2 {
    [
        [
            a[0][0] * b[0][0] + a[0][1] * b[1][0],
            a[0][0] * b[0][1] + a[0][1] * b[1][1],
        ],
        [
            a[1][0] * b[0][0] + a[1][1] * b[1][0],
            a[1][0] * b[0][1] + a[1][1] * b[1][1],
        ],
    ]
}

/// m^k by repeated squaring (O(log k) products).
fn pow(mut m: M2, mut k: u64) -> M2 {
    let mut acc = [[1.0, 0.0], [0.0, 1.0]];
    while k > 0 {
        if k & 1 == 1 {
            acc = mul(&acc, &m);
        }
        m = mul(&m, &m);
        k >>= 1;
    }
    acc
}

impl TwoState {
    /// Stationary P(Bad) = p/(p + r); a chain that never moves stays in Good.
    pub fn pi_bad(&self) -> f64 {
        let s = self.to_bad + self.to_good;
        if s > 0.0 {
            self.to_bad / s
        } else {
            0.0
        }
    }

    /// f(n): probability that `n` consecutive steps are all clean (stationary start).
    pub fn clean_run(&self, n: u64) -> f64 {
        if n == 0 {
            return 1.0;
        }
        let (a, b) = (self.to_bad, self.to_good);
        let (cg, cb) = (self.clean_good, self.clean_bad);
        let pb = self.pi_bad();
        let pd = [[(1.0 - a) * cg, a * cb], [b * cg, (1.0 - b) * cb]];
        let m = pow(pd, n - 1);
        let v = [(1.0 - pb) * cg, pb * cb];
        v[0] * (m[0][0] + m[0][1]) + v[1] * (m[1][0] + m[1][1])
    }

    /// Long-run loss probability of a packet of `n` steps.
    pub fn loss(&self, n: u64) -> f64 {
        (1.0 - self.clean_run(n)).max(0.0)
    }

    /// Mean run of consecutive lost packets of `n` steps each, sent back to back;
    /// `None` if nothing is ever lost, infinity if everything is.
    pub fn mean_burst(&self, n: u64) -> Option<f64> {
        let f1 = self.clean_run(n);
        let lost = 1.0 - f1;
        if lost <= 0.0 {
            return None;
        }
        let ends = f1 - self.clean_run(n.saturating_mul(2));
        Some(if ends > 0.0 {
            lost / ends
        } else {
            f64::INFINITY
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_gilbert_burst_is_one_over_r() {
        let m = TwoState {
            to_bad: 0.01,
            to_good: 0.25,
            clean_good: 1.0,
            clean_bad: 0.0,
        };
        assert!((m.loss(1) - 0.01 / 0.26).abs() < 1e-12);
        assert!((m.mean_burst(1).unwrap() - 4.0).abs() < 1e-9);
    }

    #[test]
    fn independent_steps_reduce_to_bernoulli() {
        // Both states alike: f(n) = c^n, burst = 1/(1 − P).
        let m = TwoState {
            to_bad: 0.3,
            to_good: 0.6,
            clean_good: 0.9,
            clean_bad: 0.9,
        };
        let p = 1.0 - 0.9f64.powi(10);
        assert!((m.loss(10) - p).abs() < 1e-12);
        assert!((m.mean_burst(10).unwrap() - 1.0 / (1.0 - p)).abs() < 1e-9);
    }

    #[test]
    fn power_matches_repeated_multiplication() {
        let m = [[0.5, 0.25], [0.125, 0.75]];
        let mut slow = [[1.0, 0.0], [0.0, 1.0]];
        for _ in 0..13 {
            slow = mul(&slow, &m);
        }
        let fast = pow(m, 13);
        for i in 0..2 {
            for j in 0..2 {
                assert!((slow[i][j] - fast[i][j]).abs() < 1e-15);
            }
        }
    }

    #[test]
    fn degenerate_cases() {
        let never = TwoState {
            to_bad: 0.0,
            to_good: 0.0,
            clean_good: 1.0,
            clean_bad: 0.0,
        };
        assert_eq!(never.loss(100), 0.0);
        assert_eq!(never.mean_burst(100), None);
        let always = TwoState {
            to_bad: 0.1,
            to_good: 0.1,
            clean_good: 0.0,
            clean_bad: 0.0,
        };
        assert_eq!(always.mean_burst(1), Some(f64::INFINITY));
    }
}
