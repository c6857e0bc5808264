//! `lossy-core`: a packet-level simulator of TCP over lossy wireless links.
//! See docs/architecture.md#modules for the module map; this crate never depends on
//! Python.

pub mod aggregate;
pub mod agents;
pub mod apps;
pub mod build_ctx;
pub mod capacity;
pub mod capture;
pub mod channel;
pub mod coding;
pub mod data_file;
pub mod delay_histogram;
mod closed;
pub mod config;
pub mod columns;
pub mod endpoint;
pub mod engine;
pub mod error;
pub mod fate;
pub mod fec_control;
pub mod intervals;
pub mod link;
pub mod metrics;
pub mod net;
pub mod packet;
pub mod result;
pub mod rng;
pub mod run;
pub mod scenario;
pub mod tcp;
pub mod time;
pub mod timers;
pub mod trace;
pub mod transport;
pub mod units;
pub mod world;
mod world_checks;
mod world_tables;
#[cfg(test)]
mod layout_tests;

pub use error::{Error, Result};
pub use result::RunResult;
pub use run::{prepare_json, run, run_json, run_json_reporting, run_prepared, run_reporting, Prepared};
pub use world::Progress;
pub use scenario::{parse_json, schema_json, Scenario};

/// This crate's version, recorded in every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
