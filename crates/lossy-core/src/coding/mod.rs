//! Forward error correction codes, as pure mathematics: a code turns message bits into
//! codeword bits and back, with no packets, time or randomness. A link layer that codes
//! its frames (issue 11's `Coding` seam: `frame`) uses them; the simulation's
//! fast path asks only whether a codeword with so many bit errors survives, and the
//! real decoder is here to show that answer exact.
//!
//! - `gf`: the field GF(2^m), m = 3..=10, by log and antilog tables.
//! - `bch`: narrow-sense binary BCH codes of length 2^m − 1.
//! - `decode_rate`: the real decoder's speed, for `lossy bench`.
//! - `frame`: the coded-frame model, what a frame under a code costs and when it decodes.
//! - `rateless`: the erasure codes of FECTCP, RaptorQ (RFC 6330) and LT (Luby 2002).

pub mod bch;
pub mod decode_rate;
pub mod frame;
pub mod gf;
pub mod rateless;

pub use bch::{BchCode, DecodeFailure, Decoded};
