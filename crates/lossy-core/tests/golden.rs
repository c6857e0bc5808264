//! Golden results (docs/architecture.md#golden): the summary of every shipped
//! scenario at seeds 1-3, of the seeded random scenarios, and of the seeded random
//! networks with impairments and actions, is stored in
//! `tests/golden/` and must come out bit for bit, so a refactor cannot drift silently.
//! Wall-clock fields and the event count (which depends on how the engine schedules,
//! not on what is simulated) are left out.
//!
//! After a deliberate change of results, regenerate with
//! `LOSSY_BLESS=1 cargo test -p lossy-core --test golden` and say why in the commit.

mod common;

use common::{deterministic_part, random_scenarios, random_scenarios_with_actions, run_value, scenario_file, shipped};
use serde_json::Value;
use std::path::PathBuf;

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(format!("{}/tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR")))
}

fn golden_part(r: &lossy_core::RunResult) -> Value {
    let mut v = deterministic_part(r);
    v["summary"].as_object_mut().unwrap().remove("events");
    v
}

/// Compares `runs` (name → result) with the stored files, or writes them when blessing.
fn check(runs: Vec<(String, Value)>) {
    let bless = std::env::var_os("LOSSY_BLESS").is_some();
    let mut drifted = Vec::new();
    for (name, got) in runs {
        let path = golden_path(&name);
        let text = serde_json::to_string_pretty(&got).unwrap() + "\n";
        if bless {
            std::fs::write(&path, text).expect("write golden file");
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_else(|_| panic!("{} is missing; bless with LOSSY_BLESS=1", path.display()));
        if want != text {
            drifted.push(name);
        }
    }
    assert!(drifted.is_empty(), "results drifted from tests/golden/ for: {}", drifted.join(", "));
}

#[test]
fn shipped_scenarios_match_their_golden_results() {
    let mut runs = Vec::new();
    for name in shipped() {
        let v = scenario_file(&name);
        for seed in 1..=3 {
            runs.push((format!("{name}-seed{seed}"), golden_part(&run_value(&v, seed))));
        }
    }
    check(runs);
}

/// Case `i` of a seeded sequence runs at seed `i` and is stored as `<prefix>-<i>`.
fn check_cases(prefix: &str, cases: Vec<Value>) {
    let runs = cases.iter().enumerate().map(|(case, v)| (format!("{prefix}-{case:02}"), golden_part(&run_value(v, case as u64)))).collect();
    check(runs);
}

#[test]
fn random_scenarios_match_their_golden_results() {
    check_cases("random", random_scenarios(40));
}

#[test]
fn random_networks_with_actions_match_their_golden_results() {
    check_cases("random-actions", random_scenarios_with_actions(12));
}

/// Every loss recovery on the ns-3 comparison path at heavy loss (p = 0.1, a 32 KB
/// window), where recovery starts and restarts often: a scheme's rule added to a shared
/// recovery (EWLN's lost-not-congested holes in the SACK scoreboard) must leave the
/// others' runs as they were. The shipped scenarios alone did not catch such a drift.
#[test]
fn every_recovery_at_heavy_loss_matches_its_golden_results() {
    let mut runs = Vec::new();
    for variant in ["tahoe", "reno", "newreno", "sack", "sack1"] {
        let mut v = scenario_file("ns3-compare");
        v["duration"] = "100 s".into();
        v["links"][1]["loss"]["p"] = 0.1.into();
        v["flows"][0]["tcp"]["variant"] = variant.into();
        v["flows"][0]["tcp"]["max_window"] = "32 KB".into();
        for seed in 1..=3 {
            runs.push((format!("heavy-loss-{variant}-seed{seed}"), golden_part(&run_value(&v, seed))));
        }
    }
    check(runs);
}
