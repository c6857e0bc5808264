//! The TCP sender: ACK processing, the retransmission timer and segment transmission.
//! Window growth lives in `congestion`, loss recovery in `recovery`, RTO in `rtt`.

use super::adaptive_fec::ElnFecControl;
use super::config::TcpConfig;
use super::ewln::EwlnResponse;
use super::congestion::{Aimd, ByteCounting, Congestion, CongestionControl};
use super::recovery::{AckOutcome, LossRecovery, Recovery};
use super::sack::{Reading, SackRecovery};
use super::ecn::EcnSender;
use super::rtt::{RtoConfig, RttEstimator};
use super::metrics::SenderMetrics;
use super::state::{RetxCause, SenderState, Signal};
use crate::packet::{Flags, FlowId, NodeId, Packet, TcpAck, SACK_BLOCKS};
use crate::transport::EventLog;
use crate::time::{SimDuration, SimTime};

/// How losses are found and repaired: from duplicate ACKs alone, or from SACK blocks
/// (each variant's is `Variant::repair`).
#[derive(Clone, Debug)]
pub(crate) enum Repair {
    Dupacks(Recovery),
    Sack(SackRecovery),
}

pub struct TcpSender {
    pub st: SenderState,
    cc: Congestion,
    repair: Repair,
    rtt: RttEstimator,
    flow: FlowId,
    src: NodeId,
    dst: NodeId,
    header: u32,
    max_window: u64,
    limited_transmit: bool,
    respond_to_eln: bool,
    /// Adaptive FEC's controller: the code every data segment asks for (Miyoshi §4).
    fec: Option<ElnFecControl>,
    /// EWLN (Shagdar Fig. 3): the corrupted segment last resent, and one to resend now.
    ewln: EwlnResponse,
    ewln_resend: Option<u64>,
    ecn: EcnSender,
    /// Total bytes the application will write; `None` = unlimited (bulk).
    app_limit: Option<u64>,
    /// When the application starts writing.
    start_at: SimTime,
    started: bool,
    /// The one segment being timed: (its end sequence, when it was sent). Karn: cleared
    /// by any retransmission so a sample never comes from a resent segment.
    timing: Option<(u64, SimTime)>,
    peer_wnd: u64,
    rto_deadline: Option<SimTime>,
    /// snd_una when the timer last expired, to spot repeated expiry (RFC 5681 §3.1).
    last_timeout_una: Option<u64>,
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
            cc: match cfg.abc.limit_segments() {
                None => Congestion::Aimd(Aimd),
                Some(l) => Congestion::ByteCounting(ByteCounting::new(l)),
            },
            repair: cfg.variant.repair(mss, cfg.dupack_threshold),
            rtt: RttEstimator::new(RtoConfig {
                initial: cfg.initial_rto.0,
                min: cfg.min_rto.0,
                max: cfg.max_rto.0,
                granularity: cfg.timer_granularity.0,
            }),
            flow,
            src,
            dst,
            header: cfg.header.0 as u32,
            max_window: cfg.max_window.0,
            limited_transmit: cfg.limited_transmit,
            respond_to_eln: cfg.eln,
            fec: cfg.adaptive_fec.as_ref().map(|f| ElnFecControl::new(f, mss)),
            ewln: EwlnResponse::new(cfg.ewln),
            ewln_resend: None,
            ecn: EcnSender::new(cfg.ecn),
            app_limit,
            start_at,
            started: false,
            timing: None,
            peer_wnd: cfg.max_window.0,
            rto_deadline: None,
            last_timeout_una: None,
            metrics: SenderMetrics::new(),
            events: EventLog::default(),
        }
    }

    pub fn start(&mut self, now: SimTime) {
        self.started = true;
        self.metrics.start(now, &self.st);
    }

    /// All application data has been acknowledged.
    pub fn finished(&self) -> bool {
        self.app_limit.is_some_and(|n| self.st.snd_una >= n)
    }

    /// The application's start until it has started, then the retransmission timer.
    pub fn timer(&self) -> Option<SimTime> {
        if self.started {
            self.rto_deadline
        } else {
            Some(self.start_at)
        }
    }

    pub fn rto(&self) -> SimDuration {
        self.rtt.rto()
    }

    pub fn srtt(&self) -> Option<SimDuration> {
        self.rtt.srtt()
    }

    /// Whole-run invariant of the SACK state (none without SACK).
    pub(crate) fn check_sack(&self) -> Result<(), String> {
        match &self.repair {
            Repair::Sack(sack) => sack.sb.check(self.st.snd_una, self.st.snd_max),
            Repair::Dupacks(_) => Ok(()),
        }
    }

    /// The SACK recovery's pipe (bytes it counts in the network); `None` without SACK.
    pub fn sack_pipe(&self) -> Option<u64> {
        match &self.repair {
            Repair::Sack(sack) => Some(sack.pipe()),
            Repair::Dupacks(_) => None,
        }
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

    pub fn handle_ack(&mut self, now: SimTime, pkt: &Packet) {
        let Some(ack) = pkt.tcp_ack_header() else { return };
        if !self.started || ack.ack > self.st.snd_max {
            return; // acknowledges nothing we sent
        }
        self.account_cwnd(now);
        if let Some(fec) = &mut self.fec {
            let acked = ack.ack.saturating_sub(self.st.snd_una);
            fec.on_ack(ack.ack, pkt.flags.has(Flags::ELN), pkt.link_losses(), acked, self.st.snd_max);
        }
        self.peer_wnd = ack.wnd as u64;
        let reductions = self.st.counters.window_reductions;
        let ecn_reduce = self.ecn.should_reduce(&self.st, ack.ack, pkt.flags.has(Flags::ECE));
        // ELN names the segment at snd_una on a duplicate; on an ACK that advances
        // (Snoop+ELN reporting a repaired loss to adaptive FEC) it is no recovery signal.
        let eln = self.respond_to_eln && pkt.flags.has(Flags::ELN) && ack.ack == self.st.snd_una;
        // EWLN (Shagdar Fig. 3): resend the named segment on the first ACK of each notice;
        // the notice's duplicates are no congestion signal.
        let ewln = self.ewln.enabled() && pkt.flags.has(Flags::EWLN);
        if ewln {
            let named = ack.ack + ack.ewln_offset as u64;
            let first = pkt.flags.has(Flags::EWLN_FIRST);
            if let Some(seq) = self.ewln.on_ewln_ack(named, first, self.st.snd_una.max(ack.ack), self.st.snd_max) {
                self.ewln_resend = Some(seq);
            }
        }
        // A SACK sender's recovery reads its scoreboard, where a segment resent on EWLN is
        // lost but not congested, and an ACK marked EWLN is no duplicate (§III C).
        let signal = if eln { Signal::Eln } else { Signal::Loss };
        match &mut self.repair {
            Repair::Sack(_) if ack.ack >= self.st.snd_una => self.on_sack_ack(now, &ack, !ecn_reduce, signal, ewln),
            Repair::Sack(_) => {} // older than snd_una: reordered, stale
            Repair::Dupacks(_) if ack.ack > self.st.snd_una => self.on_new_ack(now, ack.ack, !ecn_reduce),
            Repair::Dupacks(recovery) => {
                // RFC 5681 §2: a duplicate ACK acknowledges nothing new while data is
                // outstanding. One marked EWLN reports a wireless loss, already resent.
                if ack.ack == self.st.snd_una && self.st.snd_una < self.st.snd_max && !ewln {
                    self.st.dupacks += 1;
                    recovery.on_dupack(&mut self.st, &mut self.cc, signal);
                }
            }
        }
        // A loss reduction on this very ACK (it entered fast recovery) takes precedence:
        // one reduction per window (RFC 3168 §6.1.2).
        if self.st.counters.window_reductions > reductions {
            self.ecn.on_reduction(&self.st);
        } else if ecn_reduce {
            // §6.1.2: the window rule's answer to a loss (ssthresh by RFC 5681 eq. 4),
            // cwnd = ssthresh, and no retransmission.
            self.st.cwnd = self.cc.on_congestion(&mut self.st, Signal::Loss);
            self.ecn.on_ece_reduction(&mut self.st);
        }
        self.note_cwnd();
    }

    /// `grow`: false on an ACK whose ECE reduces the window (RFC 3168 §6.1.2).
    fn on_new_ack(&mut self, now: SimTime, ack: u64, grow: bool) {
        let acked = self.advance(now, ack);
        let Repair::Dupacks(recovery) = &mut self.repair else { unreachable!("SACK senders take on_sack_ack") };
        let outcome = recovery.on_new_ack(&mut self.st, acked);
        self.after_new_ack(now, acked, outcome, grow);
    }

    /// An ACK at or above snd_una for a SACK sender: the scoreboard and recovery see it
    /// (it may be a duplicate in RFC 6675's sense even when it advances).
    /// `ewln`: the ACK is marked EWLN (it counts as no duplicate toward recovery).
    fn on_sack_ack(&mut self, now: SimTime, ack: &TcpAck, grow: bool, signal: Signal, ewln: bool) {
        let acked = self.advance(now, ack.ack);
        let Repair::Sack(sack) = &mut self.repair else { unreachable!("only SACK senders get here") };
        let mut blocks = [(0, 0); SACK_BLOCKS];
        let n = ack.sack_ranges().zip(blocks.iter_mut()).map(|(r, slot)| *slot = r).count();
        let outcome = sack.on_ack(&mut self.st, &mut self.cc, &blocks[..n], acked, signal, ewln);
        if acked > 0 {
            self.after_new_ack(now, acked, outcome, grow);
        }
    }

    /// snd_una moves to `ack` (which may equal it); RTT sample from the timed segment.
    /// Returns the bytes newly acknowledged.
    fn advance(&mut self, now: SimTime, ack: u64) -> u64 {
        let acked = ack - self.st.snd_una;
        if acked == 0 {
            return 0;
        }
        if let Some((end, sent)) = self.timing {
            if ack >= end {
                self.sample_rtt(now - sent);
                self.timing = None;
            }
        }
        self.st.snd_una = ack;
        self.st.snd_nxt = self.st.snd_nxt.max(ack);
        self.st.dupacks = 0;
        self.st.limited_sent = 0;
        self.last_timeout_una = None;
        acked
    }

    /// Window growth and the timer after an ACK of `acked` new bytes.
    fn after_new_ack(&mut self, now: SimTime, acked: u64, outcome: AckOutcome, grow: bool) {
        let restart = match outcome {
            AckOutcome::Normal => {
                if grow {
                    self.cc.on_ack(&mut self.st, acked);
                }
                true
            }
            AckOutcome::Exited => true,
            AckOutcome::Partial { restart_timer } => restart_timer,
        };
        // RFC 6298 §5.2-5.3: stop the timer when all is acked, else restart it.
        if self.st.snd_una >= self.st.snd_max {
            self.rto_deadline = None;
        } else if restart {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
    }

    fn sample_rtt(&mut self, r: SimDuration) {
        self.rtt.sample(r);
        self.metrics.rtt(r.as_secs_f64());
    }

    /// The timer expired: the application starts, or a retransmission timeout.
    pub fn on_timer(&mut self, now: SimTime) {
        if !self.started {
            self.start(now);
        } else {
            self.on_rto(now);
        }
    }

    /// The retransmission timer expired (RFC 6298 §5.4-5.6, RFC 5681 §3.1).
    pub fn on_rto(&mut self, now: SimTime) {
        if self.st.snd_una >= self.st.snd_max {
            self.rto_deadline = None;
            return;
        }
        self.account_cwnd(now);
        self.st.counters.timeouts += 1;
        if let Some(fec) = &mut self.fec {
            fec.on_timeout(self.st.snd_una, self.st.snd_max);
        }
        let repeated = self.last_timeout_una == Some(self.st.snd_una);
        self.last_timeout_una = Some(self.st.snd_una);
        self.cc.on_timeout(&mut self.st, repeated);
        self.ecn.on_reduction(&self.st);
        match &mut self.repair {
            Repair::Dupacks(recovery) => recovery.on_timeout(&mut self.st),
            Repair::Sack(sack) => sack.on_timeout(&mut self.st),
        }
        self.st.dupacks = 0;
        self.st.limited_sent = 0;
        self.st.retransmit = None;
        self.st.go_back_n(RetxCause::Timeout);
        self.rtt.backoff();
        self.timing = None;
        self.rto_deadline = Some(now + self.rtt.rto());
        self.note_cwnd();
    }

    /// The next segment to send now, if the window allows one.
    pub fn transmit(&mut self, now: SimTime) -> Option<Packet> {
        if !self.started {
            return None;
        }
        if let Some(cause) = self.st.retransmit.take() {
            let len = self.st.mss.min(self.st.snd_max - self.st.snd_una);
            if len > 0 {
                return Some(self.emit(now, self.st.snd_una, len, Some(cause)));
            }
        }
        if let Some(seq) = self.ewln_resend.take() {
            // Named by an EWLN ACK: resent at once, outside the window (it replaces a
            // segment the window already counts).
            if seq >= self.st.snd_una && seq < self.st.snd_max {
                let len = self.st.mss.min(self.st.snd_max - seq);
                if let Repair::Sack(sack) = &mut self.repair {
                    sack.sb.on_ewln_resend(seq, seq + len);
                }
                return Some(self.emit(now, seq, len, Some(RetxCause::Ewln)));
            }
        }
        let end = self.app_limit.unwrap_or(u64::MAX);
        let mut sacked = 0;
        if let Repair::Sack(sack) = &mut self.repair {
            if self.st.in_recovery {
                return self.transmit_in_sack_recovery(now, end);
            }
            self.st.snd_nxt = sack.resume_point(self.st.snd_nxt);
            if self.limited_transmit || self.st.snd_nxt < self.st.snd_max {
                sacked = sack.sacked_below(self.st.snd_una, self.st.snd_nxt);
            }
        }
        if self.st.snd_nxt >= end {
            return None;
        }
        let len = self.st.mss.min(end - self.st.snd_nxt);
        let flight = self.st.snd_nxt - self.st.snd_una - sacked;
        if flight + len > self.usable_window() {
            return None;
        }
        // New data that only limited transmit let out (the window alone would not have).
        let st = &mut self.st;
        if st.snd_nxt == st.snd_max && st.dupacks > 0 && st.snd_nxt - st.snd_una + len > st.cwnd.min(self.peer_wnd).min(self.max_window) {
            st.limited_sent += len;
        }
        let seq = self.st.snd_nxt;
        let cause = (seq < self.st.snd_max).then_some(self.st.go_back_cause);
        self.st.snd_nxt += len;
        self.st.snd_max = self.st.snd_max.max(self.st.snd_nxt);
        Some(self.emit(now, seq, len, cause))
    }

    /// In SACK recovery: NextSeg's segment (or ns-2's), if pipe leaves room.
    fn transmit_in_sack_recovery(&mut self, now: SimTime, app_end: u64) -> Option<Packet> {
        let Repair::Sack(sack) = &mut self.repair else { return None };
        let st = &mut self.st;
        // Unsent data the receiver's window allows, in full segments unless it is the
        // last of the application's (sender silly-window avoidance, RFC 9293 §3.8.6.2.1).
        let room = (st.snd_una + self.peer_wnd.min(self.max_window)).saturating_sub(st.snd_max);
        let left = app_end.saturating_sub(st.snd_max);
        let new_data = if left <= room { left } else if room >= st.mss { room } else { 0 };
        let seg = sack.next_segment(st, new_data)?;
        let cause = (seg.seq < st.snd_max).then_some(st.recovery_cause);
        st.snd_max = st.snd_max.max(seg.seq + seg.len);
        st.snd_nxt = st.snd_max;
        Some(self.emit(now, seg.seq, seg.len, cause))
    }

    /// min(cwnd, rwnd, W_max), plus RFC 3042's allowance on the first two duplicate ACKs
    /// (new data only). RFC 6675's sender has its own limited transmit instead (§5
    /// step 3: SACKed bytes leave the pipe).
    fn usable_window(&self) -> u64 {
        let st = &self.st;
        let mut cwnd = st.cwnd;
        let pipe_based = matches!(&self.repair, Repair::Sack(s) if s.reading() == Reading::Rfc6675);
        if self.limited_transmit && !pipe_based && !st.in_recovery && st.dupacks > 0 && st.dupacks < st.dupack_threshold && st.snd_nxt == st.snd_max {
            cwnd += st.dupacks.min(2) as u64 * st.mss;
        }
        cwnd.min(self.peer_wnd).min(self.max_window)
    }

    fn emit(&mut self, now: SimTime, seq: u64, len: u64, retx: Option<RetxCause>) -> Packet {
        let mut flags = Flags::default();
        match retx {
            Some(cause) => {
                flags.set(Flags::RETX);
                self.st.counters.count_retransmit(cause);
                self.timing = None;
            }
            None if self.timing.is_none() => self.timing = Some((seq + len, now)),
            None => {}
        }
        self.st.counters.segments_sent += 1;
        self.st.counters.bytes_sent += len;
        // RFC 6298 §5.1: start the timer when sending data if it is not running.
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        // mss + header <= 65,535 was checked when the scenario was built (IPv4 length).
        let mut p = Packet::tcp_data(self.flow, self.src, self.dst, seq, len as u32, (len as u32 + self.header) as u16);
        self.ecn.mark(&mut flags, retx.is_none());
        p.flags = flags;
        if let Some(fec) = &self.fec {
            p.request_code(fec.code());
        }
        p
    }
}

#[cfg(test)]
#[path = "sender_tests.rs"]
mod tests;
