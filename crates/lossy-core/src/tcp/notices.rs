//! What an ACK tells the sender besides its cumulative number, read once per ACK: which
//! of the four signals (`state::Signal`) it carries, and the link outcomes adaptive FEC
//! counts. Each notification's own rules are in its file (`ecn.rs`, `ewln.rs`,
//! `adaptive_fec.rs`); the sender reacts to what this returns (`sender.rs`).

use super::adaptive_fec::ElnFecControl;
use super::config::TcpConfig;
use super::ecn::EcnSender;
use super::ewln::EwlnResponse;
use super::state::{SenderState, Signal};
use crate::packet::{Flags, Packet, TcpAck};

/// The notifications a sender answers, as its config switches them on.
#[derive(Clone, Debug)]
pub(super) struct Notices {
    /// Whether duplicate ACKs carrying ELN start an ELN recovery (`tcp.eln`).
    eln: bool,
    /// EWLN (Shagdar Fig. 3): the corrupted segment last resent.
    ewln: EwlnResponse,
    /// The segment an EWLN notice named, to resend at the next transmit opportunity.
    pub ewln_resend: Option<u64>,
    /// ECN (RFC 3168 §6.1.2): once per window, CWR on the next new data.
    pub ecn: EcnSender,
    /// Adaptive FEC's controller: the code every data segment asks for (Miyoshi §4).
    /// Boxed, once when built: inline, its 136 B sat in every sender, nearly all without
    /// it (issue 28; `layout_tests.rs`).
    pub fec: Option<Box<ElnFecControl>>,
}

/// One ACK's signals, classified.
#[derive(Clone, Copy, Debug)]
pub(super) struct AckSignals {
    /// What a loss the ACK points to is, for loss recovery: `Eln` when it carries an ELN
    /// the sender answers, else `Loss`.
    pub recovery_signal: Signal,
    /// It is marked EWLN (so it is no duplicate, §III C).
    pub ewln: bool,
    /// The segment an EWLN notice names, to resend now (its first ACK only).
    pub ewln_resend: Option<u64>,
    /// Its ECE calls for a window reduction (RFC 3168 §6.1.2).
    pub ecn: bool,
}

impl Notices {
    pub fn new(cfg: &TcpConfig, mss: u64) -> Self {
        Notices {
            eln: cfg.eln,
            ewln: EwlnResponse::new(cfg.ewln),
            ewln_resend: None,
            ecn: EcnSender::new(cfg.ecn),
            fec: cfg.adaptive_fec.as_ref().map(|f| Box::new(ElnFecControl::new(f, mss))),
        }
    }

    /// Reads an ACK (`pkt`, its header `ack`) against the state before it: adaptive FEC
    /// counts the outcomes it reports, and its signals are classified.
    pub fn read(&mut self, st: &SenderState, pkt: &Packet, ack: &TcpAck) -> AckSignals {
        if let Some(fec) = &mut self.fec {
            let acked = ack.ack.saturating_sub(st.snd_una);
            fec.count_outcomes(ack.ack, pkt.flags.has(Flags::ELN), pkt.link_losses(), acked, st.snd_max);
        }
        let ecn = self.ecn.should_reduce(st, ack.ack, pkt.flags.has(Flags::ECE));
        // ELN names the segment at snd_una on a duplicate; on an ACK that advances
        // (Snoop+ELN reporting a repaired loss to adaptive FEC) it is no recovery signal.
        let eln = self.eln && pkt.flags.has(Flags::ELN) && ack.ack == st.snd_una;
        // EWLN (Shagdar Fig. 3): resend the named segment on the first ACK of each notice;
        // the notice's duplicates are no congestion signal.
        let ewln = self.ewln.enabled() && pkt.flags.has(Flags::EWLN);
        let ewln_resend = ewln.then(|| {
            let named = ack.ack + ack.ewln_offset as u64;
            let first = pkt.flags.has(Flags::EWLN_FIRST);
            self.ewln.on_ewln_ack(named, first, st.snd_una.max(ack.ack), st.snd_max)
        });
        AckSignals {
            recovery_signal: if eln { Signal::Eln } else { Signal::Loss },
            ewln,
            ewln_resend: ewln_resend.flatten(),
            ecn,
        }
    }
}
