//! `tcp.pacing = "linux"` over whole runs (issue 30): a CUBIC flow paced at Linux's rate
//! (net/ipv4/tcp_input.c `tcp_update_pacing_rate`) keeps its segments apart at a
//! one-packet bottleneck queue, where the same flow unpaced loses the second segment of
//! every back-to-back pair; the pacing trace shows the rate it used.

mod common;

use common::{deterministic_part, run_value, scenario_file};
use lossy_core::result::{Column, RunResult};
use serde_json::json;

/// ns3-compare's path without loss: S -100 Mb/s, 10 ms- BS -10 Mb/s, 5 ms- R, 1-packet
/// DropTail at BS, CUBIC, 5 s, the pacing trace on.
fn run(cc: &str, pacing: &str) -> RunResult {
    let mut v = scenario_file("ns3-compare");
    v["duration"] = json!("5 s");
    v["links"][0]["rate"] = json!("100 Mbps");
    v["links"][1]["rate"] = json!("10 Mbps");
    v["links"][1]["queue"] = json!("1 packets");
    v["links"][1]["loss"] = json!({"model": "none"});
    v["flows"][0]["tcp"]["cc"] = json!(cc);
    v["flows"][0]["tcp"]["pacing"] = json!(pacing);
    v["traces"] = json!({"pacing": true});
    run_value(&v, 1)
}

fn pacing_rows(r: &RunResult) -> Vec<(f64, f64)> {
    let t = r.traces.iter().find(|t| t.name == "pacing").expect("a pacing trace");
    let (Column::F64(time), Column::F64(bps)) = (&t.columns[0].1, &t.columns[2].1) else { panic!("column types") };
    time.iter().copied().zip(bps.iter().copied()).collect()
}

/// The bottleneck's payload rate: 10 Mb/s × 1000 B of each 1042 B segment.
const PAYLOAD_BPS: f64 = 10e6 * 1000.0 / 1042.0;
/// Base RTT: 2 × (10 + 5) ms plus serialisation, as the runs measure it (rtt_min_s).
const RTT_S: f64 = 0.031;

#[test]
fn linux_pacing_lets_cubic_fill_a_one_packet_queue_that_bursts_overflow() {
    let paced = run("cubic", "linux");
    let unpaced = run("cubic", "none");
    let (p, u) = (paced.flows[0].goodput_bps, unpaced.flows[0].goodput_bps);
    // Paced, segments reach BS at most 1.2 × cwnd / srtt apart, so the queue overflows
    // only once cwnd passes the BDP (37 segments) plus its one slot; CUBIC then keeps
    // cwnd in [0.7 W_max, W_max] (β = 0.7), so the rate stays above 0.7 × the link less
    // slow start and the first RTT (the initial window leaves unpaced: no srtt yet).
    assert!((0.6 * PAYLOAD_BPS..PAYLOAD_BPS).contains(&p), "paced {p}");
    // Unpaced, each ACK in slow start releases two segments back to back at 100 Mb/s
    // and the second finds the queue full: the window never holds more than the
    // initial 10 segments and timeouts follow, below 10 segments per RTT.
    assert!(u < 10.0 * 8000.0 / RTT_S, "unpaced {u}");
    assert!(p > 5.0 * u, "paced {p} vs unpaced {u}");
}

#[test]
fn the_pacing_trace_shows_linux_rates_and_nothing_unpaced() {
    assert!(pacing_rows(&run("cubic", "none")).is_empty());
    let rows = pacing_rows(&run("cubic", "linux"));
    assert!(rows.len() > 100, "{} rows", rows.len());
    // Each rate is ratio × max(cwnd, flight) / srtt: between 1.2 × one segment and
    // 2 × the largest window (41 segments, ≤ W_max + 2) over the base RTT, in bit/s.
    let (lo, hi) = (1.2 * 8000.0 / 0.032, 2.0 * 41.0 * 8000.0 / RTT_S);
    assert!(rows.iter().all(|&(_, bps)| (lo..hi).contains(&bps)), "{:?}", rows.iter().find(|r| !(lo..hi).contains(&r.1)));
    // In congestion avoidance (120 %) with cwnd in [0.7, 1] × W_max (W_max ≈ 39 segments).
    let last = rows.last().unwrap().1;
    let ca = 1.2 * 0.7 * 36.0 * 8000.0 / 0.032..1.2 * 41.0 * 8000.0 / RTT_S;
    assert!(ca.contains(&last), "{last} not in {ca:?}");
}

#[test]
fn a_control_with_its_own_rate_keeps_it() {
    // BBR sets its own pacing rate (Linux tcp_bbr.c bbr_set_pacing_rate): "linux" changes
    // nothing, not even the trace.
    assert_eq!(deterministic_part(&run("bbr", "linux")), deterministic_part(&run("bbr", "none")));
    assert_eq!(pacing_rows(&run("bbr", "linux")), pacing_rows(&run("bbr", "none")));
}
