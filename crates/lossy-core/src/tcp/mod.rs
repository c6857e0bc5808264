//! TCP as sans-IO state machines (docs/architecture.md#sans-io): the sender and receiver
//! are fed events and polled for packets and wake-up times; only the engine owns the
//! clock.
//!
//! Two scheme families live here, each a trait, one file per scheme and a `closed_enum!`
//! list the config builds: congestion control (`cc/`) and loss recovery (`recovery/`).
//! The sender (`sender.rs`, `transmit.rs`, `notices.rs`) names neither family's schemes.

pub mod adaptive_fec;
pub mod cc;
pub mod config;
pub mod delivery_rate;
pub mod ewln;
pub(crate) mod ecn;
mod endpoint;
pub mod inference;
pub mod metrics;
mod notices;
pub mod pacing;
pub mod pacing_choice;
pub mod rate_sample;
pub mod receiver;
pub mod recovery;
mod rto_timer;
pub mod rtt;
mod sack_blocks;
pub mod scoreboard;
pub mod sender;
pub mod state;
mod transmit;

pub use config::TcpConfig;
pub use recovery::LossRecoveryConfig;
pub use receiver::TcpReceiver;
pub use sender::TcpSender;
