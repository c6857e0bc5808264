//! Syndrome at the receiver (Chen, Hsiao, Hou, Ge, Fitz, WCMC 2002, §3–5, Fig. 1
//! lines 7–18 and 23–34). A base station stamps each data packet of a connection with
//! the number of packets it has relayed so far (`bs_count`, in epoch `bs_epoch`); the
//! receiver computes for every packet the *syndrome* (G_n, G_m): the gap in the sequence
//! space since `max_seq_seen` (Fig. 2) and the gap in the attached-number space. From it
//! it gives *credits* (one per loss it attributes to the wireless hop), picks which of
//! the missing packets carry them (Eq. 1), sets ELN on those packets' duplicate ACKs
//! while a credit is left (lines 11–12), and spends a credit when a set of three or more
//! ELN duplicate ACKs ends (lines 13–15). The sender's answer to ELN (retransmit, keep
//! the window: lines 19–22) is in the sender.
//!
//! Readings chosen where the extracted text is silent or ambiguous (docs/mechanisms/
//! syndrome.md repeats them):
//!
//! * **Packet mode in bytes.** A sequence gap of `b` bytes is ⌈b / MSS⌉ missing packets;
//!   the k-th starts at `max_end + (k − 1)·MSS`. `max_seq_seen` is the highest byte end
//!   received, so "SN_{i+1} − max_seq_seen − 1" becomes "seq − max_end" in bytes.
//! * **G_m against the highest attached number seen** in the epoch, not just the previous
//!   packet's. Under the paper's assumption (no reordering on the wireless hop, §4) the
//!   two are the same; on the uplink, where the wired part reorders after the stamping,
//!   an older number then gives no gap, just as an older sequence number gives none.
//! * **Eq. (1) over the unresolved losses.** The indices k are positions among the
//!   observed missing packets that have no duplicate-ACK set decided yet, with n their
//!   number and m the credits not yet committed to a set; they are recomputed whenever a
//!   syndrome adds losses or credits. This is what makes Example 1 come out as printed
//!   (ELN for 12 and 16, not 13): when 17 arrives the receiver holds three losses and two
//!   credits, and Eq. (1) with (3, 2) picks k = 1, 3. With m ≥ n every loss is marked and
//!   the surplus waits for later losses (Table 2's (G_0, G_m) and (G_n, G_m), n < m,
//!   and §5 C1.b–d, where the paper says an unused credit is used later).
//! * **A set counts as ELN when its `dupack_threshold`-th duplicate carries ELN** (that is
//!   the ACK the sender reacts to, lines 19–22), and only such a set spends a credit when
//!   it ends; a set that never reaches the threshold spends none (Example 5, scenario 2:
//!   "only three duplicate acknowledgments", i.e. the first ACK and two duplicates).
//! * **Epochs.** A packet stamped in a new epoch (a hand-off, a fresh counter) restarts
//!   the attached-number baseline at the counter's origin (the base station counts from
//!   0, lines 1–2): G_m is the packet's number, never a difference with an older
//!   epoch's. The same holds for the very first stamped packet. Unstamped packets
//!   give none either; a receiver that never sees a stamp behaves as plain TCP.

use crate::packet::{Flags, TcpData};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Which way the connection crosses the stamping base station.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SyndromeRole {
    /// FH → BS → MH, the receiver is the mobile host (Fig. 1 Case 1, Proposition 1,
    /// Table 2): a gap in attached numbers is a wireless loss; credit += m.
    Downlink,
    /// MH → BS → FH, the receiver is the fixed host (Fig. 1 Case 2, Proposition 2,
    /// Table 3): a gap in attached numbers is a wired loss; credit += n − m.
    Uplink,
}

impl SyndromeRole {
    /// As the scenario spells it (`tcp.syndrome`).
    pub fn name(self) -> &'static str {
        match self {
            SyndromeRole::Downlink => "downlink",
            SyndromeRole::Uplink => "uplink",
        }
    }
}

/// A missing packet the receiver has observed (a gap in its sequence space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Loss {
    seq: u64,
    end: u64,
    /// Eq. (1) gives it a credit: its duplicate ACKs carry ELN while a credit is left.
    marked: bool,
    /// Its duplicate-ACK set reached the threshold: its fate is decided.
    sealed: bool,
    /// Decided as an ELN set: a credit is spent when the set ends.
    eln: bool,
}

impl Loss {
    fn holds(&self, ack: u64) -> bool {
        self.seq <= ack && ack < self.end
    }
}

/// Eq. (1): whether the k-th (1-based) of n observed losses gets one of m credits.
pub fn eq1_credited(n: u64, m: u64, k: u64) -> bool {
    if m >= n {
        // Table 2's (G_0, G_m) and (G_n, G_m), n < m: every loss is credited.
        k >= 1 && k <= n
    } else if 2 * m <= n {
        k % 2 == 1 && k < 2 * m
    } else {
        // m <= n < 2m: 1, 3, ..., 2(n − m) − 1, then 2(n − m) + 1, ..., n.
        (k % 2 == 1 && k < 2 * (n - m)) || (k > 2 * (n - m) && k <= n)
    }
}

/// The receiver-side state machine.
#[derive(Debug)]
pub struct Syndrome {
    pub(super) role: SyndromeRole,
    mss: u64,
    threshold: u32,
    /// One past the highest byte received (max_seq_seen, Fig. 2).
    max_end: u64,
    /// The epoch whose attached numbers are the baseline (0 = none yet).
    pub(super) epoch: u16,
    /// The highest attached number seen in `epoch`.
    pub(super) max_an: u32,
    /// Observed missing packets not yet acknowledged, in sequence order.
    pending: VecDeque<Loss>,
    /// Credits held (Fig. 1 `credit`).
    pub credit: u64,
    /// Of `credit`: those owed by ELN sets that have not ended yet.
    committed: u64,
    last_ack: Option<u64>,
    dups: u32,
    /// Data segments that carried a base-station stamp.
    pub stamped: u64,
    /// Credits given in all.
    pub credits_given: u64,
    /// ACKs sent with ELN.
    pub eln_acks: u64,
    /// Duplicate-ACK sets that reached the threshold with ELN, and without (the sender
    /// halves its window for these).
    pub eln_sets: u64,
    pub plain_sets: u64,
    /// Syndromes Proposition 11 or 12 calls impossible on the uplink ((G_0, G_m), and
    /// (G_n, G_m) with n < m): no credit, counted.
    pub impossible: u64,
}

impl Syndrome {
    pub fn new(role: SyndromeRole, mss: u32, dupack_threshold: u32) -> Self {
        Syndrome {
            role,
            mss: mss.max(1) as u64,
            threshold: dupack_threshold.max(1),
            max_end: 0,
            epoch: 0,
            max_an: 0,
            pending: VecDeque::new(),
            credit: 0,
            committed: 0,
            last_ack: None,
            dups: 0,
            stamped: 0,
            credits_given: 0,
            eln_acks: 0,
            eln_sets: 0,
            plain_sets: 0,
            impossible: 0,
        }
    }

    /// Whether any data segment has arrived.
    pub fn got_data(&self) -> bool {
        self.max_end > 0
    }

    /// Fig. 1 line 7 / 23: compute the syndrome of a data packet and act on it.
    pub fn on_data(&mut self, d: &TcpData) {
        let (start, end) = (d.seq, d.end_seq());
        if start < self.max_end {
            // A late or resent packet fills what it covers: those are no longer missing. A
            // loss whose set is decided stays until the ACK passes it (lines 13–15).
            self.pending.retain(|l| l.sealed || !(start <= l.seq && l.end <= end));
        }
        // G_n (Fig. 2), in packets of MSS.
        let gap_start = self.max_end;
        let n = start.saturating_sub(gap_start).div_ceil(self.mss);
        self.max_end = self.max_end.max(end);
        for k in 0..n {
            let s = gap_start + k * self.mss;
            self.pending.push_back(Loss { seq: s, end: (s + self.mss).min(start), marked: false, sealed: false, eln: false });
        }
        let (epoch, an) = (d.bs_epoch, d.bs_count);
        let m = if epoch == 0 {
            None // not stamped: no syndrome
        } else {
            self.stamped += 1;
            if epoch != self.epoch {
                // A new epoch restarts the baseline at the counter's origin: the base
                // station counts from 0 (lines 1–2), so the epoch's first number is 0 and
                // a first packet numbered k follows k packets lost after the stamping. No
                // attached number of an older epoch is compared with this one.
                self.epoch = epoch;
                self.max_an = u32::MAX;
            }
            {
                let diff = an.wrapping_sub(self.max_an);
                if diff == 0 || diff > u32::MAX / 2 {
                    Some(0) // an older number (reordered after the stamping, or a copy)
                } else {
                    self.max_an = an;
                    Some((diff - 1) as u64)
                }
            }
        };
        let give = match m {
            None => 0,
            Some(m) => self.credits_for(n, m),
        };
        self.credit += give;
        self.credits_given += give;
        if give > 0 || n > 0 {
            self.assign();
        }
    }

    /// Tables 2 and 3: the credits a syndrome (G_n, G_m) gives.
    fn credits_for(&mut self, n: u64, m: u64) -> u64 {
        match self.role {
            // Table 2: every syndrome with m > 0 gives m (Props. 1, 5–8); (G_n, G_0) none (Prop. 4).
            SyndromeRole::Downlink => m,
            // Lines 24–25, Table 3: n > m >= 0 gives n − m (Props. 10, 13); n = m none
            // (Prop. 14); m > n cannot happen (Props. 11, 12).
            SyndromeRole::Uplink => {
                if m > n {
                    self.impossible += 1;
                }
                n.saturating_sub(m)
            }
        }
    }

    /// Eq. (1) over the losses whose sets are undecided, with the credits not committed.
    fn assign(&mut self) {
        let n = self.pending.iter().filter(|l| !l.sealed).count() as u64;
        let m = self.credit.saturating_sub(self.committed).min(n);
        let mut k = 0;
        for l in self.pending.iter_mut().filter(|l| !l.sealed) {
            k += 1;
            l.marked = eq1_credited(n, m, k);
        }
    }

    /// Fig. 1 lines 11–18 / 27–34 for an ACK of `ack` about to be sent.
    pub fn note_ack(&mut self, ack: u64, flags: &mut Flags) {
        if self.last_ack != Some(ack) {
            // Not a duplicate: the sets of the losses below `ack` have ended.
            while let Some(l) = self.pending.front() {
                if l.end > ack {
                    break;
                }
                if l.eln {
                    // Lines 13–14: a set of >= 3 ELN duplicate ACKs ended: spend a credit.
                    self.credit = self.credit.saturating_sub(1);
                    self.committed = self.committed.saturating_sub(1);
                }
                self.pending.pop_front();
            }
            self.last_ack = Some(ack);
            self.dups = 0;
            return;
        }
        self.dups += 1;
        let (credit, threshold, dups) = (self.credit, self.threshold, self.dups);
        let head = self.pending.front_mut().filter(|l| l.holds(ack));
        let eln = match head {
            Some(l) if l.sealed => l.eln,
            Some(l) => l.marked && credit > 0, // line 11
            None => false,
        };
        if dups == threshold {
            if let Some(l) = self.pending.front_mut().filter(|l| l.holds(ack)) {
                l.sealed = true;
                l.eln = eln;
            }
            if eln {
                self.committed += 1;
                self.eln_sets += 1;
            } else {
                self.plain_sets += 1;
            }
        }
        if eln {
            flags.set(Flags::ELN); // line 12
            self.eln_acks += 1;
        }
    }

    /// Losses observed and not yet acknowledged (for tests and state accounting).
    pub fn pending_losses(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credited(n: u64, m: u64) -> Vec<u64> {
        (1..=n).filter(|&k| eq1_credited(n, m, k)).collect()
    }

    #[test]
    fn eq1_alternates_when_2m_le_n() {
        assert_eq!(credited(4, 2), vec![1, 3]);
        assert_eq!(credited(5, 2), vec![1, 3]);
        assert_eq!(credited(3, 1), vec![1]);
        assert_eq!(credited(3, 0), Vec::<u64>::new());
    }

    #[test]
    fn eq1_fills_the_tail_when_m_le_n_lt_2m() {
        assert_eq!(credited(3, 2), vec![1, 3]);
        assert_eq!(credited(5, 4), vec![1, 3, 4, 5]);
        assert_eq!(credited(5, 3), vec![1, 3, 5]);
        assert_eq!(credited(2, 2), vec![1, 2]);
        assert_eq!(credited(1, 3), vec![1]);
    }

    #[test]
    fn eq1_gives_exactly_m_of_n() {
        for n in 0..40 {
            for m in 0..=n {
                assert_eq!(credited(n, m).len() as u64, m, "n {n} m {m}");
            }
        }
    }
}
