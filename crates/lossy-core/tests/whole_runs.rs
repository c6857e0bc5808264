//! Whole runs of the shipped scenarios and of every loss model: the end-of-run
//! invariants (checked inside `run`) hold, results are bit-for-bit reproducible, and the
//! basic orderings a user would expect come out.

mod common;

use common::{deterministic_part, random_scenarios, run_value, scenario, scenario_file};
use lossy_core::channel::LossConfig;
use lossy_core::run;
use lossy_core::tcp::cc::CcChoice;
use lossy_core::tcp::recovery::AnyLossRecovery;
use lossy_core::tcp::LossRecoveryConfig;
use serde_json::{json, Value};

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
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn every_loss_model_runs_with_invariants() {
    // Examples keyed by their `LossConfig` variant; the loops run over the generated
    // lists (`LossConfig::VARIANTS`, the schema's `tcp.variant` values), so a model or
    // a recovery added to its list cannot be left out.
    let examples = [
        ("None", json!({"model": "none"})),
        ("Bernoulli", json!({"model": "bernoulli", "p": 0.03})),
        ("Ber", json!({"model": "ber", "ber": 2e-5})),
        ("Snr", json!({"model": "snr", "snr_db": 10.5})),
        ("GilbertElliott", json!({"model": "gilbert_elliott", "p": 0.01, "r": 0.3})),
        ("Gilbert", json!({"model": "gilbert", "p_ge": 0.006, "p_eg": 0.05})),
        ("Gilbert", json!({"model": "gilbert", "p_ge": 1e-5, "p_eg": 0.01, "unit": "bit"})),
        ("Markov", json!({"model": "markov", "mean_a": "75 ms", "mean_b": "3.75 ms", "loss_a": 0.0002, "loss_b": 0.5})),
        ("Rayleigh", json!({"model": "rayleigh", "mean_snr_db": 30, "doppler_hz": 10})),
        ("Trace", json!({"model": "trace", "packets": [3, 4, 5, 100, 101]})),
        ("Trace", json!({"model": "trace", "times": ["1 s", "2.5 s"]})),
        ("Neyman", json!({"model": "neyman", "errors_per_cluster": 3, "packet_loss": 0.03, "packet_bytes": 1040})),
        ("Neyman", json!({"model": "neyman", "unit": "packet", "errors_per_cluster": 2, "clusters_per_unit": 0.01, "span": 4})),
    ];
    let mut models = Vec::new();
    for variant in LossConfig::VARIANTS {
        let mine: Vec<&Value> = examples.iter().filter(|(v, _)| v == variant).map(|(_, m)| m).collect();
        assert!(!mine.is_empty(), "loss model {variant} has no example: add one to every_loss_model_runs_with_invariants in tests/whole_runs.rs");
        for m in mine {
            let cfg: LossConfig = serde_json::from_value(m.clone()).unwrap_or_else(|e| panic!("{m}: {e}"));
            assert!(format!("{cfg:?}").starts_with(&format!("{variant}(")), "{m} is filed under {variant}");
            models.push(m);
        }
    }
    let schema = serde_json::to_value(schemars::schema_for!(LossRecoveryConfig)).unwrap();
    let recoveries: Vec<Value> = schema["oneOf"].as_array().expect("tcp.variant's values").iter().map(|v| v["const"].clone()).collect();
    assert!(recoveries.len() >= AnyLossRecovery::VARIANTS.len(), "{recoveries:?}");
    for variant in &recoveries {
        for m in &models {
            let mut v = scenario_file("last-hop");
            v["duration"] = json!("20 s");
            v["links"][1]["loss"] = (*m).clone();
            // Lossy ACKs too: the reverse path is allowed to lose.
            v["links"][1]["reverse_loss"] = json!({"model": "bernoulli", "p": 0.01});
            v["flows"][0]["tcp"]["variant"] = variant.clone();
            let r = run_value(&v, 3);
            assert!(r.flows[0].bytes_delivered > 0, "{variant} {m}");
        }
    }
}

#[test]
fn every_congestion_control_runs_with_invariants_over_every_recovery() {
    // Every `tcp.cc` kind (the generated list) with every recovery, on a lossy last hop
    // with lossy ACKs: the end-of-run invariants hold and data gets through.
    let recoveries: Vec<Value> = serde_json::to_value(schemars::schema_for!(LossRecoveryConfig)).unwrap()["oneOf"]
        .as_array()
        .expect("tcp.variant's values")
        .iter()
        .map(|v| v["const"].clone())
        .collect();
    for cc in CcChoice::kinds() {
        for variant in &recoveries {
            let mut v = scenario_file("last-hop");
            v["duration"] = json!("20 s");
            v["links"][1]["reverse_loss"] = json!({"model": "bernoulli", "p": 0.01});
            v["flows"][0]["tcp"]["variant"] = variant.clone();
            v["flows"][0]["tcp"]["cc"] = json!(cc);
            let r = run_value(&v, 3);
            assert!(r.flows[0].bytes_delivered > 0, "{cc} {variant}");
        }
    }
}

#[test]
fn bbr_fills_a_10_mbps_fifo_path() {
    // ns-3's BBR validation set-up (10 Mbit/s, 10 ms base RTT, FIFO): with pacing and
    // ProbeRTT's 2 % (draft-cardwell-iccrg-bbr-congestion-control-00 §4.3.5), goodput
    // stays within 5 % of what 1042 B frames leave for 1000 B of payload, and no
    // segment is lost.
    let v = json!({
        "duration": "30 s",
        "nodes": ["A", "B"],
        "links": [{"between": ["A", "B"], "rate": "10 Mbps", "delay": "5 ms", "queue": "100 packets"}],
        "flows": [{"from": "A", "to": "B", "app": {"kind": "bulk"},
                   "tcp": {"variant": "sack", "cc": "bbr", "mss": "1000 B", "header": "42 B", "ack_size": "42 B",
                           "initial_window": 10, "max_window": "16 MiB", "min_rto": "1 s", "timer_granularity": "1 ms"}}]
    });
    let r = run_value(&v, 1);
    let goodput = r.flows[0].bytes_delivered as f64 * 8.0 / 30.0;
    let payload_rate = 10e6 * 1000.0 / 1042.0;
    assert!(goodput > 0.95 * payload_rate && goodput <= payload_rate, "{goodput}");
}

#[test]
fn neyman_bit_errors_are_counted_per_codeword() {
    // Clusters of 3 errors on average (span 6 bits) losing 10 % of 1040-byte packets
    // unprotected: BCH(255, 131) corrects 18 errors per codeword, so nearly every
    // cluster is corrected, while the plain link loses about 10 % of its packets.
    let mut v = scenario_file("last-hop");
    v["duration"] = json!("20 s");
    v["links"][1]["loss"] = json!({"model": "neyman", "errors_per_cluster": 3, "packet_loss": 0.1, "packet_bytes": 1040});
    let plain = run_value(&v, 4);
    v["links"][1]["link_layer"] = json!({"kind": "plain", "coding": {"code": "bch", "n": 255, "k": 131}});
    let coded = run_value(&v, 4);
    let (p, c) = (&plain.links[2], &coded.links[2]);
    assert_eq!((p.name.as_str(), c.name.as_str()), ("BS->MH", "BS->MH"));
    assert!(p.loss_rate > 0.07 && p.loss_rate < 0.13, "{p:?}");
    assert!(c.loss_rate < 0.01 && c.packets_delivered > 0, "{c:?}");
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
    assert!(r.flows[0].metrics.u64("retransmits_eln") > 0);
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
    assert_eq!(e, "flows.0.to: \"XX\" is not a node; nodes are S, BS, MH");
    let mut v = scenario_file("last-hop");
    v["links"][1]["loss"] = json!({"model": "bernoulli", "p": 1.5});
    let e = run(&scenario(&v), 1, 0).unwrap_err().to_string();
    assert!(e.starts_with("links.1.loss.p: 1.5 is not a probability"), "{e}");
}

/// Random chains of 2-4 nodes with random rates, delays, queues, loss on every
/// direction, TCP options and apps: every run must pass the end-of-run invariants and
/// repeat bit for bit.
#[test]
fn random_scenarios_keep_the_invariants() {
    for (case, v) in random_scenarios(40).iter().enumerate() {
        let r = run_value(v, case as u64);
        // Some cases are harsh (a per-packet Gilbert burst meets cwnd = 1 and backoff),
        // but every flow gets data through.
        assert!(r.flows[0].bytes_delivered > 0, "case {case}: {v}");
        let a = deterministic_part(&r);
        let b = deterministic_part(&run_value(v, case as u64));
        assert_eq!(a, b, "case {case} is not reproducible");
    }
}

/// server -- bs -- mh0..mh{n-1}, lossy wireless hops, ELN at bs.
fn star(n: usize) -> Value {
    let mobiles: Vec<String> = (0..n).map(|i| format!("mh{i}")).collect();
    let mut links = vec![json!({"between": ["server", "bs"], "rate": "100 Mbps", "delay": "5 ms"})];
    links.extend(mobiles.iter().map(|m| json!({"between": ["bs", m], "rate": "2 Mbps", "delay": "1 ms", "loss": {"model": "bernoulli", "p": 0.02}})));
    let mut nodes = vec![json!("server"), json!("bs")];
    nodes.extend(mobiles.iter().map(|m| json!(m)));
    json!({"duration": "3 s", "nodes": nodes, "links": links,
           "agents": [{"kind": "eln", "node": "bs", "wireless_neighbors": mobiles}]})
}

/// A flow group is the same flows as the tables it stands for: spaced starts
/// (`every`) reproduce `start = i·spacing` bit for bit; only names and `group` differ.
#[test]
fn a_flow_group_runs_as_the_flows_it_stands_for() {
    let n = 12;
    let mut tables = star(n);
    tables["flows"] = (0..n).map(|i| json!({"from": "server", "to": format!("mh{i}"), "start": format!("{} ms", 0.3 * i as f64), "tcp": {"variant": "reno"}})).collect();
    let mut group = star(n);
    group["flow_groups"] = json!([{"name": "down", "count": n, "from": "server", "to": "mh{i}", "start": {"every": "0.3 ms"}, "tcp": {"variant": "reno"}}]);
    let (a, b) = (run_value(&tables, 4), run_value(&group, 4));
    assert_eq!(b.flows.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), (0..n).map(|i| format!("down.{i}")).collect::<Vec<_>>());
    assert!(b.flows.iter().all(|f| f.group == "down") && a.flows.iter().all(|f| f.group.is_empty()));
    let (mut va, mut vb) = (deterministic_part(&a), deterministic_part(&b));
    for v in [&mut va, &mut vb] {
        for f in v["flows"].as_array_mut().unwrap() {
            f.as_object_mut().unwrap().retain(|k, _| k != "name" && k != "group");
        }
        v["summary"].as_object_mut().unwrap().remove("groups");
    }
    assert_eq!(va, vb);
    // The group's aggregates are the run's (it holds every flow), and say something.
    let g = &b.summary.groups;
    assert_eq!((g.len(), g[0].0.as_str()), (1, "down"));
    assert_eq!(g[0].1, b.summary.aggregates);
    assert_eq!(b.summary.aggregates.flows, n as u64);
    assert!(b.summary.aggregates.goodput_min_bps > 0.0 && b.summary.aggregates.jain_index > 0.5);
}

/// Random start times come from the named stream: the same seed gives the same starts,
/// another stream name other starts, and a group beside plain flows comes after them.
#[test]
fn random_group_starts_follow_their_stream() {
    let mut v = star(6);
    v["flows"] = json!([{"name": "first", "from": "server", "to": "mh0"}]);
    v["flow_groups"] = json!([{"name": "up", "count": 5, "from": "mh{i+1}", "to": "server", "start": {"uniform": ["0 s", "1 s"], "stream": "flow-starts"}},]);
    let a = run_value(&v, 2);
    assert_eq!(a.flows.len(), 6);
    assert_eq!((a.flows[0].name.as_str(), a.flows[1].name.as_str(), a.flows[1].from.as_str()), ("first", "up.0", "mh1"));
    assert_eq!(deterministic_part(&a), deterministic_part(&run_value(&v, 2)));
    v["flow_groups"][0]["start"]["stream"] = json!("other");
    assert_ne!(deterministic_part(&a)["flows"], deterministic_part(&run_value(&v, 2))["flows"]);
}

#[test]
fn every_congestion_control_runs_the_lossy_path_with_invariants() {
    // Every `tcp.cc` kind by name (the generated list), and CUBIC with each slow start,
    // on ns3-compare's lossy path with SACK: the end-of-run invariants hold inside `run`.
    let mut choices: Vec<Value> = lossy_core::tcp::cc::CcChoice::kinds().into_iter().map(Value::from).collect();
    for slow_start in ["hystart", "hystart++", "standard"] {
        choices.push(json!({"kind": "cubic", "slow_start": slow_start}));
    }
    for cc in choices {
        let mut v = scenario_file("ns3-compare");
        v["duration"] = json!("20 s");
        v["flows"][0]["tcp"]["variant"] = json!("sack");
        v["flows"][0]["tcp"]["cc"] = cc.clone();
        let r = run_value(&v, 2);
        assert!(r.flows[0].bytes_delivered > 1_000_000, "{cc}: {}", r.flows[0].bytes_delivered);
    }
}
