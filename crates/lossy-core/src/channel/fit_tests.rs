use super::*;
use crate::channel::modulation::db_to_linear;
use crate::channel::testutil::assert_within;

fn small(snr: f64, fd: f64, packets: u64) -> FitConfig {
    FitConfig { packets: Some(packets), ..FitConfig::new(snr, fd) }
}

#[test]
fn a_link_packet_is_its_coded_bits_at_the_rate() {
    // Table 1: 32 data bytes = 256 bits at 1.5 Mbit/s; BCH(255, 87) takes ⌈256/87⌉ = 3
    // codewords, 765 bits.
    let mut c = FitConfig::new(10.0, 10.0);
    assert_eq!(c.packet_time().unwrap(), SimDuration(170_667));
    c.code = Some((255, 87));
    assert_eq!(c.packet_time().unwrap(), SimDuration(510_000));
    c.code = Some((255, 131));
    assert_eq!(c.packet_time().unwrap(), SimDuration(340_000));
}

#[test]
fn the_default_run_spans_2000_doppler_periods_or_a_million_packets() {
    let c = FitConfig::new(10.0, 1.0);
    let n = c.run_packets().unwrap();
    let periods = n as f64 * c.packet_time().unwrap().as_secs_f64();
    assert!((2000.0..2000.001).contains(&periods), "{n} packets, {periods} periods");
    assert_eq!(FitConfig::new(10.0, 100.0).run_packets().unwrap(), DEFAULT_MIN_PACKETS);
    assert_eq!(FitConfig::new(10.0, 1e-6).run_packets().unwrap(), MAX_DEFAULT_PACKETS);
    assert_eq!(small(10.0, 1.0, 5000).run_packets().unwrap(), 5000);
}

#[test]
fn deterministic_in_the_seed_whatever_the_threads() {
    let c = small(15.0, 30.0, 40_000);
    let one = fit_on(&c, 1).unwrap();
    assert_eq!(one, fit_on(&c, 3).unwrap());
    assert_eq!(one, fit(&c).unwrap());
    assert_eq!(one.packets, 40_000);
    assert_eq!(one.batches, BATCHES);
    assert_ne!(one, fit(&FitConfig { seed: 2, ..c }).unwrap());
}

#[test]
fn uneven_batches_add_up() {
    let c = small(10.0, 100.0, 1_013);
    let f = fit(&c).unwrap();
    assert_eq!(f.packets, 1_013);
    let b = run_batch(&c, 0, 26).unwrap();
    let pairs: u64 = b.pairs.iter().flatten().sum();
    assert_eq!((b.packets, pairs), (26, 25));
    assert_eq!(b.failures, b.pairs[1][0] + b.pairs[1][1] + u64::from(last_failed(&c, 26)));
}

/// Whether the last of the first `n` packets of batch 0 failed (failures are counted per
/// packet, pairs per pair: the last packet starts no pair).
fn last_failed(c: &FitConfig, n: u64) -> bool {
    let (a, b) = (run_batch(c, 0, n).unwrap(), run_batch(c, 0, n - 1).unwrap());
    a.failures > b.failures
}

#[test]
fn ratio_estimator() {
    // Equal batch sizes: the standard error of a mean of batch means.
    let (r, se) = ratio(&[1.0, 3.0, 2.0, 2.0], &[10.0; 4]);
    assert!((r - 0.2).abs() < 1e-15);
    let sd: f64 = ([0.1f64, 0.3, 0.2, 0.2].iter().map(|x| (x - 0.2).powi(2)).sum::<f64>() / 3.0).sqrt();
    assert!((se - sd / 2.0).abs() < 1e-15, "{se}");
    assert!(ratio(&[0.0, 0.0], &[0.0, 0.0]).0.is_nan());
}

#[test]
fn no_failures_leave_q_and_the_burst_undefined() {
    let f = fit(&small(100.0, 10.0, 4_000)).unwrap();
    assert_eq!(f.p_e, 0.0);
    assert!(f.q.is_nan() && f.burst.is_nan());
    assert_eq!(f.p, 1.0);
}

/// Quasi-static fading: at f_d·T = 1.7e-3 the gain barely moves over a packet or two, so
/// a packet at fade x (|g|² ~ Exp(1)) fails with P(x) = 1 − (1 − ber(γ̄x))^256 uncoded,
/// or 1 − (1 − P_cw(x))^3 with BCH(255, 87) (P_cw: more than t = 26 errors in 255), and
///   P_E = E[P(x)],   q = E[P(x)²]/E[P(x)],   p = E[(1 − P(x))²]/E[1 − P(x)]
/// (two packets see the same x). Numeric integral against the fit; 64 sinusoids (the
/// default 16 put about 2 % less probability near |g| = 0 than Rayleigh, see
/// rayleigh.rs), tolerance 4 standard errors. q and p only uncoded: the code's P(x) is
/// nearly a step, so the few packets the fade's motion carries across it (about
/// √(2π)·f_d·√F·e^(−F)·T/P_E ≈ 0.03 of the failures at P_E = 0.16, the threshold
/// model's crossing rate) outweigh the standard error; uncoded, P(x) is gentle and the
/// motion moves q by about 0.005, under 2 standard errors.
#[test]
#[ignore = "release tier: Monte-Carlo statistics, slow unoptimised (make test runs it with --release)"]
fn quasi_static_fading_matches_the_integral() {
    for (code, modulation) in [(None, Modulation::Bpsk), (None, Modulation::Dpsk), (Some((255, 87)), Modulation::Dpsk)] {
        let c = FitConfig { code, modulation, sinusoids: 64, ..small(10.0, 10.0, 400_000) };
        let f = fit(&c).unwrap();
        let fail = |x: f64| {
            let ber = modulation.ber(db_to_linear(10.0) * x);
            match code {
                None => -(256.0 * (-ber).ln_1p()).exp_m1(),
                Some(_) => -(3.0 * (-binomial_tail(255, 26, ber)).ln_1p()).exp_m1(),
            }
        };
        let [e1, e2, s2] = expect_over_exp(|x| {
            let p = fail(x);
            [p, p * p, (1.0 - p) * (1.0 - p)]
        });
        let what = format!("{code:?} {modulation:?} 10 dB quasi-static");
        assert_within(&format!("{what} P_E"), f.p_e, f.p_e_se, e1, 4.0);
        if code.is_none() {
            assert_within(&format!("{what} q"), f.q, f.q_se, e2 / e1, 4.0);
            assert_within(&format!("{what} p"), f.p, f.p_se, s2 / (1.0 - e1), 4.0);
        }
    }
}

/// P(more than t errors among n bits at bit error rate p).
fn binomial_tail(n: u32, t: u32, p: f64) -> f64 {
    let (mut term, mut head) = ((1.0 - p).powi(n as i32), 0.0);
    for k in 0..=t {
        head += term;
        term *= (n - k) as f64 / (k + 1) as f64 * p / (1.0 - p);
    }
    (1.0 - head).max(0.0)
}

/// E f(x) for x ~ Exp(1), each of three components, by Simpson's rule on [0, 40] (10^5
/// intervals).
fn expect_over_exp(f: impl Fn(f64) -> [f64; 3]) -> [f64; 3] {
    let (n, hi) = (100_000, 40.0);
    let h = hi / n as f64;
    let mut acc = [0.0; 3];
    for i in 0..=n {
        let x = i as f64 * h;
        let w = if i == 0 || i == n { 1.0 } else if i % 2 == 1 { 4.0 } else { 2.0 };
        for (a, v) in acc.iter_mut().zip(f(x)) {
            *a += w * v * (-x).exp() * h / 3.0;
        }
    }
    acc
}

#[test]
fn bad_input_names_field_value_and_range() {
    let msg = |f: &dyn Fn(&mut FitConfig)| {
        let mut c = FitConfig::new(10.0, 10.0);
        f(&mut c);
        fit(&c).unwrap_err()
    };
    assert_eq!(
        msg(&|c| c.doppler_hz = f64::NAN),
        "doppler_hz: NaN is not allowed; use a finite number of Hz > 0, e.g. 10"
    );
    assert_eq!(
        msg(&|c| c.doppler_hz = -1.0),
        "doppler_hz: -1 is not allowed; use a finite number of Hz > 0, e.g. 10"
    );
    assert_eq!(
        msg(&|c| c.mean_snr_db = 300.0),
        "mean_snr_db: 300 is out of range; use a number of dB from -100 to 100, e.g. 20"
    );
    assert_eq!(
        msg(&|c| c.payload_bytes = 0),
        "payload_bytes: 0 is out of range; use a whole number of bytes from 1 to 65,535, e.g. 32"
    );
    assert_eq!(
        msg(&|c| c.packets = Some(0)),
        "packets: 0 is out of range; use a whole number from 1,000 to 10,000,000,000"
    );
    assert!(msg(&|c| c.code = Some((100, 50))).starts_with("code: BCH(100, 50) does not exist: n = 100 is not 2^m − 1; use 7, 15,"));
    assert!(msg(&|c| c.code = Some((255, 200))).starts_with(
        "code: BCH(255, 200) does not exist: k = 200 is not the dimension of a narrow-sense binary BCH code of length 255; k is one of"
    ));
    assert_eq!(msg(&|c| c.sinusoids = 0), "sinusoids: 0 is out of range; use a whole number from 1 to 1024");
    // 1 bit/s: 256 s per link packet, a million of them (the default) over 40 batches.
    assert_eq!(
        msg(&|c| c.rate = Rate(1)),
        "packets: 1,000,000 link packets of 256 s each take 6.400e6 s per batch of 40, more than 1,000,000 s; \
         use fewer packets or a higher rate"
    );
}

#[test]
fn config_parses_with_defaults() {
    let c: FitConfig = serde_json::from_str(r#"{"mean_snr_db": 20, "doppler_hz": 1, "code": [255, 87], "rate": "1.5 Mbps"}"#).unwrap();
    assert_eq!(c, FitConfig { code: Some((255, 87)), ..FitConfig::new(20.0, 1.0) });
    assert!(serde_json::from_str::<FitConfig>(r#"{"mean_snr_db": 20, "doppler_hz": 1, "fec": 1}"#).is_err());
}
