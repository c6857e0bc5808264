//! Issue 26 item 1, family by family: a scheme is named only in its own file and its
//! family's lists (the closed lists in `mod.rs`/`config.rs`), so adding one touches
//! nothing else. Each block reads the crate's source (`source_reading`: test code,
//! comments and strings left out) and fails on a consumer that names or dispatches on one.

#[path = "../common/source_reading.rs"]
mod source_reading;

mod tcp_families;
mod transport_and_app_families;
mod result_metrics;
mod link_families;
mod channel_agent_capacity_families;
mod recipe;
