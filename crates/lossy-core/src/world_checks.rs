//! Accounting and the whole-run checks (DESIGN.md "Conservation with every path
//! named"): every packet injected or created by the network is delivered, dropped for a
//! named cause, absorbed by an agent or still held in a segment; every byte delivered
//! was sent, in order, once.

use crate::error::{Error, Result};
use crate::net::{DropCounts, Segment, Tally};
use crate::transport::Endpoint;
use crate::world::World;

/// Packet accounting kept by the world.
#[derive(Clone, Debug, Default)]
pub(crate) struct PacketCounters {
    pub injected: u64,
    pub delivered: u64,
    /// Deliveries that carried application data (TCP segments, UDP datagrams).
    pub data_delivered: u64,
    /// Deliveries of headers whose payload was lost (CORRUPT, set by EWLN at the MAC):
    /// counted apart from `data_delivered`, never as data received.
    pub corrupt_delivered: u64,
    pub absorbed: u64,
    pub drops: DropCounts,
}

impl World {
    /// The segments' counts summed.
    pub(crate) fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for s in &self.segments {
            t.add(&s.seg.tally());
        }
        t
    }

    /// Whole-run checks; an error names what broke.
    pub fn check_invariants(&self) -> Result<()> {
        self.check_conservation()?;
        for (f, flow) in self.flows.iter().enumerate() {
            let (s, r) = (&self.endpoints[2 * f].ep, &self.endpoints[2 * f + 1].ep);
            let fail = |m: String| Error::Invariant(format!("{}: {m}", flow.name));
            s.check_invariants().map_err(fail)?;
            r.check_invariants().map_err(fail)?;
            let (s, r) = (s.progress(), r.progress());
            if r.delivered > s.highest_sent {
                return Err(fail(format!("received {} bytes, only {} ever sent", r.delivered, s.highest_sent)));
            }
            if s.acked > r.delivered {
                return Err(fail(format!("sender saw an ACK of {} beyond the {} delivered", s.acked, r.delivered)));
            }
            if flow.total_bytes.is_some_and(|n| r.delivered > n) {
                return Err(fail("delivered more than the file".into()));
            }
        }
        Ok(())
    }

    /// injected + duplicated = delivered + drops by cause + absorbed + held.
    fn check_conservation(&self) -> Result<()> {
        let c = &self.counters;
        let t = self.tally();
        let accounted = c.delivered + c.drops.total() + c.absorbed + t.held;
        if c.injected + t.duplicated != accounted {
            return Err(Error::Invariant(format!(
                "packets not conserved: injected {} + duplicated {} != delivered {} + drops {:?} + absorbed {} + held {}",
                c.injected, t.duplicated, c.delivered, c.drops, c.absorbed, t.held
            )));
        }
        if c.data_delivered + c.corrupt_delivered > c.delivered {
            return Err(Error::Invariant(format!(
                "data deliveries {} + corrupted headers {} exceed deliveries {}",
                c.data_delivered, c.corrupt_delivered, c.delivered
            )));
        }
        // Segments never drop for want of a route: that is the world's.
        let by_world = DropCounts { no_route: 0, ..c.drops };
        if t.drops != by_world {
            return Err(Error::Invariant(format!("segment drop counts {:?} disagree with the world's {by_world:?}", t.drops)));
        }
        Ok(())
    }
}
