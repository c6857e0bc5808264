//! Whole runs with the Snoop agent (`agents/snoop.rs`) on `scenarios/last-hop.toml`:
//! a wireless loss is repaired at the base station without the sender hearing of it,
//! Snoop beats plain Reno at several wireless loss rates, Snoop+ELN marks what it lets
//! through, and hand-offs reset it; the end-of-run invariants (checked inside `run`,
//! packet conservation included) hold throughout.

mod common;

use common::{run_value, scenario_file};
use serde_json::{json, Value};

fn snoop(eln: bool) -> Value {
    json!([{"kind": "snoop", "node": "BS", "wireless_neighbor": "MH", "eln": eln}])
}

fn last_hop(p: f64, agents: Value) -> Value {
    let mut v = scenario_file("last-hop");
    v["links"][1]["loss"] = json!({"model": "bernoulli", "p": p});
    v["agents"] = agents;
    v
}

#[test]
fn a_wireless_loss_is_repaired_locally_and_the_sender_never_hears_of_it() {
    let mut v = last_hop(0.0, snoop(false));
    // The 8th data packet on the wireless hop is lost; nothing else.
    v["links"][1]["loss"] = json!({"model": "trace", "packets": [8]});
    v["flows"][0]["app"] = json!({"kind": "file", "size": "200 KB"});
    let r = run_value(&v, 1);
    let (f, a) = (&r.flows[0], &r.agents[0]);
    assert_eq!(f.bytes_delivered, 200_000, "the receiver got everything");
    assert_eq!((f.metrics.u64("retransmits_fast"), f.metrics.u64("retransmits_timeout"), f.metrics.u64("fast_recoveries")), (0, 0, 0));
    assert_eq!(a.kind, "snoop");
    assert_eq!(a.counters["local_retransmits"], 1);
    assert!(a.counters["dupacks_suppressed"] >= 1);
    assert!(a.state_bytes_max > 1000 && a.counters["cache_max_packets"] >= 2);
    // Without the agent the same loss costs the sender a retransmission.
    v["agents"] = json!([]);
    let r = run_value(&v, 1);
    let c = &r.flows[0].metrics;
    assert_eq!(c.u64("retransmits_fast") + c.u64("retransmits_timeout"), 1);
}

/// Mean goodput over seeds 1..=3 of 50 s runs (the same seeds with and without the
/// agent, so the channel draws are paired).
fn goodput(p: f64, agents: &Value) -> f64 {
    (1..=3)
        .map(|seed| {
            let mut v = last_hop(p, agents.clone());
            v["duration"] = json!("50 s");
            run_value(&v, seed).flows[0].goodput_bps / 3.0
        })
        .sum()
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn snoop_beats_plain_reno_on_wireless_losses() {
    for p in [0.01, 0.02, 0.05] {
        let reno = goodput(p, &json!([]));
        let plain = goodput(p, &snoop(false));
        let snoop_eln = goodput(p, &snoop(true));
        eprintln!("p = {p}: reno {reno:.0} b/s, snoop {plain:.0} b/s, snoop+eln {snoop_eln:.0} b/s");
        assert!(plain > 1.3 * reno, "p = {p}: snoop {plain} reno {reno}");
        assert!(snoop_eln > 1.3 * reno, "p = {p}: snoop+eln {snoop_eln} reno {reno}");
    }
}

#[test]
fn snoop_eln_marks_the_duplicates_snoop_lets_through() {
    let mut v = last_hop(0.05, snoop(true));
    v["duration"] = json!("50 s");
    let r = run_value(&v, 1);
    let a = &r.agents[0];
    assert!(a.counters["local_retransmits"] > 0 && a.counters["dupacks_suppressed"] > 0);
    assert!(a.counters["eln_marked"] > 0, "{:?}", a.counters);
    // Plain Snoop sets no ELN, so the sender makes no ELN retransmission.
    let mut v = last_hop(0.05, snoop(false));
    v["duration"] = json!("50 s");
    let r = run_value(&v, 1);
    assert_eq!(r.flows[0].metrics.u64("retransmits_eln"), 0);
    assert!(!r.agents[0].counters.contains_key("eln_marked"));
}

#[test]
fn handoffs_reset_snoop_and_the_books_balance() {
    let v = json!({
        "nodes": ["A", "BS1", "BS2", "MH"],
        "duration": "20 s",
        "links": [
            {"between": ["A", "BS1"], "rate": "10 Mbps", "delay": "10 ms"},
            {"between": ["A", "BS2"], "rate": "10 Mbps", "delay": "10 ms"},
            {"between": ["BS1", "MH"], "rate": "2 Mbps", "delay": "5 ms", "loss": {"model": "bernoulli", "p": 0.03}},
            {"between": ["BS2", "MH"], "rate": "2 Mbps", "delay": "5 ms", "up": false, "loss": {"model": "bernoulli", "p": 0.03}}
        ],
        "flows": [{"from": "A", "to": "MH", "app": {"kind": "bulk"}}],
        "agents": [
            {"kind": "snoop", "node": "BS1", "wireless_neighbor": "MH", "eln": true},
            {"kind": "snoop", "node": "BS2", "wireless_neighbor": "MH"}
        ],
        "actions": [
            {"kind": "handoff", "at": "5 s", "node": "MH", "from": "BS1", "to": "BS2", "outage": "1 s"},
            {"kind": "handoff", "at": "12 s", "node": "MH", "from": "BS2", "to": "BS1", "outage": "500 ms"}
        ]
    });
    let r = run_value(&v, 2);
    let (bs1, bs2) = (&r.agents[0], &r.agents[1]);
    // BS1 loses the host at 5 s and gets it back at 12.5 s; BS2 gets it at 6 s and loses it at 12 s.
    assert_eq!((bs1.counters["handoff_resets"], bs2.counters["handoff_resets"]), (1, 1), "{:?} {:?}", bs1.counters, bs2.counters);
    assert!(bs1.counters["local_retransmits"] > 0 && bs2.counters["local_retransmits"] > 0);
    assert!(r.flows[0].bytes_delivered > 0);
}

/// The last-hop network with the data the other way: MH sends to S, the wireless loss
/// on MH → BS (the link's reverse direction).
fn mobile_sender(p: f64, agents: Value) -> Value {
    let mut v = last_hop(0.0, agents);
    v["links"][1]["reverse_loss"] = json!({"model": "bernoulli", "p": p});
    v["flows"][0]["from"] = json!("MH");
    v["flows"][0]["to"] = json!("S");
    v["duration"] = json!("50 s");
    v
}

#[test]
fn for_a_mobile_sender_snoop_sets_eln_as_ns2_does_and_the_window_is_spared() {
    let r = run_value(&mobile_sender(0.05, snoop(false)), 1);
    let (f, a) = (&r.flows[0], &r.agents[0]);
    // Nothing is cached or resent for data from the mobile host.
    assert_eq!((a.counters["local_retransmits"], a.counters["cache_max_packets"]), (0, 0));
    assert!(a.counters["eln_marked_uplink"] > 0, "{:?}", a.counters);
    // Every loss is on the wireless hop, so recoveries are ELN ones and spare the window.
    // (Rarely a duplicate asks for a segment that did reach BS and is still on its way
    // to S, after a timeout's go-back-N: it passes unmarked, as in ns-2.)
    let c = &f.metrics;
    assert!(c.u64("eln_recoveries") > 20 * c.u64("fast_recoveries").max(1), "{c:?}");
    // Plain Reno halves for the same losses and gets less through.
    let reno = run_value(&mobile_sender(0.05, json!([])), 1);
    assert_eq!(reno.flows[0].metrics.u64("eln_recoveries"), 0);
    assert!(f.goodput_bps > 1.2 * reno.flows[0].goodput_bps, "{} vs {}", f.goodput_bps, reno.flows[0].goodput_bps);
}

#[test]
fn bad_snoop_fields_name_the_field_and_what_is_allowed() {
    for (field, value, want) in [
        ("cache_packets", json!(0), "agents.0.cache_packets: 0 caches nothing; use at least 1"),
        (
            "local_retransmit_dupacks",
            json!(0),
            "agents.0.local_retransmit_dupacks: 0 is not allowed; use 1 (the first duplicate ACK), 2 (ns-2's Snoop) or 3",
        ),
        (
            "local_retransmit_dupacks",
            json!(4),
            "agents.0.local_retransmit_dupacks: 4 is not allowed; use 1 (the first duplicate ACK), 2 (ns-2's Snoop) or 3",
        ),
    ] {
        let mut v = last_hop(0.01, snoop(false));
        v["agents"][0][field] = value;
        assert_eq!(common::run_error(&v), want);
    }
}
