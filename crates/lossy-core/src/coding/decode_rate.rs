//! How fast the real BCH decoder runs (`lossy bench`): codewords per wall second on
//! received words with a given number of bit errors. The words are made before the
//! clock starts, so only decoding is timed.

use super::bch::BchCode;
use crate::rng::RngStream;
use std::time::Instant;

/// Distinct received words made up front and decoded in turn: enough that the branch
/// predictor cannot learn them, few enough to stay in cache.
const WORDS: usize = 256;

/// Codewords decoded per wall second: `count` decodings of random codewords of `code`,
/// each with `weight` bit errors at random positions (weight ≤ n).
pub fn decode_rate(code: &BchCode, weight: usize, count: usize, seed: u64) -> f64 {
    let mut rng = RngStream::new(seed, 0, "bch-decode-rate");
    let words: Vec<Vec<u8>> = (0..WORDS.min(count.max(1))).map(|_| received_word(code, weight, &mut rng)).collect();
    let start = Instant::now();
    let mut corrected = 0usize;
    for i in 0..count {
        if let Ok(d) = code.decode(&words[i % words.len()]) {
            corrected += d.corrected; // used, so the decoding is not optimised away
        }
    }
    let wall = start.elapsed().as_secs_f64();
    std::hint::black_box(corrected);
    count as f64 / wall.max(1e-9)
}

/// A random codeword of `code` with `weight` of its bits flipped.
pub fn received_word(code: &BchCode, weight: usize, rng: &mut RngStream) -> Vec<u8> {
    let message: Vec<u8> = (0..code.k()).map(|_| (rng.next_u64() >> 63) as u8).collect();
    let mut word = code.encode(&message);
    flip_random_bits(&mut word, weight, rng);
    word
}

/// Flips `weight` distinct bits of `word`, chosen uniformly (a partial Fisher–Yates
/// shuffle of the positions).
pub fn flip_random_bits(word: &mut [u8], weight: usize, rng: &mut RngStream) {
    assert!(weight <= word.len(), "{weight} errors in a word of {} bits", word.len());
    let mut positions: Vec<usize> = (0..word.len()).collect();
    for i in 0..weight {
        let j = i + below(rng, word.len() - i);
        positions.swap(i, j);
        word[positions[i]] ^= 1;
    }
}

/// Uniform in 0..n (multiply-shift; the bias, below n / 2^64, is nothing here).
fn below(rng: &mut RngStream, n: usize) -> usize {
    ((rng.next_u64() as u128 * n as u128) >> 64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_random_bits_flips_exactly_weight_distinct_bits() {
        let mut rng = RngStream::new(1, 0, "test");
        for weight in [0, 1, 5, 127] {
            let mut word = vec![0u8; 127];
            flip_random_bits(&mut word, weight, &mut rng);
            assert_eq!(word.iter().filter(|&&b| b == 1).count(), weight);
        }
    }

    #[test]
    fn decode_rate_is_a_positive_finite_rate() {
        let code = BchCode::new(127, 92).unwrap();
        let rate = decode_rate(&code, 5, 100, 1);
        assert!(rate.is_finite() && rate > 0.0, "{rate}");
    }
}
