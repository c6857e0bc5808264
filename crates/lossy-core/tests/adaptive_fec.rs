//! Whole runs of adaptive FEC (Miyoshi §4, Figs. 4 and 6) on `scenarios/miyoshi.toml`:
//! the radio link BS -> MH (link 3) is `link_layer = { kind = "adaptive_fec", ... }`
//! with the codes none, BCH(127,92) and BCH(127,64). The sender's controller
//! (`tcp.adaptive_fec`, `tcp/adaptive_fec.rs`) learns of wireless losses from ELN and
//! asks for its code in every data segment's header; or the link runs its own
//! controller (`control`, `fec_control.rs`). The end-of-run invariants (packet
//! conservation included) are checked inside every run.

mod common;

use common::{deterministic_part, run_error, run_value, scenario_file};
use lossy_core::result::LinkSummary;
use lossy_core::RunResult;
use serde_json::{json, Value};

/// Parity bytes a 140-byte data packet (1120 bits) carries: ⌈1120/92⌉ = 13 codewords of
/// BCH(127,92) are 1651 bits, 66 bytes more; ⌈1120/64⌉ = 18 of (127,64), 2286 bits, 145.
const PARITY_92: u64 = (13 * 127 - 1120) / 8;
const PARITY_64: u64 = (18 * 127 - 1120) / 8;

fn codes() -> Value {
    json!([{"code": "none"}, {"code": "bch", "n": 127, "k": 92}, {"code": "bch", "n": 127, "k": 64}])
}

fn adaptive_link() -> Value {
    json!({"kind": "adaptive_fec", "codes": codes()})
}

fn eln() -> Value {
    json!([{"kind": "eln", "node": "BS", "wireless_neighbor": "MH"}])
}

fn snoop_eln() -> Value {
    json!([{"kind": "snoop", "node": "BS", "wireless_neighbor": "MH", "eln": true}])
}

/// Step up above 15 % of a window of 10 lost (two or more of ten, Eckhardt and
/// Steenkiste's rule), back down below 5 % (a clean window).
fn thresholds() -> Value {
    json!({"window": 10, "up": [0.15, 0.15], "down": [0.05, 0.05]})
}

/// Miyoshi's network (100 s), bit error ratio `ber` on the radio link, `agents` at BS;
/// with `fec`, the sender-driven scheme on link 3.
fn miyoshi(ber: f64, agents: Value, fec: bool) -> Value {
    let mut v = scenario_file("miyoshi");
    v["links"][3]["loss"] = json!({"model": "ber", "ber": ber});
    v["agents"] = agents;
    if fec {
        v["links"][3]["link_layer"] = adaptive_link();
        v["flows"][0]["tcp"]["adaptive_fec"] = thresholds();
    }
    v
}

fn link<'a>(r: &'a RunResult, name: &str) -> &'a LinkSummary {
    r.links.iter().find(|l| l.name == name).unwrap_or_else(|| panic!("no link direction {name}"))
}

fn radio(r: &RunResult) -> &LinkSummary {
    link(r, "BS->MH")
}

/// Goodput summed over seeds 1..=3 (the same seeds with and without FEC: the channel's
/// draws are paired), with the radio link's code changes and parity bytes summed too.
fn three_seeds(v: &Value) -> (f64, u64, u64) {
    (1..=3).fold((0.0, 0, 0), |(g, c, o), seed| {
        let r = run_value(v, seed);
        (g + r.flows[0].goodput_bps, c + radio(&r).metrics.u64("link_code_changes"), o + radio(&r).metrics.u64("link_overhead_bytes"))
    })
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn snoop_eln_with_the_senders_adaptive_fec_changes_code_and_beats_no_fec() {
    // BER 1e-3 loses 1 − 0.999^1120 ≈ 67 % of the uncoded 140-byte frames, ~0 of the coded.
    let (fec, changes, overhead) = three_seeds(&miyoshi(1e-3, snoop_eln(), true));
    let (plain, ..) = three_seeds(&miyoshi(1e-3, snoop_eln(), false));
    assert!(changes > 0 && overhead > 0, "{changes} code changes, {overhead} parity bytes");
    assert!(fec > 10.0 * plain, "adaptive FEC {fec} b/s, none {plain} b/s (sums over 3 seeds)");
    // Snoop+ELN tells the sender of the losses it repaired, on the ACK that passes them.
    let r = run_value(&miyoshi(1e-3, snoop_eln(), true), 1);
    assert!(r.agents[0].counters["repairs_reported"] > 0, "{:?}", r.agents[0].counters);
}

#[test]
fn the_plain_eln_agent_drives_it_too() {
    // BER 3e-4: about 28 % of uncoded frames lost.
    let (fec, changes, overhead) = three_seeds(&miyoshi(3e-4, eln(), true));
    let (plain, ..) = three_seeds(&miyoshi(3e-4, eln(), false));
    assert!(changes > 0 && overhead > 0, "{changes} code changes, {overhead} parity bytes");
    assert!(fec > 2.0 * plain, "adaptive FEC {fec} b/s, none {plain} b/s (sums over 3 seeds)");
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn without_bit_errors_it_never_leaves_code_0() {
    for agents in [snoop_eln(), eln()] {
        let on = run_value(&miyoshi(0.0, agents.clone(), true), 1);
        let off = run_value(&miyoshi(0.0, agents, false), 1);
        assert_eq!((radio(&on).metrics.u64("link_code_changes"), radio(&on).metrics.u64("link_overhead_bytes")), (0, 0));
        assert_eq!(deterministic_part(&on)["flows"], deterministic_part(&off)["flows"]);
        assert!(on.flows[0].goodput_bps > 250_000.0, "{}", on.flows[0].goodput_bps);
    }
}

#[test]
fn without_a_request_the_adaptive_link_is_the_plain_link() {
    // The link on its own keeps code 0 (none) for packets that ask for nothing, and a
    // sender whose thresholds never step (p_err > 1 cannot be) asks for code 0: both
    // runs are the uncoded link's bit for bit.
    let plain = deterministic_part(&run_value(&miyoshi(3e-4, eln(), false), 1));
    let mut v = miyoshi(3e-4, eln(), false);
    v["links"][3]["link_layer"] = adaptive_link();
    assert_eq!(deterministic_part(&run_value(&v, 1)), plain);
    v["flows"][0]["tcp"]["adaptive_fec"] = json!({"up": [1.0, 1.0], "down": [0.0, 0.0]});
    assert_eq!(deterministic_part(&run_value(&v, 1)), plain);
}

#[test]
fn the_code_in_the_segment_header_is_the_code_every_adaptive_link_uses() {
    // The sender steps up after any window with a loss and never back (down = 0), so
    // its requests go none -> (127,92) -> (127,64) once. The lossless wired link FH -> R1
    // gets the same ladder: it sees no loss of its own, so whatever code it uses it
    // read from the segments. The plain ELN agent keeps no copies, nothing is lost to
    // congestion and the run ends when the transfer is complete, so every data segment crosses
    // both links once, asking for the same code both times: their code changes and
    // parity bytes are equal, and the parity is 66 B per (127,92) and 145 B per
    // (127,64) frame.
    let mut v = miyoshi(3e-4, eln(), true);
    v["flows"][0]["app"] = json!({"kind": "file", "size": "50 KB"});
    v["flows"][0]["tcp"]["adaptive_fec"] = json!({"window": 10, "up": [0.0, 0.0], "down": [0.0, 0.0]});
    v["links"][0]["link_layer"] = adaptive_link();
    let r = run_value(&v, 1);
    assert_eq!(r.flows[0].bytes_delivered, 50_000);
    let (wired, radio) = (link(&r, "FH->R1"), radio(&r));
    assert_eq!(wired.channel_losses, 0);
    assert_eq!(radio.metrics.u64("link_code_changes"), 2, "monotone requests: two changes");
    assert_eq!(wired.metrics.u64("link_code_changes"), radio.metrics.u64("link_code_changes"));
    assert_eq!(wired.metrics.u64("link_overhead_bytes"), radio.metrics.u64("link_overhead_bytes"));
    // Some frames in (127,92), the rest of those after the first step in (127,64).
    let frames = wired.packets_delivered;
    let fits = (1..frames).any(|n92| {
        let rest = radio.metrics.u64("link_overhead_bytes").checked_sub(n92 * PARITY_92);
        rest.is_some_and(|b| b > 0 && b % PARITY_64 == 0 && n92 + b / PARITY_64 <= frames)
    });
    assert!(fits, "{} parity bytes over {frames} frames", radio.metrics.u64("link_overhead_bytes"));
    // The link's reverse direction carries the ACKs, plainly.
    assert_eq!(link(&r, "MH->BS").metrics.u64("link_overhead_bytes"), 0);
}

#[test]
#[ignore = "release tier: whole simulations, slow unoptimised (make test runs it with --release)"]
fn the_links_own_controller_needs_no_agent_and_no_sender() {
    let control = |ber: f64, down: f64| {
        let mut v = miyoshi(ber, json!([]), false);
        let control = json!({"window": 10, "up": [0.15, 0.15], "down": [down, down]});
        v["links"][3]["link_layer"] = json!({"kind": "adaptive_fec", "codes": codes(), "control": control});
        v
    };
    let (plain, ..) = three_seeds(&miyoshi(1e-3, json!([]), false));
    // Never back down (down = 0): the first window of uncoded frames (~67 % lost) steps
    // up to (127,92), which at 1e-3 loses almost nothing, so that is the only change, and
    // the goodput is most of the fixed (127,92) link's (186 kb/s without losses).
    let (sticky, changes, overhead) = three_seeds(&control(1e-3, 0.0));
    assert_eq!(changes, 3, "one change per seed");
    assert!(overhead > 0 && sticky > 3.0 * 120_000.0, "{sticky} b/s, {overhead} parity bytes (sums over 3 seeds)");
    assert!(sticky > 100.0 * plain, "adaptive FEC {sticky} b/s, none {plain} b/s");
    // A clean window steps back down: the code then alternates window by window, and
    // half of the frames go uncoded; still far better than no FEC.
    let (eager, changes, _) = three_seeds(&control(1e-3, 0.05));
    assert!(changes > 30, "{changes} code changes");
    assert!(eager > 10.0 * plain && eager < sticky, "eager {eager} b/s, sticky {sticky}, none {plain}");
    // No frame lost: no step up, and the uncoded link's results bit for bit.
    let clean = run_value(&control(0.0, 0.05), 1);
    assert_eq!(radio(&clean).metrics.u64("link_code_changes"), 0);
    assert_eq!(deterministic_part(&clean), deterministic_part(&run_value(&miyoshi(0.0, json!([]), false), 1)));
}

#[test]
fn the_same_seed_gives_the_same_run() {
    for v in [miyoshi(1e-3, snoop_eln(), true), miyoshi(3e-4, eln(), true)] {
        let a = run_value(&v, 7);
        assert!(radio(&a).metrics.u64("link_code_changes") > 0);
        assert_eq!(deterministic_part(&a), deterministic_part(&run_value(&v, 7)));
        assert_ne!(deterministic_part(&a)["links"], deterministic_part(&run_value(&v, 8))["links"]);
    }
}

#[test]
fn bad_adaptive_fec_input_names_the_field() {
    let base = miyoshi(1e-4, eln(), true);
    let err = |edit: &dyn Fn(&mut Value)| {
        let mut v = base.clone();
        edit(&mut v);
        run_error(&v)
    };
    let fec = |t: Value| move |v: &mut Value| v["flows"][0]["tcp"]["adaptive_fec"] = t.clone();
    assert_eq!(
        err(&fec(json!({"up": [0.15, 0.3], "down": [0.05, 0.4]}))),
        "flows.0.tcp.adaptive_fec.down.1: 0.4 is above up.1 = 0.3; the step down must need a lower p_err than the step up"
    );
    assert_eq!(
        err(&fec(json!({"up": [0.15, 1.5], "down": [0.05, 0.05]}))),
        "flows.0.tcp.adaptive_fec.up.1: 1.5 is not a packet error rate; use 0 to 1"
    );
    assert_eq!(
        err(&fec(json!({"up": [0.15, 0.2], "down": [-0.05, 0.05]}))),
        "flows.0.tcp.adaptive_fec.down.0: -0.05 is not a packet error rate; use 0 to 1"
    );
    assert_eq!(
        err(&fec(json!({"window": 0, "up": [0.15, 0.2], "down": [0.05, 0.05]}))),
        "flows.0.tcp.adaptive_fec.window: 0 packets observes nothing; use 1 or more (Miyoshi: 10)"
    );
    assert_eq!(
        err(&fec(json!({"up": [0.15, 0.2], "down": [0.05]}))),
        "flows.0.tcp.adaptive_fec.down: 1 thresholds for 2 in up; give one per step between neighbouring codes"
    );
    assert_eq!(
        err(&fec(json!({"up": [0.15], "down": [0.05]}))),
        "flows.0.tcp.adaptive_fec.up: thresholds for 2 codes (1 threshold), but links.3.link_layer has 3 codes; give 2"
    );
    assert_eq!(
        err(&fec(json!({"up": [0.15, 0.2], "down": [0.05, 0.05], "windw": 3}))),
        "flows.0.tcp.adaptive_fec.windw: unknown field `windw`; use one of: window, up, down, step_down"
    );
    assert_eq!(
        err(&|v| v["links"][3]["link_layer"] = json!({"kind": "plain"})),
        "flows.0.tcp.adaptive_fec: no link reads the requested code; give the wireless link link_layer = { kind = \"adaptive_fec\", codes = [...] } without its own control"
    );
    // A link with its own controller does not read requests either.
    assert_eq!(
        err(&|v| v["links"][3]["link_layer"]["control"] = thresholds()),
        "flows.0.tcp.adaptive_fec: no link reads the requested code; give the wireless link link_layer = { kind = \"adaptive_fec\", codes = [...] } without its own control"
    );
    assert!(err(&|v| v["links"][3]["link_layer"]["codes"][1]["k"] = json!(94)).starts_with(
        "links.3.link_layer.codes.1.k: k = 94 is not the dimension of a narrow-sense binary BCH code of length 127; k is one of 120 (t = 1), "
    ));
    assert_eq!(
        err(&|v| v["links"][3]["link_layer"]["codes"] = json!([{"code": "none"}])),
        "links.3.link_layer.codes: 1 code(s) leave nothing to adapt; give 2 or more, weakest first, e.g. [{ code = \"none\" }, { code = \"bch\", n = 127, k = 92 }]"
    );
    assert_eq!(
        err(&|v| v["links"][3]["loss"] = json!({"model": "bernoulli", "p": 0.1})),
        "links.3.link_layer.kind: \"adaptive_fec\" needs bit errors to correct, but the loss model \"bernoulli\" loses whole packets; use model = \"ber\", \"gilbert\" or \"rayleigh\""
    );
    assert_eq!(
        err(&|v| {
            v["links"][3]["reverse_link_layer"] = adaptive_link();
            v["links"][3]["reverse_loss"] = json!({"model": "gilbert_elliott", "p": 0.02, "r": 0.3});
        }),
        "links.3.reverse_link_layer.kind: \"adaptive_fec\" needs bit errors to correct, but the loss model \"gilbert_elliott\" loses whole packets; use model = \"ber\", \"gilbert\" or \"rayleigh\""
    );
    // The thresholds' own faults come before comparing their count with the link's.
    assert_eq!(
        err(&fec(json!({"up": [], "down": []}))),
        "flows.0.tcp.adaptive_fec.up: no thresholds; give one per step between neighbouring codes"
    );
    assert_eq!(
        err(&|v| v["links"][3]["loss"] = json!({"model": "rayleigh", "mean_snr_db": 15, "doppler_hz": 10, "markov_fit": true, "fit_packets": 1000})),
        "links.3.link_layer.kind: \"adaptive_fec\" needs bit errors to correct, but markov_fit replaces the fading by a chain that loses whole packets; drop markov_fit"
    );
    // The link's own controller: the same checks under links.3.link_layer.control.
    let control = |c: Value| {
        move |v: &mut Value| {
            v["flows"][0]["tcp"].as_object_mut().unwrap().remove("adaptive_fec");
            v["links"][3]["link_layer"]["control"] = c.clone();
        }
    };
    assert_eq!(
        err(&control(json!({"up": [0.1], "down": [0.05]}))),
        "links.3.link_layer.control.up: 1 thresholds for 3 codes; give 2, one per step between neighbouring codes"
    );
    assert_eq!(
        err(&control(json!({"window": 0, "up": [0.1, 0.2], "down": [0.05, 0.05]}))),
        "links.3.link_layer.control.window: 0 packets observes nothing; use 1 or more (Miyoshi: 10)"
    );
    assert_eq!(
        err(&control(json!({"up": [0.1, 0.2], "down": [0.05, 0.3]}))),
        "links.3.link_layer.control.down.1: 0.3 is above up.1 = 0.2; the step down must need a lower p_err than the step up"
    );
}

/// Issue 25, item 4 (a): the sender's controller counts the link's outcomes, so a window
/// completes where the current code delivers almost nothing. No FEC at BER 3e-3 delivers
/// 3.5 % of the 140-byte frames; counting acknowledged segments alone, the controller
/// never left code 0 (24 b/s, 0 code changes in 100 s at seed 1).
#[test]
fn where_no_fec_delivers_almost_nothing_the_senders_controller_steps_up() {
    let r = run_value(&miyoshi(3e-3, snoop_eln(), true), 1);
    assert!(radio(&r).metrics.u64("link_code_changes") > 0, "{} code changes", radio(&r).metrics.u64("link_code_changes"));
    assert!(r.flows[0].goodput_bps > 100_000.0, "{} b/s", r.flows[0].goodput_bps);
}

/// Where no FEC delivers nothing at all (BER 1e-2), the sender's retransmission timeout
/// ends its window as lost, and it steps up (before: 0 b/s, 0 code changes). Each later
/// probe of no FEC costs a timeout, so this stays far below BCH(127,92)'s 172 kb/s.
#[test]
fn where_no_fec_delivers_nothing_a_timeout_steps_up() {
    let r = run_value(&miyoshi(1e-2, snoop_eln(), true), 1);
    assert!(radio(&r).metrics.u64("link_code_changes") > 0, "{} code changes", radio(&r).metrics.u64("link_code_changes"));
    assert!(r.flows[0].goodput_bps > 0.0, "{} b/s", r.flows[0].goodput_bps);
}

/// Issue 25, item 4 (c): hysteresis on the step down. With the up-threshold read at the
/// simulated no-FEC/(127,92) crossing (BER 6.4e-5: 1 − (1 − 6.4e-5)^1120 = 0.069 of the
/// uncoded frames) and a lower threshold no 10-packet window can undercut except by
/// being clean (~1e-10), stepping down after every clean window made 850 code changes
/// per 100 s at BER 1e-4 (seed 1, four codes); a step down reversed within its
/// judgement doubles the wait before the next one.
#[test]
fn a_steady_channel_does_not_make_the_code_oscillate() {
    let mut v = miyoshi(1e-4, snoop_eln(), true);
    v["flows"][0]["tcp"]["adaptive_fec"] = json!({"window": 10, "up": [0.069, 0.278], "down": [1.1e-10, 2.9e-4]});
    let r = run_value(&v, 1);
    assert!(radio(&r).metrics.u64("link_code_changes") < 60, "{} code changes", radio(&r).metrics.u64("link_code_changes"));
    // Within 10 % of BCH(127,92)'s 186 kb/s, the best fixed code there.
    assert!(r.flows[0].goodput_bps > 167_000.0, "{} b/s", r.flows[0].goodput_bps);
}
