//! Tests of the Rayleigh fading channel (rayleigh.rs): closed forms against Monte-Carlo.

use super::*;
use crate::channel::testutil::assert_within;
use crate::channel::LossConfig;
use crate::time::SimDuration;

fn config(mean_snr_db: f64, doppler_hz: f64, modulation: Modulation) -> RayleighConfig {
    RayleighConfig {
        mean_snr_db,
        doppler_hz: Some(doppler_hz),
        speed_mps: None,
        carrier_hz: None,
        modulation,
        sinusoids: default_sinusoids(),
        chunk_periods: default_chunk_periods(),
        markov_fit: false,
        fit_packets: None,
    }
}

fn secs(t: f64) -> SimTime {
    SimTime((t * 1e9).round() as u64)
}

/// Level-crossing rate and average fade duration of the envelope |g| against
/// N_R = √(2π)·f_d·ρ·e^(−ρ²) and AFD = (e^(ρ²) − 1)/(ρ·f_d·√(2π)) (REFERENCES.md),
/// ρ the threshold over the RMS envelope (1 here). One sum-of-sinusoids draw is not
/// ergodic, so 40 independent draws of 100 Doppler periods each are pooled; |g| is
/// sampled 1000 times per period (40 samples in the shortest mean fade, ρ = 0.1), as
/// the channel reads it: by phase rotation (`rayleigh_rotor.rs`).
/// Tolerance 10 %: the fewest crossings (ρ = 0.1) are about 1000, a Poisson
/// relative error of 3 %, and N = 16 sinusoids put 2.3 % less probability near
/// |g| = 0 than Rayleigh (each component's density at 0 is 1.2 % low: the inverse
/// transform of J₀(u/√N)^N, computed numerically).
#[test]
#[ignore = "release tier: Monte-Carlo statistics, slow unoptimised (make test runs it with --release)"]
fn envelope_level_crossings_and_fade_durations_match_formulas() {
    let rhos = [0.1, 10f64.powf(-0.5), 1.0];
    for fd in [10.0, 100.0] {
        let (draws, periods, per_period) = (40, 100.0, 1000.0);
        let dt_ns = (1e9 / (per_period * fd)) as u64;
        let dt = dt_ns as f64 * 1e-9;
        let steps = (periods * per_period) as u64;
        let (mut crossings, mut below) = ([0u64; 3], [0u64; 3]);
        let mut power_sum = 0.0;
        for draw in 0..draws {
            let fading = Fading::new(fd, 16, &mut RngStream::new(draw, fd as u64, "fading-test"));
            let mut rotor = FadingRotor::new(&fading);
            let mut was_below = [false; 3];
            for i in 0..steps {
                let p = rotor.power(SimTime(i * dt_ns), 0.0);
                power_sum += p;
                let r = p.sqrt();
                for (j, &rho) in rhos.iter().enumerate() {
                    let now_below = r < rho;
                    crossings[j] += (now_below && !was_below[j] && i > 0) as u64;
                    below[j] += now_below as u64;
                    was_below[j] = now_below;
                }
            }
        }
        let total_time = (draws * steps) as f64 * dt;
        let mean_power = power_sum / (draws * steps) as f64;
        println!("f_d = {fd} Hz: E|g|² = {mean_power:.4}");
        assert!((mean_power - 1.0).abs() < 0.02, "E|g|² = {mean_power}");
        let root_2pi = (2.0 * PI).sqrt();
        for (j, &rho) in rhos.iter().enumerate() {
            let lcr = crossings[j] as f64 / total_time;
            let afd = below[j] as f64 * dt / crossings[j] as f64;
            let lcr_formula = root_2pi * fd * rho * (-rho * rho).exp();
            let afd_formula = ((rho * rho).exp() - 1.0) / (rho * fd * root_2pi);
            println!(
                "f_d = {fd} Hz, ρ = {rho:.3}: {} crossings; LCR {lcr:.3}/s vs {lcr_formula:.3}/s; \
                 AFD {:.4} ms vs {:.4} ms",
                crossings[j],
                afd * 1e3,
                afd_formula * 1e3
            );
            assert!((lcr / lcr_formula - 1.0).abs() < 0.10, "f_d {fd} ρ {rho}: LCR {lcr} vs {lcr_formula}");
            assert!((afd / afd_formula - 1.0).abs() < 0.10, "f_d {fd} ρ {rho}: AFD {afd} vs {afd_formula}");
        }
    }
}

/// Mean BER measured from bit draws against the closed forms over Rayleigh
/// (REFERENCES.md). 1.5 Mbps (Chockalingam), f_d = 100 Hz, 40 fading draws × 1 s =
/// 4000 Doppler periods, sent as back-to-back 1 ms frames of three 500-bit codewords
/// (so codewords straddle chunks). Standard error by batch means over 400 batches of
/// 10 periods; tolerance 4 standard errors. N = 64 sinusoids: with finitely many,
/// |g| is not exactly Rayleigh, and the mean BER falls short of the closed form by
/// about 1 % (0 dB) to 2.4 % (20 dB) at the default N = 16 (measured by numpy over
/// 10⁷ draws of g), a shortfall that scales as 1/N, so 0.6 % at most here.
#[test]
#[ignore = "release tier: Monte-Carlo statistics, slow unoptimised (make test runs it with --release)"]
fn mean_ber_over_rayleigh_matches_closed_forms() {
    let frame = SimDuration::from_millis(1);
    let (draws, frames_per_draw, frames_per_batch) = (40u64, 1_000u64, 100u64);
    for modulation in [Modulation::Bpsk, Modulation::Dpsk] {
        for snr_db in [0.0, 10.0, 20.0] {
            let mut cfg = config(snr_db, 100.0, modulation);
            cfg.sinusoids = 64;
            let mut rng = RngStream::new(7, 0, "ber-test");
            let mut batch_bers = Vec::new();
            let (mut errors, mut bits) = (0u64, 0u64);
            for draw in 0..draws {
                let mut ch = Rayleigh::new(&cfg, &mut RngStream::new(draw, 0, "fading"));
                let mut cw = [0u32; 3];
                let mut batch_errors = 0u64;
                for i in 0..frames_per_draw {
                    let start = SimTime(frame.as_nanos() * i);
                    let tx = TxSpan { start, end: start + frame, bits: 1500 };
                    ch.codeword_errors(tx, 500, &mut cw, &mut rng);
                    batch_errors += cw.iter().map(|&e| e as u64).sum::<u64>();
                    if (i + 1) % frames_per_batch == 0 {
                        batch_bers.push(batch_errors as f64 / (1500 * frames_per_batch) as f64);
                        errors += batch_errors;
                        batch_errors = 0;
                    }
                }
                bits += 1500 * frames_per_draw;
            }
            let mean = errors as f64 / bits as f64;
            let n = batch_bers.len() as f64;
            let var = batch_bers.iter().map(|b| (b - mean).powi(2)).sum::<f64>() / (n - 1.0);
            assert_within(
                &format!("{modulation:?} at {snr_db} dB mean BER"),
                mean,
                (var / n).sqrt(),
                modulation.mean_ber_rayleigh(db_to_linear(snr_db)),
                4.0,
            );
        }
    }
}

/// The default N = 16 sinusoids against Rayleigh: the generator's mean BER, the BPSK
/// bit error probability averaged over fading draws × 200 instants 1.37 Doppler
/// periods apart (no bit draws, so no binomial noise), falls short of the closed form.
/// Measured with 20,000 draws (issue 25): 0.89 ± 0.04 % at 0 dB, 1.97 ± 0.13 % at
/// 10 dB, 2.36 ± 0.42 % at 20 dB; with N = 64, 0.46 ± 0.13 % at 10 dB
/// (docs/mechanisms/loss-rayleigh.md states these). Here 5,000 draws (2,000 at
/// N = 64) hold the 0 and 10 dB numbers to 4 standard errors (batch means over draws)
/// and N = 64 to less than a third of N = 16's shortfall.
#[test]
#[ignore = "release tier: Monte-Carlo statistics, slow unoptimised (make test runs it with --release)"]
fn default_sinusoids_fall_short_of_rayleigh_by_the_documented_share() {
    let shortfall = |n: u32, snr_db: f64, draws: u64| {
        let (snr, fd, instants) = (db_to_linear(snr_db), 10.0, 200);
        let mut batch_means = Vec::with_capacity(draws as usize);
        for draw in 0..draws {
            let fading = Fading::new(fd, n, &mut RngStream::new(draw, u64::from(n), "sinusoids-test"));
            let sum: f64 = (0..instants)
                .map(|i| Modulation::Bpsk.ber(snr * fading.power(f64::from(i) * 1.37 / fd)))
                .sum();
            batch_means.push(sum / f64::from(instants));
        }
        let m = batch_means.len() as f64;
        let mean = batch_means.iter().sum::<f64>() / m;
        let se = (batch_means.iter().map(|b| (b - mean).powi(2)).sum::<f64>() / (m - 1.0) / m).sqrt();
        let exact = Modulation::Bpsk.mean_ber_rayleigh(snr);
        let (short, se_rel) = (1.0 - mean / exact, se / exact);
        println!("N = {n}, {snr_db} dB: mean BER {mean:.5} vs {exact:.5}: {:.2} % short ± {:.2} %", 100.0 * short,
                 100.0 * se_rel);
        (short, se_rel)
    };
    for (snr_db, documented) in [(0.0, 0.0089), (10.0, 0.0197)] {
        let (short, se) = shortfall(16, snr_db, 5_000);
        assert!((short - documented).abs() < 4.0 * se + 0.001, "N = 16, {snr_db} dB: {short} ± {se} vs {documented}");
    }
    let (short, se) = shortfall(64, 10.0, 2_000);
    assert!(short.abs() < 0.0197 / 3.0 + 4.0 * se, "N = 64, 10 dB: {short} ± {se}");
}

/// The chunked sampler against the exact one: a uniform per bit at each bit's own
/// γ(t). Same fading, 100 kbps, 1000-bit frames of 10 ms (one Doppler period at
/// f_d = 100 Hz, so 50 chunks each), one every 37 ms, BPSK at 25 dB. Paired per
/// frame (the same fades), the differences in "lost" and in errors per frame must
/// be within 4 standard errors of 0.
#[test]
#[ignore = "release tier: Monte-Carlo statistics, slow unoptimised (make test runs it with --release)"]
fn chunked_sampling_agrees_with_per_bit_sampling() {
    let mut cfg = config(25.0, 100.0, Modulation::Bpsk);
    cfg.sinusoids = 8;
    let mut by_lost = Rayleigh::new(&cfg, &mut RngStream::new(3, 0, "fading"));
    let mut by_count = by_lost.clone();
    let (mut rng_a, mut rng_b, mut rng_ref) = (
        RngStream::new(1, 0, "lost"),
        RngStream::new(1, 0, "count"),
        RngStream::new(1, 0, "per-bit"),
    );
    let (frames, bits, bit_time) = (10_000u64, 1000u64, 1e-5);
    let (mut d_lost, mut d_count) = (Vec::new(), Vec::new());
    let (mut lost_ref, mut errors_ref) = (0u64, 0u64);
    for i in 0..frames {
        let t0 = i as f64 * 0.037;
        let tx = TxSpan { start: secs(t0), end: secs(t0 + bits as f64 * bit_time), bits };
        let lost = by_lost.lost(tx, &mut rng_a);
        let mut cw = [0u32; 1];
        by_count.codeword_errors(tx, bits as u32, &mut cw, &mut rng_b);
        // Bit k is sent over [t0 + k·T, t0 + (k + 1)·T]; read γ at its middle.
        let errs = (0..bits)
            .filter(|&k| rng_ref.uniform() < by_lost.ber_at(t0 + (k as f64 + 0.5) * bit_time))
            .count() as u64;
        lost_ref += (errs > 0) as u64;
        errors_ref += errs;
        d_lost.push(lost as i64 as f64 - (errs > 0) as i64 as f64);
        d_count.push(cw[0] as f64 - errs as f64);
    }
    println!(
        "per-bit reference: frame error rate {:.4}, mean errors per frame {:.4}",
        lost_ref as f64 / frames as f64,
        errors_ref as f64 / frames as f64
    );
    for (what, d) in [("lost", d_lost), ("errors per frame", d_count)] {
        let n = d.len() as f64;
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        assert_within(&format!("chunked − per-bit, {what}"), mean, (var / n).sqrt(), 0.0, 4.0);
    }
    assert!(lost_ref > frames / 20 && lost_ref < frames * 19 / 20, "{lost_ref}: test too easy");
}

#[test]
fn fading_depends_only_on_its_stream() {
    let cfg = LossConfig::Rayleigh(config(10.0, 10.0, Modulation::Dpsk));
    let trajectory = |ch: &Rayleigh| (0..200).map(|i| ch.fading.power(i as f64 * 0.003)).collect::<Vec<_>>();
    let build = |seed: u64| match cfg.build(RngStream::new(seed, 0, "link:A->B:fading")) {
        crate::channel::Channel::Rayleigh(r) => r,
        other => panic!("{other:?}"),
    };
    let (mut used, fresh) = (build(5), build(5));
    // Many bit draws on one copy leave its fades where they were.
    let mut rng = RngStream::new(9, 0, "link:A->B:channel");
    let mut cw = [0u32; 8];
    for i in 0..2000u64 {
        let start = SimTime::ZERO + SimDuration::from_millis(i);
        used.codeword_errors(TxSpan { start, end: start + SimDuration::from_micros(800), bits: 0 }, 127, &mut cw, &mut rng);
    }
    assert_eq!(trajectory(&used), trajectory(&fresh));
    assert_ne!(trajectory(&fresh), trajectory(&build(6)));
}

#[test]
fn doppler_from_speed_and_carrier() {
    let mut cfg = config(10.0, 1.0, Modulation::Bpsk);
    cfg.doppler_hz = None;
    cfg.speed_mps = Some(30.0);
    cfg.carrier_hz = Some(1e9);
    // 30 m/s at 1 GHz: f_d = 30·1e9/299,792,458 ≈ 100.07 Hz.
    assert!((cfg.doppler() - 100.069).abs() < 1e-3, "{}", cfg.doppler());
    cfg.validate().unwrap();
}

#[test]
fn bad_input_names_field_value_and_range() {
    let msg = |f: &dyn Fn(&mut RayleighConfig)| {
        let mut c = config(20.0, 10.0, Modulation::Bpsk);
        f(&mut c);
        c.validate().unwrap_err()
    };
    assert_eq!(
        msg(&|c| c.doppler_hz = Some(f64::NAN)),
        "doppler_hz: NaN is not allowed; use a finite number of Hz > 0, e.g. 10"
    );
    assert_eq!(
        msg(&|c| c.mean_snr_db = f64::NAN),
        "mean_snr_db: NaN is out of range; use a number of dB from -100 to 100, e.g. 20"
    );
    assert_eq!(
        msg(&|c| c.speed_mps = Some(1.0)),
        "rayleigh: give either `doppler_hz` or both `speed_mps` and `carrier_hz`; use e.g. doppler_hz = 10"
    );
    assert_eq!(
        msg(&|c| c.doppler_hz = None),
        "rayleigh: give either `doppler_hz` or both `speed_mps` and `carrier_hz`; use e.g. doppler_hz = 10"
    );
    assert_eq!(
        msg(&|c| c.sinusoids = 0),
        "sinusoids: 0 is out of range; use a whole number from 1 to 1024"
    );
    assert_eq!(
        msg(&|c| c.chunk_periods = 1.5),
        "chunk_periods: 1.5 is out of range; use a number in (0, 1], e.g. 0.02"
    );
    // A negative mean SNR in dB is allowed.
    let mut c = config(-5.0, 10.0, Modulation::Bpsk);
    c.validate().unwrap();
    c.mean_snr_db = 150.0;
    assert!(c.validate().is_err());
}
