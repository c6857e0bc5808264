//! What the sender measures for the run summary: RTT samples and the time-weighted
//! window, with and without fast-recovery inflation.

use super::state::SenderState;
use crate::delay_histogram::DelayRecord;
use crate::metrics::{Columns, Metric, Metrics};
use crate::time::SimTime;

/// The window and RTT columns, which every flow's row has (zeros and nulls for a flow
/// without a window or RTT samples: UDP). TCP's and FECTCP's senders fill them.
pub const COLUMNS: &Columns = &[
    // Time-weighted mean of cwnd without fast-recovery inflation (in recovery, the
    // window it returns to; ns-3's CongestionWindow), in segments.
    ("cwnd_mean_segments", Metric::F64(0.0)),
    // Time-weighted mean of cwnd with fast-recovery inflation (ns-3's
    // CongestionWindowInflated), in segments.
    ("cwnd_inflated_mean_segments", Metric::F64(0.0)),
    // Largest cwnd without fast-recovery inflation, in segments.
    ("cwnd_max_segments", Metric::F64(0.0)),
    ("rtt_samples", Metric::U64(0)),
    ("rtt_mean_s", Metric::OptF64(None)),
    ("rtt_min_s", Metric::OptF64(None)),
    ("rtt_max_s", Metric::OptF64(None)),
    // Retransmission timeout at the end of the run.
    ("rto_final_s", Metric::OptF64(None)),
];

/// Percentiles of the RTT samples (issue 29), in milliseconds, nearest rank within 0.4 %
/// (`delay_histogram.rs`); null without a sample. Their mean is `rtt_mean_s`. Listed
/// last in the flow's row (`transport::flow_columns`), so older columns keep their places.
pub const RTT_PERCENTILE_COLUMNS: &Columns =
    &[("rtt_p50_ms", Metric::OptF64(None)), ("rtt_p95_ms", Metric::OptF64(None)), ("rtt_p99_ms", Metric::OptF64(None))];

/// The window columns of a sender's row, in segments.
pub fn report_window(out: &mut Metrics, mean: f64, inflated_mean: f64, max: f64) {
    out.set("cwnd_mean_segments", mean);
    out.set("cwnd_inflated_mean_segments", inflated_mean);
    out.set("cwnd_max_segments", max);
}

/// The RTT samples a sender took (TCP's and FECTCP's), for the run summary.
#[derive(Clone, Debug, Default)]
pub struct RttSummary {
    pub samples: u64,
    sum_s: f64,
    min_s: f64,
    max_s: f64,
    /// Every sample, for the percentiles (8 bytes until the first).
    hist: DelayRecord,
}

impl RttSummary {
    /// One RTT sample, in seconds.
    pub fn add(&mut self, s: f64) {
        (self.min_s, self.max_s) = if self.samples == 0 { (s, s) } else { (self.min_s.min(s), self.max_s.max(s)) };
        self.samples += 1;
        self.sum_s += s;
        // Back to whole nanoseconds (the samples are SimDurations read as seconds).
        self.hist.record((s * 1e9).round() as u64);
    }

    /// The flow's `rtt_*` columns (mean, min, max and the percentiles stay unset without
    /// a sample).
    pub fn report(&self, out: &mut Metrics) {
        out.set("rtt_samples", self.samples);
        if self.samples > 0 {
            out.set("rtt_mean_s", self.sum_s / self.samples as f64);
            out.set("rtt_min_s", self.min_s);
            out.set("rtt_max_s", self.max_s);
        }
        self.report_percentiles(out);
    }

    /// The flow's `rtt_p*_ms` columns (null without a sample).
    fn report_percentiles(&self, out: &mut Metrics) {
        out.set("rtt_p50_ms", self.hist.quantile_ms(1, 2));
        out.set("rtt_p95_ms", self.hist.quantile_ms(95, 100));
        out.set("rtt_p99_ms", self.hist.quantile_ms(99, 100));
    }
}

/// RTT samples and the time-weighted window, for the run summary.
#[derive(Clone, Debug, Default)]
pub struct SenderMetrics {
    pub rtt: RttSummary,
    /// Largest window without fast-recovery inflation, as `cwnd_mean` counts it: the
    /// inflation is an accounting device of recovery, not a window the path sustained.
    pub cwnd_max: u64,
    /// Largest cwnd, fast-recovery inflation included.
    pub cwnd_inflated_max: u64,
    /// Integral of the window without inflation (`SenderState::cwnd_uninflated`) over
    /// time, in byte-seconds.
    cwnd_area: f64,
    /// Integral of cwnd, inflation included, in byte-seconds.
    cwnd_inflated_area: f64,
    cwnd_since: Option<SimTime>,
    active_s: f64,
}

impl SenderMetrics {
    pub fn new() -> Self {
        SenderMetrics::default()
    }

    /// The sender started at `now` with the window in `st`.
    pub fn start(&mut self, now: SimTime, st: &SenderState) {
        self.cwnd_since = Some(now);
        self.cwnd_max = st.cwnd;
        self.cwnd_inflated_max = st.cwnd;
    }

    /// Accumulates the time-weighted windows up to `now`; call before cwnd changes.
    pub fn account(&mut self, now: SimTime, st: &SenderState) {
        if let Some(since) = self.cwnd_since {
            let dt = (now - since).as_secs_f64();
            self.cwnd_area += st.cwnd_uninflated() as f64 * dt;
            self.cwnd_inflated_area += st.cwnd as f64 * dt;
            self.active_s += dt;
            self.cwnd_since = Some(now);
        }
    }

    /// Notes the window's maxima after a change.
    pub fn note(&mut self, st: &SenderState) {
        self.cwnd_max = self.cwnd_max.max(st.cwnd_uninflated());
        self.cwnd_inflated_max = self.cwnd_inflated_max.max(st.cwnd);
    }

    /// Closes the window integrals at the end of the run.
    pub fn finish(&mut self, now: SimTime, st: &SenderState) {
        self.account(now, st);
        self.cwnd_since = None;
    }

    /// One RTT sample, in seconds.
    pub fn rtt(&mut self, s: f64) {
        self.rtt.add(s);
    }

    /// Time-weighted mean window without fast-recovery inflation: during Reno/NewReno
    /// recovery the window recovery returns to (ssthresh after a loss), else cwnd.
    pub fn cwnd_mean(&self) -> f64 {
        self.time_mean(self.cwnd_area)
    }

    /// Time-weighted mean of cwnd with fast-recovery inflation, as the sender uses it.
    pub fn cwnd_inflated_mean(&self) -> f64 {
        self.time_mean(self.cwnd_inflated_area)
    }

    fn time_mean(&self, area: f64) -> f64 {
        if self.active_s > 0.0 {
            area / self.active_s
        } else {
            0.0
        }
    }
}

