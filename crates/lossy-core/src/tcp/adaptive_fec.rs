//! Adaptive FEC at the TCP sender (Miyoshi §4, Fig. 6): the sender learns of wireless
//! losses from ELN-marked ACKs, measures the packet error rate over each window of N
//! packets, and asks the wireless link for the code its controller picks, in band, in
//! every data segment's header (`link/adaptive_fec.rs` reads it).
//!
//! Our reading of "p_err measured at packet level from ELN": p_err is the link's frame
//! loss rate, counted from what the link delivered and lost as the sender learns it.
//! Each segment the cumulative ACK passes is one frame delivered; each loss ELN reports
//! is one frame lost, counted when it is reported (not when its segment is finally
//! acknowledged): a new ACK number carrying ELN is one loss (its duplicates repeat it),
//! and an ACK's `link_losses` adds the link's losses Snoop+ELN repaired locally (one per
//! local retransmission; Snoop hides their duplicates, `agents/snoop.rs`). So a window
//! of N outcomes completes even where the current code delivers almost nothing (no FEC
//! at BER 3·10⁻³ delivers 3.5 % of its 140-byte frames), where counting acknowledged
//! segments alone never completed one.

use crate::fec_control::{FecControlConfig, FecController};

#[derive(Clone, Debug)]
pub struct ElnFecControl {
    ctl: FecController,
    mss: u64,
    /// The last ACK number that carried ELN: its duplicates report the same loss.
    last_eln_ack: Option<u64>,
    /// Acknowledged bytes short of a whole segment.
    carry: u64,
    /// The first byte sent after the last change of code: outcomes below it are the
    /// previous code's.
    fresh_from: u64,
}

impl ElnFecControl {
    pub fn new(cfg: &FecControlConfig, mss: u64) -> Self {
        ElnFecControl { ctl: FecController::new(cfg), mss, last_eln_ack: None, carry: 0, fresh_from: 0 }
    }

    /// The code to ask for, 0 the weakest.
    pub fn code(&self) -> usize {
        self.ctl.level()
    }

    /// Times the sender changed its request.
    pub fn changes(&self) -> u64 {
        self.ctl.changes()
    }

    /// An ACK numbered `ack`, with or without ELN, reporting `link_losses` losses of the
    /// link's (Snoop+ELN's local repairs), that acknowledged `acked` new bytes; `snd_max`
    /// is one past the highest byte sent so far.
    pub fn count_outcomes(&mut self, ack: u64, eln: bool, link_losses: u16, acked: u64, snd_max: u64) {
        let from = ack.saturating_sub(acked);
        let mut lost = link_losses as u64;
        if eln && self.last_eln_ack != Some(ack) {
            // A count on the ACK says how many; a bare ELN mark is one loss.
            lost = lost.max(1);
        }
        if eln {
            self.last_eln_ack = Some(ack);
        }
        // The outcomes of segments sent before the last change of code are the old
        // code's (up to a window of them are in flight when it changes): not counted.
        if from < self.fresh_from {
            lost = 0;
        }
        let changes = self.ctl.changes();
        for _ in 0..lost {
            self.ctl.record(true);
            if self.ctl.changes() != changes {
                self.fresh_from = snd_max;
                self.carry = 0;
                return;
            }
        }
        self.carry += ack.saturating_sub(from.max(self.fresh_from));
        self.count_deliveries(changes, snd_max);
    }

    /// The retransmission timer expired with [snd_una, snd_max) outstanding: nothing the
    /// sender sent came back for a whole timeout, and with ELN it takes every loss for a
    /// transmission error (Miyoshi §4: "perform no congestion control"). If the segment
    /// at `snd_una` went out under the current code, the current window ends with every
    /// outcome it still lacks lost. Where the current code delivers nothing (no FEC at
    /// BER 10⁻²: (1 − 10⁻²)^1120 ≈ 10⁻⁵ of the frames) no ACK returns, and this is all the
    /// sender learns.
    pub fn on_timeout(&mut self, snd_una: u64, snd_max: u64) {
        if snd_una < self.fresh_from {
            return; // the old code's segment
        }
        let changes = self.ctl.changes();
        self.ctl.fail_window();
        if self.ctl.changes() != changes {
            self.fresh_from = snd_max;
            self.carry = 0;
        }
    }

    fn count_deliveries(&mut self, changes: u64, snd_max: u64) {
        while self.carry >= self.mss {
            self.carry -= self.mss;
            self.ctl.record(false);
            if self.ctl.changes() != changes {
                self.fresh_from = snd_max;
                self.carry = 0;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fec_control::StepDown;

    fn cfg() -> FecControlConfig {
        FecControlConfig { window: 10, up: vec![0.15], down: vec![0.05], step_down: StepDown::Window }
    }

    #[test]
    fn each_eln_ack_number_is_one_loss_and_segments_count_when_acknowledged() {
        let mut c = ElnFecControl::new(&cfg(), 100);
        // Segment 0 lost on the wireless hop: three ELN duplicates of ACK 0 (one loss),
        // then its repair and 4 more segments (5 delivered).
        for _ in 0..3 {
            c.count_outcomes(0, true, 0, 0, 1000);
        }
        c.count_outcomes(500, false, 0, 500, 1000);
        // Segment 5 lost; Snoop+ELN reports it on the ACK that passes it, with 4 more.
        c.count_outcomes(1000, true, 1, 500, 2000);
        assert_eq!(c.code(), 1, "2 of 10 is above 0.15");
        // Segments 10 to 19 were sent with the old code: their outcomes do not count.
        for k in 0..10 {
            c.count_outcomes(1100 + 100 * k, false, 0, 100, 3000);
        }
        assert_eq!(c.changes(), 1);
        for k in 0..10 {
            c.count_outcomes(2100 + 100 * k, false, 0, 100, 4000);
        }
        assert_eq!((c.code(), c.changes()), (0, 2), "a clean window of the new code steps back");
    }

    #[test]
    fn a_timeout_under_the_current_code_ends_the_window_as_lost() {
        let mut c = ElnFecControl::new(&cfg(), 100);
        c.count_outcomes(300, false, 0, 300, 400);
        c.on_timeout(300, 400);
        assert_eq!((c.code(), c.changes()), (1, 1), "3 delivered, 7 lost");
        c.on_timeout(300, 400);
        assert_eq!(c.changes(), 1, "segment 3 went out under the old code");
    }

    #[test]
    fn the_links_losses_fill_the_window_where_almost_nothing_is_delivered() {
        // No FEC at BER 3e-3 delivers 3.5 % of 140-byte frames: Snoop+ELN repairs a
        // segment after 9 local retransmissions and reports them on the ACK that passes
        // it. Counting acknowledged segments alone, 10 such segments made one window.
        let mut c = ElnFecControl::new(&cfg(), 100);
        c.count_outcomes(100, true, 9, 100, 200);
        assert_eq!((c.code(), c.changes()), (1, 1), "9 lost and 1 delivered of 10 steps up at once");
    }
}
