//! Whole runs with Syndrome (Chen et al. 2002): the counter agent at the base station of
//! scenarios/last-hop.toml and receivers with `tcp.syndrome`, against plain Reno and ELN
//! at the base station, at a few wireless loss rates with a little wired loss. The
//! end-of-run invariants (conservation, in-order delivery) are checked inside `run`.

mod common;

use common::{run_value, scenario_file};
use lossy_core::result::RunResult;
use serde_json::{json, Value};

const SEEDS: [u64; 4] = [1, 2, 3, 4];

#[derive(Clone, Copy, PartialEq, Debug)]
enum Scheme {
    Reno,
    Eln,
    Syndrome,
    /// A Syndrome receiver behind a plain base station.
    SyndromeNoCounter,
}

/// last-hop.toml with wireless loss `p` on BS→MH and 0.2 % loss on S→BS (Chen §6 uses
/// a wired loss rate 1/10 to 1/1000 of the wireless one).
fn last_hop(scheme: Scheme, p: f64, duration: &str) -> Value {
    let mut v = scenario_file("last-hop");
    v["duration"] = json!(duration);
    v["links"][0]["loss"] = json!({"model": "bernoulli", "p": 0.002});
    v["links"][1]["loss"] = json!({"model": "bernoulli", "p": p});
    v["agents"] = match scheme {
        Scheme::Reno | Scheme::SyndromeNoCounter => json!([]),
        Scheme::Eln => json!([{"kind": "eln", "node": "BS", "wireless_neighbor": "MH"}]),
        Scheme::Syndrome => json!([{"kind": "syndrome", "node": "BS", "wireless_neighbor": "MH"}]),
    };
    if matches!(scheme, Scheme::Syndrome | Scheme::SyndromeNoCounter) {
        v["flows"][0]["tcp"]["syndrome"] = json!("downlink");
    }
    v
}

fn mean_goodput(v: &Value) -> f64 {
    SEEDS.iter().map(|&s| run_value(v, s).flows[0].goodput_bps).sum::<f64>() / SEEDS.len() as f64
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn syndrome_beats_reno_and_comes_close_to_eln_on_last_hop() {
    for p in [0.01, 0.03, 0.05] {
        let reno = mean_goodput(&last_hop(Scheme::Reno, p, "60 s"));
        let eln = mean_goodput(&last_hop(Scheme::Eln, p, "60 s"));
        let syn = mean_goodput(&last_hop(Scheme::Syndrome, p, "60 s"));
        println!("p = {p}: reno {reno:.0} eln {eln:.0} syndrome {syn:.0} bit/s");
        assert!(syn > 1.1 * reno, "p = {p}: syndrome {syn} vs reno {reno}");
        assert!((syn - eln).abs() < 0.15 * eln, "p = {p}: syndrome {syn} vs eln {eln}");
    }
}

fn flow_and_agent(r: &RunResult) -> (u64, u64, u64, &std::collections::BTreeMap<String, u64>) {
    let f = &r.flows[0];
    (f.metrics.u64("syndrome_stamped_packets"), f.metrics.u64("syndrome_credits"), f.metrics.u64("syndrome_eln_acks"), &r.agents[0].counters)
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn reordering_and_duplicates_on_the_wired_part_keep_the_gain() {
    // Chen §6's full version: on S→BS a packet is out of order with probability 0.05
    // and duplicated with probability 0.02 (the extended algorithm, §4–5).
    for p in [0.03, 0.05] {
        let with_impair = |scheme| {
            let mut v = last_hop(scheme, p, "60 s");
            v["links"][0]["impair"] = json!({"reorder": {"p": 0.05}, "duplicate": {"p": 0.02}});
            v
        };
        let reno = mean_goodput(&with_impair(Scheme::Reno));
        let syn = mean_goodput(&with_impair(Scheme::Syndrome));
        println!("p = {p} with reordering and duplicates: reno {reno:.0} syndrome {syn:.0} bit/s");
        assert!(syn > 1.1 * reno, "p = {p}: syndrome {syn} vs reno {reno}");
    }
}

#[test]
fn the_counter_stamps_and_the_receiver_credits_and_marks() {
    let r = run_value(&last_hop(Scheme::Syndrome, 0.03, "30 s"), 1);
    let (stamped, credits, eln_acks, agent) = flow_and_agent(&r);
    let f = &r.flows[0];
    assert!(stamped > 0 && credits > 0 && eln_acks > 0, "{f:?}");
    assert!(f.metrics.u64("retransmits_eln") > 0, "{f:?}");
    assert!(agent["syndrome_stamped"] >= stamped, "{agent:?}");
    assert_eq!(agent["syndrome_connections"], 1);
    assert_eq!(r.agents[0].kind, "syndrome");
    // One 32-bit count and a 16-bit epoch for the one connection, and the 16-bit epoch
    // of the one wireless neighbour's connections.
    assert_eq!(r.agents[0].state_bytes_max, 8);
}

#[test]
fn a_syndrome_receiver_behind_a_plain_base_station_is_plain_tcp() {
    let plain = run_value(&last_hop(Scheme::Reno, 0.03, "30 s"), 2);
    let r = run_value(&last_hop(Scheme::SyndromeNoCounter, 0.03, "30 s"), 2);
    let f = &r.flows[0];
    assert_eq!((f.metrics.u64("syndrome_stamped_packets"), f.metrics.u64("syndrome_credits"), f.metrics.u64("syndrome_eln_acks")), (0, 0, 0));
    assert_eq!(f.bytes_delivered, plain.flows[0].bytes_delivered);
    assert_eq!(f.metrics.u64("retransmits_eln"), 0);
}

/// Such a run says so in its notes, once; with the counter on the path it says nothing.
#[test]
fn a_syndrome_receiver_with_no_counter_upstream_is_noted() {
    let r = run_value(&last_hop(Scheme::SyndromeNoCounter, 0.03, "10 s"), 1);
    let want = r#"flow reno: tcp.syndrome is "downlink" but its data carried no Syndrome counter (no Syndrome agent on its path stamped it); it ran as plain TCP"#;
    assert_eq!(r.flows[0].metrics.u64("syndrome_eln_acks"), 0);
    assert_eq!(r.notes, [want]);
    assert!(r.to_json().contains(r#""notes":["#));
    for scheme in [Scheme::Syndrome, Scheme::Reno] {
        let r = run_value(&last_hop(scheme, 0.03, "10 s"), 1);
        assert!(r.notes.is_empty(), "{scheme:?}: {:?}", r.notes);
        assert!(!r.to_json().contains("notes"), "{scheme:?}");
    }
}

/// A flow group's flows share one note that counts them, not one line each.
#[test]
fn a_flow_group_without_a_counter_gets_one_note() {
    let mut v = last_hop(Scheme::Reno, 0.0, "5 s");
    v["flow_groups"] = json!([{"name": "mobiles", "count": 50, "from": "S", "to": "MH", "tcp": {"syndrome": "downlink"}}]);
    let r = run_value(&v, 1);
    let tail = r#"tcp.syndrome is "downlink" but its data carried no Syndrome counter (no Syndrome agent on its path stamped it); it ran as plain TCP"#;
    assert_eq!(r.notes, [format!("flow group mobiles (50 of 50 flows): {tail}")]);
}

#[test]
fn queue_overflow_at_the_base_station_returns_numbers() {
    // A small BS→MH queue overflows: those drops are wireline losses (Chen §3), so the
    // counter takes their numbers back.
    let mut v = last_hop(Scheme::Syndrome, 0.01, "30 s");
    v["links"][1]["queue"] = json!("5 packets");
    v["flows"][0]["tcp"]["max_window"] = json!("64 KiB");
    let r = run_value(&v, 1);
    let bs_mh = r.links.iter().find(|l| l.name == "BS->MH").unwrap();
    let agent = &r.agents[0].counters;
    assert!(bs_mh.queue_drops > 0, "{bs_mh:?}");
    assert_eq!(agent["syndrome_returned_drops"], bs_mh.queue_drops, "{agent:?}");
    assert_eq!(agent["syndrome_unreturned_drops"], 0);
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn uplink_flow_mh_to_fh_gains_too() {
    // MH → BS → S with wireless loss on MH→BS and a little wired loss on BS→S.
    let run = |syndrome: bool, seed: u64| {
        let mut v = scenario_file("last-hop");
        v["duration"] = json!("60 s");
        v["flows"][0]["from"] = json!("MH");
        v["flows"][0]["to"] = json!("S");
        v["links"][1]["loss"] = json!({"model": "none"});
        v["links"][1]["reverse_loss"] = json!({"model": "bernoulli", "p": 0.03});
        v["links"][0]["reverse_loss"] = json!({"model": "bernoulli", "p": 0.002});
        v["agents"] = if syndrome { json!([{"kind": "syndrome", "node": "BS"}]) } else { json!([]) };
        if syndrome {
            v["flows"][0]["tcp"]["syndrome"] = json!("uplink");
        }
        run_value(&v, seed).flows[0].clone()
    };
    let (mut plain, mut syn) = (0.0, 0.0);
    for s in SEEDS {
        plain += run(false, s).goodput_bps;
        let f = run(true, s);
        assert!(f.metrics.u64("syndrome_stamped_packets") > 0 && f.metrics.u64("retransmits_eln") > 0, "{f:?}");
        syn += f.goodput_bps;
    }
    println!("uplink, summed over the seeds: reno {plain:.0} syndrome {syn:.0}");
    assert!(syn > 1.1 * plain, "syndrome {syn} vs reno {plain}");
}

#[test]
fn hand_offs_start_new_epochs_and_the_flow_goes_on() {
    // S -- R -- BS1/BS2 -- MH; counters on both base stations; MH hands off twice.
    let wired = |a: &str, b: &str| json!({"between": [a, b], "rate": "10 Mbps", "delay": "2 ms"});
    let radio = |bs: &str, up: bool| {
        json!({"between": [bs, "MH"], "rate": "2 Mbps", "delay": "5 ms", "up": up, "loss": {"model": "bernoulli", "p": 0.02}})
    };
    let v = json!({
        "nodes": ["S", "R", "BS1", "BS2", "MH"],
        "duration": "20 s",
        "links": [wired("S", "R"), wired("R", "BS1"), wired("R", "BS2"), radio("BS1", true), radio("BS2", false)],
        "flows": [{"from": "S", "to": "MH", "app": {"kind": "bulk"}, "tcp": {"variant": "reno", "syndrome": "downlink"}}],
        "actions": [
            {"kind": "handoff", "at": "5 s", "node": "MH", "from": "BS1", "to": "BS2", "outage": "0.5 s"},
            {"kind": "handoff", "at": "10 s", "node": "MH", "from": "BS2", "to": "BS1", "outage": "0.5 s"}
        ],
        "agents": [
            {"kind": "syndrome", "node": "BS1", "wireless_neighbor": "MH"},
            {"kind": "syndrome", "node": "BS2", "wireless_neighbor": "MH"}
        ]
    });
    let r = run_value(&v, 1);
    let f = &r.flows[0];
    assert!(f.metrics.u64("syndrome_stamped_packets") > 0 && f.metrics.u64("retransmits_eln") > 0, "{f:?}");
    // BS1's link to MH goes down at 5 s and up at 10.5 s: epochs 1, 2, 3; BS2's up at
    // 5.5 s and down at 10 s likewise.
    assert_eq!(r.agents[0].counters["syndrome_epochs"], 3);
    assert_eq!(r.agents[1].counters["syndrome_epochs"], 3);
    assert!(r.agents[1].counters["syndrome_stamped"] > 0);
}
