//! TCP as sans-IO state machines (DESIGN.md): the sender and receiver are fed events and
//! polled for packets and wake-up times; only the engine owns the clock.

pub mod adaptive_fec;
pub mod config;
pub mod congestion;
pub mod ewln;
pub(crate) mod ecn;
mod endpoint;
pub mod inference;
pub mod metrics;
pub mod receiver;
pub mod recovery;
pub mod rtt;
pub mod sack;
mod sack_blocks;
pub mod scoreboard;
pub mod sender;
pub mod state;

pub use config::{TcpConfig, Variant};
pub use receiver::TcpReceiver;
pub use sender::TcpSender;
