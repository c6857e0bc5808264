//! Whole-run invariants of the link rows (issue 27, "wrong numbers in results"):
//! `loss_rate` is a fraction of the frames the channel judged, in [0, 1], on a WLAN with
//! RTS/CTS too (RTS collisions were subtracted from data frames: 1.4); `throughput_bps`
//! never exceeds the link's rate (a frame still on the air at the end was counted: 145 %
//! of a 1 Mb/s link). `run` itself refuses a row out of [0, 1] (`world_checks.rs`).

mod common;

use common::run_value;
use serde_json::{json, Value};

/// `n` stations sending CBR to "sink" over a WLAN with RTS/CTS before every frame and
/// bit errors, saturated: RTS frames collide, most data frames are corrupted (before the
/// fix, 10 stations at BER 3e-4 gave loss rates of 1.15).
fn rts_wlan(n: usize) -> Value {
    let mut nodes = vec!["sink".to_string()];
    nodes.extend((1..=n).map(|i| format!("s{i}")));
    let flows: Vec<Value> =
        (1..=n).map(|i| json!({"from": format!("s{i}"), "to": "sink", "app": {"kind": "cbr", "rate": "3 Mbps", "packet_size": "972 B"}})).collect();
    let wlan = json!({"stations": nodes, "queue": "10 packets", "rts_threshold": "0 B", "loss": {"model": "ber", "ber": 3e-4}});
    json!({"nodes": nodes, "wlans": [wlan], "flows": flows, "duration": "5 s"})
}

#[test]
fn loss_rate_is_a_fraction_on_a_wlan_with_rts_cts() {
    for seed in 1..=2 {
        let r = run_value(&rts_wlan(10), seed);
        for l in &r.links {
            assert!((0.0..=1.0).contains(&l.loss_rate), "seed {seed}: {} has loss_rate {}", l.name, l.loss_rate);
        }
        let collided: u64 = r.links.iter().filter_map(|l| l.metrics.get("mac_collisions")?.as_u64()).sum();
        assert!(collided > 0, "the case needs RTS collisions");
    }
}

/// A 0.1 s run of one TCP flow with 9000-byte segments over a 1 Mb/s link (72 ms a
/// segment): the run ends with a segment on the air.
fn big_segments(link_layer: Value) -> Value {
    json!({
        "nodes": ["a", "b"],
        "links": [{"between": ["a", "b"], "rate": "1 Mbps", "delay": "1 ms", "link_layer": link_layer}],
        "flows": [{"from": "a", "to": "b", "tcp": {"mss": "9000 B", "initial_window": 4}}],
        "duration": "100 ms"
    })
}

#[test]
fn throughput_never_exceeds_the_rate() {
    for ll in [json!({"kind": "plain"}), json!({"kind": "arq", "payload": "1000 B", "attempts": 4})] {
        let r = run_value(&big_segments(ll.clone()), 1);
        for l in &r.links {
            assert!(l.throughput_bps <= 1e6, "{ll}: {} carried {} bit/s on a 1 Mb/s link", l.name, l.throughput_bps);
        }
        assert!(r.links[0].throughput_bps > 0.0, "{ll}: the first segment ends at 72 ms");
    }
}
