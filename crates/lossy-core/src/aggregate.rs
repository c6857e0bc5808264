//! Aggregates over flows for the run summary (docs/architecture.md#run-result): a run
//! with 10,000 flows still gets a one-row summary that says how much, how fairly, and
//! how late.

use crate::delay_histogram::DelayHistogram;
use serde::Serialize;

/// Goodput statistics over a set of flows, and the one-way delay of all their data
/// packets pooled.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlowAggregates {
    /// Number of flows.
    pub flows: u64,
    pub goodput_mean_bps: f64,
    pub goodput_min_bps: f64,
    pub goodput_p5_bps: f64,
    pub goodput_p50_bps: f64,
    pub goodput_p95_bps: f64,
    /// Jain's fairness index, (Σx)² / (n·Σx²): 1 when every flow gets the same goodput,
    /// 1/n when one flow gets everything.
    pub jain_index: f64,
    /// Percentiles (ms) of the one-way delay of every data packet the flows delivered,
    /// pooled: a flow that delivered more weighs more. Pantheon's delay axis with several
    /// flows is this pool's p95 (src/analysis/tunnel_graph.py, `total_percentile_delay`:
    /// np.percentile over every flow's delays together). None when nothing was delivered.
    pub owd_pooled_p50_ms: Option<f64>,
    pub owd_pooled_p95_ms: Option<f64>,
    pub owd_pooled_p99_ms: Option<f64>,
}

impl FlowAggregates {
    /// The statistics of `goodputs` (bit/s, in flow order; NaN for an empty set) and of
    /// the flows' one-way delay histograms `delays` merged.
    pub fn of<'a>(goodputs: &[f64], delays: impl IntoIterator<Item = &'a DelayHistogram>) -> Self {
        let mut pooled = DelayHistogram::default();
        delays.into_iter().for_each(|h| pooled.merge(h));
        let ms = |num, den| pooled.quantile(num, den).map(|ns| ns * 1e-6);
        let mut sorted = goodputs.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len() as f64;
        // Summed in flow order, so the result does not depend on how the sort breaks ties.
        let sum: f64 = goodputs.iter().sum();
        FlowAggregates {
            flows: goodputs.len() as u64,
            goodput_mean_bps: sum / n,
            goodput_min_bps: sorted.first().copied().unwrap_or(f64::NAN),
            goodput_p5_bps: percentile(&sorted, 0.05),
            goodput_p50_bps: percentile(&sorted, 0.50),
            goodput_p95_bps: percentile(&sorted, 0.95),
            jain_index: jain(goodputs),
            owd_pooled_p50_ms: ms(1, 2),
            owd_pooled_p95_ms: ms(95, 100),
            owd_pooled_p99_ms: ms(99, 100),
        }
    }
}

/// The `q`-quantile of ascending `sorted` by linear interpolation between the closest
/// ranks (Hyndman and Fan's type 7, NumPy's and R's default): h = (n − 1)·q, then
/// x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋ + 1] − x[⌊h⌋]). NaN for an empty slice.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let Some(last) = sorted.len().checked_sub(1) else { return f64::NAN };
    let h = last as f64 * q;
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(last);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Jain's fairness index (Jain, Chiu and Hawe 1984). All flows at zero goodput count as
/// perfectly fair (1.0), not NaN: the index measures how equal the shares are, every
/// share is equal, and 1 is the limit as equal goodputs tend to zero. NaN for no flows.
pub fn jain(x: &[f64]) -> f64 {
    if x.is_empty() {
        return f64::NAN;
    }
    let sum: f64 = x.iter().sum();
    let sq: f64 = x.iter().map(|v| v * v).sum();
    if sq == 0.0 {
        return 1.0;
    }
    sum * sum / (x.len() as f64 * sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_between_closest_ranks() {
        // By hand: n = 5, h = 4q. q = 0.05: h = 0.2 → 10 + 0.2·10 = 12;
        // q = 0.5: h = 2 → 30; q = 0.95: h = 3.8 → 40 + 0.8·60 = 88.
        let x = [10.0, 20.0, 30.0, 40.0, 100.0];
        assert_eq!(percentile(&x, 0.05), 12.0);
        assert_eq!(percentile(&x, 0.5), 30.0);
        assert!((percentile(&x, 0.95) - 88.0).abs() < 1e-12);
        // n = 4, q = 0.5: h = 1.5 → 2 + 0.5·(3 − 2) = 2.5 (the median of an even count).
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
        assert_eq!(percentile(&[7.0], 0.95), 7.0);
        assert!(percentile(&[], 0.5).is_nan());
    }

    #[test]
    fn jain_index_by_hand() {
        assert_eq!(jain(&[5.0, 5.0, 5.0]), 1.0);
        // One of four flows gets everything: 1/n.
        assert_eq!(jain(&[0.0, 0.0, 8.0, 0.0]), 0.25);
        // (1 + 3)² / (2·(1 + 9)) = 16 / 20.
        assert_eq!(jain(&[1.0, 3.0]), 0.8);
        assert_eq!(jain(&[0.0, 0.0]), 1.0);
    }

    #[test]
    fn aggregates_of_unsorted_goodputs() {
        let a = FlowAggregates::of(&[100.0, 10.0, 40.0, 30.0, 20.0], []);
        assert_eq!((a.flows, a.goodput_mean_bps, a.goodput_min_bps), (5, 40.0, 10.0));
        assert_eq!((a.goodput_p5_bps, a.goodput_p50_bps), (12.0, 30.0));
        assert!((a.goodput_p95_bps - 88.0).abs() < 1e-12);
        assert!((a.jain_index - 40_000.0 / (5.0 * 13_000.0)).abs() < 1e-15);
        assert_eq!((a.owd_pooled_p50_ms, a.owd_pooled_p95_ms), (None, None));
    }

    #[test]
    fn the_delay_percentiles_pool_every_packet_of_every_flow() {
        // Flow 1: 90 packets at 10 ms; flow 2: 10 at 500 ms. Pooled, rank 95 of 100 is a
        // 500 ms packet, though flow 1's own p95 is 10 ms and the per-flow p95s average
        // 255 ms; rank 50 is a 10 ms one.
        let (mut one, mut two) = (DelayHistogram::default(), DelayHistogram::default());
        (0..90).for_each(|_| one.record(10_000_000));
        (0..10).for_each(|_| two.record(500_000_000));
        let a = FlowAggregates::of(&[1.0, 2.0], [&one, &two]);
        assert_eq!((a.owd_pooled_p50_ms, a.owd_pooled_p95_ms, a.owd_pooled_p99_ms), (Some(10.0), Some(500.0), Some(500.0)));
    }
}
