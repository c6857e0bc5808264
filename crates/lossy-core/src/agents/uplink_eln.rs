//! ELN for mobile senders, the direction Balakrishnan and Katz's ELN was first built for
//! and the one ns-2's Snoop serves for data from the wireless side (`snoop_wless_data`,
//! `snoop_wired_ack`, `snoop_wlessloss` in ns-2.35 `tcp/snoop.cc`): the base station
//! records which parts of the sequence space arrived from the mobile host; a segment the
//! receiver misses that never arrived was lost on the wireless hop, so the ACKs going
//! back to the mobile host that ask for it get ELN. A segment that did arrive and is
//! missing was lost beyond the base station (or in its own queue): congestion, no ELN.

use crate::intervals::IntervalSet;
use crate::packet::{Flags, Packet, TcpData};

/// Bytes to hold one sequence number (32-bit TCP sequence space).
const SEQ_BYTES: u64 = 4;

#[derive(Default)]
struct Connection {
    seen: bool,
    /// Highest cumulative ACK seen from the wired side (ns-2's `wl_lastAck_`).
    last_ack: u64,
    /// What arrived from the mobile host at or above `last_ack` (ns-2's `wlseqs_` runs).
    arrived: IntervalSet,
}

impl Connection {
    /// The last ACK and two numbers per run of arrived data.
    fn state_bytes(&self) -> u64 {
        if self.seen {
            SEQ_BYTES * (1 + 2 * self.arrived.len() as u64)
        } else {
            0
        }
    }
}

#[derive(Default)]
pub(crate) struct UplinkEln {
    connections: Vec<Connection>,
    state_bytes: u64,
    marked: u64,
}

impl UplinkEln {
    pub(crate) fn new(n_flows: usize) -> Self {
        UplinkEln {
            connections: (0..n_flows).map(|_| Connection::default()).collect(),
            ..UplinkEln::default()
        }
    }

    fn with_connection<R>(&mut self, flow: usize, f: impl FnOnce(&mut Connection) -> R) -> R {
        let c = &mut self.connections[flow];
        let before = c.state_bytes();
        let r = f(c);
        self.state_bytes = self.state_bytes - before + c.state_bytes();
        r
    }

    /// A data segment arrived from the mobile host.
    pub(crate) fn on_data(&mut self, flow: usize, d: &TcpData) {
        self.with_connection(flow, |c| {
            c.seen = true;
            if d.end_seq() > c.last_ack {
                c.arrived.insert(d.seq.max(c.last_ack), d.end_seq());
            }
        });
    }

    /// An ACK of `a` on its way to the mobile host: ELN when the segment it asks for
    /// never arrived here. ns-2 marks a duplicate ACK so, and a new ACK too when data
    /// above the hole did arrive ("even a new ack could cause an ELN to be set").
    pub(crate) fn on_ack(&mut self, pkt: &mut Packet, a: u64) {
        let mark = self.with_connection(pkt.flow as usize, |c| {
            if !c.seen || a < c.last_ack {
                return false; // no data seen, or ACKs out of order
            }
            let duplicate = a == c.last_ack;
            c.arrived.remove_below(a);
            c.last_ack = a;
            let missing = !c.arrived.contains(a);
            // As ns-2's `snoop_wlessloss`, a duplicate with nothing recorded counts as
            // a wireless loss: the data that triggered it came through here.
            missing && (duplicate || !c.arrived.is_empty())
        });
        if mark {
            pkt.flags.set(Flags::ELN);
            self.marked += 1;
        }
    }

    /// Drops what is known of `flow` (a hand-off).
    pub(crate) fn forget(&mut self, flow: usize) {
        self.with_connection(flow, |c| *c = Connection::default());
    }

    pub(crate) fn state_bytes(&self) -> u64 {
        self.state_bytes
    }

    pub(crate) fn marked(&self) -> u64 {
        self.marked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLOW: usize = 0;

    fn data(seq: u64) -> TcpData {
        Packet::tcp_data(0, 2, 0, seq, 1000, 1040).tcp_data_header().unwrap()
    }

    /// The ACK of `n` toward the mobile host, and whether it left with ELN.
    fn ack(u: &mut UplinkEln, n: u64) -> bool {
        let mut p = Packet::tcp_ack(0, 0, 2, n, 65535, 40);
        u.on_ack(&mut p, n);
        p.flags.has(Flags::ELN)
    }

    #[test]
    fn a_segment_that_never_arrived_gets_eln_on_its_acks() {
        let mut u = UplinkEln::new(1);
        for k in [0, 2, 3, 4] {
            u.on_data(FLOW, &data(k * 1000)); // 1000 lost on the wireless hop
        }
        // The new ACK of 1000 already asks for a segment that never arrived, data above it did.
        assert!(ack(&mut u, 1000));
        assert!(ack(&mut u, 1000) && ack(&mut u, 1000) && ack(&mut u, 1000));
        assert_eq!(u.marked(), 4);
        // The mobile host resends it: the ACKs still on their way are not marked, and the
        // state shrinks to what is above the new ACK.
        u.on_data(FLOW, &data(1000));
        assert!(!ack(&mut u, 1000));
        assert!(!ack(&mut u, 5000));
        assert_eq!(u.state_bytes(), SEQ_BYTES);
    }

    #[test]
    fn a_segment_lost_beyond_the_base_station_gets_none() {
        let mut u = UplinkEln::new(1);
        for k in 0..5 {
            u.on_data(FLOW, &data(k * 1000)); // all arrived; 1000 is lost on the wired side
        }
        for _ in 0..4 {
            assert!(!ack(&mut u, 1000));
        }
        assert_eq!(u.marked(), 0);
    }

    #[test]
    fn in_order_acks_get_none_and_old_acks_are_ignored() {
        let mut u = UplinkEln::new(1);
        assert!(!ack(&mut u, 0), "no data seen: nothing known");
        for k in 0..3 {
            u.on_data(FLOW, &data(k * 1000));
            assert!(!ack(&mut u, (k + 1) * 1000));
        }
        assert!(!ack(&mut u, 1000), "an ACK below the last one is out of order");
        u.forget(FLOW);
        assert_eq!(u.state_bytes(), 0);
    }
}
