//! The result rows' columns (issue 26 item 2): schemes fill an open record of named
//! metrics, and the tables the Python side stores (Parquet) keep their column names,
//! order and types. The expected lists were read from the rows as they were before the
//! record replaced the typed fields (`lossy._core.run` on this scenario).

mod common;

use common::{run_value, scenario_file};
use lossy_core::columns::{to_columns, ColumnData};
use lossy_core::metrics::Metric;
use serde_json::{json, Value};

/// Shagdar's topology 2 (TCP through RED with ECN, then an 802.11b WLAN) plus a UDP CBR
/// flow, a FECTCP file transfer, and an ARQ link layer with lossy NAKs on the first link.
fn mixed() -> Value {
    let mut v = scenario_file("shagdar-t2");
    v["duration"] = json!("20 s");
    let first = &mut v["links"][0];
    first["loss"] = json!({"model": "bernoulli", "p": 0.01});
    first["link_layer"] = json!({"kind": "arq", "payload": "32 B", "attempts": 16, "nak": {"delay": "link", "loss": 0.01}, "delivery": "in_order"});
    let flows = v["flows"].as_array_mut().unwrap();
    flows.push(json!({"name": "cbr", "from": "W2", "to": "M1", "app": {"kind": "cbr", "rate": "200 kbps", "packet_size": "500 B"}}));
    flows.push(json!({"name": "file", "from": "W1", "to": "W3", "app": {"kind": "file", "size": "200 KB"}, "transport": "fectcp", "fectcp": {"overhead": 0.05}}));
    v
}

#[derive(Debug, PartialEq, Clone, Copy)]
enum Kind {
    U,
    F,
    S,
}
use Kind::*;

fn kinds(t: &lossy_core::columns::Table) -> Vec<(String, Kind)> {
    t.columns
        .iter()
        .map(|(n, c)| {
            let k = match c {
                ColumnData::U64(_) => U,
                ColumnData::F64(_) | ColumnData::Missing(_) => F,
                ColumnData::Str(_) => S,
            };
            (n.clone(), k)
        })
        .collect()
}

fn named(list: &[(&str, Kind)]) -> Vec<(String, Kind)> {
    list.iter().map(|&(n, k)| (n.to_string(), k)).collect()
}

#[test]
fn a_mixed_runs_columns_keep_their_names_order_and_types() {
    let r = run_value(&mixed(), 1);
    let transports: Vec<&str> = r.flows.iter().map(|f| f.transport).collect();
    assert_eq!(transports, ["tcp", "tcp", "udp", "fectcp"]);
    let flows = named(&[
        ("name", S), ("from", S), ("to", S), ("transport", S), ("variant", S), ("app", S), ("group", S),
        ("goodput_bps", F), ("bytes_delivered", U), ("segments_sent", U), ("bytes_sent", U), ("retransmits_fast", U),
        ("retransmits_timeout", U), ("retransmits_eln", U), ("retransmits_ewln", U), ("timeouts", U), ("fast_recoveries", U),
        ("eln_recoveries", U), ("window_reductions", U), ("ecn_reductions", U), ("cwnd_mean_segments", F),
        ("cwnd_inflated_mean_segments", F), ("cwnd_max_segments", F), ("rtt_samples", U), ("rtt_mean_s", F), ("rtt_min_s", F),
        ("rtt_max_s", F), ("rto_final_s", F), ("duplicate_bytes", U), ("ce_received", U), ("ece_sent", U),
        ("syndrome_stamped_packets", U), ("syndrome_credits", U), ("syndrome_eln_acks", U), ("ewln_corrupt_received", U),
        ("ewln_acks", U), ("rtt_p50_ms", F), ("rtt_p95_ms", F), ("rtt_p99_ms", F), ("owd_p50_ms", F), ("owd_p95_ms", F),
        ("owd_p99_ms", F), ("owd_mean_ms", F), ("completion_time_s", F), ("fectcp_handshake_s", F), ("fectcp_syn_retries", F),
        ("fectcp_losses_ignored", F), ("fectcp_late_acks", F), ("fectcp_srtt_final_s", F), ("fectcp_fin_received", F),
        ("fectcp_fin_answered", F), ("fectcp_source_symbols", F), ("fectcp_symbols_needed", F), ("fectcp_symbols_received", F),
        ("fectcp_symbols_at_decode", F), ("fectcp_overhead", F), ("fectcp_decoded_s", F), ("fectcp_verified", F),
    ]);
    assert_eq!(kinds(&to_columns(&r.flows)), flows);
    let links = named(&[
        ("name", S), ("packets_offered", U), ("queue_drops", U), ("channel_losses", U), ("packets_delivered", U),
        ("throughput_bps", F), ("loss_rate", F), ("link_retry_drops", U), ("link_transmissions", U), ("link_overhead_bytes", U),
        ("link_naks_sent", U), ("link_naks_lost", U), ("link_code_changes", U), ("link_down_drops", U), ("reordered", U),
        ("duplicated", U), ("queue_early_drops", U), ("queue_forced_drops", U), ("queue_overflow_drops", U), ("queue_marks", U),
        ("queue_avg_packets", F), ("sojourn_p50_ms", F), ("sojourn_p95_ms", F), ("sojourn_p99_ms", F), ("sojourn_mean_ms", F),
        ("queue_mean_packets", F), ("queue_mean_bytes", F), ("queue_max_packets", F), ("queue_max_bytes", F), ("mac_collisions", F), ("mac_control_losses", F), ("mac_rts_sent", F), ("mac_duplicates", F),
        ("ewln_marked", F),
    ]);
    assert_eq!(kinds(&to_columns(&r.links)), links);
}

/// A run of one transport has the same declared columns, of the same types, as a run of
/// another: a UDP flow's `ce_received` is 0 (not missing), its RTT null.
#[test]
fn every_transport_has_the_declared_columns_with_their_types() {
    let mut by_transport = Vec::new();
    for keep in [0usize, 2] {
        let mut v = mixed();
        let f = v["flows"][keep].take();
        v["flows"] = json!([f]);
        let r = run_value(&v, 1);
        let row: Value = serde_json::from_str(&serde_json::to_string(&r.flows[0]).unwrap()).unwrap();
        by_transport.push((r.flows[0].transport, kinds(&to_columns(&r.flows)), row));
    }
    let (tcp, udp) = (&by_transport[0], &by_transport[1]);
    assert_eq!((tcp.0, udp.0), ("tcp", "udp"));
    assert_eq!(tcp.1, udp.1);
    assert_eq!(udp.2["ce_received"], json!(0));
    assert_eq!(udp.2["rtt_mean_s"], Value::Null);
    // Every transport's delivered data has a one-way delay; only TCP's has RTT samples.
    assert!(udp.2["owd_p95_ms"].as_f64().is_some_and(|d| d > 0.0), "{}", udp.2);
    assert_eq!(udp.2["rtt_p95_ms"], Value::Null);
    assert!(tcp.2["rtt_p95_ms"].as_f64().is_some_and(|r| r > 0.0));
    assert!(udp.2["segments_sent"].as_u64().unwrap() > 0);
}

/// A scheme's counter reaches its row by the name its report gives it: ECN's marks at
/// RED (a declared link column) and at the receiver (a declared flow column), the WLAN's
/// MAC counts (a segment's own), FECTCP's (a transport's own).
#[test]
fn schemes_counters_reach_the_rows_by_name() {
    let mut v = mixed();
    for f in 0..2 {
        v["flows"][f]["tcp"]["ecn"] = json!(true);
    }
    let r = run_value(&v, 1);
    let bottleneck = r.links.iter().find(|l| l.name == "R1->R2").unwrap();
    let marks = bottleneck.metrics.u64("queue_marks");
    let ce: u64 = r.flows.iter().map(|f| f.metrics.u64("ce_received")).sum();
    assert!(marks > 0 && ce > 0 && ce <= marks, "RED marked {marks}, receivers got {ce} CE");
    let air = r.links.iter().find(|l| l.name == "R2->M1").unwrap();
    assert!(air.metrics.u64("mac_rts_sent") > 0);
    assert!(r.links[0].metrics.get("mac_rts_sent").is_none(), "a point-to-point row has no MAC columns");
    let file = &r.flows[3];
    assert_eq!(file.metrics.u64("fectcp_source_symbols"), 200);
    assert_eq!(file.metrics.get("fectcp_fin_received").map(Metric::as_bool), Some(Some(true)));
    assert!(r.flows[0].metrics.get("fectcp_source_symbols").is_none());
}
