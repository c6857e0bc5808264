//! The file cut into source blocks, and a transport's running symbol id mapped onto them.
//!
//! RaptorQ follows RFC 6330 §4.4.1.2 with no sub-blocks (N = 1: the simulator is not
//! short of decoder memory, and sub-blocks share their block's ids, so they decode or
//! fail together): Kt = ceil(F/T) symbols, Z = ceil(Kt/K'max) blocks with K'max = 56,403
//! (§5.1.2, Table 2's largest K'), sizes from Partition[Kt, Z]. LT uses the same split
//! with a limit of our own, 2^20 symbols a block: peeling costs O(edges) at any K and
//! LT's relative overhead falls as K grows, so one block serves any file we simulate.

use super::RatelessCode;

/// RFC 6330 §5.1.2: the largest number of source symbols in a block (K'max).
pub const RAPTORQ_MAX_BLOCK_SYMBOLS: u32 = 56_403;
/// RFC 6330 §3.3.3: Z, the number of source blocks, is an 8-bit field.
pub const RAPTORQ_MAX_BLOCKS: u32 = 255;
/// RFC 6330 §3.3.2: T, the symbol size, is a 16-bit field.
pub const RAPTORQ_MAX_SYMBOL_SIZE: u32 = 65_535;
/// RFC 6330 §3.3.2 as corrected by erratum 5548: the largest transfer length F.
pub const RAPTORQ_MAX_FILE_BYTES: u64 = 942_574_504_275;
/// RFC 6330 §3.2: the encoding symbol id is 24 bits.
pub const RAPTORQ_MAX_SYMBOLS_PER_BLOCK: u64 = 1 << 24;
/// Ours: the largest LT block (see the module comment).
pub const LT_MAX_BLOCK_SYMBOLS: u32 = 1 << 20;

/// How a file of `file_bytes` is cut into source blocks of `symbol_size`-byte symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockPlan {
    code: RatelessCode,
    file_bytes: u64,
    symbol_size: u32,
    blocks: Vec<u32>,
}

/// Partition[I, J] of RFC 6330 §4.4.1.2: I split into J near-equal parts, the JL = I mod J
/// larger ones (IL = ceil(I/J)) first, then JS of IS = floor(I/J).
pub fn partition(i: u64, j: u64) -> Vec<u32> {
    let (il, is) = (i.div_ceil(j), i / j);
    let jl = i - is * j;
    (0..j).map(|b| if b < jl { il as u32 } else { is as u32 }).collect()
}

impl BlockPlan {
    /// The plan with each code's largest block (RaptorQ 56,403 symbols, LT 2^20).
    pub fn new(code: RatelessCode, file_bytes: u64, symbol_size: u32) -> Result<BlockPlan, String> {
        let max = match code {
            RatelessCode::RaptorQ => RAPTORQ_MAX_BLOCK_SYMBOLS,
            RatelessCode::Lt => LT_MAX_BLOCK_SYMBOLS,
        };
        BlockPlan::with_max_block(code, file_bytes, symbol_size, max)
    }

    /// The plan with blocks of at most `max_block` symbols (smaller blocks decode faster
    /// in the verifying mode and let tests cover several blocks with small files).
    pub fn with_max_block(code: RatelessCode, file_bytes: u64, symbol_size: u32, max_block: u32) -> Result<BlockPlan, String> {
        if symbol_size == 0 {
            return Err("symbol_size: 0 B; a symbol has at least 1 byte".into());
        }
        if file_bytes == 0 {
            return Err("file_bytes: 0 B; the file has at least 1 byte".into());
        }
        let limit = match code {
            RatelessCode::RaptorQ => RAPTORQ_MAX_BLOCK_SYMBOLS,
            RatelessCode::Lt => LT_MAX_BLOCK_SYMBOLS,
        };
        if max_block == 0 || max_block > limit {
            return Err(format!("max_block: {max_block} symbols; {} blocks have 1 to {limit}", code.name()));
        }
        let kt = file_bytes.div_ceil(symbol_size as u64);
        let z = kt.div_ceil(max_block as u64);
        if code == RatelessCode::RaptorQ {
            if symbol_size > RAPTORQ_MAX_SYMBOL_SIZE {
                return Err(format!("symbol_size: {symbol_size} B; RaptorQ symbols have at most 65535 B (RFC 6330 §3.3.2)"));
            }
            if file_bytes > RAPTORQ_MAX_FILE_BYTES {
                return Err(format!("file_bytes: {file_bytes} B; RaptorQ carries at most {RAPTORQ_MAX_FILE_BYTES} B (RFC 6330 §3.3.2, erratum 5548)"));
            }
            if z > RAPTORQ_MAX_BLOCKS as u64 {
                return Err(format!(
                    "file_bytes: {file_bytes} B needs {z} source blocks of at most {max_block} symbols of {symbol_size} B; \
                     RaptorQ allows {RAPTORQ_MAX_BLOCKS} (RFC 6330 §3.3.3): use larger symbols"));
            }
        } else if z > u32::MAX as u64 {
            return Err(format!("file_bytes: {file_bytes} B needs {z} LT blocks of {max_block} symbols; at most {}", u32::MAX));
        }
        Ok(BlockPlan { code, file_bytes, symbol_size, blocks: partition(kt, z) })
    }

    pub fn code(&self) -> RatelessCode {
        self.code
    }

    pub fn file_bytes(&self) -> u64 {
        self.file_bytes
    }

    pub fn symbol_size(&self) -> u32 {
        self.symbol_size
    }

    /// K, the source symbols of each block, larger blocks first.
    pub fn blocks(&self) -> &[u32] {
        &self.blocks
    }

    /// Kt, the source symbols of the whole file.
    pub fn source_symbols(&self) -> u64 {
        self.blocks.iter().map(|&k| k as u64).sum()
    }

    /// The (block, encoding symbol id within the block) of a transport's running symbol
    /// id: round-robin, so after n ids every block has had n / Z of them, ± 1.
    pub fn locate(&self, id: u64) -> (u32, u32) {
        let z = self.blocks.len() as u64;
        let esi = id / z;
        debug_assert!(esi <= u32::MAX as u64, "symbol id {id} beyond the plan's ids");
        ((id % z) as u32, esi as u32)
    }

    /// The running symbol id of (block, esi): the inverse of `locate`.
    pub fn id_of(&self, block: u32, esi: u32) -> u64 {
        esi as u64 * self.blocks.len() as u64 + block as u64
    }

    /// Symbols a block can have: RaptorQ's ids are 24 bits (RFC 6330 §3.2); LT's are ours.
    pub fn max_symbols_per_block(&self) -> u64 {
        match self.code {
            RatelessCode::RaptorQ => RAPTORQ_MAX_SYMBOLS_PER_BLOCK,
            RatelessCode::Lt => 1 << 32,
        }
    }

    /// Where block `b` lies in the file: (first byte, bytes). Only the last block can end
    /// in a partial symbol; encoders pad it with zeros (RFC 6330 §4.4.1.2).
    pub fn block_range(&self, b: u32) -> (u64, u64) {
        let t = self.symbol_size as u64;
        let start: u64 = self.blocks[..b as usize].iter().map(|&k| k as u64 * t).sum();
        let len = (self.blocks[b as usize] as u64 * t).min(self.file_bytes - start);
        (start, len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use RatelessCode::{Lt, RaptorQ};

    #[test]
    fn partition_follows_rfc6330() {
        // Partition[10, 3] = (4, 3, 1, 2): one part of 4, two of 3.
        assert_eq!(partition(10, 3), vec![4, 3, 3]);
        assert_eq!(partition(9, 3), vec![3, 3, 3]);
        assert_eq!(partition(1, 1), vec![1]);
    }

    #[test]
    fn a_small_file_is_one_block_with_a_partial_last_symbol() {
        let p = BlockPlan::new(RaptorQ, 10_000, 1460).unwrap();
        assert_eq!(p.blocks(), &[7]); // ceil(10,000 / 1,460)
        assert_eq!(p.source_symbols(), 7);
        assert_eq!(p.block_range(0), (0, 10_000));
        assert_eq!(p.locate(12), (0, 12));
    }

    #[test]
    fn raptorq_splits_at_k_max_into_near_equal_blocks() {
        // 56,404 symbols: two blocks of 28,202 (Z = 2, Partition[56,404, 2]).
        let p = BlockPlan::new(RaptorQ, 56_404, 1).unwrap();
        assert_eq!(p.blocks(), &[28_202, 28_202]);
        let p = BlockPlan::new(RaptorQ, 3 * 56_403 + 1, 1).unwrap();
        assert_eq!(p.blocks(), &[42_303, 42_303, 42_302, 42_302]);
        assert!(p.blocks().iter().all(|&k| k <= RAPTORQ_MAX_BLOCK_SYMBOLS));
        // LT keeps the same file in one block.
        assert_eq!(BlockPlan::new(Lt, 3 * 56_403 + 1, 1).unwrap().blocks(), &[169_210]);
    }

    #[test]
    fn block_ranges_tile_the_file() {
        let p = BlockPlan::with_max_block(Lt, 10_001, 10, 300).unwrap();
        assert_eq!(p.blocks(), &[251, 250, 250, 250]); // 1,001 symbols in 4 blocks
        let mut next = 0;
        for b in 0..4 {
            let (start, len) = p.block_range(b);
            assert_eq!(start, next);
            next += len;
        }
        assert_eq!(next, 10_001);
        assert_eq!(p.block_range(3).1, 2_491); // 249 whole symbols and one byte
    }

    #[test]
    fn ids_go_round_robin_over_blocks_and_back() {
        let p = BlockPlan::with_max_block(RaptorQ, 1000, 1, 300).unwrap();
        assert_eq!(p.blocks().len(), 4);
        let located: Vec<_> = (0..6).map(|id| p.locate(id)).collect();
        assert_eq!(located, vec![(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1)]);
        for id in [0, 5, 999, 123_456] {
            let (b, esi) = p.locate(id);
            assert_eq!(p.id_of(b, esi), id);
        }
    }

    #[test]
    fn bad_plans_name_the_field() {
        assert_eq!(BlockPlan::new(RaptorQ, 100, 0).unwrap_err(), "symbol_size: 0 B; a symbol has at least 1 byte");
        assert_eq!(BlockPlan::new(Lt, 0, 100).unwrap_err(), "file_bytes: 0 B; the file has at least 1 byte");
        assert!(BlockPlan::new(RaptorQ, 100, 70_000).unwrap_err().starts_with("symbol_size: 70000 B; RaptorQ"));
        let e = BlockPlan::new(RaptorQ, 256 * 56_403, 1).unwrap_err();
        assert!(e.starts_with("file_bytes: 14439168 B needs 256 source blocks"), "{e}");
        assert!(BlockPlan::with_max_block(Lt, 100, 1, 0).unwrap_err().starts_with("max_block: 0 symbols"));
        assert!(BlockPlan::new(Lt, 100, 70_000).is_ok()); // LT symbols have no size limit
    }
}
