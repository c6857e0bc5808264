//! Segmentation with NAK-based selective-repeat ARQ (Chockalingam, Zorzi, Tralli §II–III;
//! the IS-99 radio link protocol they cite): a packet of N_T bytes is cut into
//! ⌈N_T/N_L⌉ link packets of N_L bytes (the last one shorter), each coded by the link's
//! `Coding`; a link packet the far end cannot decode is NAKed and sent again, up to
//! `attempts` (n_l) transmissions in all. When one exhausts its attempts the link gives
//! the whole packet up (`DropCause::LinkRetry`) and sends none of its remaining link
//! packets: the transport recovers it.
//!
//! This file is the paper's link (§III): NAKs instantaneous and error-free, so a NAKed
//! link packet goes out again in the very next slot, and packets pass one at a time,
//! each delivered whole when its last link packet gets through — in order by
//! construction. The whole sequence of transmissions is therefore known when the packet
//! starts: the channel judges each span in time order then (as `Plain` judges its one
//! frame), and the link stays busy until the last one ends. NAKs that take time and can
//! be lost are `arq_nak.rs`; both cut and send link packets with [`Framing`]
//! (`framing.rs`).

use super::arq_nak::ArqNak;
use super::config::LinkLayerSpec;
use super::framing::{Framing, Shape};
use super::nak_config::{Delivery, NakConfig};
use super::{AnyLinkLayer, BusyUntil, LinkCtx, LinkLayer, LinkLayerCounters};
use crate::capacity::AnyCapacity;
use crate::closed::closed_enum;
use crate::coding::frame::{Coding, CodingConfig};
use crate::engine::{Key, Tickets};
use crate::fate::{DropCause, LinkOutcome};
use crate::packet::Packet;
use crate::rng::RngStream;
use crate::time::{SimDuration, SimTime};
use crate::units::{Bytes, HEADER_SIZE};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `kind = "arq"`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArqConfig {
    /// N_L: data bytes per link packet (the last one of a packet may be shorter).
    pub payload: Bytes,
    /// n_l: transmissions allowed per link packet, the first included (1 = no
    /// retransmission).
    pub attempts: u32,
    /// Link header bytes added to every link packet (0 in the paper).
    #[serde(default = "no_bytes")]
    pub header: Bytes,
    /// FEC of each link packet (its data and header), e.g.
    /// `{ code = "bch", n = 255, k = 131 }`; none by default.
    #[serde(default, skip_serializing_if = "CodingConfig::is_none")]
    pub coding: CodingConfig,
    /// NAKs that come back over the link, taking time and sometimes lost, e.g.
    /// `{ delay = "link", loss = 0.01 }`; without it NAKs are instantaneous and
    /// error-free, and packets pass one at a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nak: Option<NakConfig>,
    /// The order packets leave the link: `"in_order"` (the default, IS-99's radio
    /// link protocol) or `"as_completed"`. The same with instantaneous NAKs.
    #[serde(default, skip_serializing_if = "Delivery::is_in_order")]
    pub delivery: Delivery,
}

fn no_bytes() -> Bytes {
    Bytes(0)
}

impl LinkLayerSpec for ArqConfig {
    fn validate(&self) -> Result<(), String> {
        self.coding.build().map_err(|m| format!("coding.{m}"))?;
        if self.payload.0 == 0 || self.payload.0 > HEADER_SIZE.hi {
            return Err(format!("payload: {} B is out of range; use 1 B to 65,535 B", self.payload.0));
        }
        if self.attempts == 0 {
            return Err("attempts: 0 sends nothing; use 1 (no retransmission) or more".into());
        }
        HEADER_SIZE.check("header", self.header)?;
        self.nak.as_ref().map_or(Ok(()), NakConfig::validate)
    }
    /// A link packet bigger than any packet is a mistake (the paper cuts packets into several).
    fn check_payload(&self, largest: u64) -> Result<(), String> {
        if self.payload.0 > largest {
            return Err(format!(
                "payload: {} B is larger than any packet the flows send (at most {largest} B); use at most {largest} B",
                self.payload.0
            ));
        }
        Ok(())
    }
    /// The frame is a full link packet: payload and header.
    fn frame(&self, _largest: u64) -> Result<(u64, Coding), String> {
        Ok((self.payload.0 + self.header.0, self.coding.build()?))
    }
    fn build(&self, capacity: AnyCapacity, delay: SimDuration, nak_stream: &mut dyn FnMut() -> RngStream) -> AnyLinkLayer {
        let coding = self.coding.build().expect("validated");
        let framing = Framing::new(capacity, self.payload.0 as u32, self.header.0 as u32, self.attempts, coding);
        match &self.nak {
            // The paper's link (§III), on its fast path.
            None => Arq::Instant(Box::new(InstantArq::new(framing))).into(),
            Some(nak) => {
                let timing = nak.timing(framing.nominal_rate_bps(), delay, framing.full_air());
                Arq::Delayed(Box::new(ArqNak::new(framing, timing, self.delivery, nak_stream()))).into()
            }
        }
    }
}

closed_enum! {
    /// Segmentation with selective-repeat ARQ (`kind = "arq"`): NAKs as the paper has
    /// them (`Instant`, below) or taking time and sometimes lost (`Delayed`,
    /// `arq_nak.rs`). One scheme, one variant of `AnyLinkLayer`, so that the plain
    /// link's dispatch does not widen.
    // Both boxed: every link direction holds an `AnyLinkLayer`, and an unboxed
    // `InstantArq` (248 B) padded each plain link to its size (issue 28: 10,000 links
    // behind a base station); its per-packet work dwarfs one indirection.
    #[derive(Clone, Debug)]
    pub enum Arq via each_arq {
        Instant(Box<InstantArq>),
        Delayed(Box<ArqNak>),
    }
    impl LinkLayer {
        fn ready(&self, now: SimTime) -> bool;
        fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome>;
        fn next_wake(&self, queued: bool) -> Option<Key>;
        fn on_wake(&mut self, now: SimTime, key: Key, ctx: &mut LinkCtx) -> Option<LinkOutcome>;
        fn holds(&mut self, now: SimTime, arrived: SimTime, tickets: &mut Tickets) -> bool;
        fn held(&self) -> usize;
        fn drain(&mut self, f: &mut dyn FnMut(Packet));
        fn counters(&self) -> LinkLayerCounters;
    }
}

/// The paper's link (§III): each packet's transmissions worked out when it begins.
#[derive(Clone, Debug)]
pub struct InstantArq {
    framing: Framing,
    busy: BusyUntil,
    /// A packet whose link packets can never all be sent (a trace played once ran out):
    /// it never leaves, and the link sends nothing more.
    stuck: Option<Packet>,
}

impl InstantArq {
    pub fn new(framing: Framing) -> Self {
        InstantArq { framing, busy: BusyUntil::default(), stuck: None }
    }

    /// Sends link packet `shape` from `*t` until it gets through or runs out of
    /// attempts; advances `*t` past every transmission.
    fn send_link_packet(&mut self, t: &mut SimTime, shape: Shape, ctx: &mut LinkCtx) -> bool {
        for attempt in 0..self.framing.attempts {
            let (end, through) = self.framing.transmit(*t, shape, attempt == 0, ctx);
            *t = end;
            if through {
                return true;
            }
            // The far end NAKs it (§II), and the NAK is back at once (§III).
            self.framing.counters.naks_sent += 1;
        }
        false
    }
}

impl LinkLayer for InstantArq {
    fn ready(&self, now: SimTime) -> bool {
        self.busy.ready(now)
    }

    fn begin(&mut self, now: SimTime, pkt: Packet, ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        debug_assert!(self.ready(now), "one packet at a time");
        let mut t = now;
        let delivered = (0..self.framing.pieces(pkt.size)).all(|i| {
            let shape = self.framing.shape(pkt.size, i);
            self.send_link_packet(&mut t, shape, ctx)
        });
        self.busy.set(ctx.tickets.key(t));
        if t == SimTime::MAX {
            self.stuck = Some(pkt);
            return None;
        }
        Some(if delivered { LinkOutcome::Delivered(pkt, t) } else { LinkOutcome::Lost(pkt, DropCause::LinkRetry) })
    }

    fn next_wake(&self, queued: bool) -> Option<Key> {
        self.busy.next_wake(queued)
    }

    fn on_wake(&mut self, _now: SimTime, key: Key, _ctx: &mut LinkCtx) -> Option<LinkOutcome> {
        self.busy.on_wake(key);
        None
    }

    /// Waits until its capacity can serve the packet (as the plain link does).
    fn holds(&mut self, now: SimTime, arrived: SimTime, tickets: &mut Tickets) -> bool {
        let at = self.framing.first_service(now, arrived);
        if at == now {
            return false;
        }
        self.busy.set(tickets.key(at));
        true
    }

    fn serves_due_before_arrivals(&self) -> bool {
        self.framing.serves_due_before_arrivals()
    }

    /// The packet on the air is already in the pipeline (or lost): the link holds none,
    /// but one that can never finish.
    fn held(&self) -> usize {
        self.stuck.is_some() as usize
    }

    fn drain(&mut self, f: &mut dyn FnMut(Packet)) {
        self.busy.clear();
        if let Some(p) = self.stuck.take() {
            f(p);
        }
    }

    fn counters(&self) -> LinkLayerCounters {
        self.framing.counters
    }
}

#[cfg(test)]
#[path = "arq_tests.rs"]
mod tests;
