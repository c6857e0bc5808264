//! The model that never loses a packet: a link's default.

use super::{Channel, LossConfig, LossProcess, ModelConfig, TxSpan};
use crate::rng::RngStream;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `model = "none"`. An empty struct, not a unit: serde lets a unit variant of an
/// internally tagged enum accept unknown fields, and this one must refuse them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoLossConfig {}

/// A link with no `loss` table loses nothing.
impl Default for LossConfig {
    fn default() -> Self {
        NoLossConfig {}.into()
    }
}

impl ModelConfig for NoLossConfig {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
    /// Nothing to correct, nothing wrong either: counts as bit-level.
    fn makes_bit_errors(&self) -> bool {
        true
    }
    fn model_name(&self) -> &'static str {
        "none"
    }
    fn build(&self, _fading: RngStream) -> Channel {
        NoLoss.into()
    }
}

/// The no-loss process.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NoLoss;

impl LossProcess for NoLoss {
    fn lost(&mut self, _tx: TxSpan, _rng: &mut RngStream) -> bool {
        false
    }
    fn codeword_errors(&mut self, _: TxSpan, _: u32, errors: &mut [u32], _: &mut RngStream) {
        errors.fill(0);
    }
    fn stationary_loss(&self, _bits: u64) -> Option<f64> {
        Some(0.0)
    }
    fn mean_burst(&self, _bits: u64) -> Option<f64> {
        None
    }
}
