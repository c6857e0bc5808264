//! A FECTCP flow's two endpoints (Botoș §II): its file split into source blocks of
//! symbols, the sender, and the receiver with its decoding rule.

use super::flows::FlowSpec;
use super::Transport;
use crate::apps::AppConfig;
use crate::coding::rateless::BlockPlan;
use crate::error::{Error, Result};
use crate::rng::{stream_seed, RngStream};
use crate::time::SimTime;
use crate::transport::fectcp::{Decode, FectcpReceiver, FectcpSender};
use crate::transport::AnyEndpoint;

/// The sender and receiver of FECTCP flow `f`; the file's bytes and the model's needed
/// counts come from the flow's own streams of (`seed`, `replication`).
pub(super) fn endpoints(f: u32, fc: &FlowSpec, start: SimTime, seed: u64, replication: u64) -> Result<[AnyEndpoint; 2]> {
    let path = |field: &str| fc.origin.path(field);
    let file_bytes = match fc.app {
        AppConfig::File { size } => size.0,
        _ => return Err(Error::scenario(path("app.kind"), format!("\"{}\" has no end, but FECTCP encodes a file; use kind = \"file\" with a size", fc.app.kind()))),
    };
    let cfg = fc.fectcp.cloned().unwrap_or_default();
    let t = fc.tcp;
    cfg.validate(t.mss.0).map_err(|m| Error::nested(&path("fectcp"), m))?;
    let symbol = cfg.symbol_bytes(t.mss.0);
    let plan = BlockPlan::new(cfg.code, file_bytes, symbol).map_err(|m| Error::nested(&path("fectcp"), m))?;
    let file_seed = stream_seed(seed, replication, &format!("flow:{}:file", fc.name));
    let mut draws = RngStream::new(seed, replication, &format!("flow:{}:decode", fc.name));
    let decode = Decode::new(&cfg, &plan, file_bytes, file_seed, &mut draws).map_err(|m| Error::nested(&path("fectcp"), m))?;
    let (header, ack) = (t.header.0 as u16, t.ack_size.0 as u16);
    let sender = FectcpSender::new(&cfg, f, fc.src, fc.dst, start, plan.clone(), file_bytes, symbol, header);
    let receiver = FectcpReceiver::new(f, fc.dst, fc.src, start, ack, plan, symbol, file_bytes, decode);
    Ok([sender.into(), receiver.into()])
}

/// A `fectcp` table on a flow whose transport is TCP would be silently ignored, and CBR
/// rides on UDP whatever the transport says.
pub(super) fn check_transport(fc: &FlowSpec) -> Result<()> {
    if fc.transport == Transport::Fectcp && !fc.app.is_tcp() {
        return Err(Error::scenario(fc.origin.path("transport"), "\"fectcp\" carries file transfers; a CBR application rides on UDP, so leave transport unset"));
    }
    if fc.transport == Transport::Tcp && fc.fectcp.is_some() {
        return Err(Error::scenario(fc.origin.path("fectcp"), "given, but the flow's transport is \"tcp\"; add transport = \"fectcp\" or drop the table"));
    }
    Ok(())
}
