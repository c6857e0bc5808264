"""Throughput models against arithmetic done by hand from REFERENCES.md, their limits,
and their shape in p. Pure Python: no simulation runs here."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lossy import models

MSS, RTT, T0 = 1000.0, 0.1, 1.0


def test_mathis_by_hand():
    # p = 0.01: sqrt(p) = 0.1; C = sqrt(1.5) = 1.224744871; MSS/RTT = 10000 B/s.
    assert models.mathis(MSS, RTT, 0.01) == pytest.approx(10_000 * 1.224744871391589 / 0.1, rel=1e-12)
    # Delayed ACKs (b = 2): C = sqrt(3/4) = 0.8660254.
    assert models.mathis(MSS, RTT, 0.01, b=2) == pytest.approx(10_000 * 0.8660254037844386 / 0.1, rel=1e-12)
    assert models.mathis(MSS, RTT, 0.0) == math.inf


def test_pftk_approx_by_hand():
    # p = 0.01, b = 1: RTT*sqrt(2p/3) = 0.1*0.0816496581 = 0.00816496581
    # min(1, 3*sqrt(3p/8)) = 3*0.0612372436 = 0.183711731; * p * (1 + 32p^2) = 0.183711731*0.01*1.0032
    timeout_term = 1.0 * 0.18371173070873836 * 0.01 * 1.0032
    packets_per_s = 1 / (0.008164965809277261 + timeout_term)
    assert models.pftk_approx(MSS, RTT, 0.01, T0) == pytest.approx(1000 * packets_per_s, rel=1e-12)
    assert packets_per_s == pytest.approx(99.92044, rel=1e-6)
    # A window limit of 5 packets caps it at 5 / 0.1 s = 50 packets/s.
    assert models.pftk_approx(MSS, RTT, 0.01, T0, wmax_packets=5) == pytest.approx(50_000, rel=1e-12)


def test_pftk_full_b2_is_references_text():
    """b = 2 reproduces REFERENCES.md's w(p), G(p) and both branches term by term."""
    p = 0.01
    w = (2 / 3) * (1 + math.sqrt(3 * 0.99 / 0.01 + 1))  # (2/3)(1 + sqrt(298)) = (2/3)(18.26268)
    assert w == pytest.approx(12.175118, rel=1e-6)
    g = 1 + 0.01 + 2e-4 + 4e-6 + 8e-8 + 16e-10 + 32e-12
    q = _q_paper(p, w)
    rate = MSS * (99 + w + q / 0.99) / (RTT * (w + 1) + q * g * T0 / 0.99)
    assert models.pftk_full(MSS, RTT, p, T0, math.inf, b=2) == pytest.approx(rate, rel=1e-12)
    # Window-limited branch, Wmax = 8 < w: RTT*[Wmax/4 + (1-p)/(p*Wmax) + 2].
    q8 = _q_paper(p, 8)
    rate8 = MSS * (99 + 8 + q8 / 0.99) / (RTT * (8 / 4 + 99 / 8 + 2) + q8 * g * T0 / 0.99)
    assert models.pftk_full(MSS, RTT, p, T0, 8, b=2) == pytest.approx(rate8, rel=1e-12)


def test_pftk_full_b1_by_hand():
    # b = 1: E[W] = 1 + sqrt(8*0.99/0.03 + 1) = 1 + sqrt(265) = 17.27882
    w = 1 + math.sqrt(265)
    # Q: 0.99^3 = 0.970299; 0.99^(w-3) = 0.866313; 0.99^w = 0.840584
    q = (1 - 0.970299) * (1 + 0.970299 * (1 - 0.99 ** (w - 3))) / (1 - 0.99**w)
    assert q == pytest.approx(0.2104791, rel=1e-6)
    g = 1.0102040816  # 1 + p + 2p^2 + 4p^3 + ... at p = 0.01
    rate = MSS * (99 + w + q / 0.99) / (RTT * (w / 2 + 1) + q * g * T0 / 0.99)
    assert models.pftk_full(MSS, RTT, 0.01, T0) == pytest.approx(rate, rel=1e-9)
    assert rate == pytest.approx(98_829.12, rel=1e-6)


def _q_paper(p, w):
    s3 = (1 - p) ** 3
    return min(1.0, (1 - s3) * (1 + s3 * (1 - (1 - p) ** (w - 3))) / (1 - (1 - p) ** w))


def test_timeout_probability_tends_to_three_over_w():
    # The approximate model's min(1, 3/w) is the small-p limit of the full model's Q.
    for w in (10, 30, 100):
        assert models.timeout_probability(1e-7, w) == pytest.approx(3 / w, rel=1e-4)
    # A window of one packet: any loss is a timeout (the formula gives about 3, capped at 1).
    assert models.timeout_probability(0.01, 1) == 1.0


def test_small_p_is_capped_by_window():
    cap = MSS * 20 / RTT
    assert models.pftk_full(MSS, RTT, 1e-9, T0, 20) == pytest.approx(cap, rel=1e-3)
    assert models.pftk_full(MSS, RTT, 0.0, T0, 20) == cap
    assert models.pftk_approx(MSS, RTT, 1e-9, T0, 20) == cap


def test_models_agree_where_timeouts_are_rare():
    # At p = 0.001 (b = 1) timeouts barely matter: the models sit within a few percent.
    full = models.pftk_full(MSS, RTT, 0.001, T0)
    assert models.pftk_approx(MSS, RTT, 0.001, T0) == pytest.approx(full, rel=0.02)
    assert models.mathis(MSS, RTT, 0.001) == pytest.approx(full, rel=0.15)


@pytest.mark.parametrize("bad", [
    dict(mss_bytes=0), dict(rtt_s=0), dict(p=1.0), dict(p=-0.1), dict(t0_s=-1), dict(wmax_packets=0), dict(b=0.5),
])
def test_rejects_bad_arguments(bad):
    args = dict(mss_bytes=MSS, rtt_s=RTT, p=0.01, t0_s=T0, wmax_packets=10, b=1)
    args.update(bad)
    with pytest.raises(ValueError):
        models.pftk_full(**args)


probabilities = st.floats(min_value=1e-6, max_value=0.95)
rtts = st.floats(min_value=1e-3, max_value=2.0)


@settings(max_examples=300, deadline=None)
@given(p1=probabilities, p2=probabilities, rtt=rtts, t0_rtts=st.floats(1, 100), b=st.sampled_from([1, 2]))
def test_rate_falls_as_loss_rises(p1, p2, rtt, t0_rtts, b):
    lo, hi = sorted((p1, p2))
    t0 = t0_rtts * rtt  # an RTO is never shorter than an RTT
    assert models.mathis(MSS, rtt, lo, b) >= models.mathis(MSS, rtt, hi, b)
    assert models.pftk_approx(MSS, rtt, lo, t0, b=b) >= models.pftk_approx(MSS, rtt, hi, t0, b=b)
    # Without a window limit the full model has one branch and is monotone in p. (With
    # one, it steps up by about one RTT per cycle where w(p) crosses Wmax: the paper's
    # two branches do not meet.)
    assert models.pftk_full(MSS, rtt, lo, t0, b=b) >= models.pftk_full(MSS, rtt, hi, t0, b=b) * (1 - 1e-12)


@settings(max_examples=300, deadline=None)
@given(p=probabilities, rtt=rtts, t0_rtts=st.floats(1, 100), wmax=st.integers(1, 10_000), b=st.sampled_from([1, 2]))
def test_never_above_the_window_limit(p, rtt, t0_rtts, wmax, b):
    cap = MSS * wmax / rtt
    assert models.pftk_full(MSS, rtt, p, t0_rtts * rtt, wmax, b) <= cap * (1 + 1e-12)
    assert models.pftk_approx(MSS, rtt, p, t0_rtts * rtt, wmax, b) <= cap * (1 + 1e-12)
