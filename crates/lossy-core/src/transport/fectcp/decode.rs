//! When a FECTCP receiver can decode (Botoș §II B: "the transmission ends when the
//! destination has received enough encoded symbols").
//!
//! - `Model` (fast): each source block decodes once it holds a number of distinct
//!   symbols drawn, when the flow is built, from the code's overhead distribution as its
//!   real decoder measured it (`coding::rateless::OverheadModel`), or ⌈K·(1 + overhead)⌉
//!   for a fixed overhead. Which symbols arrived does not matter, only how many: the
//!   real decoders' success depends on the count far more than on the ids (their tests).
//! - `Verify`: the receiver regenerates each symbol's bytes from the sender's seeded
//!   encoder (no payload travels in `Packet`, docs/architecture.md#packet), feeds the
//!   real decoder, and compares the decoded file with the file sent, byte for byte.

use super::config::{Decoding, FectcpConfig};
use crate::coding::rateless::overhead::default_trials;
use crate::coding::rateless::{source_bytes, BlockPlan, FileDecoder, FileEncoder, OverheadModel};
use crate::rng::RngStream;

/// The seed of every overhead measurement: the table is a property of the code and K, the
/// same in every run (and measured once per process).
const MEASURE_SEED: u64 = 1;

pub enum Decode {
    Model(Counts),
    Verify(Box<Verify>),
}

/// Distinct symbols held and needed per block.
pub struct Counts {
    needed: Vec<u64>,
    have: Vec<u64>,
    blocks_left: usize,
}

pub struct Verify {
    encoder: FileEncoder,
    decoder: FileDecoder,
    source: Vec<u8>,
    /// One symbol's bytes, reused for every symbol.
    scratch: Vec<u8>,
    taken: u64,
    verified: Option<bool>,
}

impl Decode {
    /// The decoding rule of `cfg` for a file of `file_bytes` bytes split as `plan`; the
    /// model draws its needed counts from `draws`.
    pub fn new(cfg: &FectcpConfig, plan: &BlockPlan, file_bytes: u64, file_seed: u64, draws: &mut RngStream) -> Result<Self, String> {
        Ok(match cfg.decoding {
            Decoding::Model => {
                let mut needed = Vec::with_capacity(plan.blocks().len());
                for &k in plan.blocks() {
                    let model = match cfg.overhead {
                        Some(o) => OverheadModel::fixed(k, o)?,
                        None => OverheadModel::measure(cfg.code, k, default_trials(cfg.code, k), MEASURE_SEED)?,
                    };
                    needed.push(model.draw_needed(draws));
                }
                let blocks_left = needed.len();
                Decode::Model(Counts { have: vec![0; needed.len()], needed, blocks_left })
            }
            Decoding::Verify => {
                let source = source_bytes(file_seed, file_bytes as usize);
                // The plan was built for this file, so the encoder accepts it.
                let encoder = FileEncoder::new(plan, &source, file_seed).expect("a file that fits its plan");
                let decoder = FileDecoder::new(plan, file_seed);
                let scratch = vec![0; plan.symbol_size() as usize];
                Decode::Verify(Box::new(Verify { encoder, decoder, source, scratch, taken: 0, verified: None }))
            }
        })
    }

    /// Symbol `id` of source block `block`, not seen before; true once the whole file
    /// can be decoded.
    pub fn add(&mut self, id: u64, block: u32) -> bool {
        match self {
            Decode::Model(c) => {
                let b = block as usize;
                c.have[b] += 1;
                if c.have[b] == c.needed[b] {
                    c.blocks_left -= 1;
                }
                c.blocks_left == 0
            }
            Decode::Verify(v) => {
                v.taken += 1;
                v.encoder.symbol_into(id, &mut v.scratch);
                if !v.decoder.push(id, &v.scratch) {
                    return false;
                }
                v.verified = Some(v.decoder.file().is_some_and(|f| f == v.source));
                true
            }
        }
    }

    /// Symbols the file needs: the model's draws, or what the real decoder took.
    pub fn symbols_needed(&self) -> Option<u64> {
        match self {
            Decode::Model(c) => Some(c.needed.iter().sum()),
            Decode::Verify(v) => v.verified.map(|_| v.taken),
        }
    }

    /// Verify mode, once decoded: whether the file matched byte for byte.
    pub fn verified(&self) -> Option<bool> {
        match self {
            Decode::Model(_) => None,
            Decode::Verify(v) => v.verified,
        }
    }
}
