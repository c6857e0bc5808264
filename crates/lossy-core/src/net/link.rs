//! One direction of a full-duplex point-to-point link: an output queue, a transmitter
//! of fixed rate, a propagation delay and a loss process (the channel).

use super::queue::DropTail;
use crate::channel::{Channel, LossProcess};
use crate::packet::{NodeId, Packet};
use crate::rng::RngStream;
use crate::time::{serialization_delay, SimDuration, SimTime};

#[derive(Clone, Debug, Default)]
pub struct LinkCounters {
    /// Packets handed to the link (queued or dropped at the queue).
    pub offered: u64,
    pub queue_drops: u64,
    pub channel_losses: u64,
    /// Packets that reached the far end.
    pub delivered: u64,
    pub bytes_delivered: u64,
}

pub struct LinkDir {
    pub name: String,
    pub from: NodeId,
    pub to: NodeId,
    pub rate_bps: u64,
    pub delay: SimDuration,
    pub queue: DropTail,
    /// The packet being serialised, if any.
    pub in_service: Option<Packet>,
    channel: Channel,
    rng: RngStream,
    pub counters: LinkCounters,
}

impl LinkDir {
    #[allow(clippy::too_many_arguments)] // one per physical property; called once per link
    pub fn new(name: String, from: NodeId, to: NodeId, rate_bps: u64, delay: SimDuration, queue: DropTail, channel: Channel, rng: RngStream) -> Self {
        LinkDir { name, from, to, rate_bps, delay, queue, in_service: None, channel, rng, counters: LinkCounters::default() }
    }

    /// Offers a packet. Returns the time its transmission ends if the transmitter was
    /// idle (the caller schedules that event), or gives the packet back if the queue
    /// dropped it.
    pub fn offer(&mut self, now: SimTime, p: Packet) -> Result<Option<SimTime>, Packet> {
        self.counters.offered += 1;
        if self.in_service.is_none() {
            return Ok(Some(self.start(now, p)));
        }
        self.queue.enqueue(p).map(|()| None).inspect_err(|_| self.counters.queue_drops += 1)
    }

    fn start(&mut self, now: SimTime, p: Packet) -> SimTime {
        let done = now + serialization_delay(p.bits(), self.rate_bps);
        self.in_service = Some(p);
        done
    }

    /// The transmission in service ended at `now`. Returns the packet and its arrival
    /// time at the far end unless the channel lost it, and the end time of the next
    /// transmission if one started.
    pub fn complete(&mut self, now: SimTime) -> (Option<(Packet, SimTime)>, Option<SimTime>) {
        let p = self.in_service.take().expect("a transmission was in service");
        let arrival = if self.channel.lost(now, p.bits(), &mut self.rng) {
            self.counters.channel_losses += 1;
            None
        } else {
            self.counters.delivered += 1;
            self.counters.bytes_delivered += p.size as u64;
            Some((p, now + self.delay))
        };
        let next = self.queue.dequeue().map(|q| self.start(now, q));
        (arrival, next)
    }

    /// Packets held by this direction: queued or being serialised.
    pub fn held(&self) -> usize {
        self.queue.len() + self.in_service.is_some() as usize
    }
}
