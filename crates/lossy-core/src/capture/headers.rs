//! The IPv4, TCP and UDP headers a packet would carry on a real wire, built from the
//! simulator's `Packet` (which has no bytes). Payload bytes are never captured.
//!
//! - Addresses: node `n` is 10.0.0.0 + n + 1 (node 0 = 10.0.0.1).
//! - Ports: flow `f`'s sender uses 1024 + f mod 64512, its receiver 5001 + f / 64512.
//! - FECTCP symbols and ACKs appear as UDP datagrams.
//! - Notes the simulator carries (ELN, EWLN, CORRUPT, the base-station counter, the
//!   requested FEC code) go in an RFC 6994 experimental option, kind 253, ExID 0x4C53
//!   ("LS", not IANA-registered), 12 bytes: kind, length 12, ExID (2), notes (1: ELN
//!   0x01, EWLN 0x02, CORRUPT 0x04), fec_code (1), bs_epoch (2), then 4 bytes: bs_count
//!   on a data segment, ewln_offset on an ACK. Present only when one of them is set.

use crate::packet::{sack_option_bytes, Flags, Header, NodeId, Packet, TcpAck, TcpData};

/// The largest header stack we write: IPv4 without options and TCP with 40 option bytes.
pub const MAX_HEADERS: usize = 20 + 60;
/// RFC 6994 §3: the 16-bit experiment identifier of our option.
pub const EXID: u16 = 0x4C53;
pub const NOTE_ELN: u8 = 0x01;
pub const NOTE_EWLN: u8 = 0x02;
pub const NOTE_CORRUPT: u8 = 0x04;

const TCP: u8 = 6;
const UDP: u8 = 17;

/// The headers of one packet and the IPv4 total length (the original length).
pub struct Headers {
    pub bytes: [u8; MAX_HEADERS],
    pub len: usize,
    pub total: u16,
}

impl Headers {
    pub fn as_slice(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// 10.0.0.0 + node + 1.
pub fn address(node: NodeId) -> [u8; 4] {
    let n = node as u32 + 1;
    [10, (n >> 16) as u8, (n >> 8) as u8, n as u8]
}

/// (sender port, receiver port) of flow `f`.
pub fn ports(flow: u32) -> (u16, u16) {
    ((1024 + flow % 64512) as u16, (5001 + flow / 64512) as u16)
}

/// RFC 1071: the 16-bit one's complement sum of `data` added to `acc` (not folded).
pub fn sum16(data: &[u8], mut acc: u32) -> u32 {
    let mut chunks = data.chunks_exact(2);
    for c in &mut chunks {
        acc += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    if let [last] = chunks.remainder() {
        acc += (*last as u32) << 8;
    }
    acc
}

/// RFC 1071: the one's complement of the folded sum.
pub fn checksum(acc: u32) -> u16 {
    let mut s = acc;
    while s > 0xffff {
        s = (s & 0xffff) + (s >> 16);
    }
    !(s as u16)
}

/// RFC 3168 §5: the ECN field; CE wins over ECT(0).
fn ecn(f: Flags) -> u8 {
    if f.has(Flags::CE) {
        0b11
    } else if f.has(Flags::ECT) {
        0b10
    } else {
        0
    }
}

/// Encodes `pkt`'s IPv4 header and its TCP or UDP header.
pub fn encode(pkt: &Packet) -> Headers {
    let mut h = Headers { bytes: [0; MAX_HEADERS], len: 0, total: 0 };
    let (src, dst) = (address(pkt.src), address(pkt.dst));
    let (proto, l4, payload) = match pkt.header {
        Header::TcpData(_) | Header::TcpAck(_) => (TCP, tcp(pkt, &mut h.bytes[20..]), pkt.payload() as usize),
        _ => (UDP, 8, (pkt.size as usize).saturating_sub(28)),
    };
    // The total length is the packet's size, unless our options outgrow the header bytes
    // the scenario charges for (e.g. ELN on a 40-byte ACK): then they are added to it.
    let total = (pkt.size as usize).max(20 + l4 + payload).min(65535) as u16;
    let pseudo = sum16(&src, sum16(&dst, proto as u32 + (total as u32 - 20)));
    let cks_at = if proto == TCP { 16 } else { 6 };
    if proto == UDP {
        let (sp, dp) = ports(pkt.flow);
        let (sp, dp) = if matches!(pkt.header, Header::FectcpAck(_)) { (dp, sp) } else { (sp, dp) };
        let u = &mut h.bytes[20..28];
        u[0..2].copy_from_slice(&sp.to_be_bytes());
        u[2..4].copy_from_slice(&dp.to_be_bytes());
        u[4..6].copy_from_slice(&(total - 20).to_be_bytes());
    }
    // RFC 9293 §3.1 / RFC 768: the checksum covers the pseudo-header, the header and the
    // payload. The payload is not captured; we take it as zeros, which add nothing to
    // the sum, so the checksum is that of the real segment with an all-zero payload.
    let mut c = checksum(sum16(&h.bytes[20..20 + l4], pseudo));
    if proto == UDP && c == 0 {
        c = 0xffff; // RFC 768: a computed 0 is sent as all ones
    }
    h.bytes[20 + cks_at..22 + cks_at].copy_from_slice(&c.to_be_bytes());
    ipv4(&mut h.bytes[..20], pkt, proto, total, src, dst);
    h.len = 20 + l4;
    h.total = total;
    h
}

/// RFC 791 §3.1: version 4, IHL 5, DSCP 0 with the ECN field, DF, TTL 64, and the
/// header checksum over the 20 bytes.
fn ipv4(b: &mut [u8], pkt: &Packet, proto: u8, total: u16, src: [u8; 4], dst: [u8; 4]) {
    b[0] = 0x45;
    b[1] = ecn(pkt.flags);
    b[2..4].copy_from_slice(&total.to_be_bytes());
    b[4..6].copy_from_slice(&(pkt.uid as u16).to_be_bytes());
    b[6] = 0x40;
    b[8] = 64;
    b[9] = proto;
    b[12..16].copy_from_slice(&src);
    b[16..20].copy_from_slice(&dst);
    let c = checksum(sum16(b, 0));
    b[10..12].copy_from_slice(&c.to_be_bytes());
}

/// RFC 9293 §3.1: the TCP header with its options; returns its length. The checksum is
/// left 0 for the caller.
fn tcp(pkt: &Packet, b: &mut [u8]) -> usize {
    let (snd, rcv) = ports(pkt.flow);
    let mut opts = [1u8; 40]; // NOP (kind 1) wherever nothing else goes
    let mut n = 0;
    let (ports, seq, ack, wnd, payload) = match pkt.header {
        Header::TcpData(d) => {
            n += note_option(pkt, &mut opts[n..], data_note(d));
            ((snd, rcv), d.seq as u32, 0, 65535, d.len as usize)
        }
        Header::TcpAck(a) => {
            n += sack_option(&a, &mut opts[n..]);
            n += note_option(pkt, &mut opts[n..], (0, 0, 0, a.ewln_offset));
            // No SYN is simulated, so no window scale: the field holds at most 65,535.
            ((rcv, snd), 0, a.ack as u32, a.wnd.min(65535) as u16, 0)
        }
        _ => unreachable!("tcp() is called for TCP packets"),
    };
    // The header fills the bytes the scenario charges for (NOPs pad), so that the payload
    // length Wireshark infers is the segment's; it grows when the options need more.
    let charged = (pkt.size as usize).saturating_sub(20 + payload).min(60) & !3;
    let len = charged.max(20 + n);
    b[0..2].copy_from_slice(&ports.0.to_be_bytes());
    b[2..4].copy_from_slice(&ports.1.to_be_bytes());
    b[4..8].copy_from_slice(&seq.to_be_bytes());
    b[8..12].copy_from_slice(&ack.to_be_bytes());
    b[12] = ((len / 4) as u8) << 4;
    // RFC 3168 §6.1: CWR 0x80, ECE 0x40; ACK (0x10) on every segment of an established
    // connection (flows start established).
    let f = pkt.flags;
    b[13] = 0x10 | if f.has(Flags::CWR) { 0x80 } else { 0 } | if f.has(Flags::ECE) { 0x40 } else { 0 };
    b[14..16].copy_from_slice(&wnd.to_be_bytes());
    b[16..20].fill(0);
    b[20..len].copy_from_slice(&opts[..len - 20]);
    len
}

fn data_note(d: TcpData) -> (u8, u16, u32, u32) {
    (d.fec_code, d.bs_epoch, d.bs_count, 0)
}

/// RFC 2018 §3: NOP, NOP, kind 5, length 2 + 8n, then n blocks as absolute sequence
/// numbers (left edge, right edge), the most recent first. Returns the bytes written.
fn sack_option(a: &TcpAck, b: &mut [u8]) -> usize {
    let count = a.sack_blocks_used();
    if count == 0 {
        return 0;
    }
    b[2] = 5;
    b[3] = (2 + 8 * count) as u8;
    let sack = a.sack;
    for (i, s) in sack.iter().filter(|s| s.end > s.start).enumerate() {
        let at = 4 + 8 * i;
        b[at..at + 4].copy_from_slice(&(a.ack as u32).wrapping_add(s.start).to_be_bytes());
        b[at + 4..at + 8].copy_from_slice(&(a.ack as u32).wrapping_add(s.end).to_be_bytes());
    }
    sack_option_bytes(count) as usize
}

/// RFC 6994 §3: kind 253, length, ExID, then our 8 bytes (see the module comment), when
/// any note is set. Returns the bytes written.
fn note_option(pkt: &Packet, b: &mut [u8], (fec, epoch, count, value): (u8, u16, u32, u32)) -> usize {
    let f = pkt.flags;
    let notes = [(Flags::ELN, NOTE_ELN), (Flags::EWLN, NOTE_EWLN), (Flags::CORRUPT, NOTE_CORRUPT)]
        .iter()
        .fold(0, |acc, &(flag, bit)| if f.has(flag) { acc | bit } else { acc });
    if notes == 0 && fec == 0 && epoch == 0 {
        return 0;
    }
    b[0] = 253;
    b[1] = 12;
    b[2..4].copy_from_slice(&EXID.to_be_bytes());
    b[4] = notes;
    b[5] = fec;
    b[6..8].copy_from_slice(&epoch.to_be_bytes());
    b[8..12].copy_from_slice(&(count | value).to_be_bytes());
    12
}

