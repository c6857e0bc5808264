//! The LT peeling decoder (belief propagation on the erasure channel; Luby 2002 §2,
//! "the ripple"). A received symbol is reduced by the source symbols already known; one
//! left with a single unknown neighbour joins the ripple; taking a symbol from the ripple
//! recovers its neighbour, whose value is XORed out of every other symbol that holds it,
//! which may put them in the ripple in turn. Every edge is visited once: O(edges).
//!
//! A symbol holds the XOR of its unknown neighbours' indices, so when one is left its
//! index is that XOR and no edge list has to be searched. With a symbol size of 0 the
//! same code peels indices only: the structure-only decoder used to measure overhead.

use super::xor_into;

/// One block's peeling decoder.
#[derive(Clone, Debug)]
pub struct Peeler {
    k: u32,
    t: usize,
    known: Vec<bool>,
    known_count: u32,
    source: Vec<u8>,
    /// Per source symbol: the received symbols that still count it as unknown.
    holders: Vec<Vec<u32>>,
    /// Per received symbol: (unknown neighbours, XOR of their indices), side by side
    /// because the ripple reads and writes both.
    checks: Vec<(u32, u32)>,
    values: Vec<u8>,
    ripple: Vec<u32>,
    received: u64,
}

impl Peeler {
    /// A decoder of K source symbols of `symbol_size` bytes (0: indices only).
    pub fn new(k: u32, symbol_size: usize) -> Peeler {
        Peeler {
            k,
            t: symbol_size,
            known: vec![false; k as usize],
            known_count: 0,
            source: vec![0; k as usize * symbol_size],
            holders: vec![Vec::new(); k as usize],
            checks: Vec::new(),
            values: Vec::new(),
            ripple: Vec::new(),
            received: 0,
        }
    }

    /// Back to nothing received, keeping the memory (for repeated trials).
    pub fn reset(&mut self) {
        self.known.fill(false);
        self.known_count = 0;
        self.holders.iter_mut().for_each(Vec::clear);
        self.checks.clear();
        self.values.clear();
        self.ripple.clear();
        self.received = 0;
    }

    /// Takes a received symbol: its neighbours and its bytes (`symbol_size` of them).
    /// True once every source symbol is known.
    pub fn add(&mut self, neighbours: &[u32], value: &[u8]) -> bool {
        debug_assert_eq!(value.len(), self.t);
        self.received += 1;
        if self.is_complete() {
            return true;
        }
        let id = self.checks.len() as u32;
        let at = self.values.len();
        self.values.extend_from_slice(value);
        let (mut unknown, mut index_xor) = (0u32, 0u32);
        for &v in neighbours {
            if self.known[v as usize] {
                let s = v as usize * self.t;
                xor_into(&mut self.values[at..at + self.t], &self.source[s..s + self.t]);
            } else {
                unknown += 1;
                index_xor ^= v;
                self.holders[v as usize].push(id);
            }
        }
        if unknown == 0 {
            self.values.truncate(at); // tells nothing new
            return false;
        }
        self.checks.push((unknown, index_xor));
        if unknown == 1 {
            self.ripple.push(id);
            self.run_ripple();
        }
        self.is_complete()
    }

    /// Recovers source symbols while the ripple is not empty.
    fn run_ripple(&mut self) {
        let t = self.t;
        while let Some(c) = self.ripple.pop() {
            let (unknown, index_xor) = self.checks[c as usize];
            if unknown != 1 {
                continue; // its last neighbour was recovered by another symbol meanwhile
            }
            let v = index_xor as usize;
            let cv = c as usize * t;
            self.source[v * t..(v + 1) * t].copy_from_slice(&self.values[cv..cv + t]);
            self.known[v] = true;
            self.known_count += 1;
            let holders = std::mem::take(&mut self.holders[v]);
            for &h in &holders {
                let hu = h as usize;
                let check = &mut self.checks[hu];
                check.0 -= 1;
                check.1 ^= v as u32;
                let now_one = check.0 == 1;
                if h != c {
                    let (src, vals) = (&self.source[v * t..(v + 1) * t], &mut self.values[hu * t..(hu + 1) * t]);
                    xor_into(vals, src);
                }
                if now_one {
                    self.ripple.push(h);
                }
            }
            self.holders[v] = holders; // keep its memory for the next trial
            self.holders[v].clear();
        }
    }

    pub fn is_complete(&self) -> bool {
        self.known_count == self.k
    }

    /// Source symbols recovered so far.
    pub fn known(&self) -> u32 {
        self.known_count
    }

    /// Symbols taken so far, the useless ones included.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// The K·T recovered bytes (meaningful once complete).
    pub fn source(&self) -> &[u8] {
        &self.source
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worked_example_peels_in_order() {
        // Sources a, b, c; received b, a^b, a^b^c: b, then a, then c.
        let (a, b, c) = ([1u8, 2], [4u8, 8], [16u8, 32]);
        let mut p = Peeler::new(3, 2);
        assert!(!p.add(&[0, 1, 2], &[a[0] ^ b[0] ^ c[0], a[1] ^ b[1] ^ c[1]]));
        assert!(!p.add(&[0, 1], &[a[0] ^ b[0], a[1] ^ b[1]]));
        assert_eq!(p.known(), 0); // no degree-one symbol yet: the ripple is empty
        assert!(p.add(&[1], &b));
        assert_eq!(p.source(), &[1, 2, 4, 8, 16, 32]);
        assert_eq!(p.received(), 3);
    }

    #[test]
    fn a_symbol_of_known_sources_only_is_useless() {
        let mut p = Peeler::new(2, 1);
        p.add(&[0], &[7]);
        assert!(!p.add(&[0], &[7]));
        assert_eq!((p.known(), p.received()), (1, 2));
        assert!(p.add(&[0, 1], &[7 ^ 9]));
        assert_eq!(p.source(), &[7, 9]);
    }

    #[test]
    fn a_stuck_graph_waits_and_reset_forgets() {
        // a^b and b^c: no degree-one symbol, nothing recovered, whatever the values.
        let mut p = Peeler::new(3, 0);
        assert!(!p.add(&[0, 1], &[]));
        assert!(!p.add(&[1, 2], &[]));
        assert_eq!(p.known(), 0);
        assert!(p.add(&[2], &[])); // c, then b, then a
        p.reset();
        assert_eq!((p.known(), p.received(), p.is_complete()), (0, 0, false));
        assert!(!p.add(&[0, 2], &[]));
    }
}
