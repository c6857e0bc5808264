//! The TCP sender as an `Endpoint`: what the world sees of it (packets in and out, its
//! one timer, trace events, its part of the flow summary).

use super::metrics::report_window;
use super::sender::TcpSender;
use super::state::SSTHRESH_UNSET;
use crate::packet::{Flags, Packet};
use crate::result::FlowSummary;
use crate::time::SimTime;
use crate::trace::{SEQ_ACKED, SEQ_RESENT, SEQ_SENT};
use crate::endpoint::{Endpoint, StreamProgress, TraceEvent};

impl TcpSender {
    fn record_cwnd(&mut self) {
        let cwnd = self.st.cwnd;
        // RFC 5681 §3.1's initial "arbitrarily high" ssthresh is no threshold yet.
        let ssthresh = (self.st.ssthresh < SSTHRESH_UNSET).then_some(self.st.ssthresh);
        self.events.record(TraceEvent::Cwnd { cwnd, ssthresh });
    }
}

impl Endpoint for TcpSender {
    fn handle_packet(&mut self, now: SimTime, pkt: &Packet) {
        self.handle_ack(now, pkt);
        let una = self.st.snd_una;
        self.events.record(TraceEvent::Seq { event: SEQ_ACKED, seq: una });
        self.record_cwnd();
    }

    fn poll_transmit(&mut self, now: SimTime) -> Option<Packet> {
        let p = self.transmit(now)?;
        if let Some(d) = p.tcp_data_header() {
            let event = if p.flags.has(Flags::RETX) { SEQ_RESENT } else { SEQ_SENT };
            self.events.record(TraceEvent::Seq { event, seq: d.seq });
        }
        Some(p)
    }

    fn poll_event(&mut self) -> Option<TraceEvent> {
        self.events.pop()
    }

    fn enable_events(&mut self) {
        self.events.enable();
    }

    fn next_timeout(&self) -> Option<SimTime> {
        self.timer()
    }

    fn handle_timeout(&mut self, now: SimTime) {
        self.on_timer(now);
        self.record_cwnd();
    }

    fn progress(&self) -> StreamProgress {
        StreamProgress { highest_sent: self.st.snd_max, acked: self.st.snd_una, delivered: 0 }
    }

    fn check_invariants(&self) -> Result<(), String> {
        let st = &self.st;
        if !(st.snd_una <= st.snd_nxt && st.snd_nxt <= st.snd_max) {
            return Err(format!("sender out of order: snd_una {} snd_nxt {} snd_max {}", st.snd_una, st.snd_nxt, st.snd_max));
        }
        self.check_recovery()
    }

    fn report(&mut self, end: SimTime, out: &mut FlowSummary) {
        self.finish_metrics(end);
        let (m, out) = (&self.metrics, &mut out.metrics);
        let mss = self.st.mss as f64;
        self.st.counters.report(out);
        report_window(out, m.cwnd_mean() / mss, m.cwnd_inflated_mean() / mss, m.cwnd_max as f64 / mss);
        m.rtt.report(out);
        out.set("rto_final_s", self.rto().as_secs_f64());
    }
}
