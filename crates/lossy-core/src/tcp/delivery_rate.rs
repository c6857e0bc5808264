//! Delivery-rate estimation, draft-cheng-iccrg-delivery-rate-estimation-02 (March 2022,
//! the latest version; Linux net/ipv4/tcp_rate.c is its implementation): the connection's
//! delivery state (§3.1: C.delivered, C.delivered_time, C.first_sent_time, C.app_limited,
//! and BBRv3's C.lost), a stamp of it on every segment sent (§3.2), and on each ACK a
//! [`RateSample`] from the most recently sent segment it acknowledged or SACKed (§3.3),
//! marked application-limited where the draft says (§3.4).
//!
//! Kept only for a congestion control that reads the samples
//! (`CongestionControl::reads_rate_samples`); for the others the sender calls nothing here.
//! The stamps are the sender's only per-segment records: a ring (`VecDeque`) of the
//! segments in flight in sequence order, which stops growing once it holds a window (no
//! allocation per packet); 64 B a segment. A segment resent is stamped again (§3.2: "the
//! sender also stamps a retransmitted packet"). Readings where the draft leaves the
//! transport to decide are in docs/mechanisms/tcp-pacing-rate-sampling.md.

use super::rate_sample::RateSample;
use crate::time::{SimDuration, SimTime};
use std::collections::VecDeque;

/// What one segment carried when it was (last) sent: the draft's per-packet state `P`.
#[derive(Clone, Copy, Debug)]
struct Stamp {
    /// One past its last byte; it starts `len` below.
    end: u64,
    len: u32,
    /// Bytes in flight once it was sent (BBRv3's `P.tx_in_flight`).
    tx_in_flight: u32,
    /// `P.sent_time`.
    sent_time: SimTime,
    /// `P.first_sent_time`: C.first_sent_time when it was sent.
    first_sent_time: SimTime,
    /// `P.delivered_time`: C.delivered_time when it was sent.
    delivered_time: SimTime,
    /// `P.delivered`: C.delivered when it was sent.
    delivered: u64,
    /// `P.lost` (BBRv3): C.lost when it was sent.
    lost: u64,
    flags: u8,
}

/// `P.is_app_limited`.
const APP_LIMITED: u8 = 1;
/// Resent at least once: no RTT from it (Karn).
const RESENT: u8 = 2;
/// Delivered (SACKed, or acknowledged): the draft's `P.delivered_time = 0`, which cannot
/// serve here since time 0 is a real send time.
const DELIVERED: u8 = 4;
/// Counted in C.lost since it was last sent.
const LOST: u8 = 8;

impl Stamp {
    fn start(&self) -> u64 {
        self.end - self.len as u64
    }

    fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// The draft's connection state and the segments' stamps.
#[derive(Clone, Debug, Default)]
pub struct DeliveryRate {
    /// `C.delivered`: bytes delivered (acknowledged or SACKed) so far.
    delivered: u64,
    /// `C.delivered_time`: when `delivered` last grew.
    delivered_time: SimTime,
    /// `C.first_sent_time`: the send time of the newest segment last delivered.
    first_sent_time: SimTime,
    /// `C.app_limited`: 0, or the `C.delivered` past which samples are no longer
    /// application-limited (§3.4).
    app_limited: u64,
    /// `C.lost` (BBRv3): bytes marked lost so far.
    lost: u64,
    /// C.lost already reported in a sample's `newly_lost`, or marked by a timeout
    /// (Linux counts those in tp->lost but in no ACK's rs->losses).
    lost_reported: u64,
    /// `C.min_rtt`: the least RTT sampled (no window: runs are short beside Linux's
    /// 300 s `tcp_min_rtt_wlen`).
    min_rtt: Option<SimDuration>,
    /// Bytes SACKed and not yet cumulatively acknowledged.
    sacked: u64,
    /// Bytes marked lost and since neither resent nor delivered: out of the network
    /// (Linux `tp->lost_out` less what `tp->retrans_out` has put back).
    lost_out: u64,
    /// Segments below this were already looked at for a loss mark.
    lost_scan_from: u64,
    /// Without SACK, a duplicate ACK stands for one segment delivered (below).
    dupacks_deliver: bool,
    /// Bytes counted delivered on duplicate ACKs and not yet cumulatively acknowledged
    /// (Linux's `tp->sacked_out` on a connection without SACK).
    dupack_credit: u64,
    stamps: VecDeque<Stamp>,
}

/// What the sender knows at a send that the stamps need.
#[derive(Clone, Copy, Debug)]
pub struct SendInfo {
    pub seq: u64,
    pub len: u64,
    /// FlightSize (snd_max − snd_una) including this segment.
    pub flight: u64,
}

impl DeliveryRate {
    /// The estimator for a connection with or without SACK (`selective_acks`).
    pub fn new(selective_acks: bool) -> Self {
        DeliveryRate { dupacks_deliver: !selective_acks, ..DeliveryRate::default() }
    }

    /// §3.2: a segment [seq, seq + len) leaves at `at`. New data gets a stamp; a resend
    /// re-stamps the segments it covers (those not delivered).
    pub fn on_send(&mut self, at: SimTime, s: SendInfo) {
        // §3.2 / tcp_rate_skb_sent: with nothing in flight, the sample's interval starts now.
        if self.stamps.is_empty() {
            self.first_sent_time = at;
            self.delivered_time = at;
        }
        let mut stamp = Stamp {
            end: 0,
            len: 0,
            tx_in_flight: s.flight.saturating_sub(self.sacked).min(u32::MAX as u64) as u32,
            sent_time: at,
            first_sent_time: self.first_sent_time,
            delivered_time: self.delivered_time,
            delivered: self.delivered,
            lost: self.lost,
            flags: if self.app_limited != 0 { APP_LIMITED } else { 0 },
        };
        let end = s.seq + s.len;
        let high = self.stamps.back().map_or(s.seq, |b| b.end);
        if s.seq < high {
            self.restamp(s.seq, end, stamp);
        }
        if end > high {
            let start = s.seq.max(high);
            stamp.end = end;
            stamp.len = (end - start) as u32;
            self.stamps.push_back(stamp);
        }
    }

    /// A resend of [seq, end): the segments it covers not yet delivered take `stamp`.
    /// Out of line: new data is the common send.
    #[cold]
    #[inline(never)]
    fn restamp(&mut self, seq: u64, end: u64, stamp: Stamp) {
        let from = self.stamps.partition_point(|p| p.end <= seq);
        for p in self.stamps.range_mut(from..).take_while(|p| p.start() < end) {
            if !p.has(DELIVERED) {
                let resent = Stamp { end: p.end, len: p.len, flags: stamp.flags | RESENT, ..stamp };
                if p.has(LOST) {
                    // In the network again.
                    self.lost_out -= p.len as u64;
                } else {
                    // Resent without a mark (an EWLN notice, a rescue): lost all the same.
                    self.lost += p.len as u64;
                }
                *p = resent;
            }
        }
    }

    /// §3.4 CheckIfApplicationLimited, called when the sender has nothing left to send:
    /// the application wrote everything, the window is not what stops it (`inflight`
    /// below cwnd) and no loss awaits its resend (`nothing_to_resend`).
    pub fn check_app_limited(&mut self, inflight_below_cwnd: bool, nothing_to_resend: bool, flight: u64) {
        if inflight_below_cwnd && nothing_to_resend {
            let inflight = flight.saturating_sub(self.sacked);
            self.app_limited = (self.delivered + inflight).max(1);
        }
    }

    /// Whether segments sent now are marked application-limited (C.app_limited ≠ 0).
    pub fn app_limited(&self) -> bool {
        self.app_limited != 0
    }

    /// Bytes in flight as the stamps count them: FlightSize less what was SACKed.
    pub fn inflight(&self, flight: u64) -> u64 {
        flight.saturating_sub(self.sacked)
    }

    /// Bytes still in the network (Linux include/net/tcp.h `tcp_packets_in_flight`:
    /// packets_out − sacked_out − lost_out + retrans_out): the FlightSize less what was
    /// SACKed and less what is marked lost and not resent. After a timeout, which marks
    /// everything lost (tcp_input.c `tcp_timeout_mark_lost`), only the resends.
    pub fn packets_in_flight(&self, flight: u64) -> u64 {
        flight.saturating_sub(self.sacked + self.lost_out)
    }

    /// Marks the un-delivered segments below `limit` lost (the recovery's IsLost, or the
    /// segment a duplicate-ACK recovery resends), each once per transmission.
    pub fn mark_lost_below(&mut self, limit: u64) {
        if limit <= self.lost_scan_from {
            return;
        }
        let from = self.stamps.partition_point(|p| p.end <= self.lost_scan_from);
        for p in self.stamps.range_mut(from..).take_while(|p| p.start() < limit) {
            if p.end > limit {
                break;
            }
            if !p.has(DELIVERED | LOST) {
                p.flags |= LOST;
                self.lost += p.len as u64;
                self.lost_out += p.len as u64;
            }
        }
        self.lost_scan_from = limit;
    }

    /// Marks the segment holding `seq` lost (a resend requested for it).
    pub fn mark_lost_at(&mut self, seq: u64) {
        let i = self.stamps.partition_point(|p| p.end <= seq);
        if let Some(p) = self.stamps.get_mut(i).filter(|p| p.start() <= seq && !p.has(DELIVERED | LOST)) {
            p.flags |= LOST;
            self.lost += p.len as u64;
            self.lost_out += p.len as u64;
        }
    }

    /// The retransmission timer expired: everything in flight not delivered is lost
    /// (Linux tcp_enter_loss), counted in C.lost but in no sample's `newly_lost`.
    pub fn on_timeout(&mut self, snd_max: u64) {
        for p in self.stamps.iter_mut().filter(|p| !p.has(DELIVERED | LOST)) {
            p.flags |= LOST;
            self.lost += p.len as u64;
            self.lost_out += p.len as u64;
        }
        self.lost_reported = self.lost;
        self.lost_scan_from = snd_max;
    }

    /// A duplicate ACK on a connection without SACK: the receiver got one more segment
    /// above the hole, so C.delivered grows by one `mss` now (Linux tcp_input.c
    /// `tcp_add_reno_sack`: `tp->delivered += delivered`), no more than `flight` less one
    /// segment for the hole (`tcp_limit_reno_sacked`). No sample: no segment is known
    /// delivered. Without this, a partial ACK of NewReno or the ACK after a go-back-N
    /// resend counts at once every byte the receiver held across many RTTs, over the
    /// one-RTT interval of the retransmission it samples (20 link rates seen on
    /// ns3-compare; docs/mechanisms/tcp-pacing-rate-sampling.md).
    pub fn on_dupack(&mut self, now: SimTime, mss: u64, flight: u64) {
        if !self.dupacks_deliver {
            return;
        }
        let credit = (self.dupack_credit + mss).min(flight.saturating_sub(mss)).max(self.dupack_credit);
        if credit > self.dupack_credit {
            self.delivered += credit - self.dupack_credit;
            self.delivered_time = now;
            self.dupack_credit = credit;
        }
    }

    /// §3.3: an ACK of `una` with SACK `blocks` arrived at `now`. Delivers the segments it
    /// newly acknowledges or SACKs and returns the sample (GenerateRateSample);
    /// `newly_acked` = 0 when it delivered nothing new.
    pub fn on_ack(&mut self, now: SimTime, una: u64, blocks: &[(u64, u64)]) -> RateSample {
        let mut acc = Sampling::default();
        let (mut acked, mut hole) = (0, 0);
        while let Some(p) = self.stamps.front().copied().filter(|p| p.end <= una) {
            self.stamps.pop_front();
            if p.has(DELIVERED) {
                self.sacked -= p.len as u64;
            } else {
                self.deliver(now, &p, &mut acc);
                acked += p.len as u64;
                hole = if hole == 0 { p.len as u64 } else { hole };
            }
        }
        if self.dupacks_deliver && acked > 0 {
            self.take_dupack_credit(acked, hole);
        }
        for &(s, e) in blocks {
            let from = self.stamps.partition_point(|p| p.end <= s);
            for i in from..self.stamps.len() {
                let p = self.stamps[i];
                if p.end > e {
                    break;
                }
                if p.start() >= s && !p.has(DELIVERED) {
                    self.stamps[i].flags |= DELIVERED;
                    self.sacked += p.len as u64;
                    self.deliver(now, &p, &mut acc);
                }
            }
        }
        self.generate(acc)
    }

    /// Without SACK, a cumulative ACK of `acked` bytes delivers its first segment (`hole`,
    /// the one the duplicate ACKs waited for) and whatever the duplicate ACKs had not
    /// already counted (Linux `tcp_remove_reno_sacks`: `tp->delivered += max(acked −
    /// sacked_out, 1)`, then `sacked_out −= acked − 1`). `deliver` counted all of `acked`.
    fn take_dupack_credit(&mut self, acked: u64, hole: u64) {
        let counted = acked.saturating_sub(self.dupack_credit).max(hole);
        self.delivered -= acked - counted;
        self.dupack_credit = self.dupack_credit.saturating_sub(acked - hole);
        // Never more credit than bytes still out.
        let out = self.stamps.back().map_or(0, |b| b.end) - self.stamps.front().map_or(0, |f| f.start());
        self.dupack_credit = self.dupack_credit.min(out);
    }

    /// UpdateRateSample(P, rs) for one segment newly delivered.
    fn deliver(&mut self, now: SimTime, p: &Stamp, acc: &mut Sampling) {
        if p.has(LOST) {
            // Marked lost but it arrived (Linux tcp_sacktag_one clears TCPCB_LOST).
            self.lost_out -= p.len as u64;
        }
        self.delivered += p.len as u64;
        self.delivered_time = now;
        acc.newly_acked += p.len as u64;
        // IsNewestPacket: later sent, or sent at the same time with a higher end.
        let newest = acc.p.is_none_or(|_| p.sent_time > self.first_sent_time || (p.sent_time == self.first_sent_time && p.end > acc.last_end));
        if newest {
            acc.p = Some(*p);
            acc.last_end = p.end;
            acc.ack_elapsed = self.delivered_time.since(p.delivered_time);
            self.first_sent_time = p.sent_time;
        }
        if !p.has(RESENT) && acc.rtt_sent.is_none_or(|t| p.sent_time >= t) {
            acc.rtt_sent = Some(p.sent_time);
            acc.rtt = Some(now.since(p.sent_time));
        }
    }

    /// GenerateRateSample(rs).
    fn generate(&mut self, acc: Sampling) -> RateSample {
        // Clear app-limited once the bubble is acknowledged and gone.
        if self.app_limited != 0 && self.delivered > self.app_limited {
            self.app_limited = 0;
        }
        if let Some(r) = acc.rtt {
            self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        }
        let newly_lost = self.lost - self.lost_reported;
        self.lost_reported = self.lost;
        let mut rs = RateSample { newly_acked: acc.newly_acked, newly_lost, rtt: acc.rtt, ..RateSample::default() };
        let Some(p) = acc.p else { return rs };
        rs.prior_delivered = p.delivered;
        rs.delivered = self.delivered - p.delivered;
        rs.is_app_limited = p.has(APP_LIMITED);
        rs.tx_in_flight = p.tx_in_flight as u64;
        rs.lost = self.lost - p.lost;
        // §3.3: the send and the ACK phases of the flight; the longer one, so that ACK
        // compression cannot inflate the rate.
        let send_elapsed = p.sent_time.since(p.first_sent_time);
        let interval = send_elapsed.max(acc.ack_elapsed);
        // §3.3: an interval below min_rtt is no reliable sample.
        if interval.0 > 0 && self.min_rtt.is_none_or(|m| interval >= m) {
            rs.interval = interval;
            rs.delivery_rate = rs.delivered as f64 / interval.as_secs_f64();
        }
        rs
    }

    /// Bytes the stamps take (the ring's capacity), for the docs' memory note.
    #[cfg(test)]
    fn stamp_bytes() -> usize {
        std::mem::size_of::<Stamp>()
    }
}

/// One ACK's running choice of the segment to sample (the draft's `rs` while filling).
#[derive(Default)]
struct Sampling {
    p: Option<Stamp>,
    last_end: u64,
    ack_elapsed: SimDuration,
    newly_acked: u64,
    rtt: Option<SimDuration>,
    rtt_sent: Option<SimTime>,
}

#[cfg(test)]
#[path = "delivery_rate_tests.rs"]
mod tests;
