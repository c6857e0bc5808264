//! TCP Vegas (`tcp.cc = "vegas"`) in whole runs on the ns3-compare path with no random
//! loss: it keeps between α = 2 and β = 4 segments queued at the 2 Mbps bottleneck
//! (Brakmo & Peterson 1995 §3.2), where Reno fills the 100-packet buffer until it drops.

mod common;

use common::{run_value, scenario_file};
use lossy_core::RunResult;
use serde_json::json;

/// One 1042-byte data packet's serialisation at 2 Mbps: a packet of standing queue adds
/// this much to every RTT.
const PACKET_TIME_S: f64 = 1042.0 * 8.0 / 2e6;

fn clean_path(cc: &str) -> RunResult {
    let mut v = scenario_file("ns3-compare");
    v["duration"] = json!("60 s");
    v["links"][1]["loss"] = json!({"model": "none"});
    v["flows"][0]["tcp"]["cc"] = json!(cc);
    run_value(&v, 1)
}

/// The mean queue the flow's RTT samples saw at the bottleneck, in packets.
fn queued_packets(r: &RunResult) -> f64 {
    let f = &r.flows[0].metrics;
    (f.f64("rtt_mean_s") - f.f64("rtt_min_s")) / PACKET_TIME_S
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn vegas_keeps_alpha_to_beta_segments_queued_on_a_clean_bottleneck() {
    let vegas = clean_path("vegas");
    let reno = clean_path("reno");
    let (qv, qr) = (queued_packets(&vegas), queued_packets(&reno));
    let f = &vegas.flows[0];
    let report = format!("vegas: {qv:.2} packets queued, {} b/s; reno: {qr:.2} packets, {} b/s", f.goodput_bps, reno.flows[0].goodput_bps);
    // Slow start's samples pull the mean a little below the steady state, so α − 1/2.
    assert!((1.5..=4.5).contains(&qv), "{report}");
    assert!(qr > 10.0 * qv, "{report}");
    // Never a drop, so never a retransmission, and the link stays busy: 2 Mbps less the
    // 42-byte headers is 1.919 Mbps of goodput.
    assert_eq!(vegas.summary.drops_queue, 0, "{report}");
    assert_eq!(f.metrics.u64("retransmits_fast") + f.metrics.u64("retransmits_timeout"), 0, "{report}");
    assert!(f.goodput_bps > 0.97 * 1.919e6, "{report}");
}
