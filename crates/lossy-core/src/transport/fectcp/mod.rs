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

use serde::Serialize;

/// A FECTCP flow's own summary fields (absent for other flows), flattened into the
/// flow's row as `fectcp_*`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FectcpReport {
    /// From the flow's start to the SYN-ACK (the handshake counts in the transfer time).
    #[serde(rename = "fectcp_handshake_s")]
    pub handshake_s: Option<f64>,
    #[serde(rename = "fectcp_syn_retries")]
    pub syn_retries: u64,
    /// Segments covered by a later segment's cumulative ACK without an ACK of their own
    /// (lost, or their ACK was): the single losses the control ignored.
    #[serde(rename = "fectcp_losses_ignored")]
    pub losses_ignored: u64,
    /// ACKs of segments whose timer had already expired: expiries that were the RTT's
    /// growth, not a loss (they still counted in `timeouts` and may have reduced cwnd).
    #[serde(rename = "fectcp_late_acks")]
    pub late_acks: u64,
    #[serde(rename = "fectcp_srtt_final_s")]
    pub srtt_final_s: Option<f64>,
    /// The sender got the receiver's FIN (teardown), and the receiver the sender's. A run
    /// ends when every finite application has finished, i.e. at decoding, so these are
    /// false unless something else keeps the run going.
    #[serde(rename = "fectcp_fin_received")]
    pub fin_received: bool,
    #[serde(rename = "fectcp_fin_answered")]
    pub fin_answered: bool,
    /// K: source symbols of the file, over all blocks.
    #[serde(rename = "fectcp_source_symbols")]
    pub source_symbols: u64,
    /// Symbols the receiver needed: drawn by the model, or (verify) what the real decoder
    /// took; `None` before decoding in verify mode.
    #[serde(rename = "fectcp_symbols_needed")]
    pub symbols_needed: Option<u64>,
    /// Distinct symbols received in all, and when the file decoded.
    #[serde(rename = "fectcp_symbols_received")]
    pub symbols_received: u64,
    #[serde(rename = "fectcp_symbols_at_decode")]
    pub symbols_at_decode: Option<u64>,
    /// symbols_at_decode / K − 1.
    #[serde(rename = "fectcp_overhead")]
    pub overhead: Option<f64>,
    /// From the flow's start to decoding.
    #[serde(rename = "fectcp_decoded_s")]
    pub decoded_s: Option<f64>,
    /// Verify mode: the decoded file equals the file sent, byte for byte.
    #[serde(rename = "fectcp_verified")]
    pub verified: Option<bool>,
}
