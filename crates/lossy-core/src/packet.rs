//! The packet that moves through the simulator (docs/architecture.md#packet): a `Copy`
//! struct of at most 64 bytes with headers only; payload bytes are never materialised.
//! A typed header says what the packet is; link-layer fragment ids, MAC sequence numbers
//! and retry bits live in the link layer's own frames, never here. Packets are built by
//! the constructors below, never by struct literals.

use crate::time::SimTime;

pub type NodeId = u16;
pub type FlowId = u32;

/// Header flags. Bits, not bools, so the struct stays small.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags(pub u16);

impl Flags {
    /// Explicit loss notification: set on an ACK by a base-station agent or receiver.
    pub const ELN: u16 = 1 << 0;
    /// ECN echo and congestion window reduced (RFC 3168 §6.1), TCP header bits.
    pub const ECE: u16 = 1 << 1;
    pub const CWR: u16 = 1 << 2;
    /// ECN-capable transport and congestion experienced (IP codepoints, RFC 3168 §5).
    pub const ECT: u16 = 1 << 3;
    pub const CE: u16 = 1 << 4;
    /// Explicit wireless loss notification (Shagdar §III).
    pub const EWLN: u16 = 1 << 5;
    /// The sender transmitted this segment before (a retransmission).
    pub const RETX: u16 = 1 << 6;
    /// The payload was lost to bit errors and only the header is delivered (EWLN).
    pub const CORRUPT: u16 = 1 << 7;
    /// Connection set-up and teardown (FECTCP's three-way handshake and FIN, Botoș §II A).
    pub const SYN: u16 = 1 << 8;
    pub const FIN: u16 = 1 << 9;
    /// On an EWLN ACK: the receiver's answer to a corrupted header, the first ACK of its
    /// notice (Shagdar §III C); the notice's duplicates carry EWLN without it.
    pub const EWLN_FIRST: u16 = 1 << 10;
    /// Bits 11–15: the losses on the wireless link an ACK reports to adaptive FEC's
    /// controller (`Packet::link_losses`), 0 to `MAX_LINK_LOSSES`; kept in the flags word
    /// so that `Packet` stays within 64 bytes. 31 is ample: the controller judges windows
    /// of 10 segments (Miyoshi §4).
    const LINK_LOSSES_SHIFT: u16 = 11;
    /// The most link losses one ACK reports; more are reported as this many.
    pub const MAX_LINK_LOSSES: u16 = (1 << (16 - Self::LINK_LOSSES_SHIFT)) - 1;

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

// The header structs are packed to 4-byte alignment so that their u64 sequence numbers
// do not pad `Header`, which keeps `Packet` within 64 bytes. Their fields are read and
// written by value (a packed field cannot be borrowed).

/// A TCP segment carrying data.
#[repr(C, packed(4))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpData {
    /// First payload byte in the flow's byte sequence space.
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
    /// Packets of this connection a base station has relayed, stamped by a Syndrome
    /// counter (32-bit, wrapping; Chen §3); meaningful when `bs_epoch` is not 0.
    pub bs_count: u32,
    /// The stamping base station's epoch (0 = not stamped); a new epoch after a hand-off
    /// restarts the receiver's baseline.
    pub bs_epoch: u16,
    /// The FEC code the sender asks the wireless link to use (adaptive FEC, Miyoshi §4);
    /// 0 = no request.
    pub fec_code: u8,
    /// When the sending endpoint transmitted it, in ns (the world stamps it as the packet
    /// leaves the endpoint; a copy an agent resends keeps it): where the one-way delay
    /// starts (issue 29). Room the data headers had: `TcpAck` sizes `Header`.
    pub sent_ns: u64,
}

/// The number of SACK blocks an ACK carries (RFC 2018 §3, with timestamps: 3).
pub const SACK_BLOCKS: usize = 3;

/// Bytes the SACK option adds to a segment with `blocks` blocks: two NOPs for alignment,
/// kind, length and 8 bytes per block (RFC 2018 §3).
pub fn sack_option_bytes(blocks: usize) -> u16 {
    if blocks == 0 {
        0
    } else {
        4 + 8 * blocks as u16
    }
}

/// A SACK block as offsets from the ACK's cumulative acknowledgement; (0, 0) = unused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlock {
    pub start: u32,
    pub end: u32,
}

/// A pure TCP acknowledgement.
#[repr(C, packed(4))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpAck {
    /// Cumulative acknowledgement: the next byte expected.
    pub ack: u64,
    /// Advertised receive window in bytes.
    pub wnd: u32,
    /// SACK blocks, the most recent first (RFC 2018 §4).
    pub sack: [SackBlock; SACK_BLOCKS],
    /// With the EWLN flag: the corrupted segment's sequence number minus `ack`.
    pub ewln_offset: u32,
}

impl TcpAck {
    /// The number of SACK blocks in use.
    pub fn sack_blocks_used(&self) -> usize {
        let blocks = self.sack;
        blocks.iter().filter(|b| b.end > b.start).count()
    }

    /// The SACK blocks in use as absolute [start, end) byte ranges, most recent first.
    pub fn sack_ranges(&self) -> impl Iterator<Item = (u64, u64)> {
        let (ack, blocks) = (self.ack, self.sack);
        blocks.into_iter().filter(|b| b.end > b.start).map(move |b| (ack + b.start as u64, ack + b.end as u64))
    }
}

/// A UDP datagram; `seq` counts the flow's payload bytes.
#[repr(C, packed(4))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Udp {
    pub seq: u64,
    pub len: u32,
    /// When the sending endpoint transmitted it, in ns (the world stamps it as the packet
    /// leaves the endpoint; a copy an agent resends keeps it): where the one-way delay
    /// starts (issue 29). Room the data headers had: `TcpAck` sizes `Header`.
    pub sent_ns: u64,
}

/// A FECTCP segment: one encoded symbol (Botoș §II).
#[repr(C, packed(4))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FectcpSymbol {
    /// Unique id of the symbol within the transfer.
    pub id: u64,
    /// Source block the symbol belongs to.
    pub block: u32,
    pub len: u32,
    /// When the sending endpoint transmitted it, in ns (the world stamps it as the packet
    /// leaves the endpoint; a copy an agent resends keeps it): where the one-way delay
    /// starts (issue 29). Room the data headers had: `TcpAck` sizes `Header`.
    pub sent_ns: u64,
}

/// A FECTCP acknowledgement: every symbol id below `ack` is acknowledged.
#[repr(C, packed(4))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FectcpAck {
    pub ack: u64,
}

/// What a packet is, with the fields of its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Header {
    TcpData(TcpData),
    TcpAck(TcpAck),
    Udp(Udp),
    FectcpSymbol(FectcpSymbol),
    FectcpAck(FectcpAck),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique per transmission by an endpoint or agent, given when the world injects it
    /// (packet captures, debugging); a network duplicate keeps its original's.
    pub uid: u64,
    pub flow: FlowId,
    /// Bytes on the wire: payload plus headers (IPv4's 16-bit total length).
    pub size: u16,
    pub src: NodeId,
    pub dst: NodeId,
    pub flags: Flags,
    pub header: Header,
}

impl Packet {
    fn new(flow: FlowId, src: NodeId, dst: NodeId, size: u16, header: Header) -> Self {
        Packet { uid: 0, flow, size, src, dst, flags: Flags::default(), header }
    }

    /// A TCP data segment of `len` payload bytes at `seq`, `size` bytes on the wire.
    pub fn tcp_data(flow: FlowId, src: NodeId, dst: NodeId, seq: u64, len: u32, size: u16) -> Self {
        let d = TcpData { seq, len, bs_count: 0, bs_epoch: 0, fec_code: 0, sent_ns: 0 };
        Self::new(flow, src, dst, size, Header::TcpData(d))
    }

    /// A pure ACK of everything below `ack`, advertising `wnd` bytes, without SACK blocks.
    pub fn tcp_ack(flow: FlowId, src: NodeId, dst: NodeId, ack: u64, wnd: u32, size: u16) -> Self {
        let a = TcpAck { ack, wnd, sack: [SackBlock::default(); SACK_BLOCKS], ewln_offset: 0 };
        Self::new(flow, src, dst, size, Header::TcpAck(a))
    }

    /// The ACK with these SACK blocks (offsets from its ACK number); other packets as they are.
    pub fn with_sack(mut self, blocks: [SackBlock; SACK_BLOCKS]) -> Self {
        if let Header::TcpAck(a) = &mut self.header {
            a.sack = blocks;
        }
        self
    }

    /// Names the corrupted segment at ack + `offset` on an EWLN ACK; other packets as
    /// they are.
    pub fn set_ewln_offset(&mut self, offset: u32) {
        if let Header::TcpAck(a) = &mut self.header {
            a.ewln_offset = offset;
        }
    }

    /// Reports `losses` frames the wireless link lost on an ACK (Snoop+ELN: the local
    /// retransmissions of the segments it passes, for adaptive FEC's controller), at most
    /// `Flags::MAX_LINK_LOSSES`; other packets as they are.
    pub fn set_link_losses(&mut self, losses: u32) {
        if let Header::TcpAck(_) = self.header {
            let n = losses.min(Flags::MAX_LINK_LOSSES as u32) as u16;
            let mask = Flags::MAX_LINK_LOSSES << Flags::LINK_LOSSES_SHIFT;
            self.flags.0 = (self.flags.0 & !mask) | (n << Flags::LINK_LOSSES_SHIFT);
        }
    }

    /// The link losses an ACK reports (`set_link_losses`); 0 when none beyond what its
    /// ELN flag says.
    pub fn link_losses(&self) -> u16 {
        self.flags.0 >> Flags::LINK_LOSSES_SHIFT
    }

    /// A UDP datagram carrying payload bytes [seq, seq + len).
    pub fn udp(flow: FlowId, src: NodeId, dst: NodeId, seq: u64, len: u32, size: u16) -> Self {
        Self::new(flow, src, dst, size, Header::Udp(Udp { seq, len, sent_ns: 0 }))
    }

    /// A FECTCP symbol.
    pub fn fectcp_symbol(flow: FlowId, src: NodeId, dst: NodeId, id: u64, block: u32, len: u32, size: u16) -> Self {
        Self::new(flow, src, dst, size, Header::FectcpSymbol(FectcpSymbol { id, block, len, sent_ns: 0 }))
    }

    /// A FECTCP cumulative acknowledgement.
    pub fn fectcp_ack(flow: FlowId, src: NodeId, dst: NodeId, ack: u64, size: u16) -> Self {
        Self::new(flow, src, dst, size, Header::FectcpAck(FectcpAck { ack }))
    }

    pub fn bits(&self) -> u64 {
        self.size as u64 * 8
    }

    /// The TCP data header, if this is a data segment.
    pub fn tcp_data_header(&self) -> Option<TcpData> {
        match self.header {
            Header::TcpData(d) => Some(d),
            _ => None,
        }
    }

    /// The code a TCP data segment asks the wireless link to use (adaptive FEC, Miyoshi
    /// §4), as an index into the link's codes (0 the weakest); `None` without a request.
    pub fn requested_code(&self) -> Option<usize> {
        match self.header {
            Header::TcpData(d) if d.fec_code > 0 => Some(d.fec_code as usize - 1),
            _ => None,
        }
    }

    /// Asks the wireless link for code `index` (in band, in the data header); other
    /// packets are left as they are. Validation keeps ladders within the field's 255
    /// codes (`fec_control::MAX_STEPS`).
    pub fn request_code(&mut self, index: usize) {
        if let Header::TcpData(d) = &mut self.header {
            d.fec_code = u8::try_from(index + 1).expect("at most 254 codes");
        }
    }

    /// The TCP ACK header, if this is an ACK.
    pub fn tcp_ack_header(&self) -> Option<TcpAck> {
        match self.header {
            Header::TcpAck(a) => Some(a),
            _ => None,
        }
    }

    /// Payload bytes of any kind of packet (0 for ACKs).
    pub fn payload(&self) -> u32 {
        match self.header {
            Header::TcpData(d) => d.len,
            Header::Udp(u) => u.len,
            Header::FectcpSymbol(s) => s.len,
            Header::TcpAck(_) | Header::FectcpAck(_) => 0,
        }
    }

    /// Whether this packet carries application data (counted as a delivered data packet).
    /// Stamps a data packet with its transmission time (`sent_ns`); other packets as they
    /// are.
    #[inline]
    pub fn stamp_sent(&mut self, now: SimTime) {
        match &mut self.header {
            Header::TcpData(d) => d.sent_ns = now.0,
            Header::Udp(d) => d.sent_ns = now.0,
            Header::FectcpSymbol(d) => d.sent_ns = now.0,
            Header::TcpAck(_) | Header::FectcpAck(_) => {}
        }
    }

    /// When the sending endpoint transmitted this data packet (`sent_ns`); None for an
    /// ACK.
    #[inline]
    pub fn sent_at(&self) -> Option<SimTime> {
        match self.header {
            Header::TcpData(d) => Some(SimTime(d.sent_ns)),
            Header::Udp(d) => Some(SimTime(d.sent_ns)),
            Header::FectcpSymbol(d) => Some(SimTime(d.sent_ns)),
            Header::TcpAck(_) | Header::FectcpAck(_) => None,
        }
    }

    pub fn carries_data(&self) -> bool {
        matches!(self.header, Header::TcpData(_) | Header::Udp(_) | Header::FectcpSymbol(_))
    }
}

impl TcpData {
    /// One past the last payload byte.
    pub fn end_seq(&self) -> u64 {
        self.seq + self.len as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packet_stays_small() {
        // Packets are copied through queues and pipelines; keep them within a cache line.
        assert!(std::mem::size_of::<Packet>() <= 64, "{}", std::mem::size_of::<Packet>());
    }

    #[test]
    fn an_acks_link_losses_saturate_and_leave_the_flags_alone() {
        let mut p = Packet::tcp_ack(0, 0, 1, 100, 1000, 40);
        p.flags.set(Flags::ELN | Flags::FIN);
        p.set_link_losses(9);
        assert_eq!((p.link_losses(), p.flags.has(Flags::ELN), p.flags.has(Flags::FIN)), (9, true, true));
        p.set_link_losses(1000);
        assert_eq!(p.link_losses(), Flags::MAX_LINK_LOSSES);
        p.set_link_losses(0);
        assert_eq!((p.link_losses(), p.flags.0), (0, Flags::ELN | Flags::FIN));
        p.flags.set(Flags::EWLN_FIRST);
        p.set_link_losses(Flags::MAX_LINK_LOSSES as u32);
        assert_eq!((p.link_losses(), p.flags.has(Flags::EWLN_FIRST)), (Flags::MAX_LINK_LOSSES, true), "the count and EWLN's bit are apart");
        let mut d = Packet::tcp_data(0, 0, 1, 0, 100, 140);
        d.set_link_losses(5);
        assert_eq!(d.link_losses(), 0, "only ACKs carry the count");
    }

    #[test]
    fn flags_set_and_clear() {
        let mut f = Flags::default();
        f.set(Flags::ELN);
        assert!(f.has(Flags::ELN) && !f.has(Flags::ECE));
        f.clear(Flags::ELN);
        assert!(!f.has(Flags::ELN));
    }

    #[test]
    fn constructors_fill_the_header() {
        let d = Packet::tcp_data(3, 0, 2, 5000, 1000, 1040);
        assert_eq!(d.tcp_data_header().map(|h| h.end_seq()), Some(6000));
        assert_eq!((d.payload(), d.bits(), d.carries_data()), (1000, 8320, true));
        let a = Packet::tcp_ack(3, 2, 0, 6000, 65535, 40);
        assert_eq!(a.tcp_ack_header().map(|h| h.ack), Some(6000));
        assert!(!a.carries_data() && a.tcp_data_header().is_none());
        assert_eq!(Packet::udp(1, 0, 1, 0, 500, 528).payload(), 500);
    }
}
