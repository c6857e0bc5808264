//! The columns every link direction's row has, whatever its segment (issue 26 item 2):
//! each list is declared, with its defaults, in the file of the part that counts it,
//! and named here in the row's order. A direction whose parts do not count a thing
//! keeps the default (a WLAN pair's `link_naks_sent` is 0, `queue_avg_packets` null
//! without RED). A segment's own columns (a WLAN pair's MAC counts) are not listed: it
//! sets them in its `report`, and only its rows have them.

use super::pipeline::PipelineCounters;
use super::queue::QueueStats;
use super::queue_delay::QueueDelay;
use crate::link::LinkLayerCounters;
use crate::metrics::{Columns, Metric, Metrics};

/// Packets a retrying link layer gave up on (its residual failures), counted by the
/// segment as `LinkRetry` drops.
const RETRY_DROPS: &Columns = &[("link_retry_drops", Metric::U64(0))];
/// Packets dropped because the link was or went down (`LinkDown`).
const DOWN_DROPS: &Columns = &[("link_down_drops", Metric::U64(0))];

/// In the row's order (issue 29's queue delay last, so older columns keep their places).
pub const LINK_COLUMNS: &[&Columns] =
    &[RETRY_DROPS, LinkLayerCounters::COLUMNS, DOWN_DROPS, PipelineCounters::COLUMNS, QueueStats::COLUMNS, QueueDelay::COLUMNS];

/// A direction's record before its parts report: every declared column at its default.
pub fn link_metrics() -> Metrics {
    Metrics::declared(LINK_COLUMNS)
}
