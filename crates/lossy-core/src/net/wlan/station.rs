//! One WLAN station's transmit side: its interface queue, the frame in service, its
//! backoff counter and contention window, and the retry counters (802.11-1999 §9.2.4–
//! 9.2.5). The medium (`dcf.rs`) decides when the station transmits; the station decides
//! what follows a success or a failure.

use crate::net::queue::{AnyQueueDisc, QueueDisc};
use crate::packet::{NodeId, Packet};
use crate::rng::RngStream;
use crate::time::SimTime;
use std::collections::VecDeque;

/// The frame a station is sending: a packet, its receiver and its MAC sequence number,
/// with the retry counts of its exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub pkt: Packet,
    /// The receiving station's index in the WLAN.
    pub rx: u16,
    /// The 12-bit MAC sequence number (§7.1.3.4.1), the same on every retry.
    pub seq: u16,
    /// Whether it goes after an RTS/CTS exchange (its MPDU is longer than the RTS
    /// threshold), so that its own failures count against the long retry limit.
    pub long: bool,
    /// Short retry count (failed RTSs, and failed frames no longer than the threshold)
    /// and long retry count (failed frames longer than it) (§9.2.4).
    pub ssrc: u32,
    pub slrc: u32,
    /// The receiver has passed the packet up (its ACK may still have been lost): the
    /// packet no longer counts as held here, and giving up on it drops nothing.
    pub delivered: bool,
}

/// What became of an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// The ACK came back.
    Success,
    /// The RTS got no CTS (collision, or either frame corrupted): a short retry.
    RtsFailed,
    /// The data frame got no ACK: a long retry if the frame went after an RTS, else short.
    DataFailed,
}

/// After a failure: try again, or give up (a retry count reached its limit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Retry,
    GiveUp(Frame),
}

pub struct Station {
    pub node: NodeId,
    pub attached: bool,
    pub queue: AnyQueueDisc,
    /// The receiver of each queued packet, in queue order (the disciplines a WLAN allows
    /// drop only arrivals, so the two stay aligned).
    pub queued_rx: VecDeque<u16>,
    pub frame: Option<Frame>,
    /// Backoff slots left, counted from the medium's current countdown origin; `None`
    /// when no backoff is pending (post-backoff done, or never drawn).
    pub backoff: Option<u32>,
    pub cw: u32,
    /// The next MAC sequence number (one counter per station, modulo 4096).
    pub next_seq: u16,
    /// The station's own stream for backoff draws (`wlan:<i>:A:backoff`).
    pub rng: RngStream,
}

impl Station {
    pub fn new(node: NodeId, queue: AnyQueueDisc, cw_min: u32, rng: RngStream) -> Self {
        Station { node, attached: true, queue, queued_rx: VecDeque::new(), frame: None, backoff: None, cw: cw_min, next_seq: 0, rng }
    }

    /// A backoff uniform on the integers 0..=cw (§9.2.4: "a pseudorandom integer drawn
    /// from a uniform distribution over the interval [0, CW]"; ns-2 draws in [0, CW − 1]).
    pub fn draw_backoff(&mut self) -> u32 {
        let n = self.cw as u64 + 1;
        ((self.rng.uniform() * n as f64) as u64).min(n - 1) as u32
    }

    /// Takes the next queued packet into service when none is; `long_above` is the RTS
    /// threshold in MPDU bytes and `mpdu` the MPDU size of a packet.
    pub fn pull(&mut self, now: SimTime, long_above: u64, mpdu: impl Fn(u16) -> u64) -> bool {
        if self.frame.is_some() {
            return false;
        }
        // `WlanConfig::validate` allows no discipline that drops at dequeue.
        let Some(pkt) = self.queue.dequeue(now, &mut |p| unreachable!("a WLAN queue dropped {p:?} at dequeue")) else { return false };
        let rx = self.queued_rx.pop_front().expect("a receiver per queued packet");
        let seq = self.next_seq;
        self.next_seq = (self.next_seq + 1) % 4096;
        self.frame = Some(Frame { pkt, rx, seq, long: mpdu(pkt.size) > long_above, ssrc: 0, slrc: 0, delivered: false });
        true
    }

    /// The exchange succeeded: CW back to CWmin and a post-backoff drawn (§9.2.5.2: a
    /// backoff follows every transmission, even with nothing more to send).
    pub fn on_success(&mut self, cw_min: u32) -> Frame {
        let f = self.frame.take().expect("a frame in service");
        self.cw = cw_min;
        self.backoff = Some(self.draw_backoff());
        f
    }

    /// The exchange failed: count the retry; double CW (to at most `cw_max`) and back off
    /// again, or give the frame up when a count reaches its limit ("greater than or
    /// equal", §9.2.3.5 as ns-2 reads it: a limit of 7 allows 7 attempts), resetting CW.
    pub fn on_failure(&mut self, what: Attempt, limits: (u32, u32), cw: (u32, u32)) -> Next {
        let f = self.frame.as_mut().expect("a frame in service");
        let (count, limit) = match what {
            Attempt::DataFailed if f.long => (&mut f.slrc, limits.1),
            _ => (&mut f.ssrc, limits.0),
        };
        *count += 1;
        if *count >= limit {
            let f = self.frame.take().expect("checked");
            self.cw = cw.0;
            self.backoff = Some(self.draw_backoff());
            return Next::GiveUp(f);
        }
        self.cw = (2 * self.cw + 1).min(cw.1);
        self.backoff = Some(self.draw_backoff());
        Next::Retry
    }

    /// Packets held: queued, and the frame in service unless already passed up.
    pub fn held(&self) -> u64 {
        self.queue.len() as u64 + self.frame.is_some_and(|f| !f.delivered) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::queue::drop_tail::DropTail;
    use crate::units::QueueLimit;

    fn station() -> Station {
        Station::new(0, DropTail::new(QueueLimit::Packets(10)).into(), 31, RngStream::new(1, 0, "t"))
    }

    fn load(s: &mut Station, size: u16, long_above: u64) {
        crate::net::queue::testing::offer(&mut s.queue, SimTime::ZERO, Packet::udp(0, 0, 1, 0, size as u32, size)).unwrap();
        s.queued_rx.push_back(1);
        assert!(s.pull(SimTime::ZERO, long_above, |b| b as u64 + 28));
    }

    #[test]
    fn cw_doubles_to_cw_max_and_the_short_limit_counts_attempts() {
        let mut s = station();
        load(&mut s, 1000, u64::MAX);
        let mut cws = Vec::new();
        for _ in 0..6 {
            assert_eq!(s.on_failure(Attempt::DataFailed, (7, 4), (31, 255)), Next::Retry);
            cws.push(s.cw);
        }
        assert_eq!(cws, [63, 127, 255, 255, 255, 255]);
        // The 7th failure reaches ShortRetryLimit = 7: 7 attempts in all.
        assert!(matches!(s.on_failure(Attempt::DataFailed, (7, 4), (31, 255)), Next::GiveUp(f) if f.ssrc == 7));
        assert_eq!((s.cw, s.frame.is_none()), (31, true));
    }

    #[test]
    fn a_frame_above_the_rts_threshold_counts_data_failures_against_the_long_limit() {
        let mut s = station();
        load(&mut s, 1000, 500);
        assert!(s.frame.unwrap().long);
        // RTS failures are short retries and do not exhaust the long limit.
        for _ in 0..3 {
            assert_eq!(s.on_failure(Attempt::RtsFailed, (7, 4), (31, 1023)), Next::Retry);
            assert_eq!(s.on_failure(Attempt::DataFailed, (7, 4), (31, 1023)), Next::Retry);
        }
        assert!(matches!(s.on_failure(Attempt::DataFailed, (7, 4), (31, 1023)), Next::GiveUp(f) if f.slrc == 4 && f.ssrc == 3));
    }

    #[test]
    fn success_resets_cw_and_draws_a_post_backoff_in_range() {
        let mut s = station();
        load(&mut s, 100, u64::MAX);
        let _ = s.on_failure(Attempt::DataFailed, (7, 4), (31, 1023));
        s.on_success(31);
        assert_eq!(s.cw, 31);
        assert!(s.backoff.is_some_and(|b| b <= 31));
        let draws: Vec<u32> = (0..20_000).map(|_| s.draw_backoff()).collect();
        assert_eq!((draws.iter().min(), draws.iter().max()), (Some(&0), Some(&31)));
        let mean = draws.iter().sum::<u32>() as f64 / draws.len() as f64;
        assert!((mean - 15.5).abs() < 0.2, "{mean}");
    }

    #[test]
    fn sequence_numbers_wrap_at_4096() {
        let mut s = station();
        s.next_seq = 4095;
        load(&mut s, 100, u64::MAX);
        assert_eq!((s.frame.unwrap().seq, s.next_seq), (4095, 0));
    }
}
