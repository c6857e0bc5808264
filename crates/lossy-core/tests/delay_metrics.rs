//! Issue 29's delay metrics over whole runs: the percentile columns agree with the
//! per-packet traces they summarise (nearest rank, within the histogram's 2^-8), the
//! means exactly, and the time-weighted queue length with the sojourns (Little's law).

mod common;

use common::{run_value, scenario_file};
use lossy_core::result::{Column, RunResult, Trace};
use serde_json::json;

/// The ns3-compare path (10 Mbps then a lossy 2 Mbps bottleneck, 100-packet queues)
/// for 20 s, with the delay traces on.
fn traced_run() -> RunResult {
    let mut v = scenario_file("ns3-compare");
    v["duration"] = json!("20 s");
    v["traces"] = json!({"owd": true, "sojourn": true});
    run_value(&v, 1)
}

fn trace<'a>(r: &'a RunResult, name: &str) -> &'a Trace {
    r.traces.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no {name} trace"))
}

fn column<'a>(t: &'a Trace, name: &str) -> &'a Column {
    &t.columns.iter().find(|(n, _)| *n == name).unwrap().1
}

/// (who, delay in ms) of every row of a delay trace.
fn rows(t: &Trace, who: &str) -> Vec<(u32, f64)> {
    let (Column::U32(w), Column::F64(d)) = (column(t, who), column(t, "delay_ms")) else { panic!("column types") };
    w.iter().copied().zip(d.iter().copied()).collect()
}

/// The exact nearest-rank quantile num/den of `v`.
fn nearest_rank(v: &mut [f64], num: usize, den: usize) -> f64 {
    v.sort_by(f64::total_cmp);
    let rank = (v.len() * num).div_ceil(den).max(1);
    v[rank - 1]
}

fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= want / 256.0 + 1e-9
}

#[test]
fn the_columns_summarise_the_traces_of_every_packet() {
    let r = traced_run();
    // One-way delay: one row per delivered data packet.
    let owd = rows(trace(&r, "owd"), "flow");
    assert_eq!(owd.len() as u64, r.summary.packets_delivered);
    let mut d: Vec<f64> = owd.iter().map(|&(_, d)| d).collect();
    let m = &r.flows[0].metrics;
    let mean = d.iter().sum::<f64>() / d.len() as f64;
    assert!((m.f64("owd_mean_ms") - mean).abs() < 1e-9 * mean, "{} vs {mean}", m.f64("owd_mean_ms"));
    for (col, num, den) in [("owd_p50_ms", 1, 2), ("owd_p95_ms", 95, 100), ("owd_p99_ms", 99, 100)] {
        let want = nearest_rank(&mut d, num, den);
        assert!(close(m.f64(col), want), "{col}: {} vs {want}", m.f64(col));
    }
    // At least the two propagation delays (10 + 5 ms) and the two serialisations.
    assert!(d[0] > 15.0, "{}", d[0]);

    // Sojourn: per link direction, one row per packet served.
    let sojourn = rows(trace(&r, "sojourn"), "link");
    for (i, link) in r.links.iter().enumerate() {
        let mut s: Vec<f64> = sojourn.iter().filter(|&&(l, _)| l as usize == i).map(|&(_, d)| d).collect();
        let m = &link.metrics;
        assert_eq!(s.len() as u64, link.packets_delivered + link.channel_losses, "{}", link.name);
        let want = nearest_rank(&mut s, 95, 100);
        assert!(close(m.f64("sojourn_p95_ms"), want), "{}: {} vs {want}", link.name, m.f64("sojourn_p95_ms"));
        // Little's law: the mean length times the run is the packets' total time in the
        // queue, at least the served ones' (those still waiting at the end add theirs).
        let area_ms: f64 = s.iter().sum();
        let mean_len = m.f64("queue_mean_packets");
        assert!(mean_len + 1e-12 >= area_ms / (r.summary.sim_time_s * 1e3), "{}", link.name);
    }
    // The bottleneck queues (2 Mbps after 10 Mbps); the ACK directions never wait.
    let bottleneck = &r.links.iter().find(|l| l.name == "BS->R").unwrap().metrics;
    assert!(bottleneck.f64("sojourn_p95_ms") > 10.0 && bottleneck.f64("queue_mean_packets") > 1.0);
    assert!(bottleneck.f64("queue_max_packets") <= 100.0);
    let acks = &r.links.iter().find(|l| l.name == "R->BS").unwrap().metrics;
    assert_eq!((acks.f64("sojourn_p99_ms"), acks.f64("queue_mean_packets")), (0.0, 0.0));
}

#[test]
fn the_rtt_percentiles_lie_between_the_smallest_and_largest_sample() {
    let r = traced_run();
    let m = &r.flows[0].metrics;
    let (min, max) = (m.f64("rtt_min_s") * 1e3, m.f64("rtt_max_s") * 1e3);
    let (p50, p95, p99) = (m.f64("rtt_p50_ms"), m.f64("rtt_p95_ms"), m.f64("rtt_p99_ms"));
    assert!(min <= p50 && p50 <= p95 && p95 <= p99 && p99 <= max, "{min} {p50} {p95} {p99} {max}");
    // Above the path's 30 ms base RTT, and the one-way delay above half of it.
    assert!(p50 > 30.0 && m.f64("owd_p50_ms") > 15.0);
}

#[test]
fn the_delay_traces_are_off_unless_asked_for() {
    let mut v = scenario_file("ns3-compare");
    v["duration"] = json!("2 s");
    let r = run_value(&v, 1);
    assert!(r.traces.is_empty());
    // The columns are there all the same.
    assert!(r.flows[0].metrics.opt_f64("owd_p95_ms").is_some());
}
