//! Adaptive FEC at the TCP sender (Miyoshi §4, Fig. 6): the sender learns of wireless
//! losses from ELN-marked ACKs, measures the packet error rate over each window of N
//! segments, and asks the wireless link for the code its controller picks, in band, in
//! every data segment's header (`link/adaptive.rs` reads it).
//!
//! Our reading of "p_err measured at packet level from ELN": a segment counts once when
//! the cumulative ACK passes it (so windows are of acknowledged segments), and as lost
//! when an ELN-marked ACK reported it first: each new ACK number carrying ELN is one
//! lost segment (its duplicates repeat the same number). With Snoop+ELN the duplicates
//! are suppressed at the base station, which reports each locally repaired loss on the
//! ACK that passes it instead (`agents/snoop.rs`).

use crate::link::fec_control::{FecControlConfig, FecController};

#[derive(Clone, Debug)]
pub struct ElnFecControl {
    ctl: FecController,
    mss: u64,
    /// The last ACK number that carried ELN: its duplicates report the same loss.
    last_eln_ack: Option<u64>,
    /// Losses reported, not yet matched to acknowledged segments.
    reported: u64,
    /// Acknowledged bytes short of a whole segment.
    carry: u64,
}

impl ElnFecControl {
    pub fn new(cfg: &FecControlConfig, mss: u64) -> Self {
        ElnFecControl { ctl: FecController::new(cfg), mss, last_eln_ack: None, reported: 0, carry: 0 }
    }

    /// The code to ask for, 0 the weakest.
    pub fn code(&self) -> usize {
        self.ctl.level()
    }

    /// Times the sender changed its request.
    pub fn changes(&self) -> u64 {
        self.ctl.changes()
    }

    /// An ACK numbered `ack`, with or without ELN, that acknowledged `acked` new bytes.
    pub fn on_ack(&mut self, ack: u64, eln: bool, acked: u64) {
        if eln && self.last_eln_ack != Some(ack) {
            self.last_eln_ack = Some(ack);
            self.reported += 1;
        }
        self.carry += acked;
        while self.carry >= self.mss {
            self.carry -= self.mss;
            let lost = self.reported > 0;
            self.reported -= lost as u64;
            self.ctl.record(lost);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_eln_ack_number_is_one_loss_and_segments_count_when_acknowledged() {
        let cfg = FecControlConfig { window: 10, up: vec![0.15], down: vec![0.05] };
        let mut c = ElnFecControl::new(&cfg, 100);
        // Segment 0 lost on the wireless hop: three ELN duplicates of ACK 0, then its repair.
        for _ in 0..3 {
            c.on_ack(0, true, 0);
        }
        c.on_ack(500, false, 500);
        // Segment 5 lost; Snoop+ELN reports it on the ACK that passes it.
        c.on_ack(1000, true, 500);
        assert_eq!(c.code(), 1, "2 of 10 is above 0.15");
        for k in 0..10 {
            c.on_ack(1100 + 100 * k, false, 100);
        }
        assert_eq!((c.code(), c.changes()), (0, 2), "a clean window steps back");
        // Half segments carry over.
        c.on_ack(3050, true, 50);
        c.on_ack(3100, false, 50);
        assert_eq!(c.reported, 0);
    }
}
