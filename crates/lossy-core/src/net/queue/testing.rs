//! Test helpers: a discipline's `enqueue` and `dequeue` with the drops collected.

use super::QueueDisc;
use crate::packet::Packet;
use crate::time::SimTime;

/// Offers `pkt`; gives back the one packet dropped, if any (the arrival for a
/// drop-tail discipline). Panics if more than one was dropped.
pub fn offer(q: &mut impl QueueDisc, now: SimTime, pkt: Packet) -> Result<(), Packet> {
    let mut out = Vec::new();
    q.enqueue(now, pkt, &mut |p| out.push(p));
    assert!(out.len() <= 1, "{} packets dropped by one arrival", out.len());
    out.pop().map_or(Ok(()), Err)
}

/// Dequeues; panics if the discipline dropped anything on the way.
pub fn take(q: &mut impl QueueDisc, now: SimTime) -> Option<Packet> {
    q.dequeue(now, &mut |p| panic!("dropped at dequeue: {p:?}"))
}

/// Dequeues, collecting what the discipline dropped on the way into `dropped`.
pub fn take_dropping(q: &mut impl QueueDisc, now: SimTime, dropped: &mut Vec<Packet>) -> Option<Packet> {
    q.dequeue(now, &mut |p| dropped.push(p))
}

/// Offers `pkt`, collecting every packet dropped into `dropped`.
pub fn offer_dropping(q: &mut impl QueueDisc, now: SimTime, pkt: Packet, dropped: &mut Vec<Packet>) {
    q.enqueue(now, pkt, &mut |p| dropped.push(p));
}
