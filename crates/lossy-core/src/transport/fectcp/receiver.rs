//! FECTCP's receiver (Botoș §II): answers the SYN, acknowledges every symbol at once
//! with a cumulative ACK (one past the highest id received, so it acknowledges every
//! earlier segment), hands each new symbol to the decoder, and sends a FIN once the file
//! decodes, again for any symbol that still arrives. The file reaches the application
//! whole at that moment.

use super::decode::Decode;
use super::FectcpReport;
use crate::coding::rateless::BlockPlan;
use crate::packet::{Flags, FlowId, Header, NodeId, Packet};
use crate::result::FlowSummary;
use crate::time::SimTime;
use crate::transport::{Endpoint, StreamProgress, SeenSet};
use std::collections::VecDeque;

pub struct FectcpReceiver {
    flow: FlowId,
    node: NodeId,
    peer: NodeId,
    ack_size: u16,
    plan: BlockPlan,
    symbol: u32,
    file_bytes: u64,
    decode: Decode,
    /// One bit per symbol id received (the network may duplicate).
    seen: SeenSet,
    /// One past the highest id received: the ACK number.
    highest: u64,
    syn_seen: bool,
    /// Distinct symbols received, and how many it took to decode.
    symbols: u64,
    at_decode: Option<u64>,
    decoded_at: Option<SimTime>,
    start: SimTime,
    fin_answered: bool,
    duplicates: u64,
    out: VecDeque<Packet>,
}

impl FectcpReceiver {
    #[allow(clippy::too_many_arguments)] // one per property of the flow; called once per flow
    pub fn new(flow: FlowId, node: NodeId, peer: NodeId, start: SimTime, ack_size: u16, plan: BlockPlan, symbol: u32, file_bytes: u64, decode: Decode) -> Self {
        FectcpReceiver {
            flow,
            node,
            peer,
            ack_size,
            plan,
            symbol,
            file_bytes,
            decode,
            seen: SeenSet::default(),
            highest: 0,
            syn_seen: false,
            symbols: 0,
            at_decode: None,
            decoded_at: None,
            start,
            fin_answered: false,
            duplicates: 0,
            out: VecDeque::new(),
        }
    }

    fn reply(&mut self, ack: u64, flag: Option<u16>) {
        let mut p = Packet::fectcp_ack(self.flow, self.node, self.peer, ack, self.ack_size);
        if let Some(f) = flag {
            p.flags.set(f);
        }
        self.out.push_back(p);
    }

    fn on_symbol(&mut self, now: SimTime, id: u64) {
        if self.seen.first_time(id) {
            self.symbols += 1;
            if self.decoded_at.is_none() {
                let (block, _) = self.plan.locate(id);
                if self.decode.add(id, block) {
                    self.decoded_at = Some(now);
                    self.at_decode = Some(self.symbols);
                }
            }
        } else {
            self.duplicates += 1;
        }
        self.highest = self.highest.max(id + 1);
        // Once decoded, every symbol is answered with the FIN (the last one may be lost).
        let flag = self.decoded_at.is_some().then_some(Flags::FIN);
        self.reply(self.highest, flag);
    }
}

impl Endpoint for FectcpReceiver {
    fn handle_packet(&mut self, now: SimTime, pkt: &Packet) {
        let Header::FectcpSymbol(s) = pkt.header else { return };
        if pkt.flags.has(Flags::SYN) {
            // Every SYN is answered: the SYN-ACK may have been lost.
            self.syn_seen = true;
            self.reply(0, Some(Flags::SYN));
        } else if pkt.flags.has(Flags::FIN) {
            self.fin_answered = true;
        } else if s.len > 0 {
            self.on_symbol(now, s.id);
        }
    }

    fn poll_transmit(&mut self, _now: SimTime) -> Option<Packet> {
        self.out.pop_front()
    }

    fn next_timeout(&self) -> Option<SimTime> {
        None
    }

    fn handle_timeout(&mut self, _now: SimTime) {}

    fn progress(&self) -> StreamProgress {
        StreamProgress { delivered: self.delivered(), ..StreamProgress::default() }
    }

    /// The file, once decoded: it reaches the application whole.
    fn delivered(&self) -> u64 {
        if self.decoded_at.is_some() {
            self.file_bytes
        } else {
            0
        }
    }

    /// The symbol bytes received, which the throughput trace counts: the file itself
    /// appears only at decoding (Botoș's Figs. 5 and 6 plot this rate).
    fn rate_bytes(&self) -> u64 {
        self.symbols * self.symbol as u64
    }

    fn check_invariants(&self) -> Result<(), String> {
        if self.symbols > self.highest {
            return Err(format!("FECTCP receiver: {} distinct symbols below id {}", self.symbols, self.highest));
        }
        if self.symbols > 0 && !self.syn_seen {
            return Err("FECTCP receiver: symbols before any SYN".into());
        }
        if let Some(false) = self.decode.verified() {
            return Err("FECTCP receiver: the decoded file differs from the file sent".into());
        }
        Ok(())
    }

    fn report(&mut self, _end: SimTime, out: &mut FlowSummary) {
        let out = &mut out.metrics;
        out.set("duplicate_bytes", self.duplicates * self.symbol as u64);
        let k = self.plan.source_symbols();
        out.add(FectcpReport::COLUMNS);
        out.set("fectcp_source_symbols", k);
        out.set("fectcp_symbols_needed", self.decode.symbols_needed());
        out.set("fectcp_symbols_received", self.symbols);
        out.set("fectcp_symbols_at_decode", self.at_decode);
        out.set("fectcp_overhead", self.at_decode.map(|n| n as f64 / k as f64 - 1.0));
        out.set("fectcp_decoded_s", self.decoded_at.map(|t| (t - self.start).as_secs_f64()));
        out.set("fectcp_verified", self.decode.verified());
        out.set("fectcp_fin_answered", self.fin_answered);
    }
}
