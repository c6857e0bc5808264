use super::*;
use crate::channel::testutil::{assert_within, measure};
use crate::time::{SimDuration, SimTime};

fn bits_cfg(rate: f64, m2: f64, span: u64) -> NeymanConfig {
    NeymanConfig {
        unit: NeymanUnit::Bit,
        errors_per_cluster: m2,
        clusters_per_unit: Some(rate),
        packet_loss: None,
        packet_bytes: None,
        span: Some(span as f64),
    }
}

/// ln n!
fn ln_fact(n: u64) -> f64 {
    (1..=n).map(|i| (i as f64).ln()).sum()
}

#[test]
fn pmf_recursion_equals_smiths_series() {
    // Smith: P(k) = e^−m1 (m2^k / k!) Σ_j (m1 e^−m2)^j j^k / j!, summed to j = 400.
    for (m1, m2) in [(0.5, 3.0), (2.0, 1.5), (4.0, 0.3)] {
        let pmf = neyman_type_a_pmf(m1, m2, 30);
        for (k, &p) in pmf.iter().enumerate() {
            let series: f64 = (0..400u64)
                .map(|j| {
                    let ln = j as f64 * (m1 * (-m2).exp()).ln() - ln_fact(j);
                    if j == 0 {
                        if k == 0 { 1.0 } else { 0.0 }
                    } else {
                        (ln + k as f64 * (j as f64).ln()).exp()
                    }
                })
                .sum();
            let smith = (-m1 + k as f64 * m2.ln() - ln_fact(k as u64)).exp() * series;
            assert!((p - smith).abs() <= 1e-12 + 1e-9 * smith, "m1={m1} m2={m2} k={k}: {p} vs {smith}");
        }
        // Moments of the pmf itself (to 200 errors, where the tail is < 1e-30).
        let pmf = neyman_type_a_pmf(m1, m2, 200);
        let total: f64 = pmf.iter().sum();
        let mean: f64 = pmf.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        let var: f64 = pmf.iter().enumerate().map(|(k, p)| (k as f64 - mean).powi(2) * p).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert!((mean - m1 * m2).abs() < 1e-9, "{mean}");
        assert!((var - m1 * m2 * (1.0 + m2)).abs() < 1e-9, "{var}");
    }
}

/// A(L) term by term: every cluster start x from −(S − 1) to L − 1, its overlap k, and
/// q(k) = Σ_c P(min(N, S) = c)·(1 − C(S − k, c)/C(S, c)).
fn hit_weight_direct(cfg: &NeymanConfig, l: u64) -> f64 {
    let s = cfg.span_units() as i64;
    let m = cfg.errors_per_cluster;
    let pois = |c: u64| (-m + c as f64 * m.ln() - ln_fact(c)).exp();
    let q = |k: i64| -> f64 {
        let mut below = 0.0;
        let mut sum = 0.0;
        for c in 0..s as u64 {
            below += pois(c);
            let miss: f64 = (0..c as i64).map(|i| ((s - k - i).max(0) as f64) / ((s - i) as f64)).product();
            sum += pois(c) * (1.0 - miss);
        }
        sum + (1.0 - below) // N ≥ S: all S units hit
    };
    (-(s - 1)..l as i64)
        .map(|x| {
            let k = (x + s).min(l as i64) - x.max(0);
            q(k)
        })
        .sum()
}

#[test]
fn hit_weight_matches_a_direct_sum() {
    for (s, l, m2) in [(1, 5, 2.0), (2, 7, 3.0), (6, 6, 3.0), (16, 40, 3.0), (40, 16, 3.0), (9, 1, 0.7), (30, 100, 25.0)] {
        let mut cfg = bits_cfg(1e-3, m2, s);
        let direct = hit_weight_direct(&cfg, l);
        let fast = cfg.hit_weight(l);
        assert!((fast - direct).abs() <= 1e-10 * direct, "S={s} L={l} m2={m2}: {fast} vs {direct}");
        cfg.unit = NeymanUnit::Packet;
        assert!((cfg.hit_weight(1) - hit_weight_direct(&cfg, 1)).abs() < 1e-12);
    }
    // Packets as units: A(1) = E[min(N, S)], so P(lost) = 1 − exp(−λ E[min(N, S)]).
    let cfg = NeymanConfig { unit: NeymanUnit::Packet, ..bits_cfg(0.02, 4.0, 1000) };
    assert!((cfg.hit_weight(1) - 4.0).abs() < 1e-12);
}

#[test]
fn packet_loss_is_solved_exactly() {
    for p in [0.001, 0.01, 0.1, 0.25] {
        for (m2, span, unit) in [(3.0, None, NeymanUnit::Bit), (10.0, Some(3000), NeymanUnit::Bit), (2.0, Some(5), NeymanUnit::Packet)] {
            let cfg = NeymanConfig::for_packet_loss(p, 1500, m2, span, unit).unwrap();
            let ch = Neyman::new(&cfg);
            let got = ch.stationary_loss(12_000).unwrap();
            assert!((got - p).abs() < 1e-12 * p.max(1.0) + 1e-15, "{p} {unit:?}: {got}");
            assert_eq!(cfg.span_units(), span.unwrap_or(6));
        }
    }
    let zero = NeymanConfig::for_packet_loss(0.0, 1500, 3.0, None, NeymanUnit::Bit).unwrap();
    assert_eq!(zero.clusters_per_unit, Some(0.0));
}

// Counts of errors per block against Neyman Type A, tolerances set before the run.
// 4096-bit blocks as codewords, 8 per packet (clusters straddle codewords and packets),
// m1 = 2 clusters per block, m2 = 3, span 16 bits; 250,000 blocks.
// Mean 6, variance 24: 5 standard errors of the mean = 5·√(24/250,000) = 0.049.
// Sample variance: relative se √((2 + κ4/κ2²)/N), κ4 = m1·E[X⁴] = 2·309 for X ~
// Poisson(3), κ4/κ2² = 1.07: 0.35 %, so 5 se = 1.75 %.
// pmf for k = 0..=20: 5 binomial standard errors √(P(1 − P)/N) each.
// Known biases, far inside these: clusters cut by a block edge lower the variance by
// ≈ m2·S/(3n(1 + m2)) = 0.1 %; two clusters' errors on one bit count once (≈ 0.15 % of
// the mean); N > S = 16 is capped (P < 1e-7).
#[test]
fn block_counts_follow_neyman_type_a() {
    let (n, m1, m2, span) = (4096u32, 2.0, 3.0, 16);
    let mut ch = Neyman::new(&bits_cfg(m1 / n as f64, m2, span));
    let mut rng = RngStream::new(41, 0, "neyman-blocks");
    let mut cw = [0u32; 8];
    let blocks = 250_000usize;
    let mut counts = vec![0u64; 64];
    let (mut sum, mut sq) = (0f64, 0f64);
    for _ in 0..blocks / 8 {
        ch.codeword_errors(TxSpan::at(SimTime::ZERO, 0), n, &mut cw, &mut rng);
        for &e in &cw {
            counts[(e as usize).min(63)] += 1;
            sum += e as f64;
            sq += (e as f64).powi(2);
        }
    }
    let nb = blocks as f64;
    let mean = sum / nb;
    let var = (sq - nb * mean * mean) / (nb - 1.0);
    let (want_mean, want_var) = (m1 * m2, m1 * m2 * (1.0 + m2));
    assert_within("neyman block mean", mean, (want_var / nb).sqrt(), want_mean, 5.0);
    println!("variance {var:.4} vs {want_var}");
    assert!((var / want_var - 1.0).abs() < 0.0175, "variance {var} vs {want_var}");
    let pmf = neyman_type_a_pmf(m1, m2, 20);
    for (k, &p) in pmf.iter().enumerate() {
        let got = counts[k] as f64 / nb;
        assert_within(&format!("neyman P({k})"), got, (p * (1.0 - p) / nb).sqrt(), p, 5.0);
    }
}

// Tolerance: 5 standard errors (batch means for the rate, run-length sd / √runs for the
// burst; see bernoulli.rs), 10^6 back-to-back 1500-byte packets.
#[test]
fn packet_loss_and_burst_match_the_closed_forms() {
    let cases = [
        NeymanConfig::for_packet_loss(0.05, 1500, 3.0, None, NeymanUnit::Bit).unwrap(),
        // Long clusters that spill over several packets.
        NeymanConfig::for_packet_loss(0.25, 1500, 10.0, Some(30_000), NeymanUnit::Bit).unwrap(),
        NeymanConfig { unit: NeymanUnit::Packet, ..bits_cfg(0.02, 4.0, 8) },
    ];
    for (i, cfg) in cases.iter().enumerate() {
        let mut ch = Neyman::new(cfg);
        let m = measure(&mut ch, 1_000_000, 12_000, SimDuration::from_millis(12), 60 + i as u64);
        let what = format!("neyman case {i}");
        let (loss, burst) = (ch.stationary_loss(12_000).unwrap(), ch.mean_burst(12_000).unwrap());
        assert_within(&format!("{what} loss"), m.loss, m.loss_se, loss, 5.0);
        assert_within(&format!("{what} burst"), m.burst, m.burst_se, burst, 5.0);
    }
    // Packet units: P(lost) = 1 − exp(−λ·E[min(N, S)]), E[min(N, 8)] for N ~ Poisson(4)
    // summed term by term.
    let e_min: f64 = (0..200u64).map(|k| (k.min(8) as f64) * (-4.0 + k as f64 * 4f64.ln() - ln_fact(k)).exp()).sum();
    let ch = Neyman::new(&cases[2]);
    assert!((ch.stationary_loss(1).unwrap() + (-0.02 * e_min).exp_m1()).abs() < 1e-12);
}

/// Distances (in packets) between consecutive losses of `packets` back-to-back packets
/// of `bits` bits.
fn distances(cfg: &NeymanConfig, packets: u64, bits: u64, seed: u64) -> Vec<u64> {
    let mut ch = Neyman::new(cfg);
    let mut rng = RngStream::new(seed, 0, "neyman-distance");
    let (mut last, mut out) = (None, Vec::new());
    for i in 0..packets {
        if ch.lost(TxSpan::at(SimTime::ZERO, bits), &mut rng) {
            if let Some(j) = last {
                out.push(i - j);
            }
            last = Some(i);
        }
    }
    out
}

// Fig. 1 of Botoș et al.: the CDF of the distance between consecutive losses of
// 1500-byte packets; "consecutive packet losses occur with a probability that is
// roughly equal to the average packet loss rate". Here m2 = 3 errors in the default
// span of 6 bits (clusters short beside a 12,000-bit packet).
// Tolerances (set before the run):
// - P(d = 1) against the exact P(next lost | lost): 5 binomial standard errors.
// - P(d = 1) against p: 5 standard errors plus the model's own excess. Only a cluster
//   that straddles the boundary of two packets can hit both, and S − 1 of its starts do,
//   so P(both lost) − p² = c1²·(e^{λ(2A(L) − A(2L))} − 1) ≤ c1²·(e^{λ(S−1)} − 1) with c1 =
//   1 − p; divided by p, that bounds P(d = 1) − p (4e-4 at p = 1 %).
// - the mean distance is 1/p for any stationary sequence (Kac): 5 standard errors.
// - the whole CDF against the geometric law 1 − (1 − p)^k of independent losses: the
//   1 % Kolmogorov–Smirnov bound 1.63/√n (conservative for a discrete law) plus the
//   excess bound above.
#[test]
fn fig1_distance_between_losses_of_1500_byte_packets() {
    for (p, packets) in [(0.01, 2_000_000u64), (0.05, 600_000), (0.25, 200_000)] {
        let cfg = NeymanConfig::for_packet_loss(p, 1500, 3.0, None, NeymanUnit::Bit).unwrap();
        let ch = Neyman::new(&cfg);
        let d = distances(&cfg, packets, 12_000, 70);
        let n = d.len() as f64;
        let ones = d.iter().filter(|&&x| x == 1).count() as f64 / n;
        let exact = ch.next_lost(12_000).unwrap();
        let se = (exact * (1.0 - exact) / n).sqrt();
        assert_within(&format!("p={p} P(d=1) vs exact"), ones, se, exact, 5.0);
        let lambda = cfg.clusters_per_unit();
        let excess = (1.0 - p) * (1.0 - p) * (lambda * (cfg.span_units() - 1) as f64).exp_m1() / p;
        assert!(exact - p <= excess + 1e-15 && exact >= p - 1e-12, "p={p}: exact {exact}, bound {excess}");
        assert!((ones - p).abs() <= 5.0 * se + excess, "p={p}: P(d=1) = {ones}, excess bound {excess}");
        let mean = d.iter().sum::<u64>() as f64 / n;
        let sd = (d.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        assert_within(&format!("p={p} mean distance"), mean, sd / n.sqrt(), 1.0 / p, 5.0);
        let mut sorted = d.clone();
        sorted.sort_unstable();
        let ks = (1..=sorted[sorted.len() - 1])
            .map(|k| {
                let f = sorted.partition_point(|&x| x <= k) as f64 / n;
                (f - (1.0 - (1.0 - p).powi(k as i32))).abs()
            })
            .fold(0.0, f64::max);
        println!("p={p}: P(d=1) {ones:.5}, exact {exact:.5}, KS distance to geometric {ks:.4}");
        assert!(ks <= 1.63 / n.sqrt() + excess, "p={p}: KS distance {ks}");
    }
    // Clusters half a packet long (S = 6000 bits, m2 = 30) break Fig. 1's rule: a loss is
    // followed by another far more often than p.
    let cfg = NeymanConfig::for_packet_loss(0.01, 1500, 30.0, Some(6000), NeymanUnit::Bit).unwrap();
    let exact = Neyman::new(&cfg).next_lost(12_000).unwrap();
    let d = distances(&cfg, 2_000_000, 12_000, 71);
    let n = d.len() as f64;
    let ones = d.iter().filter(|&&x| x == 1).count() as f64 / n;
    assert_within("long clusters P(d=1)", ones, (exact * (1.0 - exact) / n).sqrt(), exact, 5.0);
    assert!(exact > 0.1, "{exact}");
}

#[test]
fn codeword_counts_agree_with_losses_and_spill_over() {
    // The same draws through `lost` and `codeword_errors`: a packet is lost exactly when
    // one of its codewords holds an error. Clusters of 50,000 bits span ~5 packets.
    let cfg = NeymanConfig::for_packet_loss(0.3, 1500, 40.0, Some(50_000), NeymanUnit::Bit).unwrap();
    let (mut a, mut b) = (Neyman::new(&cfg), Neyman::new(&cfg));
    let (mut ra, mut rb) = (RngStream::new(8, 0, "x"), RngStream::new(8, 0, "x"));
    let mut cw = [0u32; 12];
    let (mut errors, mut spilled) = (0u64, 0u64);
    let packets = 200_000u64;
    for _ in 0..packets {
        let lost = a.lost(TxSpan::at(SimTime::ZERO, 12_000), &mut ra);
        b.codeword_errors(TxSpan::at(SimTime::ZERO, 0), 1000, &mut cw, &mut rb);
        assert_eq!(lost, cw.iter().any(|&e| e > 0));
        errors += cw.iter().map(|&e| e as u64).sum::<u64>();
        spilled += !b.pending.is_empty() as u64;
    }
    // Errors waited for later packets after many packets (≈ 1 − e^(−λS) ≈ 26 % of them,
    // λS ≈ 0.3 clusters under way at a time).
    assert!(spilled > packets / 10, "{spilled}");
    // Wrong bits = λ·m2 per bit (N > S = 50,000 never happens), less the rare bits two
    // clusters share (≈ 0.03 %). The total is compound Poisson: relative sd
    // √((1 + m2)/(m2·λ·bits)) ≈ 0.9 %; tolerance 5 sd.
    let (lambda, m2, bits) = (cfg.clusters_per_unit(), 40.0, packets as f64 * 12_000.0);
    let want = lambda * m2 * bits;
    let rel_sd = ((1.0 + m2) / (m2 * lambda * bits)).sqrt();
    println!("errors {errors} vs {want:.0} (relative sd {rel_sd:.4})");
    assert!((errors as f64 / want - 1.0).abs() < 5.0 * rel_sd, "{errors} vs {want}");
}

#[test]
fn poisson_and_distinct_offsets() {
    let mut rng = RngStream::new(3, 0, "pois");
    // Mean and variance m; 200,000 draws, 5 se for the mean, 3 % for the variance
    // (relative se √(2/N + 1/(mN)) ≤ 0.5 %).
    for m in [0.3, 3.0, 700.0] {
        let n = 200_000;
        let x: Vec<f64> = (0..n).map(|_| poisson(&mut rng, m) as f64).collect();
        let mean = x.iter().sum::<f64>() / n as f64;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        assert_within(&format!("poisson({m}) mean"), mean, (m / n as f64).sqrt(), m, 5.0);
        assert!((var / m - 1.0).abs() < 0.03, "poisson({m}) variance {var}");
    }
    // Both branches: sorted, distinct, each offset equally likely (5 binomial se).
    let mut out = Vec::new();
    for (c, s) in [(3u64, 10u64), (8, 10), (10, 10), (0, 5)] {
        let mut hits = vec![0u64; s as usize];
        let trials = 100_000;
        for _ in 0..trials {
            distinct_offsets(c, s, &mut rng, &mut out);
            assert_eq!(out.len() as u64, c);
            assert!(out.windows(2).all(|w| w[0] < w[1]) && out.iter().all(|&o| o < s));
            for &o in &out {
                hits[o as usize] += 1;
            }
        }
        let p = c as f64 / s as f64;
        for h in hits {
            let se = (p * (1.0 - p) / trials as f64).sqrt();
            assert!((h as f64 / trials as f64 - p).abs() <= 5.0 * se + 1e-12, "c={c} s={s}");
        }
    }
}

#[test]
fn zero_rate_and_the_first_packet() {
    let mut rng = RngStream::new(1, 0, "z");
    let mut never = Neyman::new(&bits_cfg(0.0, 3.0, 6));
    assert!((0..1000).all(|_| !never.lost(TxSpan::at(SimTime::ZERO, 12_000), &mut rng)));
    assert_eq!(never.stationary_loss(12_000), Some(0.0));
    assert_eq!(never.mean_burst(12_000), None);
    // The stream starts stationary: the first packet is lost as often as any other
    // (20,000 fresh channels, p = 0.25, span 30,000 bits so warm-up matters; 5 se).
    let cfg = NeymanConfig::for_packet_loss(0.25, 1500, 10.0, Some(30_000), NeymanUnit::Bit).unwrap();
    let lost = (0..20_000)
        .filter(|_| Neyman::new(&cfg).lost(TxSpan::at(SimTime::ZERO, 12_000), &mut rng))
        .count() as f64
        / 20_000.0;
    assert_within("first packet", lost, (0.25f64 * 0.75 / 20_000.0).sqrt(), 0.25, 5.0);
}
