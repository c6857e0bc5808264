//! BBRv3's congestion signals (draft-ietf-ccwg-bbr-06 §5.5.10): the losses an ACK
//! marked, noted for the round; IsInflightTooHigh at BBR.LossThresh; the per-round
//! delivery signals (bw_latest, inflight_latest) the short-term bounds fall to.

use super::Bbr3;
use crate::tcp::rate_sample::RateSample;
use crate::tcp::state::SenderState;
use crate::time::SimTime;

impl Bbr3 {
    /// §5.5.10.2 NoteLoss: the first loss of a round starts a loss round.
    pub(super) fn note_loss(&mut self, st: &SenderState) {
        if !self.is_loss_in_round {
            self.loss_round_delivered = self.delivered;
            self.save_cwnd(st);
        }
        self.is_loss_in_round = true;
    }

    /// §5.5.10.2 IsInflightTooHigh: more than LossThresh of the flight at the sampled
    /// segment's send was lost since; without SACK, any loss.
    pub(super) fn is_inflight_too_high(&self, rs: &RateSample) -> bool {
        rs.lost as f64 > rs.tx_in_flight as f64 * self.cfg.loss_thresh || (rs.lost > 0 && !self.sack)
    }

    /// §5.5.10.2 HandleLostPacket, once per ACK that marked losses: the loss counts in
    /// the round; a probe that lost too much sets inflight_longterm.
    pub(super) fn handle_lost(&mut self, st: &SenderState, now: SimTime, rs: &RateSample) {
        self.note_loss(st);
        self.loss_events_in_round = self.loss_events_in_round.saturating_add(1);
        if self.is_bw_probe_sample && self.is_inflight_too_high(rs) {
            self.handle_inflight_too_high(st, now, rs);
        }
    }

    /// §5.5.10.3 UpdateLatestDeliverySignals.
    pub(super) fn update_latest_delivery_signals(&mut self, rs: &RateSample) {
        self.loss_round_start = false;
        self.bw_latest = self.bw_latest.max(rs.delivery_rate);
        self.inflight_latest = self.inflight_latest.max(rs.delivered);
        if rs.delivered > 0 && rs.prior_delivered >= self.loss_round_delivered {
            self.loss_round_delivered = self.delivered;
            self.loss_round_start = true;
        }
    }

    /// §5.5.10.3 AdvanceLatestDeliverySignals.
    pub(super) fn advance_latest_delivery_signals(&mut self, rs: &RateSample) {
        if self.loss_round_start {
            self.bw_latest = rs.delivery_rate;
            self.inflight_latest = rs.delivered;
            self.loss_events_in_round = 0;
        }
    }

    /// §5.5.10.3 UpdateCongestionSignals.
    pub(super) fn update_congestion_signals(&mut self, st: &SenderState, rs: &RateSample) {
        self.update_max_bw(rs);
        if !self.loss_round_start {
            return;
        }
        self.adapt_lower_bounds_from_congestion(st);
        self.is_loss_in_round = false;
    }
}
