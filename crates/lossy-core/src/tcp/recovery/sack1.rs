//! `tcp.variant = "sack1"`: SACK recovery as ns-2's `Agent/TCP/Sack1` does it (the
//! papers' "TCP-SACK"), the [`Sack`](super::sack::Sack) scheme under
//! [`SackRules::Sack1`]: halve once, a running pipe estimate, every hole below the
//! highest SACK resent once.

use super::sack::{Sack, SackRules};
use super::{AnyLossRecovery, LossRecoverySpec, RecoveryContext};

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
    fn build(&self, ctx: &RecoveryContext) -> AnyLossRecovery {
        // ns-2's Sack1 clears its scoreboard at a timeout (tcp-sack1.cc); `validate`
        // refuses sack_after_timeout = "keep" with it.
        Sack::new(SackRules::Sack1, ctx.mss, ctx.dupack_threshold).into()
    }
}
