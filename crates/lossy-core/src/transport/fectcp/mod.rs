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

use crate::metrics::{Columns, Metric};

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
