//! The `LossInference` seam (docs/architecture.md#loss-inference): what a TCP receiver
//! infers about the losses behind the ACKs it sends and notes on them. Built-ins: none,
//! and Syndrome (Chen et al. 2002), which reads a base station's packet counter stamped
//! on data segments and sets ELN on the duplicate ACKs of losses it attributes to the
//! wireless hop. (EWLN's echo of a corrupted segment's number is the other receiver-side
//! note the design names; it is not here yet.)

pub mod syndrome;
#[cfg(test)]
mod syndrome_tests;

pub use syndrome::{Syndrome, SyndromeRole};

use crate::metrics::{Columns, Metric, Metrics};
use crate::packet::{Flags, TcpData};

/// The receiver's loss inference (a closed enum, no `dyn`). Syndrome's state is boxed,
/// once when the receiver is built: inline, its 144 B were 40 % of every plain TCP
/// receiver (issue 28; `layout_tests.rs`).
#[derive(Debug, Default)]
pub enum LossInference {
    /// Plain TCP: ACKs carry no loss note.
    #[default]
    None,
    Syndrome(Box<Syndrome>),
}

impl LossInference {
    /// Syndrome receivers' columns (Chen et al. 2002), which every flow's row has: data
    /// segments that carried a base-station counter (0 = the flow met no Syndrome base
    /// station and ran as plain TCP), credits given, and ACKs sent with ELN. Zero for
    /// other flows.
    pub const COLUMNS: &'static Columns = &[
        ("syndrome_stamped_packets", Metric::U64(0)),
        ("syndrome_credits", Metric::U64(0)),
        ("syndrome_eln_acks", Metric::U64(0)),
    ];

    /// The inference a flow's TCP options ask for; `mss` maps bytes to packets.
    pub fn for_role(role: Option<SyndromeRole>, mss: u32, dupack_threshold: u32) -> Self {
        match role {
            None => LossInference::None,
            Some(r) => LossInference::Syndrome(Box::new(Syndrome::new(r, mss, dupack_threshold))),
        }
    }

    /// A data segment arrived (before the receiver's own bookkeeping of it).
    #[inline]
    pub fn on_data(&mut self, d: &TcpData) {
        if let LossInference::Syndrome(s) = self {
            s.on_data(d);
        }
    }

    /// The receiver sends an ACK of `ack`; the inference may set a flag on it.
    #[inline]
    pub fn note_ack(&mut self, ack: u64, flags: &mut Flags) {
        if let LossInference::Syndrome(s) = self {
            s.note_ack(ack, flags);
        }
    }

    /// Its counters in the flow's row (the defaults when there is no inference).
    pub fn report(&self, out: &mut Metrics) {
        if let LossInference::Syndrome(s) = self {
            out.set("syndrome_stamped_packets", s.stamped);
            out.set("syndrome_credits", s.credits_given);
            out.set("syndrome_eln_acks", s.eln_acks);
        }
    }

    /// A line for the run's notes when Syndrome was asked for but had nothing to read:
    /// data arrived and none carried a counter. That is a legitimate experiment (a
    /// Syndrome host behind a plain base station), so it is said, not refused.
    pub fn note(&self) -> Option<String> {
        match self {
            LossInference::Syndrome(s) if s.stamped == 0 && s.got_data() => Some(format!(
                "tcp.syndrome is \"{}\" but its data carried no Syndrome counter (no Syndrome agent on its path stamped it); it ran as plain TCP",
                s.role.name()
            )),
            _ => None,
        }
    }
}
