//! Applications: what a flow carries (docs/architecture.md#families). Each is a
//! config table in its own file implementing [`App`]; [`AppConfig`] lists them, made by
//! the `family!` list below, so a new application is its file and one line there, and
//! no consumer names one. Bulk
//! and file transfers are byte streams (TCP or FECTCP carries them); constant bit rate
//! is datagrams (UDP carries it).

use crate::closed::family;
use crate::units::SizeRange;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What every application's table says about it.
pub trait App {
    /// Its `kind` as a scenario writes it.
    fn kind(&self) -> &'static str;
    /// Checks the fields; the message names the field, the value and what is allowed.
    fn validate(&self) -> Result<(), String>;
    /// Bytes it delivers in all; `None` = it runs until the end of the run.
    fn total_bytes(&self) -> Option<u64>;
    /// A byte stream (carried by the flow's `transport`), not datagrams (UDP).
    fn is_stream(&self) -> bool;
    /// Datagrams only: (payload bytes, header bytes, payload bit rate, datagrams in all).
    fn datagrams(&self) -> Option<Datagrams> {
        None
    }
}

/// What a datagram application sends: `packet_size`-byte payloads with `header` bytes
/// added, at `rate` bit/s of payload, `packets` of them (`None`: until the end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Datagrams {
    pub rate: u64,
    pub packet_size: u64,
    pub header: u64,
    pub packets: Option<u64>,
}

// One line per application (`closed::family!`): its module and its table, which is
// the application. The doc comments are the schema's descriptions (`lossy schema`).
family! {
    config {
        #[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
        #[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
        pub enum AppConfig via each_app;
        impl App {
            fn kind(&self) -> &'static str;
            fn validate(&self) -> Result<(), String>;
            fn total_bytes(&self) -> Option<u64>;
            fn is_stream(&self) -> bool;
            fn datagrams(&self) -> Option<Datagrams>;
        }
    }
    schemes {
        /// An unlimited TCP transfer (ns-2 FTP, ns-3 BulkSend with MaxBytes 0).
        bulk::Bulk(_, BulkApp),
        /// A TCP transfer of `size` bytes; its completion time is recorded.
        file::File(_, FileApp),
        /// Constant-bit-rate UDP: `packet_size`-byte datagrams (payload) at `rate`.
        cbr::Cbr(_, CbrApp),
    }
}

/// A datagram's payload; 65,000 leaves room for headers in IPv4's 65,535.
pub const PACKET_SIZE: SizeRange = SizeRange { lo: 1, hi: 65_000 };

#[cfg(test)]
mod tests {
    use super::*;

    /// One valid table per application, keyed by its `AppConfig` variant; the test below
    /// runs over `AppConfig::VARIANTS` and fails naming an application missing here.
    const TABLES: &[(&str, &str)] = &[
        ("Bulk", r#"{"kind": "bulk"}"#),
        ("File", r#"{"kind": "file", "size": "1 kB"}"#),
        ("Cbr", r#"{"kind": "cbr", "rate": "1 Mbps", "packet_size": "1000 B"}"#),
    ];

    #[test]
    fn every_app_parses_validates_and_says_what_it_delivers() {
        for variant in AppConfig::VARIANTS {
            let t = TABLES.iter().find(|(v, _)| v == variant).map(|(_, t)| *t);
            let t = t.unwrap_or_else(|| panic!("application {variant} has no table: add one to TABLES in apps/mod.rs"));
            let app: AppConfig = serde_json::from_str(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert!(app.validate().is_ok(), "{variant}");
            assert_eq!(app.kind(), variant.to_lowercase());
            // A stream has no datagrams; datagrams are not a stream.
            assert_eq!(app.is_stream(), app.datagrams().is_none(), "{variant}");
        }
        let cbr: AppConfig = serde_json::from_str(r#"{"kind": "cbr", "rate": "1 Mbps", "packet_size": "1000 B", "packets": 3}"#).unwrap();
        assert_eq!(cbr.total_bytes(), Some(3000));
        assert_eq!(AppConfig::default().total_bytes(), None);
    }
}
