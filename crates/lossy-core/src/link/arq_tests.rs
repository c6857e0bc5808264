//! Unit tests of the ARQ link layer (`arq.rs`), on trace channels that lose chosen
//! transmissions.

use super::*;
use crate::capacity::ConstantRate;
use crate::coding::frame::Coding;
use crate::link::LinkLayerCounters;
use crate::channel::{Channel, NoLoss, LossTrace, LossTraceConfig};
use crate::engine::Tickets;
use crate::rng::RngStream;
use crate::time::{serialization_delay, SimDuration};

const RATE: u64 = 1_500_000; // Chockalingam's link, bit/s

fn arq(payload: u32, header: u32, attempts: u32, coding: Coding) -> InstantArq {
    InstantArq::new(Framing::new(ConstantRate::new(RATE), payload, header, attempts, coding))
}

/// A 1024-byte packet (the paper's N_T, headers left out).
fn packet() -> Packet {
    Packet::udp(0, 0, 1, 0, 1024, 1024)
}

fn losing(transmissions: &[u64]) -> Channel {
    Channel::from(LossTrace::new(&LossTraceConfig { packets: transmissions.to_vec(), times: vec![], file: None }))
}

/// Runs one packet through `link` on `channel` from time 0: its outcome and the link's
/// counters.
fn send(link: &mut InstantArq, mut channel: Channel) -> (LinkOutcome, LinkLayerCounters) {
    let mut tickets = Tickets::default();
    let mut rng = RngStream::new(1, 0, "arq");
    let mut ctx = LinkCtx { channel: &mut channel, rng: &mut rng, tickets: &mut tickets };
    let outcome = link.begin(SimTime::ZERO, packet(), &mut ctx).expect("known at once");
    (outcome, link.counters())
}

/// Air time of `n` link packets of `bits` bits each.
fn slots(n: u64, bits: u64) -> SimTime {
    SimTime::ZERO + SimDuration(n * serialization_delay(bits, RATE).0)
}

#[test]
fn a_clean_channel_carries_the_packet_in_n_t_over_n_l_link_packets() {
    let mut link = arq(32, 0, 16, Coding::None);
    let (outcome, c) = send(&mut link, Channel::None(NoLoss));
    assert_eq!(outcome, LinkOutcome::Delivered(packet(), slots(32, 256)));
    assert_eq!(c, LinkLayerCounters { transmissions: 32, overhead_bytes: 0, naks_sent: 0, naks_lost: 0, code_changes: 0 });
    assert!(!link.ready(SimTime(slots(32, 256).0 - 1)) && link.ready(slots(32, 256)));
}

#[test]
fn a_nak_resends_the_link_packet_in_the_next_slot() {
    let mut link = arq(32, 0, 16, Coding::None);
    // The 3rd transmission (link packet 2) fails twice, then gets through.
    let (outcome, c) = send(&mut link, losing(&[2, 3]));
    assert_eq!(outcome, LinkOutcome::Delivered(packet(), slots(34, 256)));
    assert_eq!(c, LinkLayerCounters { transmissions: 34, overhead_bytes: 64, naks_sent: 2, naks_lost: 0, code_changes: 0 });
}

#[test]
fn a_link_packet_out_of_attempts_loses_the_packet_and_stops_sending_it() {
    let mut link = arq(32, 0, 4, Coding::None);
    // Link packet 1 (the 2nd transmission on) fails all 4 of its attempts.
    let (outcome, c) = send(&mut link, losing(&[1, 2, 3, 4]));
    assert_eq!(outcome, LinkOutcome::Lost(packet(), DropCause::LinkRetry));
    assert_eq!(c, LinkLayerCounters { transmissions: 5, overhead_bytes: 96, naks_sent: 4, naks_lost: 0, code_changes: 0 });
    assert!(link.ready(slots(5, 256)), "busy only while it sent");
}

#[test]
fn the_last_link_packet_is_short_and_one_attempt_is_plain_framing_in_pieces() {
    let mut link = arq(100, 0, 1, Coding::None);
    let (outcome, c) = send(&mut link, Channel::None(NoLoss));
    // 1024 = 10 × 100 + 24, each link packet's air time rounded up to the nanosecond.
    let end = SimTime(slots(10, 800).0 + serialization_delay(24 * 8, RATE).0);
    assert_eq!(outcome, LinkOutcome::Delivered(packet(), end));
    assert_eq!(c.transmissions, 11);
    let (outcome, _) = send(&mut arq(100, 0, 1, Coding::None), losing(&[10]));
    assert_eq!(outcome, LinkOutcome::Lost(packet(), DropCause::LinkRetry));
}

#[test]
fn coded_link_packets_carry_their_parity_and_headers_on_the_air() {
    let code = Coding::from(crate::coding::BchCode::new(255, 131).unwrap());
    let mut link = arq(32, 2, 16, code);
    let (outcome, c) = send(&mut link, Channel::None(NoLoss));
    // 34 bytes = 272 bits need three codewords: 765 bits per link packet.
    assert_eq!(outcome, LinkOutcome::Delivered(packet(), slots(32, 765)));
    assert_eq!(c.overhead_bytes, 32 * (765 / 8 - 32));
}

/// Over a Mahimahi trace (opportunities at 1 and 2 ms, played once): held until the first
/// opportunity; a packet whose link packets cannot all be sent before the end never
/// leaves and stays with the link.
#[test]
fn over_a_trace_the_link_waits_for_an_opportunity_and_keeps_a_packet_it_cannot_finish() {
    let runs = crate::capacity::mahimahi_trace::Opportunities::from_runs(vec![(1, 1), (2, 1)]).unwrap();
    let trace = crate::capacity::MahimahiTrace::new(std::sync::Arc::new(runs), true);
    let mut link = InstantArq::new(Framing::new(trace, 500, 0, 1, Coding::None));
    let mut tickets = Tickets::default();
    assert!(link.holds(SimTime::ZERO, SimTime::ZERO, &mut tickets));
    let wake = link.next_wake(true).unwrap();
    assert_eq!(wake.time, SimTime(1_000_000));
    let mut channel = Channel::from(NoLoss);
    let mut rng = RngStream::new(1, 0, "arq");
    let mut ctx = LinkCtx { channel: &mut channel, rng: &mut rng, tickets: &mut tickets };
    link.on_wake(wake.time, wake, &mut ctx);
    // 1024 B in link packets of 500, 500 and 24 B: 1024 of the 1504 bytes at 1 ms.
    assert_eq!(link.begin(wake.time, packet(), &mut ctx), Some(LinkOutcome::Delivered(packet(), SimTime(1_000_000))));
    // 480 B left at 1 ms and 1504 at 2 ms: a second 1024 B fits, a third does not.
    assert!(!link.holds(SimTime(1_000_000), SimTime(500_000), ctx.tickets));
    assert_eq!(link.begin(SimTime(1_000_000), packet(), &mut ctx), Some(LinkOutcome::Delivered(packet(), SimTime(2_000_000))));
    assert_eq!(link.begin(SimTime(2_000_000), packet(), &mut ctx), None);
    assert_eq!(link.held(), 1);
    let mut drained = Vec::new();
    link.drain(&mut |p| drained.push(p));
    assert_eq!((drained.len(), link.held()), (1, 0));
}
