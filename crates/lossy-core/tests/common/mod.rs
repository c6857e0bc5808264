//! Helpers shared by the whole-run tests: the shipped scenarios as JSON, runs, the
//! deterministic part of a result, and the seeded generator of random scenarios.
#![allow(dead_code)] // each test binary uses a different subset

use lossy_core::{parse_json, run, RunResult, Scenario};
use serde_json::{json, Value};

/// The shipped scenarios, by file stem: every `scenarios/<name>.toml`, sorted, so a new
/// scenario cannot be left out of the golden results.
pub fn shipped() -> Vec<String> {
    let dir = format!("{}/../../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("scenarios directory")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".toml").map(str::to_string))
        .collect();
    names.sort();
    names
}

/// The one-line error a bad scenario gets, from parsing or from building the run.
pub fn run_error(v: &Value) -> String {
    match parse_json(&v.to_string()) {
        Err(e) => e.to_string(),
        Ok(s) => run(&s, 1, 0).err().map(|e| e.to_string()).unwrap_or_else(|| panic!("ran, but should fail: {v}")),
    }
}

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
    for k in ["wall_s", "cpu_s", "events_per_s", "sim_s_per_wall_s"] {
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

/// Random chains and stars of 3-6 nodes with random loss, reordering and duplication on
/// some directions, links starting down, and up to 3 actions (a link going down and
/// maybe up again, a detach, a hand-off of the last node); case `case` of the seeded
/// sequence. Every flow has a route at some time: the base chain or star joins every
/// node, a base link that starts down comes up by 4 s, and nothing disrupts the network
/// before 5 s.
pub fn random_scenarios_with_actions(n: usize) -> Vec<Value> {
    let mut rng = lossy_core::rng::RngStream::new(6, 0, "random-actions");
    (0..n).map(|case| random_network(case, &mut rng)).collect()
}

/// Draws of one random scenario: `pick(n)` is uniform on 0..n, `ms(a, b)` a time in
/// milliseconds uniform on [a, b) s.
struct Draws<'a>(&'a mut lossy_core::rng::RngStream);

impl Draws<'_> {
    fn pick(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n
    }
    fn ms(&mut self, a: f64, b: f64) -> String {
        format!("{} ms", ((a + (b - a) * self.0.uniform()) * 1000.0).round() as u64)
    }
    /// Uniform on [a, b), rounded to 3 decimals (seconds to the millisecond, or a p).
    fn real(&mut self, a: f64, b: f64) -> f64 {
        ((a + (b - a) * self.0.uniform()) * 1000.0).round() / 1000.0
    }
    /// Reordering and/or duplication with p up to 0.2, or none.
    fn impair(&mut self) -> Value {
        let mut v = json!({});
        if self.pick(3) == 0 {
            let a = 1 + self.pick(5);
            v["reorder"] = json!({"p": self.real(0.01, 0.2), "displacement": [a, a + self.pick(10)]});
        }
        if self.pick(3) == 0 {
            let a = 1 + self.pick(5);
            v["duplicate"] = json!({"p": self.real(0.01, 0.2), "distance": [a, a + self.pick(20)]});
        }
        if self.pick(4) == 0 {
            v["max_hold"] = json!(self.ms(0.05, 1.0));
        }
        v
    }
    fn loss(&mut self) -> Value {
        match self.pick(4) {
            0 => json!({"model": "none"}),
            1 => json!({"model": "bernoulli", "p": self.real(0.0, 0.05)}),
            2 => json!({"model": "gilbert_elliott", "p": 0.02, "r": 0.3}),
            _ => json!({"model": "ber", "ber": 1e-5}),
        }
    }
}

fn random_network(case: usize, rng: &mut lossy_core::rng::RngStream) -> Value {
    let mut d = Draws(rng);
    let n_nodes = 3 + d.pick(4) as usize;
    let star = d.pick(2) == 1;
    let nodes: Vec<String> = (0..n_nodes).map(|i| format!("n{i}")).collect();
    let last = n_nodes - 1;
    // Base links (chain n0-n1-...; star with hub n0) join every node; then the last node's
    // second attachment, down until a hand-off uses it.
    let mut ends: Vec<(usize, usize)> = if star { (1..n_nodes).map(|i| (0, i)).collect() } else { (0..last).map(|i| (i, i + 1)).collect() };
    let n_base = ends.len();
    let bs1 = ends[n_base - 1].0;
    let bs2 = if star { 1 } else { last - 2 };
    ends.push((bs2, last));
    let duration = 10 + d.pick(6);
    let mut links: Vec<Value> = Vec::new();
    for (i, &(a, b)) in ends.iter().enumerate() {
        let mut l = json!({
            "between": [nodes[a], nodes[b]],
            "rate": format!("{} kbps", 500 + 500 * d.pick(8)),
            "delay": d.ms(0.001, 0.03),
            "queue": format!("{} packets", 5 + d.pick(40)),
            "loss": d.loss(),
            "impair": d.impair(),
            "reverse_impair": d.impair(),
        });
        if d.pick(3) == 0 {
            l["reverse_loss"] = d.loss();
        }
        if i == n_base {
            l["up"] = json!(false);
        }
        links.push(l);
    }
    let mut actions = Vec::new();
    let n_actions = d.pick(4);
    // A base link that starts down comes up by 4 s (one of the actions).
    if n_actions > 0 && d.pick(2) == 0 {
        let k = d.pick(n_base as u64) as usize;
        links[k]["up"] = json!(false);
        actions.push(json!({"kind": "link_up", "at": d.ms(0.5, 4.0), "link": links[k]["between"]}));
    }
    let end = duration as f64 - 1.0;
    while (actions.len() as u64) < n_actions {
        match d.pick(3) {
            0 => {
                let k = d.pick(n_base as u64) as usize;
                let at = d.real(5.0, end - 1.0);
                actions.push(json!({"kind": "link_down", "at": format!("{at} s"), "link": links[k]["between"]}));
                if d.pick(2) == 0 && (actions.len() as u64) < n_actions {
                    let back = d.real(at + 0.1, end);
                    actions.push(json!({"kind": "link_up", "at": format!("{back} s"), "link": links[k]["between"]}));
                }
            }
            1 => actions.push(json!({"kind": "detach", "at": d.ms(5.0, end), "node": nodes[d.pick(n_nodes as u64) as usize]})),
            _ if actions.iter().any(|a| a["kind"] == "handoff") => {}
            _ => {
                let at = d.real(5.0, end - 2.0);
                actions.push(json!({"kind": "handoff", "at": format!("{at} s"), "node": nodes[last],
                                    "from": nodes[bs1], "to": nodes[bs2], "outage": d.ms(0.1, 2.0)}));
            }
        }
    }
    let variant = ["tahoe", "reno", "newreno"][d.pick(3) as usize];
    let src = if star { 1 } else { 0 };
    let app = if d.pick(4) == 0 { json!({"kind": "file", "size": "300 KB"}) } else { json!({"kind": "bulk"}) };
    let mut flows = vec![json!({"from": nodes[src], "to": nodes[last], "app": app,
        "tcp": {"variant": variant, "initial_window": 1 + d.pick(4), "min_rto": "200 ms", "timer_granularity": "10 ms"}})];
    if d.pick(3) == 0 {
        flows.push(json!({"from": nodes[last], "to": nodes[src], "start": d.ms(0.0, 2.0),
                          "app": {"kind": "cbr", "rate": "100 kbps", "packet_size": "500 B"}}));
    }
    if n_nodes > 3 && d.pick(2) == 0 {
        flows.push(json!({"from": nodes[last - 1], "to": nodes[src], "app": {"kind": "bulk"}}));
    }
    let mut v = json!({"name": format!("random-actions-{case:02}"), "nodes": nodes, "links": links,
                       "flows": flows, "actions": actions, "duration": format!("{duration} s")});
    if d.pick(2) == 0 {
        v["agents"] = json!([{"kind": "eln", "node": nodes[bs1], "wireless_neighbors": [nodes[last]]}]);
    }
    v
}
