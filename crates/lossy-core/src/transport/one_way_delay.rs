//! The one-way delay of a flow's delivered data packets (issue 29): from the sending
//! endpoint's transmission (`Packet::sent_ns`, stamped by the world as the packet leaves
//! the endpoint; a retransmission is a new transmission) to its arrival at the receiving
//! endpoint. The world records it for every transport (TCP, FECTCP, UDP), so none of them
//! needs to; a header whose payload a WLAN lost (CORRUPT) is not a delivery and is left
//! out, as `packets_delivered` leaves it out.

use crate::delay_histogram::{DelayHistogram, DelayRecord};
use crate::metrics::{Columns, Metric, Metrics};
use crate::packet::Packet;
use crate::time::SimTime;

/// A flow's one-way delays (8 bytes until its first delivery).
#[derive(Clone, Debug, Default)]
pub struct OneWayDelay(DelayRecord);

impl OneWayDelay {
    /// Percentiles (nearest rank, within 0.4 %: `delay_histogram.rs`) and the exact mean
    /// of the one-way delay, in milliseconds; null for a flow that delivered no data.
    pub const COLUMNS: &'static Columns = &[
        ("owd_p50_ms", Metric::OptF64(None)),
        ("owd_p95_ms", Metric::OptF64(None)),
        ("owd_p99_ms", Metric::OptF64(None)),
        ("owd_mean_ms", Metric::OptF64(None)),
    ];

    /// Data packet `pkt` reached its receiver at `now`; returns its one-way delay (None
    /// for a packet without a transmission stamp: an ACK).
    #[inline]
    pub fn record(&mut self, now: SimTime, pkt: &Packet) -> Option<u64> {
        let sent = pkt.sent_at()?;
        let ns = now.0 - sent.0;
        self.0.record(ns);
        Some(ns)
    }

    pub fn report(&self, out: &mut Metrics) {
        out.set("owd_p50_ms", self.0.quantile_ms(1, 2));
        out.set("owd_p95_ms", self.0.quantile_ms(95, 100));
        out.set("owd_p99_ms", self.0.quantile_ms(99, 100));
        out.set("owd_mean_ms", self.0.mean_ms());
    }

    /// The delays recorded so far (None before the first delivery), for pooling over
    /// flows (`aggregate::PooledDelay`).
    pub fn histogram(&self) -> Option<&DelayHistogram> {
        self.0.get()
    }

    /// Bytes held (`layout_tests.rs`, the scale notes).
    pub fn bytes(&self) -> usize {
        self.0.bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_delay_runs_from_the_stamp_to_the_arrival_and_acks_have_none() {
        let mut d = OneWayDelay::default();
        let mut p = Packet::udp(0, 0, 1, 0, 1000, 1028);
        p.stamp_sent(SimTime(5_000_000));
        assert_eq!(d.record(SimTime(25_000_000), &p), Some(20_000_000));
        assert_eq!(d.record(SimTime(30_000_000), &Packet::tcp_ack(0, 1, 0, 1000, 65535, 40)), None);
        let mut m = Metrics::declared(&[OneWayDelay::COLUMNS]);
        d.report(&mut m);
        assert_eq!((m.f64("owd_p50_ms"), m.f64("owd_p99_ms"), m.f64("owd_mean_ms")), (20.0, 20.0, 20.0));
        let mut empty = Metrics::declared(&[OneWayDelay::COLUMNS]);
        OneWayDelay::default().report(&mut empty);
        assert_eq!(empty.opt_f64("owd_p95_ms"), None);
    }
}
