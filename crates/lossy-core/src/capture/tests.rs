//! Header bytes and checksums against values computed by hand.

use super::headers::{checksum, encode, sum16};
use super::*;
use crate::packet::{Flags, Header, SackBlock};

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

#[test]
fn rfc1071_example() {
    // RFC 1071 §3: 00 01 f2 03 f4 f5 f6 f7 sums to 0xddf2 (one's complement, folded).
    let bytes = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
    assert_eq!(checksum(sum16(&bytes, 0)), !0xddf2);
    assert_eq!(checksum(sum16(&[0xab], 0)), !0xab00); // an odd byte is padded with 0
}

#[test]
fn pure_ack_bytes() {
    let mut p = Packet::tcp_ack(0, 2, 0, 6000, 65535, 40);
    p.uid = 7;
    let h = encode(&p);
    // IPv4: 45 00, length 40, id 7, DF, TTL 64, TCP, checksum !0xd939 (sum of the other
    // words by hand), 10.0.0.3 -> 10.0.0.1.
    let ip = [0x45, 0, 0, 40, 0, 7, 0x40, 0, 64, 6, 0x26, 0xc6, 10, 0, 0, 3, 10, 0, 0, 1];
    assert_eq!(&h.as_slice()[..20], &ip);
    // TCP: 5001 -> 1024, seq 0, ack 6000, offset 5, ACK, window 65535; checksum: the
    // pseudo-header sums to 0x141e, the header to 0x17f08; !fold(0x19326) = 0x6cd8.
    let tcp = [0x13, 0x89, 0x04, 0x00, 0, 0, 0, 0, 0, 0, 0x17, 0x70, 0x50, 0x10, 0xff, 0xff, 0x6c, 0xd8, 0, 0];
    assert_eq!(&h.as_slice()[20..], &tcp);
    assert_eq!(h.total, 40);
}

/// The pseudo-header (RFC 9293 §3.1) plus the header: a correct checksum sums to 0xffff.
fn tcp_sums_to_ones(h: &headers::Headers) -> bool {
    let b = h.as_slice();
    let pseudo = sum16(&b[12..20], 6 + (h.total as u32 - 20));
    checksum(sum16(&b[20..], pseudo)) == 0
}

#[test]
fn data_segment_with_ecn_and_notes() {
    let mut p = Packet::tcp_data(3, 0, 1, (1 << 32) + 5, 1000, 1040);
    p.flags.set(Flags::ECT | Flags::CE | Flags::CWR);
    let h = encode(&p);
    let b = h.as_slice();
    assert_eq!(b[1], 0b11, "CE in the ECN field, DSCP 0 (RFC 3168 §5)");
    assert_eq!((be16(b, 20), be16(b, 22)), (1027, 5001));
    assert_eq!(&b[24..28], &[0, 0, 0, 5], "seq wraps at 2^32");
    assert_eq!(b[33], 0x80 | 0x10, "CWR and ACK");
    assert_eq!((h.len, h.total), (40, 1040));
    assert_eq!(checksum(sum16(&b[..20], 0)), 0, "IPv4 header checksum (RFC 791)");
    assert!(tcp_sums_to_ones(&h));
    if let Header::TcpData(d) = &mut p.header {
        (d.bs_count, d.bs_epoch, d.fec_code) = (0x01020304, 9, 2);
    }
    p.flags = Flags(Flags::CORRUPT);
    let h = encode(&p);
    let b = h.as_slice();
    // RFC 6994: kind 253, length 12, ExID 0x4C53, notes, fec, epoch, count.
    assert_eq!(&b[40..52], &[253, 12, 0x4c, 0x53, 0x04, 2, 0, 9, 1, 2, 3, 4]);
    assert_eq!((b[32] >> 4, h.total), (8, 1052), "the option grows the header and the length");
    assert!(tcp_sums_to_ones(&h));
}

#[test]
fn ack_with_sack_blocks_and_eln() {
    let mut p = Packet::tcp_ack(0, 2, 0, 2000, 200_000, 40 + 20);
    if let Header::TcpAck(a) = &mut p.header {
        a.sack = [SackBlock { start: 3000, end: 4000 }, SackBlock { start: 1000, end: 2000 }, SackBlock::default()];
    }
    p.flags.set(Flags::ECE);
    let h = encode(&p);
    let b = h.as_slice();
    // RFC 2018 §3: NOP NOP 5 18, then (2000+3000, 2000+4000), (3000, 4000).
    let sack = [1, 1, 5, 18, 0, 0, 0x13, 0x88, 0, 0, 0x17, 0x70, 0, 0, 0x0b, 0xb8, 0, 0, 0x0f, 0xa0];
    assert_eq!(&b[40..60], &sack);
    assert_eq!((b[32] >> 4, b[33], be16(b, 34)), (10, 0x50, 65535), "offset, ECE|ACK, window capped");
    assert_eq!(h.total, 60);
    assert!(tcp_sums_to_ones(&h));
    if let Header::TcpAck(a) = &mut p.header {
        a.ewln_offset = 1000;
    }
    p.flags = Flags(Flags::ELN | Flags::EWLN);
    let h = encode(&p);
    let b = h.as_slice();
    assert_eq!(&b[60..72], &[253, 12, 0x4c, 0x53, 0x03, 0, 0, 0, 0, 0, 0x03, 0xe8]);
    assert_eq!((h.len, h.total), (72, 72));
    assert!(tcp_sums_to_ones(&h));
}

#[test]
fn header_fills_the_bytes_charged_with_nops() {
    // A 52-byte header (timestamps in size only): 12 NOPs, so the payload is the segment's.
    let h = encode(&Packet::tcp_data(0, 0, 1, 0, 1000, 1052));
    assert_eq!((h.len, h.total), (52, 1052));
    assert!(h.as_slice()[40..].iter().all(|&x| x == 1));
}

#[test]
fn udp_datagram() {
    let mut p = Packet::udp(1, 0, 2, 0, 500, 528);
    p.flags.set(Flags::ECT);
    let h = encode(&p);
    let b = h.as_slice();
    assert_eq!((b[1], b[9], h.len, h.total), (0b10, 17, 28, 528));
    assert_eq!((be16(b, 20), be16(b, 22), be16(b, 24)), (1025, 5001, 508));
    let pseudo = sum16(&b[12..20], 17 + 508);
    assert_eq!(checksum(sum16(&b[20..28], pseudo)), 0);
}

#[test]
fn pcap_file_and_record_headers() {
    let c = example();
    let b = &c.pcap;
    assert_eq!(&b[..8], &[0x4d, 0x3c, 0xb2, 0xa1, 2, 0, 4, 0], "nanosecond magic, version 2.4");
    assert_eq!(&b[16..24], &[0xff, 0xff, 0, 0, 101, 0, 0, 0], "snaplen, LINKTYPE_RAW");
    let r = &b[FILE_HEADER_LEN..];
    let word = |i: usize| u32::from_le_bytes(r[4 * i..4 * i + 4].try_into().unwrap());
    assert_eq!((word(0), word(1), word(2), word(3)), (0, 1_000_123, 40, 1040));
    assert_eq!(c.packets, 6);
}

#[test]
fn addresses_and_ports() {
    assert_eq!(headers::address(0), [10, 0, 0, 1]);
    assert_eq!(headers::address(65535), [10, 1, 0, 0]);
    assert_eq!(headers::ports(0), (1024, 5001));
    assert_eq!(headers::ports(64512), (1024, 5002));
}

const LAST_HOP: &str = r#"{"duration": "2 s", "nodes": ["S", "BS", "MH"],
  "links": [{"between": ["S", "BS"], "rate": "10 Mbps", "delay": "20 ms"},
            {"between": ["BS", "MH"], "rate": "2 Mbps", "delay": "5 ms",
             "loss": {"model": "bernoulli", "p": 0.05}}],
  "flows": [{"from": "S", "to": "MH"}], "capture": {"links": CAPTURE}}"#;

#[test]
fn a_run_captures_what_each_direction_delivers() {
    let r = crate::run_json(&LAST_HOP.replace("CAPTURE", r#"["BS->MH", "MH->BS"]"#), 1, 0).unwrap();
    let names: Vec<&str> = r.captures.iter().map(|c| c.link.as_str()).collect();
    assert_eq!(names, ["BS->MH", "MH->BS"]);
    for c in &r.captures {
        let link = r.links.iter().find(|l| l.name == c.link).unwrap();
        assert!(c.packets > 100 && c.packets == link.packets_delivered, "{} {}", c.packets, link.packets_delivered);
    }
    let off = crate::run_json(&LAST_HOP.replace("CAPTURE", "[]"), 1, 0).unwrap();
    assert!(off.captures.is_empty());
    assert_eq!(off.summary.packets_delivered, r.summary.packets_delivered, "capturing changes nothing");
}

#[test]
fn an_unknown_direction_is_named() {
    let e = crate::run_json(&LAST_HOP.replace("CAPTURE", r#"["BS->MH", "MH->S"]"#), 1, 0).unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"capture.links.1: "MH->S" is not a link direction; use one of "S->BS", "BS->S", "BS->MH", "MH->BS""#
    );
}
