//! ECN in TCP (RFC 3168 §6.1): the sender's ECT/CWR marking and its once-per-window
//! answer to ECE, and the receiver's echo of CE. Off unless `tcp.ecn` is set.

use super::state::SenderState;
use crate::metrics::{Columns, Metric, Metrics};
use crate::packet::Flags;

/// The sender's side (RFC 3168 §6.1.2).
#[derive(Clone, Debug, Default)]
pub struct EcnSender {
    enabled: bool,
    /// HighData at the last window reduction of any cause. An ECE is answered only on an
    /// ACK beyond it, i.e. once per window (ns-2 `TcpAgent::ecn`: `seqno > recover_`).
    hold: u64,
    /// Set CWR on the next new data segment (§6.1.2).
    cwr_pending: bool,
}

impl EcnSender {
    pub fn new(enabled: bool) -> Self {
        EcnSender { enabled, ..Default::default() }
    }

    /// Whether an ACK of `ack` with `ece` calls for a reduction: not in fast recovery
    /// and not again within the window of the last reduction (§6.1.2).
    pub fn should_reduce(&self, st: &SenderState, ack: u64, ece: bool) -> bool {
        self.enabled && ece && !st.in_recovery && ack > self.hold
    }

    /// The window was just reduced for an ECE (by the congestion control, as for a loss).
    pub fn on_ece_reduction(&mut self, st: &mut SenderState) {
        st.counters.ecn_reductions += 1;
        self.on_reduction(st);
    }

    /// §6.1.2: after a reduction "for any reason" (ECE, fast retransmit, timeout) the
    /// first new data segment carries CWR, and ECE waits for the next window.
    pub fn on_reduction(&mut self, st: &SenderState) {
        if self.enabled {
            self.hold = st.snd_max;
            self.cwr_pending = true;
        }
    }

    /// ECT(0) and a pending CWR, on new data only: retransmissions are Not-ECT (§6.1.5)
    /// and pure ACKs are never sent by the sender (§6.1.4).
    pub fn mark(&mut self, flags: &mut Flags, new_data: bool) {
        if self.enabled && new_data {
            flags.set(Flags::ECT);
            if std::mem::take(&mut self.cwr_pending) {
                flags.set(Flags::CWR);
            }
        }
    }
}

/// The receiver's side (RFC 3168 §6.1.3).
#[derive(Clone, Debug, Default)]
pub struct EcnReceiver {
    enabled: bool,
    /// Set ECE on every ACK until a CWR segment arrives.
    echo: bool,
    pub ce_received: u64,
    pub ece_sent: u64,
}

impl EcnReceiver {
    /// Its columns, which every flow's row has (RFC 3168 §6.1.3): CE-marked data
    /// segments the receiver got, and ACKs it sent with ECE.
    pub const COLUMNS: &'static Columns = &[("ce_received", Metric::U64(0)), ("ece_sent", Metric::U64(0))];

    pub fn report(&self, out: &mut Metrics) {
        out.set("ce_received", self.ce_received);
        out.set("ece_sent", self.ece_sent);
    }

    pub fn new(enabled: bool) -> Self {
        EcnReceiver { enabled, ..Default::default() }
    }

    /// A data segment with `flags` arrived; true if it must be ACKed at once (a CE
    /// segment: the echo is not held back by a delayed ACK).
    pub fn on_data(&mut self, flags: Flags) -> bool {
        if !self.enabled {
            return false;
        }
        // §6.1.3: CWR stops the echo; a CE on the same segment starts it again.
        if flags.has(Flags::CWR) {
            self.echo = false;
        }
        if flags.has(Flags::CE) {
            self.echo = true;
            self.ce_received += 1;
            return true;
        }
        false
    }

    /// Sets ECE on an outgoing ACK while echoing.
    pub fn mark_ack(&mut self, flags: &mut Flags) {
        if self.echo {
            flags.set(Flags::ECE);
            self.ece_sent += 1;
        }
    }
}

#[cfg(test)]
#[path = "ecn_tests.rs"]
mod tests;
