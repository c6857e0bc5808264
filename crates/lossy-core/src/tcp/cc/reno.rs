//! `cc = "reno"`: RFC 5681's window rule, the default. Linux's `reno` module and ns-3's
//! `TcpNewReno`/`TcpLinuxReno` congestion ops are this rule; which loss recovery runs
//! beside it is `tcp.variant`'s choice, so `cc = "reno"` with `variant = "newreno"` is
//! the pair ns-3 and Linux call NewReno. `tcp.abc` picks per-ACK growth ([`Aimd`]) or
//! RFC 3465's byte counting ([`ByteCounting`]).

use super::{AnyCongestionControl, Aimd, ByteCounting, CcChoice, CcContext, CcSpec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// RFC 5681's window rule; it has no parameters of its own (`tcp.abc` is its only one).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RenoConfig {}

/// `reno` is the default `tcp.cc` (its default's place is its file, not the list's).
impl Default for CcChoice {
    fn default() -> Self {
        CcChoice(RenoConfig {}.into())
    }
}

impl CcSpec for RenoConfig {
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }

    fn build(&self, ctx: &CcContext) -> AnyCongestionControl {
        match ctx.abc.limit_segments() {
            None => Aimd.into(),
            Some(l) => ByteCounting::new(l).into(),
        }
    }

    fn uses_abc(&self) -> bool {
        true
    }
}
