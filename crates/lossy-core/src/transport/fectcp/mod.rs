//! FECTCP (Botoș, Polgar, Bota): a TCP-like transport whose segments are symbols of a
//! rateless erasure code, so it never retransmits, with a congestion control that
//! ignores single losses and reduces its rate on consecutive ones.
//!
//! - `config`: the flow's `fectcp` table and the readings of what the paper leaves open.
//! - `control`: the window, Eq. 1's smoothed RTT, Eqs. 2–3's per-segment timer, pacing.
//! - `sender`, `receiver`: the two endpoints (handshake, symbols, cumulative ACKs, FIN).
//! - `decode`: when the receiver can decode: a model by received-symbol count, or the
//!   real decoder on real symbols, verified byte for byte.

pub mod config;
pub mod control;
pub mod decode;
pub mod receiver;
pub mod sender;

pub use config::FectcpConfig;
pub use decode::Decode;
pub use receiver::FectcpReceiver;
pub use sender::FectcpSender;

use super::{AnyEndpoint, FlowEnds, TransportSpec};
use crate::apps::App;
use crate::coding::rateless::BlockPlan;
use crate::error::{Error, Result};
use crate::rng::{stream_seed, RngStream};
use crate::metrics::{Columns, Metric};

/// `transport = "fectcp"`: a file sent as rateless-code symbols (Botoș §II).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FectcpTransport;

/// What `transport = "fectcp"` names (the family's list reads it).
pub const NAMED_FECTCP: FectcpTransport = FectcpTransport;

/// Its sender boxed in the endpoints' list (once, when built).
impl From<FectcpSender> for AnyEndpoint {
    fn from(x: FectcpSender) -> Self {
        Box::new(x).into()
    }
}

impl TransportSpec for FectcpTransport {
    fn name(&self) -> &'static str {
        "fectcp"
    }

    /// The rateless code's name.
    fn variant(&self, f: &FlowEnds) -> &'static str {
        f.fectcp.map_or(FectcpConfig::default().code, |c| c.code).name()
    }

    /// Its segments are sized by the `tcp` table's `mss` and `header`.
    fn reads_tcp_options(&self) -> bool {
        true
    }

    /// Its symbols and ACKs are not TCP's: no agent acts on them.
    fn agents_act_on_it(&self) -> bool {
        false
    }

    /// It carries files: a datagram app rides on UDP whatever the transport says.
    fn check_asked(&self, f: &FlowEnds) -> Result<()> {
        if !f.app.is_stream() {
            return Err(Error::scenario((f.path)("transport"), "\"fectcp\" carries file transfers; a CBR application rides on UDP, so leave transport unset"));
        }
        Ok(())
    }

    /// Its file split into source blocks of symbols, the sender, and the receiver with
    /// its decoding rule; the file's bytes and the model's needed counts come from the
    /// flow's own streams of (`seed`, `replication`).
    fn endpoints(&self, f: &FlowEnds) -> Result<[AnyEndpoint; 2]> {
        f.check_tcp()?;
        let path = f.path;
        let Some(file_bytes) = f.app.total_bytes() else {
            return Err(Error::scenario(path("app.kind"), format!("\"{}\" has no end, but FECTCP encodes a file; use kind = \"file\" with a size", f.app.kind())));
        };
        let cfg = f.fectcp.cloned().unwrap_or_default();
        let t = f.tcp;
        cfg.validate(t.mss.0).map_err(|m| Error::nested(&path("fectcp"), m))?;
        let symbol = cfg.symbol_bytes(t.mss.0);
        let plan = BlockPlan::new(cfg.code, file_bytes, symbol).map_err(|m| Error::nested(&path("fectcp"), m))?;
        let file_seed = stream_seed(f.seed, f.replication, &format!("flow:{}:file", f.name));
        let mut draws = RngStream::new(f.seed, f.replication, &format!("flow:{}:decode", f.name));
        let decode = Decode::new(&cfg, &plan, file_bytes, file_seed, &mut draws).map_err(|m| Error::nested(&path("fectcp"), m))?;
        let (header, ack) = (t.header.0 as u16, t.ack_size.0 as u16);
        let sender = FectcpSender::new(&cfg, f.flow, f.src, f.dst, f.start, plan.clone(), file_bytes, symbol, header);
        let receiver = FectcpReceiver::new(f.flow, f.dst, f.src, f.start, ack, plan, symbol, file_bytes, decode);
        Ok([sender.into(), receiver.into()])
    }
}

/// What the FECTCP sender counts for its flow's row beyond a sender's counters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FectcpReport {
    pub handshake_s: Option<f64>,
    pub syn_retries: u64,
    pub losses_ignored: u64,
    pub late_acks: u64,
}

impl FectcpReport {
    /// A FECTCP flow's own columns, in their order in its row (absent for other flows):
    /// both endpoints add them before setting their part.
    pub const COLUMNS: &'static Columns = &[
        // From the flow's start to the SYN-ACK (the handshake counts in the transfer time).
        ("fectcp_handshake_s", Metric::OptF64(None)),
        ("fectcp_syn_retries", Metric::U64(0)),
        // Segments covered by a later segment's cumulative ACK without an ACK of their
        // own (lost, or their ACK was): the single losses the control ignored.
        ("fectcp_losses_ignored", Metric::U64(0)),
        // ACKs of segments whose timer had already expired: expiries that were the RTT's
        // growth, not a loss (they still counted in `timeouts` and may have reduced cwnd).
        ("fectcp_late_acks", Metric::U64(0)),
        ("fectcp_srtt_final_s", Metric::OptF64(None)),
        // The sender got the receiver's FIN (teardown), and the receiver the sender's. A
        // run ends when every finite application has finished, i.e. at decoding, so these
        // are false unless something else keeps the run going.
        ("fectcp_fin_received", Metric::Bool(false)),
        ("fectcp_fin_answered", Metric::Bool(false)),
        // K: source symbols of the file, over all blocks.
        ("fectcp_source_symbols", Metric::U64(0)),
        // Symbols the receiver needed: drawn by the model, or (verify) what the real
        // decoder took; null before decoding in verify mode.
        ("fectcp_symbols_needed", Metric::OptU64(None)),
        // Distinct symbols received in all, and when the file decoded.
        ("fectcp_symbols_received", Metric::U64(0)),
        ("fectcp_symbols_at_decode", Metric::OptU64(None)),
        // symbols_at_decode / K − 1.
        ("fectcp_overhead", Metric::OptF64(None)),
        // From the flow's start to decoding.
        ("fectcp_decoded_s", Metric::OptF64(None)),
        // Verify mode: the decoded file equals the file sent, byte for byte.
        ("fectcp_verified", Metric::OptBool(None)),
    ];
}
