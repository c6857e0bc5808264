//! How many symbols beyond K the real decoders need: one trial feeds symbols to a real
//! decoder until it decodes and returns the excess. Decoding succeeds or fails by which
//! symbols arrived, never by their values, so no bytes are made:
//! - RaptorQ runs the crate's decoder on 1-byte symbols of zeros (its success is a
//!   matter of the rank of the matrix the ids select, RFC 6330 §5.4.2);
//! - LT runs the peeling decoder on indices only (peel.rs with a symbol size of 0).
//!
//! Which ids arrive. LT is not systematic and every id's neighbours are independent
//! draws, so only the count matters; each trial takes ids 0, 1, 2, … of a fresh graph
//! (a code seed of its own). RaptorQ is systematic: a trial takes the first 2K ids
//! (K source, K repair) in a uniformly random order, so source and repair symbols mix
//! about evenly; past those it takes ids 2K, 2K + 1, … in order (never needed so far).
//!
//! Trial i draws from its own stream (seed, i), and trials run on several threads, each
//! putting its answers at their trial's place: the same inputs give the same table
//! whatever the number of threads.

use super::peel::Peeler;
use super::soliton::{Neighbours, RobustSoliton};
use super::{below, RatelessCode};
use crate::rng::RngStream;
use raptorq::{EncodingPacket, ObjectTransmissionInformation, PayloadId, SourceBlockDecoder};
use std::sync::Arc;

/// Symbols beyond K one RaptorQ decoding needed; `order` gives the ids in arrival order
/// (ids after it are taken in order from its length on).
pub fn raptorq_excess(k: u32, order: &[u32]) -> u32 {
    let config = ObjectTransmissionInformation::new(k as u64, 1, 1, 1, 1);
    let mut decoder = SourceBlockDecoder::new(0, &config, k as u64);
    let packet = |esi: u32| EncodingPacket::new(PayloadId::new(0, esi), vec![0]);
    let first = (k as usize).min(order.len());
    // The crate tries to decode after each call once it holds K symbols; before that the
    // first K go in as one batch.
    if decoder.decode(order[..first].iter().map(|&e| packet(e))).is_some() {
        return 0;
    }
    let later = order[first..].iter().copied().chain(order.len() as u32..);
    for (n, esi) in later.enumerate() {
        if decoder.decode(std::iter::once(packet(esi))).is_some() {
            return (first + n + 1 - k as usize) as u32;
        }
    }
    unreachable!("ids run out only at 2^32")
}

/// One RaptorQ trial: the first 2K ids in a random order (Fisher–Yates).
pub fn raptorq_trial(k: u32, rng: &mut RngStream) -> u32 {
    let mut order: Vec<u32> = (0..2 * k).collect();
    for i in (1..order.len()).rev() {
        let j = below(rng.next_u64(), i as u64 + 1) as usize;
        order.swap(i, j);
    }
    raptorq_excess(k, &order)
}

/// One LT trial: ids 0, 1, 2, … of the graph of `code_seed` until the peeler completes.
pub fn lt_trial(peeler: &mut Peeler, degrees: &Arc<RobustSoliton>, k: u32, code_seed: u64, scratch: &mut Vec<u32>) -> u32 {
    peeler.reset();
    let mut graph = Neighbours::new(k, code_seed, 0, degrees.clone());
    for esi in 0.. {
        graph.of(esi, scratch);
        if peeler.add(scratch, &[]) {
            return esi + 1 - k;
        }
    }
    unreachable!("a complete graph decodes long before 2^32 symbols")
}

/// The excess of `trials` trials of `code` at K = `k`, in trial order.
pub fn excess_table(code: RatelessCode, k: u32, trials: u32, seed: u64) -> Vec<u32> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8).min(trials as usize).max(1);
    let degrees = (code == RatelessCode::Lt).then(|| Arc::new(RobustSoliton::default_for(k)));
    let mut table = vec![0u32; trials as usize];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|w| {
                let degrees = degrees.clone();
                s.spawn(move || {
                    let mut peeler = Peeler::new(if degrees.is_some() { k } else { 0 }, 0);
                    let mut scratch = Vec::new();
                    (w..trials as usize)
                        .step_by(threads)
                        .map(|i| {
                            let mut rng = RngStream::new(seed, i as u64, "rateless:overhead");
                            let x = match &degrees {
                                None => raptorq_trial(k, &mut rng),
                                Some(d) => lt_trial(&mut peeler, d, k, rng.next_u64(), &mut scratch),
                            };
                            (i, x)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            for (i, x) in h.join().expect("a measuring thread panicked") {
                table[i] = x;
            }
        }
    });
    table
}

/// `n` distinct ids drawn uniformly from 0..2^24, RFC 6330 §5.6's "ESIs chosen
/// independently and uniformly at random from the range of possible ESIs".
pub fn random_esis(n: usize, rng: &mut RngStream) -> Vec<u32> {
    let mut seen = std::collections::HashSet::with_capacity(n);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let esi = below(rng.next_u64(), 1 << 24) as u32;
        if seen.insert(esi) {
            out.push(esi);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_source_symbols_need_nothing_more() {
        let order: Vec<u32> = (0..300).collect();
        assert_eq!(raptorq_excess(300, &order), 0);
    }

    #[test]
    fn the_table_does_not_depend_on_the_threads_or_a_rerun() {
        // Each trial has its own stream, so the table is one value per trial index.
        let a = excess_table(RatelessCode::Lt, 300, 40, 5);
        assert_eq!(a, excess_table(RatelessCode::Lt, 300, 40, 5));
        let mut rng = RngStream::new(5, 17, "rateless:overhead");
        let mut peeler = Peeler::new(300, 0);
        let degrees = Arc::new(RobustSoliton::default_for(300));
        assert_eq!(lt_trial(&mut peeler, &degrees, 300, rng.next_u64(), &mut Vec::new()), a[17]);
        let b = excess_table(RatelessCode::RaptorQ, 60, 12, 5);
        let mut rng = RngStream::new(5, 7, "rateless:overhead");
        assert_eq!(raptorq_trial(60, &mut rng), b[7]);
    }

    #[test]
    fn random_esis_are_distinct_24_bit_ids() {
        let mut rng = RngStream::new(1, 0, "t");
        let ids = random_esis(5_000, &mut rng);
        let mut s = ids.clone();
        s.sort_unstable();
        s.dedup();
        assert_eq!(s.len(), 5_000);
        assert!(ids.iter().all(|&e| e < 1 << 24));
        assert!(ids.iter().any(|&e| e > 1 << 23)); // spread over the range
    }
}
