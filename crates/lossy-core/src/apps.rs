//! Applications: what a flow carries. Bulk and file transfers ride on TCP; constant
//! bit rate rides on UDP.

use crate::units::{Bytes, Rate, SizeRange, HEADER_SIZE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AppConfig {
    /// An unlimited TCP transfer (ns-2 FTP, ns-3 BulkSend with MaxBytes 0).
    // An empty struct variant, not a unit one: serde lets a unit variant of an
    // internally tagged enum accept unknown fields (`{kind = "bulk", size = "10 kB"}`).
    Bulk {},
    /// A TCP transfer of `size` bytes; its completion time is recorded.
    File {
        /// Bytes to transfer.
        size: Bytes,
    },
    /// Constant-bit-rate UDP: `packet_size`-byte datagrams (payload) at `rate`.
    Cbr {
        /// Payload bit rate.
        rate: Rate,
        /// Payload bytes per datagram.
        packet_size: Bytes,
        /// UDP/IP header bytes added to each datagram (8 + 20).
        #[serde(default = "udp_header")]
        header: Bytes,
        /// Stop after this many datagrams; unset = until the run ends.
        #[serde(default)]
        packets: Option<u64>,
    },
}

impl Default for AppConfig {
    fn default() -> Self {
        AppConfig::Bulk {}
    }
}

/// A datagram's payload; 65,000 leaves room for headers in IPv4's 65,535.
pub const PACKET_SIZE: SizeRange = SizeRange { lo: 1, hi: 65_000 };

fn udp_header() -> Bytes {
    Bytes(28)
}

impl AppConfig {
    pub fn kind(&self) -> &'static str {
        match self {
            AppConfig::Bulk {} => "bulk",
            AppConfig::File { .. } => "file",
            AppConfig::Cbr { .. } => "cbr",
        }
    }

    pub fn is_tcp(&self) -> bool {
        !matches!(self, AppConfig::Cbr { .. })
    }

    /// Total bytes a TCP application writes; `None` = unlimited.
    pub fn tcp_bytes(&self) -> Option<u64> {
        match self {
            AppConfig::File { size } => Some(size.0),
            _ => None,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        match self {
            AppConfig::File { size } if size.0 == 0 => Err("size: 0 B is not a transfer; use at least 1 B".into()),
            AppConfig::Cbr { packet_size, header, .. } if PACKET_SIZE.check("packet_size", *packet_size).is_err() || HEADER_SIZE.check("header", *header).is_err() => {
                PACKET_SIZE.check("packet_size", *packet_size).and(HEADER_SIZE.check("header", *header))
            }
            AppConfig::Cbr { packets: Some(0), .. } => Err("packets: 0 sends nothing; use 1 or more, or leave it unset".into()),
            _ => Ok(()),
        }
    }
}
