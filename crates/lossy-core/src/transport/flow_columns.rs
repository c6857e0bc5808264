//! The columns every flow's row has, whatever its transport (issue 26 item 2): each
//! list is declared, with its defaults, in the file of the scheme that counts it, and
//! named here in the row's order. A flow whose endpoints do not count a thing keeps the
//! default (a UDP flow's `ce_received` is 0, its `rtt_mean_s` null), so a column has
//! one type across flows and runs. A scheme's own columns (FECTCP's `fectcp_*`) are not
//! listed: it adds them in its `report`, and only its flows have them.

use crate::metrics::{Columns, Metric, Metrics};
use crate::tcp::ecn::EcnReceiver;
use crate::tcp::ewln::EwlnEcho;
use crate::tcp::inference::LossInference;
use crate::tcp::metrics as sender_metrics;
use crate::tcp::state::SenderCounters;
use crate::transport::one_way_delay::OneWayDelay;

/// Bytes the receiver got more than once (every transport's receiver counts them).
const RECEIVER: &Columns = &[("duplicate_bytes", Metric::U64(0))];

/// In the row's order.
pub const FLOW_COLUMNS: &[&Columns] = &[
    SenderCounters::COLUMNS,
    sender_metrics::COLUMNS,
    RECEIVER,
    EcnReceiver::COLUMNS,
    LossInference::COLUMNS,
    EwlnEcho::COLUMNS,
    // Issue 29's delay columns, last so that older columns keep their places.
    sender_metrics::RTT_PERCENTILE_COLUMNS,
    OneWayDelay::COLUMNS,
];

/// A flow's record before its endpoints report: every declared column at its default.
pub fn flow_metrics() -> Metrics {
    Metrics::declared(FLOW_COLUMNS)
}
