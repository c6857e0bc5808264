//! The sender variables that congestion control and loss recovery act on (RFC 793 /
//! RFC 5681 names). Kept apart from the sender so both traits can be handed `&mut` to it.

use crate::metrics::{Columns, Metric, Metrics};

/// RFC 5681 §3.1: the initial ssthresh, "arbitrarily high"; traces show it as NaN.
pub const SSTHRESH_UNSET: u64 = u64::MAX / 2;

/// Why a segment was sent again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetxCause {
    /// Fast retransmit or a NewReno partial ACK (loss inferred from duplicate ACKs).
    Fast,
    /// Retransmission timeout, including the go-back-N resends that follow it.
    Timeout,
    /// Duplicate ACKs that carried an explicit loss notification.
    Eln,
    /// An ACK that named a segment a MAC gave up on (EWLN, Shagdar Fig. 3).
    Ewln,
}

/// The four congestion and notification signals an ACK can carry
/// (docs/architecture.md#family-transport: one event says what it was). The window's
/// answer to each is the congestion control's (`CongestionControl::on_congestion`); what
/// else follows is each signal's own: a loss or an ELN starts loss recovery (`recovery`),
/// an EWLN resends the named segment (`ewln.rs`), an ECE reduces once per window
/// (`ecn.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Loss inferred from duplicate ACKs or SACK blocks: congestion (RFC 5681 §3.2).
    Loss,
    /// Loss on the wireless hop, notified explicitly: not congestion (Chen Fig. 1).
    Eln,
    /// A segment a MAC gave up on, named by the receiver: not congestion (Shagdar Fig. 3).
    Ewln,
    /// Congestion experienced, echoed by ECE: congestion without a loss (RFC 3168 §6.1.2).
    Ecn,
}

impl Signal {
    /// Whether it means a queue overflowed or was about to: the window is reduced.
    pub fn is_congestion(self) -> bool {
        matches!(self, Signal::Loss | Signal::Ecn)
    }

    /// The cause charged for the retransmission a recovery for it makes.
    pub fn retransmit_cause(self) -> RetxCause {
        match self {
            Signal::Loss | Signal::Ecn => RetxCause::Fast,
            Signal::Eln => RetxCause::Eln,
            Signal::Ewln => RetxCause::Ewln,
        }
    }
}

/// Per-flow counters, reported as they are in the run summary (every sender's: TCP's,
/// FECTCP's, and the CBR source's segments and bytes).
#[derive(Clone, Debug, Default)]
pub struct SenderCounters {
    pub segments_sent: u64,
    pub bytes_sent: u64,
    pub retransmits_fast: u64,
    pub retransmits_timeout: u64,
    pub retransmits_eln: u64,
    /// Resent on an EWLN ACK naming them (Shagdar Fig. 3), without a window reduction.
    pub retransmits_ewln: u64,
    pub timeouts: u64,
    pub fast_recoveries: u64,
    pub eln_recoveries: u64,
    pub window_reductions: u64,
    /// Reductions in answer to ECE (RFC 3168 §6.1.2), also counted in `window_reductions`.
    pub ecn_reductions: u64,
}

impl SenderCounters {
    /// Its columns, which every flow's row has (zeros for a sender that does not count
    /// the thing).
    pub const COLUMNS: &'static Columns = &[
        ("segments_sent", Metric::U64(0)),
        ("bytes_sent", Metric::U64(0)),
        ("retransmits_fast", Metric::U64(0)),
        ("retransmits_timeout", Metric::U64(0)),
        ("retransmits_eln", Metric::U64(0)),
        ("retransmits_ewln", Metric::U64(0)),
        ("timeouts", Metric::U64(0)),
        ("fast_recoveries", Metric::U64(0)),
        ("eln_recoveries", Metric::U64(0)),
        ("window_reductions", Metric::U64(0)),
        ("ecn_reductions", Metric::U64(0)),
    ];

    /// Writes them into the flow's row.
    pub fn report(&self, out: &mut Metrics) {
        out.set("segments_sent", self.segments_sent);
        out.set("bytes_sent", self.bytes_sent);
        out.set("retransmits_fast", self.retransmits_fast);
        out.set("retransmits_timeout", self.retransmits_timeout);
        out.set("retransmits_eln", self.retransmits_eln);
        out.set("retransmits_ewln", self.retransmits_ewln);
        out.set("timeouts", self.timeouts);
        out.set("fast_recoveries", self.fast_recoveries);
        out.set("eln_recoveries", self.eln_recoveries);
        out.set("window_reductions", self.window_reductions);
        out.set("ecn_reductions", self.ecn_reductions);
    }

    pub fn count_retransmit(&mut self, cause: RetxCause) {
        match cause {
            RetxCause::Fast => self.retransmits_fast += 1,
            RetxCause::Timeout => self.retransmits_timeout += 1,
            RetxCause::Eln => self.retransmits_eln += 1,
            RetxCause::Ewln => self.retransmits_ewln += 1,
        }
    }
}

#[derive(Clone, Debug)]
pub struct SenderState {
    /// SMSS in bytes.
    pub mss: u64,
    /// Oldest unacknowledged byte (HighACK).
    pub snd_una: u64,
    /// Next byte to send; below `snd_max` during go-back-N after a timeout.
    pub snd_nxt: u64,
    /// One past the highest byte ever sent (HighData).
    pub snd_max: u64,
    pub cwnd: u64,
    pub ssthresh: u64,
    /// Growth stops here (W_max, the socket buffer).
    pub max_cwnd: u64,
    pub dupacks: u32,
    /// K: duplicate ACKs that trigger fast retransmit (RFC 5681 §3.2: 3).
    pub dupack_threshold: u32,
    /// Duplicate ACKs from which one carrying ELN starts an ELN recovery (ns-2's
    /// `eln_rxmit_thresh_`); `new` sets it to K, the sender to its configured value.
    pub eln_threshold: u32,
    /// `recover` of RFC 6582 §3.2 (stored as one past the highest byte sent).
    pub recover: Option<u64>,
    pub in_recovery: bool,
    /// What ends recovery: cwnd returns here (ssthresh for a congestion loss, the old
    /// cwnd for an ELN, which is not congestion).
    pub recovery_target: u64,
    pub recovery_cause: RetxCause,
    /// FlightSize when the last fast retransmit began (RFC 5681 §3.2 step 2 halves it);
    /// an RTO during recovery halves this, not the FlightSize inflated since.
    pub recovery_flight: u64,
    /// New data sent by limited transmit (RFC 3042; RFC 6675 §5 step 3) since the last
    /// cumulative ACK: RFC 5681 §3.2 step 2 leaves it out of the FlightSize the window
    /// halves at the third duplicate ACK.
    pub limited_sent: u64,
    /// A request to resend the segment at `snd_una` at the next transmit opportunity.
    pub retransmit: Option<RetxCause>,
    /// The cause charged for go-back-N resends below `snd_max`.
    pub go_back_cause: RetxCause,
    pub counters: SenderCounters,
}

impl SenderState {
    pub fn new(mss: u64, initial_cwnd: u64, max_cwnd: u64, dupack_threshold: u32) -> Self {
        SenderState {
            mss,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            cwnd: initial_cwnd,
            // RFC 5681 §3.1: initial ssthresh arbitrarily high.
            ssthresh: SSTHRESH_UNSET,
            max_cwnd,
            dupacks: 0,
            dupack_threshold,
            eln_threshold: dupack_threshold,
            recover: None,
            in_recovery: false,
            recovery_target: initial_cwnd,
            recovery_cause: RetxCause::Fast,
            recovery_flight: 0,
            limited_sent: 0,
            retransmit: None,
            go_back_cause: RetxCause::Timeout,
            counters: SenderCounters::default(),
        }
    }

    /// Whether the duplicate ACK just counted starts a recovery for `signal`: the K-th
    /// for a loss (RFC 5681 §3.2), any carrying ELN once `eln_threshold` have arrived
    /// (ns-2 `TcpAgent::tcp_eln` resends on exactly the `eln_rxmit_thresh_`-th; "from"
    /// here, so a first ELN mark after that count is not ignored until the timeout).
    /// EWLN's and ECN's duplicates start none (their answers are their own).
    pub fn recovery_due(&self, signal: Signal) -> bool {
        match signal {
            Signal::Loss => self.dupacks == self.dupack_threshold,
            Signal::Eln => self.dupacks >= self.eln_threshold,
            Signal::Ewln | Signal::Ecn => false,
        }
    }

    /// FlightSize (RFC 5681 §2): data sent and not yet acknowledged.
    pub fn flight_size(&self) -> u64 {
        self.snd_max - self.snd_una
    }

    /// The FlightSize a loss halves (RFC 5681 eq. 4): without the data limited transmit
    /// sent on the duplicate ACKs (§3.2 step 2: it "MUST NOT be included").
    pub fn reduction_flight(&self) -> u64 {
        self.flight_size().saturating_sub(self.limited_sent)
    }

    /// cwnd without fast-recovery inflation: in recovery, the window recovery returns to
    /// (ns-3's CongestionWindow trace; cwnd itself is its CongestionWindowInflated).
    pub fn cwnd_uninflated(&self) -> u64 {
        if self.in_recovery {
            self.recovery_target
        } else {
            self.cwnd
        }
    }

    /// Goes back to `snd_una` and resends everything from there (timeout, Tahoe).
    pub fn go_back_n(&mut self, cause: RetxCause) {
        self.snd_nxt = self.snd_una;
        self.go_back_cause = cause;
    }
}
