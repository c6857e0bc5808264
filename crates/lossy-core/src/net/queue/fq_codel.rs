//! FQ-CoDel (RFC 8290): packets are hashed by flow into `flows` queues, each managed by
//! CoDel (`codel_law.rs`, §4.2), and served by deficit round robin with a `quantum` of
//! bytes, queues that just became active (the new list) before the others (the old
//! list), so that sparse flows go first (§4.1–§4.2). When the whole discipline is over
//! its limit, packets are dropped from the head of the queue with the most bytes
//! (§4.1; Linux `net/sched/sch_fq_codel.c` `fq_codel_drop` and ns-3
//! `FqCoDelQueueDisc::FqCoDelDrop`: up to `drop_batch` packets, until half of that
//! queue's bytes are gone).
//!
//! The flow is this simulator's flow id with the packet's source and destination (a
//! five-tuple's role), hashed with a perturbation drawn once from the direction's
//! queue stream (ns-3's `Perturbation` attribute; `item->Hash(m_perturbation)`).

use super::codel::{check_target_interval, default_interval, default_target};
use super::codel_law::{CodelCounts, CodelParams, CodelState};
use super::timed_fifo::TimedFifo;
use super::{AnyQueueDisc, DropSink, QueueDisc, QueueDiscSpec, QueueStats};
use crate::capacity::AnyCapacity;
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use crate::units::{Bytes, Duration, QueueLimit};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// `kind = "fq_codel"`: FQ-CoDel (RFC 8290) with ns-3's `FqCoDelQueueDisc` defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FqCodelConfig {
    /// Packets or bytes all the queues hold together, not counting the one being sent;
    /// beyond it the fattest queue loses packets from its head. Default "10240 packets"
    /// (RFC 8290 §5.2.1, ns-3's `MaxSize`).
    #[serde(default = "default_limit")]
    pub limit: QueueLimit,
    /// Flow queues the flows are hashed into, 1 to 65536. Default 1024 (RFC 8290 §5.2.1).
    #[serde(default = "default_flows")]
    pub flows: u32,
    /// Bytes a queue may send per round of the deficit round robin, > 0. Default
    /// "1514 B" (RFC 8290 §5.2.1: an Ethernet frame).
    #[serde(default = "default_quantum")]
    pub quantum: Bytes,
    /// CoDel's target on each queue, > 0. Default "5 ms" (RFC 8290 §5.2.1).
    #[serde(default = "default_target")]
    pub target: Duration,
    /// CoDel's interval on each queue, at least target. Default "100 ms".
    #[serde(default = "default_interval")]
    pub interval: Duration,
    /// Mark ECN-capable packets CE instead of CoDel's drops. Default true (ns-3's
    /// `UseEcn`); packets are ECN-capable only with `tcp.ecn`.
    #[serde(default = "default_true")]
    pub ecn: bool,
    /// Most packets one overflow drops from the fattest queue, 1 to 65536 (it stops once
    /// half that queue's bytes are gone). Default 64 (Linux `drop_batch_size`, ns-3
    /// `DropBatchSize`); 1 drops one packet per arrival over the limit.
    #[serde(default = "default_drop_batch")]
    pub drop_batch: u32,
    /// Bytes of packets all the queues may hold, an overflow like `limit`. Omitted:
    /// none (Linux's `memory_limit` counts socket-buffer memory instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limit: Option<Bytes>,
}

fn default_limit() -> QueueLimit {
    QueueLimit::Packets(10240)
}
fn default_flows() -> u32 {
    1024
}
fn default_quantum() -> Bytes {
    Bytes(1514)
}
fn default_true() -> bool {
    true
}
fn default_drop_batch() -> u32 {
    64
}

/// The most flow queues a discipline may have.
const MAX_FLOWS: u32 = 65536;

impl Default for FqCodelConfig {
    fn default() -> Self {
        FqCodelConfig {
            limit: default_limit(),
            flows: default_flows(),
            quantum: default_quantum(),
            target: default_target(),
            interval: default_interval(),
            ecn: true,
            drop_batch: default_drop_batch(),
            memory_limit: None,
        }
    }
}

impl QueueDiscSpec for FqCodelConfig {
    fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_FLOWS).contains(&self.flows) {
            return Err(format!("flows: {} is not allowed; use 1 to {MAX_FLOWS} queues, e.g. 1024 (RFC 8290 §5.2.1)", self.flows));
        }
        if self.quantum.0 == 0 {
            return Err("quantum: 0 B is not allowed; use a size > 0, e.g. \"1514 B\" (RFC 8290 §5.2.1)".into());
        }
        if !(1..=MAX_FLOWS).contains(&self.drop_batch) {
            return Err(format!("drop_batch: {} is not allowed; use 1 to {MAX_FLOWS} packets, e.g. 64 (ns-3's DropBatchSize)", self.drop_batch));
        }
        if self.memory_limit.is_some_and(|b| b.0 == 0) {
            return Err("memory_limit: 0 B is not allowed; use a size > 0, e.g. \"32 MB\", or omit it".into());
        }
        check_target_interval(self.target, self.interval)
    }

    fn build(&self, _capacity: &AnyCapacity, _delay: SimDuration, mut rng: RngStream) -> Result<AnyQueueDisc, String> {
        self.validate()?;
        let codel = CodelParams { target: self.target.0, interval: self.interval.0, ecn: self.ecn };
        Ok(FqCodel::new(self, codel, rng.next_u64()).into())
    }

    fn drops_queued(&self) -> Option<&'static str> {
        Some("fq_codel drops packets it has queued (CoDel at dequeue, the fattest flow's head on overflow) and reorders flows")
    }
}

/// Where a flow queue is in the scheduler (RFC 8290 §4.1: new, old, or neither).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ListState {
    Inactive,
    New,
    Old,
}

#[derive(Clone, Debug)]
struct Flow {
    fifo: TimedFifo,
    codel: CodelState,
    /// DRR credit in bytes (RFC 8290 §4.2); may go negative by a packet.
    deficit: i64,
    list: ListState,
}

#[derive(Clone, Debug)]
pub struct FqCodel {
    limit: QueueLimit,
    memory_limit: Option<u64>,
    quantum: i64,
    drop_batch: u32,
    codel: CodelParams,
    perturbation: u64,
    flows: Vec<Flow>,
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    /// Packets and bytes in all the queues.
    len: usize,
    bytes: u64,
    /// The largest packet seen: CoDel's one-MTU rule per queue (RFC 8289 §5.3).
    maxpacket: u64,
    counts: CodelCounts,
}

/// A 64-bit mix (splitmix64's finaliser): spreads the flow's fields over the queues.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl FqCodel {
    fn new(c: &FqCodelConfig, codel: CodelParams, perturbation: u64) -> Self {
        let flow = Flow { fifo: TimedFifo::default(), codel: CodelState::default(), deficit: 0, list: ListState::Inactive };
        FqCodel {
            limit: c.limit,
            memory_limit: c.memory_limit.map(|b| b.0),
            quantum: c.quantum.0 as i64,
            drop_batch: c.drop_batch,
            codel,
            perturbation,
            flows: vec![flow; c.flows as usize],
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            len: 0,
            bytes: 0,
            maxpacket: 0,
            counts: CodelCounts::default(),
        }
    }

    /// The queue of `p`'s flow (RFC 8290 §4.1.1: a hash of the flow, perturbed).
    fn classify(&self, p: &Packet) -> usize {
        let key = (p.flow as u64) << 32 | (p.src as u64) << 16 | p.dst as u64;
        (mix(key ^ self.perturbation) % self.flows.len() as u64) as usize
    }

    fn over_limit(&self) -> bool {
        let over = match self.limit {
            QueueLimit::Packets(n) => self.len as u64 > n,
            QueueLimit::Bytes(b) => self.bytes > b,
        };
        over || self.memory_limit.is_some_and(|m| self.bytes > m)
    }

    /// Drops from the head of the queue with the most bytes, up to `drop_batch` packets
    /// or until half its bytes are gone (Linux `fq_codel_drop`, ns-3 `FqCoDelDrop`).
    fn drop_from_fattest(&mut self, dropped: DropSink) {
        let Some((fat, backlog)) = self.flows.iter().map(|f| f.fifo.bytes()).enumerate().filter(|&(_, b)| b > 0).max_by_key(|&(i, b)| (b, std::cmp::Reverse(i))) else { return };
        let threshold = backlog / 2;
        let (mut gone, mut n) = (0u64, 0u32);
        let flow = &mut self.flows[fat];
        while let Some((_, p)) = flow.fifo.pop() {
            gone += p.size as u64;
            n += 1;
            self.len -= 1;
            self.bytes -= p.size as u64;
            dropped(p);
            if n >= self.drop_batch || gone >= threshold {
                break;
            }
        }
    }

    /// The next flow with credit, DRR over the new list then the old (RFC 8290 §4.2);
    /// a flow out of credit gets a quantum more and goes to the end of the old list.
    fn next_flow(&mut self) -> Option<(u32, bool)> {
        loop {
            let (idx, new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&i), _) => (i, true),
                (None, Some(&i)) => (i, false),
                (None, None) => return None,
            };
            let flow = &mut self.flows[idx as usize];
            if flow.deficit > 0 {
                return Some((idx, new));
            }
            flow.deficit += self.quantum;
            flow.list = ListState::Old;
            if new { self.new_flows.pop_front() } else { self.old_flows.pop_front() };
            self.old_flows.push_back(idx);
        }
    }
}

impl QueueDisc for FqCodel {
    // Not inlined into `AnyQueueDisc`'s dispatch, which stays small enough to inline
    // drop-tail's path into the link (issue 28's hot path).
    #[inline(never)]
    fn enqueue(&mut self, now: SimTime, pkt: Packet, dropped: DropSink) {
        let idx = self.classify(&pkt);
        self.maxpacket = self.maxpacket.max(pkt.size as u64);
        let flow = &mut self.flows[idx];
        flow.fifo.push(now, pkt);
        self.len += 1;
        self.bytes += pkt.size as u64;
        // §4.1: a queue that was not in either list joins the new list with a quantum.
        if flow.list == ListState::Inactive {
            flow.list = ListState::New;
            flow.deficit = self.quantum;
            self.new_flows.push_back(idx as u32);
        }
        if self.over_limit() {
            self.drop_from_fattest(dropped);
        }
    }

    // Not inlined into `AnyQueueDisc`'s dispatch, which stays small enough to inline
    // drop-tail's path into the link (issue 28's hot path).
    #[inline(never)]
    fn dequeue(&mut self, now: SimTime, dropped: DropSink) -> Option<Packet> {
        loop {
            let (idx, new) = self.next_flow()?;
            let flow = &mut self.flows[idx as usize];
            let (len0, bytes0) = (flow.fifo.len(), flow.fifo.bytes());
            let got = flow.codel.dequeue(now, &mut flow.fifo, self.maxpacket, &self.codel, dropped, &mut self.counts);
            self.len -= len0 - flow.fifo.len();
            self.bytes -= bytes0 - flow.fifo.bytes();
            match got {
                Some(p) => {
                    flow.deficit -= p.size as i64;
                    return Some(p);
                }
                // §4.2: an empty new queue moves to the old list (so it cannot come
                // back as new at once); an empty old queue leaves the lists.
                None if new => {
                    flow.list = ListState::Old;
                    self.new_flows.pop_front();
                    self.old_flows.push_back(idx);
                }
                None => {
                    flow.list = ListState::Inactive;
                    self.old_flows.pop_front();
                }
            }
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        for flow in &mut self.flows {
            flow.fifo.drain(f);
            flow.codel.reset_above();
            flow.list = ListState::Inactive;
        }
        self.new_flows.clear();
        self.old_flows.clear();
        self.len = 0;
        self.bytes = 0;
    }

    fn stats(&self, _end_s: f64) -> QueueStats {
        QueueStats { early_drops: self.counts.drops, marks: self.counts.marks, ..QueueStats::default() }
    }
}

#[cfg(test)]
#[path = "fq_codel_tests.rs"]
mod tests;
