//! A timer table for an entity that multiplexes many deadlines behind the one timer the
//! world keeps for it (docs/architecture.md#world: each entity
//! owns one timer and multiplexes its own deadlines inside, quinn-proto's `TimerTable`).
//!
//! quinn's table is a fixed array, one slot per named timer, scanned for the earliest.
//! Our users have an open set instead: Snoop one retransmission timer per connection,
//! FECTCP's sender one timer per segment in flight, the NAK ARQ one NAK per failed link
//! packet. So this is a keyed deadline set: a min-heap of (deadline, key), earliest
//! first, ties broken by key. Cancelling is lazy, as in the engine's own queue: an entry
//! is never removed when its deadline changes; the owner, who knows each key's current
//! deadline, says which entries are still live (`prune`) or skips the stale ones it pops.
//! The earliest deadline is then O(1) and arming O(log n), whatever the number of keys.

use crate::engine::Key;
use crate::time::SimTime;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A deadline a table orders by: a time, or an engine [`Key`] (a time and the ticket of
/// its cause, for entities that run where each deadline was caused).
pub trait Deadline: Ord + Copy {
    fn time(self) -> SimTime;
}

impl Deadline for SimTime {
    fn time(self) -> SimTime {
        self
    }
}

impl Deadline for Key {
    fn time(self) -> SimTime {
        self.time
    }
}

/// Deadlines of type `T` for keys of type `K`, earliest first.
#[derive(Clone, Debug)]
pub struct TimerTable<K, T = SimTime> {
    heap: BinaryHeap<Reverse<(T, K)>>,
}

impl<K: Ord + Copy, T: Deadline> Default for TimerTable<K, T> {
    fn default() -> Self {
        TimerTable { heap: BinaryHeap::new() }
    }
}

impl<K: Ord + Copy, T: Deadline> TimerTable<K, T> {
    /// Adds a deadline for `key`; an earlier entry of the same key stays until popped.
    pub fn arm(&mut self, at: T, key: K) {
        self.heap.push(Reverse((at, key)));
    }

    /// The earliest entry, live or not (the owner prunes the stale ones it can see).
    pub fn peek(&self) -> Option<(T, K)> {
        self.heap.peek().map(|&Reverse(e)| e)
    }

    /// The earliest deadline in the table.
    pub fn next(&self) -> Option<T> {
        self.peek().map(|(t, _)| t)
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    pub fn pop_due(&mut self, now: SimTime) -> Option<(T, K)> {
        if self.next()?.time() > now {
            return None;
        }
        self.heap.pop().map(|Reverse(e)| e)
    }

    /// Drops stale entries off the top until the earliest is `live`, so that
    /// [`next`](Self::next) is the true next deadline.
    pub fn prune(&mut self, mut live: impl FnMut(T, K) -> bool) {
        while let Some((t, k)) = self.peek() {
            if live(t, k) {
                break;
            }
            self.heap.pop();
        }
    }

    /// Forgets every deadline.
    pub fn clear(&mut self) {
        self.heap.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ns: u64) -> SimTime {
        SimTime(ns)
    }

    #[test]
    fn pops_due_entries_earliest_first_then_by_key() {
        let mut t = TimerTable::default();
        t.arm(at(20), 1u32);
        t.arm(at(10), 7);
        t.arm(at(10), 3);
        assert_eq!(t.next(), Some(at(10)));
        assert_eq!(t.pop_due(at(15)), Some((at(10), 3)));
        assert_eq!(t.pop_due(at(15)), Some((at(10), 7)));
        // Not due yet: it stays.
        assert_eq!(t.pop_due(at(15)), None);
        assert_eq!(t.len(), 1);
        assert_eq!(t.pop_due(at(20)), Some((at(20), 1)));
        assert!(t.is_empty());
    }

    #[test]
    fn prune_drops_stale_entries_down_to_the_first_live_one() {
        // Key 0 re-armed from 10 to 30: the entry at 10 is stale, the one at 30 live.
        let current = [at(30), at(20)];
        let mut t = TimerTable::default();
        t.arm(at(10), 0usize);
        t.arm(at(20), 1);
        t.arm(at(30), 0);
        t.prune(|d, k| current[k] == d);
        assert_eq!(t.next(), Some(at(20)));
        assert_eq!(t.len(), 2);
        // Nothing live: empty.
        t.prune(|_, _| false);
        assert_eq!(t.next(), None);
    }

    #[test]
    fn keyed_deadlines_order_by_their_tickets_at_one_time() {
        let k = |time, ticket| Key { time: at(time), ticket };
        let mut t: TimerTable<u8, Key> = TimerTable::default();
        t.arm(k(5, 9), 0);
        t.arm(k(5, 2), 1);
        assert_eq!(t.pop_due(at(5)), Some((k(5, 2), 1)));
        t.clear();
        assert_eq!(t.pop_due(at(5)), None);
    }
}
