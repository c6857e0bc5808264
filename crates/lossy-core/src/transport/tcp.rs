//! TCP as a transport: the flow's `tcp` table builds a `TcpSender` and a `TcpReceiver`
//! (the state machines live in `crate::tcp`).

use super::{AnyEndpoint, FlowEnds, TransportSpec};
use crate::apps::App;
use crate::error::{Error, Result};
use crate::rng::stream_seed;
use crate::tcp::inference::LossInference;
use crate::tcp::recovery::LossRecoverySpec;
pub use crate::tcp::{TcpReceiver, TcpSender};

/// `transport = "tcp"` (the default) for a byte stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpTransport;

/// What `transport = "tcp"` names (the family's list reads it).
pub const NAMED_TCP: TcpTransport = TcpTransport;

impl TransportSpec for TcpTransport {
    fn name(&self) -> &'static str {
        "tcp"
    }

    fn variant(&self, f: &FlowEnds) -> &'static str {
        f.tcp.variant.name()
    }

    fn reads_tcp_options(&self) -> bool {
        true
    }

    fn agents_act_on_it(&self) -> bool {
        true
    }

    /// A `fectcp` table on a TCP flow would be silently ignored.
    fn check_asked(&self, f: &FlowEnds) -> Result<()> {
        if f.fectcp.is_some() {
            return Err(Error::scenario((f.path)("fectcp"), "given, but the flow's transport is \"tcp\"; add transport = \"fectcp\" or drop the table"));
        }
        Ok(())
    }

    fn endpoints(&self, f: &FlowEnds) -> Result<[AnyEndpoint; 2]> {
        f.check_tcp()?;
        let t = f.tcp;
        let cc_seed = stream_seed(f.seed, f.replication, &format!("flow:{}:cc", f.name));
        let sender = TcpSender::new(t, f.flow, f.src, f.dst, f.start, f.app.total_bytes()).with_cc_seed(t, cc_seed);
        let receiver = TcpReceiver::new(f.flow, f.dst, f.src, t.mss.0 as u32, t.ack_size.0 as u16, t.max_window.0 as u32, t.delayed_ack.map(|d| d.0))
            .with_ecn(t.ecn)
            .with_ewln(t.ewln)
            .with_sack(t.sack_on())
            .with_inference(LossInference::for_role(t.syndrome, t.mss.0 as u32, t.dupack_threshold));
        Ok([sender.into(), receiver.into()])
    }
}
