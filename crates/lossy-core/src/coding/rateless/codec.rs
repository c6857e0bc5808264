//! The verifying mode at file level: a transport's running symbol id in, symbol bytes
//! out at the sender; (id, bytes) in, the whole file out at the receiver once every block
//! is decoded. The plan maps ids onto blocks (plan.rs); each block has its own encoder
//! and decoder, built once.

use super::lt::{LtBlockDecoder, LtBlockEncoder};
use super::plan::BlockPlan;
use super::raptor::{RaptorBlockDecoder, RaptorBlockEncoder};
use super::RatelessCode;

#[derive(Clone, Debug)]
enum BlockEncoder {
    Raptor(RaptorBlockEncoder),
    Lt(LtBlockEncoder),
}

/// Makes the bytes of any symbol of a file.
#[derive(Clone, Debug)]
pub struct FileEncoder {
    plan: BlockPlan,
    blocks: Vec<BlockEncoder>,
}

impl FileEncoder {
    /// The encoder of `file` (exactly `plan.file_bytes()` long) under `plan`. LT draws its
    /// graph from `code_seed`, which the decoder must be given too; RaptorQ ignores it.
    pub fn new(plan: &BlockPlan, file: &[u8], code_seed: u64) -> Result<FileEncoder, String> {
        if file.len() as u64 != plan.file_bytes() {
            return Err(format!("file: {} B, but the plan is for {} B", file.len(), plan.file_bytes()));
        }
        let t = plan.symbol_size();
        let blocks = (0..plan.blocks().len() as u32)
            .map(|b| {
                let (start, len) = plan.block_range(b);
                let data = &file[start as usize..(start + len) as usize];
                let k = plan.blocks()[b as usize];
                match plan.code() {
                    RatelessCode::RaptorQ => BlockEncoder::Raptor(RaptorBlockEncoder::new(data, k, t as u16, b)),
                    RatelessCode::Lt => BlockEncoder::Lt(LtBlockEncoder::new(data, k, t as usize, code_seed, b)),
                }
            })
            .collect();
        Ok(FileEncoder { plan: plan.clone(), blocks })
    }

    pub fn plan(&self) -> &BlockPlan {
        &self.plan
    }

    /// The bytes of running symbol `id` into `out` (`symbol_size` bytes).
    pub fn symbol_into(&mut self, id: u64, out: &mut [u8]) {
        let (block, esi) = self.plan.locate(id);
        assert!((esi as u64) < self.plan.max_symbols_per_block(), "symbol id {id}: beyond the code's ids");
        match &mut self.blocks[block as usize] {
            BlockEncoder::Raptor(e) => e.symbol_into(esi, out),
            BlockEncoder::Lt(e) => e.symbol_into(esi, out),
        }
    }

    /// The bytes of running symbol `id`.
    pub fn symbol(&mut self, id: u64) -> Vec<u8> {
        let mut out = vec![0; self.plan.symbol_size() as usize];
        self.symbol_into(id, &mut out);
        out
    }
}

#[derive(Clone, Debug)]
enum BlockDecoder {
    Raptor(RaptorBlockDecoder),
    Lt(LtBlockDecoder),
}

impl BlockDecoder {
    fn block(&self) -> Option<&[u8]> {
        match self {
            BlockDecoder::Raptor(d) => d.block(),
            BlockDecoder::Lt(d) => d.block(),
        }
    }
}

/// Rebuilds a file from its symbols.
#[derive(Clone, Debug)]
pub struct FileDecoder {
    plan: BlockPlan,
    blocks: Vec<BlockDecoder>,
    decoded: u32,
    received: u64,
    /// Per block: symbols taken until it was decoded (the last one included).
    block_received: Vec<u64>,
}

impl FileDecoder {
    /// The decoder of a file under `plan`; `code_seed` as given to the encoder.
    pub fn new(plan: &BlockPlan, code_seed: u64) -> FileDecoder {
        let t = plan.symbol_size();
        let blocks = plan
            .blocks()
            .iter()
            .enumerate()
            .map(|(b, &k)| match plan.code() {
                RatelessCode::RaptorQ => BlockDecoder::Raptor(RaptorBlockDecoder::new(k, t as u16, b as u32)),
                RatelessCode::Lt => BlockDecoder::Lt(LtBlockDecoder::new(k, t as usize, code_seed, b as u32)),
            })
            .collect();
        FileDecoder { plan: plan.clone(), blocks, decoded: 0, received: 0, block_received: vec![0; plan.blocks().len()] }
    }

    /// Takes running symbol `id` and its bytes; true once the whole file is decoded.
    pub fn push(&mut self, id: u64, bytes: &[u8]) -> bool {
        let (block, esi) = self.plan.locate(id);
        self.push_at(block, esi, bytes)
    }

    /// Takes symbol `esi` of block `block`; true once the whole file is decoded.
    pub fn push_at(&mut self, block: u32, esi: u32, bytes: &[u8]) -> bool {
        assert_eq!(bytes.len(), self.plan.symbol_size() as usize, "a symbol of another size");
        self.received += 1;
        let d = &mut self.blocks[block as usize];
        if d.block().is_none() {
            self.block_received[block as usize] += 1;
            let now = match d {
                BlockDecoder::Raptor(d) => d.push(esi, bytes),
                BlockDecoder::Lt(d) => d.push(esi, bytes),
            };
            self.decoded += now as u32;
        }
        self.is_decoded()
    }

    pub fn is_decoded(&self) -> bool {
        self.decoded as usize == self.blocks.len()
    }

    /// Blocks decoded so far.
    pub fn blocks_decoded(&self) -> u32 {
        self.decoded
    }

    /// Symbols taken so far (those after a block was decoded included).
    pub fn received(&self) -> u64 {
        self.received
    }

    /// Symbols block `block` took until it was decoded, or so far if it is not.
    pub fn block_received(&self, block: u32) -> u64 {
        self.block_received[block as usize]
    }

    /// The decoded file, `plan.file_bytes()` long, once every block is decoded.
    pub fn file(&self) -> Option<Vec<u8>> {
        if !self.is_decoded() {
            return None;
        }
        let mut out = Vec::with_capacity(self.plan.file_bytes() as usize);
        for (b, d) in self.blocks.iter().enumerate() {
            let (_, len) = self.plan.block_range(b as u32);
            out.extend_from_slice(&d.block()?[..len as usize]);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coding::rateless::source_bytes;

    #[test]
    fn the_encoder_wants_the_plans_file() {
        let plan = BlockPlan::new(RatelessCode::Lt, 100, 10).unwrap();
        assert_eq!(FileEncoder::new(&plan, &[0; 99], 1).unwrap_err(), "file: 99 B, but the plan is for 100 B");
    }

    #[test]
    fn every_code_round_trips_a_small_file_sent_in_order() {
        for code in RatelessCode::ALL {
            let plan = BlockPlan::with_max_block(code, 1_000, 7, 50).unwrap(); // 143 symbols, 3 blocks
            let file = source_bytes(4, 1_000);
            let mut enc = FileEncoder::new(&plan, &file, 77).unwrap();
            let mut dec = FileDecoder::new(&plan, 77);
            let mut id = 0;
            while !dec.push(id, &enc.symbol(id)) {
                assert!(dec.file().is_none());
                id += 1;
                assert!(id < 2_000, "{code:?}: not decoded from 2,000 symbols");
            }
            assert_eq!(dec.blocks_decoded(), 3);
            assert_eq!(dec.file().unwrap(), file, "{code:?}");
        }
    }
}
