//! One source block of RaptorQ (RFC 6330) with real bytes, through the `raptorq` crate.
//! The code is systematic (§5.3.1): ids 0..K are the source symbols themselves, so the
//! encoder slices them from the block; ids from K on are repair symbols (§5.3.4), made
//! by the crate's encoder, which is built once per block (it solves for the block's
//! intermediate symbols, §5.3.3.4) and then costs a few XORs per symbol.

use raptorq::{EncodingPacket, ObjectTransmissionInformation, PayloadId, SourceBlockDecoder, SourceBlockEncoder};

/// The crate's description of one block: K·T bytes of T-byte symbols, one source block,
/// no sub-blocks, alignment 1 (so any T works; RFC 6330 §4.3 recommends 4 or 8 only for
/// memory alignment).
fn config(k: u32, symbol_size: u16) -> ObjectTransmissionInformation {
    ObjectTransmissionInformation::new(k as u64 * symbol_size as u64, symbol_size, 1, 1, 1)
}

/// Makes the symbols of one block.
#[derive(Clone, Debug)]
pub struct RaptorBlockEncoder {
    k: u32,
    t: usize,
    source: Vec<u8>,
    encoder: SourceBlockEncoder,
}

impl RaptorBlockEncoder {
    /// The encoder of source block number `block` (< 256) whose bytes are `data` (the
    /// last symbol may be partial: padded with zeros, §4.4.1.2).
    pub fn new(data: &[u8], k: u32, symbol_size: u16, block: u32) -> RaptorBlockEncoder {
        let t = symbol_size as usize;
        assert!(data.len() <= k as usize * t && data.len() > (k as usize - 1) * t);
        let mut source = data.to_vec();
        source.resize(k as usize * t, 0);
        let encoder = SourceBlockEncoder::new(block as u8, &config(k, symbol_size), &source);
        RaptorBlockEncoder { k, t, source, encoder }
    }

    /// The bytes of encoding symbol `esi` (< 2^24, §3.2) into `out` (T bytes).
    pub fn symbol_into(&self, esi: u32, out: &mut [u8]) {
        if esi < self.k {
            let s = esi as usize * self.t;
            out.copy_from_slice(&self.source[s..s + self.t]);
        } else {
            let packet = self.encoder.repair_packets(esi - self.k, 1).pop().expect("one repair packet");
            out.copy_from_slice(packet.data());
        }
    }
}

/// Rebuilds one block from its symbols.
#[derive(Clone, Debug)]
pub struct RaptorBlockDecoder {
    block: u8,
    decoder: SourceBlockDecoder,
    result: Option<Vec<u8>>,
    received: u64,
}

impl RaptorBlockDecoder {
    pub fn new(k: u32, symbol_size: u16, block: u32) -> RaptorBlockDecoder {
        let decoder = SourceBlockDecoder::new(block as u8, &config(k, symbol_size), k as u64 * symbol_size as u64);
        RaptorBlockDecoder { block: block as u8, decoder, result: None, received: 0 }
    }

    /// Takes symbol `esi`; true once the block is decoded. From the K-th symbol on, each
    /// call runs the crate's full decoder (§5.4) until it succeeds: about once, as it
    /// fails with K symbols only about 1 time in 100 (§5.6).
    pub fn push(&mut self, esi: u32, bytes: &[u8]) -> bool {
        if self.result.is_none() {
            self.received += 1;
            let packet = EncodingPacket::new(PayloadId::new(self.block, esi), bytes.to_vec());
            self.result = self.decoder.decode(std::iter::once(packet));
        }
        self.result.is_some()
    }

    /// Takes many symbols at once (one decoding attempt at the end): true once decoded.
    pub fn push_many(&mut self, symbols: impl IntoIterator<Item = (u32, Vec<u8>)>) -> bool {
        if self.result.is_none() {
            let block = self.block;
            let mut n = 0;
            let packets = symbols.into_iter().map(|(esi, bytes)| {
                n += 1;
                EncodingPacket::new(PayloadId::new(block, esi), bytes)
            });
            self.result = self.decoder.decode(packets);
            self.received += n;
        }
        self.result.is_some()
    }

    pub fn is_decoded(&self) -> bool {
        self.result.is_some()
    }

    /// Symbols taken before the block was decoded (the last one included).
    pub fn received(&self) -> u64 {
        self.received
    }

    /// The block's K·T bytes (zero padding included), once decoded.
    pub fn block(&self) -> Option<&[u8]> {
        self.result.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coding::rateless::source_bytes;

    #[test]
    fn source_symbols_are_the_block_itself() {
        let data = source_bytes(2, 10 * 8 - 5);
        let enc = RaptorBlockEncoder::new(&data, 10, 8, 0);
        let mut buf = [0u8; 8];
        enc.symbol_into(3, &mut buf);
        assert_eq!(&buf, &data[24..32]);
        enc.symbol_into(9, &mut buf);
        assert_eq!(&buf[..3], &data[72..75]);
        assert_eq!(&buf[3..], &[0; 5]); // the padding of the partial last symbol
    }

    #[test]
    fn decodes_from_repair_symbols_alone() {
        let (k, t) = (100u32, 12u16);
        let data = source_bytes(3, k as usize * t as usize);
        let enc = RaptorBlockEncoder::new(&data, k, t, 4);
        let mut dec = RaptorBlockDecoder::new(k, t, 4);
        let mut buf = vec![0u8; t as usize];
        let mut done = false;
        for esi in k..k + 110 {
            enc.symbol_into(esi, &mut buf);
            done = dec.push(esi, &buf);
            if done {
                break;
            }
        }
        assert!(done, "110 repair symbols did not decode K = 100");
        assert_eq!(dec.block(), Some(&data[..]));
        assert!(dec.received() >= k as u64);
        assert!(dec.push(0, &buf), "a decoded block stays decoded");
    }
}
