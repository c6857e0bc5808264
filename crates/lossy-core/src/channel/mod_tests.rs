//! Tests of `LossConfig` (parsing, checks and messages) and of the models through `Channel`.

use super::*;
use super::gilbert::GilbertUnit;
use super::neyman::NeymanUnit;
use crate::time::SimDuration;

fn de(json: &str) -> Result<LossConfig, String> {
    serde_json::from_str(json).map_err(|e| e.to_string())
}

/// Example tables, keyed by their `LossConfig` variant; every variant needs at least one
/// (`all_configs` fails naming the one without), so a new model cannot be left out of the
/// "for every model" tests below.
const EXAMPLES: &[(&str, &str)] = &[
    ("None", r#"{"model":"none"}"#),
    ("Bernoulli", r#"{"model":"bernoulli","p":0.1}"#),
    ("Ber", r#"{"model":"ber","ber":1e-4}"#),
    ("Snr", r#"{"model":"snr","snr_db":7}"#),
    ("Snr", r#"{"model":"snr","snr_db":5,"modulation":"bpsk"}"#),
    ("GilbertElliott", r#"{"model":"gilbert_elliott","p":0.01,"r":0.2,"bad_loss":0.8,"good_loss":0.01}"#),
    ("Gilbert", r#"{"model":"gilbert","p_ge":0.006,"p_eg":0.05}"#),
    ("Gilbert", r#"{"model":"gilbert","p_ge":0.001,"p_eg":0.02,"unit":"bit","ber_bad":0.1}"#),
    ("Gilbert", r#"{"model":"gilbert","p_ge":0.006,"p_eg":0.05,"slot":"150 us"}"#),
    ("Markov", r#"{"model":"markov","mean_a":"75 ms","mean_b":"3.75 ms","loss_a":0.0002,"loss_b":0.5}"#),
    ("Rayleigh", r#"{"model":"rayleigh","mean_snr_db":20,"doppler_hz":10}"#),
    ("Rayleigh", r#"{"model":"rayleigh","mean_snr_db":-3,"speed_mps":1.5,"carrier_hz":9e8,"modulation":"dpsk","sinusoids":8,"chunk_periods":0.05}"#),
    ("Trace", r#"{"model":"trace","packets":[3,1,4,1,5]}"#),
    ("Trace", r#"{"model":"trace","times":["10 ms","0.5 s"]}"#),
    ("Neyman", r#"{"model":"neyman","errors_per_cluster":3,"clusters_per_unit":1e-5}"#),
    ("Neyman", r#"{"model":"neyman","errors_per_cluster":3,"packet_loss":0.05,"packet_bytes":1500,"span":16}"#),
    ("Neyman", r#"{"model":"neyman","unit":"packet","errors_per_cluster":2,"packet_loss":0.1}"#),
];

/// Every example, in `LossConfig::VARIANTS`' order, each checked to be the variant it
/// is filed under.
fn all_configs() -> Vec<LossConfig> {
    let mut out = Vec::new();
    for variant in LossConfig::VARIANTS {
        let tables: Vec<&str> = EXAMPLES.iter().filter(|(v, _)| v == variant).map(|(_, t)| *t).collect();
        assert!(!tables.is_empty(), "loss model {variant} has no example: add one to EXAMPLES in channel/mod_tests.rs");
        for t in tables {
            let cfg = de(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert!(format!("{cfg:?}").starts_with(&format!("{variant}(")), "{t} is filed under {variant}: {cfg:?}");
            out.push(cfg);
        }
    }
    assert!(EXAMPLES.iter().all(|(v, _)| LossConfig::VARIANTS.contains(v)), "an example names no variant");
    out
}

#[test]
fn serde_round_trip_of_every_model() {
    for cfg in all_configs() {
        cfg.validate().unwrap();
        let text = serde_json::to_string(&cfg).unwrap();
        let back: LossConfig = serde_json::from_str(&text).unwrap();
        assert_eq!(cfg, back, "{text}");
    }
    let cfg = de(r#"{"model":"bernoulli","p":0.01}"#).unwrap();
    assert_eq!(cfg, LossConfig::Bernoulli(BernoulliConfig { p: 0.01 }));
    assert_eq!(LossConfig::default(), de(r#"{"model":"none"}"#).unwrap());
}

#[test]
fn model_name_is_the_tag_a_scenario_writes() {
    for cfg in all_configs() {
        let text = serde_json::to_value(&cfg).unwrap();
        assert_eq!(text["model"], cfg.model_name(), "{cfg:?}");
    }
}

#[test]
fn defaults_are_filled_in() {
    let LossConfig::GilbertElliott(c) =
        de(r#"{"model":"gilbert_elliott","p":0.01,"r":0.1}"#).unwrap()
    else {
        panic!()
    };
    assert_eq!((c.bad_loss, c.good_loss), (1.0, 0.0));
    let LossConfig::Gilbert(c) = de(r#"{"model":"gilbert","p_ge":0.006,"p_eg":0.05}"#).unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (c.unit, c.ber_good, c.ber_bad),
        (GilbertUnit::Packet, 0.0, 1.0)
    );
    let LossConfig::Markov(c) =
        de(r#"{"model":"markov","mean_a":"75 ms","mean_b":"3.75 ms","loss_a":0,"loss_b":1}"#)
            .unwrap()
    else {
        panic!()
    };
    assert_eq!(c.mean_b.0, SimDuration::from_micros(3750));
    let LossConfig::Rayleigh(c) =
        de(r#"{"model":"rayleigh","mean_snr_db":20,"doppler_hz":10}"#).unwrap()
    else {
        panic!()
    };
    assert_eq!(
        (c.modulation, c.sinusoids, c.chunk_periods),
        (Modulation::Bpsk, 16, 0.02)
    );
}

#[test]
fn unknown_fields_and_models_are_rejected() {
    let e = de(r#"{"model":"bernoulli","p":0.01,"q":0.5}"#).unwrap_err();
    assert!(e.contains("unknown field `q`"), "{e}");
    let e = de(r#"{"model":"gilbert_elliott","p":0.01,"r":0.1,"h":0.5}"#).unwrap_err();
    assert!(e.contains("unknown field `h`"), "{e}");
    let e = de(r#"{"model":"none","p":0.01}"#).unwrap_err();
    assert!(e.contains("unknown field `p`"), "{e}");
    let e = de(r#"{"model":"bernouli","p":0.01}"#).unwrap_err();
    assert!(e.contains("unknown variant `bernouli`"), "{e}");
    assert!(de(r#"{"model":"bernoulli"}"#)
        .unwrap_err()
        .contains("missing field `p`"));
    let e =
        de(r#"{"model":"markov","mean_a":"75 parsecs","mean_b":"1 ms","loss_a":0,"loss_b":1}"#)
            .unwrap_err();
    assert!(e.contains("\"75 parsecs\" is not a duration"), "{e}");
}

#[test]
fn validate_names_field_value_and_range() {
    let msg = |j: &str| de(j).unwrap().validate().unwrap_err();
    assert_eq!(
        msg(r#"{"model":"bernoulli","p":1.5}"#),
        "p: 1.5 is not a probability; use a number in [0, 1]"
    );
    assert_eq!(
        msg(r#"{"model":"ber","ber":-0.1}"#),
        "ber: -0.1 is not a probability; use a number in [0, 1]"
    );
    assert_eq!(
        msg(r#"{"model":"gilbert_elliott","p":0.1,"r":0.1,"bad_loss":2}"#),
        "bad_loss: 2 is not a probability; use a number in [0, 1]"
    );
    assert_eq!(
        msg(r#"{"model":"gilbert","p_ge":0.1,"p_eg":7}"#),
        "p_eg: 7 is not a probability; use a number in [0, 1]"
    );
    assert_eq!(
        msg(r#"{"model":"markov","mean_a":"0 ms","mean_b":"1 ms","loss_a":0,"loss_b":1}"#),
        "mean_a: 0 s is not a positive duration; use e.g. \"75 ms\""
    );
    assert_eq!(
        msg(r#"{"model":"markov","mean_a":"1 ms","mean_b":"1 ms","loss_a":0,"loss_b":1.01}"#),
        "loss_b: 1.01 is not a probability; use a number in [0, 1]"
    );
    assert!(msg(r#"{"model":"trace"}"#)
        .starts_with("trace: give exactly one of `packets` or `times`"));
    assert!(msg(r#"{"model":"trace","packets":[1],"times":[1]}"#)
        .starts_with("trace: give exactly one of `packets` or `times`"));
    assert_eq!(
        msg(r#"{"model":"rayleigh","mean_snr_db":20,"doppler_hz":-10}"#),
        "doppler_hz: -10 is not allowed; use a finite number of Hz > 0, e.g. 10"
    );
    assert_eq!(
        msg(r#"{"model":"rayleigh","mean_snr_db":20,"speed_mps":0,"carrier_hz":9e8}"#),
        "speed_mps: 0 is not allowed; use a finite number of m/s > 0, e.g. 1.5"
    );
    assert_eq!(
        msg(r#"{"model":"rayleigh","mean_snr_db":20,"speed_mps":1,"carrier_hz":-1}"#),
        "carrier_hz: -1 is not allowed; use a finite number of Hz > 0, e.g. 900e6"
    );
    let neyman = |fields: &str| msg(&format!(r#"{{"model":"neyman",{fields}}}"#));
    assert_eq!(
        neyman(r#""errors_per_cluster":-1,"clusters_per_unit":1e-5"#),
        "errors_per_cluster: -1 is not allowed; use a finite mean number of errors per cluster > 0, e.g. 3"
    );
    assert_eq!(
        neyman(r#""errors_per_cluster":3,"clusters_per_unit":-0.5"#),
        "clusters_per_unit: -0.5 is not allowed; use a finite number of clusters per bit ≥ 0, e.g. 1e-5"
    );
    assert_eq!(
        neyman(r#""unit":"packet","errors_per_cluster":3,"clusters_per_unit":-0.5"#),
        "clusters_per_unit: -0.5 is not allowed; use a finite number of clusters per packet ≥ 0, e.g. 0.02"
    );
    assert_eq!(
        neyman(r#""errors_per_cluster":3"#),
        "clusters_per_unit: missing; give clusters_per_unit (clusters per bit), or packet_loss with packet_bytes"
    );
    assert_eq!(
        neyman(r#""errors_per_cluster":3,"clusters_per_unit":1e-5,"packet_loss":0.1"#),
        "packet_loss: 0.1 is given with clusters_per_unit; give one of them"
    );
    assert_eq!(
        neyman(r#""errors_per_cluster":3,"packet_loss":1,"packet_bytes":1500"#),
        "packet_loss: 1 is not allowed; use a probability in [0, 1), e.g. 0.05"
    );
    assert_eq!(
        neyman(r#""errors_per_cluster":3,"packet_loss":0.1"#),
        "packet_bytes: missing; packet_loss with unit = \"bit\" is for packets of a given size, e.g. packet_bytes = 1500"
    );
    assert_eq!(
        neyman(r#""errors_per_cluster":3,"packet_loss":0.1,"packet_bytes":-1500"#),
        "packet_bytes: -1500 is not allowed; use a whole number of bytes > 0, e.g. 1500"
    );
    assert_eq!(
        neyman(r#""unit":"packet","errors_per_cluster":3,"packet_loss":0.1,"packet_bytes":1500"#),
        "packet_bytes: 1500 is not used with unit = \"packet\" (a packet is one unit whatever its size); leave it out"
    );
    assert_eq!(
        neyman(r#""errors_per_cluster":3,"clusters_per_unit":1e-5,"packet_bytes":1500"#),
        "packet_bytes: 1500 is used only with packet_loss; leave it out"
    );
    assert_eq!(
        neyman(r#""errors_per_cluster":3,"clusters_per_unit":1e-5,"span":2.5"#),
        "span: 2.5 is not allowed; use a whole number of bits ≥ 1, e.g. 8 (default: ⌈2·errors_per_cluster⌉)"
    );
    assert_eq!(
        neyman(r#""errors_per_cluster":3,"clusters_per_unit":1e-5,"span":0"#),
        "span: 0 is not allowed; use a whole number of bits ≥ 1, e.g. 8 (default: ⌈2·errors_per_cluster⌉)"
    );
    let nan = LossConfig::Neyman(NeymanConfig {
        unit: NeymanUnit::Bit,
        errors_per_cluster: f64::NAN,
        clusters_per_unit: Some(1e-5),
        packet_loss: None,
        packet_bytes: None,
        span: None,
    });
    assert!(nan.validate().unwrap_err().starts_with("errors_per_cluster: NaN is not allowed"));
    let e = de(r#"{"model":"neyman","unit":"byte","errors_per_cluster":3,"clusters_per_unit":1e-5}"#).unwrap_err();
    assert!(e.contains("unknown variant `byte`, expected `bit` or `packet`"), "{e}");
    let nan = LossConfig::Bernoulli(BernoulliConfig { p: f64::NAN });
    assert_eq!(
        nan.validate().unwrap_err(),
        "p: NaN is not a probability; use a number in [0, 1]"
    );
}

#[test]
#[ignore = "release tier: Monte-Carlo statistics, slow unoptimised (make test runs it with --release)"]
fn same_seed_same_sequence_for_every_model() {
    for cfg in all_configs() {
        let run = |seed: u64| {
            let mut ch = cfg.build(RngStream::new(seed, 0, "fading"));
            let mut rng = RngStream::new(seed, 0, "det");
            let mut now = SimTime::ZERO;
            let mut out = Vec::new();
            let mut cw = [0u32; 4];
            for i in 0..20_000u64 {
                now += SimDuration::from_micros(400);
                if i % 2 == 0 {
                    out.push(ch.lost(super::TxSpan::at(now, 8000), &mut rng) as u32);
                } else {
                    ch.codeword_errors(super::TxSpan::at(now, 0), 2000, &mut cw, &mut rng);
                    out.extend_from_slice(&cw);
                }
            }
            out
        };
        let a = run(11);
        assert_eq!(a, run(11), "{cfg:?}");
        let lossy = a.iter().any(|&x| x != 0);
        let random = !matches!(cfg, LossConfig::None(NoLossConfig {}) | LossConfig::Trace(_));
        if random {
            assert!(lossy, "{cfg:?} lost nothing");
            assert_ne!(a, run(12), "{cfg:?}: seed does not matter");
        }
    }
}

#[test]
fn none_never_loses() {
    let mut ch = LossConfig::None(NoLossConfig {}).build(RngStream::new(1, 0, "fading"));
    let mut rng = RngStream::new(1, 0, "none");
    assert!((0..1000).all(|i| !ch.lost(super::TxSpan::at(SimTime(i), 8000), &mut rng)));
    let mut cw = [9u32; 3];
    ch.codeword_errors(super::TxSpan::at(SimTime(5), 0), 127, &mut cw, &mut rng);
    assert_eq!(cw, [0; 3]);
    assert_eq!(ch.stationary_loss(8000), Some(0.0));
    assert_eq!(ch.mean_burst(8000), None);
}

#[test]
fn packet_models_mark_every_codeword_of_a_lost_packet_uncorrectable() {
    let mut ch = de(r#"{"model":"bernoulli","p":0.5}"#).unwrap().build(RngStream::new(2, 0, "fading"));
    let mut rng = RngStream::new(2, 0, "cw");
    let mut seen = [false; 2];
    for _ in 0..100 {
        let mut cw = [7u32; 5];
        ch.codeword_errors(super::TxSpan::at(SimTime::ZERO, 0), 127, &mut cw, &mut rng);
        assert!(cw == [0; 5] || cw == [UNCORRECTABLE; 5], "{cw:?}");
        seen[(cw[0] == 0) as usize] = true;
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn json_schema_carries_field_docs() {
    let schema = serde_json::to_string(&schemars::schema_for!(LossConfig)).unwrap();
    for needle in [
        "gilbert_elliott",
        "bad_loss",
        "p_ge",
        "mean_a",
        "packets",
        "netem",
        "doppler_hz",
        "dpsk",
        "errors_per_cluster",
        "clusters_per_unit",
    ] {
        assert!(schema.contains(needle), "schema lacks {needle}: {schema}");
    }
}
