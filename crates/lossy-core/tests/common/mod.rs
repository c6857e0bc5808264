//! Helpers shared by the whole-run tests: the shipped scenarios as JSON, runs, the
//! deterministic part of a result, and the seeded generator of random scenarios.
#![allow(dead_code)] // each test binary uses a different subset

use lossy_core::{parse_json, run, RunResult, Scenario};
use serde_json::{json, Value};

/// The shipped scenarios, by file stem (`scenarios/<name>.toml`).
pub const SHIPPED: [&str; 4] = ["one-hop", "last-hop", "ns3-compare", "two-rtts"];

pub fn scenario_file(name: &str) -> Value {
    let path = format!("{}/../../scenarios/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("scenario file");
    toml_to_json(&text)
}

/// The shipped scenarios are TOML; the core takes JSON. Python's tomllib converts them,
/// which keeps TOML out of the core's dependencies.
pub fn toml_to_json(text: &str) -> Value {
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

pub fn scenario(v: &Value) -> Scenario {
    parse_json(&v.to_string()).expect("valid scenario")
}

pub fn run_value(v: &Value, seed: u64) -> RunResult {
    run(&scenario(v), seed, 0).unwrap_or_else(|e| panic!("run failed: {e}"))
}

/// The result without wall-clock fields, for bit-for-bit comparisons.
pub fn deterministic_part(r: &RunResult) -> Value {
    let mut v: Value = serde_json::from_str(&r.to_json()).unwrap();
    for k in ["wall_s", "events_per_s", "sim_s_per_wall_s"] {
        v["summary"].as_object_mut().unwrap().remove(k);
    }
    v
}

/// Random chains of 2-4 nodes with random rates, delays, queues, loss on every
/// direction, TCP options and apps; case `case` of the seeded sequence.
pub fn random_scenarios(n: usize) -> Vec<Value> {
    let mut rng = lossy_core::rng::RngStream::new(5, 0, "random-scenarios");
    let mut pick = |n: u64| rng.next_u64() % n;
    (0..n)
        .map(|case| {
            let n_nodes = 2 + pick(3) as usize;
            random_chain(case, n_nodes)
        })
        .collect()
}

fn random_chain(case: usize, n_nodes: usize) -> Value {
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
    v
}
