//! The medium and the DCF exchange (802.11-1999 §9.2): who transmits when, and what
//! each exchange costs in time and in frames.
//!
//! Every station hears every other (no hidden terminals, no propagation delay), so the
//! medium is one state machine for all of them:
//!
//! - **Idle since `from`** (its interframe space already over): every backoff counts
//!   down one slot per `SLOT` from `from`. The station(s) whose counter reaches 0 first
//!   transmit at `from + b·SLOT`; two or more reaching 0 in the same slot collide
//!   (§9.2.5.2: a counter decrements only at the end of an idle slot, so only whole slots
//!   elapsed count when another station starts).
//! - **Busy until `free`**: an exchange; backoffs are frozen. `free` includes the space
//!   the medium must stay idle before counting resumes: DIFS after a completed exchange,
//!   EIFS after a frame nobody answered (collision, or a corrupted RTS or data frame —
//!   see `Phy::eifs`; ACK and CTS timeouts end at the same moment).
//!
//! A station given a packet while it has no backoff pending and the medium has been
//! idle for DIFS transmits at once (§9.2.5.1); otherwise it draws a backoff if it has
//! none and waits. After every exchange each sender draws a new backoff (a post-backoff
//! after a success, §9.2.5.2), so a saturated station always waits DIFS + backoff.
//!
//! An exchange is decided when it starts (the frames' spans are known then, and each
//! pair's channel is asked in time order): RTS (if the frame is longer than the RTS
//! threshold), SIFS, CTS, SIFS, data, SIFS, ACK. Data frames and RTSs are judged by the
//! (sender, receiver) pair's channel, ACKs and CTSs by the reverse pair's; a collided
//! frame is shown to no channel. The receiver gets the data frame at its last bit (the
//! `Reception` event); the sender learns the outcome when the medium is free again.

use super::phy::{ACK_BYTES, CTS_BYTES, DIFS, RTS_BYTES, SIFS, SLOT};
use super::rx::Up;
use super::station::{Attempt, Frame, Next};
use super::Wlan;
use crate::channel::{LossProcess, TxSpan};
use crate::engine::{Key, Tickets};
use crate::net::{Arrival, DropCause, Dropped, NetOut};
use crate::packet::Packet;
use crate::time::{SimDuration, SimTime};

/// The state of the shared medium.
#[derive(Clone, Copy, Debug)]
pub enum Medium {
    /// Idle (its IFS over) since `from`; `next` is when the first backoff runs out.
    Idle { from: SimTime, next: Option<Key> },
    /// An exchange is on; the medium is free again, IFS included, at `free`.
    Busy { free: Key },
}

/// A data frame reaching its receiver at its last bit.
#[derive(Clone, Copy, Debug)]
pub struct Reception {
    pub key: Key,
    pub sender: u16,
    pub seq: u16,
    pub pkt: Packet,
    pub rx: u16,
    /// It arrived intact (else the channel corrupted it).
    pub ok: bool,
}

/// Whole slots in `from..now`.
#[inline]
fn slots(from: SimTime, now: SimTime) -> u32 {
    (now.since(from).0 / SLOT.0).min(u32::MAX as u64) as u32
}

impl Wlan {
    /// Station `k` has just taken a frame into service at `now`.
    pub(super) fn access(&mut self, now: SimTime, k: usize, tickets: &mut Tickets, out: &mut NetOut) {
        match self.medium {
            Medium::Idle { from, .. } => {
                let st = &mut self.stations[k];
                let left = st.backoff.map_or(0, |b| b.saturating_sub(slots(from, now)));
                if left == 0 {
                    st.backoff = None;
                    self.start(now, tickets, out);
                } else {
                    self.rearm_countdown(now, tickets, out);
                }
            }
            Medium::Busy { .. } => {
                let st = &mut self.stations[k];
                if st.backoff.is_none() {
                    st.backoff = Some(st.draw_backoff());
                }
            }
        }
    }

    /// Points the countdown at the first backoff to run out; starts the exchange at once
    /// if that is now.
    pub(super) fn rearm_countdown(&mut self, now: SimTime, tickets: &mut Tickets, out: &mut NetOut) {
        let Medium::Idle { from, next } = self.medium else { return };
        let first = self
            .stations
            .iter()
            .filter(|s| s.attached && s.frame.is_some())
            .map(|s| s.backoff.unwrap_or(0))
            .min();
        let Some(b) = first else {
            self.medium = Medium::Idle { from, next: None };
            return;
        };
        let at = from + SimDuration(SLOT.0 * b as u64);
        if at <= now {
            self.start(now, tickets, out);
        } else if next.map(|k| k.time) != Some(at) {
            self.medium = Medium::Idle { from, next: Some(tickets.key(at)) };
        }
    }

    /// Backoffs count down to `now`; every station with a frame whose counter is out
    /// transmits (several: a collision).
    pub(super) fn start(&mut self, now: SimTime, tickets: &mut Tickets, out: &mut NetOut) {
        let Medium::Idle { from, .. } = self.medium else { unreachable!("the medium is idle") };
        let elapsed = slots(from, now);
        self.results.clear();
        for (k, st) in self.stations.iter_mut().enumerate() {
            let left = st.backoff.map(|b| b.saturating_sub(elapsed));
            st.backoff = left.filter(|&b| b > 0);
            if st.attached && st.frame.is_some() && st.backoff.is_none() {
                self.results.push((k as u16, Attempt::Success));
            }
        }
        let free = match self.results.len() {
            0 => {
                // Nothing to send after all: stay idle.
                self.medium = Medium::Idle { from, next: None };
                return self.rearm_countdown(now, tickets, out);
            }
            1 => self.exchange(now, tickets),
            _ => self.collide(now, tickets),
        };
        self.medium = Medium::Busy { free };
    }

    fn lost(&mut self, pair: usize, start: SimTime, end: SimTime, bytes: u64) -> bool {
        let p = &mut self.pairs[pair];
        p.channel.lost(TxSpan { start, end, bits: 8 * bytes }, &mut p.rng)
    }

    /// One station transmits alone: RTS/CTS if its frame is long, data, ACK. Returns when
    /// the medium is free again.
    fn exchange(&mut self, now: SimTime, tickets: &mut Tickets) -> Key {
        let k = self.results[0].0 as usize;
        let f = self.stations[k].frame.expect("a frame in service");
        let (p, r) = (self.pair(k, f.rx as usize), self.pair(f.rx as usize, k));
        let heard = self.stations[f.rx as usize].attached;
        let phy = self.phy;
        let mut t = now;
        if f.long {
            self.pairs[p].c.rts_sent += 1;
            let rts_end = t + phy.rts;
            if !heard || self.lost(p, t, rts_end, RTS_BYTES) {
                self.pairs[p].c.control_losses += heard as u64;
                self.results[0].1 = Attempt::RtsFailed;
                return tickets.key(rts_end + phy.eifs());
            }
            let cts_end = rts_end + SIFS + phy.cts;
            if self.lost(r, rts_end + SIFS, cts_end, CTS_BYTES) {
                self.pairs[p].c.control_losses += 1;
                self.results[0].1 = Attempt::RtsFailed;
                return tickets.key(cts_end + DIFS);
            }
            // §9.2.4: the SSRC is reset when the CTS comes.
            self.stations[k].frame.as_mut().expect("in service").ssrc = 0;
            t = cts_end + SIFS;
        }
        let data_end = t + phy.data(f.pkt.size);
        self.count_data_frame(p, &f);
        let ok = heard && !self.lost(p, t, data_end, phy.mpdu_bytes(f.pkt.size));
        if heard {
            self.pairs[p].c.corrupted += !ok as u64;
            let key = tickets.key(data_end);
            self.reception = Some(Reception { key, sender: k as u16, seq: f.seq, pkt: f.pkt, rx: f.rx, ok });
        }
        if !ok {
            self.results[0].1 = Attempt::DataFailed;
            return tickets.key(data_end + phy.eifs());
        }
        let ack_end = data_end + SIFS + phy.ack;
        if self.lost(r, data_end + SIFS, ack_end, ACK_BYTES) {
            self.pairs[p].c.control_losses += 1;
            self.results[0].1 = Attempt::DataFailed;
        }
        tickets.key(ack_end + DIFS)
    }

    /// Several stations transmit in one slot: every first frame (RTS or data) is lost;
    /// the medium is busy until the longest ends, then EIFS (Bianchi's T_c with E[P*]).
    fn collide(&mut self, now: SimTime, tickets: &mut Tickets) -> Key {
        let mut end = now;
        for i in 0..self.results.len() {
            let k = self.results[i].0 as usize;
            let f = self.stations[k].frame.expect("a frame in service");
            let p = self.pair(k, f.rx as usize);
            self.pairs[p].c.collisions += 1;
            let air = if f.long {
                self.pairs[p].c.rts_sent += 1;
                self.results[i].1 = Attempt::RtsFailed;
                self.phy.rts
            } else {
                self.count_data_frame(p, &f);
                self.pairs[p].c.data_collisions += 1;
                self.results[i].1 = Attempt::DataFailed;
                self.phy.data(f.pkt.size)
            };
            end = end.max(now + air);
        }
        tickets.key(end + self.phy.eifs())
    }

    fn count_data_frame(&mut self, p: usize, f: &Frame) {
        let c = &mut self.pairs[p].c;
        c.data_frames += 1;
        let retry = f.ssrc + f.slrc > 0;
        c.overhead_bytes += self.phy.mac_header + if retry { f.pkt.size as u64 } else { 0 };
    }

    /// The data frame of the current exchange reaches its receiver.
    pub(super) fn receive(&mut self, out: &mut NetOut) {
        let r = self.reception.take().expect("a reception due");
        let (k, j) = (r.sender as usize, r.rx as usize);
        let (from, node) = (self.stations[k].node, self.stations[j].node);
        let p = self.pair(k, j);
        let ewln = self.ewln;
        let pair = &mut self.pairs[p];
        let c = &mut pair.c;
        let dup = pair.rx.on_frame(r.seq, r.pkt, r.ok, ewln, |up| {
            let pkt = match up {
                Up::Packet(pkt) => {
                    c.delivered += 1;
                    c.bytes_delivered += pkt.size as u64;
                    pkt
                }
                Up::Ewln(pkt) => {
                    c.ewln_marked += 1;
                    pkt
                }
            };
            out.arrivals.push_back(Arrival { node, from, pkt });
        });
        c.duplicates += dup as u64;
        if r.ok {
            if let Some(f) = self.stations[k].frame.as_mut().filter(|f| f.seq == r.seq) {
                f.delivered = true;
            }
        }
    }

    /// The exchange is over and the medium free: each sender learns its outcome, takes
    /// its next frame, and the countdown resumes.
    pub(super) fn finish(&mut self, now: SimTime, tickets: &mut Tickets, out: &mut NetOut) {
        let (limits, cw) = (self.limits, self.cw);
        for i in 0..self.results.len() {
            let (k, what) = self.results[i];
            let st = &mut self.stations[k as usize];
            if st.frame.is_none() {
                continue; // detached meanwhile
            }
            if what == Attempt::Success {
                st.on_success(cw.0);
            } else if let Next::GiveUp(f) = st.on_failure(what, limits, cw) {
                self.give_up(k as usize, f, out);
            }
        }
        self.medium = Medium::Idle { from: now, next: None };
        for i in 0..self.results.len() {
            let k = self.results[i].0 as usize;
            self.pull(now, k);
        }
        self.rearm_countdown(now, tickets, out);
    }

    /// A frame out of retries: already passed up (its ACKs were lost), kept by the
    /// receiver for EWLN, or dropped.
    fn give_up(&mut self, k: usize, f: Frame, out: &mut NetOut) {
        let p = self.pair(k, f.rx as usize);
        if f.delivered || (self.ewln && self.pairs[p].rx.take_over(f.seq)) {
            return;
        }
        self.pairs[p].c.drops.count(DropCause::LinkRetry);
        let (from, to) = (self.stations[k].node, self.stations[f.rx as usize].node);
        out.drops.push(Dropped { pkt: f.pkt, cause: DropCause::LinkRetry, from, to });
    }
}
