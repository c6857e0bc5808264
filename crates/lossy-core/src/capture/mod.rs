//! Packet captures (docs/architecture.md#dependencies: pcap for Wireshark and tshark). A
//! `CaptureSink` is attached to a link direction and records every packet the direction
//! delivers, in memory, as a classic pcap file: nanosecond timestamps (magic
//! 0xa1b23c4d), LINKTYPE_RAW (101, the packet starts at its IPv4 header), captured length
//! = the headers, original length = the IPv4 total length (the packet's size). The
//! bytes go back in the run's result; Python writes them (atomically, like every file).
//!
//! What is captured, and when: a packet that crossed the channel, stamped with the time
//! its last bit reaches the far end (last bit sent + propagation delay), before the
//! impairment stage (reordering and duplication are not shown). Lost packets are not
//! captured: a capture is what the far end of the direction received, so the count of
//! records equals the direction's `packets_delivered`.

pub mod headers;

use crate::packet::Packet;
use crate::time::SimTime;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which link directions a run captures (`[capture]`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CaptureConfig {
    /// Link directions to capture, named as in the results' links table ("BS->MH": from
    /// BS to MH). A top-level list rather than a flag per link, because a capture is of
    /// one direction and a name says which. Empty (the default): none, unless
    /// `lossy run --pcap DIR` is given, which captures every direction when this is empty.
    pub links: Vec<String>,
}

impl CaptureConfig {
    pub fn is_empty(&self) -> bool {
        self.links.is_empty()
    }
}

/// One direction's capture: its name, the records and the pcap file's bytes.
#[derive(Clone, Debug)]
pub struct Capture {
    pub link: String,
    pub packets: u64,
    pub pcap: Vec<u8>,
}

/// pcap's file header (little-endian): magic for nanosecond timestamps, version 2.4,
/// snap length 65,535, LINKTYPE_RAW.
const MAGIC_NS: u32 = 0xa1b2_3c4d;
const LINKTYPE_RAW: u32 = 101;
pub const FILE_HEADER_LEN: usize = 24;
pub const RECORD_HEADER_LEN: usize = 16;

/// Records packets into a pcap byte buffer.
pub struct CaptureSink {
    buf: Vec<u8>,
    packets: u64,
}

impl Default for CaptureSink {
    fn default() -> Self {
        let mut buf = Vec::with_capacity(FILE_HEADER_LEN);
        // Version 2.4 is two u16s: 0x0004_0002 in little-endian is 02 00 04 00.
        for word in [MAGIC_NS, 0x0004_0002, 0, 0, 65535, LINKTYPE_RAW] {
            buf.extend_from_slice(&word.to_le_bytes());
        }
        CaptureSink { buf, packets: 0 }
    }
}

impl CaptureSink {
    /// A record of `pkt` at time `at`.
    pub fn record(&mut self, at: SimTime, pkt: &Packet) {
        let h = headers::encode(pkt);
        let ns = at.0;
        let words = [(ns / 1_000_000_000) as u32, (ns % 1_000_000_000) as u32, h.len as u32, h.total as u32];
        for w in words {
            self.buf.extend_from_slice(&w.to_le_bytes());
        }
        self.buf.extend_from_slice(h.as_slice());
        self.packets += 1;
    }

    pub fn finish(self, link: String) -> Capture {
        Capture { link, packets: self.packets, pcap: self.buf }
    }
}

/// A capture of hand-made packets that sets every field the encoder writes (ECT, CE,
/// ECE, CWR, SACK blocks, ELN, EWLN with its offset, the base-station counter, a FEC
/// request, UDP): for tests of readers such as tshark, and for the documentation.
pub fn example() -> Capture {
    use crate::packet::{Flags, Header, SackBlock};
    let mut sink = CaptureSink::default();
    let mut at = |ms: u64, mut p: Packet, uid: u64, flags: u16| {
        p.uid = uid;
        p.flags.set(flags);
        sink.record(SimTime(ms * 1_000_000 + 123), &p);
    };
    let mut data = Packet::tcp_data(0, 0, 2, 1000, 1000, 1040);
    at(1, data, 1, Flags::ECT);
    at(2, data, 2, Flags::ECT | Flags::CE | Flags::CWR);
    if let Header::TcpData(d) = &mut data.header {
        (d.bs_count, d.bs_epoch, d.fec_code) = (77, 3, 5);
    }
    at(3, data, 3, Flags::CORRUPT);
    let mut ack = Packet::tcp_ack(0, 2, 0, 2000, 100_000, 40 + 28);
    if let Header::TcpAck(a) = &mut ack.header {
        a.sack = [SackBlock { start: 3000, end: 4000 }, SackBlock { start: 1000, end: 2000 }, SackBlock::default()];
    }
    at(4, ack, 4, Flags::ECE);
    if let Header::TcpAck(a) = &mut ack.header {
        a.ewln_offset = 1000;
    }
    at(5, ack, 5, Flags::ELN | Flags::EWLN);
    at(6, Packet::udp(1, 0, 2, 0, 500, 528), 6, 0);
    sink.finish("example".into())
}

#[cfg(test)]
mod tests;
