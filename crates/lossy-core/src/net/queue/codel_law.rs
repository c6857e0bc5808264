//! CoDel's control law over one timed FIFO (RFC 8289 §5, the reference pseudocode's
//! `dodequeue`, `dequeue` and `control_law`): shared by CoDel and by each of
//! FQ-CoDel's flow queues (RFC 8290 §4.2).
//!
//! Readings (docs/mechanisms/queue-codel.md): the inverse square root is computed
//! exactly (ns-3's `codel-queue-disc.cc`, ported from Linux, keeps a fixed-point one
//! updated by a Newton step); an ECN mark replaces a drop as in ns-3's `DoDequeue`: the
//! marked packet is sent, and in the dropping state the next signal is scheduled from
//! now; `now − drop_next` in the re-entry rule is signed, as ns-3's `CoDelTimeBefore`
//! compares (a drop_next still ahead counts as within 16 intervals).

use super::timed_fifo::TimedFifo;
use super::DropSink;
use crate::packet::{Flags, Packet};
use crate::time::{SimDuration, SimTime};

/// CoDel's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CodelParams {
    /// The acceptable standing sojourn time (RFC 8289 §4.4: TARGET).
    pub target: SimDuration,
    /// The sliding window the sojourn must stay above target for (§4.3: INTERVAL).
    pub interval: SimDuration,
    /// Mark ECT packets CE instead of dropping them (§4.3 / §5: "drop or mark").
    pub ecn: bool,
}

/// Drops and marks the law made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CodelCounts {
    pub drops: u64,
    pub marks: u64,
}

/// The state of one CoDel instance (§5.1's `codel_queue_t` members).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CodelState {
    /// When the sojourn time went above target, plus interval (`first_above_time_`;
    /// `None` for the pseudocode's 0).
    first_above: Option<SimTime>,
    /// When the next drop is due while dropping (`drop_next_`).
    pub drop_next: SimTime,
    /// Drops since entering the dropping state (`count_`), and its value when the
    /// dropping state was last entered (`lastcount_`).
    pub count: u32,
    lastcount: u32,
    /// In the dropping state (`dropping_`).
    pub dropping: bool,
}

/// `control_law`: t + interval / √count (§5.4), in whole nanoseconds.
pub fn control_law(t: SimTime, interval: SimDuration, count: u32) -> SimTime {
    let gap = interval.as_nanos() as f64 / (count.max(1) as f64).sqrt();
    t + SimDuration(gap.round() as u64)
}

impl CodelState {
    /// `dodequeue` (§5.3): the head packet, and whether its sojourn time has been at or
    /// above target for at least an interval. `maxpacket` is §5.3's `maxpacket_`: while
    /// the queue left holds no more than it, nothing is dropped (§4.4: keep at least
    /// one MTU in the queue, so a slow link is not starved).
    fn dodequeue(&mut self, now: SimTime, q: &mut TimedFifo, maxpacket: u64, p: &CodelParams) -> (Option<Packet>, bool) {
        let Some((arrived, pkt)) = q.pop() else {
            // Empty: cannot be above target.
            self.first_above = None;
            return (None, false);
        };
        let sojourn = now.since(arrived);
        if sojourn < p.target || q.bytes() <= maxpacket {
            // Went below: stay below for at least an interval.
            self.first_above = None;
            return (Some(pkt), false);
        }
        match self.first_above {
            // Just went above: if still above an interval from now, drop.
            None => {
                self.first_above = Some(now + p.interval);
                (Some(pkt), false)
            }
            Some(t) => (Some(pkt), now >= t),
        }
    }

    /// Marks `pkt` CE if ECN is on and it is ECN-capable; whether it did.
    fn mark(pkt: &mut Packet, p: &CodelParams, counts: &mut CodelCounts) -> bool {
        if p.ecn && pkt.flags.has(Flags::ECT) {
            pkt.flags.set(Flags::CE);
            counts.marks += 1;
            true
        } else {
            false
        }
    }

    /// `dequeue` (§5.5): the next packet to send from `q`, dropping (to `dropped`) or
    /// marking what the control law says.
    pub fn dequeue(&mut self, now: SimTime, q: &mut TimedFifo, maxpacket: u64, p: &CodelParams, dropped: DropSink, counts: &mut CodelCounts) -> Option<Packet> {
        let (mut pkt, mut ok_to_drop) = self.dodequeue(now, q, maxpacket, p);
        if self.dropping {
            if !ok_to_drop {
                // Sojourn below target: leave the dropping state.
                self.dropping = false;
            }
            // Time for the next drop(s); a large backlog may make several due now.
            while self.dropping && now >= self.drop_next {
                let mut head = pkt.expect("ok_to_drop implies a packet");
                self.count += 1;
                if Self::mark(&mut head, p, counts) {
                    // ns-3 `DoDequeue`: a mark schedules the next from now.
                    self.drop_next = control_law(now, p.interval, self.count);
                    return Some(head);
                }
                dropped(head);
                counts.drops += 1;
                (pkt, ok_to_drop) = self.dodequeue(now, q, maxpacket, p);
                if ok_to_drop {
                    self.drop_next = control_law(self.drop_next, p.interval, self.count);
                } else {
                    self.dropping = false;
                }
            }
        } else if ok_to_drop {
            // Above target for an interval: drop (or mark) and enter the dropping state.
            let mut head = pkt.expect("ok_to_drop implies a packet");
            if Self::mark(&mut head, p, counts) {
                pkt = Some(head);
            } else {
                dropped(head);
                counts.drops += 1;
                pkt = self.dodequeue(now, q, maxpacket, p).0;
            }
            self.dropping = true;
            // §5.5: if the dropping state is re-entered soon (drop_next is at most an
            // interval after the last drop, so now − drop_next approximates the time
            // since it), start from the drop rate that controlled the queue last time
            // (count − lastcount, within 16 intervals; ns-3's `DoDequeue` likewise).
            let delta = self.count as i64 - self.lastcount as i64;
            let recent = now.since(self.drop_next) < p.interval.saturating_mul(16);
            self.count = if delta > 1 && recent { delta as u32 } else { 1 };
            self.drop_next = control_law(now, p.interval, self.count);
            self.lastcount = self.count;
        }
        pkt
    }

    /// The queue was emptied by the host (link down): nothing is above target.
    pub fn reset_above(&mut self) {
        self.first_above = None;
        self.dropping = false;
    }
}
