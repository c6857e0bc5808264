//! Whole runs of `loss = { model = "rayleigh", ..., markov_fit = true }` on
//! `scenarios/chockalingam.toml` (`scenario/markov_fit.rs`): the link is driven by the
//! chain fitted to its fading for its own frames, so its loss rate is the fit's P_E; the
//! fit is the same for every seed; bad fields name themselves.

mod common;

use common::{run_error, run_value, scenario_file};
use lossy_core::channel::fit::{fit, FitConfig};
use lossy_core::units::Rate;
use serde_json::{json, Value};

/// Chockalingam's link at 20 dB and 100 Hz, plain (frames are 1024-byte TCP packets).
fn link(markov_fit: bool) -> Value {
    let mut v = scenario_file("chockalingam");
    v["duration"] = json!("100 s");
    v["links"][0]["loss"]["mean_snr_db"] = json!(20);
    v["links"][0]["loss"]["doppler_hz"] = json!(100);
    if markov_fit {
        v["links"][0]["loss"]["markov_fit"] = json!(true);
        v["links"][0]["loss"]["fit_packets"] = json!(100_000);
    }
    v
}

#[test]
#[ignore = "release tier: Monte-Carlo statistics, slow unoptimised (make test runs it with --release)"]
fn the_fitted_chain_loses_packets_at_the_fits_rate() {
    let f = fit(&FitConfig { payload_bytes: 1024, rate: Rate(1_500_000), packets: Some(100_000), ..FitConfig::new(20.0, 100.0) }).unwrap();
    let runs: Vec<_> = (1..=3).map(|seed| run_value(&link(true), seed)).collect();
    let (lost, sent) = runs.iter().fold((0, 0), |(l, s), r| {
        let d = &r.links[0];
        (l + d.channel_losses, s + d.channel_losses + d.packets_delivered)
    });
    let rate = lost as f64 / sent as f64;
    // ~3 × 8,000 packets in bursts of ~1.5: a standard error of about 0.003 around P_E ≈ 0.30.
    assert!((rate - f.p_e).abs() < 0.02, "loss {rate} vs fitted P_E {}", f.p_e);
    // The fading itself differs from its fit, but not by much at 100 Hz.
    let fading = run_value(&link(false), 1).links[0].loss_rate;
    assert!((fading - f.p_e).abs() < 0.06, "fading {fading} vs fit {}", f.p_e);
}

#[test]
fn bad_fit_fields_name_the_field() {
    let mut v = link(true);
    v["links"][0]["loss"]["fit_packets"] = json!(10);
    assert_eq!(
        run_error(&v),
        "links.0.loss.fit_packets: 10 is out of range; use a whole number from 1,000 to 10,000,000,000"
    );
    let mut v = link(false);
    v["links"][0]["loss"]["fit_packets"] = json!(100_000);
    assert_eq!(run_error(&v), "links.0.loss.fit_packets: set only with markov_fit = true (it is the fit's length)");
}
