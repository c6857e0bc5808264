//! Narrow-sense binary BCH codes of length n = 2^m − 1 (Lin & Costello, *Error Control
//! Coding*, 2nd ed., ch. 6): the generator polynomial from minimal polynomials,
//! systematic encoding, and bounded-distance decoding by syndromes, Berlekamp–Massey and
//! Chien search, with decoding failure detected.
//!
//! Bit order, the one of the Python package `galois`: a word is a slice of bits (one per
//! `u8`, 0 or 1) sent first to last, and bit 0 is the coefficient of the highest power,
//! x^(n−1) in a codeword. Encoding is systematic with the message first: the codeword
//! is the k message bits, then the n − k parity bits of m(x)·x^(n−k) mod g(x).

use super::gf::{Gf, DEGREES};

/// A narrow-sense binary BCH code: g(x) has α, α^2, …, α^(2t) among its roots, α a
/// primitive element of GF(2^m) (Lin & Costello §6.1).
#[derive(Clone, Debug)]
pub struct BchCode {
    n: usize,
    k: usize,
    t: usize,
    gf: Gf,
    /// Coefficients of g(x), lowest degree first (g[0] = g[n−k] = 1).
    generator: Vec<u8>,
}

/// The received word is more than t bit errors from every codeword the decoder could
/// reach: the error-locator polynomial has degree above t, or fewer roots than its
/// degree among the code's positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeFailure;

impl std::fmt::Display for DecodeFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("more bit errors than the code corrects (decoding failure detected)")
    }
}

impl std::error::Error for DecodeFailure {}

/// A decoded word: the message bits and how many bits the decoder flipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub message: Vec<u8>,
    pub corrected: usize,
}

impl BchCode {
    /// The code of length n and dimension k. For a k that several t give, the largest
    /// t (the code is the same, and it corrects that many).
    pub fn new(n: usize, k: usize) -> Result<BchCode, String> {
        let gf = field_for_length(n)?;
        let codes = dimensions(n);
        match codes.iter().find(|c| c.0 == k) {
            Some(&(_, t)) => Ok(BchCode::build(gf, t)),
            None => {
                let allowed: Vec<String> = codes.iter().map(|(k, t)| format!("{k} (t = {t})")).collect();
                Err(format!(
                    "k = {k} is not the dimension of a narrow-sense binary BCH code of length {n}; \
                     k is one of {}",
                    allowed.join(", ")
                ))
            }
        }
    }

    /// The code of length n whose roots include α, …, α^(2t). Its `t()` is the largest t
    /// with the same generator polynomial, which may exceed the one asked for
    /// (e.g. t = 8 at n = 127 gives the (127, 71) code, which corrects 9).
    pub fn from_t(n: usize, t: usize) -> Result<BchCode, String> {
        let gf = field_for_length(n)?;
        let most = (n - 1) / 2;
        if t == 0 || t > most {
            return Err(format!("t = {t} is not possible at length {n}; t is 1 to {most}"));
        }
        let k = n - generator_degree(n, t);
        let (_, largest_t) = dimensions(n).into_iter().find(|c| c.0 == k).expect("every t gives a listed k");
        Ok(BchCode::build(gf, largest_t))
    }

    fn build(gf: Gf, t: usize) -> BchCode {
        let n = gf.order();
        let generator = generator_polynomial(&gf, t);
        BchCode { n, k: n + 1 - generator.len(), t, gf, generator }
    }

    pub fn n(&self) -> usize {
        self.n
    }

    pub fn k(&self) -> usize {
        self.k
    }

    /// How many bit errors per codeword the decoder corrects.
    pub fn t(&self) -> usize {
        self.t
    }

    /// g(x)'s coefficients, lowest degree first.
    pub fn generator(&self) -> &[u8] {
        &self.generator
    }

    /// The fast path: whether a codeword that took `errors` bit errors is decoded to the
    /// message sent. Exact for a bounded-distance decoder: within t it corrects; beyond
    /// t it either detects the failure or reaches another codeword (at most t from the
    /// received word, so not the one sent).
    pub fn survives(&self, errors: u32) -> bool {
        errors as usize <= self.t
    }

    /// The codeword of `message` (k bits, 0 or 1): the message, then the parity bits.
    /// Panics if the message is not k bits long.
    pub fn encode(&self, message: &[u8]) -> Vec<u8> {
        assert_eq!(message.len(), self.k, "a message of BCH({}, {}) has {} bits", self.n, self.k, self.k);
        let parity_len = self.n - self.k;
        // Division by g(x) in a shift register: rem[i] is the coefficient of x^i of
        // the remainder so far, fed one message bit at a time from the highest power.
        let mut rem = vec![0u8; parity_len];
        for &bit in message {
            let feedback = (bit & 1) ^ rem[parity_len - 1];
            rem.copy_within(0..parity_len - 1, 1);
            rem[0] = 0;
            if feedback == 1 {
                for (r, g) in rem.iter_mut().zip(&self.generator[..parity_len]) {
                    *r ^= g;
                }
            }
        }
        let mut word = message.iter().map(|b| b & 1).collect::<Vec<u8>>();
        word.extend(rem.iter().rev());
        word
    }

    /// Corrects up to t bit errors in `received` (n bits, 0 or 1), or detects that it
    /// cannot. Panics if the word is not n bits long.
    pub fn decode(&self, received: &[u8]) -> Result<Decoded, DecodeFailure> {
        assert_eq!(received.len(), self.n, "a codeword of BCH({}, {}) has {} bits", self.n, self.k, self.n);
        let syndromes = self.syndromes(received);
        let mut word = received[..self.k].to_vec();
        if syndromes.iter().all(|&s| s == 0) {
            return Ok(Decoded { message: word, corrected: 0 });
        }
        let locator = berlekamp_massey(&self.gf, &syndromes, self.t).ok_or(DecodeFailure)?;
        let errors = locator.len() - 1;
        let degrees = chien_search(&self.gf, &locator);
        if degrees.len() != errors {
            return Err(DecodeFailure);
        }
        for d in degrees {
            let index = self.n - 1 - d;
            if index < self.k {
                word[index] ^= 1; // an error in a parity bit needs no correcting
            }
        }
        Ok(Decoded { message: word, corrected: errors })
    }

    /// S_j = r(α^j) for j = 1..=2t (index j − 1). Only odd j are summed: for a binary
    /// word S_2j = S_j^2 (Lin & Costello §6.2).
    fn syndromes(&self, received: &[u8]) -> Vec<u16> {
        let (n, t) = (self.n, self.t);
        let mut s = vec![0u16; 2 * t];
        for (index, _) in received.iter().enumerate().filter(|(_, &b)| b & 1 == 1) {
            // The bit at index i is the coefficient of x^d, d = n − 1 − i: it adds
            // α^(j·d) to S_j; going from j to j + 2 multiplies by α^(2d).
            let d = n - 1 - index;
            let step = 2 * d % n;
            let mut e = d;
            for j in (0..2 * t).step_by(2) {
                s[j] ^= self.gf.alpha_pow(e);
                e += step;
                if e >= n {
                    e -= n;
                }
            }
        }
        for i in 1..=t {
            s[2 * i - 1] = self.gf.square(s[i - 1]); // S_2i = S_i^2, S_i already known
        }
        s
    }
}

/// GF(2^m) for n = 2^m − 1, or the error naming the lengths allowed.
fn field_for_length(n: usize) -> Result<Gf, String> {
    DEGREES.clone().find(|&m| (1usize << m) - 1 == n).and_then(Gf::new).ok_or_else(|| {
        let lengths: Vec<String> = DEGREES.map(|m| ((1usize << m) - 1).to_string()).collect();
        let (last, rest) = lengths.split_last().expect("at least one length");
        let allowed = format!("use {} or {last}", rest.join(", "));
        match n.checked_add(1).filter(|p| p.is_power_of_two()) {
            Some(p) => format!(
                "n = {n} is 2^{} − 1, outside the fields here (m = {} to {}); {allowed}",
                p.trailing_zeros(),
                DEGREES.start(),
                DEGREES.end()
            ),
            None => format!("n = {n} is not 2^m − 1; {allowed}"),
        }
    })
}

/// The cyclotomic coset of s modulo n: {s·2^j mod n}, the exponents of the conjugates
/// of α^s, which share its minimal polynomial (Lin & Costello §2.5).
fn cyclotomic_coset(s: usize, n: usize) -> Vec<usize> {
    let mut coset = vec![s % n];
    let mut e = 2 * s % n;
    while e != coset[0] {
        coset.push(e);
        e = 2 * e % n;
    }
    coset
}

/// The odd s ≤ 2t − 1 whose cosets are new: each is one minimal polynomial of g(x).
/// Even exponents need none of their own, α^(2i) being a conjugate of α^i.
fn coset_leaders(n: usize, t: usize) -> Vec<usize> {
    let mut covered = vec![false; n];
    let mut leaders = Vec::new();
    for s in (1..2 * t).step_by(2) {
        if !covered[s % n] {
            for e in cyclotomic_coset(s, n) {
                covered[e] = true;
            }
            leaders.push(s);
        }
    }
    leaders
}

/// n − k for the code with roots α, …, α^(2t): the size of the union of their cosets.
fn generator_degree(n: usize, t: usize) -> usize {
    coset_leaders(n, t).iter().map(|&s| cyclotomic_coset(s, n).len()).sum()
}

/// Every (k, t) at length n, k falling and t the largest that gives k: from the
/// single-error code down to the repetition code (k = 1, t = (n − 1)/2).
fn dimensions(n: usize) -> Vec<(usize, usize)> {
    let mut codes: Vec<(usize, usize)> = Vec::new();
    for t in 1..=(n - 1) / 2 {
        let k = n - generator_degree(n, t);
        match codes.last_mut() {
            Some(last) if last.0 == k => last.1 = t,
            _ => codes.push((k, t)),
        }
    }
    codes
}

/// g(x) = LCM of the minimal polynomials of α, …, α^(2t): the product of one per
/// distinct coset (Lin & Costello Eq. 6.1). Binary coefficients, lowest degree first.
fn generator_polynomial(gf: &Gf, t: usize) -> Vec<u8> {
    let n = gf.order();
    let mut g = vec![1u8];
    for s in coset_leaders(n, t) {
        let minimal = minimal_polynomial(gf, &cyclotomic_coset(s, n));
        let mut product = vec![0u8; g.len() + minimal.len() - 1];
        for (i, &a) in g.iter().enumerate().filter(|(_, &a)| a == 1) {
            for (j, &b) in minimal.iter().enumerate() {
                product[i + j] ^= a & b;
            }
        }
        g = product;
    }
    g
}

/// ∏ (x + α^e) over the coset: a polynomial with binary coefficients, lowest first.
fn minimal_polynomial(gf: &Gf, coset: &[usize]) -> Vec<u8> {
    let mut p = vec![1u16];
    for &e in coset {
        let root = gf.alpha_pow(e);
        let mut next = vec![0u16; p.len() + 1];
        for (i, &c) in p.iter().enumerate() {
            next[i + 1] ^= c; // x · p(x)
            next[i] ^= gf.mul(c, root); // root · p(x)
        }
        p = next;
    }
    p.iter()
        .map(|&c| {
            assert!(c <= 1, "a minimal polynomial has binary coefficients");
            c as u8
        })
        .collect()
}

/// The shortest LFSR that generates S_1, …, S_2t (Massey 1969; Lin & Costello §6.2):
/// the error-locator polynomial Λ(x), Λ_0 = 1, trimmed to its length L (Λ_L may be 0,
/// and then Chien search finds too few roots). `None` once L exceeds t: the length
/// never falls, and more than t errors cannot be located from 2t syndromes.
fn berlekamp_massey(gf: &Gf, s: &[u16], t: usize) -> Option<Vec<u16>> {
    let len = s.len() + 1;
    let (mut c, mut b) = (vec![0u16; len], vec![0u16; len]);
    c[0] = 1;
    b[0] = 1;
    let (mut l, mut shift, mut last_discrepancy) = (0usize, 1usize, 1u16);
    for r in 0..s.len() {
        let mut d = s[r];
        for i in 1..=l {
            d ^= gf.mul(c[i], s[r - i]);
        }
        if d == 0 {
            shift += 1;
            continue;
        }
        // C(x) − (d / b)·x^shift·B(x) cancels the discrepancy.
        let coef = gf.div(d, last_discrepancy);
        let previous = (2 * l <= r).then(|| c.clone());
        for i in 0..len - shift {
            c[i + shift] ^= gf.mul(coef, b[i]);
        }
        match previous {
            Some(p) => {
                l = r + 1 - l;
                if l > t {
                    return None;
                }
                b = p;
                last_discrepancy = d;
                shift = 1;
            }
            None => shift += 1,
        }
    }
    c.truncate(l + 1);
    Some(c)
}

/// The degrees d in 0..n at which an error sits: Λ(α^(−d)) = 0 (Chien 1964). Each
/// term Λ_j·α^(−dj) is kept as an exponent and stepped by −j per position.
fn chien_search(gf: &Gf, locator: &[u16]) -> Vec<usize> {
    let n = gf.order();
    let errors = locator.len() - 1;
    let mut terms: Vec<(usize, usize)> = locator
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, &c)| c != 0)
        .map(|(j, &c)| (gf.log(c), (n - j % n) % n))
        .collect();
    let mut degrees = Vec::with_capacity(errors);
    for d in 0..n {
        let mut sum = 1u16; // Λ_0
        for (e, step) in terms.iter_mut() {
            sum ^= gf.alpha_pow(*e);
            *e += *step;
            if *e >= n {
                *e -= n;
            }
        }
        if sum == 0 {
            degrees.push(d);
            if degrees.len() == errors {
                break;
            }
        }
    }
    degrees
}

#[cfg(test)]
#[path = "bch_tests.rs"]
mod tests;
