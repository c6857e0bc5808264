//! Unit tests of the Snoop agent (`snoop.rs`), one rule of ns-2's `snoop.cc` each.

use super::*;
use super::cache::SNOOP_TICK;
use crate::packet::Flags;
use crate::time::SimDuration;

const BS_UP: NodeId = 0; // wired side
const MH: NodeId = 2; // wireless side
const SIZE: u16 = 1040;

fn data(seq: u64) -> Packet {
    Packet::tcp_data(0, 0, 2, seq, 1000, SIZE)
}

fn ack(n: u64) -> Packet {
    Packet::tcp_ack(0, 2, 0, n, 65535, 40)
}

fn agent(eln: bool) -> SnoopAgent {
    SnoopAgent::new(&[MH], 3, 1, SnoopOptions { eln, ..SnoopOptions::default() })
}

fn ms(t: u64) -> SimTime {
    SimTime::ZERO + SimDuration::from_millis(t)
}

/// Hands `p` to the agent at `now`: its verdict, the packet as it leaves, what it emitted.
fn pass_at(
    a: &mut SnoopAgent,
    now: SimTime,
    p: Packet,
    from: NodeId,
    to: NodeId,
) -> (Verdict, Packet, Vec<Packet>) {
    let mut p = p;
    let mut out = AgentOutput::default();
    let v = a.on_forward(now, &mut p, from, to, &mut out);
    (v, p, out.packets)
}

fn pass(a: &mut SnoopAgent, p: Packet, from: NodeId, to: NodeId) -> (Verdict, Packet, Vec<Packet>) {
    pass_at(a, ms(10), p, from, to)
}

fn counter(a: &SnoopAgent, name: &str) -> u64 {
    a.counters()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("{name}"))
        .1
}

/// Segments 0..5 forwarded, the mobile host acknowledges 1000 and misses 1000.
fn lost_second_segment(a: &mut SnoopAgent) {
    for k in 0..5 {
        pass(a, data(k * 1000), BS_UP, MH);
    }
    assert_eq!(pass(a, ack(1000), MH, BS_UP).0, Verdict::Forward);
}

#[test]
fn wireless_loss_is_resent_locally_and_its_duplicates_absorbed() {
    let mut a = agent(false);
    lost_second_segment(&mut a);
    // The first duplicate: resend 1000 from the cache, absorb the ACK.
    let (v, _, out) = pass(&mut a, ack(1000), MH, BS_UP);
    assert_eq!(v, Verdict::Absorb);
    assert_eq!(out.len(), 1);
    let d = out[0].tcp_data_header().unwrap();
    assert_eq!(
        (d.seq, d.len, out[0].size, out[0].src, out[0].dst),
        (1000, 1000, SIZE, 0, 2)
    );
    assert!(out[0].flags.has(Flags::RETX));
    // 2000, 3000 and 4000 were cached above it: two more duplicates expected, absorbed.
    for _ in 0..2 {
        let (v, _, out) = pass(&mut a, ack(1000), MH, BS_UP);
        assert_eq!((v, out.len()), (Verdict::Absorb, 0));
    }
    // One more than expected goes to the sender.
    assert_eq!(pass(&mut a, ack(1000), MH, BS_UP).0, Verdict::Forward);
    assert_eq!(
        (
            counter(&a, "local_retransmits"),
            counter(&a, "dupacks_suppressed")
        ),
        (1, 3)
    );
}

#[test]
fn cache_is_freed_on_new_acks() {
    let mut a = agent(false);
    for k in 0..5 {
        pass(&mut a, data(k * 1000), BS_UP, MH);
    }
    let per = ENTRY_BYTES + SIZE as u64;
    assert_eq!(a.state_bytes(), CONN_BYTES + 5 * per);
    pass(&mut a, ack(3000), MH, BS_UP);
    assert_eq!(a.state_bytes(), CONN_BYTES + 2 * per);
    pass(&mut a, ack(5000), MH, BS_UP);
    assert_eq!(a.state_bytes(), CONN_BYTES);
    assert_eq!(
        (
            counter(&a, "cache_max_packets"),
            counter(&a, "cache_max_bytes")
        ),
        (5, 5 * SIZE as u64)
    );
    // Nothing left to resend: the timer finds nothing.
    let mut out = AgentOutput::default();
    a.handle_timeout(ms(5000), &mut out);
    assert!(out.packets.is_empty());
}

#[test]
fn timer_repairs_a_lost_local_retransmission() {
    let mut a = agent(false);
    lost_second_segment(&mut a);
    let (_, _, out) = pass_at(&mut a, ms(20), ack(1000), MH, BS_UP);
    assert_eq!(out.len(), 1);
    // The local retransmission is lost too; the timer resends it.
    let t = a.next_timeout().expect("armed");
    assert!(t > ms(20));
    let mut out = AgentOutput::default();
    a.handle_timeout(t, &mut out);
    assert_eq!(out.packets.len(), 1);
    let seq = out.packets[0].tcp_data_header().unwrap().seq;
    assert_eq!(seq, 1000);
    assert_eq!(
        (
            counter(&a, "local_retransmits"),
            counter(&a, "timeout_retransmits")
        ),
        (2, 1)
    );
    // Once it arrives the ACK moves on and the cache empties.
    pass_at(
        &mut a,
        t + SimDuration::from_millis(20),
        ack(5000),
        MH,
        BS_UP,
    );
    assert_eq!(a.state_bytes(), CONN_BYTES);
}

#[test]
fn rtt_estimate_and_timeout_follow_ns2() {
    let mut a = agent(false);
    pass_at(&mut a, ms(0), data(0), BS_UP, MH);
    // srtt 100 ms, rttvar 250 ms: timeout = 100 + 4 * 250 ms.
    assert_eq!(a.next_timeout(), Some(ms(1100)));
    pass_at(&mut a, ms(10), data(1000), BS_UP, MH);
    // A 20 ms sample: srtt = (100 + 7 * 20) / 8 = 30 ms; rttvar = (10 + 7 * 250) / 8 = 220 ms.
    pass_at(&mut a, ms(20), ack(1000), MH, BS_UP);
    assert_eq!(a.next_timeout(), Some(ms(20 + 30 + 4 * 220)));
    // The floor is snoopTick, 100 ms.
    let mut c = Connection {
        srtt: SimDuration::from_millis(5),
        rttvar: SimDuration::ZERO,
        ..Connection::default()
    };
    assert_eq!(c.timeout(), SNOOP_TICK);
    c.rtt_sample(SimDuration::from_millis(5));
    assert_eq!(
        c.rttvar,
        SimDuration::ZERO,
        "zero deviation stays zero: delta is taken as it is"
    );
}

#[test]
fn upstream_loss_duplicates_reach_the_sender() {
    let mut a = agent(false);
    pass(&mut a, data(0), BS_UP, MH);
    for k in 2..5 {
        pass(&mut a, data(k * 1000), BS_UP, MH);
    }
    pass(&mut a, ack(1000), MH, BS_UP);
    for _ in 0..3 {
        let (v, _, out) = pass(&mut a, ack(1000), MH, BS_UP);
        assert_eq!((v, out.len()), (Verdict::Forward, 0));
    }
}

#[test]
fn duplicates_for_a_sender_retransmission_go_to_the_sender() {
    let mut a = agent(false);
    lost_second_segment(&mut a);
    // The sender resends 1000 itself (its timer): Snoop leaves the recovery to it.
    pass(&mut a, data(1000), BS_UP, MH);
    assert_eq!(pass(&mut a, ack(1000), MH, BS_UP).0, Verdict::Forward);
    assert_eq!(counter(&a, "local_retransmits"), 0);
}

#[test]
fn a_drop_in_the_base_station_queue_is_left_to_the_sender() {
    let mut a = agent(false);
    pass(&mut a, data(0), BS_UP, MH);
    let (_, p, _) = pass(&mut a, data(1000), BS_UP, MH);
    a.on_queue_drop(ms(10), &p, MH);
    pass(&mut a, data(2000), BS_UP, MH);
    pass(&mut a, ack(1000), MH, BS_UP);
    assert_eq!(pass(&mut a, ack(1000), MH, BS_UP).0, Verdict::Forward);
    assert_eq!(a.state_bytes(), CONN_BYTES + ENTRY_BYTES + SIZE as u64);
}

#[test]
fn a_full_cache_forwards_uncached() {
    let mut a = SnoopAgent::new(&[MH], 3, 1, SnoopOptions { cache_packets: 2, ..SnoopOptions::default() });
    for k in 0..3 {
        assert_eq!(pass(&mut a, data(k * 1000), BS_UP, MH).0, Verdict::Forward);
    }
    assert_eq!(
        (counter(&a, "cache_max_packets"), counter(&a, "cache_full")),
        (2, 1)
    );
}

#[test]
fn data_from_the_mobile_host_passes_uncached_and_its_acks_get_eln_as_in_ns2() {
    let mut a = agent(false);
    let up = |seq| Packet::tcp_data(0, 2, 0, seq, 1000, SIZE);
    let down = |n| Packet::tcp_ack(0, 0, 2, n, 65535, 40);
    for seq in [5000, 7000] {
        // 6000 never arrives: lost on the wireless hop.
        let (v, p, out) = pass(&mut a, up(seq), MH, BS_UP);
        assert_eq!((v, p, out.len()), (Verdict::Forward, up(seq), 0));
    }
    assert_eq!(a.next_timeout(), None, "nothing cached, no timer");
    // ACKs toward the mobile host are never absorbed; those asking for 6000 get ELN.
    let (v, p, _) = pass(&mut a, down(5000), BS_UP, MH);
    assert_eq!(v, Verdict::Forward);
    assert!(!p.flags.has(Flags::ELN));
    for _ in 0..4 {
        let (v, p, out) = pass(&mut a, down(6000), BS_UP, MH);
        assert_eq!((v, out.len()), (Verdict::Forward, 0));
        assert!(p.flags.has(Flags::ELN));
    }
    assert_eq!(counter(&a, "eln_marked_uplink"), 4);
    // The mobile host's retransmission arrives: late duplicates are not marked.
    pass(&mut a, up(6000), MH, BS_UP);
    assert!(!pass(&mut a, down(6000), BS_UP, MH).1.flags.has(Flags::ELN));
    pass(&mut a, down(8000), BS_UP, MH);
    assert_eq!(a.state_bytes(), 4, "the last ACK: nothing above it outstanding");
}

#[test]
fn ns2_reading_lets_the_first_duplicate_through_and_resends_on_the_second() {
    let o = SnoopOptions { local_retransmit_dupacks: 2, ..SnoopOptions::default() };
    let mut a = SnoopAgent::new(&[MH], 3, 1, o);
    lost_second_segment(&mut a);
    let (v, _, out) = pass(&mut a, ack(1000), MH, BS_UP);
    assert_eq!((v, out.len()), (Verdict::Forward, 0));
    let (v, _, out) = pass(&mut a, ack(1000), MH, BS_UP);
    assert_eq!((v, out.len()), (Verdict::Absorb, 1));
    // Three segments cached above the lost one, two duplicates seen: one more expected.
    assert_eq!(pass(&mut a, ack(1000), MH, BS_UP).0, Verdict::Absorb);
    assert_eq!(pass(&mut a, ack(1000), MH, BS_UP).0, Verdict::Forward);
    // A new ACK starts the count again.
    pass(&mut a, ack(3000), MH, BS_UP);
    let (v, _, out) = pass(&mut a, ack(3000), MH, BS_UP);
    assert_eq!((v, out.len()), (Verdict::Forward, 0));
    let (v, _, out) = pass(&mut a, ack(3000), MH, BS_UP);
    assert_eq!((v, out.len()), (Verdict::Absorb, 1));
    assert_eq!(counter(&a, "local_retransmits"), 2);
}

#[test]
fn snoop_eln_marks_the_duplicates_it_lets_through() {
    let mut a = agent(true);
    lost_second_segment(&mut a);
    // Absorbed duplicates are never seen by the sender; the surplus ones carry ELN.
    for _ in 0..3 {
        assert_eq!(pass(&mut a, ack(1000), MH, BS_UP).0, Verdict::Absorb);
    }
    for _ in 0..3 {
        let (v, p, _) = pass(&mut a, ack(1000), MH, BS_UP);
        assert_eq!(v, Verdict::Forward);
        assert!(p.flags.has(Flags::ELN));
    }
    assert_eq!(counter(&a, "eln_marked"), 3);
    // An upstream loss: its duplicates pass unmarked, as with the ELN agent alone.
    pass(&mut a, ack(5000), MH, BS_UP);
    for k in [5, 7, 8] {
        pass(&mut a, data(k * 1000), BS_UP, MH);
    }
    pass(&mut a, ack(6000), MH, BS_UP);
    for _ in 0..3 {
        let (v, p, _) = pass(&mut a, ack(6000), MH, BS_UP);
        assert_eq!(v, Verdict::Forward);
        assert!(!p.flags.has(Flags::ELN));
    }
    assert_eq!(counter(&a, "congestion_dupacks"), 3);
}

#[test]
fn plain_snoop_sets_no_eln() {
    let mut a = agent(false);
    lost_second_segment(&mut a);
    for _ in 0..6 {
        assert!(!pass(&mut a, ack(1000), MH, BS_UP).1.flags.has(Flags::ELN));
    }
}

#[test]
fn handoff_starts_the_connection_fresh() {
    for up in [false, true] {
        let mut a = agent(true);
        lost_second_segment(&mut a);
        assert!(a.state_bytes() > 0);
        let mut out = AgentOutput::default();
        a.on_link_change(ms(20), BS_UP, up, &mut out); // not a wireless neighbour
        assert!(a.state_bytes() > 0);
        a.on_link_change(ms(20), MH, up, &mut out);
        assert_eq!(a.state_bytes(), 0, "cache, Snoop and ELN state all gone");
        assert_eq!(counter(&a, "handoff_resets"), 1);
        // The old timer finds nothing; a duplicate ACK finds no state and passes.
        a.handle_timeout(ms(5000), &mut out);
        assert!(out.packets.is_empty());
        let (v, p, out) = pass(&mut a, ack(1000), MH, BS_UP);
        assert_eq!((v, out.len()), (Verdict::Forward, 0));
        assert!(!p.flags.has(Flags::ELN));
        // New data starts a new connection (ELN's fresh one sees a hole below 6000).
        pass(&mut a, data(6000), BS_UP, MH);
        assert_eq!(
            a.state_bytes(),
            CONN_BYTES + ENTRY_BYTES + SIZE as u64 + 4 * (2 + 2)
        );
    }
}

#[test]
fn snoop_eln_reports_each_repaired_loss_once_on_the_new_ack() {
    for (eln, rtx_dupacks) in [(true, 1), (true, 2), (false, 1)] {
        let mut a = SnoopAgent::new(&[MH], 3, 1, SnoopOptions { eln, local_retransmit_dupacks: rtx_dupacks, ..SnoopOptions::default() });
        lost_second_segment(&mut a);
        // The duplicates: with the second-duplicate rule the first goes to the sender,
        // with ELN set — that is the report, and the new ACK carries none.
        let first = pass(&mut a, ack(1000), MH, BS_UP);
        let dup_reported = first.0 == Verdict::Forward && first.1.flags.has(Flags::ELN);
        assert_eq!(dup_reported, eln && rtx_dupacks == 2);
        if rtx_dupacks == 2 {
            pass(&mut a, ack(1000), MH, BS_UP);
        }
        let (v, p, _) = pass(&mut a, ack(5000), MH, BS_UP);
        assert_eq!(v, Verdict::Forward);
        assert_eq!(p.flags.has(Flags::ELN), eln && !dup_reported, "eln {eln}, rtx {rtx_dupacks}");
        assert_eq!(counter(&a, "repairs_reported"), p.flags.has(Flags::ELN) as u64);
        // A clean new ACK reports nothing.
        pass(&mut a, data(5000), BS_UP, MH);
        assert!(!pass(&mut a, ack(6000), MH, BS_UP).1.flags.has(Flags::ELN));
    }
}

#[test]
fn a_local_retransmission_asks_for_the_code_the_sender_asks_for_now() {
    let mut a = agent(true);
    for k in 0..5 {
        let mut d = data(k * 1000);
        d.request_code(if k < 2 { 0 } else { 2 });
        pass(&mut a, d, BS_UP, MH);
    }
    pass(&mut a, ack(1000), MH, BS_UP);
    // Segment 1000 went out asking for code 0; by now the sender asks for code 2.
    let (_, _, out) = pass(&mut a, ack(1000), MH, BS_UP);
    assert_eq!(out[0].requested_code(), Some(2));
}
