//! Tests of erfc.rs: Cody's erfc against values computed to 40 digits, and against the
//! series and continued fraction it replaced over a dense grid.

use super::*;
use crate::channel::modulation::Modulation;

/// (x, erfc(x)) with erfc computed by mpmath 1.3 at 40 digits and rounded to the
/// nearest double: `from mpmath import mp, mpf, erfc; mp.dps = 40;
/// float(erfc(mpf(x)))`. Both of Cody's interval edges (0.46875, 4) and the tail where
/// a BPSK BER is 1e-12 (x ≈ 5) and down to 1e-307 are covered.
const ERFC_40_DIGITS: [(f64, f64); 33] = [
    (0.0, 1.0),
    (1e-09, 0.9999999988716208),
    (0.01, 0.9887165844441503),
    (0.1, 0.887537083981715),
    (0.25, 0.7236736098317631),
    (0.4, 0.5716076449533315),
    (0.46875, 0.507386526782062),
    (0.47, 0.5062549491139179),
    (0.5, 0.4795001221869535),
    (0.75, 0.28884436634648486),
    (1.0, 0.15729920705028513),
    (1.25, 0.07709987174354177),
    (1.5, 0.033894853524689274),
    (2.0, 0.004677734981047266),
    (2.461, 0.0005007038563856527),
    (2.49, 0.0004292878677339129),
    (2.5, 0.0004069520174449589),
    (3.0, 2.209049699858544e-05),
    (3.5, 7.430983723414128e-07),
    (3.99, 1.6739211364520814e-08),
    (4.0, 1.541725790028002e-08),
    (4.01, 1.4196939421371052e-08),
    (4.5, 1.9661604415428876e-10),
    (5.0, 1.537459794428035e-12),
    (6.0, 2.1519736712498913e-17),
    (7.0, 4.183825607779414e-23),
    (8.0, 1.1224297172982926e-29),
    (10.0, 2.088487583762545e-45),
    (12.0, 1.3562611692059042e-64),
    (15.0, 7.212994172451207e-100),
    (20.0, 5.395865611607901e-176),
    (25.0, 8.300172571196523e-274),
    (26.5, 2.2109076642637343e-307),
];

/// (γ, ½·erfc(√γ)), the BPSK bit error probability at linear SNR γ, by mpmath as above
/// (`float(erfc(sqrt(mpf(g))) / 2)`): from γ = 10⁻⁶ to 700 (BER 1e-306).
const BPSK_BER_40_DIGITS: [(f64, f64); 17] = [
    (1e-06, 0.49943581060451536),
    (0.01, 0.4437685419908576),
    (0.1, 0.3273604230092885),
    (0.2, 0.26354462843276905),
    (0.5, 0.15865525393145705),
    (1.0, 0.07864960352514257),
    (2.0, 0.02275013194817921),
    (5.0, 0.0007827011290012748),
    (10.0, 3.872108215522042e-06),
    (15.8, 9.471479371373473e-09),
    (20.0, 1.2698142947354325e-10),
    (30.0, 4.742868785536924e-15),
    (50.0, 7.619853024160525e-24),
    (100.0, 1.0442437918812724e-45),
    (200.0, 2.7536241186062337e-89),
    (400.0, 2.6979328058039506e-176),
    (700.0, 1.0505072581321088e-306),
];

/// The bound stated in erfc.rs: a few ulps (2⁻⁵³ ≈ 1.1e-16 each).
const BOUND: f64 = 1e-15;

fn relative_error(got: f64, want: f64) -> f64 {
    if want == 0.0 { got.abs() } else { ((got - want) / want).abs() }
}

#[test]
fn erfc_holds_its_bound_against_40_digit_values() {
    let (mut worst, mut at) = (0.0, 0.0);
    for (x, want) in ERFC_40_DIGITS {
        let e = relative_error(erfc(x), want);
        if e > worst {
            (worst, at) = (e, x);
        }
        // erfc(−x) = 2 − erfc(x): relative to a value in [1, 2], so absolute here.
        assert!((erfc(-x) - (2.0 - want)).abs() <= 2.0 * BOUND, "erfc(-{x}) = {}", erfc(-x));
    }
    assert!(worst < BOUND, "worst relative error of erfc {worst:e} at x = {at}, bound {BOUND:e}");
    println!("erfc: worst relative error {worst:e} at x = {at} over {} values", ERFC_40_DIGITS.len());
    assert!(erfc(f64::NAN).is_nan());
    assert_eq!(erfc(27.0), 0.0);
    assert_eq!(erfc(f64::INFINITY), 0.0);
    assert_eq!(erfc(f64::NEG_INFINITY), 2.0);
}

#[test]
fn bpsk_ber_holds_the_bound_against_40_digit_values() {
    let (mut worst, mut at) = (0.0, 0.0);
    for (snr, want) in BPSK_BER_40_DIGITS {
        let e = relative_error(Modulation::Bpsk.ber(snr), want);
        if e > worst {
            (worst, at) = (e, snr);
        }
    }
    assert!(worst < BOUND, "worst relative error of ½·erfc(√γ) {worst:e} at γ = {at}, bound {BOUND:e}");
    println!("BPSK BER: worst relative error {worst:e} at γ = {at}");
    assert_eq!(Modulation::Bpsk.ber(0.0), 0.5);
    assert_eq!(Modulation::Bpsk.ber(800.0), 0.0); // below the smallest double
}

/// The implementation this file replaced (A&S 7.1.6 series below 2.5, the 7.1.14
/// continued fraction from depth 60 above), whose own test held it to 1e-13.
fn erfc_series_and_continued_fraction(x: f64) -> f64 {
    let e = (-x * x).exp();
    if x < 2.5 {
        let (mut term, mut sum, mut n) = (x, x, 0.0);
        while term > sum * 1e-17 {
            n += 1.0;
            term *= 2.0 * x * x / (2.0 * n + 1.0);
            sum += term;
        }
        1.0 - std::f64::consts::FRAC_2_SQRT_PI * e * sum
    } else {
        let mut tail = x;
        for k in (1..=60).rev() {
            tail = x + (k as f64 / 2.0) / tail;
        }
        0.5 * std::f64::consts::FRAC_2_SQRT_PI * e / tail
    }
}

/// Every 1/1000 over [0, 26.5], the whole range where erfc is a normal double: the two
/// agree to the old one's accuracy. Its series, 1 − erf, loses digits to cancellation
/// just below 2.5, where erfc ≈ 4e-4: 1.6e-12 at x = 2.461 (the 40-digit values above
/// include 2.461 and side with Cody there).
#[test]
fn erfc_agrees_with_the_former_series_and_continued_fraction() {
    let (mut worst, mut at) = (0.0, 0.0);
    for i in 0..=26_500 {
        let x = i as f64 / 1000.0;
        let e = relative_error(erfc(x), erfc_series_and_continued_fraction(x));
        if e > worst {
            (worst, at) = (e, x);
        }
    }
    println!("erfc vs the former series and continued fraction: worst relative difference {worst:e} at x = {at}");
    assert!(worst < 2e-12, "worst relative difference {worst:e} at x = {at}");
}
