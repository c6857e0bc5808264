//! The TCP sender: ACK processing, the retransmission timer and segment transmission.
//! Window growth lives in `congestion`, loss recovery in `recovery`, RTO in `rtt`.

use super::config::{TcpConfig, Variant};
use super::congestion::{Aimd, ByteCounting, Congestion, CongestionControl};
use super::recovery::{AckOutcome, LossRecovery, NewReno, Recovery, Reno, Tahoe};
use super::sack::{Reading, SackRecovery};
use super::ecn::EcnSender;
use super::rtt::{RtoConfig, RttEstimator};
use super::metrics::SenderMetrics;
use super::state::{RetxCause, SenderState, Signal};
use crate::packet::{Flags, FlowId, NodeId, Packet, TcpAck, SACK_BLOCKS};
use crate::transport::EventLog;
use crate::time::{SimDuration, SimTime};

/// How losses are found and repaired: from duplicate ACKs alone, or from SACK blocks.
#[derive(Clone, Debug)]
enum Repair {
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
        let sack = |reading| Repair::Sack(SackRecovery::new(reading, mss, cfg.dupack_threshold));
        let repair = match cfg.variant {
            Variant::Tahoe => Repair::Dupacks(Recovery::Tahoe(Tahoe)),
            Variant::Reno => Repair::Dupacks(Recovery::Reno(Reno)),
            Variant::Newreno => Repair::Dupacks(Recovery::NewReno(NewReno::default())),
            Variant::Sack => sack(Reading::Rfc6675),
            Variant::Sack1 => sack(Reading::Sack1),
        };
        TcpSender {
            st: SenderState::new(mss, iw, cfg.max_window.0, cfg.dupack_threshold),
            cc: match cfg.abc.limit_segments() {
                None => Congestion::Aimd(Aimd),
                Some(l) => Congestion::ByteCounting(ByteCounting::new(l)),
            },
            repair,
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
        self.peer_wnd = ack.wnd as u64;
        let reductions = self.st.counters.window_reductions;
        let ecn_reduce = self.ecn.should_reduce(&self.st, ack.ack, pkt.flags.has(Flags::ECE));
        let signal = if self.respond_to_eln && pkt.flags.has(Flags::ELN) { Signal::Eln } else { Signal::Loss };
        match &mut self.repair {
            Repair::Sack(_) if ack.ack >= self.st.snd_una => self.on_sack_ack(now, &ack, !ecn_reduce, signal),
            Repair::Sack(_) => {} // older than snd_una: reordered, stale
            Repair::Dupacks(_) if ack.ack > self.st.snd_una => self.on_new_ack(now, ack.ack, !ecn_reduce),
            Repair::Dupacks(recovery) => {
                // RFC 5681 §2: a duplicate ACK acknowledges nothing new while data is outstanding.
                if ack.ack == self.st.snd_una && self.st.snd_una < self.st.snd_max {
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
    fn on_sack_ack(&mut self, now: SimTime, ack: &TcpAck, grow: bool, signal: Signal) {
        let acked = self.advance(now, ack.ack);
        let Repair::Sack(sack) = &mut self.repair else { unreachable!("only SACK senders get here") };
        let mut blocks = [(0, 0); SACK_BLOCKS];
        let n = ack.sack_ranges().zip(blocks.iter_mut()).map(|(r, slot)| *slot = r).count();
        let outcome = sack.on_ack(&mut self.st, &mut self.cc, &blocks[..n], acked, signal);
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
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Header;
    use crate::transport::Endpoint;
    use crate::units::{Bytes, Duration};

    fn sender(variant: Variant) -> TcpSender {
        let cfg = TcpConfig { variant, initial_window: Some(4), max_window: Bytes(1 << 20), ..Default::default() };
        let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
        s.start(SimTime::ZERO);
        s
    }

    fn ack(n: u64, eln: bool) -> Packet {
        let mut flags = Flags::default();
        if eln {
            flags.set(Flags::ELN);
        }
        let mut p = Packet::tcp_ack(0, 1, 0, n, 1 << 20, 40);
        p.flags = flags;
        p
    }

    fn seq_of(p: &Packet) -> u64 {
        match p.header {
            Header::TcpData(d) => d.seq,
            _ => panic!("not data"),
        }
    }

    fn drain(s: &mut TcpSender, now: SimTime) -> Vec<Packet> {
        std::iter::from_fn(|| s.poll_transmit(now)).collect()
    }

    #[test]
    fn sends_the_initial_window_and_starts_the_timer() {
        let mut s = sender(Variant::Newreno);
        let sent = drain(&mut s, SimTime::ZERO);
        assert_eq!(sent.len(), 4);
        assert_eq!(seq_of(&sent[3]), 3000);
        assert_eq!(sent[0].size, 1040);
        assert_eq!(s.next_timeout(), Some(SimTime::ZERO + SimDuration::from_secs(1)));
    }

    #[test]
    fn ack_clock_slow_start_doubles_per_round() {
        let mut s = sender(Variant::Newreno);
        drain(&mut s, SimTime::ZERO);
        let t = SimTime::ZERO + SimDuration::from_millis(100);
        for k in 1..=4 {
            s.handle_ack(t, &ack(k * 1000, false));
        }
        assert_eq!(s.st.cwnd, 8000);
        assert_eq!(drain(&mut s, t).len(), 8);
        // One timed segment gave one RTT sample of 100 ms.
        assert_eq!(s.metrics.rtt_samples, 1);
        assert_eq!(s.srtt(), Some(SimDuration::from_millis(100)));
    }

    #[test]
    fn abc_option_counts_the_bytes_of_delayed_acks() {
        use crate::tcp::config::Abc;
        for (abc, cwnd) in [(Abc::Off, 6000), (Abc::Limit(2), 8000)] {
            let cfg = TcpConfig { abc, initial_window: Some(4), ..Default::default() };
            let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
            s.start(SimTime::ZERO);
            drain(&mut s, SimTime::ZERO);
            s.handle_ack(SimTime(1), &ack(2000, false));
            s.handle_ack(SimTime(2), &ack(4000, false));
            assert_eq!(s.st.cwnd, cwnd, "{abc:?}");
        }
    }

    #[test]
    fn third_duplicate_ack_retransmits_the_first_unacked_segment() {
        let mut s = sender(Variant::Reno);
        drain(&mut s, SimTime::ZERO);
        let t = SimTime(1);
        s.handle_ack(t, &ack(0, false));
        // Limited transmit: one new segment per early duplicate.
        assert_eq!(drain(&mut s, t).iter().map(seq_of).collect::<Vec<_>>(), vec![4000]);
        s.handle_ack(t, &ack(0, false));
        assert_eq!(drain(&mut s, t).iter().map(seq_of).collect::<Vec<_>>(), vec![5000]);
        s.handle_ack(t, &ack(0, false));
        let out = drain(&mut s, t);
        assert_eq!(seq_of(&out[0]), 0);
        assert!(out[0].flags.has(Flags::RETX));
        assert_eq!(s.st.counters.retransmits_fast, 1);
        assert_eq!(s.st.counters.fast_recoveries, 1);
    }

    #[test]
    fn eln_duplicates_retransmit_without_reduction() {
        let mut s = sender(Variant::Reno);
        drain(&mut s, SimTime::ZERO);
        let cwnd = s.st.cwnd;
        for _ in 0..3 {
            s.handle_ack(SimTime(1), &ack(0, true));
        }
        let out = drain(&mut s, SimTime(1));
        assert_eq!(seq_of(&out[0]), 0);
        assert_eq!(s.st.counters.retransmits_eln, 1);
        assert_eq!(s.st.counters.window_reductions, 0);
        s.handle_ack(SimTime(2), &ack(6000, false));
        assert_eq!(s.st.cwnd, cwnd);
    }

    #[test]
    fn eln_ignored_when_switched_off() {
        let cfg = TcpConfig { eln: false, initial_window: Some(4), ..Default::default() };
        let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
        s.start(SimTime::ZERO);
        drain(&mut s, SimTime::ZERO);
        for _ in 0..3 {
            s.handle_ack(SimTime(1), &ack(0, true));
        }
        assert_eq!(s.st.counters.retransmits_fast, 0);
        drain(&mut s, SimTime(1));
        assert_eq!((s.st.counters.retransmits_fast, s.st.counters.window_reductions), (1, 1));
    }

    #[test]
    fn timeout_goes_back_n_with_backoff_and_karn() {
        let mut s = sender(Variant::Newreno);
        drain(&mut s, SimTime::ZERO);
        let t1 = SimTime::ZERO + SimDuration::from_secs(1);
        s.handle_timeout(t1);
        assert_eq!((s.st.cwnd, s.st.ssthresh), (1000, 2000));
        let out = drain(&mut s, t1);
        assert_eq!(out.len(), 1);
        assert_eq!(seq_of(&out[0]), 0);
        assert_eq!(s.st.counters.retransmits_timeout, 1);
        // Backoff: the next expiry is 2 s later.
        assert_eq!(s.next_timeout(), Some(t1 + SimDuration::from_secs(2)));
        // Karn: the ACK of the retransmission gives no RTT sample.
        s.handle_ack(t1 + SimDuration::from_millis(100), &ack(1000, false));
        assert_eq!(s.metrics.rtt_samples, 0);
        // Go-back-N continues from 1000 and counts as timeout retransmissions.
        let out = drain(&mut s, t1 + SimDuration::from_millis(100));
        assert_eq!(out.iter().map(seq_of).collect::<Vec<_>>(), vec![1000, 2000]);
        assert_eq!(s.st.counters.retransmits_timeout, 3);
    }

    #[test]
    fn timeout_during_fast_recovery_keeps_the_entry_ssthresh() {
        let mut s = sender(Variant::Newreno);
        drain(&mut s, SimTime::ZERO);
        for _ in 0..20 {
            s.handle_ack(SimTime(1), &ack(0, false));
            drain(&mut s, SimTime(1));
        }
        // Entry at 6 segments in flight, 2 of them sent by limited transmit, which
        // RFC 5681 §3.2 step 2 leaves out: ssthresh 4 / 2 = 2 segments.
        let entry = s.st.ssthresh;
        assert_eq!(entry, 2000);
        assert!(s.st.in_recovery && s.st.flight_size() > 6 * entry, "{}", s.st.flight_size());
        s.handle_timeout(SimTime::ZERO + SimDuration::from_secs(1));
        assert_eq!((s.st.ssthresh, s.st.cwnd), (entry, 1000));
        assert!(!s.st.in_recovery);
    }

    #[test]
    fn limited_transmit_data_is_left_out_of_the_halved_flight_size() {
        // RFC 5681 §3.2 step 2. Without limited transmit the same loss halves 4 segments.
        for lt in [true, false] {
            let cfg = TcpConfig { limited_transmit: lt, initial_window: Some(4), ..Default::default() };
            let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, None);
            s.start(SimTime::ZERO);
            drain(&mut s, SimTime::ZERO);
            let mut sent = 0;
            for _ in 0..3 {
                s.handle_ack(SimTime(1), &ack(0, false));
                sent += drain(&mut s, SimTime(1)).len();
            }
            // With it: 2 new segments, then the fast retransmit fills the inflated window
            // (2 + 3 segments for 6 in flight). Without: the retransmit and 1 new segment.
            assert_eq!(sent, if lt { 3 } else { 2 }, "lt = {lt}");
            assert_eq!(s.st.ssthresh, 2000, "lt = {lt}");
        }
    }

    #[test]
    fn cwnd_mean_counts_the_recovery_target_not_the_inflation() {
        let mut s = sender(Variant::Reno);
        let ms = |n| SimTime::ZERO + SimDuration::from_millis(n);
        drain(&mut s, ms(0));
        // 100 ms at 4 segments; then recovery from 6 in flight (4 + 2 limited transmit,
        // which RFC 5681 §3.2 step 2 leaves out): target = ssthresh = 2 segments, cwnd
        // inflated to 9 by 7 duplicates in all.
        for _ in 0..7 {
            s.handle_ack(ms(100), &ack(0, false));
            drain(&mut s, ms(100));
        }
        assert_eq!((s.st.recovery_target, s.st.cwnd), (2000, 9000));
        // 200 ms in recovery; the ACK of new data ends it at 2 segments for 100 ms more.
        s.handle_ack(ms(300), &ack(6000, false));
        assert!(!s.st.in_recovery);
        s.finish_metrics(ms(400));
        let m = &s.metrics;
        // (4000·0.1 + 2000·0.2 + 2000·0.1) / 0.4 and (4000·0.1 + 9000·0.2 + 2000·0.1) / 0.4.
        assert!((m.cwnd_mean() - 2500.0).abs() < 1e-6, "{}", m.cwnd_mean());
        assert!((m.cwnd_inflated_mean() - 6000.0).abs() < 1e-6, "{}", m.cwnd_inflated_mean());
        assert_eq!((m.cwnd_max, m.cwnd_inflated_max), (4000, 9000));
    }

    #[test]
    fn tahoe_fast_retransmit_restarts_from_one_segment() {
        let mut s = sender(Variant::Tahoe);
        drain(&mut s, SimTime::ZERO);
        for _ in 0..3 {
            s.handle_ack(SimTime(1), &ack(0, false));
        }
        drain(&mut s, SimTime(1));
        let out = drain(&mut s, SimTime(1));
        assert!(out.is_empty());
        assert_eq!(s.st.cwnd, 1000);
        assert_eq!(s.st.counters.retransmits_fast, 1);
    }

    #[test]
    fn file_transfer_finishes_with_a_short_last_segment() {
        let cfg = TcpConfig { initial_window: Some(4), min_rto: Duration::from_millis(200), ..Default::default() };
        let mut s = TcpSender::new(&cfg, 0, 0, 1, SimTime::ZERO, Some(2500));
        s.start(SimTime::ZERO);
        let out = drain(&mut s, SimTime::ZERO);
        assert_eq!(out.iter().map(|p| p.payload()).collect::<Vec<_>>(), vec![1000, 1000, 500]);
        s.handle_ack(SimTime(5), &ack(2500, false));
        assert!(s.finished());
        assert_eq!(s.next_timeout(), None);
    }

    #[test]
    fn window_is_limited_by_the_receiver() {
        let mut s = sender(Variant::Newreno);
        drain(&mut s, SimTime::ZERO);
        s.handle_ack(SimTime(1), &ack(4000, false));
        s.handle_ack(SimTime(2), &Packet::tcp_ack(0, 1, 0, 4000, 2000, 40));
        assert_eq!(drain(&mut s, SimTime(2)).len(), 2);
    }
}
