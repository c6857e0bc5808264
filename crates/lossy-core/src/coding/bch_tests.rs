use super::*;
use crate::coding::decode_rate::{flip_random_bits, received_word};
use crate::rng::RngStream;

/// The codes of Chockalingam et al. and of Miyoshi et al.: (n, k, t).
const PAPER_CODES: [(usize, usize, usize); 5] = [(127, 92, 5), (127, 64, 10), (127, 36, 15), (255, 131, 18), (255, 87, 26)];

fn random_message(code: &BchCode, rng: &mut RngStream) -> Vec<u8> {
    (0..code.k()).map(|_| (rng.next_u64() >> 63) as u8).collect()
}

fn distance(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x != y).count()
}

/// Every set of at most `t` positions out of `n`, each in increasing order.
fn patterns(n: usize, t: usize) -> Vec<Vec<usize>> {
    let mut all = vec![vec![]];
    let mut last = vec![vec![]];
    for _ in 0..t {
        let mut next = Vec::new();
        for p in &last {
            for i in p.last().map_or(0, |&j| j + 1)..n {
                let mut q = p.clone();
                q.push(i);
                next.push(q);
            }
        }
        all.extend(next.iter().cloned());
        last = next;
    }
    all
}

#[test]
fn the_papers_codes_have_their_k_and_t_from_n_k_and_from_n_t() {
    for (n, k, t) in PAPER_CODES {
        let by_k = BchCode::new(n, k).unwrap();
        assert_eq!((by_k.n(), by_k.k(), by_k.t()), (n, k, t));
        let by_t = BchCode::from_t(n, t).unwrap();
        assert_eq!((by_t.n(), by_t.k(), by_t.t()), (n, k, t));
        assert_eq!(by_k.generator(), by_t.generator());
        assert_eq!(by_k.generator().len(), n - k + 1);
    }
}

#[test]
fn generator_polynomials_of_the_textbook_codes() {
    // Lin & Costello Example 6.1 (GF(16) with x^4 + x + 1), lowest degree first.
    let g = |n, k| BchCode::new(n, k).unwrap().generator().to_vec();
    assert_eq!(g(15, 11), [1, 1, 0, 0, 1]); // x^4 + x + 1
    assert_eq!(g(15, 7), [1, 0, 0, 0, 1, 0, 1, 1, 1]); // x^8 + x^7 + x^6 + x^4 + 1
    assert_eq!(g(15, 5), [1, 1, 1, 0, 1, 1, 0, 0, 1, 0, 1]); // x^10 + x^8 + x^5 + x^4 + x^2 + x + 1
    assert_eq!(g(7, 4), [1, 1, 0, 1]); // the (7, 4) Hamming code: x^3 + x + 1
}

#[test]
fn from_t_gives_the_largest_t_of_the_same_code() {
    // At n = 127, t = 8 and t = 9 give one code: α^17 is a conjugate of α^9.
    let code = BchCode::from_t(127, 8).unwrap();
    assert_eq!((code.k(), code.t()), (71, 9));
    // The repetition code ends the list.
    let code = BchCode::new(15, 1).unwrap();
    assert_eq!((code.t(), code.generator().len()), (7, 15));
}

#[test]
fn codes_that_do_not_exist_are_named_with_what_is_allowed() {
    let err = |r: Result<BchCode, String>| r.unwrap_err();
    assert_eq!(err(BchCode::new(100, 50)), "n = 100 is not 2^m − 1; use 7, 15, 31, 63, 127, 255, 511 or 1023");
    assert_eq!(
        err(BchCode::new(2047, 2036)),
        "n = 2047 is 2^11 − 1, outside the fields here (m = 3 to 10); use 7, 15, 31, 63, 127, 255, 511 or 1023"
    );
    assert_eq!(
        err(BchCode::new(127, 90)),
        "k = 90 is not the dimension of a narrow-sense binary BCH code of length 127; k is one of \
         120 (t = 1), 113 (t = 2), 106 (t = 3), 99 (t = 4), 92 (t = 5), 85 (t = 6), 78 (t = 7), \
         71 (t = 9), 64 (t = 10), 57 (t = 11), 50 (t = 13), 43 (t = 14), 36 (t = 15), 29 (t = 21), \
         22 (t = 23), 15 (t = 27), 8 (t = 31), 1 (t = 63)"
    );
    assert_eq!(
        err(BchCode::new(15, 15)),
        "k = 15 is not the dimension of a narrow-sense binary BCH code of length 15; k is one of \
         11 (t = 1), 7 (t = 2), 5 (t = 3), 1 (t = 7)"
    );
    assert_eq!(err(BchCode::from_t(127, 0)), "t = 0 is not possible at length 127; t is 1 to 63");
    assert_eq!(err(BchCode::from_t(127, 64)), "t = 64 is not possible at length 127; t is 1 to 63");
    assert_eq!(err(BchCode::from_t(0, 1)).split(';').next(), Some("n = 0 is 2^0 − 1, outside the fields here (m = 3 to 10)"));
}

#[test]
fn encoding_is_systematic_with_the_message_first_and_every_codeword_has_zero_syndromes() {
    let mut rng = RngStream::new(1, 0, "bch-encode");
    for (n, k, _) in PAPER_CODES {
        let code = BchCode::new(n, k).unwrap();
        for _ in 0..20 {
            let message = random_message(&code, &mut rng);
            let word = code.encode(&message);
            assert_eq!(word.len(), n);
            assert_eq!(&word[..k], &message[..]);
            assert!(code.syndromes(&word).iter().all(|&s| s == 0));
        }
    }
}

#[test]
fn the_generator_polynomial_is_itself_a_codeword() {
    // g(x) = x^(n−k) + … : the message 0…01 has codeword coefficients those of g(x).
    for (n, k) in [(15, 7), (127, 64), (255, 87)] {
        let code = BchCode::new(n, k).unwrap();
        let mut message = vec![0u8; k];
        message[k - 1] = 1;
        let mut from_g = vec![0u8; n];
        for (d, &c) in code.generator().iter().enumerate() {
            from_g[n - 1 - d] = c;
        }
        assert_eq!(code.encode(&message), from_g);
    }
}

#[test]
fn every_pattern_of_at_most_t_errors_on_small_codes_is_corrected_with_its_count() {
    let mut rng = RngStream::new(2, 0, "bch-exhaustive");
    for (n, k, t) in [(15, 7, 2), (15, 5, 3), (31, 21, 2), (31, 16, 3)] {
        let code = BchCode::new(n, k).unwrap();
        assert_eq!(code.t(), t);
        let all = patterns(n, t);
        for message in [vec![0u8; k], vec![1u8; k], random_message(&code, &mut rng)] {
            let sent = code.encode(&message);
            for p in &all {
                let mut received = sent.clone();
                for &i in p {
                    received[i] ^= 1;
                }
                let decoded = code.decode(&received).unwrap_or_else(|_| panic!("BCH({n}, {k}): {p:?} not corrected"));
                assert_eq!(decoded, Decoded { message: message.clone(), corrected: p.len() }, "BCH({n}, {k}): {p:?}");
            }
        }
    }
}

/// What the decoder makes of random error patterns of weight 0..=3t: within t the
/// message sent with the count; beyond t a detected failure, or a codeword at most t
/// from the received word (so not the one sent). Returns (failures, miscorrections).
fn decode_random_patterns(n: usize, k: usize, trials: usize) -> (usize, usize) {
    let code = BchCode::new(n, k).unwrap();
    let mut rng = RngStream::new(3, 0, &format!("bch-random-{n}-{k}"));
    let (mut failures, mut miscorrections) = (0, 0);
    for weight in 0..=3 * code.t() {
        for _ in 0..trials {
            let message = random_message(&code, &mut rng);
            let sent = code.encode(&message);
            let mut received = sent.clone();
            flip_random_bits(&mut received, weight, &mut rng);
            let outcome = code.decode(&received);
            let survived = matches!(&outcome, Ok(d) if d.message == message);
            assert_eq!(survived, code.survives(weight as u32), "BCH({n}, {k}), {weight} errors: {outcome:?}");
            match outcome {
                Ok(d) if d.message == message => assert_eq!(d.corrected, weight),
                Ok(d) => {
                    // Another codeword, as close as the count says and within t.
                    assert_eq!(distance(&code.encode(&d.message), &received), d.corrected);
                    assert!(d.corrected <= code.t());
                    miscorrections += 1;
                }
                Err(DecodeFailure) => failures += 1,
            }
        }
    }
    (failures, miscorrections)
}

#[test]
fn random_patterns_on_the_papers_codes_survive_exactly_when_the_fast_path_says() {
    for (n, k, trials) in [(127, 92, 40), (255, 131, 10)] {
        let (failures, _) = decode_random_patterns(n, k, trials);
        assert!(failures > 0, "BCH({n}, {k}): no failure detected");
    }
}

#[test]
fn random_patterns_on_small_codes_meet_both_failures_and_miscorrections() {
    // On short codes a word beyond t often lies within t of another codeword, so both
    // ways of not surviving are exercised.
    for (n, k) in [(15, 5), (31, 21), (63, 45)] {
        let (failures, miscorrections) = decode_random_patterns(n, k, 200);
        assert!(failures > 0 && miscorrections > 0, "BCH({n}, {k}): {failures} failures, {miscorrections} miscorrections");
    }
}

#[test]
fn received_words_of_every_length_decode_without_panicking() {
    let mut rng = RngStream::new(4, 0, "bch-lengths");
    for m in 3..=10 {
        let n = (1usize << m) - 1;
        let code = BchCode::from_t(n, 2).unwrap();
        let word = received_word(&code, 2, &mut rng);
        assert_eq!(code.decode(&word).unwrap().corrected, 2, "n = {n}");
    }
}
