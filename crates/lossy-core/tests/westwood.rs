//! TCP Westwood+ (`tcp.cc = "westwood"`) in whole runs on the ns3-compare path with
//! random loss on the last hop: setting ssthresh to BWE·RTT_min instead of halving keeps
//! more of the rate than Reno at the same loss rate, the wireless case Westwood was built
//! for (Mascolo et al., MobiCom 2001 §5).

mod common;

use common::{run_value, scenario_file};
use serde_json::json;

/// Mean goodput over three seeds at loss probability `p`.
fn goodput(cc: &str, p: f64) -> f64 {
    let mut v = scenario_file("ns3-compare");
    v["duration"] = json!("60 s");
    v["links"][1]["loss"]["p"] = json!(p);
    v["flows"][0]["tcp"]["cc"] = json!(cc);
    (1..=3).map(|seed| run_value(&v, seed).flows[0].goodput_bps).sum::<f64>() / 3.0
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn westwood_keeps_more_goodput_than_reno_under_random_loss() {
    for p in [0.02, 0.05] {
        let (w, r) = (goodput("westwood", p), goodput("reno", p));
        assert!(w > 1.1 * r, "p = {p}: westwood {w} b/s, reno {r} b/s");
    }
}
