//! Rateless erasure codes for FECTCP (Botoș et al. §II.B; issue 14). The file is cut into
//! source blocks of K symbols; the sender makes as many encoded symbols of each block as
//! the transfer needs, each named by an id; the receiver rebuilds a block from any set of
//! slightly more than K of them, whichever were lost.
//!
//! Two modes, as for the BCH codes:
//! - **verifying**, real bytes: the file is `source_bytes(seed, len)`, `FileEncoder` makes
//!   the bytes of a symbol id, `FileDecoder` takes them and gives the file back, which the
//!   caller compares byte for byte;
//! - **fast**, no bytes: `OverheadModel` holds how many symbols beyond K the real decoder
//!   needed over many trials, and draws a block's need from it.
//!
//! Files: `plan` (source blocks, RFC 6330 §4.4.1.2; ids onto blocks), `raptor` (RaptorQ,
//! RFC 6330, via the `raptorq` crate), `soliton` + `peel` + `lt` (our LT code: Luby 2002's
//! robust soliton, the peeling decoder), `codec` (file-level encoder and decoder),
//! `measure` + `overhead` (the decode-success model) + `overhead_cache` (its disk cache), `rate` (speed, for `lossy bench`).

pub mod codec;
pub mod lt;
pub mod measure;
pub mod overhead;
pub mod overhead_cache;
pub mod peel;
pub mod plan;
pub mod raptor;
pub mod rate;
pub mod soliton;

pub use codec::{FileDecoder, FileEncoder};
pub use overhead::OverheadModel;
pub use plan::BlockPlan;

use rand_core::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which rateless code a transfer uses (scenario names "raptorq" and "lt").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum RatelessCode {
    /// RaptorQ, RFC 6330: systematic, decodes from K symbols about 99 times in 100.
    #[serde(rename = "raptorq")]
    RaptorQ,
    /// Our LT code (Luby 2002): robust soliton degrees, peeling decoder.
    #[serde(rename = "lt")]
    Lt,
}

impl RatelessCode {
    pub const ALL: [RatelessCode; 2] = [RatelessCode::RaptorQ, RatelessCode::Lt];

    /// The name used in scenarios and from Python.
    pub fn name(self) -> &'static str {
        match self {
            RatelessCode::RaptorQ => "raptorq",
            RatelessCode::Lt => "lt",
        }
    }

    /// The code called `name`, or a one-line error saying which names exist.
    pub fn from_name(name: &str) -> Result<RatelessCode, String> {
        RatelessCode::ALL
            .into_iter()
            .find(|c| c.name() == name)
            .ok_or_else(|| format!("code: '{name}' is not a rateless code; use raptorq or lt"))
    }
}

/// The `len` bytes of the file a verifying transfer sends: Xoshiro256++ output from a
/// stream of its own, little-endian, so sender and receiver make the same file from
/// `seed` and a changed generator crate cannot change it unnoticed (rng.rs pins it).
pub fn source_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(crate::rng::stream_seed(seed, 0, "rateless:file"));
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        out.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    out.truncate(len);
    out
}

/// `dst ^= src`, byte by byte (the compiler vectorises it).
pub(crate) fn xor_into(dst: &mut [u8], src: &[u8]) {
    debug_assert_eq!(dst.len(), src.len());
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

/// A random 64-bit word made uniform in 0..n by multiply-shift (the bias, below
/// n / 2^64, is nothing here).
pub(crate) fn below(word: u64, n: u64) -> u64 {
    ((word as u128 * n as u128) >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_names_round_trip_through_serde_and_from_name() {
        for code in RatelessCode::ALL {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.name()));
            assert_eq!(serde_json::from_str::<RatelessCode>(&json).unwrap(), code);
            assert_eq!(RatelessCode::from_name(code.name()), Ok(code));
        }
        assert_eq!(RatelessCode::from_name("raptor_q").unwrap_err(),
                   "code: 'raptor_q' is not a rateless code; use raptorq or lt");
    }

    #[test]
    fn source_bytes_are_deterministic_prefixes_of_one_stream() {
        let long = source_bytes(7, 1000);
        assert_eq!(long, source_bytes(7, 1000));
        assert_eq!(&long[..13], &source_bytes(7, 13)[..]);
        assert_ne!(long, source_bytes(8, 1000));
        // Not degenerate: every byte value turns up in 100 kB of output.
        let mut seen = [false; 256];
        source_bytes(1, 100_000).iter().for_each(|&b| seen[b as usize] = true);
        assert!(seen.iter().all(|&s| s));
    }
}
