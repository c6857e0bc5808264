//! `lossy-core`: a packet-level simulator of TCP over lossy wireless links.
//! See DESIGN.md for the module map; this crate never depends on Python.

pub mod rng;
pub mod time;
pub mod units;
pub mod channel;
pub mod engine;
pub mod packet;
pub mod tcp;
