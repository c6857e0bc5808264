//! The event queue and the entities' lazily cancelled timers
//! (docs/architecture.md#world).
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

    /// The earliest event if it is due by `until` (one look at the heap's top, then the
    /// pop): the run loop's step.
    #[inline]
    pub fn pop_until(&mut self, until: SimTime) -> Option<(Key, E)> {
        if self.heap.peek()?.key.time > until {
            return None;
        }
        self.pop()
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

/// What an entity's timer says when one of its entries pops.
#[derive(Debug, PartialEq, Eq)]
pub enum WakeEntry {
    /// The deadline is due: run the entity.
    Fire,
    /// The deadline moved later: push an entry at this key.
    Reschedule(Key),
    /// The entry outlived its deadline: nothing to do.
    Stale,
}

/// The one lazily cancelled timer the world keeps per entity
/// (docs/architecture.md#world): re-arming never removes a heap entry, and the entity
/// multiplexes its own deadlines inside (`timers::TimerTable`). The world's wake path is
/// one for every entity (`World::wake`, `World::rearm`); the two implementations differ
/// only in where a deadline's ticket comes from, which fixes the order of simultaneous
/// events: [`Timer`] draws it when the entry is pushed (endpoints, agents),
/// [`KeyedTimer`] takes the one drawn when the deadline was caused (segments).
pub trait EntityTimer {
    /// The entity's next deadline as it reports it.
    type Deadline: Copy + PartialEq;
    /// Points the timer at `deadline` (or clears it); returns the key to push an entry
    /// at, if one is needed.
    fn set(&mut self, deadline: Option<Self::Deadline>, tickets: &mut Tickets) -> Option<Key>;
    /// An entry of this timer popped at `key`.
    fn on_entry(&mut self, key: Key, tickets: &mut Tickets) -> WakeEntry;
}

/// A timer whose deadline is a time; its entry's ticket is drawn when it is pushed. At
/// most one live entry is kept: arming later than the pending entry just moves the
/// deadline, and the entry reschedules itself when it fires early.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timer {
    deadline: Option<SimTime>,
    scheduled: Option<SimTime>,
}

impl Timer {
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }
}

impl EntityTimer for Timer {
    type Deadline = SimTime;

    fn set(&mut self, deadline: Option<SimTime>, tickets: &mut Tickets) -> Option<Key> {
        if deadline == self.deadline {
            return None;
        }
        self.deadline = deadline;
        match deadline {
            Some(t) if self.scheduled.is_none_or(|s| t < s) => {
                self.scheduled = Some(t);
                Some(tickets.key(t))
            }
            _ => None,
        }
    }

    /// Entries are recognised by their time: the pending one is the one at `scheduled`.
    fn on_entry(&mut self, key: Key, tickets: &mut Tickets) -> WakeEntry {
        let now = key.time;
        if self.scheduled != Some(now) {
            return WakeEntry::Stale;
        }
        self.scheduled = None;
        match self.deadline {
            Some(d) if d <= now => {
                self.deadline = None;
                WakeEntry::Fire
            }
            Some(d) => {
                self.scheduled = Some(d);
                WakeEntry::Reschedule(tickets.key(d))
            }
            None => WakeEntry::Stale,
        }
    }
}

/// The timer of an entity whose deadlines carry their own tickets (a segment). The heap
/// gets an entry at exactly the deadline's key, so the entity runs where each of its
/// deadlines was caused. Entries pushed for deadlines that later moved are remembered
/// (a few, inline), so a deadline that moves earlier and back costs no second entry.
#[derive(Clone, Debug, Default)]
pub struct KeyedTimer {
    deadline: Option<Key>,
    /// Keys of this timer's entries in the heap, latest first: an entry is pushed only
    /// when earlier than every outstanding one, and entries pop in key order, so the
    /// last is always the earliest and the next to pop. When full, the latest is
    /// forgotten: its entry then pops unrecognised, which at worst costs a duplicate.
    outstanding: [Key; OUTSTANDING],
    len: usize,
}

const OUTSTANDING: usize = 4;

impl KeyedTimer {
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
}

impl EntityTimer for KeyedTimer {
    type Deadline = Key;

    /// None is needed when an entry at or before the deadline is already in the heap.
    #[inline]
    fn set(&mut self, deadline: Option<Key>, _tickets: &mut Tickets) -> Option<Key> {
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

    #[inline]
    fn on_entry(&mut self, key: Key, _tickets: &mut Tickets) -> WakeEntry {
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
    fn keyed_timer_pushes_once_per_deadline() {
        let (mut t, tk) = (KeyedTimer::default(), &mut Tickets::default());
        assert_eq!(t.set(Some(key(10, 1)), tk), Some(key(10, 1)));
        // Earlier: a second entry; the first stays in the heap and is remembered.
        assert_eq!(t.set(Some(key(5, 2)), tk), Some(key(5, 2)));
        assert_eq!(t.on_entry(key(5, 2), tk), WakeEntry::Fire);
        // Back to the first deadline: its entry is still in the heap, nothing to push.
        assert_eq!(t.set(Some(key(10, 1)), tk), None);
        assert_eq!(t.on_entry(key(10, 1), tk), WakeEntry::Fire);
    }

    #[test]
    fn keyed_timer_reschedules_a_later_deadline_at_its_own_key() {
        let (mut t, tk) = (KeyedTimer::default(), &mut Tickets::default());
        let _ = t.set(Some(key(10, 1)), tk);
        assert_eq!(t.set(Some(key(20, 7)), tk), None);
        assert_eq!(t.on_entry(key(10, 1), tk), WakeEntry::Reschedule(key(20, 7)));
        assert_eq!(t.on_entry(key(20, 7), tk), WakeEntry::Fire);
        let _ = t.set(None, tk);
        assert_eq!(t.len, 0);
    }

    #[test]
    fn timer_rearmed_later_reschedules_once_with_a_ticket_drawn_then() {
        let (mut t, tk) = (Timer::default(), &mut Tickets::default());
        assert_eq!(t.set(Some(SimTime(10)), tk), Some(key(10, 0)));
        assert_eq!(t.set(Some(SimTime(20)), tk), None);
        // Setting the same deadline again pushes nothing.
        assert_eq!(t.set(Some(SimTime(20)), tk), None);
        tk.draw();
        assert_eq!(t.on_entry(key(10, 0), tk), WakeEntry::Reschedule(key(20, 2)));
        assert_eq!(t.on_entry(key(20, 2), tk), WakeEntry::Fire);
        assert_eq!(t.deadline(), None);
    }

    #[test]
    fn timer_rearmed_earlier_leaves_a_stale_entry() {
        let (mut t, tk) = (Timer::default(), &mut Tickets::default());
        let _ = t.set(Some(SimTime(10)), tk);
        assert_eq!(t.set(Some(SimTime(4)), tk), Some(key(4, 1)));
        assert_eq!(t.on_entry(key(4, 1), tk), WakeEntry::Fire);
        assert_eq!(t.on_entry(key(10, 0), tk), WakeEntry::Stale);
    }

    #[test]
    fn cancelled_timer_does_not_fire() {
        let (mut t, tk) = (Timer::default(), &mut Tickets::default());
        let _ = t.set(Some(SimTime(10)), tk);
        let _ = t.set(None, tk);
        assert_eq!(t.on_entry(key(10, 0), tk), WakeEntry::Stale);
    }
}
