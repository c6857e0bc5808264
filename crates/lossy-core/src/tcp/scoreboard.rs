//! The SACK scoreboard of RFC 6675 §4: which bytes above HighACK the receiver reported
//! holding, HighRxt and RescueRxt, and the routines IsLost, SetPipe and NextSeg.
//!
//! Ranges are half-open [start, end) in bytes. RFC 6675 names the highest octet of a
//! range; here `high_rxt` and `rescue_rxt` are one past it, so "S <= HighRxt" reads
//! `s < high_rxt` and "HighACK > RescueRxt" reads `snd_una > rescue_rxt`.

use crate::intervals::IntervalSet;

/// Which NextSeg rule (RFC 6675 §4) chose a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// (1): the first un-SACKed byte above HighRxt, below the highest SACK, IsLost.
    Lost,
    /// (2): previously unsent data.
    NewData,
    /// (3): as (1) without IsLost.
    Unsacked,
    /// (4): the one rescue retransmission per recovery, of the highest un-SACKed byte.
    Rescue,
}

/// A segment NextSeg returned: [seq, seq + len).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextSeg {
    pub seq: u64,
    pub len: u64,
    pub rule: Rule,
}

#[derive(Clone, Debug)]
pub struct Scoreboard {
    sacked: IntervalSet,
    /// One past the highest byte retransmitted in this recovery (HighRxt).
    pub high_rxt: u64,
    /// One past RescueRxt; `None` = undefined.
    pub rescue_rxt: Option<u64>,
    /// DupThresh (RFC 6675 §2: 3; the scenario's `dupack_threshold`).
    dupthresh: u64,
    mss: u64,
    /// Segments resent on an EWLN notice (Shagdar §III C), not yet acknowledged: lost to
    /// the radio, not to congestion, and already repaired, so no hole to recover.
    ewln: IntervalSet,
}

impl Scoreboard {
    pub fn new(mss: u64, dupthresh: u32) -> Self {
        Scoreboard { sacked: IntervalSet::new(), high_rxt: 0, rescue_rxt: None, dupthresh: dupthresh as u64, mss, ewln: IntervalSet::new() }
    }

    /// Update(): forgets what `una` acknowledges and records `blocks`, clipped to
    /// [una, high_data) (a block outside it is stale or bogus). Returns the bytes newly
    /// SACKed: an ACK with any is a duplicate ACK in RFC 6675 §2's sense.
    pub fn update(&mut self, una: u64, high_data: u64, blocks: &[(u64, u64)]) -> u64 {
        self.sacked.remove_below(una);
        self.ewln.remove_below(una);
        blocks.iter().fold(0, |new, &(s, e)| {
            let (s, e) = (s.max(una), e.min(high_data));
            if s >= e {
                return new;
            }
            self.ewln.remove(s, e);
            new + (e - s) - self.sacked.insert(s, e)
        })
    }

    /// RFC 2018 §8 / RFC 6675 §5.1: after a retransmission timeout the SACK state is
    /// dropped (the receiver may have reneged); the recovery variables with it.
    pub fn clear(&mut self) {
        self.sacked = IntervalSet::new();
        self.high_rxt = 0;
        self.rescue_rxt = None;
        self.ewln = IntervalSet::new();
    }

    /// [seq, end) was resent on an EWLN notice: no congestion hole until acknowledged
    /// (a timeout's go-back-N resends it with the rest).
    pub fn on_ewln_resend(&mut self, seq: u64, end: u64) {
        self.ewln.insert(seq, end);
    }

    /// `seq`, or past the SACKed ranges and the segments resent on EWLN from it: the
    /// first byte that may be a congestion hole.
    pub fn skip_held(&self, mut seq: u64) -> u64 {
        loop {
            let next = self.skip_sacked(seq);
            let next = self.ewln.range_containing(next).map_or(next, |(_, e)| e);
            if next == seq {
                return seq;
            }
            seq = next;
        }
    }

    pub fn is_sacked(&self, seq: u64) -> bool {
        self.sacked.contains(seq)
    }

    /// SACKed bytes in [a, b).
    pub fn sacked_between(&self, a: u64, b: u64) -> u64 {
        self.sacked.covered_between(a, b)
    }

    /// Disjoint SACKed ranges held (the scoreboard's size).
    pub fn ranges(&self) -> usize {
        self.sacked.len()
    }

    /// Whole-run invariant: what is SACKed lies in [una, high_data).
    pub fn check(&self, una: u64, high_data: u64) -> Result<(), String> {
        match (self.sacked.ranges().first(), self.sacked.ranges().last()) {
            (Some(&(s, _)), Some(&(_, e))) if s < una || e > high_data => {
                Err(format!("scoreboard holds [{s}, {e}) outside [snd_una {una}, snd_max {high_data})"))
            }
            _ => Ok(()),
        }
    }

    /// `seq`, or the end of the SACKed range holding it: where a resend resumes.
    pub fn skip_sacked(&self, seq: u64) -> u64 {
        self.sacked.range_containing(seq).map_or(seq, |(_, e)| e)
    }

    /// One past the highest SACKed byte; 0 when nothing is SACKed.
    pub fn highest_sacked(&self) -> u64 {
        self.sacked.ranges().last().map_or(0, |&(_, e)| e)
    }

    /// Every un-SACKed byte below this is lost, none above (IsLost is monotone: higher
    /// bytes have fewer SACKs above them). A hole is lost when DupThresh discontiguous
    /// SACKed ranges lie above it, or more than (DupThresh − 1)·SMSS SACKed bytes
    /// (RFC 6675 §4 IsLost; RFC 3517 said DupThresh·SMSS).
    pub fn lost_limit(&self) -> u64 {
        let ranges = self.sacked.ranges();
        let mut bytes_above = 0;
        for (i, &(s, e)) in ranges.iter().enumerate().rev() {
            bytes_above += e - s;
            let blocks_above = (ranges.len() - i) as u64;
            if blocks_above >= self.dupthresh || bytes_above > (self.dupthresh - 1) * self.mss {
                return s;
            }
        }
        0
    }

    /// IsLost(seq) for an un-SACKed byte.
    pub fn is_lost(&self, seq: u64) -> bool {
        !self.is_sacked(seq) && seq < self.lost_limit()
    }

    /// SetPipe(): over the un-SACKed bytes of [una, high_data), one for each byte not
    /// lost and one more for each byte retransmitted (below HighRxt, or resent on EWLN).
    pub fn pipe(&self, una: u64, high_data: u64) -> u64 {
        let unsacked = |a: u64, b: u64| b.saturating_sub(a) - self.sacked_between(a, b);
        let clamp = |x: u64| x.clamp(una, high_data);
        let (lost, rxt) = (clamp(self.lost_limit()), clamp(self.high_rxt));
        // Resent on EWLN (never SACKed: `update`), lost, and not below HighRxt.
        let ewln = if rxt < lost { self.ewln.covered_between(rxt, lost) } else { 0 };
        unsacked(lost, high_data) + unsacked(una, rxt) + ewln
    }

    /// NextSeg() (RFC 6675 §4). `new_data`: bytes of unsent data the application has and
    /// the receiver's window allows.
    pub fn next_seg(&self, una: u64, high_data: u64, new_data: u64) -> Option<NextSeg> {
        if let Some(seg) = self.first_hole(una, high_data) {
            // (1.c) IsLost; otherwise rule (3), if (2) has nothing.
            if seg.seq < self.lost_limit() {
                return Some(seg);
            }
            if new_data == 0 {
                return Some(NextSeg { rule: Rule::Unsacked, ..seg });
            }
        }
        if new_data > 0 {
            return Some(NextSeg { seq: high_data, len: new_data.min(self.mss), rule: Rule::NewData });
        }
        // (4) one rescue per recovery: a segment holding the highest un-SACKed byte.
        if self.rescue_rxt.is_some_and(|r| una <= r) {
            return None;
        }
        let top = match self.sacked.ranges().last() {
            Some(&(s, e)) if e >= high_data => s,
            _ => high_data,
        };
        let below = self.sacked.ranges().iter().rev().find(|&&(_, e)| e < top).map_or(una, |&(_, e)| e);
        (top > una).then(|| {
            let seq = top.saturating_sub(self.mss).max(below).max(una);
            NextSeg { seq, len: top - seq, rule: Rule::Rescue }
        })
    }

    /// Where recovery would start from `una`: `una` itself while no segment is held as
    /// resent on EWLN (plain SACK is untouched by EWLN's rule); else the first byte past
    /// the held and SACKed ranges, or None when the holes below the highest SACK are all
    /// EWLN's (lost to the radio, already resent: nothing congested to recover).
    pub fn congestion_hole(&self, una: u64) -> Option<u64> {
        if self.ewln.is_empty() {
            return Some(una);
        }
        let from = self.skip_held(una);
        (from < self.highest_sacked()).then_some(from)
    }

    /// (1.a) the smallest un-SACKed byte above HighRxt, (1.b) if below the highest SACK:
    /// the segment there, IsLost or not.
    pub fn first_hole(&self, una: u64, high_data: u64) -> Option<NextSeg> {
        let s2 = self.skip_held(self.high_rxt.max(una));
        (s2 < self.highest_sacked()).then(|| self.segment_from(s2, high_data))
    }

    /// Up to one SMSS from `seq`, ending at the next SACKed range or HighData.
    pub fn segment_from(&self, seq: u64, high_data: u64) -> NextSeg {
        let hole_end = self.sacked.first_above(seq).map_or(high_data, |(s, _)| s).min(high_data);
        NextSeg { seq, len: (hole_end - seq).min(self.mss), rule: Rule::Lost }
    }

    /// (C.2) a retransmission below HighData raises HighRxt, except a rescue, which sets
    /// RescueRxt (to RecoveryPoint, §4 rule 4) instead.
    pub fn on_sent(&mut self, seg: NextSeg, recovery_point: u64) {
        match seg.rule {
            Rule::Lost | Rule::Unsacked => self.high_rxt = self.high_rxt.max(seg.seq + seg.len),
            Rule::Rescue => self.rescue_rxt = Some(recovery_point),
            Rule::NewData => {}
        }
    }
}

#[cfg(test)]
#[path = "scoreboard_tests.rs"]
mod tests;
