//! RED in whole runs: on a congested bottleneck it holds its average queue between the
//! thresholds and overflows less than DropTail of the same size; its counters add up;
//! runs repeat bit for bit; bad settings name the field.

mod common;

use common::{deterministic_part, run_value, scenario};
use lossy_core::result::LinkSummary;
use lossy_core::run;
use serde_json::{json, Value};

/// Four bulk NewReno flows from S1..S4 through R1 --2 Mbps, 20 ms--> R2 to D, the
/// bottleneck's queue given; ample windows, so the bottleneck queue is what limits them.
fn dumbbell(queue: Value) -> Value {
    let mut links = vec![json!({"between": ["R1", "R2"], "rate": "2 Mbps", "delay": "20 ms", "queue": queue})];
    let mut flows = Vec::new();
    for i in 1..=4 {
        links.push(json!({"between": [format!("S{i}"), "R1"], "rate": "100 Mbps", "delay": format!("{} ms", 2 * i)}));
        flows.push(json!({"from": format!("S{i}"), "to": "D", "start": format!("{} ms", 100 * i), "tcp": {"variant": "newreno", "max_window": "256 KiB"}}));
    }
    links.push(json!({"between": ["R2", "D"], "rate": "100 Mbps", "delay": "1 ms"}));
    json!({"name": "red-dumbbell", "duration": "60 s", "nodes": ["S1", "S2", "S3", "S4", "R1", "R2", "D"], "links": links, "flows": flows})
}

fn red() -> Value {
    json!({"kind": "red", "limit": "50 packets", "min_th": 5, "max_th": 15, "max_p": 0.1, "w_q": 0.002, "mode": "packets"})
}

fn bottleneck(links: &[LinkSummary]) -> &LinkSummary {
    links.iter().find(|l| l.name == "R1->R2").expect("the bottleneck row")
}

#[test]
fn red_holds_the_average_between_its_thresholds_and_overflows_less_than_drop_tail() {
    let r = run_value(&dumbbell(red()), 1);
    let d = run_value(&dumbbell(json!("50 packets")), 1);
    let (rl, dl) = (bottleneck(&r.links), bottleneck(&d.links));
    let avg = rl.metrics.opt_f64("queue_avg_packets").expect("RED reports its average");
    assert!((5.0..15.0).contains(&avg), "average queue {avg} packets");
    assert!(rl.metrics.u64("queue_early_drops") > 0, "{rl:?}");
    assert!(rl.metrics.u64("queue_overflow_drops") < dl.metrics.u64("queue_overflow_drops"), "RED {rl:?}\nDropTail {dl:?}");
    assert_eq!(rl.metrics.u64("queue_early_drops") + rl.metrics.u64("queue_forced_drops") + rl.metrics.u64("queue_overflow_drops"), rl.queue_drops);
    // DropTail: every queue drop is an overflow, and there is no average.
    assert_eq!((dl.metrics.u64("queue_overflow_drops"), dl.metrics.u64("queue_early_drops"), dl.metrics.u64("queue_marks"), dl.metrics.opt_f64("queue_avg_packets")), (dl.queue_drops, 0, 0, None));
    // Not ECN-capable traffic: nothing is marked.
    assert_eq!(rl.metrics.u64("queue_marks"), 0);
    // Both keep the link busy.
    assert!(rl.throughput_bps > 0.9 * dl.throughput_bps, "RED {} DropTail {}", rl.throughput_bps, dl.throughput_bps);
}

#[test]
fn red_runs_repeat_bit_for_bit_and_automatic_values_run() {
    let v = dumbbell(red());
    assert_eq!(deterministic_part(&run_value(&v, 4)), deterministic_part(&run_value(&v, 4)));
    let auto = run_value(&dumbbell(json!({"kind": "red"})), 4);
    let avg = bottleneck(&auto.links).metrics.opt_f64("queue_avg_packets").unwrap();
    assert!(avg > 0.0 && avg.is_finite(), "{avg}");
}

#[test]
fn red_draws_from_its_own_stream_so_the_channel_draws_do_not_move() {
    // Open-loop CBR over a lossy access link into the bottleneck: the access link sees
    // the same packets whatever the bottleneck's queue, and loses the same ones.
    let with = |queue: Value| {
        let mut v = dumbbell(queue);
        v["links"][1]["loss"] = json!({"model": "bernoulli", "p": 0.05});
        v["flows"] = json!([{"from": "S1", "to": "D", "app": {"kind": "cbr", "rate": "3 Mbps", "packet_size": "1000 B"}}]);
        v["duration"] = json!("10 s");
        run_value(&v, 2)
    };
    let (a, b) = (with(json!("50 packets")), with(red()));
    let access = |r: &lossy_core::RunResult| r.links.iter().find(|l| l.name == "S1->R1").unwrap().channel_losses;
    assert!(access(&a) > 0 && access(&a) == access(&b), "{} {}", access(&a), access(&b));
    assert!(bottleneck(&b.links).metrics.u64("queue_early_drops") > 0);
}

#[test]
fn bad_red_settings_name_the_field() {
    let err = |q: Value| run(&scenario(&dumbbell(q)), 1, 0).unwrap_err().to_string();
    assert_eq!(err(json!({"kind": "red", "max_p": 1.5})), "links.0.queue.max_p: 1.5 is not allowed; use a number in (0, 1], e.g. 0.1");
    assert_eq!(err(json!({"kind": "red", "min_th": 15, "max_th": 5})), "links.0.queue.max_th: 5 is not allowed; use a number of packets above min_th (15)");
    assert!(err(json!({"kind": "red", "w_q": 0})).starts_with("links.0.queue.w_q: 0 is not allowed; use a number in (0, 1]"));
    assert!(err(json!({"kind": "red", "min_th": -2})).starts_with("links.0.queue.min_th: -2 is not allowed"));
    assert!(err(json!({"kind": "red", "max_th": 3})).starts_with("links.0.queue.max_th: 3 is not allowed; use a number of packets above min_th (5, automatic)"));
}
