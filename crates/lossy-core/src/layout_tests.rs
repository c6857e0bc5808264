//! Bounds on the bytes of per-flow and per-link state (issue 28): a run holds one
//! endpoint slot per end of a flow and one segment slot per link, 10,000 of each behind
//! a base station, and every variant of their closed enums pads the others to its size.
//! A bound failing means a field or a variant grew every flow or link: box what is
//! rarely touched (docs/architecture.md#scale) or raise the bound on purpose.
//! Sizes on a 64-bit target, as measured when the cold parts were boxed.

use crate::channel::Channel;
use crate::link::AnyLinkLayer;
use crate::net::p2p::Direction;
use crate::net::queue::AnyQueueDisc;
use crate::tcp::{TcpReceiver, TcpSender};
use crate::transport::AnyEndpoint;
use crate::world_tables::{EndpointSlot, SegmentSlot};
use std::mem::size_of;

/// `(what, its size, the bound)`, every row checked at once so one run names them all.
fn over(rows: &[(&str, usize, usize)]) -> Vec<String> {
    for (what, size, max) in rows {
        println!("{what}: {size} B (bound {max} B)");
    }
    rows.iter().filter(|(_, size, max)| size > max).map(|(what, size, max)| format!("{what}: {size} B > {max} B")).collect()
}

#[test]
#[cfg(target_pointer_width = "64")]
fn a_plain_link_directions_enums_hold_only_what_it_uses() {
    let rows = [
        // Bernoulli and Ber inline (8 and 24 B; the tag fits in a niche), the other
        // models boxed: was 168 B (Neyman).
        ("Channel", size_of::<Channel>(), 24),
        // The plain link inline (72 B, its `Coding` a boxed code), ARQ and adaptive FEC
        // boxed: was 248 B (ARQ's framing). Then 16 B more on purpose (issue 30): the
        // capacity's tag (the trace kinds boxed beside the inline constant rate) and a
        // boxed frame a trace played once can never finish.
        ("AnyLinkLayer", size_of::<AnyLinkLayer>(), 88),
        // Drop-tail inline (56 B), RED boxed: was 272 B.
        ("AnyQueueDisc", size_of::<AnyQueueDisc>(), 56),
    ];
    let over = over(&rows);
    assert!(over.is_empty(), "{over:?}");
}

#[test]
#[cfg(target_pointer_width = "64")]
fn a_links_segment_slot_is_about_half_what_it_was() {
    let rows = [
        // Was 1,104 B: the three enums above were 688 B of it. 568 B after boxing them;
        // then 48 B more that the hot path bought on purpose (issue 28): the link layer's
        // cached part of the deadline (`link_next`) and the frame on the air kept inline;
        // then 8 B for issue 29's queue delay, boxed at the direction's first arrival;
        // then issue 30's 16 B in the link layer (above).
        ("Direction", size_of::<Direction>(), 640),
        // Two directions, the link's timer (96 B) and its first port: was 2,320 B.
        ("SegmentSlot", size_of::<SegmentSlot>(), 1_392),
    ];
    let over = over(&rows);
    assert!(over.is_empty(), "{over:?}");
}

#[test]
#[cfg(target_pointer_width = "64")]
fn an_endpoint_slot_is_not_padded_by_rare_variants() {
    let rows = [
        // SACK's scoreboard, adaptive FEC's controller and the trace queue boxed: was 880 B.
        // 16 B of it are issue 29's: the RTT histogram, boxed at the first sample, and
        // the pointer to the delivery-rate stamps and the pacer (`RateControl`, boxed).
        ("TcpSender", size_of::<TcpSender>(), 632),
        // Syndrome's inference boxed: was 368 B.
        ("TcpReceiver", size_of::<TcpReceiver>(), 232),
        // The TCP sender is the largest variant left (FECTCP's sender boxed): was 880 B.
        ("AnyEndpoint", size_of::<AnyEndpoint>(), 632),
        // Its timer (32 B) and node: was 920 B.
        ("EndpointSlot", size_of::<EndpointSlot>(), 672),
    ];
    let over = over(&rows);
    assert!(over.is_empty(), "{over:?}");
}
