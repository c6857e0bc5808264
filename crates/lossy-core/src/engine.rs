//! The event queue and lazily cancelled timers (DESIGN.md "engine").
//!
//! Events are ordered by a [`Key`]: (time, ticket). A ticket is drawn from one counter
//! when something is caused, so simultaneous events run in the order they were caused.
//! Plain scheduling draws the ticket when the entry is pushed; an entity that keeps
//! several deadlines inside (a segment: transmissions ending, packets arriving) draws a
//! ticket when each deadline is created and wakes at exactly that key, so merging its
//! deadlines behind one timer never reorders it against the rest of the world.

use crate::time::SimTime;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// When an event runs: its time, then its ticket among simultaneous events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub time: SimTime,
    pub ticket: u64,
}

/// The counter tickets are drawn from (shared by everything that schedules).
#[derive(Debug, Default)]
pub struct Tickets(u64);

impl Tickets {
    /// A fresh ticket: later than every ticket drawn before.
    pub fn draw(&mut self) -> u64 {
        let t = self.0;
        self.0 += 1;
        t
    }

    /// A key at `time` with a fresh ticket.
    pub fn key(&mut self, time: SimTime) -> Key {
        Key { time, ticket: self.draw() }
    }
}

struct Entry<E> {
    key: Key,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
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
        o.key.cmp(&self.key)
    }
}

/// A priority queue of events of type `E`.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    pub tickets: Tickets,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue { heap: BinaryHeap::with_capacity(1024), tickets: Tickets::default(), popped: 0 }
    }

    /// Runs `event` at `time`, after everything already caused for that time.
    pub fn schedule(&mut self, time: SimTime, event: E) {
        let key = self.tickets.key(time);
        self.schedule_key(key, event);
    }

    /// Runs `event` at exactly `key` (a ticket drawn earlier from `self.tickets`).
    pub fn schedule_key(&mut self, key: Key, event: E) {
        self.heap.push(Entry { key, event });
    }

    pub fn pop(&mut self) -> Option<(Key, E)> {
        let e = self.heap.pop()?;
        self.popped += 1;
        Some((e.key, e.event))
    }

    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|e| e.key.time)
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

/// The timer of an entity whose deadlines carry their own tickets (a segment). The heap
/// gets an entry at exactly the deadline's key, so the entity runs where each of its
/// deadlines was caused. Entries pushed for deadlines that later moved are remembered
/// (a few, inline), so a deadline that moves earlier and back costs no second entry.
#[derive(Clone, Debug, Default)]
pub struct WakeTimer {
    deadline: Option<Key>,
    /// Keys of this timer's entries in the heap, latest first: an entry is pushed only
    /// when earlier than every outstanding one, and entries pop in key order, so the
    /// last is always the earliest and the next to pop. When full, the latest is
    /// forgotten: its entry then pops unrecognised, which at worst costs a duplicate.
    outstanding: [Key; OUTSTANDING],
    len: usize,
}

const OUTSTANDING: usize = 4;

impl WakeTimer {
    fn earliest(&self) -> Option<Key> {
        self.len.checked_sub(1).map(|i| self.outstanding[i])
    }

    fn remember(&mut self, k: Key) {
        if self.len == OUTSTANDING {
            self.outstanding.copy_within(1.., 0);
            self.len -= 1;
        }
        self.outstanding[self.len] = k;
        self.len += 1;
    }

    /// Sets the deadline; returns the key to push an entry at, if one is needed (none is
    /// when an entry at or before the deadline is already in the heap).
    #[inline]
    pub fn set(&mut self, deadline: Option<Key>) -> Option<Key> {
        // Unchanged: an entry at or before it is in the heap already (the invariant
        // every path below keeps).
        if deadline == self.deadline {
            return None;
        }
        self.deadline = deadline;
        let d = deadline?;
        if self.earliest().is_some_and(|o| o <= d) {
            return None;
        }
        self.remember(d);
        Some(d)
    }

    /// An entry of this timer popped at `key`. `Fire` if the deadline is due;
    /// `Reschedule(k)` to push an entry at the deadline `k` still ahead; else `Stale`.
    #[inline]
    pub fn on_entry(&mut self, key: Key) -> WakeEntry {
        if self.earliest() == Some(key) {
            self.len -= 1;
        }
        match self.deadline {
            Some(d) if d == key => {
                self.deadline = None;
                WakeEntry::Fire
            }
            Some(d) if d > key && self.earliest().is_none_or(|o| o > d) => {
                self.remember(d);
                WakeEntry::Reschedule(d)
            }
            _ => WakeEntry::Stale,
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub enum WakeEntry {
    Fire,
    Reschedule(Key),
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
    fn a_ticket_drawn_early_runs_before_later_causes() {
        let mut q = EventQueue::new();
        let early = q.tickets.key(SimTime(5));
        q.schedule(SimTime(5), 'b');
        q.schedule_key(early, 'a');
        let order: Vec<char> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!['a', 'b']);
    }

    fn key(time: u64, ticket: u64) -> Key {
        Key { time: SimTime(time), ticket }
    }

    #[test]
    fn wake_timer_pushes_once_per_deadline() {
        let mut t = WakeTimer::default();
        assert_eq!(t.set(Some(key(10, 1))), Some(key(10, 1)));
        // Earlier: a second entry; the first stays in the heap and is remembered.
        assert_eq!(t.set(Some(key(5, 2))), Some(key(5, 2)));
        assert_eq!(t.on_entry(key(5, 2)), WakeEntry::Fire);
        // Back to the first deadline: its entry is still in the heap, nothing to push.
        assert_eq!(t.set(Some(key(10, 1))), None);
        assert_eq!(t.on_entry(key(10, 1)), WakeEntry::Fire);
    }

    #[test]
    fn wake_timer_reschedules_a_later_deadline_at_its_own_key() {
        let mut t = WakeTimer::default();
        let _ = t.set(Some(key(10, 1)));
        assert_eq!(t.set(Some(key(20, 7))), None);
        assert_eq!(t.on_entry(key(10, 1)), WakeEntry::Reschedule(key(20, 7)));
        assert_eq!(t.on_entry(key(20, 7)), WakeEntry::Fire);
        let _ = t.set(None);
        assert_eq!(t.len, 0);
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
