//! Transports other than TCP.

pub mod udp;
