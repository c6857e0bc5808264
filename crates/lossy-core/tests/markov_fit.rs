//! Whole runs of `loss = { model = "rayleigh", ..., markov_fit = true }` on
//! `scenarios/chockalingam.toml` (`scenario/markov_fit.rs`): the link is driven by the
//! chain fitted to its fading for its own frames, so its loss rate is the fit's P_E; the
//! fit is the same for every seed; bad fields name themselves; a scenario is checked
//! (and refused) before any fit runs, and a fit too costly is refused up front.

mod common;

use common::{run_error, run_value, scenario, scenario_file};
use lossy_core::channel::fit::{fit, FitConfig};
use lossy_core::scenario::{build_world_fitting, Fits};
use lossy_core::units::Rate;
use lossy_core::world::Progress;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};
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

/// A fit of 20 million 1024-byte link packets (28 fading samples each): minutes of CPU,
/// just under the fit's cost limit.
fn slow_fit() -> Value {
    let mut v = link(true);
    v["links"][0]["loss"]["fit_packets"] = json!(20_000_000);
    v
}

/// Issue 27: a scenario with `markov_fit` took 12 s or more to be accepted, and an
/// invalid one was refused only after the fit.
#[test]
fn checking_a_scenario_runs_no_fit_and_a_bad_one_is_refused_before_it() {
    let t = Instant::now();
    build_world_fitting(&scenario(&slow_fit()), 0, 0, Fits::CheckOnly).expect("valid");
    let mut v = slow_fit();
    v["nodes"] = json!(["BS", "MH", "X"]);
    v["flows"][0]["to"] = json!("X");
    assert_eq!(run_error(&v), "flows.0.to: no route from \"BS\" to \"X\" at any time; connect them with links");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}: something was fitted", t.elapsed());
}

/// Issue 27: with only UDP flows a valid scenario was refused naming `payload_bytes`,
/// a field that does not exist; the plain link's frame is the datagram.
#[test]
fn udp_flows_fit_their_datagrams() {
    let mut v = link(true);
    v["duration"] = json!("5 s");
    v["links"][0]["loss"]["fit_packets"] = json!(1000);
    v["links"][0]["loss"]["mean_snr_db"] = json!(30);
    v["flows"][0]["app"] = json!({"kind": "cbr", "rate": "500 kbps", "packet_size": "1000 B"});
    let r = run_value(&v, 1);
    let d = &r.links[0];
    assert!(d.packets_delivered > 0, "{d:?}");
}

/// Issue 27: a fit configured to take forever ran for minutes; its cost (packets ×
/// fading samples × sinusoids) is bounded up front, naming the field, value and limit.
#[test]
fn a_fit_too_costly_is_refused_before_it_starts() {
    let mut v = link(true);
    v["links"][0]["loss"]["fit_packets"] = json!(2_000_000_000u64);
    assert_eq!(
        run_error(&v),
        "links.0.loss.fit_packets: 2,000,000,000 link packets × 28 fading samples × (16 sinusoids + 16) is 1.8e12 terms of work, \
         more than the fit's limit of 2e10 (a few CPU-minutes); use fewer packets or sinusoids"
    );
    let mut v = link(true);
    v["links"][0]["loss"].as_object_mut().unwrap().remove("fit_packets");
    v["links"][0]["loss"]["doppler_hz"] = json!(0.001);
    v["links"][0]["loss"]["sinusoids"] = json!(1024);
    let e = run_error(&v);
    assert!(e.starts_with("links.0.loss.sinusoids: 100,000,000 link packets (the default) × (1024 sinusoids + 16) is 1.0e11"), "{e}");
}

/// The fit's progress is visible while it runs: the link packets it will send, then
/// those it sent (what `lossy run` shows as "fitting").
#[test]
fn a_run_reports_its_fits_progress() {
    let mut v = link(true);
    v["duration"] = json!("1 s");
    v["links"][0]["loss"]["fit_packets"] = json!(12_345);
    v["links"][0]["loss"]["mean_snr_db"] = json!(21); // a parameter set no other test fits (cached)
    let p = Progress::default();
    lossy_core::run::run_reporting(&scenario(&v), 1, 0, Some(&p)).unwrap();
    assert_eq!((p.fit_done.load(Ordering::Relaxed), p.fit_total.load(Ordering::Relaxed)), (12_345, 12_345));
}
