//! The contract between the world and a flow's two ends (docs/architecture.md#sans-io):
//! what an endpoint is asked and what it reports. Below `transport` and `tcp`, so a
//! transport's endpoints implement it without the family list and its members importing
//! each other.

use crate::packet::Packet;
use crate::result::FlowSummary;
use crate::time::SimTime;

/// What an endpoint reports for traces (recorded only when a trace is switched on).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TraceEvent {
    /// The congestion window and slow-start threshold, in bytes (`None` while the
    /// sender has no threshold yet: RFC 5681 §3.1's initial "arbitrarily high" one).
    Cwnd { cwnd: u64, ssthresh: Option<u64> },
    /// A segment sent, resent or cumulatively acknowledged (`trace::SEQ_*`).
    Seq { event: u8, seq: u64 },
    /// The pacing rate the congestion control asked for as a segment was decided, in
    /// bytes/s (not reported when it asks for none).
    Pacing { bytes_per_s: f64 },
}

/// How far a flow's byte stream has got at one endpoint, for the whole-run checks that
/// pair a sender with its receiver.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamProgress {
    /// One past the highest byte sent (senders).
    pub highest_sent: u64,
    /// Bytes the peer acknowledged (senders with acknowledgements).
    pub acked: u64,
    /// Bytes delivered to the application in order (receivers).
    pub delivered: u64,
}

pub trait Endpoint {
    /// A packet addressed to this endpoint arrived.
    fn handle_packet(&mut self, now: SimTime, pkt: &Packet);
    /// The next packet to send now, if any; called until it returns `None`.
    fn poll_transmit(&mut self, now: SimTime) -> Option<Packet>;
    /// The next trace event, if any; called until it returns `None`.
    fn poll_event(&mut self) -> Option<TraceEvent> {
        None
    }
    /// Asks the endpoint to produce trace events (off by default: they cost memory).
    fn enable_events(&mut self) {}
    /// When the endpoint next wants `handle_timeout` (its start, a retransmission
    /// timer, a delayed ACK, the next datagram).
    fn next_timeout(&self) -> Option<SimTime>;
    fn handle_timeout(&mut self, now: SimTime);
    /// Progress of the byte stream at this end.
    fn progress(&self) -> StreamProgress;
    /// Bytes delivered to the application in order (receivers; 0 for senders).
    fn delivered(&self) -> u64 {
        self.progress().delivered
    }
    /// Bytes the throughput trace counts (receivers): those delivered, unless the
    /// application gets its data in one piece (FECTCP's file at decoding), when the rate
    /// of useful data received is what the trace shows.
    fn rate_bytes(&self) -> u64 {
        self.delivered()
    }
    /// Checks the endpoint's own state at the end of a run.
    fn check_invariants(&self) -> Result<(), String> {
        Ok(())
    }
    /// Fills this side's part of the flow's summary at the end of the run.
    fn report(&mut self, end: SimTime, out: &mut FlowSummary);
    /// A line for the run's notes: something this side was set up for that never
    /// happened, though the run is valid (e.g. Syndrome with no counter upstream).
    fn note(&self) -> Option<String> {
        None
    }
    /// Whether it takes packets whose payload was lost on the way (CORRUPT: a header
    /// passed up by EWLN at the MAC, Shagdar §III A). Only a receiver that answers them
    /// (an EWLN TCP receiver) does; the world hands such packets to no other endpoint,
    /// so a lost payload is never counted as received.
    fn takes_corrupt(&self) -> bool {
        false
    }
}

/// The trace events an endpoint has produced and not yet handed over; records nothing
/// until enabled, so runs without traces pay one branch per event. The queue is boxed
/// when enabled: one word in every sender instead of 40 B (issue 28).
#[derive(Debug, Default)]
pub struct EventLog {
    queue: Option<Box<std::collections::VecDeque<TraceEvent>>>,
}

impl EventLog {
    pub fn enable(&mut self) {
        self.queue.get_or_insert_with(Box::default);
    }

    #[inline]
    pub fn record(&mut self, e: TraceEvent) {
        if let Some(q) = &mut self.queue {
            q.push_back(e);
        }
    }

    pub fn pop(&mut self) -> Option<TraceEvent> {
        self.queue.as_mut()?.pop_front()
    }
}

