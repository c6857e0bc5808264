//! The event queue and lazily cancelled timers (DESIGN.md "engine").
//!
//! Events are ordered by (time, insertion sequence), so simultaneous events run in the
//! order they were scheduled and a run is deterministic.

use crate::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    time: SimTime,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.time == o.time && self.seq == o.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.time.cmp(&self.time).then_with(|| o.seq.cmp(&self.seq))
    }
}

/// A priority queue of events of type `E`.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(1024), next_seq: 0, popped: 0 }
    }

    pub fn schedule(&mut self, time: SimTime, event: E) {
        self.heap.push(Entry { time, seq: self.next_seq, event });
        self.next_seq += 1;
    }

    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let e = self.heap.pop()?;
        self.popped += 1;
        Some((e.time, e.event))
    }

    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| e.time)
    }

    /// Events executed so far (including stale timer entries that were skipped).
    pub fn popped(&self) -> u64 {
        self.popped
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// Every pending event, in no particular order (for invariant checks).
    pub fn pending(&self) -> impl Iterator<Item = &E> {
        self.heap.iter().map(|e| &e.event)
    }
}

/// One timer with lazy cancellation: re-arming never removes a heap entry. At most one
/// live entry is kept per timer: arming later than the pending entry just moves the
/// deadline, and the entry reschedules itself when it fires early.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timer {
    deadline: Option<SimTime>,
    scheduled: Option<SimTime>,
}

/// What the owner must do after arming.
#[must_use]
#[derive(Debug, PartialEq, Eq)]
pub enum Arm {
    /// Put an entry for this timer in the queue at this time.
    Schedule(SimTime),
    /// An earlier entry is pending; it will reschedule itself.
    Nothing,
}

impl Timer {
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// Sets (or clears, with `None`) the deadline.
    pub fn set(&mut self, deadline: Option<SimTime>) -> Arm {
        self.deadline = deadline;
        match deadline {
            Some(t) if self.scheduled.is_none_or(|s| t < s) => {
                self.scheduled = Some(t);
                Arm::Schedule(t)
            }
            _ => Arm::Nothing,
        }
    }

    /// Called when an entry for this timer pops at `now`. Returns `Fire` if the timer is
    /// due, `Reschedule(t)` if the deadline moved later (push an entry at `t`), or `Stale`.
    pub fn on_entry(&mut self, now: SimTime) -> TimerEntry {
        if self.scheduled != Some(now) {
            return TimerEntry::Stale;
        }
        self.scheduled = None;
        match self.deadline {
            Some(d) if d <= now => {
                self.deadline = None;
                TimerEntry::Fire
            }
            Some(d) => {
                self.scheduled = Some(d);
                TimerEntry::Reschedule(d)
            }
            None => TimerEntry::Stale,
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum TimerEntry {
    Fire,
    Reschedule(SimTime),
    Stale,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_then_insertion_order() {
        let mut q = EventQueue::new();
        q.schedule(SimTime(5), 'a');
        q.schedule(SimTime(1), 'b');
        q.schedule(SimTime(5), 'c');
        q.schedule(SimTime(1), 'd');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['b', 'd', 'a', 'c']);
        assert_eq!(q.popped(), 4);
    }

    #[test]
    fn timer_rearmed_later_reschedules_once() {
        let mut t = Timer::default();
        assert_eq!(t.set(Some(SimTime(10))), Arm::Schedule(SimTime(10)));
        assert_eq!(t.set(Some(SimTime(20))), Arm::Nothing);
        assert_eq!(t.on_entry(SimTime(10)), TimerEntry::Reschedule(SimTime(20)));
        assert_eq!(t.on_entry(SimTime(20)), TimerEntry::Fire);
        assert_eq!(t.deadline(), None);
    }

    #[test]
    fn timer_rearmed_earlier_leaves_a_stale_entry() {
        let mut t = Timer::default();
        let _ = t.set(Some(SimTime(10)));
        assert_eq!(t.set(Some(SimTime(4))), Arm::Schedule(SimTime(4)));
        assert_eq!(t.on_entry(SimTime(4)), TimerEntry::Fire);
        assert_eq!(t.on_entry(SimTime(10)), TimerEntry::Stale);
    }

    #[test]
    fn cancelled_timer_does_not_fire() {
        let mut t = Timer::default();
        let _ = t.set(Some(SimTime(10)));
        let _ = t.set(None);
        assert_eq!(t.on_entry(SimTime(10)), TimerEntry::Stale);
    }
}
