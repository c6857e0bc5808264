//! The scenario's `link_layer = { kind = "...", ... }` table of a link direction,
//! [`LinkLayerConfig`] (made with [`AnyLinkLayer`] from the one list in `link/mod.rs`),
//! and what every link layer's table does ([`LinkLayerSpec`]). Each scheme's table lives
//! in its own file (`plain.rs`, `arq.rs`, `adaptive_fec.rs`) with the link layer it builds.

pub use super::LinkLayerConfig;
use super::AnyLinkLayer;
use crate::capacity::AnyCapacity;
use crate::coding::frame::Coding;
use crate::rng::RngStream;
use crate::time::SimDuration;

/// What every link layer's table does; [`LinkLayerConfig`] delegates to it, so a new
/// link layer implements it in its own file and adds one line to the list.
pub trait LinkLayerSpec {
    /// `field: message` for values no link layer can have (`field` unprefixed: the
    /// caller nests it under `links.<i>.link_layer`).
    fn validate(&self) -> Result<(), String>;
    /// The largest packet it must carry is `largest` bytes: `field: message` when a
    /// setting makes no sense for it (an ARQ link packet bigger than any packet).
    fn check_payload(&self, _largest: u64) -> Result<(), String> {
        Ok(())
    }
    /// What one frame carries, in data bytes, and its coding: the frame a channel fit
    /// is made for (`markov_fit`); `largest` is the largest packet it must carry (the
    /// frame of a link that sends each packet as one).
    fn frame(&self, largest: u64) -> Result<(u64, Coding), String>;
    /// Whether frames change code: the link needs bit errors to correct.
    fn is_adaptive(&self) -> bool {
        false
    }
    /// The number of codes it chooses from at the sender's request (what a sender's
    /// `adaptive_fec` thresholds must step between); `None` when it reads no request.
    fn sender_chosen_codes(&self) -> Option<usize> {
        None
    }
    /// The link layer of a direction of `capacity` and one-way `delay`; `nak_stream`
    /// gives the direction's NAK-loss stream (`link:A->B:nak`), asked for only by a
    /// link layer whose NAKs can be lost. Call `validate` first.
    fn build(&self, capacity: AnyCapacity, delay: SimDuration, nak_stream: &mut dyn FnMut() -> RngStream) -> AnyLinkLayer;
}

impl LinkLayerConfig {
    /// The default (`plain.rs`: uncoded frames): left out when a scenario is written back.
    pub fn is_plain(&self) -> bool {
        *self == LinkLayerConfig::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::arq::ArqConfig;
    use crate::link::nak_config::Delivery;
    use crate::units::Bytes;
    use crate::coding::frame::CodingConfig;

    fn de(json: &str) -> Result<LinkLayerConfig, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn tables_parse_with_defaults_and_bad_values_name_the_field() {
        assert_eq!(de(r#"{"kind": "plain"}"#).unwrap(), LinkLayerConfig::default());
        assert!(de(r#"{"kind": "plain"}"#).unwrap().is_plain());
        let arq = de(r#"{"kind": "arq", "payload": "32 B", "attempts": 16}"#).unwrap();
        assert_eq!(
            arq,
            ArqConfig { payload: Bytes(32), attempts: 16, header: Bytes(0), coding: CodingConfig::None {}, nak: None, delivery: Delivery::InOrder }.into()
        );
        let coded = de(r#"{"kind": "plain", "coding": {"code": "bch", "n": 127, "k": 92}}"#).unwrap();
        assert!(!coded.is_plain() && coded.validate().is_ok());
        assert!(de(r#"{"kind": "arq", "payload": "32 B", "attempts": 16, "nak": 1}"#).is_err());
        assert!(de(r#"{"kind": "arq", "payload": "32 B", "attempts": 16, "delivery": "whenever"}"#).unwrap_err().contains("in_order"));
        assert!(de(r#"{"kind": "plain", "payload": "32 B"}"#).unwrap_err().contains("unknown field `payload`"));
        let nak = de(r#"{"kind": "arq", "payload": "32 B", "attempts": 16, "nak": {"loss": 2}, "delivery": "as_completed"}"#).unwrap();
        assert_eq!(nak.validate().unwrap_err(), "nak.loss: 2 is not a probability; use a number in [0, 1]");
        let bad = |json| de(json).unwrap().validate().unwrap_err();
        assert_eq!(bad(r#"{"kind": "arq", "payload": "32 B", "attempts": 0}"#), "attempts: 0 sends nothing; use 1 (no retransmission) or more");
        assert_eq!(bad(r#"{"kind": "arq", "payload": "0 B", "attempts": 4}"#), "payload: 0 B is out of range; use 1 B to 65,535 B");
        assert!(bad(r#"{"kind": "arq", "payload": "32 B", "attempts": 4, "coding": {"code": "bch", "n": 255, "k": 130}}"#)
            .starts_with("coding.k: k = 130 is not the dimension"));
        assert!(bad(r#"{"kind": "adaptive_fec", "codes": [{"code": "none"}]}"#).starts_with("codes: 1 code(s) leave nothing to adapt"));
        assert_eq!(
            arq.check_payload(24).unwrap_err(),
            "payload: 32 B is larger than any packet the flows send (at most 24 B); use at most 24 B"
        );
        assert_eq!(arq.frame(1000).unwrap().0, 32);
        assert_eq!(coded.frame(1000).unwrap().0, 1000);
    }

    #[test]
    fn every_link_layer_is_a_kind_of_the_table() {
        // The schema's `kind` tags, generated from the list: one per variant.
        let schema = serde_json::to_value(schemars::schema_for!(LinkLayerConfig)).unwrap();
        let kinds: Vec<&str> = schema["oneOf"].as_array().unwrap().iter().map(|v| v["properties"]["kind"]["const"].as_str().unwrap()).collect();
        let variants: Vec<String> = LinkLayerConfig::VARIANTS.iter().map(|v| crate::closed::snake_case(v)).collect();
        assert_eq!(kinds, variants);
        assert_eq!(AnyLinkLayer::VARIANTS, LinkLayerConfig::VARIANTS);
        assert!(serde_json::from_str::<LinkLayerConfig>(r#"{"kind": "plain"}"#).unwrap().is_plain());
    }
}
