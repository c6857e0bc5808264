//! The TCP sender: what it holds and how it answers an ACK and a timeout. Each concern
//! is in its own file: window growth in `cc`, loss recovery in `recovery`, the RTO in
//! `rtt` and `rto_timer`, what an ACK signals in `notices` (with `ecn`, `ewln`,
//! `adaptive_fec`), segment transmission in `transmit`, delivery-rate samples in
//! `delivery_rate` and pacing in `pacing`, and what the world sees of it (including its
//! flow summary, `report`) in `endpoint`.

use super::cc::{AnyCongestionControl, CcContext, CcSpec, CongestionControl};
use super::config::TcpConfig;
use super::delivery_rate::DeliveryRate;
use super::metrics::SenderMetrics;
use super::notices::{AckSignals, Notices};
use super::pacing::Pacer;
use super::pacing_choice::PacingChoice;
use super::rate_sample::RateSample;
use super::recovery::{Ack, AckOutcome, AnyLossRecovery, LossRecovery, LossRecoverySpec, RecoveryContext};
use super::rto_timer::RetransmitTimer;
use super::rtt::{RtoConfig, RttEstimator};
use super::state::{RetxCause, SenderState, Signal};
use super::transmit::{Limits, Wire};
use crate::packet::{FlowId, NodeId, Packet, TcpAck, SACK_BLOCKS};
use crate::time::{SimDuration, SimTime};
use crate::endpoint::EventLog;

/// The application's data: how much and from when.
#[derive(Clone, Debug)]
pub(super) struct AppData {
    /// Total bytes the application will write; `None` = unlimited (bulk).
    pub limit: Option<u64>,
    /// When the application starts writing.
    pub start_at: SimTime,
    pub started: bool,
}

/// What the model-based congestion controls read of the sender and ask of it: the
/// delivery-rate stamps and the pacer. Boxed: one pointer in the endpoint slot, the ring
/// of stamps on the heap either way.
#[derive(Default)]
pub(super) struct RateControl {
    pub rate: DeliveryRate,
    pub pacer: Pacer,
    /// `tcp.pacing`: the rate for a congestion control that asks for none.
    pub fallback: PacingChoice,
    /// Tests only: a congestion control outside the closed list (which has no test-only
    /// member) that answers `pacing_rate` and `on_rate_sample` in the listed one's place.
    #[cfg(test)]
    pub test_cc: Option<Box<dyn CongestionControl>>,
}

pub struct TcpSender {
    pub st: SenderState,
    pub(super) cc: AnyCongestionControl,
    pub(super) recovery: AnyLossRecovery,
    pub(super) rtt: RttEstimator,
    pub(super) timer: RetransmitTimer,
    pub(super) notices: Notices,
    pub(super) wire: Wire,
    pub(super) limits: Limits,
    pub(super) app: AppData,
    pub(super) model: Box<RateControl>,
    pub metrics: SenderMetrics,
    /// Trace events for `Endpoint::poll_event`.
    pub(crate) events: EventLog,
}

impl TcpSender {
    pub fn new(cfg: &TcpConfig, flow: FlowId, src: NodeId, dst: NodeId, start_at: SimTime, app_limit: Option<u64>) -> Self {
        let mss = cfg.mss.0;
        let iw = cfg.initial_window_segments() as u64 * mss;
        let mut st = SenderState::new(mss, iw, cfg.max_window.0, cfg.dupack_threshold);
        st.eln_threshold = cfg.eln_dupack_threshold;
        TcpSender {
            st,
            cc: cfg.cc.0.build(&CcContext { mss, initial_window: iw, abc: cfg.abc, seed: 0, selective_acks: cfg.sack_on(), paced: !cfg.pacing.is_none() }),
            recovery: cfg.variant.build(&RecoveryContext { mss, dupack_threshold: cfg.dupack_threshold, sack_after_timeout: cfg.sack_after_timeout }),
            rtt: RttEstimator::new(RtoConfig {
                initial: cfg.initial_rto.0,
                min: cfg.min_rto.0,
                max: cfg.max_rto.0,
                granularity: cfg.timer_granularity.0,
            }),
            timer: RetransmitTimer::default(),
            notices: Notices::new(cfg, mss),
            wire: Wire { flow, src, dst, header: cfg.header.0 as u32 },
            limits: Limits::new(cfg),
            app: AppData { limit: app_limit, start_at, started: false },
            model: Box::new(RateControl { rate: DeliveryRate::new(cfg.sack_on()), fallback: cfg.pacing, ..RateControl::default() }),
            metrics: SenderMetrics::new(),
            events: EventLog::default(),
        }
    }

    /// The congestion control again, drawing from the flow's own stream `seed` (BBR's
    /// gain-cycle phase); the rules that draw nothing are unchanged by it.
    pub fn with_cc_seed(mut self, cfg: &TcpConfig, seed: u64) -> Self {
        let ctx = CcContext { mss: self.st.mss, initial_window: self.st.cwnd, abc: cfg.abc, seed, selective_acks: cfg.sack_on(), paced: !cfg.pacing.is_none() };
        self.cc = cfg.cc.0.build(&ctx);
        self
    }

    pub fn start(&mut self, now: SimTime) {
        self.app.started = true;
        self.metrics.start(now, &self.st);
    }

    /// All application data has been acknowledged.
    pub fn finished(&self) -> bool {
        self.app.limit.is_some_and(|n| self.st.snd_una >= n)
    }

    /// The application's start until it has started, then the retransmission timer or
    /// a paced segment's departure, whichever is first.
    pub fn timer(&self) -> Option<SimTime> {
        if !self.app.started {
            return Some(self.app.start_at);
        }
        match (self.timer.deadline, self.model.pacer.wake_at()) {
            (Some(rto), Some(pace)) => Some(rto.min(pace)),
            (rto, pace) => rto.or(pace),
        }
    }

    /// The rate to pace at, bytes/s (`None`: unpaced): the congestion control's own, or
    /// if it asks for none, `tcp.pacing`'s (`pacing_choice`).
    pub(super) fn pacing_rate(&self) -> Option<f64> {
        let srtt = self.rtt.srtt();
        #[cfg(test)]
        if let Some(cc) = &self.model.test_cc {
            return cc.pacing_rate(&self.st, srtt).or_else(|| self.model.fallback.rate(&self.st, srtt));
        }
        self.cc.pacing_rate(&self.st, srtt).or_else(|| self.model.fallback.rate(&self.st, srtt))
    }

    /// Whether the congestion control reads delivery-rate samples: only then does the
    /// sender stamp each segment and sample each ACK (`delivery_rate`).
    #[inline]
    pub(super) fn reads_rate_samples(&self) -> bool {
        #[cfg(test)]
        if let Some(cc) = &self.model.test_cc {
            return cc.reads_rate_samples();
        }
        self.cc.reads_rate_samples()
    }

    pub fn rto(&self) -> SimDuration {
        self.rtt.rto()
    }

    pub fn srtt(&self) -> Option<SimDuration> {
        self.rtt.srtt()
    }

    /// Whole-run invariant of the loss recovery's state (SACK's scoreboard).
    pub(crate) fn check_recovery(&self) -> Result<(), String> {
        self.recovery.check(&self.st)
    }

    /// The loss recovery's count of bytes in the network (SACK's pipe); `None` where it
    /// keeps none.
    pub fn pipe(&self) -> Option<u64> {
        self.recovery.pipe()
    }

    /// Accumulates the time-weighted window up to `now`; call before cwnd changes.
    fn account_cwnd(&mut self, now: SimTime) {
        self.metrics.account(now, &self.st);
    }

    fn note_cwnd(&mut self) {
        self.metrics.note(&self.st);
    }

    /// Closes the window integral at the end of the run.
    pub fn finish_metrics(&mut self, now: SimTime) {
        self.metrics.finish(now, &self.st);
    }

    /// An ACK arrived: its signals are read once (`notices`), then each gets its answer.
    pub fn handle_ack(&mut self, now: SimTime, pkt: &Packet) {
        let Some(ack) = pkt.tcp_ack_header() else { return };
        if !self.app.started || ack.ack > self.st.snd_max {
            return; // acknowledges nothing we sent
        }
        self.account_cwnd(now);
        let signals = self.notices.read(&self.st, pkt, &ack);
        self.limits.peer_wnd = ack.wnd as u64;
        let reductions = self.st.counters.window_reductions;
        // Linux tcp_ack's prior_in_flight, before this ACK moves anything; only a control
        // that reads rate samples gets it.
        let prior_in_flight = self.reads_rate_samples().then(|| self.model.rate.packets_in_flight(self.st.flight_size()));
        if let Some(seq) = signals.ewln_resend {
            self.on_ewln_notice(seq);
        }
        // Older than snd_una: reordered, stale.
        let current = ack.ack >= self.st.snd_una;
        let mut blocks = [(0, 0); SACK_BLOCKS];
        let mut n = 0;
        let mut acked = 0;
        if current {
            n = ack.sack_ranges().zip(blocks.iter_mut()).map(|(r, slot)| *slot = r).count();
            acked = self.on_cumulative_ack(now, &ack, &blocks[..n], &signals);
        }
        // A loss reduction on this very ACK (it entered fast recovery) takes precedence:
        // one reduction per window (RFC 3168 §6.1.2).
        if self.st.counters.window_reductions > reductions {
            self.notices.ecn.on_reduction(&self.st);
        } else if signals.ecn {
            self.on_ece();
        }
        if let Some(prior_in_flight) = prior_in_flight.filter(|_| current) {
            self.sample_delivery(now, acked, &blocks[..n], prior_in_flight);
        }
        self.note_cwnd();
    }

    /// draft-cheng-iccrg-delivery-rate-estimation-02 §3.3: after the window rule and the
    /// recovery have had this ACK, the losses the recovery now deems are marked, the
    /// segments it delivered give the rate sample (with the bytes in the network before
    /// and after the ACK, `prior_in_flight` taken before it), and the congestion control
    /// gets it if the ACK acknowledged or SACKed anything new.
    fn sample_delivery(&mut self, now: SimTime, acked: u64, blocks: &[(u64, u64)], prior_in_flight: u64) {
        let rate = &mut self.model.rate;
        if acked == 0 && blocks.is_empty() && self.st.snd_una < self.st.snd_max {
            rate.on_dupack(now, self.st.mss, self.st.flight_size());
        }
        rate.mark_lost_below(self.recovery.lost_below(&self.st));
        if self.st.retransmit.is_some() {
            rate.mark_lost_at(self.st.snd_una);
        }
        let mut rs = rate.on_ack(now, self.st.snd_una, blocks);
        rs.prior_in_flight = prior_in_flight;
        rs.in_flight = rate.packets_in_flight(self.st.flight_size());
        if acked > 0 || rs.newly_acked > 0 {
            self.deliver_rate_sample(now, &rs);
        }
    }

    fn deliver_rate_sample(&mut self, now: SimTime, rs: &RateSample) {
        #[cfg(test)]
        if let Some(cc) = &mut self.model.test_cc {
            return cc.on_rate_sample(&mut self.st, now, rs);
        }
        self.cc.on_rate_sample(&mut self.st, now, rs);
    }

    /// `Signal::Ewln` (Shagdar Fig. 3): the named segment goes out at once, and the
    /// window is the congestion control's answer to a wireless loss (kept).
    fn on_ewln_notice(&mut self, seq: u64) {
        self.notices.ewln_resend = Some(seq);
        self.st.cwnd = self.cc.on_congestion(&mut self.st, Signal::Ewln);
    }

    /// `Signal::Ecn` (RFC 3168 §6.1.2): the window rule's answer to congestion (ssthresh
    /// by RFC 5681 eq. 4), cwnd = ssthresh, and no retransmission.
    fn on_ece(&mut self) {
        self.st.cwnd = self.cc.on_congestion(&mut self.st, Signal::Ecn);
        self.notices.ecn.on_ece_reduction(&mut self.st);
    }

    /// An ACK at or above snd_una: loss recovery reads it (a loss or an ELN it points
    /// to is its to answer), then the window grows and the timer restarts.
    /// Returns the bytes it newly acknowledged cumulatively.
    fn on_cumulative_ack(&mut self, now: SimTime, ack: &TcpAck, blocks: &[(u64, u64)], signals: &AckSignals) -> u64 {
        let (acked, rtt) = self.advance(now, ack.ack);
        let seen = Ack { acked, blocks, signal: signals.recovery_signal, ewln: signals.ewln };
        let outcome = self.recovery.on_ack(&mut self.st, &mut self.cc, &seen);
        if acked > 0 {
            // No growth on an ACK whose ECE reduces the window (RFC 3168 §6.1.2).
            self.after_new_ack(now, acked, rtt, outcome, !signals.ecn);
        }
        acked
    }

    /// snd_una moves to `ack` (which may equal it). Returns the bytes newly acknowledged
    /// and the RTT sample, if the timed segment is among them.
    fn advance(&mut self, now: SimTime, ack: u64) -> (u64, Option<SimDuration>) {
        let acked = ack - self.st.snd_una;
        if acked == 0 {
            return (0, None);
        }
        let rtt = self.timer.sample(now, ack);
        if let Some(r) = rtt {
            self.rtt.sample(r);
            self.metrics.rtt(r.as_secs_f64());
        }
        self.st.snd_una = ack;
        self.st.snd_nxt = self.st.snd_nxt.max(ack);
        self.st.dupacks = 0;
        self.st.limited_sent = 0;
        self.timer.last_expiry_una = None;
        (acked, rtt)
    }

    /// Window growth and the timer after an ACK of `acked` new bytes.
    fn after_new_ack(&mut self, now: SimTime, acked: u64, rtt: Option<SimDuration>, outcome: AckOutcome, grow: bool) {
        let restart = match outcome {
            AckOutcome::Normal => {
                if grow {
                    self.cc.on_ack(&mut self.st, now, acked, rtt);
                }
                true
            }
            AckOutcome::Exited => true,
            AckOutcome::Partial { restart_timer } => restart_timer,
        };
        // RFC 6298 §5.2-5.3: stop the timer when all is acked, else restart it.
        if self.st.snd_una >= self.st.snd_max {
            self.timer.deadline = None;
        } else if restart {
            self.timer.deadline = Some(now + self.rtt.rto());
        }
    }

    /// The timer expired: the application starts, a paced segment's time came (the
    /// transmit path releases it), or a retransmission timeout.
    pub fn on_timer(&mut self, now: SimTime) {
        if !self.app.started {
            self.start(now);
        } else if self.model.pacer.wake_at().is_some_and(|t| t <= now) {
            if self.timer.deadline.is_some_and(|d| d <= now) {
                self.on_rto(now);
            }
        } else {
            self.on_rto(now);
        }
    }

    /// The retransmission timer expired (RFC 6298 §5.4-5.6, RFC 5681 §3.1).
    pub fn on_rto(&mut self, now: SimTime) {
        if self.st.snd_una >= self.st.snd_max {
            self.timer.deadline = None;
            return;
        }
        self.account_cwnd(now);
        self.st.counters.timeouts += 1;
        if let Some(fec) = &mut self.notices.fec {
            fec.on_timeout(self.st.snd_una, self.st.snd_max);
        }
        let repeated = self.timer.expired(self.st.snd_una);
        self.cc.on_timeout(&mut self.st, repeated);
        self.notices.ecn.on_reduction(&self.st);
        self.recovery.on_timeout(&mut self.st);
        self.st.dupacks = 0;
        self.st.limited_sent = 0;
        self.st.retransmit = None;
        self.st.go_back_n(RetxCause::Timeout);
        if self.reads_rate_samples() {
            self.model.rate.on_timeout(self.st.snd_max);
        }
        self.rtt.backoff();
        self.timer.deadline = Some(now + self.rtt.rto());
        self.note_cwnd();
    }
}

#[cfg(test)]
#[path = "sender_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "sender_pacing_tests.rs"]
mod pacing_tests;
