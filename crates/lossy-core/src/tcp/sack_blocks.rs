//! The receiver's SACK option (RFC 2018 §4): up to three blocks of data held above the
//! cumulative ACK, the block holding the segment that triggered the ACK first, then the
//! most recently reported other blocks. The receiver never reneges, so a block reported
//! stays held until the cumulative ACK covers it.

use crate::intervals::IntervalSet;
use crate::packet::{SackBlock, SACK_BLOCKS};

#[derive(Clone, Debug, Default)]
pub struct SackReporter {
    enabled: bool,
    /// A byte of each block in the order to report them, most recent first.
    recent: [u64; SACK_BLOCKS],
    len: usize,
}

impl SackReporter {
    pub fn new(enabled: bool) -> Self {
        SackReporter { enabled, ..Default::default() }
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// A segment starting at `seq` was queued out of order: its block goes first.
    pub fn on_out_of_order(&mut self, seq: u64) {
        if !self.enabled {
            return;
        }
        self.recent.copy_within(0..SACK_BLOCKS - 1, 1);
        self.recent[0] = seq;
        self.len = (self.len + 1).min(SACK_BLOCKS);
    }

    /// The blocks of an ACK of `rcv_nxt` given the data `held` above it, as offsets from
    /// `rcv_nxt`, unused ones (0, 0); remembers them as the most recently reported. A block
    /// merged into another or covered by the cumulative ACK drops out (§4: no block is a
    /// subset of another).
    pub fn blocks(&mut self, rcv_nxt: u64, held: &IntervalSet) -> [SackBlock; SACK_BLOCKS] {
        let mut out = [SackBlock::default(); SACK_BLOCKS];
        let mut kept = [0; SACK_BLOCKS];
        let mut n = 0;
        for &seq in &self.recent[..self.len] {
            let Some((s, e)) = held.range_containing(seq).filter(|&(s, _)| s > rcv_nxt) else { continue };
            if kept[..n].contains(&s) {
                continue;
            }
            out[n] = SackBlock { start: (s - rcv_nxt) as u32, end: (e - rcv_nxt) as u32 };
            kept[n] = s;
            n += 1;
        }
        self.recent = kept;
        self.len = n;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(ranges: &[(u64, u64)]) -> IntervalSet {
        let mut h = IntervalSet::new();
        ranges.iter().for_each(|&(s, e)| {
            h.insert(s, e);
        });
        h
    }

    fn pairs(b: [SackBlock; SACK_BLOCKS], ack: u64) -> Vec<(u64, u64)> {
        b.iter().filter(|x| x.end > x.start).map(|x| (ack + x.start as u64, ack + x.end as u64)).collect()
    }

    #[test]
    fn the_triggering_segment_s_block_comes_first_then_the_most_recent() {
        let mut r = SackReporter::new(true);
        r.on_out_of_order(2000);
        assert_eq!(pairs(r.blocks(1000, &held(&[(2000, 3000)])), 1000), vec![(2000, 3000)]);
        r.on_out_of_order(4000);
        assert_eq!(pairs(r.blocks(1000, &held(&[(2000, 3000), (4000, 5000)])), 1000), vec![(4000, 5000), (2000, 3000)]);
        r.on_out_of_order(6000);
        let h = held(&[(2000, 3000), (4000, 5000), (6000, 7000)]);
        assert_eq!(pairs(r.blocks(1000, &h), 1000), vec![(6000, 7000), (4000, 5000), (2000, 3000)]);
        // A fourth block pushes out the oldest; at most three are reported.
        r.on_out_of_order(8000);
        let h = held(&[(2000, 3000), (4000, 5000), (6000, 7000), (8000, 9000)]);
        assert_eq!(pairs(r.blocks(1000, &h), 1000), vec![(8000, 9000), (6000, 7000), (4000, 5000)]);
    }

    #[test]
    fn a_segment_extending_a_block_reports_the_whole_block_first() {
        let mut r = SackReporter::new(true);
        r.on_out_of_order(2000);
        r.on_out_of_order(5000);
        r.blocks(1000, &held(&[(2000, 3000), (5000, 6000)]));
        r.on_out_of_order(3000);
        assert_eq!(pairs(r.blocks(1000, &held(&[(2000, 4000), (5000, 6000)])), 1000), vec![(2000, 4000), (5000, 6000)]);
    }

    #[test]
    fn blocks_covered_by_the_cumulative_ack_or_merged_drop_out() {
        let mut r = SackReporter::new(true);
        r.on_out_of_order(2000);
        r.on_out_of_order(4000);
        r.blocks(1000, &held(&[(2000, 3000), (4000, 5000)]));
        // The hole at 1000 filled: the first block is now in order.
        assert_eq!(pairs(r.blocks(3000, &held(&[(4000, 5000)])), 3000), vec![(4000, 5000)]);
        // Both merged into one range: reported once.
        let mut r = SackReporter::new(true);
        r.on_out_of_order(2000);
        r.on_out_of_order(3000);
        assert_eq!(pairs(r.blocks(1000, &held(&[(2000, 4000)])), 1000), vec![(2000, 4000)]);
    }

    #[test]
    fn off_reports_nothing() {
        let mut r = SackReporter::new(false);
        r.on_out_of_order(2000);
        assert!(pairs(r.blocks(1000, &held(&[(2000, 3000)])), 1000).is_empty());
    }

    #[test]
    fn option_grows_by_eight_bytes_a_block_after_four() {
        assert_eq!([0, 1, 2, 3].map(crate::packet::sack_option_bytes), [0, 12, 20, 28]);
    }
}
