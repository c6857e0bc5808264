//! The sender's transmit path: which segment goes out next — a requested resend, an
//! EWLN resend, the segment loss recovery picks, or new data (and go-back-N resends) as
//! the window allows — and the packet it makes, stamped for delivery-rate samples
//! (`delivery_rate`) if the congestion control reads them and, when the congestion control asks for pacing, held until its
//! departure time (`pacing`).

use super::cc::CongestionControl;
use super::config::TcpConfig;
use super::delivery_rate::SendInfo;
use super::recovery::LossRecovery;
use super::sender::TcpSender;
use super::state::RetxCause;
use crate::endpoint::TraceEvent;
use crate::packet::{Flags, FlowId, NodeId, Packet};
use crate::time::SimTime;

/// How the flow's segments are addressed and sized on the wire.
#[derive(Clone, Debug)]
pub(super) struct Wire {
    pub flow: FlowId,
    pub src: NodeId,
    pub dst: NodeId,
    /// TCP/IP header bytes added to every data segment.
    pub header: u32,
}

/// What bounds the window besides cwnd.
#[derive(Clone, Debug)]
pub(super) struct Limits {
    /// The receiver's advertised window (rwnd), from its last ACK.
    pub peer_wnd: u64,
    /// W_max, the socket buffer.
    pub max_window: u64,
    /// RFC 3042 limited transmit.
    pub limited_transmit: bool,
}

impl Limits {
    pub fn new(cfg: &TcpConfig) -> Self {
        Limits { peer_wnd: cfg.max_window.0, max_window: cfg.max_window.0, limited_transmit: cfg.limited_transmit }
    }

    /// min(rwnd, W_max).
    fn receiver(&self) -> u64 {
        self.peer_wnd.min(self.max_window)
    }
}

impl TcpSender {
    /// The next segment to send now, if the window allows one.
    pub fn transmit(&mut self, now: SimTime) -> Option<Packet> {
        if !self.app.started {
            return None;
        }
        // A paced segment waits: it leaves first, and nothing else is decided meanwhile.
        if self.model.pacer.holding() {
            return self.model.pacer.release(now);
        }
        if let Some(cause) = self.st.retransmit.take() {
            let len = self.st.mss.min(self.st.snd_max - self.st.snd_una);
            if len > 0 {
                return self.emit(now, self.st.snd_una, len, Some(cause));
            }
        }
        if let Some(seq) = self.notices.ewln_resend.take() {
            // Named by an EWLN ACK: resent at once, outside the window (it replaces a
            // segment the window already counts).
            if seq >= self.st.snd_una && seq < self.st.snd_max {
                let len = self.st.mss.min(self.st.snd_max - seq);
                self.recovery.on_ewln_resend(seq, seq + len);
                return self.emit(now, seq, len, Some(RetxCause::Ewln));
            }
        }
        let end = self.app.limit.unwrap_or(u64::MAX);
        if self.recovery.picks_segments(&self.st) {
            return self.transmit_recovery_pick(now, end);
        }
        self.st.snd_nxt = self.recovery.resume_point(self.st.snd_nxt);
        let mut sacked = 0;
        if self.limits.limited_transmit || self.st.snd_nxt < self.st.snd_max {
            sacked = self.recovery.sacked_below(self.st.snd_una, self.st.snd_nxt);
        }
        if self.st.snd_nxt >= end {
            self.note_app_limited(end);
            return None;
        }
        let len = self.st.mss.min(end - self.st.snd_nxt);
        let flight = self.st.snd_nxt - self.st.snd_una - sacked;
        if flight + len > self.usable_window() {
            return None;
        }
        // New data that only limited transmit let out (the window alone would not have).
        let st = &mut self.st;
        if st.snd_nxt == st.snd_max && st.dupacks > 0 && st.snd_nxt - st.snd_una + len > st.cwnd.min(self.limits.receiver()) {
            st.limited_sent += len;
        }
        let seq = self.st.snd_nxt;
        let cause = (seq < self.st.snd_max).then_some(self.st.go_back_cause);
        self.st.snd_nxt += len;
        self.st.snd_max = self.st.snd_max.max(self.st.snd_nxt);
        self.emit(now, seq, len, cause)
    }

    /// draft-cheng-iccrg-delivery-rate-estimation-02 §3.4 at the point the sender runs out
    /// of data: the application wrote all it will (a finite one sent its last byte; a bulk
    /// one never gets here), the window is not what stops it, and no resend is due.
    fn note_app_limited(&mut self, app_end: u64) {
        let st = &self.st;
        if st.snd_max < app_end || !self.reads_rate_samples() {
            return;
        }
        let flight = st.flight_size();
        let below_cwnd = self.model.rate.inflight(flight) < st.cwnd;
        let nothing_to_resend = st.retransmit.is_none() && st.snd_nxt >= st.snd_max && !st.in_recovery;
        self.model.rate.check_app_limited(below_cwnd, nothing_to_resend, flight);
    }

    /// In recovery, the segment loss recovery picks (SACK: NextSeg's, or ns-2's), if
    /// its count of the bytes in the network leaves room.
    fn transmit_recovery_pick(&mut self, now: SimTime, app_end: u64) -> Option<Packet> {
        let st = &mut self.st;
        // Unsent data the receiver's window allows, in full segments unless it is the
        // last of the application's (sender silly-window avoidance, RFC 9293 §3.8.6.2.1).
        let room = (st.snd_una + self.limits.receiver()).saturating_sub(st.snd_max);
        let left = app_end.saturating_sub(st.snd_max);
        let new_data = if left <= room { left } else if room >= st.mss { room } else { 0 };
        let seg = self.recovery.next_segment(st, new_data)?;
        let cause = (seg.seq < st.snd_max).then_some(st.recovery_cause);
        st.snd_max = st.snd_max.max(seg.seq + seg.len);
        st.snd_nxt = st.snd_max;
        self.emit(now, seg.seq, seg.len, cause)
    }

    /// min(cwnd, rwnd, W_max), plus RFC 3042's allowance on the first two duplicate ACKs
    /// (new data only). RFC 6675's sender has its own limited transmit instead (§5
    /// step 3: SACKed bytes leave the pipe).
    fn usable_window(&self) -> u64 {
        let st = &self.st;
        let mut cwnd = st.cwnd;
        let rfc3042 = self.limits.limited_transmit && !self.recovery.limits_by_pipe();
        if rfc3042 && !st.in_recovery && st.dupacks > 0 && st.dupacks < st.dupack_threshold && st.snd_nxt == st.snd_max {
            cwnd += st.dupacks.min(2) as u64 * st.mss;
        }
        cwnd.min(self.limits.receiver())
    }

    /// The segment [seq, seq + len) is decided at `now`: it is stamped at its departure
    /// (`now` unless paced, as Linux stamps `skb_mstamp_ns` with `tcp_wstamp_ns`) and
    /// returned, or held until then.
    fn emit(&mut self, now: SimTime, seq: u64, len: u64, retx: Option<RetxCause>) -> Option<Packet> {
        let rate = self.pacing_rate();
        if let Some(bytes_per_s) = rate {
            // The pacing trace's feed: one branch when no trace is on (`EventLog`).
            self.events.record(TraceEvent::Pacing { bytes_per_s });
        }
        let at = self.model.pacer.departure(now, len, rate);
        let p = self.make(at, seq, len, retx);
        if at > now {
            self.model.pacer.hold(at, p);
            return None;
        }
        Some(p)
    }

    fn make(&mut self, now: SimTime, seq: u64, len: u64, retx: Option<RetxCause>) -> Packet {
        let mut flags = Flags::default();
        if let Some(cause) = retx {
            flags.set(Flags::RETX);
            self.st.counters.count_retransmit(cause);
        }
        self.timer.on_send(now, seq + len, retx.is_some());
        self.cc.on_send(now, seq, len, retx.is_some());
        self.st.counters.segments_sent += 1;
        self.st.counters.bytes_sent += len;
        self.timer.start_if_stopped(now, self.rtt.rto());
        if self.reads_rate_samples() {
            self.model.rate.on_send(now, SendInfo { seq, len, flight: self.st.flight_size() });
        }
        // mss + header <= 65,535 was checked when the scenario was built (IPv4 length).
        let w = &self.wire;
        let mut p = Packet::tcp_data(w.flow, w.src, w.dst, seq, len as u32, (len as u32 + w.header) as u16);
        self.notices.ecn.mark(&mut flags, retx.is_none());
        p.flags = flags;
        if let Some(fec) = &self.notices.fec {
            p.request_code(fec.code());
        }
        p
    }
}
