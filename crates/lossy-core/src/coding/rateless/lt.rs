//! One block of our LT code with real bytes: the encoder XORs a symbol's neighbours
//! (soliton.rs), the decoder peels (peel.rs). The code is not systematic: every symbol,
//! id 0 included, is an XOR of source symbols, so which ids arrive does not matter, only
//! how many (Luby 2002 §2).

use super::peel::Peeler;
use super::soliton::{Neighbours, RobustSoliton};
use super::xor_into;
use std::sync::Arc;

/// Makes the symbols of one block.
#[derive(Clone, Debug)]
pub struct LtBlockEncoder {
    t: usize,
    source: Vec<u8>,
    neighbours: Neighbours,
    scratch: Vec<u32>,
}

impl LtBlockEncoder {
    /// The encoder of block `block` whose bytes are `data` (K·T or fewer: the last
    /// symbol is padded with zeros).
    pub fn new(data: &[u8], k: u32, symbol_size: usize, code_seed: u64, block: u32) -> LtBlockEncoder {
        assert!(data.len() <= k as usize * symbol_size && data.len() > (k as usize - 1) * symbol_size);
        let mut source = data.to_vec();
        source.resize(k as usize * symbol_size, 0);
        let degrees = Arc::new(RobustSoliton::default_for(k));
        LtBlockEncoder { t: symbol_size, source, neighbours: Neighbours::new(k, code_seed, block, degrees), scratch: Vec::new() }
    }

    /// The bytes of symbol `esi` into `out` (T bytes).
    pub fn symbol_into(&mut self, esi: u32, out: &mut [u8]) {
        self.neighbours.of(esi, &mut self.scratch);
        out.fill(0);
        for &v in &self.scratch {
            let s = v as usize * self.t;
            xor_into(out, &self.source[s..s + self.t]);
        }
    }
}

/// Rebuilds one block from its symbols.
#[derive(Clone, Debug)]
pub struct LtBlockDecoder {
    peeler: Peeler,
    neighbours: Neighbours,
    scratch: Vec<u32>,
}

impl LtBlockDecoder {
    pub fn new(k: u32, symbol_size: usize, code_seed: u64, block: u32) -> LtBlockDecoder {
        let degrees = Arc::new(RobustSoliton::default_for(k));
        LtBlockDecoder {
            peeler: Peeler::new(k, symbol_size),
            neighbours: Neighbours::new(k, code_seed, block, degrees),
            scratch: Vec::new(),
        }
    }

    /// Takes symbol `esi`; true once the block is decoded.
    pub fn push(&mut self, esi: u32, bytes: &[u8]) -> bool {
        if self.peeler.is_complete() {
            return true;
        }
        self.neighbours.of(esi, &mut self.scratch);
        self.peeler.add(&self.scratch, bytes)
    }

    pub fn is_decoded(&self) -> bool {
        self.peeler.is_complete()
    }

    /// The block's K·T bytes (zero padding included), once decoded.
    pub fn block(&self) -> Option<&[u8]> {
        self.peeler.is_complete().then(|| self.peeler.source())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coding::rateless::source_bytes;

    #[test]
    fn decodes_a_block_with_a_partial_symbol_from_ids_in_any_order() {
        let (k, t) = (200u32, 16usize);
        let data = source_bytes(5, 199 * t + 3);
        let mut enc = LtBlockEncoder::new(&data, k, t, 11, 0);
        let mut dec = LtBlockDecoder::new(k, t, 11, 0);
        let mut buf = vec![0u8; t];
        // Ids from far away and in reverse: LT does not care which ids arrive.
        let mut sent = 0;
        for esi in (1_000_000..1_001_000).rev() {
            enc.symbol_into(esi, &mut buf);
            sent += 1;
            if dec.push(esi, &buf) {
                break;
            }
        }
        let block = dec.block().expect("1,000 symbols decode K = 200");
        assert_eq!(&block[..data.len()], &data[..]);
        assert!(block[data.len()..].iter().all(|&b| b == 0));
        assert!(sent >= k && sent < 1_000, "{sent}");
    }

    #[test]
    fn the_decoder_needs_the_encoders_seed_and_block() {
        let (k, t) = (50u32, 4usize);
        let data = source_bytes(1, k as usize * t);
        let mut enc = LtBlockEncoder::new(&data, k, t, 1, 0);
        let mut wrong = LtBlockDecoder::new(k, t, 2, 0);
        let mut buf = vec![0u8; t];
        for esi in 0..400 {
            enc.symbol_into(esi, &mut buf);
            wrong.push(esi, &buf);
        }
        // Another seed's graph still peels (any graph does) but to other bytes.
        assert!(wrong.block().is_none_or(|b| b != &data[..]));
    }
}
