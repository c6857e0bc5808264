//! The 802.11b WLAN segment (docs/architecture.md#segments): N
//! stations sharing one medium under the distributed coordination function, as ns-2's
//! `Mac802_11` runs it (facts from ns-2.35 `mac/mac-802_11.cc`, timing from IEEE
//! 802.11-1999 §9 and 802.11b §18).
//!
//! - `phy.rs`: slot, SIFS, DIFS, EIFS and frame air times.
//! - `station.rs`: a station's queue, frame in service, backoff, CW and retry counts.
//! - `dcf.rs`: the medium — countdown, collisions, the RTS/CTS/data/ACK exchange.
//! - `rx.rs`: the receiving MAC — duplicate detection and EWLN's buffer.
//! - `config.rs`: the scenario's `[[wlans]]` table; `bianchi.rs`: Bianchi's model.
//!
//! Ports are the ordered pairs of stations, `(i, j)` at index `i·(N−1) + j'` where `j'`
//! skips `i`. Each pair has its own loss process on its own stream and its own counters
//! (one summary row, "A->B"). A station has one interface queue for all its receivers.
//!
//! The segment has one lazily cancelled timer: its next deadline is the earlier of the
//! pending reception (a data frame's last bit) and the medium's next event.

pub mod bianchi;
pub mod config;
mod dcf;
pub mod phy;
pub mod rx;
pub mod station;
#[cfg(test)]
mod tests;

use super::queue::QueueDisc;
use super::{DropCause, DropCounts, Dropped, NetOut, PortEnds, Segment, Tally};
use crate::capture::Capture;
use crate::channel::Channel;
use crate::engine::{Key, Tickets};
use crate::packet::{NodeId, Packet};
use crate::result::LinkSummary;
use super::link_columns::link_metrics;
use crate::rng::RngStream;
use crate::time::SimTime;
use dcf::{Medium, Reception};
use phy::Phy;
use rx::RxState;
use station::{Attempt, Station};

pub use config::WlanConfig;

/// Counts of one (sender, receiver) pair.
#[derive(Clone, Debug, Default)]
pub struct PairCounters {
    pub offered: u64,
    pub drops: DropCounts,
    /// Packets passed up at the receiver (once each), and their bytes.
    pub delivered: u64,
    pub bytes_delivered: u64,
    /// Data frames sent, retransmissions and collided ones included.
    pub data_frames: u64,
    /// MAC header and FCS bytes of every data frame, and the packet bytes of every
    /// retransmission.
    pub overhead_bytes: u64,
    /// Data frames the channel corrupted (collided frames are not counted here).
    pub corrupted: u64,
    /// RTS, CTS and ACK frames the channel corrupted.
    pub control_losses: u64,
    /// First frames (RTS or data) of this pair lost in a collision.
    pub collisions: u64,
    /// Data frames among them (sent without RTS): the data frames the channel never
    /// judged. RTS collisions are not data frames (issue 27: subtracting them from
    /// `data_frames` gave a loss rate of 1.4).
    pub data_collisions: u64,
    pub rts_sent: u64,
    /// Retransmissions the receiver recognised and did not pass up again.
    pub duplicates: u64,
    /// Headers passed up with EWLN and CORRUPT set.
    pub ewln_marked: u64,
}

/// One ordered (sender, receiver) pair: a port.
pub struct Pair {
    pub name: String,
    pub channel: Channel,
    /// The pair's channel stream (`wlan:<i>:A->B:channel`).
    pub rng: RngStream,
    pub rx: RxState,
    pub c: PairCounters,
}

/// What a WLAN is built from (the scenario's `[[wlans]]` table, resolved).
pub struct WlanParams {
    pub phy: Phy,
    pub ewln: bool,
    /// (short, long) retry limits, and (CWmin, CWmax).
    pub limits: (u32, u32),
    pub cw: (u32, u32),
    /// MPDUs longer than this go after RTS/CTS.
    pub rts_above: u64,
}

pub struct Wlan {
    phy: Phy,
    ewln: bool,
    limits: (u32, u32),
    cw: (u32, u32),
    rts_above: u64,
    stations: Vec<Station>,
    /// `pairs[self.pair(i, j)]`: the port from station i to station j.
    pairs: Vec<Pair>,
    medium: Medium,
    /// The transmitters of the exchange on the air and what became of each.
    results: Vec<(u16, Attempt)>,
    reception: Option<Reception>,
}

impl Wlan {
    /// `pairs` in port order (see the module comment).
    pub fn new(params: WlanParams, stations: Vec<Station>, pairs: Vec<Pair>) -> Self {
        let n = stations.len();
        assert!(n >= 2 && pairs.len() == n * (n - 1), "a pair per ordered pair of stations");
        let WlanParams { phy, ewln, limits, cw, rts_above } = params;
        let medium = Medium::Idle { from: SimTime::ZERO, next: None };
        Wlan { phy, ewln, limits, cw, rts_above, stations, pairs, medium, results: Vec::with_capacity(n), reception: None }
    }

    /// The WLAN of `cfg` (already validated) over `stations` (node id, name), WLAN
    /// number `index` of the scenario; each station's queue and backoff and each pair's
    /// channel from its own named stream.
    pub fn from_config(cfg: &WlanConfig, index: usize, stations: &[(NodeId, &str)], streams: &dyn Fn(&str) -> RngStream) -> Result<Self, String> {
        let rate = cfg.rate.0;
        let mut st = Vec::with_capacity(stations.len());
        for &(node, name) in stations {
            let queue = crate::net::queue::QueueDiscSpec::build(&cfg.queue.0, &crate::capacity::ConstantRate::new(rate).into(), crate::time::SimDuration::ZERO, streams(&format!("wlan:{index}:{name}:queue")))?;
            st.push(Station::new(node, queue, cfg.cw_min, streams(&format!("wlan:{index}:{name}:backoff"))));
        }
        let mut pairs = Vec::with_capacity(stations.len() * (stations.len() - 1));
        for (i, &(_, a)) in stations.iter().enumerate() {
            for &(_, b) in stations.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, s)| s) {
                let name = format!("{a}->{b}");
                pairs.push(Pair {
                    channel: cfg.loss.build(streams(&format!("wlan:{index}:{name}:fading"))),
                    rng: streams(&format!("wlan:{index}:{name}:channel")),
                    rx: RxState::default(),
                    c: PairCounters::default(),
                    name,
                });
            }
        }
        let params = WlanParams {
            phy: Phy::new(rate, cfg.basic_rate.0, cfg.mac_header.0),
            ewln: cfg.ewln,
            limits: (cfg.short_retry_limit, cfg.long_retry_limit),
            cw: (cfg.cw_min, cfg.cw_max),
            rts_above: cfg.rts_threshold_bytes(),
        };
        Ok(Wlan::new(params, st, pairs))
    }

    /// The port index of the pair from station `i` to station `j`.
    #[inline]
    pub fn pair(&self, i: usize, j: usize) -> usize {
        debug_assert!(i != j);
        i * (self.stations.len() - 1) + j - (j > i) as usize
    }

    /// The stations of port `p`.
    #[inline]
    fn ends(&self, p: usize) -> (usize, usize) {
        let m = self.stations.len() - 1;
        let (i, j) = (p / m, p % m);
        (i, j + (j >= i) as usize)
    }

    fn pull(&mut self, now: SimTime, k: usize) -> bool {
        let (above, phy) = (self.rts_above, self.phy);
        self.stations[k].pull(now, above, |size| phy.mpdu_bytes(size))
    }

    fn drop(&mut self, p: usize, pkt: Packet, cause: DropCause, out: &mut NetOut) {
        self.pairs[p].c.drops.count(cause);
        let (i, j) = self.ends(p);
        out.drops.push(Dropped { pkt, cause, from: self.stations[i].node, to: self.stations[j].node });
    }

    /// Station `i` leaves the medium: what it holds is dropped (`LinkDown`), and so is a
    /// header kept for EWLN between it and another station.
    fn detach(&mut self, i: usize, out: &mut NetOut) {
        let st = &mut self.stations[i];
        st.attached = false;
        st.backoff = None;
        let mut lost = Vec::new();
        let rxs: Vec<u16> = st.queued_rx.drain(..).collect();
        st.queue.drain(&mut |p| lost.push(p));
        for (p, j) in lost.into_iter().zip(rxs) {
            let port = self.pair(i, j as usize);
            self.drop(port, p, DropCause::LinkDown, out);
        }
        if let Some(f) = self.stations[i].frame.take() {
            if !f.delivered {
                let port = self.pair(i, f.rx as usize);
                self.drop(port, f.pkt, DropCause::LinkDown, out);
            }
        }
        self.results.retain(|&(k, _)| k as usize != i);
        if self.reception.is_some_and(|r| r.sender as usize == i || r.rx as usize == i) {
            self.reception = None;
        }
        for j in (0..self.stations.len()).filter(|&j| j != i) {
            for port in [self.pair(i, j), self.pair(j, i)] {
                if let Some(p) = self.pairs[port].rx.clear() {
                    self.drop(port, p, DropCause::LinkDown, out);
                }
            }
        }
    }
}

impl Segment for Wlan {
    fn ports(&self) -> Vec<PortEnds> {
        (0..self.pairs.len())
            .map(|p| {
                let (i, j) = self.ends(p);
                PortEnds { from: self.stations[i].node, to: self.stations[j].node }
            })
            .collect()
    }

    fn port_up(&self, iface: usize) -> bool {
        let (i, j) = self.ends(iface);
        self.stations[i].attached && self.stations[j].attached
    }

    fn send(&mut self, now: SimTime, iface: usize, pkt: Packet, tickets: &mut Tickets, out: &mut NetOut) -> bool {
        self.pairs[iface].c.offered += 1;
        if !self.port_up(iface) {
            self.drop(iface, pkt, DropCause::LinkDown, out);
            return false;
        }
        let (i, j) = self.ends(iface);
        let st = &mut self.stations[i];
        // Only a discipline that drops arrivals alone is allowed here (`WlanConfig::
        // validate`), so a drop is this arrival and `queued_rx` stays aligned.
        let mut refused = None;
        st.queue.enqueue(now, pkt, &mut |p| refused = Some(p));
        if let Some(p) = refused {
            self.drop(iface, p, DropCause::Queue, out);
            return false;
        }
        st.queued_rx.push_back(j as u16);
        if !self.pull(now, i) {
            return false;
        }
        self.access(now, i, tickets, out);
        true
    }

    #[inline]
    fn next_wake(&self) -> Option<Key> {
        let medium = match self.medium {
            Medium::Idle { next, .. } => next,
            Medium::Busy { free } => Some(free),
        };
        match (self.reception.map(|r| r.key), medium) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn wake(&mut self, now: SimTime, key: Key, tickets: &mut Tickets, out: &mut NetOut) {
        if self.reception.is_some_and(|r| r.key == key) {
            return self.receive(out);
        }
        match self.medium {
            Medium::Busy { free } if free == key => self.finish(now, tickets, out),
            Medium::Idle { next: Some(k), .. } if k == key => self.start(now, tickets, out),
            _ => {}
        }
    }

    fn set_attached(&mut self, _now: SimTime, node: NodeId, up: bool, out: &mut NetOut) -> bool {
        let Some(i) = self.stations.iter().position(|s| s.node == node) else { return false };
        if self.stations[i].attached == up {
            return false;
        }
        if up {
            self.stations[i].attached = true;
        } else {
            self.detach(i, out);
        }
        // A pending countdown stays: if its station left, `start` finds no one ready
        // then and points the countdown at the next backoff.
        true
    }

    fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for p in &self.pairs {
            t.drops.add(&p.c.drops);
            t.held += p.rx.held();
        }
        t.held += self.stations.iter().map(Station::held).sum::<u64>();
        t
    }

    fn report(&self, end_s: f64, out: &mut Vec<LinkSummary>) {
        for p in &self.pairs {
            let c = &p.c;
            let judged = c.data_frames - c.data_collisions;
            let mut metrics = link_metrics();
            metrics.set("link_retry_drops", c.drops.link_retry);
            metrics.set("link_transmissions", c.data_frames);
            metrics.set("link_overhead_bytes", c.overhead_bytes);
            metrics.set("link_down_drops", c.drops.link_down);
            metrics.set("queue_overflow_drops", c.drops.queue);
            // The pair's MAC counts, its own columns (absent for point-to-point links):
            // first frames (RTS, or data without RTS) lost in collisions; RTS, CTS and
            // ACK frames the channel corrupted; RTS sent; retransmissions the receiver
            // recognised by sequence number and did not pass up; TCP segments still
            // corrupted after the retry limit, passed up as headers with EWLN and
            // CORRUPT set (Shagdar §III A).
            metrics.set("mac_collisions", c.collisions);
            metrics.set("mac_control_losses", c.control_losses);
            metrics.set("mac_rts_sent", c.rts_sent);
            metrics.set("mac_duplicates", c.duplicates);
            metrics.set("ewln_marked", c.ewln_marked);
            out.push(LinkSummary {
                name: p.name.clone(),
                packets_offered: c.offered,
                queue_drops: c.drops.queue,
                channel_losses: c.corrupted,
                packets_delivered: c.delivered,
                throughput_bps: if end_s > 0.0 { c.bytes_delivered as f64 * 8.0 / end_s } else { 0.0 },
                loss_rate: if judged > 0 { c.corrupted as f64 / judged as f64 } else { 0.0 },
                metrics,
            });
        }
    }

    fn take_captures(&mut self, _out: &mut Vec<Capture>) {}
}
