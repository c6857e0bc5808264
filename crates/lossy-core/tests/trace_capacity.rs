//! Whole runs over trace-driven capacity (issue 30): a saturating TCP flow gets the
//! trace's capacity, a trace played once stops, a CBR flow's departures can be read back
//! from the one-way delays (the independent mm-link reference in the Python tests
//! compares them packet by packet), and bad tables are refused in one line.

mod common;

use common::{run_error, run_value};
use lossy_core::result::Column as TraceColumn;
use serde_json::{json, Value};

/// A synthetic cellular-like Mahimahi trace (no shipped trace: they are GPL-3+): over
/// `ms` milliseconds, 0 to 3 opportunities a millisecond in a fixed pattern, 1.5 a
/// millisecond on average (18.048 Mbit/s); returns its path and mean rate.
fn synthetic_trace(name: &str, ms: u32) -> (String, f64) {
    let counts = [0, 1, 2, 3, 1, 2];
    let mut text = String::new();
    let mut total = 0u64;
    for m in 1..=ms {
        let c = counts[(m as usize * 7) % counts.len()];
        total += c;
        for _ in 0..c {
            text.push_str(&format!("{m}\n"));
        }
    }
    let dir = std::env::temp_dir().join(format!("lossy-trace-capacity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    (path.to_string_lossy().into_owned(), total as f64 * 1504.0 * 8.0 * 1000.0 / ms as f64)
}

fn over_trace(capacity: Value, flow: Value, duration: &str) -> Value {
    json!({
        "nodes": ["server", "mobile"],
        "links": [{"between": ["server", "mobile"], "rate": "100 Mbps", "delay": "10 ms", "queue": "1000 packets", "capacity": capacity}],
        "flows": [flow],
        "duration": duration
    })
}

#[test]
fn a_saturating_tcp_flow_gets_the_traces_capacity() {
    let (path, mean) = synthetic_trace("cellular.down", 2000);
    let flow = json!({"from": "server", "to": "mobile", "tcp": {"variant": "sack", "cc": "cubic"}});
    let r = run_value(&over_trace(json!({"kind": "mahimahi", "file": path}), flow, "20 s"), 1);
    let got = r.links[0].throughput_bps;
    println!("throughput {got} of the trace's {mean} bit/s: {:.4}", got / mean);
    // The queue never empties after slow start; the first round trips leave some unused.
    assert!(got <= mean * 1.0001 && got >= mean * 0.99, "{got} vs {mean}");
}

#[test]
fn a_trace_played_once_delivers_nothing_after_its_end() {
    let (path, mean) = synthetic_trace("once.down", 1000);
    let flow = json!({"from": "server", "to": "mobile", "app": {"kind": "cbr", "rate": "30 Mbps", "packet_size": "1000 B"}});
    let once = run_value(&over_trace(json!({"kind": "mahimahi", "file": path, "once": true}), flow.clone(), "3 s"), 1);
    let wraps = run_value(&over_trace(json!({"kind": "mahimahi", "file": path}), flow, "3 s"), 1);
    // One second of capacity, spread over three: at most a third of the mean.
    let (o, w) = (once.links[0].throughput_bps, wraps.links[0].throughput_bps);
    assert!(o <= mean / 3.0 * 1.0001 && o > mean / 3.0 * 0.99, "{o} vs {mean}");
    assert!(w > mean * 0.99, "{w} vs {mean}");
}

/// The departures of a CBR flow over one link: arrival − the link's delay, from the
/// one-way delay trace (`traces.owd`), with the send times (arrival − delay).
fn departures(r: &lossy_core::RunResult, delay_ms: f64) -> Vec<(f64, f64)> {
    let t = r.traces.iter().find(|t| t.name == "owd").expect("owd trace");
    let col = |name: &str| match &t.columns.iter().find(|(n, _)| *n == name).unwrap().1 {
        TraceColumn::F64(v) => v.clone(),
        _ => panic!("{name}"),
    };
    let (time, owd) = (col("time_s"), col("delay_ms"));
    time.iter().zip(&owd).map(|(&t, &d)| (t * 1e3 - d, t * 1e3 - delay_ms)).collect()
}

#[test]
fn cbr_departures_read_back_from_the_owd_trace_are_opportunities_after_each_arrival() {
    let (path, _) = synthetic_trace("cbr.down", 1000);
    // 1000 B every 1.6 ms (5 Mbit/s): every fifth packet arrives exactly on a millisecond.
    let flow = json!({"from": "server", "to": "mobile", "app": {"kind": "cbr", "rate": "5 Mbps", "packet_size": "1000 B"}});
    let mut v = over_trace(json!({"kind": "mahimahi", "file": path}), flow, "2 s");
    v["traces"] = json!({"owd": true});
    let r = run_value(&v, 1);
    let d = departures(&r, 10.0);
    assert!(d.len() > 1000, "{}", d.len());
    let mut on_the_ms = 0;
    for &(sent, dep) in &d {
        assert!((dep - dep.round()).abs() < 1e-6, "departure {dep} ms is not a whole millisecond");
        // An arrival at exactly an opportunity's millisecond cannot use it.
        assert!(dep.round() > sent + 1e-6, "departed at {dep} ms, sent at {sent} ms");
        on_the_ms += ((sent - sent.round()).abs() < 1e-6) as usize;
    }
    assert!(on_the_ms > 100, "{on_the_ms}");
}

#[test]
fn bad_capacity_tables_are_refused_in_one_line_naming_the_field() {
    let (path, _) = synthetic_trace("err.down", 10);
    let flow = json!({"from": "server", "to": "mobile"});
    let mut v = over_trace(json!({"kind": "mahimahi", "file": "/nonexistent/trace.down"}), flow, "1 s");
    assert_eq!(run_error(&v), "links.0.capacity.file: /nonexistent/trace.down: no such file");
    v["links"][0]["reverse_capacity"] = json!({"kind": "mahimahi", "file": path});
    v["links"][0]["capacity"] = json!({"kind": "constant", "rate": "5 Mbps"});
    assert_eq!(run_error(&v), "links.0.rate: \"100000000 bps\" is not used: both directions have a capacity table; remove it");
    v["links"][0].as_object_mut().unwrap().remove("rate");
    run_value(&v, 1);
    v["links"][0].as_object_mut().unwrap().remove("reverse_capacity");
    assert_eq!(
        run_error(&v),
        "links.0.rate: missing: the reverse direction has no `reverse_capacity` table; give rate = \"10 Mbps\" or a `reverse_capacity` table"
    );
    v["links"][0]["reverse_capacity"] = json!({"kind": "trace", "file": path});
    let e = run_error(&v);
    assert!(e.starts_with("links.0.reverse_capacity") && e.contains("constant") && e.contains("mahimahi") && e.contains("rate_schedule"), "{e}");
}

/// mm-link takes a packet out of its queue at its first opportunity (`rationalize`), so
/// a drop-tail limit of one packet holds the first packet until 10 ms and refuses the two
/// that follow at 1 and 2 ms. (Taken out at its arrival, the first would have left room
/// for the second.)
#[test]
fn a_packet_stays_queued_until_its_first_opportunity_as_drop_tail_counts_it() {
    let dir = std::env::temp_dir().join(format!("lossy-trace-capacity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sparse.down");
    std::fs::write(&path, "10\n20\n30\n").unwrap();
    let flow = json!({"from": "server", "to": "mobile", "app": {"kind": "cbr", "rate": "8 Mbps", "packet_size": "1000 B", "packets": 3}});
    let mut v = over_trace(json!({"kind": "mahimahi", "file": path.to_string_lossy()}), flow, "100 ms");
    v["links"][0]["queue"] = json!("1 packets");
    v["traces"] = json!({"owd": true});
    let r = run_value(&v, 1);
    assert_eq!((r.links[0].queue_drops, r.links[0].packets_delivered), (2, 1));
    // Sent at 0, it leaves at the opportunity at 10 ms.
    assert_eq!(departures(&r, 10.0).iter().map(|&(s, d)| (s.round(), d.round())).collect::<Vec<_>>(), [(0.0, 10.0)]);
}

/// A rate schedule (Lumos5G's `<second> <Mbit/s>`): a UDP flow above every rate gets the
/// schedule's mean over whole laps, its outage second included.
#[test]
fn a_saturating_flow_over_a_rate_schedule_gets_its_mean() {
    let dir = std::env::temp_dir().join(format!("lossy-trace-capacity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("5g.log");
    std::fs::write(&path, "1.0\t10.0\n2.0\t20.0\n3.0\t0.0\n4.0\t30.0\n").unwrap();
    let flow = json!({"from": "server", "to": "mobile", "app": {"kind": "cbr", "rate": "50 Mbps", "packet_size": "1000 B"}});
    let r = run_value(&over_trace(json!({"kind": "rate_schedule", "file": path.to_string_lossy()}), flow, "8 s"), 1);
    let got = r.links[0].throughput_bps;
    // Two laps of (10 + 20 + 0 + 30) Mbit: 15 Mbit/s, less at most one packet.
    assert!(got <= 15e6 && got > 15e6 - 8000.0 / 8.0, "{got}");
}
