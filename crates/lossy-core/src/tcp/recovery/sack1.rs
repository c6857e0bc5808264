//! `tcp.variant = "sack1"`: SACK recovery as ns-2's `Agent/TCP/Sack1` does it (the
//! papers' "TCP-SACK"), the [`Sack`](super::sack::Sack) scheme under
//! [`SackRules::Sack1`]: halve once, a running pipe estimate, every hole below the
//! highest SACK resent once.

use super::sack::{Sack, SackRules};
use super::{AnyLossRecovery, LossRecoverySpec};

/// `tcp.variant = "sack1"`.
#[derive(Clone, Copy, Debug)]
pub struct Sack1Choice;

impl LossRecoverySpec for Sack1Choice {
    fn name(&self) -> &'static str {
        "sack1"
    }
    fn uses_sack(&self) -> bool {
        true
    }
    fn build(&self, mss: u64, dupack_threshold: u32) -> AnyLossRecovery {
        Sack::new(SackRules::Sack1, mss, dupack_threshold).into()
    }
}
