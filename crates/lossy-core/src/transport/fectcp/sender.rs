//! FECTCP's sender (Botoș §II): a three-way handshake, then one new encoded symbol per
//! segment with a unique id and never a retransmission, paced evenly over the smoothed
//! RTT within a window of cwnd segments; one timer per segment, cancelled by any ACK
//! that acknowledges it (ACKs are cumulative); a timer that expires is a loss the ACK of
//! a later segment did not cover, so consecutive losses, and reduces the window
//! (`control.rs`). The transfer ends when the receiver says it decoded (FIN); the
//! sender answers with its own FIN.

use super::config::FectcpConfig;
use super::control::Control;
use super::FectcpReport;
use crate::coding::rateless::BlockPlan;
use crate::packet::{Flags, FlowId, Header, NodeId, Packet};
use crate::result::FlowSummary;
use crate::tcp::metrics::{report_window, RttSummary};
use crate::time::{SimDuration, SimTime};
use crate::trace::{SEQ_ACKED, SEQ_SENT};
use crate::transport::{Endpoint, EventLog, StreamProgress, TraceEvent};
use crate::timers::TimerTable;
use std::collections::VecDeque;

/// Where the connection is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Before the flow's start.
    Idle,
    /// SYN sent `tries` times, the last at `sent_at`; the next try at `retry_at`.
    Handshake { tries: u32, sent_at: SimTime, retry_at: SimTime },
    Open,
    /// The receiver's FIN came: our FIN goes out, then nothing more.
    Closed,
}

/// A segment sent and not yet covered by an ACK.
#[derive(Clone, Copy, Debug)]
struct Sent {
    at: SimTime,
    /// Still counted in flight: neither acknowledged nor timed out.
    live: bool,
}

pub struct FectcpSender {
    flow: FlowId,
    src: NodeId,
    dst: NodeId,
    start: SimTime,
    cfg_timeout: SimDuration,
    plan: BlockPlan,
    symbol: u32,
    /// Bytes on the wire of a symbol's segment, and of a SYN or FIN.
    segment_size: u16,
    control_size: u16,
    file_bytes: u64,
    phase: Phase,
    ctl: Control,
    /// The next symbol id; ids [base, next_id) are in `sent`.
    next_id: u64,
    base: u64,
    sent: VecDeque<Sent>,
    in_flight: u64,
    /// Each segment's timer: (deadline, id), cancelled lazily when an ACK covers the id.
    timers: TimerTable<u64>,
    /// Segments below this id were sent before the last reduction: their timers do not
    /// reduce again (one reduction per window, as RFC 5681 recovery).
    recover: u64,
    /// Pacing: the earliest time the next segment may leave.
    next_send_at: SimTime,
    /// A SYN or FIN waiting for `poll_transmit`.
    control_due: Option<u16>,
    fin_received: bool,
    counters: crate::tcp::state::SenderCounters,
    report: FectcpReport,
    metrics: WindowMetrics,
    events: EventLog,
}

impl FectcpSender {
    #[allow(clippy::too_many_arguments)] // one per property of the flow; called once per flow
    pub fn new(cfg: &FectcpConfig, flow: FlowId, src: NodeId, dst: NodeId, start: SimTime, plan: BlockPlan, file_bytes: u64, symbol: u32, header: u16) -> Self {
        FectcpSender {
            flow,
            src,
            dst,
            start,
            cfg_timeout: cfg.handshake_timeout.0,
            plan,
            symbol,
            segment_size: symbol as u16 + header,
            control_size: header,
            file_bytes,
            phase: Phase::Idle,
            ctl: Control::new(cfg),
            next_id: 0,
            base: 0,
            sent: VecDeque::new(),
            in_flight: 0,
            timers: TimerTable::default(),
            recover: 0,
            next_send_at: SimTime::ZERO,
            control_due: None,
            fin_received: false,
            counters: Default::default(),
            report: FectcpReport::default(),
            metrics: WindowMetrics::default(),
            events: EventLog::default(),
        }
    }

    fn can_send(&self) -> bool {
        self.phase == Phase::Open && (self.in_flight as f64) < self.ctl.cwnd
    }

    /// Eqs. 2–3's timer; before any RTT sample (a SYN that needed a retry gives none,
    /// Karn's rule), the handshake's timeout.
    fn timer(&self) -> SimDuration {
        self.ctl.timer().map_or(self.cfg_timeout, SimDuration::from_secs_f64)
    }

    fn window_changed(&mut self, now: SimTime) {
        self.metrics.note(now, self.ctl.cwnd);
        let bytes = |w: f64| (w * self.symbol as f64).min(u64::MAX as f64) as u64;
        let ssthresh = self.ctl.ssthresh.is_finite().then(|| bytes(self.ctl.ssthresh));
        self.events.record(TraceEvent::Cwnd { cwnd: bytes(self.ctl.cwnd), ssthresh });
    }

    fn send_syn(&mut self, now: SimTime, tries: u32) {
        let wait = self.cfg_timeout.saturating_mul(1u64 << (tries - 1).min(20));
        self.phase = Phase::Handshake { tries, sent_at: now, retry_at: now + wait };
        self.control_due = Some(Flags::SYN);
    }

    fn on_ack(&mut self, now: SimTime, ack: u64) {
        if ack <= self.base {
            return; // Old news: everything below it is already covered.
        }
        // The segment that triggered this ACK gives the RTT sample. If its timer had
        // expired, the expiry was the delay's, not a loss: counted, nothing undone.
        if let Some(s) = ack.checked_sub(1).and_then(|i| self.sent.get((i - self.base) as usize)) {
            let rtt = (now - s.at).as_secs_f64();
            self.ctl.on_rtt(rtt);
            self.metrics.rtt(rtt);
            self.report.late_acks += !s.live as u64;
        }
        while self.base < ack {
            let Some(s) = self.sent.pop_front() else { break };
            if s.live {
                self.in_flight -= 1;
                // Covered by a later segment's ACK: lost, or its own ACK was (§II D).
                if self.base + 1 < ack {
                    self.report.losses_ignored += 1;
                }
            }
            self.base += 1;
        }
        self.events.record(TraceEvent::Seq { event: SEQ_ACKED, seq: ack * self.symbol as u64 });
        self.ctl.on_ack();
        self.window_changed(now);
    }

    /// Timers at or before `now`: each live segment's is a loss no later ACK covered.
    fn expire_timers(&mut self, now: SimTime) {
        while let Some((_, id)) = self.timers.pop_due(now) {
            let Some(s) = id.checked_sub(self.base).and_then(|i| self.sent.get_mut(i as usize)) else { continue };
            if !s.live {
                continue;
            }
            s.live = false;
            self.in_flight -= 1;
            self.counters.timeouts += 1;
            if id >= self.recover {
                self.ctl.on_loss();
                self.recover = self.next_id;
                self.counters.window_reductions += 1;
                self.window_changed(now);
            }
        }
    }

    fn send_symbol(&mut self, now: SimTime) -> Packet {
        let id = self.next_id;
        self.next_id += 1;
        self.sent.push_back(Sent { at: now, live: true });
        self.in_flight += 1;
        self.timers.arm(now + self.timer(), id);
        self.next_send_at = now + SimDuration::from_secs_f64(self.ctl.pacing_gap());
        self.counters.segments_sent += 1;
        self.counters.bytes_sent += self.symbol as u64;
        self.events.record(TraceEvent::Seq { event: SEQ_SENT, seq: id * self.symbol as u64 });
        let (block, _) = self.plan.locate(id);
        Packet::fectcp_symbol(self.flow, self.src, self.dst, id, block, self.symbol, self.segment_size)
    }
}

impl Endpoint for FectcpSender {
    fn handle_packet(&mut self, now: SimTime, pkt: &Packet) {
        let Header::FectcpAck(a) = pkt.header else { return };
        match self.phase {
            Phase::Handshake { tries, sent_at, .. } if pkt.flags.has(Flags::SYN) => {
                if tries == 1 {
                    let rtt = (now - sent_at).as_secs_f64();
                    self.ctl.on_rtt(rtt);
                    self.metrics.rtt(rtt);
                }
                self.report.handshake_s = Some((now - self.start).as_secs_f64());
                self.phase = Phase::Open;
                self.next_send_at = now;
                self.metrics.start(now, self.ctl.cwnd);
                self.window_changed(now);
            }
            Phase::Open if pkt.flags.has(Flags::FIN) => {
                self.metrics.note(now, self.ctl.cwnd);
                self.metrics.stop(now);
                self.phase = Phase::Closed;
                self.fin_received = true;
                self.timers.clear();
                self.control_due = Some(Flags::FIN);
            }
            Phase::Open => self.on_ack(now, a.ack),
            _ => {}
        }
    }

    fn poll_transmit(&mut self, now: SimTime) -> Option<Packet> {
        if let Some(flag) = self.control_due.take() {
            let mut p = Packet::fectcp_symbol(self.flow, self.src, self.dst, 0, 0, 0, self.control_size);
            p.flags.set(flag);
            return Some(p);
        }
        (self.can_send() && now >= self.next_send_at).then(|| self.send_symbol(now))
    }

    fn poll_event(&mut self) -> Option<TraceEvent> {
        self.events.pop()
    }

    fn enable_events(&mut self) {
        self.events.enable();
    }

    fn next_timeout(&self) -> Option<SimTime> {
        let timer = self.timers.next();
        let send = self.can_send().then_some(self.next_send_at);
        match self.phase {
            Phase::Idle => Some(self.start),
            Phase::Handshake { retry_at, .. } => Some(retry_at),
            Phase::Open => [timer, send].into_iter().flatten().min(),
            Phase::Closed => None,
        }
    }

    fn handle_timeout(&mut self, now: SimTime) {
        match self.phase {
            Phase::Idle if now >= self.start => self.send_syn(now, 1),
            Phase::Handshake { tries, retry_at, .. } if now >= retry_at => {
                self.report.syn_retries += 1;
                self.send_syn(now, tries + 1);
            }
            Phase::Open => self.expire_timers(now),
            _ => {}
        }
    }

    fn progress(&self) -> StreamProgress {
        let acked = if self.fin_received { self.file_bytes } else { 0 };
        StreamProgress { highest_sent: self.next_id * self.symbol as u64, acked, delivered: 0 }
    }

    fn check_invariants(&self) -> Result<(), String> {
        let live = self.sent.iter().filter(|s| s.live).count() as u64;
        if live != self.in_flight {
            return Err(format!("FECTCP sender: {live} segments live, {} counted in flight", self.in_flight));
        }
        if self.base + self.sent.len() as u64 != self.next_id {
            return Err(format!("FECTCP sender: ids [{}, +{}) kept, next id {}", self.base, self.sent.len(), self.next_id));
        }
        if self.ctl.cwnd.is_nan() || self.ctl.cwnd < 1.0 {
            return Err(format!("FECTCP sender: cwnd {} below one segment", self.ctl.cwnd));
        }
        Ok(())
    }

    fn report(&mut self, end: SimTime, out: &mut FlowSummary) {
        self.metrics.stop(end);
        let out = &mut out.metrics;
        self.counters.report(out);
        let mean = self.metrics.mean();
        report_window(out, mean, mean, self.metrics.max);
        self.metrics.rtt.report(out);
        out.set("rto_final_s", self.ctl.timer());
        out.add(FectcpReport::COLUMNS);
        out.set("fectcp_handshake_s", self.report.handshake_s);
        out.set("fectcp_syn_retries", self.report.syn_retries);
        out.set("fectcp_losses_ignored", self.report.losses_ignored);
        out.set("fectcp_late_acks", self.report.late_acks);
        out.set("fectcp_srtt_final_s", self.ctl.srtt());
        out.set("fectcp_fin_received", self.fin_received);
    }

    fn note(&self) -> Option<String> {
        matches!(self.phase, Phase::Handshake { .. }).then(|| "the FECTCP handshake never completed".into())
    }
}

/// The time-weighted window and RTT samples, for the run summary.
#[derive(Clone, Debug, Default)]
struct WindowMetrics {
    since: Option<SimTime>,
    cwnd: f64,
    area: f64,
    active_s: f64,
    max: f64,
    rtt: RttSummary,
}

impl WindowMetrics {
    fn start(&mut self, now: SimTime, cwnd: f64) {
        self.since = Some(now);
        self.cwnd = cwnd;
        self.max = cwnd;
    }

    /// Accounts the window held since the last change, then takes the new one.
    fn note(&mut self, now: SimTime, cwnd: f64) {
        if let Some(since) = self.since {
            let dt = (now - since).as_secs_f64();
            self.area += self.cwnd * dt;
            self.active_s += dt;
            self.since = Some(now);
        }
        self.cwnd = cwnd;
        self.max = self.max.max(cwnd);
    }

    fn stop(&mut self, now: SimTime) {
        self.note(now, self.cwnd);
        self.since = None;
    }

    fn mean(&self) -> f64 {
        if self.active_s > 0.0 {
            self.area / self.active_s
        } else {
            self.cwnd
        }
    }

    fn rtt(&mut self, s: f64) {
        self.rtt.add(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coding::rateless::RatelessCode;

    const MS: SimDuration = SimDuration::from_millis(1);

    fn at(ms: u64) -> SimTime {
        SimTime::ZERO + MS.saturating_mul(ms)
    }

    fn ack(id_plus_one: u64, flag: Option<u16>) -> Packet {
        let mut p = Packet::fectcp_ack(0, 1, 0, id_plus_one, 40);
        if let Some(f) = flag {
            p.flags.set(f);
        }
        p
    }

    /// A sender past its handshake (a 100 ms RTT) with cwnd 10 and a spread of RTT
    /// samples (σ about 10 ms), so Eq. 2's timer is (1.1)(sRTT + σ).
    fn open_sender() -> FectcpSender {
        let plan = BlockPlan::new(RatelessCode::RaptorQ, 1_000_000, 1000).unwrap();
        let mut s = FectcpSender::new(&FectcpConfig::default(), 0, 0, 1, SimTime::ZERO, plan, 1_000_000, 1000, 40);
        s.handle_timeout(SimTime::ZERO);
        let syn = s.poll_transmit(SimTime::ZERO).unwrap();
        assert!(syn.flags.has(Flags::SYN));
        s.handle_packet(at(100), &ack(0, Some(Flags::SYN)));
        for rtt in [90.0, 110.0, 90.0, 110.0] {
            s.ctl.on_rtt(rtt / 1000.0);
        }
        s.ctl.cwnd = 10.0;
        s
    }

    /// Sends every segment the window and pacing allow up to `until` (ms), returning
    /// the (id, time) of each.
    fn send_until(s: &mut FectcpSender, from: u64, until: u64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        for t in from..=until {
            s.handle_timeout(at(t));
            while let Some(p) = s.poll_transmit(at(t)) {
                let Header::FectcpSymbol(h) = p.header else { panic!() };
                out.push((h.id, t));
            }
        }
        out
    }

    #[test]
    fn segments_are_paced_over_srtt() {
        let mut s = open_sender();
        let sent = send_until(&mut s, 100, 200);
        assert_eq!(sent.len(), 10, "the window: {sent:?}");
        // sRTT ≈ 100 ms over cwnd 10: one every 10 ms.
        let gaps: Vec<u64> = sent.windows(2).map(|w| w[1].1 - w[0].1).collect();
        assert!(gaps.iter().all(|&g| (9..=11).contains(&g)), "{gaps:?}");
    }

    #[test]
    fn a_single_loss_is_covered_by_the_next_ack() {
        let mut s = open_sender();
        let sent = send_until(&mut s, 100, 200);
        // Segment 3 is lost: the ACKs of 0-2 come one RTT after their sending, then the
        // ACK of 4 (number 5) covers 3 before 3's timer.
        for &(id, t) in &sent {
            if id != 3 {
                s.handle_timeout(at(t + 100));
                s.handle_packet(at(t + 100), &ack(id + 1, None));
            }
        }
        s.handle_timeout(at(400));
        assert_eq!((s.counters.timeouts, s.counters.window_reductions), (0, 0));
        assert_eq!(s.report.losses_ignored, 1);
    }

    #[test]
    fn consecutive_losses_expire_a_timer_and_halve_the_window_once() {
        let mut s = open_sender();
        let sent = send_until(&mut s, 100, 200);
        let cwnd = s.ctl.cwnd;
        for &(id, t) in &sent {
            if !(3..=5).contains(&id) {
                s.handle_timeout(at(t + 100));
                s.handle_packet(at(t + 100), &ack(id + 1, None));
            }
        }
        // 3's timer expires before the ACK of 6 arrives; 4's too, in the same window:
        // one reduction.
        assert!(s.counters.timeouts >= 1, "{:?}", s.counters);
        assert_eq!(s.counters.window_reductions, 1);
        assert!((s.ctl.cwnd - (cwnd + 6.0) * 0.5).abs() < 1.0, "cwnd {}", s.ctl.cwnd);
    }

    #[test]
    fn an_ack_after_the_timer_counts_the_expiry_as_late() {
        let mut s = open_sender();
        let sent = send_until(&mut s, 100, 120);
        let (id, t) = sent[0];
        // Segment 0's ACK comes 300 ms after it left: past its timer, which expired.
        s.handle_timeout(at(t + 300));
        assert!(s.counters.timeouts >= 1);
        s.handle_packet(at(t + 300), &ack(id + 1, None));
        assert_eq!(s.report.late_acks, 1);
    }

    #[test]
    fn a_fin_stops_the_sender_and_is_answered() {
        let mut s = open_sender();
        send_until(&mut s, 100, 150);
        s.handle_packet(at(160), &ack(3, Some(Flags::FIN)));
        let fin = s.poll_transmit(at(160)).unwrap();
        assert!(fin.flags.has(Flags::FIN));
        assert!(s.poll_transmit(at(500)).is_none());
        assert_eq!(s.next_timeout(), None);
        assert_eq!(s.progress().acked, 1_000_000);
    }

    #[test]
    fn a_lost_syn_is_retried_with_a_doubled_timeout() {
        let plan = BlockPlan::new(RatelessCode::RaptorQ, 10_000, 1000).unwrap();
        let mut s = FectcpSender::new(&FectcpConfig::default(), 0, 0, 1, SimTime::ZERO, plan, 10_000, 1000, 40);
        s.handle_timeout(SimTime::ZERO);
        assert!(s.poll_transmit(SimTime::ZERO).is_some());
        assert_eq!(s.next_timeout(), Some(at(1000)));
        s.handle_timeout(at(1000));
        assert!(s.poll_transmit(at(1000)).unwrap().flags.has(Flags::SYN));
        assert_eq!(s.next_timeout(), Some(at(3000)));
        // The answer to the second SYN gives no RTT sample (Karn): the timer falls back
        // to the handshake timeout until the first ACK.
        s.handle_packet(at(1100), &ack(0, Some(Flags::SYN)));
        assert_eq!(s.ctl.srtt(), None);
        assert_eq!(s.timer(), SimDuration::from_secs(1));
    }
}
