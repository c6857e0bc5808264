"""The BCH codec of the core (crates/lossy-core/src/coding/bch.rs) against `galois` as
an oracle: generator polynomials, t, systematic encodings, and decodings of random error
patterns within t and beyond it.

galois's default fields for GF(2^m) use the Conway polynomials, as the core does, and
its BCH(n, k) takes the largest designed distance that gives k, as the core takes the
largest t; the two decoders then see the same 2t syndromes and must agree word for word,
also beyond t (a detected failure in one is one in the other, and a miscorrection the
same message with the same count). galois runs here in its pure-Python mode
(compile="python-calculate"): its JIT compilation would cost 5 to 20 s per field.
"""

from __future__ import annotations

import functools

import galois
import numpy as np
import pytest

from lossy._core import BchCode

# The codes of Chockalingam et al. and Miyoshi et al., as (n, k, t).
PAPER_CODES = [(127, 92, 5), (127, 64, 10), (127, 36, 15), (255, 131, 18), (255, 87, 26)]
SMALL_CODES = [(7, 4, 1), (15, 7, 2), (15, 5, 3), (31, 21, 2), (31, 16, 3), (63, 45, 3)]


@functools.lru_cache(maxsize=None)
def oracle(n: int, k: int) -> galois.BCH:
    m = (n + 1).bit_length() - 1
    field = galois.GF(2**m, compile="python-calculate")
    return galois.BCH(n, k, extension_field=field)


def received_words(n: int, k: int, weights: list[int], per_weight: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(messages, received words): random codewords with `w` random bit errors each,
    `per_weight` of them for every w in weights."""
    rng = np.random.default_rng(seed)
    code = oracle(n, k)
    count = len(weights) * per_weight
    messages = galois.GF2(rng.integers(0, 2, size=(count, k)))
    words = code.encode(messages).view(np.ndarray).copy()
    for row, w in enumerate(np.repeat(weights, per_weight)):
        words[row, rng.choice(n, size=w, replace=False)] ^= 1
    return messages.view(np.ndarray), words


@pytest.mark.parametrize("n, k, t", PAPER_CODES + SMALL_CODES)
def test_generator_t_and_encodings_equal_galois(n, k, t):
    ours, theirs = BchCode(n, k), oracle(n, k)
    assert (ours.n, ours.k, ours.t) == (n, k, t) == (theirs.n, theirs.k, theirs.t)
    assert ours.generator == [int(c) for c in theirs.generator_poly.coeffs]
    messages = np.random.default_rng(n * 1000 + k).integers(0, 2, size=(20, k))
    codewords = theirs.encode(galois.GF2(messages)).view(np.ndarray)
    for message, codeword in zip(messages, codewords):
        assert ours.encode(message.tolist()) == codeword.tolist()


# (n, k, words per weight): fewer on the long codes, where galois's Python decoder
# takes 20 to 100 ms a word.
DECODED = [(127, 92, 3), (127, 36, 1), (255, 131, 1), (15, 7, 30), (15, 5, 30), (31, 21, 20), (63, 45, 10)]


@pytest.mark.parametrize("n, k, per_weight", DECODED)
def test_decodings_within_and_beyond_t_equal_galois(n, k, per_weight):
    ours, theirs = BchCode(n, k), oracle(n, k)
    t = ours.t
    # Every weight up to t, and beyond it up to 2t + 2 (all of them on short codes,
    # a few on long ones).
    weights = list(range(0, 2 * t + 3)) if t <= 5 else [0, 1, t // 2, t, t + 1, t + 2, 2 * t, 2 * t + 2]
    messages, words = received_words(n, k, weights, per_weight, seed=n + k)
    decoded, corrected = theirs.decode(galois.GF2(words), errors=True)
    outcomes = {"corrected": 0, "failure": 0, "miscorrected": 0}
    for row, w in enumerate(np.repeat(weights, per_weight)):
        mine = ours.decode(words[row].tolist())
        if corrected[row] == -1:
            assert mine is None, f"{w} errors: galois detects a failure, lossy decodes {mine}"
            outcomes["failure"] += 1
            continue
        assert mine == (decoded[row].tolist(), int(corrected[row])), f"{w} errors"
        survived = mine[0] == messages[row].tolist()
        assert survived == ours.survives(int(w)), f"{w} errors, {mine[1]} corrected"
        outcomes["corrected" if survived else "miscorrected"] += 1
    assert outcomes["corrected"] > 0 and outcomes["failure"] > 0, outcomes
    # On short codes a word beyond t often lies within t of another codeword: the two
    # decoders must then make the same wrong message.
    assert n > 63 or outcomes["miscorrected"] > 0, outcomes


def test_codes_that_do_not_exist_raise_value_error_naming_what_is_allowed():
    with pytest.raises(ValueError, match=r"^n = 100 is not 2\^m − 1; use 7, 15, 31, 63, 127, 255, 511 or 1023$"):
        BchCode(100, 50)
    with pytest.raises(ValueError, match=r"^k = 90 is not the dimension .* of length 127; k is one of 120 \(t = 1\), "):
        BchCode(127, 90)
    with pytest.raises(ValueError, match=r"^t = 64 is not possible at length 127; t is 1 to 63$"):
        BchCode.from_t(127, 64)
    code = BchCode(15, 7)
    with pytest.raises(ValueError, match=r"^message has 6 bits; it must have 7$"):
        code.encode([0] * 6)
    with pytest.raises(ValueError, match=r"^received\[3\] = 2; a bit is 0 or 1$"):
        code.decode([0, 0, 0, 2] + [0] * 11)


def test_decode_rate_counts_codewords_per_second():
    rate = BchCode(255, 131).decode_rate(weight=18, count=200)
    assert 100 < rate < 1e9
