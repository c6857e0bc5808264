//! A set of byte ranges kept as sorted, disjoint, non-adjacent [start, end) pairs: the
//! receiver's out-of-order data and the ELN agent's holes. Windows hold few ranges, so
//! a sorted Vec beats a tree.

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IntervalSet {
    ranges: Vec<(u64, u64)>,
}

impl IntervalSet {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Number of disjoint ranges.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    pub fn ranges(&self) -> &[(u64, u64)] {
        &self.ranges
    }

    /// Total bytes covered.
    pub fn covered(&self) -> u64 {
        self.ranges.iter().map(|(s, e)| e - s).sum()
    }

    pub fn first(&self) -> Option<(u64, u64)> {
        self.ranges.first().copied()
    }

    pub fn contains(&self, x: u64) -> bool {
        let i = self.ranges.partition_point(|&(_, e)| e <= x);
        self.ranges.get(i).is_some_and(|&(s, _)| s <= x)
    }

    /// Adds [start, end), merging with touching ranges; returns the bytes already held.
    pub fn insert(&mut self, start: u64, end: u64) -> u64 {
        if start >= end {
            return 0;
        }
        let i = self.ranges.partition_point(|&(_, e)| e < start);
        let (mut s, mut e) = (start, end);
        let mut overlap = 0;
        let mut j = i;
        while j < self.ranges.len() && self.ranges[j].0 <= end {
            let (os, oe) = self.ranges[j];
            overlap += oe.min(end).saturating_sub(os.max(start));
            s = s.min(os);
            e = e.max(oe);
            j += 1;
        }
        self.ranges.splice(i..j, std::iter::once((s, e)));
        overlap
    }

    /// Removes [start, end) from the set (splitting a range if needed).
    pub fn remove(&mut self, start: u64, end: u64) {
        if start >= end {
            return;
        }
        let i = self.ranges.partition_point(|&(_, e)| e <= start);
        let mut j = i;
        let mut keep: [(u64, u64); 2] = [(0, 0); 2];
        let mut n = 0;
        while j < self.ranges.len() && self.ranges[j].0 < end {
            let (s, e) = self.ranges[j];
            if s < start {
                keep[n] = (s, start);
                n += 1;
            }
            if e > end {
                keep[n] = (end, e);
                n += 1;
            }
            j += 1;
        }
        self.ranges.splice(i..j, keep[..n].iter().copied());
    }

    /// The range holding `x`, if any.
    pub fn range_containing(&self, x: u64) -> Option<(u64, u64)> {
        let i = self.ranges.partition_point(|&(_, e)| e <= x);
        self.ranges.get(i).copied().filter(|&(s, _)| s <= x)
    }

    /// The first range starting above `x`, if any.
    pub fn first_above(&self, x: u64) -> Option<(u64, u64)> {
        let i = self.ranges.partition_point(|&(s, _)| s <= x);
        self.ranges.get(i).copied()
    }

    /// Bytes of [a, b) the set covers.
    pub fn covered_between(&self, a: u64, b: u64) -> u64 {
        if a >= b {
            return 0;
        }
        let i = self.ranges.partition_point(|&(_, e)| e <= a);
        self.ranges[i..].iter().take_while(|&&(s, _)| s < b).map(|&(s, e)| e.min(b) - s.max(a)).sum()
    }

    /// Removes everything below `x`.
    pub fn remove_below(&mut self, x: u64) {
        self.remove(0, x);
    }

    /// Removes and returns the first range if it starts at or below `x`.
    pub fn pop_first_at_or_below(&mut self, x: u64) -> Option<(u64, u64)> {
        match self.ranges.first() {
            Some(&(s, _)) if s <= x => Some(self.ranges.remove(0)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_merges_and_counts_overlap() {
        let mut s = IntervalSet::new();
        assert_eq!(s.insert(2000, 3000), 0);
        assert_eq!(s.insert(4000, 5000), 0);
        assert_eq!(s.insert(2500, 4500), 1000);
        assert_eq!(s.ranges(), &[(2000, 5000)]);
        // Adjacent ranges merge.
        s.insert(5000, 6000);
        assert_eq!(s.ranges(), &[(2000, 6000)]);
    }

    #[test]
    fn lookups_by_position() {
        let mut s = IntervalSet::new();
        s.insert(10, 20);
        s.insert(30, 40);
        assert_eq!(s.range_containing(10), Some((10, 20)));
        assert_eq!(s.range_containing(20), None);
        assert_eq!(s.first_above(10), Some((30, 40)));
        assert_eq!(s.first_above(5), Some((10, 20)));
        assert_eq!(s.first_above(30), None);
        assert_eq!(s.covered_between(15, 35), 10);
        assert_eq!(s.covered_between(0, 100), 20);
        assert_eq!(s.covered_between(20, 30), 0);
    }

    #[test]
    fn remove_splits_and_trims() {
        let mut s = IntervalSet::new();
        s.insert(0, 10);
        s.insert(20, 30);
        s.remove(5, 25);
        assert_eq!(s.ranges(), &[(0, 5), (25, 30)]);
        s.remove(2, 3);
        assert_eq!(s.ranges(), &[(0, 2), (3, 5), (25, 30)]);
        s.remove_below(26);
        assert_eq!(s.ranges(), &[(26, 30)]);
    }

    /// Random inserts and removals against a plain bitmap of 200 bytes.
    #[test]
    fn matches_a_bitmap_under_random_operations() {
        let mut rng = crate::rng::RngStream::new(11, 0, "intervals");
        for _ in 0..200 {
            let mut set = IntervalSet::new();
            let mut bits = [false; 200];
            for _ in 0..40 {
                let a = rng.next_u64() % 200;
                let b = (a + 1 + rng.next_u64() % 30).min(200);
                if rng.bernoulli(0.6) {
                    let held = (a..b).filter(|&i| bits[i as usize]).count() as u64;
                    assert_eq!(set.insert(a, b), held);
                    (a..b).for_each(|i| bits[i as usize] = true);
                } else if rng.bernoulli(0.5) {
                    set.remove(a, b);
                    (a..b).for_each(|i| bits[i as usize] = false);
                } else {
                    set.remove_below(a);
                    (0..a).for_each(|i| bits[i as usize] = false);
                }
                for i in 0..200u64 {
                    assert_eq!(set.contains(i), bits[i as usize], "byte {i}");
                }
                assert_eq!(set.covered(), bits.iter().filter(|&&x| x).count() as u64);
                let (x, y) = (rng.next_u64() % 200, rng.next_u64() % 201);
                let held = (x..y).filter(|&i| bits[i as usize]).count() as u64;
                assert_eq!(set.covered_between(x, y), held, "[{x}, {y})");
                // Sorted, disjoint and never touching: merges are complete.
                assert!(set.ranges().windows(2).all(|w| w[0].1 < w[1].0));
            }
        }
    }

    #[test]
    fn contains_is_half_open() {
        let mut s = IntervalSet::new();
        s.insert(10, 20);
        assert!(s.contains(10) && s.contains(19));
        assert!(!s.contains(20) && !s.contains(9));
        assert_eq!(s.covered(), 10);
    }
}
