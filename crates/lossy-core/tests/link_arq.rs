//! Whole runs with the ARQ link layer (`link/arq.rs`) on `scenarios/last-hop.toml`: on a
//! link with independent bit errors, ARQ with enough attempts hides the losses from
//! TCP; with one attempt it only cuts packets into pieces; the link's counters add up;
//! bad fields name themselves. The end-of-run invariants (packet conservation included)
//! are checked inside `run`.

mod common;

use common::{run_error, run_value, scenario_file};
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
    let retx = |c: &lossy_core::tcp::state::SenderCounters| c.retransmits_fast + c.retransmits_timeout;
    assert!(a.goodput_bps > 5.0 * p.goodput_bps, "{} vs {}", a.goodput_bps, p.goodput_bps);
    assert_eq!(retx(&a.counters), 0, "{:?}", a.counters);
    let link = &with_arq.links[2]; // BS->MH
    assert_eq!(link.name, "BS->MH");
    assert_eq!((link.channel_losses, link.link_retry_drops), (0, 0));
    // Every packet went as ⌈1040/32⌉ = 33 link packets (ACKs the other way are plain),
    // plus one retransmission per lost link packet, each 32 or 16 bytes.
    assert!(link.link_transmissions > 33 * link.packets_delivered, "{link:?}");
    assert!(link.link_overhead_bytes > 0 && link.link_overhead_bytes < 32 * (link.link_transmissions - 33 * link.packets_delivered) + 1);
}

#[test]
fn one_attempt_loses_a_packet_when_any_piece_fails() {
    let r = run_value(&last_hop(1e-4, arq(1)), 1);
    let link = &r.links[2];
    assert!(link.link_retry_drops > 0 && link.channel_losses == 0, "{link:?}");
    assert_eq!(link.link_overhead_bytes, 0, "nothing is sent twice");
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
    v["links"][1]["reverse_link_layer"] = json!({"kind": "plain", "coding": {"code": "bch", "n": 127, "t": 64}});
    v["links"][1]["link_layer"] = json!({"kind": "plain"});
    assert_eq!(run_error(&v), "links.1.reverse_link_layer.coding.t: t = 64 is not possible at length 127; t is 1 to 63");
}
