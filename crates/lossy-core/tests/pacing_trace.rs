//! The pacing trace over whole runs (issue 29): a BBR flow's rows are the rate its control
//! asked for, one per change, in bit/s; a control that does not pace has none; and the
//! trace only observes (the run is the same with it off).

mod common;

use common::{deterministic_part, run_value, scenario_file};
use lossy_core::result::{Column, RunResult};
use serde_json::json;

/// The ns3-compare path for 5 s with `cc`, the pacing trace on.
fn traced(cc: &str, pacing: bool) -> RunResult {
    let mut v = scenario_file("ns3-compare");
    v["duration"] = json!("5 s");
    v["flows"][0]["tcp"]["cc"] = json!(cc);
    v["traces"] = json!({"pacing": pacing});
    run_value(&v, 1)
}

/// (time s, flow, rate b/s) of each row.
fn rows(r: &RunResult) -> Vec<(f64, u32, f64)> {
    let t = r.traces.iter().find(|t| t.name == "pacing").expect("a pacing trace");
    let names: Vec<_> = t.columns.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["time_s", "flow", "pacing_bps"]);
    let (Column::F64(time), Column::U32(flow), Column::F64(bps)) = (&t.columns[0].1, &t.columns[1].1, &t.columns[2].1) else {
        panic!("column types")
    };
    (0..time.len()).map(|i| (time[i], flow[i], bps[i])).collect()
}

#[test]
fn a_bbr_flow_records_each_change_of_its_pacing_rate() {
    let r = traced("bbr", true);
    let rows = rows(&r);
    assert!(rows.len() > 10, "{} rows", rows.len());
    assert!(rows.windows(2).all(|w| w[0].0 <= w[1].0), "time order");
    assert!(rows.windows(2).all(|w| w[0].2 != w[1].2), "changes only");
    assert!(rows.iter().all(|&(_, f, bps)| f == 0 && bps.is_finite() && bps > 0.0));
    // ProbeBW paces at 0.75..1.25 × BtlBw less 1 %: the last rate near the 2 Mb/s
    // bottleneck, not slow start's 2.89× overshoot.
    let last = rows.last().unwrap().2;
    assert!((0.75 * 0.99 * 1.6e6..1.25 * 2e6).contains(&last), "{last}");
}

#[test]
fn a_window_rule_that_does_not_pace_has_no_rows() {
    assert!(rows(&traced("reno", true)).is_empty());
}

#[test]
fn the_trace_does_not_change_the_run() {
    assert_eq!(deterministic_part(&traced("bbr", true)), deterministic_part(&traced("bbr", false)));
}
