//! How long packets wait in a link direction's queue, and how long the queue is (issue 29):
//! each packet's sojourn, from its arrival at the direction (offered to the queue
//! discipline and accepted) to the start of its service (dequeued for the link layer),
//! and the queue's length in packets and bytes, time-weighted over the run. The packet
//! being sent is not in the queue (as a drop-tail limit does not count it).
//!
//! The time-weighted length needs no clock of its own (Little's law, counted per packet):
//! the integral of the queue's length over the run is the sum of every packet's time in
//! it, so the packets' sojourns, the waits of those dropped from the queue and those still
//! waiting at the end add up to it exactly, and the same sums weighted by size give bytes.
//!
//! The direction keeps its own list of the packets waiting, by uid, rather than asking
//! the discipline: every discipline gets the measure without a line of its own. A
//! discipline that serves in arrival order (drop-tail, RED) finds the dequeued packet at
//! the list's front. One that drops from inside its queue leaves entries behind: those
//! before the dequeued packet's, and any while the list is longer than the queue, are
//! dropped packets in a first-in-first-out discipline and are discarded unrecorded.

use crate::delay_histogram::DelayHistogram;
use crate::metrics::{Columns, Metric, Metrics};
use crate::time::SimTime;
use std::collections::VecDeque;

/// A packet waiting: its uid, arrival time (ns) and size.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    uid: u64,
    at: u64,
    size: u16,
}

#[derive(Clone, Debug, Default)]
pub struct QueueDelay {
    waiting: VecDeque<Waiting>,
    /// Bytes of the packets in `waiting`.
    bytes: u64,
    /// Sojourns of the packets served; its exact sum is their part of the packet·ns area.
    sojourn: DelayHistogram,
    /// The packet·ns and byte·ns of packets that left the queue other than by service
    /// (dropped from it, or flushed when the link went down), and the byte·ns of those
    /// served: with the sojourns' sum, the integrals of the queue's length over time.
    unserved_packet_ns: u128,
    byte_ns: u128,
    max_packets: u64,
    max_bytes: u64,
    /// (dequeue time, sojourn) of every packet, in ns, when the sojourn trace is on.
    trace: Option<Vec<(u64, u64)>>,
}

impl QueueDelay {
    /// Their columns, which every link direction's row has (a WLAN pair's: its packets in
    /// the sending station's queue). Sojourn percentiles are nearest rank within 0.4 %
    /// (`delay_histogram.rs`), null without a packet served; the means are exact.
    pub const COLUMNS: &'static Columns = &[
        ("sojourn_p50_ms", Metric::OptF64(None)),
        ("sojourn_p95_ms", Metric::OptF64(None)),
        ("sojourn_p99_ms", Metric::OptF64(None)),
        ("sojourn_mean_ms", Metric::OptF64(None)),
        ("queue_mean_packets", Metric::OptF64(None)),
        ("queue_mean_bytes", Metric::OptF64(None)),
        // Floats, though whole: they were null on a WLAN's rows before it measured its
        // queues, and a store's parts must agree on a column's type.
        ("queue_max_packets", Metric::OptF64(None)),
        ("queue_max_bytes", Metric::OptF64(None)),
    ];

    /// A packet that left the queue unserved at `now`: its wait counts in the length.
    fn unserved(&mut self, w: Waiting, now: u64) {
        let waited = now.saturating_sub(w.at) as u128;
        self.unserved_packet_ns += waited;
        self.byte_ns += w.size as u128 * waited;
        self.bytes -= w.size as u64;
    }

    /// Packet `uid` of `size` bytes joined the queue at `now`.
    #[inline]
    fn arrived(&mut self, now: SimTime, uid: u64, size: u16) {
        self.waiting.push_back(Waiting { uid, at: now.0, size });
        self.bytes += size as u64;
        self.max_packets = self.max_packets.max(self.waiting.len() as u64);
        self.max_bytes = self.max_bytes.max(self.bytes);
    }

    /// Packet `uid` left the queue for the link at `now`; `queued` packets remain.
    #[inline]
    fn left(&mut self, now: SimTime, uid: u64, queued: usize) {
        let w = match self.waiting.front() {
            Some(&w) if w.uid == uid => {
                self.waiting.pop_front();
                w
            }
            _ => match self.take_out_of_order(uid) {
                Some(w) => w,
                None => return,
            },
        };
        self.bytes -= w.size as u64;
        let sojourn = now.0 - w.at;
        self.sojourn.record(sojourn);
        self.byte_ns += w.size as u128 * sojourn as u128;
        if let Some(t) = &mut self.trace {
            t.push((now.0, sojourn));
        }
        if self.waiting.len() > queued {
            self.discard_dropped(now.0, queued);
        }
    }

    /// A discipline that did not serve the oldest packet: `uid`'s entry, wherever it is;
    /// in a first-in-first-out discipline the ones before it were dropped from the queue.
    #[cold]
    #[inline(never)]
    fn take_out_of_order(&mut self, uid: u64) -> Option<Waiting> {
        let i = self.waiting.iter().position(|w| w.uid == uid)?;
        self.waiting.remove(i)
    }

    /// Entries of packets the discipline dropped from inside its queue, oldest first,
    /// until the list is as long as the queue.
    #[cold]
    #[inline(never)]
    fn discard_dropped(&mut self, now: u64, queued: usize) {
        while self.waiting.len() > queued {
            let w = self.waiting.pop_front().expect("longer than the queue");
            self.unserved(w, now);
        }
    }

    /// The discipline dropped packet `uid` at `now`: an arrival it refused (the newest
    /// entry), a head drop (the oldest) or one from inside its queue (FQ-CoDel's fattest
    /// flow). Its wait counts in the length, not as a sojourn.
    fn dropped(&mut self, now: SimTime, uid: u64) {
        let i = match (self.waiting.back(), self.waiting.front()) {
            (Some(w), _) if w.uid == uid => self.waiting.len() - 1,
            (_, Some(w)) if w.uid == uid => 0,
            _ => match self.waiting.iter().position(|w| w.uid == uid) {
                Some(i) => i,
                None => return,
            },
        };
        if let Some(w) = self.waiting.remove(i) {
            self.unserved(w, now.0);
        }
    }

    /// The link went down at `now`: everything waiting is dropped, unserved.
    fn flushed(&mut self, now: SimTime) {
        while let Some(w) = self.waiting.pop_front() {
            self.unserved(w, now.0);
        }
    }

    /// The columns of a run that ended at `end_s` seconds.
    fn report(&self, end_s: f64, out: &mut Metrics) {
        let end = (end_s * 1e9).round() as u64;
        let (mut packets, mut bytes) = (self.sojourn.sum() + self.unserved_packet_ns, self.byte_ns);
        for w in &self.waiting {
            let waited = end.saturating_sub(w.at) as u128;
            packets += waited;
            bytes += w.size as u128 * waited;
        }
        let mean = |area: u128| if end > 0 { area as f64 / end as f64 } else { 0.0 };
        let ms = |ns: Option<f64>| ns.map(|ns| ns * 1e-6);
        out.set("sojourn_p50_ms", ms(self.sojourn.quantile(1, 2)));
        out.set("sojourn_p95_ms", ms(self.sojourn.quantile(95, 100)));
        out.set("sojourn_p99_ms", ms(self.sojourn.quantile(99, 100)));
        out.set("sojourn_mean_ms", ms(self.sojourn.mean()));
        out.set("queue_mean_packets", mean(packets));
        out.set("queue_mean_bytes", mean(bytes));
        out.set("queue_max_packets", self.max_packets as f64);
        out.set("queue_max_bytes", self.max_bytes as f64);
    }
}

/// A direction's `QueueDelay`, allocated at its first arrival (8 bytes for a direction
/// that never queues a packet), or when it is built if the sojourn trace is on.
#[derive(Clone, Debug, Default)]
pub struct QueueDelayRecord(Option<Box<QueueDelay>>);

impl QueueDelayRecord {
    /// With the sojourn trace on, the record exists from the start and keeps every sample.
    pub fn new(trace: bool) -> Self {
        QueueDelayRecord(trace.then(|| Box::new(QueueDelay { trace: Some(Vec::new()), ..QueueDelay::default() })))
    }

    #[inline]
    pub fn arrived(&mut self, now: SimTime, uid: u64, size: u16) {
        match &mut self.0 {
            Some(q) => q.arrived(now, uid, size),
            None => self.first(now, uid, size),
        }
    }

    #[cold]
    #[inline(never)]
    fn first(&mut self, now: SimTime, uid: u64, size: u16) {
        self.0.get_or_insert_with(Box::default).arrived(now, uid, size);
    }

    #[inline]
    pub fn left(&mut self, now: SimTime, uid: u64, queued: usize) {
        if let Some(q) = &mut self.0 {
            q.left(now, uid, queued);
        }
    }

    #[inline]
    pub fn dropped(&mut self, now: SimTime, uid: u64) {
        if let Some(q) = &mut self.0 {
            q.dropped(now, uid);
        }
    }

    pub fn flushed(&mut self, now: SimTime) {
        if let Some(q) = &mut self.0 {
            q.flushed(now);
        }
    }

    /// When the oldest packet waiting joined the queue (`now` when none is known): the
    /// head of a discipline that serves in arrival order, which a capacity that serves
    /// only packets queued before its opportunity asks about (`Capacity::first_service`).
    #[inline]
    pub fn head_arrival(&self, now: SimTime) -> SimTime {
        self.0.as_ref().and_then(|q| q.waiting.front()).map_or(now, |w| SimTime(w.at))
    }

    /// The direction's columns: zeros and nulls for a queue that never held a packet.
    pub fn report(&self, end_s: f64, out: &mut Metrics) {
        // Read in place: a clone would copy the histogram and, with the trace on, every
        // sample, once per direction per run.
        match self.0.as_deref() {
            Some(q) => q.report(end_s, out),
            None => QueueDelay::default().report(end_s, out),
        }
    }

    /// The sojourn trace's samples, (dequeue time, sojourn) in ns.
    pub fn trace(&self) -> &[(u64, u64)] {
        self.0.as_ref().and_then(|q| q.trace.as_deref()).unwrap_or(&[])
    }

    /// Bytes held, the 8 inline ones included.
    pub fn bytes(&self) -> usize {
        8 + self.0.as_ref().map_or(0, |q| {
            std::mem::size_of::<QueueDelay>() + q.waiting.capacity() * std::mem::size_of::<Waiting>() + q.sojourn.bytes()
                - std::mem::size_of::<DelayHistogram>()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn t(ms: u64) -> SimTime {
        SimTime(ms * MS)
    }

    fn row(q: &QueueDelayRecord, end_s: f64) -> Metrics {
        let mut m = Metrics::declared(&[QueueDelay::COLUMNS]);
        q.report(end_s, &mut m);
        m
    }

    #[test]
    fn sojourns_and_the_time_weighted_length_of_a_fifo() {
        let mut q = QueueDelayRecord::default();
        // Two 1000 B packets at 0 ms; one served at once (sojourn 0), the other at 10 ms;
        // a third arrives at 10 ms and is served at 20 ms. Over 40 ms the queue held one
        // packet for 20 ms: a mean of 0.5 packets, 500 B.
        q.arrived(t(0), 1, 1000);
        q.left(t(0), 1, 0);
        q.arrived(t(0), 2, 1000);
        q.left(t(10), 2, 0);
        q.arrived(t(10), 3, 1000);
        q.left(t(20), 3, 0);
        let m = row(&q, 0.040);
        assert_eq!((m.f64("queue_mean_packets"), m.f64("queue_mean_bytes")), (0.5, 500.0));
        assert_eq!((m.f64("queue_max_packets"), m.f64("queue_max_bytes")), (1.0, 1000.0));
        // Sojourns 0, 10, 10 ms: nearest-rank p50 is the 2nd, 10 ms (to the histogram's
        // 2^-8); p99 the 3rd, 10 ms, exact as the maximum bounds it.
        assert!((m.f64("sojourn_p50_ms") - 10.0).abs() <= 10.0 / 256.0, "{}", m.f64("sojourn_p50_ms"));
        assert!((m.f64("sojourn_p99_ms") - 10.0).abs() <= 10.0 / 256.0);
        assert!((m.f64("sojourn_mean_ms") - 20.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_queue_that_never_held_a_packet_reports_zeros_and_no_sojourn() {
        let m = row(&QueueDelayRecord::default(), 1.0);
        assert_eq!((m.f64("queue_mean_packets"), m.f64("queue_max_bytes")), (0.0, 0.0));
        assert_eq!(m.opt_f64("sojourn_p95_ms"), None);
    }

    #[test]
    fn packets_a_discipline_dropped_from_its_queue_are_discarded_unrecorded() {
        let mut q = QueueDelayRecord::default();
        for uid in 1..=3 {
            q.arrived(t(0), uid, 100);
        }
        // A head-dropping discipline dropped 1 and served 2 at 5 ms: 1 leaves the list.
        q.left(t(5), 2, 1);
        // Three waited 5 ms, then one to the end of the 10 ms run: (3·5 + 1·5) / 10 = 2.
        let m = row(&q, 0.010);
        assert_eq!(m.f64("queue_mean_packets"), 2.0);
        assert_eq!(q.0.as_ref().unwrap().sojourn.count(), 1);
        assert_eq!(m.f64("sojourn_p50_ms"), 5.0);
    }

    #[test]
    fn the_trace_keeps_every_sojourn_when_on() {
        let mut q = QueueDelayRecord::new(true);
        q.arrived(t(1), 7, 100);
        q.left(t(4), 7, 0);
        assert_eq!(q.trace(), &[(4 * MS, 3 * MS)]);
        assert!(QueueDelayRecord::default().trace().is_empty());
    }
}
