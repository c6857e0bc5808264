//! The scenario's `link_layer = { kind = "...", ... }` table of a link direction, and
//! how it builds the link layer.

use super::adaptive::AdaptiveFec;
use super::arq::{Arq, Framing, InstantArq};
use super::arq_nak::ArqNak;
use super::coding::{Coding, CodingConfig};
use super::fec_control::{check_ladder, FecControlConfig};
use super::nak_config::{Delivery, NakConfig};
use super::plain::Plain;
use super::AnyLinkLayer;
use crate::rng::RngStream;
use crate::time::SimDuration;
use crate::units::{Bytes, HEADER_SIZE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How a link direction carries packets.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum LinkLayerConfig {
    /// Each packet is one frame (in codewords when coded); the channel decides whether it
    /// arrives.
    Plain {
        /// FEC of the frame, e.g. `{ code = "bch", n = 127, k = 92 }`; none by default.
        #[serde(default, skip_serializing_if = "CodingConfig::is_none")]
        coding: CodingConfig,
    },
    /// Segmentation with NAK-based selective-repeat ARQ (Chockalingam et al. §II): each
    /// packet is cut into link packets of `payload` data bytes, each resent on a NAK up
    /// to `attempts` transmissions in all; a link packet out of attempts loses its
    /// packet, which the transport then recovers. NAKs are instantaneous and error-free
    /// (the paper's assumption, §III) unless a `nak` table says otherwise.
    Arq {
        /// N_L: data bytes per link packet (the last one of a packet may be shorter).
        payload: Bytes,
        /// n_l: transmissions allowed per link packet, the first included (1 = no
        /// retransmission).
        attempts: u32,
        /// Link header bytes added to every link packet (0 in the paper).
        #[serde(default = "no_bytes")]
        header: Bytes,
        /// FEC of each link packet (its data and header), e.g.
        /// `{ code = "bch", n = 255, k = 131 }`; none by default.
        #[serde(default, skip_serializing_if = "CodingConfig::is_none")]
        coding: CodingConfig,
        /// NAKs that come back over the link, taking time and sometimes lost, e.g.
        /// `{ delay = "link", loss = 0.01 }`; without it NAKs are instantaneous and
        /// error-free, and packets pass one at a time.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nak: Option<NakConfig>,
        /// The order packets leave the link: `"in_order"` (the default, IS-99's radio
        /// link protocol) or `"as_completed"`. The same with instantaneous NAKs.
        #[serde(default, skip_serializing_if = "Delivery::is_in_order")]
        delivery: Delivery,
    },
    /// Adaptive FEC (Miyoshi §4): each packet one frame, as `plain`, in one of `codes`
    /// (weakest first). The TCP sender picks the code and asks for it in each data
    /// segment's header (its `tcp.adaptive_fec`, fed by ELN), unless `control` gives the
    /// link its own controller, fed by its own frames' outcomes.
    AdaptiveFec {
        /// The codes to choose from, weakest first, e.g. `[{ code = "none" },
        /// { code = "bch", n = 127, k = 92 }, { code = "bch", n = 127, k = 64 }]`.
        codes: Vec<CodingConfig>,
        /// The link's own controller: `{ window = 10, up = [...], down = [...] }`, one
        /// threshold per step between neighbouring codes. Unset: the sender decides.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        control: Option<FecControlConfig>,
    },
}

impl Default for LinkLayerConfig {
    fn default() -> Self {
        LinkLayerConfig::Plain { coding: CodingConfig::None {} }
    }
}

fn no_bytes() -> Bytes {
    Bytes(0)
}

impl LinkLayerConfig {
    /// The default: left out when a scenario is written back.
    pub fn is_plain(&self) -> bool {
        matches!(self, LinkLayerConfig::Plain { coding } if coding.is_none())
    }

    /// The coding of every frame; for the adaptive link, of its weakest code.
    fn coding(&self) -> &CodingConfig {
        match self {
            LinkLayerConfig::Plain { coding } | LinkLayerConfig::Arq { coding, .. } => coding,
            LinkLayerConfig::AdaptiveFec { codes, .. } => &codes[0],
        }
    }

    /// Whether frames change code: the link needs bit errors to correct.
    pub fn is_adaptive(&self) -> bool {
        matches!(self, LinkLayerConfig::AdaptiveFec { .. })
    }

    /// The number of codes an adaptive link chooses from when the sender picks them
    /// (what a sender's `adaptive_fec` thresholds must step between); `None` otherwise.
    pub fn sender_chosen_codes(&self) -> Option<usize> {
        match self {
            LinkLayerConfig::AdaptiveFec { codes, control: None } => Some(codes.len()),
            _ => None,
        }
    }

    /// `field: message` for values no link layer can have (`field` unprefixed: the
    /// caller nests it under `links.<i>.link_layer`).
    pub fn validate(&self) -> Result<(), String> {
        if let LinkLayerConfig::AdaptiveFec { codes, control } = self {
            if codes.len() < 2 {
                return Err(format!(
                    "codes: {} code(s) leave nothing to adapt; give 2 or more, weakest first, e.g. [{{ code = \"none\" }}, {{ code = \"bch\", n = 127, k = 92 }}]",
                    codes.len()
                ));
            }
            return check_ladder(codes, control.as_ref());
        }
        self.coding().build().map_err(|m| format!("coding.{m}"))?;
        match self {
            LinkLayerConfig::Plain { .. } | LinkLayerConfig::AdaptiveFec { .. } => Ok(()),
            LinkLayerConfig::Arq { payload, attempts, header, nak, .. } => {
                if payload.0 == 0 || payload.0 > HEADER_SIZE.hi {
                    return Err(format!("payload: {} B is out of range; use 1 B to 65,535 B", payload.0));
                }
                if *attempts == 0 {
                    return Err("attempts: 0 sends nothing; use 1 (no retransmission) or more".into());
                }
                HEADER_SIZE.check("header", *header)?;
                nak.as_ref().map_or(Ok(()), NakConfig::validate)
            }
        }
    }

    /// The largest packet it must carry is `largest` bytes: a link packet bigger than
    /// any is a mistake (the paper cuts packets into several).
    pub fn check_payload(&self, largest: u64) -> Result<(), String> {
        match self {
            LinkLayerConfig::Arq { payload, .. } if payload.0 > largest => Err(format!(
                "payload: {} B is larger than any packet the flows send (at most {largest} B); use at most {largest} B",
                payload.0
            )),
            _ => Ok(()),
        }
    }

    /// What one frame of this link layer carries, in data bytes, and its coding: an
    /// ARQ link packet (payload and header), or for the plain link the largest packet
    /// it must carry, `largest` (the frame a channel fit is made for: `markov_fit`).
    pub fn frame(&self, largest: u64) -> Result<(u64, Coding), String> {
        let bytes = match self {
            LinkLayerConfig::Plain { .. } | LinkLayerConfig::AdaptiveFec { .. } => largest,
            LinkLayerConfig::Arq { payload, header, .. } => payload.0 + header.0,
        };
        Ok((bytes, self.coding().build()?))
    }

    /// The link layer of a direction of `rate_bps` and one-way `delay`; `nak_stream`
    /// gives the direction's NAK-loss stream (`link:A->B:nak`), asked for only when
    /// NAKs are not instantaneous. Call [`validate`](Self::validate) first.
    pub fn build(&self, rate_bps: u64, delay: SimDuration, nak_stream: impl FnOnce() -> RngStream) -> AnyLinkLayer {
        let coding = self.coding().build().expect("validated");
        match self {
            LinkLayerConfig::Plain { .. } => Plain::new(rate_bps, coding).into(),
            LinkLayerConfig::AdaptiveFec { codes, control } => {
                let codes = codes.iter().map(|c| c.build().expect("validated")).collect();
                AdaptiveFec::new(rate_bps, codes, control.as_ref()).into()
            }
            LinkLayerConfig::Arq { payload, attempts, header, nak, delivery, .. } => {
                let framing = Framing::new(rate_bps, payload.0 as u32, header.0 as u32, *attempts, coding);
                match nak {
                    // The paper's link (§III), on its fast path.
                    None => Arq::Instant(InstantArq::new(framing)).into(),
                    Some(nak) => {
                        let timing = nak.timing(rate_bps, delay, framing.full_air());
                        Arq::Delayed(Box::new(ArqNak::new(framing, timing, *delivery, nak_stream()))).into()
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            LinkLayerConfig::Arq { payload: Bytes(32), attempts: 16, header: Bytes(0), coding: CodingConfig::None {}, nak: None, delivery: Delivery::InOrder }
        );
        let coded = de(r#"{"kind": "plain", "coding": {"code": "bch", "n": 127, "k": 92}}"#).unwrap();
        assert!(!coded.is_plain() && coded.validate().is_ok());
        assert!(de(r#"{"kind": "arq", "payload": "32 B", "attempts": 16, "nak": 1}"#).is_err());
        assert!(de(r#"{"kind": "arq", "payload": "32 B", "attempts": 16, "delivery": "whenever"}"#).unwrap_err().contains("in_order"));
        let nak = de(r#"{"kind": "arq", "payload": "32 B", "attempts": 16, "nak": {"loss": 2}, "delivery": "as_completed"}"#).unwrap();
        assert_eq!(nak.validate().unwrap_err(), "nak.loss: 2 is not a probability; use a number in [0, 1]");
        let bad = |json| de(json).unwrap().validate().unwrap_err();
        assert_eq!(bad(r#"{"kind": "arq", "payload": "32 B", "attempts": 0}"#), "attempts: 0 sends nothing; use 1 (no retransmission) or more");
        assert_eq!(bad(r#"{"kind": "arq", "payload": "0 B", "attempts": 4}"#), "payload: 0 B is out of range; use 1 B to 65,535 B");
        assert!(bad(r#"{"kind": "arq", "payload": "32 B", "attempts": 4, "coding": {"code": "bch", "n": 255, "k": 130}}"#)
            .starts_with("coding.k: k = 130 is not the dimension"));
        assert_eq!(
            arq.check_payload(24).unwrap_err(),
            "payload: 32 B is larger than any packet the flows send (at most 24 B); use at most 24 B"
        );
    }
}
