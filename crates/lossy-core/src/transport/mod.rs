//! Endpoints (docs/architecture.md#endpoints): one per side of a
//! flow, each a sans-IO state machine. The world hands an endpoint the packets
//! addressed to it, drains what it wants to send and the trace events it produced, and
//! keeps one timer for it at `next_timeout`. It never names a transport: TCP, UDP and
//! FECTCP are variants of [`AnyEndpoint`].
//!
//! The transports are a family: each is a [`TransportSpec`] in its own file (`tcp.rs`,
//! `udp.rs`, `fectcp/mod.rs`) that checks a flow's tables and builds its two endpoints;
//! one line per transport in the `family!` list below makes [`AnyTransport`], the
//! scenario's [`Transport`] and its endpoints' variants of [`AnyEndpoint`]; the scenario
//! builder names none of them.

pub mod flow_columns;
pub mod one_way_delay;

pub use crate::endpoint::{Endpoint, EventLog, StreamProgress, TraceEvent};

use crate::apps::{App, AppConfig};
use crate::closed::family;
use crate::error::Error;
use crate::packet::{FlowId, NodeId, Packet};
use crate::result::FlowSummary;
use crate::tcp::TcpConfig;
use crate::time::SimTime;
use fectcp::FectcpConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// IPv4's total length is 16 bits: no packet on the wire is larger.
pub const MAX_PACKET: u64 = 65_535;

/// What a flow's transport builds its two endpoints from.
pub struct FlowEnds<'a> {
    pub flow: FlowId,
    /// Its unique name (seeds its own random streams).
    pub name: &'a str,
    pub src: NodeId,
    pub dst: NodeId,
    pub start: SimTime,
    pub app: &'a AppConfig,
    pub tcp: &'a TcpConfig,
    pub fectcp: Option<&'a FectcpConfig>,
    /// The `transport` the scenario gave.
    pub asked: Transport,
    pub seed: u64,
    pub replication: u64,
    /// The field path of one of the flow's fields, for errors (`flows.3.tcp`).
    pub path: &'a dyn Fn(&str) -> String,
}

impl FlowEnds<'_> {
    /// An error for a packet larger than IPv4 allows.
    pub fn too_big(&self, field: &str, what: &str, n: u64) -> Error {
        Error::scenario((self.path)(field), format!("{n} B on the wire with {what}; IPv4 allows at most {MAX_PACKET} B"))
    }

    /// The flow's `tcp` table, which also sizes FECTCP's segments: valid, and its
    /// segments within IPv4's limit.
    pub fn check_tcp(&self) -> crate::error::Result<()> {
        let t = self.tcp;
        t.validate().map_err(|m| Error::nested(&(self.path)("tcp"), m))?;
        if t.mss.0 + t.header.0 > MAX_PACKET {
            return Err(self.too_big("tcp.mss", "the header", t.mss.0 + t.header.0));
        }
        Ok(())
    }
}

/// What every transport does for a flow it carries.
pub trait TransportSpec {
    /// Its name in results (`transport` column).
    fn name(&self) -> &'static str;
    /// The flow's variant label in results (the TCP variant, the code, the app).
    fn variant(&self, f: &FlowEnds) -> &'static str;
    /// Whether it reads the flow's `tcp` table (segment sizes, adaptive FEC).
    fn reads_tcp_options(&self) -> bool;
    /// Whether base-station agents act on its packets (they read TCP headers).
    fn agents_act_on_it(&self) -> bool;
    /// The flow asked for it by name (`transport`): its app and tables agree with that.
    fn check_asked(&self, _f: &FlowEnds) -> crate::error::Result<()> {
        Ok(())
    }
    /// Checks the flow's tables and builds its sender and receiver.
    fn endpoints(&self, f: &FlowEnds) -> crate::error::Result<[AnyEndpoint; 2]>;
}

// One line per transport (`closed::family!`): its module, its type, the value a
// scenario's `transport` names it by (a constant in its file; none for one a scenario
// cannot name) and, after `+`, its endpoints. Plain comments: the doc line of
// `Transport` is the schema's description, and its values have none.
family! {
    runtime {
        /// Every built-in transport.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum AnyTransport via each_transport;
        impl TransportSpec {
            fn name(&self) -> &'static str;
            fn variant(&self, f: &FlowEnds) -> &'static str;
            fn reads_tcp_options(&self) -> bool;
            fn agents_act_on_it(&self) -> bool;
            fn check_asked(&self, f: &FlowEnds) -> crate::error::Result<()>;
            fn endpoints(&self, f: &FlowEnds) -> crate::error::Result<[AnyEndpoint; 2]>;
        }
    }
    unit_config {
        /// The transport of a file or bulk transfer.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum Transport via each_transport_config;
    }
    parts {
        /// Every built-in endpoint. TCP's and UDP's unboxed: an endpoint is called several
        /// times per packet, and one indirection less is worth the larger slots. FECTCP's
        /// sender is boxed (once, when built): its 592 B padded every TCP receiver's slot
        /// (issue 28; `layout_tests.rs` bounds the slots).
        #[allow(clippy::large_enum_variant)]
        pub enum AnyEndpoint via each_endpoint;
        impl Endpoint {
            fn handle_packet(&mut self, now: SimTime, pkt: &Packet);
            fn poll_transmit(&mut self, now: SimTime) -> Option<Packet>;
            fn poll_event(&mut self) -> Option<TraceEvent>;
            fn enable_events(&mut self);
            fn next_timeout(&self) -> Option<SimTime>;
            fn handle_timeout(&mut self, now: SimTime);
            fn progress(&self) -> StreamProgress;
            fn delivered(&self) -> u64;
            fn rate_bytes(&self) -> u64;
            fn check_invariants(&self) -> Result<(), String>;
            fn report(&mut self, end: SimTime, out: &mut FlowSummary);
            fn note(&self) -> Option<String>;
            fn takes_corrupt(&self) -> bool;
        }
    }
    schemes {
        #[default]
        tcp::Tcp(TcpTransport, NAMED_TCP) + [TcpSender(tcp::TcpSender), TcpReceiver(tcp::TcpReceiver)],
        udp::Udp(UdpTransport) + [CbrSource(udp::CbrSource), UdpSink(udp::UdpSink)],
        fectcp::Fectcp(FectcpTransport, NAMED_FECTCP) + [FectcpSender(Box<fectcp::FectcpSender>), FectcpReceiver(fectcp::FectcpReceiver)],
    }
}

impl Transport {
    /// The default, TCP: left out when a scenario is written back.
    pub fn is_tcp(&self) -> bool {
        *self == Transport::default()
    }

    /// The transport that carries `app`: the one asked for a byte stream, UDP for
    /// datagrams.
    pub fn carrier(self, app: &AppConfig) -> AnyTransport {
        if app.is_stream() {
            self.asked()
        } else {
            // The datagram carrier, whatever was asked (a role, not a choice).
            UdpTransport.into()
        }
    }

    /// The transport asked for.
    fn asked(self) -> AnyTransport {
        each_transport_config!(self, t => AnyTransport::from(*t))
    }
}

/// The flow's `transport` and `fectcp` fields agree with each other and with its app
/// (the asked transport's `check_asked`): a `fectcp` table on a TCP flow would be
/// silently ignored, and a datagram app rides on UDP whatever the transport says.
pub fn check_transport(f: &FlowEnds) -> crate::error::Result<()> {
    f.asked.asked().check_asked(f)
}

/// Which of a flow's numbered units (datagrams, symbols) have arrived: one bit each, so a
/// receiver tells a network duplicate from a first copy.
#[derive(Debug, Default)]
pub struct SeenSet(Vec<u64>);

impl SeenSet {
    /// Marks unit `i` seen; false if it was seen before.
    pub fn first_time(&mut self, i: u64) -> bool {
        let (word, bit) = ((i / 64) as usize, 1u64 << (i % 64));
        if self.0.len() <= word {
            self.0.resize(word + 1, 0);
        }
        let fresh = self.0[word] & bit == 0;
        self.0[word] |= bit;
        fresh
    }
}
