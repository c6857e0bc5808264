//! FQ-CoDel against RFC 8290 §4: a sparse flow goes before a bulk one, deficit round
//! robin shares bytes equally between backlogged flows of different packet sizes, and
//! an overflow drops from the head of the fattest queue.

use super::*;
use crate::net::queue::testing::{offer_dropping, take};
use crate::packet::Header;

const T: SimTime = SimTime::ZERO;

fn config() -> FqCodelConfig {
    FqCodelConfig::default()
}

fn fq(c: &FqCodelConfig) -> FqCodel {
    let codel = CodelParams { target: c.target.0, interval: c.interval.0, ecn: c.ecn };
    FqCodel::new(c, codel, 0x5eed)
}

fn pkt(flow: u32, seq: u64, size: u16) -> Packet {
    Packet::udp(flow, 0, 1, seq, size as u32, size)
}

fn seq(p: &Packet) -> u64 {
    match p.header {
        Header::Udp(u) => u.seq,
        _ => unreachable!(),
    }
}

fn put(q: &mut FqCodel, p: Packet) -> Vec<Packet> {
    let mut gone = Vec::new();
    offer_dropping(q, T, p, &mut gone);
    gone
}

#[test]
fn flows_hash_apart_and_the_perturbation_moves_them() {
    let q = fq(&config());
    let a = q.classify(&pkt(1, 0, 100));
    assert_eq!(a, q.classify(&pkt(1, 9, 1500)), "one flow, one queue");
    assert_ne!(a, q.classify(&pkt(2, 0, 100)));
    let other = FqCodel::new(&config(), q.codel, 0xbeef);
    let moved = (0..64).filter(|&f| other.classify(&pkt(f, 0, 1)) != q.classify(&pkt(f, 0, 1))).count();
    assert!(moved > 32, "{moved} of 64 flows moved");
}

#[test]
fn a_sparse_flow_is_served_before_a_bulk_flow() {
    let mut q = fq(&config());
    for s in 0..50 {
        assert!(put(&mut q, pkt(1, s, 1000)).is_empty());
    }
    // The bulk flow spends its first quantum (1514 B: two 1000-B packets) and moves to
    // the old list.
    assert_eq!(take(&mut q, T).map(|p| seq(&p)), Some(0));
    assert_eq!(take(&mut q, T).map(|p| seq(&p)), Some(1));
    // A sparse packet arrives: its queue is new, and goes before the old bulk queue.
    put(&mut q, pkt(2, 0, 100));
    let next = take(&mut q, T).unwrap();
    assert_eq!((next.flow, seq(&next)), (2, 0));
    assert_eq!(take(&mut q, T).map(|p| (p.flow, seq(&p))), Some((1, 2)));
}

#[test]
fn drr_shares_bytes_equally_between_two_backlogged_flows() {
    let mut q = fq(&config());
    // 1500-B packets against 300-B ones, both always backlogged (all at time 0, so
    // CoDel sees no sojourn and drops nothing).
    for s in 0..400 {
        put(&mut q, pkt(1, s, 1500));
    }
    for s in 0..2000 {
        put(&mut q, pkt(2, s, 300));
    }
    let mut bytes = [0u64; 2];
    for _ in 0..600 {
        let p = take(&mut q, T).unwrap();
        bytes[(p.flow - 1) as usize] += p.size as u64;
    }
    let diff = bytes[0].abs_diff(bytes[1]);
    // Within one quantum plus a packet of each other (RFC 8290 §4.2's DRR bound).
    assert!(diff <= 1514 + 1500, "bytes served {bytes:?}");
    assert!(bytes[0] > 100_000 && bytes[1] > 100_000, "{bytes:?}");
}

#[test]
fn an_overflow_drops_from_the_head_of_the_fattest_queue() {
    let c = FqCodelConfig { limit: QueueLimit::Packets(10), ..config() };
    let mut q = fq(&c);
    for s in 0..8 {
        assert!(put(&mut q, pkt(1, s, 1000)).is_empty());
    }
    for s in 0..2 {
        assert!(put(&mut q, pkt(2, s, 1000)).is_empty());
    }
    // The 11th packet, of the small flow: flow 1 (8000 B) loses packets from its head
    // until half its bytes are gone (Linux `fq_codel_drop`): 4 packets.
    let gone = put(&mut q, pkt(2, 2, 1000));
    assert_eq!(gone.iter().map(|p| (p.flow, seq(p))).collect::<Vec<_>>(), [(1, 0), (1, 1), (1, 2), (1, 3)]);
    assert_eq!(q.len(), 7);
    // drop_batch = 1: one packet per arrival over the limit (RFC 8290 §4.1's reading).
    let mut q = fq(&FqCodelConfig { drop_batch: 1, ..c.clone() });
    (0..8).for_each(|s| assert!(put(&mut q, pkt(1, s, 1000)).is_empty()));
    (0..2).for_each(|s| assert!(put(&mut q, pkt(2, s, 1000)).is_empty()));
    let gone = put(&mut q, pkt(2, 2, 1000));
    assert_eq!(gone.iter().map(|p| (p.flow, seq(p))).collect::<Vec<_>>(), [(1, 0)]);
    assert_eq!(q.len(), 10);
    // A byte limit counts bytes: a 3000-B flow against 500 B.
    let mut q = fq(&FqCodelConfig { limit: QueueLimit::Bytes(3000), drop_batch: 1, ..config() });
    (0..3).for_each(|s| assert!(put(&mut q, pkt(1, s, 1000)).is_empty()));
    let gone = put(&mut q, pkt(2, 0, 500));
    assert_eq!(gone.iter().map(|p| (p.flow, seq(p))).collect::<Vec<_>>(), [(1, 0)]);
}

#[test]
fn codel_runs_on_each_queue_and_counts_its_drops() {
    let mut q = fq(&config());
    let ms = |t: u64| SimTime(t * 1_000_000);
    // A standing bulk queue (CoDel drops from it) beside a sparse flow (never dropped).
    (0..100).for_each(|s| {
        put(&mut q, pkt(1, s, 1000));
    });
    let mut gone = Vec::new();
    let mut sparse_sent = 0;
    for t in 1..=1000u64 {
        offer_dropping(&mut q, ms(t), pkt(1, 100 + t, 1000), &mut gone);
        if t % 50 == 0 {
            offer_dropping(&mut q, ms(t), pkt(2, t, 100), &mut gone);
        }
        let mut d = Vec::new();
        if let Some(p) = crate::net::queue::testing::take_dropping(&mut q, ms(t), &mut d) {
            sparse_sent += (p.flow == 2) as u32;
        }
        gone.extend(d);
    }
    assert!(!gone.is_empty() && gone.iter().all(|p| p.flow == 1));
    assert_eq!(sparse_sent, 20);
    assert_eq!(q.stats(1.0).early_drops, gone.len() as u64);
    let held: usize = q.flows.iter().map(|f| f.fifo.len()).sum();
    assert_eq!(held, q.len());
}

#[test]
fn bad_values_name_the_field() {
    let de = |j: &str| serde_json::from_str::<FqCodelConfig>(j).unwrap();
    assert_eq!(de("{}"), FqCodelConfig::default());
    let msg = |j: &str| de(j).validate().unwrap_err();
    assert!(msg(r#"{"flows": 0}"#).starts_with("flows: 0 is not allowed; use 1 to 65536 queues"));
    assert!(msg(r#"{"quantum": "0 B"}"#).starts_with("quantum: 0 B is not allowed; use a size > 0"));
    assert!(msg(r#"{"drop_batch": 0}"#).starts_with("drop_batch: 0 is not allowed"));
    assert!(msg(r#"{"memory_limit": "0 B"}"#).starts_with("memory_limit: 0 B is not allowed"));
    assert!(msg(r#"{"target": "0 s"}"#).starts_with("target: 0 s is not allowed"));
    assert!(msg(r#"{"interval": "1 ms"}"#).starts_with("interval: 1 ms is not allowed; use a duration at least target (5 ms)"));
}
