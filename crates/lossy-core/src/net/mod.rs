//! Nodes are plain indices; links are pairs of `LinkDir`s; routes are static.

pub mod link;
pub mod pipeline;
pub mod queue;
pub mod routing;

pub use link::{LinkCounters, LinkDir};
pub use queue::DropTail;
pub use routing::Routes;
