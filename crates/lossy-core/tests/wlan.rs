//! Whole runs over the 802.11b WLAN segment (`net/wlan/`): saturated UDP stations
//! against Bianchi's model through the world, TCP over a lossy WLAN hop with and
//! without EWLN (headers counted apart from data, conservation), determinism, and
//! every bad-input message. The end-of-run invariants are checked inside `run`.

mod common;

use common::{deterministic_part, run_error, run_value};
use lossy_core::net::wlan::{bianchi, phy::Phy};
use serde_json::{json, Value};

/// `n` stations each sending CBR at 3 Mbit/s (more than the 2 Mbit/s medium carries)
/// to station "sink", for `secs` seconds.
fn saturated(n: usize, secs: u64, rts: bool) -> Value {
    let mut nodes = vec!["sink".to_string()];
    nodes.extend((1..=n).map(|i| format!("s{i}")));
    let flows: Vec<Value> = (1..=n)
        .map(|i| json!({"from": format!("s{i}"), "to": "sink", "app": {"kind": "cbr", "rate": "3 Mbps", "packet_size": "972 B", "header": "28 B"}}))
        .collect();
    let mut wlan = json!({"stations": nodes, "queue": "10 packets"});
    if rts {
        wlan["rts_threshold"] = json!("0 B");
    }
    json!({"nodes": nodes, "wlans": [wlan], "flows": flows, "duration": format!("{secs} s")})
}

#[test]
fn saturated_udp_stations_through_the_world_match_bianchi() {
    let phy = Phy::new(2_000_000, 1_000_000, 28);
    for (n, rts) in [(1, false), (5, false), (10, true)] {
        let r = run_value(&saturated(n, 30, rts), 1);
        let bits: f64 = r.flows.iter().map(|f| f.bytes_delivered as f64 * 8.0 * 1000.0 / 972.0).sum();
        let got = bits / 30.0;
        let model = bianchi::saturation(n as u32, &phy, 31, 1023, 1000, rts).throughput_bps;
        println!("n={n} rts={rts}: {got:.0} bit/s, Bianchi {model:.0} bit/s");
        assert!((got / model - 1.0).abs() < 0.02, "n={n}: {got} vs {model}");
        assert!(r.summary.drops_queue > 0, "saturated queues overflow");
    }
}

/// Topology 1 of Shagdar et al.: MH →(WLAN, 2 Mbit/s)→ BS →(wire)→ FH, TCP Reno with
/// 1000-byte segments, BER `ber` on the WLAN.
fn topology1(ber: f64, ewln: bool) -> Value {
    json!({
        "nodes": ["MH", "BS", "FH"],
        "links": [{"between": ["BS", "FH"], "rate": "10 Mbps", "delay": "10 ms"}],
        "wlans": [{"stations": ["MH", "BS"], "loss": {"model": "ber", "ber": ber}, "ewln": ewln}],
        "flows": [{"from": "MH", "to": "FH", "tcp": {"variant": "reno", "mss": "1000 B", "max_window": "20 KB"}}],
        "duration": "20 s"
    })
}

fn pair<'a>(r: &'a lossy_core::RunResult, name: &str) -> &'a lossy_core::result::LinkSummary {
    r.links.iter().find(|l| l.name == name && l.metrics.get("mac_collisions").is_some()).unwrap_or_else(|| panic!("no WLAN row {name}"))
}

#[test]
fn tcp_over_a_lossy_wlan_retries_and_conserves_packets() {
    // BER 1e-4: a 1068-byte data frame is corrupted with probability ≈ 0.57, so some
    // frames run out of their 7 attempts (0.57^7 ≈ 2 %).
    let r = run_value(&topology1(1e-4, false), 1);
    let up = pair(&r, "MH->BS");
    assert!(up.metrics.u64("link_transmissions") > up.packets_delivered + up.metrics.u64("link_retry_drops"));
    assert!(up.metrics.u64("link_retry_drops") > 0 && up.channel_losses > 0, "{up:?}");
    assert_eq!((up.metrics.u64("ewln_marked"), r.summary.packets_corrupt_delivered), (0, 0));
    assert!(r.flows[0].goodput_bps > 0.0);
    // TCP ACKs compete for the same medium the other way.
    assert!(pair(&r, "BS->MH").packets_delivered > 0);
}

#[test]
fn ewln_headers_reach_the_receiver_counted_apart_from_data() {
    let r = run_value(&topology1(1e-4, true), 1);
    let up = pair(&r, "MH->BS");
    let marked = up.metrics.u64("ewln_marked");
    assert!(marked > 0, "{up:?}");
    // Only TCP ACKs (never kept for EWLN) can still be dropped at the retry limit.
    let down = pair(&r, "BS->MH");
    assert_eq!(up.metrics.u64("link_retry_drops"), 0);
    // Every marked header crossed the wire to FH, or is still on its way at the end.
    let s = &r.summary;
    assert!(s.packets_corrupt_delivered <= marked && s.packets_corrupt_delivered + 2 >= marked, "{s:?} vs {marked}");
    assert!(s.packets_delivered + s.packets_corrupt_delivered <= s.packets_delivered_all);
    // Their bytes are not data received: the flow delivered only what it counted.
    let plain = run_value(&topology1(1e-4, false), 1);
    assert!(r.flows[0].bytes_delivered > 0 && plain.flows[0].bytes_delivered > 0);
    let _ = down;
}

#[test]
fn same_seed_same_result_other_seed_other_result() {
    let v = topology1(5e-5, true);
    let a = deterministic_part(&run_value(&v, 3));
    assert_eq!(a, deterministic_part(&run_value(&v, 3)));
    assert_ne!(a, deterministic_part(&run_value(&v, 4)));
}

#[test]
fn bad_wlan_fields_say_what_is_allowed() {
    let base = || topology1(1e-5, false);
    let with = |field: &str, value: Value| {
        let mut v = base();
        v["wlans"][0][field] = value;
        v
    };
    let cases: Vec<(Value, &str)> = vec![
        (with("short_retry_limit", json!(0)), "wlans.0.short_retry_limit: 0 is not allowed; use 1 to 255 attempts (default 7)"),
        (with("long_retry_limit", json!(1000)), "wlans.0.long_retry_limit: 1000 is not allowed; use 1 to 255 attempts (default 4)"),
        (with("cw_min", json!(2047)), "wlans.0.cw_min: 2047 is more than cw_max = 1023; use cw_min <= cw_max"),
        (with("cw_max", json!(0)), "wlans.0.cw_max: 0 is not allowed; use 1 to 65535 slots (default 1023)"),
        (with("stations", json!(["MH"])), "wlans.0.stations: 1 station(s) given; a WLAN needs at least 2"),
        (with("stations", json!(["MH", "XX"])), r#"wlans.0.stations.1: "XX" is not a node; nodes are MH, BS, FH"#),
        (with("stations", json!(["MH", "MH"])), r#"wlans.0.stations.1: "MH" is listed twice; a station joins a WLAN once"#),
        (with("rate", json!("3 Mbps")), "wlans.0.rate: 3 Mbps is not an 802.11b rate; use 1, 2, 5.5 or 11 Mbps"),
        (with("basic_rate", json!("54 Mbps")), "wlans.0.basic_rate: 54 Mbps is not an 802.11b rate; use 1, 2, 5.5 or 11 Mbps"),
        (with("rate", json!("NaN Mbps")), r#"wlans.0.rate: NaN Mbps is not a finite number; use 1 bps to 1 Tbps"#),
        (with("loss", json!({"model": "ber", "ber": f64::NAN})), "wlans.0.loss: nothing is not allowed; use a number"),
        // (JSON has no NaN: serde_json writes null, and the path stops at the tagged table, as for links.)
        (with("loss", json!({"model": "bernoulli", "p": 1.5})), "wlans.0.loss.p: 1.5 is not a probability; use a number in [0, 1]"),
        (with("cw_min", json!(15.5)), "wlans.0.cw_min: 15.5 is not allowed; use a whole number from 0 to 4,294,967,295"),
        (with("ewln", json!("yes")), r#"wlans.0.ewln: "yes" is not allowed; use true or false"#),
        (with("retries", json!(3)), "wlans.0.retries: unknown field `retries`; use one of: stations, rate, basic_rate, queue, loss, ewln, short_retry_limit, long_retry_limit, cw_min, cw_max, rts_threshold, mac_header"),
    ];
    let mut wrong = Vec::new();
    for (v, want) in &cases {
        let got = run_error(v);
        if got != *want {
            wrong.push(format!("  got  {got}\n  want {want}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn a_wlan_alone_makes_a_network() {
    let v = json!({
        "nodes": ["a", "b"],
        "wlans": [{"stations": ["a", "b"]}],
        "flows": [{"from": "a", "to": "b", "app": {"kind": "file", "size": "100 KB"}}],
        "duration": "10 s"
    });
    let r = run_value(&v, 1);
    assert_eq!(r.flows[0].bytes_delivered, 100_000);
    let v = json!({"nodes": ["a", "b"], "flows": [{"from": "a", "to": "b"}]});
    assert_eq!(run_error(&v), "links: no links given; add at least one [[links]] (or [[wlans]]) table");
}

/// Shagdar's whole scheme: the MAC marks what it gave up on, the receiver names it, the
/// sender resends it at once without reducing its window. At BER 2e-4 about 85 % of
/// 1068-byte frames are corrupted, so ~32 % of packets run out of 7 attempts.
#[test]
fn ewln_end_to_end_resends_at_once_and_spares_the_window() {
    let with = |ewln: bool| {
        let mut v = topology1(2e-4, ewln);
        v["flows"][0]["tcp"]["ewln"] = json!(ewln);
        v["duration"] = json!("60 s");
        v
    };
    let (mut on, mut off) = ((0.0, 0, 0, 0), (0.0, 0, 0, 0));
    for seed in 1..=3 {
        for (ewln, acc) in [(true, &mut on), (false, &mut off)] {
            let r = run_value(&with(ewln), seed);
            let f = &r.flows[0];
            *acc = (acc.0 + f.goodput_bps / 3.0, acc.1 + f.metrics.u64("retransmits_ewln"), acc.2 + f.metrics.u64("ewln_acks"), acc.3 + f.metrics.u64("window_reductions"));
        }
    }
    assert!(on.1 > 0 && on.2 >= on.1, "EWLN resends {} on {} EWLN ACKs", on.1, on.2);
    assert_eq!((off.1, off.2), (0, 0), "no EWLN without it");
    assert!(on.3 < off.3, "window reductions: EWLN {} vs Reno {}", on.3, off.3);
    assert!(on.0 > 1.2 * off.0, "goodput: EWLN {} vs Reno {}", on.0, off.0);
    // EWLN on TCP but not on the WLAN: nothing is marked, and the run says so.
    let mut v = with(true);
    v["wlans"][0]["ewln"] = json!(false);
    let r = run_value(&v, 1);
    assert_eq!(r.flows[0].metrics.u64("ewln_corrupt_received"), 0);
    assert!(r.notes.iter().any(|n| n.contains("tcp.ewln is on but no corrupted header")), "{:?}", r.notes);
}
