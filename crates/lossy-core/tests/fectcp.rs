//! Whole runs of FECTCP (Botoș §II): a server behind a 10 Mbit/s wired hop, a 1 Mbit/s
//! last hop to the client (Fig. 2's shape), files sent as rateless-code symbols. The
//! end-of-run invariants (conservation, the endpoints' own checks, a verified file equal
//! to the one sent) run inside every run.

mod common;

use common::{deterministic_part, run_error, run_value};
use lossy_core::result::FlowSummary;
use serde_json::{json, Value};

/// Server -> router -> client; `loss` on router -> client, `fectcp` the flow's table.
fn net(file: &str, loss: Value, fectcp: Value) -> Value {
    json!({
        "duration": "300 s",
        "nodes": ["server", "router", "client"],
        "links": [
            {"between": ["server", "router"], "rate": "10 Mbps", "delay": "5 ms", "queue": "1000 packets"},
            {"between": ["router", "client"], "rate": "1 Mbps", "delay": "5 ms", "queue": "50 packets", "loss": loss},
        ],
        "flows": [{"from": "server", "to": "client", "app": {"kind": "file", "size": file},
                   "transport": "fectcp", "fectcp": fectcp, "tcp": {"mss": "1000 B"}}],
    })
}

fn flow(v: &Value, seed: u64) -> FlowSummary {
    run_value(v, seed).flows.remove(0)
}

fn bernoulli(p: f64) -> Value {
    json!({"model": "bernoulli", "p": p})
}

#[test]
fn a_clean_transfer_needs_exactly_the_fixed_overhead() {
    // A second flow that never ends keeps the run going past the decoding, so the
    // teardown shows.
    let mut v = net("1 MB", json!({"model": "none"}), json!({"overhead": 0.05}));
    v["duration"] = json!("20 s");
    v["flows"].as_array_mut().unwrap().push(json!({"from": "server", "to": "router", "app": {"kind": "cbr", "rate": "1 kbps", "packet_size": "100 B"}}));
    let f = flow(&v, 1);
    let r = &f.metrics;
    assert_eq!((f.transport, f.variant, f.app), ("fectcp", "raptorq", "file"));
    assert_eq!(r.u64("fectcp_source_symbols"), 1000);
    assert_eq!(r.opt_u64("fectcp_symbols_needed"), Some(1050));
    assert_eq!(r.opt_u64("fectcp_symbols_at_decode"), Some(1050));
    assert!((r.opt_f64("fectcp_overhead").unwrap() - 0.05).abs() < 1e-12);
    assert_eq!(f.bytes_delivered, 1_000_000);
    assert!(r.opt_bool("fectcp_fin_received") == Some(true) && r.opt_bool("fectcp_fin_answered") == Some(true), "teardown: {r:?}");
    // The handshake costs one round trip (two 5 ms hops each way plus serialisation).
    let hs = r.opt_f64("fectcp_handshake_s").unwrap();
    assert!((0.02..0.03).contains(&hs), "handshake {hs}");
    // 1050 segments of 1040 B over 1 Mbit/s take 8.74 s; the transfer cannot be faster,
    // and pacing over sRTT keeps it within 15 % of that (the window's growth from 2).
    let t = f.completion_time_s.unwrap();
    assert!((8.74..8.74 * 1.15).contains(&t), "completion {t}");
}

#[test]
fn at_five_percent_loss_it_keeps_the_link_busy() {
    // At 5 % independent loss most losses are single: covered by the next segment's
    // ACK. Timers also expire when queueing stretches an RTT past Eq. 2's margin, so
    // `timeouts` counts those too; the rate still holds.
    let res = run_value(&net("2 MB", bernoulli(0.05), json!({"overhead": 0.05})), 2);
    let f = &res.flows[0];
    let r = &f.metrics;
    let lost = res.summary.drops_channel;
    assert!(r.u64("fectcp_losses_ignored") * 2 > lost, "{} of {lost} losses covered", r.u64("fectcp_losses_ignored"));
    assert_eq!(f.bytes_delivered, 2_000_000);
    // Within 10 % of the capacity the loss and the overhead leave.
    let ideal = 1e6 * 1000.0 / 1040.0 * 0.95 / 1.05;
    assert!(f.goodput_bps > 0.9 * ideal, "goodput {} vs {ideal}", f.goodput_bps);
}

#[test]
fn real_decoders_recover_the_file_byte_for_byte() {
    for code in ["raptorq", "lt"] {
        let f = flow(&net("300 kB", bernoulli(0.1), json!({"code": code, "decoding": "verify"})), 4);
        let r = &f.metrics;
        assert_eq!(r.opt_bool("fectcp_verified"), Some(true), "{code}: {r:?}");
        assert_eq!(f.bytes_delivered, 300_000, "{code}");
        assert!(r.opt_u64("fectcp_symbols_at_decode").unwrap() >= r.u64("fectcp_source_symbols"), "{code}: {r:?}");
    }
}

#[test]
fn the_measured_model_decodes_near_k_for_raptorq() {
    let f = flow(&net("1 MB", bernoulli(0.02), json!({})), 5);
    let r = &f.metrics;
    // RFC 6330 §1: K + 2 symbols decode with probability above 1 − 10⁻⁶.
    let needed = r.opt_u64("fectcp_symbols_needed").unwrap();
    assert!((1000..=1002).contains(&needed), "{r:?}");
}

#[test]
fn a_lost_syn_is_sent_again_after_the_handshake_timeout() {
    // The first packet on router -> client is the SYN: the trace drops it.
    let v = net("100 kB", json!({"model": "trace", "packets": [0]}), json!({"overhead": 0.05}));
    let f = flow(&v, 6);
    let r = &f.metrics;
    assert_eq!(r.u64("fectcp_syn_retries"), 1);
    assert!(r.opt_f64("fectcp_handshake_s").unwrap() > 1.0, "{r:?}");
    assert_eq!(f.bytes_delivered, 100_000);
}

#[test]
fn same_seed_same_bits() {
    let v = net("500 kB", bernoulli(0.1), json!({}));
    assert_eq!(deterministic_part(&run_value(&v, 7)), deterministic_part(&run_value(&v, 7)));
}

#[test]
fn it_shares_a_bottleneck_with_tcp() {
    let mut v = net("3 MB", json!({"model": "none"}), json!({"overhead": 0.05}));
    v["flows"].as_array_mut().unwrap().push(json!({"from": "server", "to": "client", "app": {"kind": "file", "size": "3 MB"}, "tcp": {"mss": "1000 B"}}));
    let res = run_value(&v, 8);
    let (fec, tcp) = (&res.flows[0], &res.flows[1]);
    assert_eq!((fec.bytes_delivered, tcp.bytes_delivered), (3_000_000, 3_000_000));
    // Neither starves: each gets at least a quarter of the 1 Mbit/s while both run.
    assert!(fec.goodput_bps > 250e3 && tcp.goodput_bps > 250e3, "{} {}", fec.goodput_bps, tcp.goodput_bps);
}

#[test]
fn bad_fectcp_input_names_the_field() {
    let msg = |fectcp: Value| run_error(&net("1 MB", json!({"model": "none"}), fectcp));
    assert_eq!(msg(json!({"alpha": 1.5})), "flows.0.fectcp.alpha: 1.5 is not allowed; use a number in (0, 1), the weight of the old sRTT in Eq. 1 (default 0.875)");
    assert!(msg(json!({"overhead": 2})).starts_with("flows.0.fectcp.overhead: 2 is not allowed; use a fraction in [0, 1]"));
    assert_eq!(msg(json!({"symbol_size": "1460 B"})), "flows.0.fectcp.symbol_size: 1460 B is not allowed; use 1 B to the MSS (tcp.mss = 1000 B)");
    assert_eq!(msg(json!({"code": "turbo"})), "flows.0.fectcp.code: \"turbo\" is not allowed; use one of: raptorq, lt");
    let mut v = net("0 B", json!({"model": "none"}), json!({}));
    assert_eq!(run_error(&v), "flows.0.app.size: 0 B is not a transfer; use at least 1 B");
    v["flows"][0]["app"] = json!({"kind": "bulk"});
    assert_eq!(run_error(&v), "flows.0.app.kind: \"bulk\" has no end, but FECTCP encodes a file; use kind = \"file\" with a size");
    v["flows"][0]["app"] = json!({"kind": "cbr", "rate": "100 kbps", "packet_size": "500 B"});
    assert_eq!(run_error(&v), "flows.0.transport: \"fectcp\" carries file transfers; a CBR application rides on UDP, so leave transport unset");
    v["flows"][0]["app"] = json!({"kind": "file", "size": "1 MB"});
    v["flows"][0]["transport"] = json!("tcp");
    assert_eq!(run_error(&v), "flows.0.fectcp: given, but the flow's transport is \"tcp\"; add transport = \"fectcp\" or drop the table");
}

