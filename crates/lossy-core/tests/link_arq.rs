//! Whole runs with the ARQ link layer (`link/arq.rs`, and `link/arq_nak.rs` when NAKs
//! take time) on `scenarios/last-hop.toml`: on a link with independent bit errors, ARQ
//! with enough attempts hides the losses from TCP; with one attempt it only cuts packets
//! into pieces; NAKs that take no time and are never lost give the paper's link's TCP
//! results exactly, and slow or lost NAKs cost goodput; the link's counters add up; bad
//! fields name themselves. The end-of-run invariants (packet conservation included) are
//! checked inside `run`.

mod common;

use common::{deterministic_part, random_scenarios_with_actions, run_error, run_value, scenario_file};
use serde_json::{json, Value};

/// last-hop with independent bit errors at `ber` on BS → MH and the given link layer there.
fn last_hop(ber: f64, link_layer: Value) -> Value {
    let mut v = scenario_file("last-hop");
    v["links"][1]["loss"] = json!({"model": "ber", "ber": ber});
    v["links"][1]["link_layer"] = link_layer;
    v["agents"] = json!([]);
    v["duration"] = json!("30 s");
    v
}

fn arq(attempts: u32) -> Value {
    json!({"kind": "arq", "payload": "32 B", "attempts": attempts})
}

#[test]
fn enough_attempts_hide_bit_errors_from_tcp() {
    // BER 1e-4: a 1040-byte frame is lost with probability 1 − (1 − 1e-4)^8320 ≈ 0.57;
    // a 32-byte link packet with about 0.025, so 16 attempts nearly never all fail.
    let plain = run_value(&last_hop(1e-4, json!({"kind": "plain"})), 1);
    let with_arq = run_value(&last_hop(1e-4, arq(16)), 1);
    let (p, a) = (&plain.flows[0], &with_arq.flows[0]);
    let retx = |c: &lossy_core::metrics::Metrics| c.u64("retransmits_fast") + c.u64("retransmits_timeout");
    assert!(a.goodput_bps > 5.0 * p.goodput_bps, "{} vs {}", a.goodput_bps, p.goodput_bps);
    assert_eq!(retx(&a.metrics), 0, "{:?}", a.metrics);
    let link = &with_arq.links[2]; // BS->MH
    assert_eq!(link.name, "BS->MH");
    assert_eq!((link.channel_losses, link.metrics.u64("link_retry_drops")), (0, 0));
    // Every packet went as ⌈1040/32⌉ = 33 link packets (ACKs the other way are plain),
    // plus one retransmission per lost link packet, each 32 or 16 bytes.
    assert!(link.metrics.u64("link_transmissions") > 33 * link.packets_delivered, "{link:?}");
    assert!(link.metrics.u64("link_overhead_bytes") > 0 && link.metrics.u64("link_overhead_bytes") < 32 * (link.metrics.u64("link_transmissions") - 33 * link.packets_delivered) + 1);
}

#[test]
fn one_attempt_loses_a_packet_when_any_piece_fails() {
    let r = run_value(&last_hop(1e-4, arq(1)), 1);
    let link = &r.links[2];
    assert!(link.metrics.u64("link_retry_drops") > 0 && link.channel_losses == 0, "{link:?}");
    assert_eq!(link.metrics.u64("link_overhead_bytes"), 0, "nothing is sent twice");
}

/// ARQ with 16 attempts whose NAKs are `nak` (a table of `link_layer.nak`).
fn arq_nak(nak: Value) -> Value {
    json!({"kind": "arq", "payload": "32 B", "attempts": 16, "nak": nak})
}

fn goodput(r: &lossy_core::RunResult) -> f64 {
    r.flows[0].goodput_bps
}

#[test]
fn naks_that_take_no_time_and_are_never_lost_give_the_instant_links_tcp_results_exactly() {
    // No propagation delay on BS → MH, so the NAK's trip ("link") takes none either, and
    // a NAK of 0 bytes: each NAK is back as its link packet ends, as the paper has it.
    let mut instant = last_hop(1e-4, arq(16));
    instant["links"][1]["delay"] = json!("0 s");
    let mut delayed = instant.clone();
    delayed["links"][1]["link_layer"]["nak"] = json!({"bytes": "0 B"});
    let (a, b) = (run_value(&instant, 1), run_value(&delayed, 1));
    assert_eq!(serde_json::to_value(&a.flows).unwrap(), serde_json::to_value(&b.flows).unwrap());
    let (la, lb) = (&a.links[2], &b.links[2]);
    assert_eq!((la.metrics.u64("link_retry_drops"), lb.metrics.u64("link_naks_lost")), (lb.metrics.u64("link_retry_drops"), 0));
    // The instant link counts a packet's transmissions (and its delivery) when the packet
    // begins, so one packet on the air as the run ends may count there only.
    assert!(la.packets_delivered - lb.packets_delivered <= 1, "{la:?} {lb:?}");
    assert!(la.metrics.u64("link_transmissions") - lb.metrics.u64("link_transmissions") <= 33 + 15, "{la:?} {lb:?}");
    assert!(la.metrics.u64("link_naks_sent") - lb.metrics.u64("link_naks_sent") <= 15 && lb.metrics.u64("link_naks_sent") > 1000, "{la:?} {lb:?}");
}

#[test]
fn slow_naks_cost_goodput_and_delivering_out_of_order_costs_more() {
    // BER 3e-4: about 7 % of 32-byte link packets fail. NAKs 50 ms on their way back
    // hold each packet with a bad link packet 55 ms longer; handing packets on as they
    // complete reorders them, and TCP takes the reordering for loss.
    let instant = run_value(&last_hop(3e-4, arq(16)), 1);
    let slow = run_value(&last_hop(3e-4, arq_nak(json!({"delay": "50 ms"}))), 1);
    let mut unordered = last_hop(3e-4, arq_nak(json!({"delay": "50 ms"})));
    unordered["links"][1]["link_layer"]["delivery"] = json!("as_completed");
    let unordered = run_value(&unordered, 1);
    assert!(goodput(&slow) < 0.9 * goodput(&instant), "{} vs {}", goodput(&slow), goodput(&instant));
    assert!(goodput(&unordered) < 0.5 * goodput(&slow), "{} vs {}", goodput(&unordered), goodput(&slow));
    assert_eq!(slow.flows[0].metrics.u64("retransmits_fast"), 0);
    assert!(unordered.flows[0].metrics.u64("retransmits_fast") > 0 && unordered.links[2].metrics.u64("link_retry_drops") == 0);
}

#[test]
fn lost_naks_are_repeated_after_the_timeout_and_counted() {
    let clean = run_value(&last_hop(3e-4, arq_nak(json!({}))), 1);
    let lossy = run_value(&last_hop(3e-4, arq_nak(json!({"loss": 0.3, "timeout": "200 ms"}))), 1);
    let (c, l) = (&clean.links[2], &lossy.links[2]);
    assert_eq!((c.metrics.u64("link_naks_lost"), l.metrics.u64("link_retry_drops")), (0, 0), "a lost NAK costs no attempt");
    // 30 % of NAKs lost: lost / sent ≈ 0.3.
    let share = l.metrics.u64("link_naks_lost") as f64 / l.metrics.u64("link_naks_sent") as f64;
    assert!((0.25..0.35).contains(&share), "{l:?}");
    assert!(goodput(&lossy) < 0.5 * goodput(&clean), "{} vs {}", goodput(&lossy), goodput(&clean));
}

#[test]
fn a_link_going_down_gives_up_the_packets_in_progress() {
    let mut v = last_hop(3e-4, arq_nak(json!({"delay": "20 ms"})));
    v["actions"] = json!([{"kind": "link_down", "at": "10 s", "link": ["BS", "MH"]}, {"kind": "link_up", "at": "11 s", "link": ["BS", "MH"]}]);
    let r = run_value(&v, 1);
    assert!(r.links[2].metrics.u64("link_down_drops") > 0, "{:?}", r.links[2]);
    assert!(r.flows[0].bytes_delivered > 0);
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn random_networks_with_slow_lossy_naks_conserve_packets_and_repeat() {
    // Every direction of the random networks of tests/network.rs (loss, reordering,
    // links going down and up) gets ARQ with NAKs of its own delay and loss, in order or
    // not: every run passes the end-of-run invariants and repeats bit for bit.
    let (mut naks, mut lost) = (0, 0);
    for (case, mut v) in random_scenarios_with_actions(24).into_iter().enumerate() {
        for (i, link) in v["links"].as_array_mut().unwrap().iter_mut().enumerate() {
            let k = case + i;
            let (delay, loss) = (["link", "0 s", "3 ms"][k % 3], [0.0, 0.1, 0.5][k / 3 % 3]);
            let nak = json!({"delay": delay, "loss": loss, "bytes": "6 B"});
            let delivery = ["in_order", "as_completed"][k % 2];
            for field in ["link_layer", "reverse_link_layer"] {
                link[field] = json!({"kind": "arq", "payload": "24 B", "attempts": 1 + k % 5, "nak": nak, "delivery": delivery});
            }
        }
        let (a, b) = (run_value(&v, 1), run_value(&v, 1));
        assert_eq!(deterministic_part(&a), deterministic_part(&b), "case {case}");
        naks += a.links.iter().map(|l| l.metrics.u64("link_naks_sent")).sum::<u64>();
        lost += a.links.iter().map(|l| l.metrics.u64("link_naks_lost")).sum::<u64>();
    }
    assert!(naks > 1000 && lost > 100, "{naks} NAKs, {lost} lost");
}

#[test]
fn bad_link_layer_fields_name_the_field() {
    let mut v = last_hop(0.0, arq(0));
    assert_eq!(run_error(&v), "links.1.link_layer.attempts: 0 sends nothing; use 1 (no retransmission) or more");
    v["links"][1]["link_layer"] = json!({"kind": "arq", "payload": "2000 B", "attempts": 4});
    assert_eq!(
        run_error(&v),
        "links.1.link_layer.payload: 2000 B is larger than any packet the flows send (at most 1040 B); use at most 1040 B"
    );
    v["links"][1]["link_layer"] = json!({"kind": "arq", "payload": "32 B", "attempts": 4, "window": 8});
    assert!(run_error(&v).contains("window"), "{}", run_error(&v));
    v["links"][1]["link_layer"] = json!({"kind": "arq", "payload": "32 B", "attempts": 4, "coding": {"code": "bch", "n": 256, "k": 131}});
    assert_eq!(
        run_error(&v),
        "links.1.link_layer.coding.n: n = 256 is not 2^m − 1; use 7, 15, 31, 63, 127, 255, 511 or 1023"
    );
    v["links"][1]["link_layer"] = arq_nak(json!({"loss": 1.5}));
    assert_eq!(run_error(&v), "links.1.link_layer.nak.loss: 1.5 is not a probability; use a number in [0, 1]");
    v["links"][1]["link_layer"] = arq_nak(json!({"timeout": "0 s"}));
    assert!(run_error(&v).starts_with("links.1.link_layer.nak.timeout: 0 s is not a positive duration"), "{}", run_error(&v));
    v["links"][1]["link_layer"] = arq_nak(json!({"delay": "later"}));
    assert!(run_error(&v).starts_with("links.1.link_layer.nak.delay: \"later\" is not a duration"), "{}", run_error(&v));
    v["links"][1]["link_layer"] = arq_nak(json!({"lost": 0.1}));
    assert_eq!(run_error(&v), "links.1.link_layer.nak.lost: unknown field `lost`; use one of: delay, loss, bytes, timeout");
    v["links"][1]["link_layer"] = json!({"kind": "arq", "payload": "32 B", "attempts": 4, "delivery": "sorted"});
    assert_eq!(run_error(&v), "links.1.link_layer.delivery: \"sorted\" is not allowed; use one of: in_order, as_completed");
    v["links"][1]["reverse_link_layer"] = json!({"kind": "plain", "coding": {"code": "bch", "n": 127, "t": 64}});
    v["links"][1]["link_layer"] = json!({"kind": "plain"});
    assert_eq!(run_error(&v), "links.1.reverse_link_layer.coding.t: t = 64 is not possible at length 127; t is 1 to 63");
}
