//! Constant bit rate over UDP: datagrams of a fixed payload, evenly spaced.

use super::{App, Datagrams, PACKET_SIZE};
use crate::units::{Bytes, Rate, HEADER_SIZE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "cbr"`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CbrApp {
    /// Payload bit rate.
    pub rate: Rate,
    /// Payload bytes per datagram.
    pub packet_size: Bytes,
    /// UDP/IP header bytes added to each datagram (8 + 20).
    #[serde(default = "udp_header")]
    pub header: Bytes,
    /// Stop after this many datagrams; unset = until the run ends.
    #[serde(default)]
    pub packets: Option<u64>,
}

fn udp_header() -> Bytes {
    Bytes(28)
}

impl App for CbrApp {
    fn kind(&self) -> &'static str {
        "cbr"
    }
    fn validate(&self) -> Result<(), String> {
        PACKET_SIZE.check("packet_size", self.packet_size)?;
        HEADER_SIZE.check("header", self.header)?;
        if self.packets == Some(0) {
            return Err("packets: 0 sends nothing; use 1 or more, or leave it unset".into());
        }
        Ok(())
    }
    fn total_bytes(&self) -> Option<u64> {
        self.packets.map(|n| n * self.packet_size.0)
    }
    fn is_stream(&self) -> bool {
        false
    }
    fn datagrams(&self) -> Option<Datagrams> {
        Some(Datagrams { rate: self.rate.0, packet_size: self.packet_size.0, header: self.header.0, packets: self.packets })
    }
}
