//! SACK in whole runs on ns3-compare's path (S -10 Mbps- BS -2 Mbps, lossy- R, 32 KB
//! window): ahead of NewReno ahead of Reno when losses come in bursts, no worse than
//! NewReno when they are independent, and a slow-start overshoot repaired without a
//! timeout. Means over seeds; the tolerances are in each test.

mod common;

use common::{run_value, scenario_file};
use lossy_core::RunResult;
use serde_json::{json, Value};

const SEEDS: u64 = 10;

fn path(variant: &str, loss: Value, window: &str, duration: &str) -> Value {
    let mut v = scenario_file("ns3-compare");
    v["links"][1]["loss"] = loss;
    v["flows"][0]["tcp"]["variant"] = json!(variant);
    v["flows"][0]["tcp"]["max_window"] = json!(window);
    v["duration"] = json!(duration);
    v
}

fn runs(v: &Value) -> Vec<RunResult> {
    (1..=SEEDS).map(|seed| run_value(v, seed)).collect()
}

/// Mean goodput (Mbit/s) and mean timeouts over the seeds.
fn mean(rs: &[RunResult]) -> (f64, f64) {
    let n = rs.len() as f64;
    let g = rs.iter().map(|r| r.flows[0].goodput_bps).sum::<f64>() / n / 1e6;
    let t = rs.iter().map(|r| r.flows[0].metrics.u64("timeouts") as f64).sum::<f64>() / n;
    (g, t)
}

fn by_variant(loss: Value) -> Vec<(&'static str, (f64, f64))> {
    ["reno", "newreno", "sack", "sack1"].map(|v| (v, mean(&runs(&path(v, loss.clone(), "32768 B", "60 s"))))).to_vec()
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn sack_ahead_of_newreno_ahead_of_reno_under_bursty_losses() {
    // Gilbert–Elliott: a burst every 200 packets on average, 1/0.3 ≈ 3.3 packets long.
    let rows = by_variant(json!({"model": "gilbert_elliott", "p": 0.005, "r": 0.3}));
    let report = format!("{rows:?}");
    let g = |name: &str| rows.iter().find(|(v, _)| *v == name).unwrap().1 .0;
    // Measured (10 seeds × 60 s): Reno 0.85, NewReno 1.23, SACK 1.41, Sack1 1.33 Mbit/s.
    // Each step must be worth at least 5 %.
    assert!(g("sack") > 1.05 * g("newreno"), "{report}");
    assert!(g("sack1") > 1.05 * g("newreno"), "{report}");
    assert!(g("newreno") > 1.05 * g("reno"), "{report}");
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn sack_no_worse_than_newreno_under_independent_losses() {
    for p in [0.01, 0.03] {
        let rows = by_variant(json!({"model": "bernoulli", "p": p}));
        let g = |name: &str| rows.iter().find(|(v, _)| *v == name).unwrap().1 .0;
        // Measured: p = 0.01 SACK 1.734, Sack1 1.722, NewReno 1.728; p = 0.03 1.102,
        // 1.070, 1.105. No worse = not more than 3 % below (the spread of 10 seeds) for
        // RFC 6675; ns-2's Sack1 counts pipe with a cruder running estimate (one segment
        // per ACK) and sits 3.1 % below at p = 0.03: held to 5 %.
        assert!(g("sack") >= 0.97 * g("newreno"), "p = {p}: {rows:?}");
        assert!(g("sack1") >= 0.95 * g("newreno"), "p = {p}: {rows:?}");
    }
}

#[test]
fn slow_start_overshoot_is_repaired_without_a_timeout() {
    // No random loss, 16 MiB window: slow start overfills the 100-packet queue at BS and
    // loses dozens of segments of one window. NewReno repairs one per round trip and
    // times out; SACK repairs them in about one.
    let run = |variant: &str| run_value(&path(variant, json!({"model": "none"}), "16 MiB", "20 s"), 1);
    let newreno = run("newreno");
    let drops = |r: &RunResult| r.links.iter().map(|l| l.queue_drops).sum::<u64>();
    assert!(drops(&newreno) > 20, "the queue overflows: {} drops", drops(&newreno));
    for variant in ["sack", "sack1"] {
        let r = run(variant);
        let c = &r.flows[0].metrics;
        assert!(drops(&r) > 20, "{variant}: {} drops", drops(&r));
        assert_eq!(c.u64("timeouts"), 0, "{variant}: {c:?}");
        assert!(c.u64("fast_recoveries") >= 1, "{variant}: {c:?}");
        assert!(r.flows[0].goodput_bps > newreno.flows[0].goodput_bps, "{variant}");
    }
    assert!(newreno.flows[0].metrics.u64("timeouts") > 0, "NewReno times out: {:?}", newreno.flows[0].metrics);
}

#[test]
fn sack_resends_little_the_receiver_holds_and_is_deterministic() {
    let v = |variant| path(variant, json!({"model": "gilbert_elliott", "p": 0.01, "r": 0.3}), "16 MiB", "30 s");
    let (a, b) = (run_value(&v("sack"), 7), run_value(&v("sack"), 7));
    assert_eq!(common::deterministic_part(&a), common::deterministic_part(&b));
    // Bytes the receiver got twice: go-back-N after NewReno's timeouts resends what it
    // holds; SACK's skips it.
    let newreno = run_value(&v("newreno"), 7);
    let (s, n) = (a.flows[0].metrics.u64("duplicate_bytes"), newreno.flows[0].metrics.u64("duplicate_bytes"));
    assert!(s * 2 < n, "duplicate bytes: SACK {s}, NewReno {n}");
}
