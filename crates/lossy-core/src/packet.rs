//! The packet that moves through the simulator: a small `Copy` struct with headers only
//! (DESIGN.md "No allocation per packet"); payload bytes are never materialised.

use crate::time::SimTime;

pub type NodeId = u16;
pub type FlowId = u32;

/// Header flags. Bits, not bools, so the struct stays small.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags(pub u16);

impl Flags {
    /// Explicit loss notification: set on an ACK by a base-station agent or receiver.
    pub const ELN: u16 = 1 << 0;
    /// ECN echo and congestion window reduced (RFC 3168), for the ECN issue.
    pub const ECE: u16 = 1 << 1;
    pub const CWR: u16 = 1 << 2;
    /// ECN-capable transport and congestion experienced (IP codepoints, RFC 3168 §5).
    pub const ECT: u16 = 1 << 3;
    pub const CE: u16 = 1 << 4;
    /// Explicit wireless loss notification (Shagdar), for the 802.11 issue.
    pub const EWLN: u16 = 1 << 5;
    /// The sender transmitted this segment before (a retransmission).
    pub const RETX: u16 = 1 << 6;

    pub fn has(self, bit: u16) -> bool {
        self.0 & bit != 0
    }
    pub fn set(&mut self, bit: u16) {
        self.0 |= bit;
    }
    pub fn clear(&mut self, bit: u16) {
        self.0 &= !bit;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A TCP segment carrying data (`seq`, `len`).
    Data,
    /// A pure TCP acknowledgement (`ack`, `wnd`).
    Ack,
    /// A UDP datagram (`seq` counts datagrams' bytes).
    Udp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique per transmission by an endpoint or agent (for packet captures and debugging).
    pub uid: u64,
    pub flow: FlowId,
    pub src: NodeId,
    pub dst: NodeId,
    pub kind: Kind,
    /// First payload byte (data) in the flow's byte sequence space.
    pub seq: u64,
    /// Cumulative acknowledgement: next byte expected (ACKs).
    pub ack: u64,
    /// Advertised receive window in bytes (ACKs).
    pub wnd: u32,
    /// Payload bytes.
    pub len: u32,
    /// Bytes on the wire: payload plus headers.
    pub size: u32,
    pub flags: Flags,
    /// When the originating endpoint sent it.
    pub sent_at: SimTime,
}

impl Packet {
    pub fn bits(&self) -> u64 {
        self.size as u64 * 8
    }
    pub fn end_seq(&self) -> u64 {
        self.seq + self.len as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packet_stays_small() {
        // Packets are copied through events; keep them within a cache line.
        assert!(std::mem::size_of::<Packet>() <= 64, "{}", std::mem::size_of::<Packet>());
    }

    #[test]
    fn flags_set_and_clear() {
        let mut f = Flags::default();
        f.set(Flags::ELN);
        assert!(f.has(Flags::ELN) && !f.has(Flags::ECE));
        f.clear(Flags::ELN);
        assert!(!f.has(Flags::ELN));
    }
}
