//! How fast the verifying mode runs (`lossy bench`): one transfer of a file whose symbols
//! pass an erasure channel, the sender making ids 0, 1, 2, … and the receiver decoding
//! what survives. Encoding (building the block encoders, then every symbol sent) and
//! decoding (every symbol received, then the file put together) are timed apart; making
//! the file, drawing the losses and comparing the result are not timed.

use super::codec::{FileDecoder, FileEncoder};
use super::plan::BlockPlan;
use super::{source_bytes, RatelessCode};
use crate::rng::RngStream;
use serde::Serialize;
use std::time::{Duration, Instant};

/// One verifying transfer, timed.
#[derive(Clone, Debug, Serialize)]
pub struct RateReport {
    pub code: &'static str,
    pub file_bytes: u64,
    pub symbol_size: u32,
    pub blocks: usize,
    pub source_symbols: u64,
    pub loss: f64,
    pub symbols_sent: u64,
    pub symbols_received: u64,
    pub encode_s: f64,
    pub decode_s: f64,
    /// File megabytes (10^6 B) per wall second of encoding, and of decoding.
    pub encode_mb_per_s: f64,
    pub decode_mb_per_s: f64,
    /// The decoded file equals the sent one byte for byte.
    pub verified: bool,
}

/// Sends a `file_bytes` file in `symbol_size` symbols under `code` through a channel that
/// erases each symbol independently with probability `loss` (in [0, 0.9]).
pub fn rateless_rate(code: RatelessCode, file_bytes: u64, symbol_size: u32, loss: f64, seed: u64) -> Result<RateReport, String> {
    if !(0.0..=0.9).contains(&loss) {
        return Err(format!("loss: {loss}; a loss rate is 0 to 0.9"));
    }
    let plan = BlockPlan::new(code, file_bytes, symbol_size)?;
    let file = source_bytes(seed, file_bytes as usize);
    let mut channel = RngStream::new(seed, 0, "rateless:rate:channel");
    let mut buf = vec![0u8; symbol_size as usize];
    let t0 = Instant::now();
    let mut encoder = FileEncoder::new(&plan, &file, seed)?;
    let mut encode = t0.elapsed();
    let mut decode = Duration::ZERO;
    let mut decoder = FileDecoder::new(&plan, seed);
    let (mut sent, mut received) = (0u64, 0u64);
    loop {
        let t = Instant::now();
        encoder.symbol_into(sent, &mut buf);
        encode += t.elapsed();
        sent += 1;
        if channel.bernoulli(loss) {
            continue;
        }
        received += 1;
        let t = Instant::now();
        let done = decoder.push(sent - 1, &buf);
        decode += t.elapsed();
        if done {
            break;
        }
    }
    let t = Instant::now();
    let out = decoder.file();
    decode += t.elapsed();
    let (encode_s, decode_s) = (encode.as_secs_f64().max(1e-9), decode.as_secs_f64().max(1e-9));
    let mb = file_bytes as f64 / 1e6;
    Ok(RateReport {
        code: code.name(),
        file_bytes,
        symbol_size,
        blocks: plan.blocks().len(),
        source_symbols: plan.source_symbols(),
        loss,
        symbols_sent: sent,
        symbols_received: received,
        encode_s,
        decode_s,
        encode_mb_per_s: mb / encode_s,
        decode_mb_per_s: mb / decode_s,
        verified: out.as_deref() == Some(&file[..]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timed_transfer_decodes_and_verifies() {
        for code in RatelessCode::ALL {
            let r = rateless_rate(code, 50_000, 100, 0.2, 3).unwrap();
            assert!(r.verified, "{code:?}");
            assert_eq!(r.source_symbols, 500);
            assert!(r.symbols_received >= 500 && r.symbols_received < r.symbols_sent);
            assert!(r.encode_mb_per_s > 0.0 && r.decode_mb_per_s.is_finite());
        }
        assert_eq!(rateless_rate(RatelessCode::Lt, 10, 1, 1.0, 1).unwrap_err(), "loss: 1; a loss rate is 0 to 0.9");
    }
}
