//! Whole runs of the shipped scenarios and of every loss model: the end-of-run
//! invariants (checked inside `run`) hold, results are bit-for-bit reproducible, and the
//! basic orderings a user would expect come out.

use lossy_core::{parse_json, run, RunResult, Scenario};
use serde_json::{json, Value};

fn scenario_file(name: &str) -> Value {
    let path = format!("{}/../../scenarios/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("scenario file");
    toml_to_json(&text)
}

/// The shipped scenarios are TOML; the core takes JSON. A tiny converter for the
/// subset they use keeps TOML out of the core's dependencies.
fn toml_to_json(text: &str) -> Value {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys, tomllib, json; print(json.dumps(tomllib.loads(sys.stdin.read())))"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(text.as_bytes())?;
            c.wait_with_output()
        })
        .expect("python3 converts TOML");
    serde_json::from_slice(&out.stdout).expect("converted JSON")
}

fn scenario(v: &Value) -> Scenario {
    parse_json(&v.to_string()).expect("valid scenario")
}

fn run_value(v: &Value, seed: u64) -> RunResult {
    run(&scenario(v), seed, 0).unwrap_or_else(|e| panic!("run failed: {e}"))
}

/// The result without wall-clock fields, for bit-for-bit comparisons.
fn deterministic_part(r: &RunResult) -> Value {
    let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
    for k in ["wall_s", "events_per_s", "sim_s_per_wall_s"] {
        v["summary"].as_object_mut().unwrap().remove(k);
    }
    v
}

#[test]
fn shipped_scenarios_run_with_invariants() {
    for name in ["one-hop", "last-hop", "ns3-compare", "two-rtts"] {
        let mut v = scenario_file(name);
        v["duration"] = json!("20 s");
        let r = run_value(&v, 1);
        assert!(r.flows.iter().all(|f| f.bytes_delivered > 0), "{name}: a flow delivered nothing");
    }
}

#[test]
fn same_seed_same_bits_and_seeds_differ() {
    let mut v = scenario_file("last-hop");
    v["duration"] = json!("30 s");
    let a = deterministic_part(&run_value(&v, 7));
    let b = deterministic_part(&run_value(&v, 7));
    assert_eq!(a, b);
    let c = deterministic_part(&run_value(&v, 8));
    assert_ne!(a["flows"], c["flows"]);
}

#[test]
fn every_loss_model_runs_with_invariants() {
    let models = [
        json!({"model": "none"}),
        json!({"model": "bernoulli", "p": 0.03}),
        json!({"model": "ber", "ber": 2e-5}),
        json!({"model": "gilbert_elliott", "p": 0.01, "r": 0.3}),
        json!({"model": "gilbert", "p_ge": 0.006, "p_eg": 0.05}),
        json!({"model": "gilbert", "p_ge": 1e-5, "p_eg": 0.01, "unit": "bit"}),
        json!({"model": "markov", "mean_a": "75 ms", "mean_b": "3.75 ms", "loss_a": 0.0002, "loss_b": 0.5}),
        json!({"model": "trace", "packets": [3, 4, 5, 100, 101]}),
        json!({"model": "trace", "times": ["1 s", "2.5 s"]}),
    ];
    for variant in ["tahoe", "reno", "newreno"] {
        for m in &models {
            let mut v = scenario_file("last-hop");
            v["duration"] = json!("20 s");
            v["links"][1]["loss"] = m.clone();
            // Lossy ACKs too: the reverse path is allowed to lose.
            v["links"][1]["reverse_loss"] = json!({"model": "bernoulli", "p": 0.01});
            v["flows"][0]["tcp"]["variant"] = json!(variant);
            let r = run_value(&v, 3);
            assert!(r.flows[0].bytes_delivered > 0, "{variant} {m}");
        }
    }
}

#[test]
fn file_transfer_completes_and_the_run_stops() {
    let mut v = scenario_file("last-hop");
    v["flows"][0]["app"] = json!({"kind": "file", "size": "500 KB"});
    v["flows"][0]["tcp"]["delayed_ack"] = json!("100 ms");
    let r = run_value(&v, 2);
    let f = &r.flows[0];
    assert_eq!(f.bytes_delivered, 500_000);
    let t = f.completion_time_s.expect("completed");
    assert!(t > 2.0 && t < 20.0, "{t}");
    assert!((r.summary.sim_time_s - t).abs() < 1e-9, "the run stops when the file is delivered");
}

#[test]
fn cbr_over_udp_delivers_at_its_rate() {
    let v = json!({
        "nodes": ["a", "b"],
        "duration": "10 s",
        "links": [{"between": ["a", "b"], "rate": "10 Mbps", "delay": "5 ms", "loss": {"model": "bernoulli", "p": 0.1}}],
        "flows": [{"from": "a", "to": "b", "app": {"kind": "cbr", "rate": "1 Mbps", "packet_size": "1000 B"}}]
    });
    let r = run_value(&v, 1);
    let g = r.flows[0].goodput_bps;
    // 1 Mbps offered, 10 % lost: 0.9 Mbps within a few standard errors (1250 datagrams).
    assert!((g - 0.9e6).abs() < 0.03e6, "{g}");
}

#[test]
fn shorter_rtt_gets_the_larger_share() {
    // RTTs about 105 and 170 ms under load: a ratio near 1.6 is expected; 1.2 leaves
    // room for the spread of three seeds.
    let (mut short, mut long) = (0.0, 0.0);
    for seed in 1..=3 {
        let r = run_value(&scenario_file("two-rtts"), seed);
        short += r.flows[0].goodput_bps / 3.0;
        long += r.flows[1].goodput_bps / 3.0;
    }
    assert!(short > 1.2 * long, "short {short} long {long}");
    // Together they fill most of the 4 Mbps bottleneck.
    assert!(short + long > 3.4e6, "{}", short + long);
}

#[test]
fn eln_agent_state_is_reported() {
    let r = run_value(&scenario_file("last-hop"), 1);
    let a = &r.agents[0];
    assert_eq!(a.kind, "eln");
    assert!(a.state_bytes_max >= 8 && a.state_bytes_mean > 0.0);
    assert!(a.counters["eln_marked"] > 0);
    assert!(r.flows[0].counters.retransmits_eln > 0);
}

#[test]
fn traces_are_recorded_when_switched_on() {
    let mut v = scenario_file("last-hop");
    v["duration"] = json!("5 s");
    v["traces"] = json!({"cwnd": true, "seq": true, "throughput": true, "throughput_interval": "500 ms"});
    let r = run_value(&v, 1);
    let names: Vec<&str> = r.traces.iter().map(|t| t.name).collect();
    assert_eq!(names, ["cwnd", "seq", "throughput"]);
    let tp = &r.traces[2];
    match &tp.columns[0].1 {
        lossy_core::result::Column::F64(t) => assert_eq!(t.len(), 10),
        _ => panic!("time column"),
    }
}

#[test]
fn bad_scenarios_name_the_field() {
    let mut v = scenario_file("last-hop");
    v["flows"][0]["to"] = json!("XX");
    let e = run(&scenario(&v), 1, 0).unwrap_err().to_string();
    assert_eq!(e, "flows[0].to: \"XX\" is not a node; nodes are S, BS, MH");
    let mut v = scenario_file("last-hop");
    v["links"][1]["loss"] = json!({"model": "bernoulli", "p": 1.5});
    let e = run(&scenario(&v), 1, 0).unwrap_err().to_string();
    assert!(e.starts_with("links[1].loss.p: 1.5 is not a probability"), "{e}");
}

/// Random chains of 2-4 nodes with random rates, delays, queues, loss on every
/// direction, TCP options and apps: every run must pass the end-of-run invariants and
/// repeat bit for bit.
#[test]
fn random_scenarios_keep_the_invariants() {
    let mut rng = lossy_core::rng::RngStream::new(5, 0, "random-scenarios");
    let mut pick = |n: u64| rng.next_u64() % n;
    for case in 0..40 {
        let n_nodes = 2 + pick(3) as usize;
        let nodes: Vec<String> = (0..n_nodes).map(|i| format!("n{i}")).collect();
        let loss = |k: u64| match k {
            0 => json!({"model": "none"}),
            1 => json!({"model": "bernoulli", "p": 0.05}),
            2 => json!({"model": "gilbert_elliott", "p": 0.02, "r": 0.3}),
            _ => json!({"model": "ber", "ber": 1e-5}),
        };
        let links: Vec<Value> = (0..n_nodes - 1)
            .map(|i| {
                json!({
                    "between": [nodes[i], nodes[i + 1]],
                    "rate": format!("{} kbps", 200 + 100 * (i as u64 + 1) * 7),
                    "delay": format!("{} ms", 1 + 7 * i),
                    "queue": if i % 2 == 0 { json!("20 packets") } else { json!("30 KB") },
                    "loss": loss((case + i) as u64 % 4),
                    "reverse_loss": loss((case / 2 + i) as u64 % 2),
                })
            })
            .collect();
        let variant = ["tahoe", "reno", "newreno"][case % 3];
        let app = if case % 4 == 0 { json!({"kind": "file", "size": "200 KB"}) } else { json!({"kind": "bulk"}) };
        let mut flows = vec![json!({
            "from": nodes[0], "to": nodes[n_nodes - 1], "app": app,
            "tcp": {"variant": variant, "initial_window": 1 + case % 4, "limited_transmit": case % 2 == 0,
                    "delayed_ack": if case % 3 == 0 { json!("100 ms") } else { Value::Null },
                    "dupack_threshold": 2 + case % 3, "min_rto": "200 ms", "timer_granularity": "10 ms"}
        })];
        if case % 5 == 0 {
            flows.push(json!({"from": nodes[n_nodes - 1], "to": nodes[0], "start": "1 s",
                              "app": {"kind": "cbr", "rate": "100 kbps", "packet_size": "500 B"}}));
        }
        let mut v = json!({"nodes": nodes, "links": links, "flows": flows, "duration": "15 s"});
        if case % 2 == 1 && n_nodes > 2 {
            v["agents"] = json!([{"kind": "eln", "node": nodes[n_nodes - 2], "wireless_neighbor": nodes[n_nodes - 1]}]);
        }
        if let Some(o) = v["flows"][0]["tcp"].as_object_mut() {
            o.retain(|_, x| !x.is_null());
        }
        let r = run_value(&v, case as u64);
        // Some cases are harsh (a per-packet Gilbert burst meets cwnd = 1 and backoff),
        // but every flow gets data through.
        assert!(r.flows[0].bytes_delivered > 0, "case {case}: {v}");
        let a = deterministic_part(&r);
        let b = deterministic_part(&run_value(&v, case as u64));
        assert_eq!(a, b, "case {case} is not reproducible");
    }
}
