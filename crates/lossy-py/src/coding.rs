//! The BCH codec at the Python edge, for the oracle test against `galois`
//! (tests/python/test_bch.py) and for `lossy bench`. Words are lists of bits, 0 or 1,
//! in sending order: bit 0 is the coefficient of the highest power, as in `galois`.

use lossy_core::coding::decode_rate::decode_rate;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// A narrow-sense binary BCH(n, k) code, n = 2^m − 1 for m = 3..=10.
#[pyclass(frozen, name = "BchCode")]
pub struct BchCode {
    code: lossy_core::coding::BchCode,
}

fn bits(word: &[u8]) -> Vec<u32> {
    word.iter().map(|&b| u32::from(b)).collect()
}

/// `word` as bits, or a ValueError naming what is wrong with it.
fn checked_bits(word: Vec<u8>, what: &str, len: usize) -> PyResult<Vec<u8>> {
    if word.len() != len {
        return Err(PyValueError::new_err(format!("{what} has {} bits; it must have {len}", word.len())));
    }
    if let Some(i) = word.iter().position(|&b| b > 1) {
        return Err(PyValueError::new_err(format!("{what}[{i}] = {}; a bit is 0 or 1", word[i])));
    }
    Ok(word)
}

#[pymethods]
impl BchCode {
    /// The code of length n and dimension k (the largest t that gives k); ValueError
    /// naming what is allowed if there is none.
    #[new]
    fn new(n: usize, k: usize) -> PyResult<Self> {
        let code = lossy_core::coding::BchCode::new(n, k).map_err(PyValueError::new_err)?;
        Ok(BchCode { code })
    }

    /// The code of length n whose roots include α, …, α^(2t).
    #[staticmethod]
    fn from_t(n: usize, t: usize) -> PyResult<Self> {
        let code = lossy_core::coding::BchCode::from_t(n, t).map_err(PyValueError::new_err)?;
        Ok(BchCode { code })
    }

    #[getter]
    fn n(&self) -> usize {
        self.code.n()
    }

    #[getter]
    fn k(&self) -> usize {
        self.code.k()
    }

    #[getter]
    fn t(&self) -> usize {
        self.code.t()
    }

    /// g(x)'s coefficients, highest degree first (as galois's `Poly.coeffs`).
    #[getter]
    fn generator(&self) -> Vec<u32> {
        bits(self.code.generator()).into_iter().rev().collect()
    }

    /// The fast path: whether a codeword with this many bit errors decodes to its message.
    fn survives(&self, errors: u32) -> bool {
        self.code.survives(errors)
    }

    /// The systematic codeword of k message bits: the message, then n − k parity bits.
    fn encode(&self, message: Vec<u8>) -> PyResult<Vec<u32>> {
        let message = checked_bits(message, "message", self.code.k())?;
        Ok(bits(&self.code.encode(&message)))
    }

    /// (message, bits corrected), or None when the decoder detects that it cannot.
    fn decode(&self, received: Vec<u8>) -> PyResult<Option<(Vec<u32>, usize)>> {
        let received = checked_bits(received, "received", self.code.n())?;
        Ok(self.code.decode(&received).ok().map(|d| (bits(&d.message), d.corrected)))
    }

    /// Codewords decoded per wall second by the real decoder: `count` random codewords
    /// with `weight` random bit errors each (made before timing; GIL released).
    #[pyo3(signature = (weight, count, seed = 1))]
    fn decode_rate(&self, py: Python<'_>, weight: usize, count: usize, seed: u64) -> PyResult<f64> {
        if weight > self.code.n() {
            return Err(PyValueError::new_err(format!("weight = {weight}: a word has {} bits", self.code.n())));
        }
        Ok(py.detach(|| decode_rate(&self.code, weight, count, seed)))
    }
}
