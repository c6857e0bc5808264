"""The threshold model's closed form (Zorzi, Rao and Milstein 1995; lossy.threshold_model)
checked three ways that do not rely on it: a Monte Carlo of the correlated complex
Gaussian pair, a numeric integral with no Marcum Q function, and its two limits."""

import math

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.special import j0

from lossy.threshold_model import (
    marcum_q1,
    threshold_chain,
    threshold_chain_at_snr,
    threshold_chain_matching,
)


def exit_by_integral(f, eps):
    """1 - q = P(|g2|^2 >= F | |g1|^2 < F) without Marcum Q: with psi the angle about the
    Poisson kernel's peak, e^F - 1 times it equals
    (1/pi) * integral_0^pi K(psi) (1 - exp(-F d(psi)/(1 - rho^2))) dpsi,
    K = (1 - rho^2)/d, d = (1 - rho)^2 + 4 rho sin^2(psi/2) (the Craig-type forms of Q1,
    subtracted: the difference has no cancellation). Integrated in log psi, where the
    integrand is a smooth bump however close rho is to 1. eps = 1 - rho."""
    rho = 1.0 - eps
    one_minus_r2 = eps * (1.0 + rho)

    def integrand(v):
        psi = math.exp(v)
        d = eps * eps + 4.0 * rho * math.sin(psi / 2.0) ** 2
        return psi * (one_minus_r2 / d) * -math.expm1(-f * d / one_minus_r2)

    lo = math.log(min(eps, 1e-3) * 1e-6)
    points = [p for p in (math.log(eps), 0.5 * math.log(one_minus_r2 / f)) if lo < p < math.log(math.pi)]
    value, _ = quad(integrand, lo, math.log(math.pi), points=sorted(points), limit=400, epsabs=0, epsrel=1e-11)
    return value / math.pi / math.expm1(f)


@pytest.mark.parametrize("f", [7e-4, 0.0035, 0.035, 0.37, 2.0])
@pytest.mark.parametrize("fd_t", [1e-5, 1.7e-4, 5.1e-4, 1.7e-3, 0.017, 0.051, 0.3])
def test_closed_form_equals_the_integral(f, fd_t):
    # Table 1's settings and beyond: f_d T from 1 Hz x 170.7 us to 100 Hz x 3 ms, and
    # 1e-5 where the Marcum Q difference is taken from its expansion (theta^2 > 1e5);
    # F from P_E = 7e-4 to 0.86. Agreement to 1e-7 (both are good to about 1e-9).
    chain = threshold_chain(1 / f, 1.0, fd_t)  # f: the normalized threshold 1/F
    assert chain.rho == pytest.approx(j0(2 * math.pi * fd_t), abs=1e-15)
    assert 1.0 - chain.q == pytest.approx(exit_by_integral(f, 1.0 - j0(2 * math.pi * fd_t)), rel=1e-7)


def test_both_branches_agree_where_they_meet():
    # theta^2 = 2F/(1 - rho^2) about 1e5, where the closed form passes from the Marcum Q
    # functions to their expansion: both agree to 1e-9.
    from lossy import threshold_model as tm

    for f, fd_t in [(0.37, 6.1e-4), (0.0035, 6.0e-5), (2.0, 1.42e-3)]:
        x = 2 * math.pi * fd_t
        eps = tm._one_minus_j0(x)
        exact = tm.marcum_q1(*_args(f, eps)) - tm.marcum_q1(*reversed(_args(f, eps)))
        saved = tm._THETA2_EXPANSION
        try:
            tm._THETA2_EXPANSION = 0.0
            expanded = tm._q_difference(f, eps)
        finally:
            tm._THETA2_EXPANSION = saved
        assert expanded == pytest.approx(exact, rel=1e-9), (f, fd_t)


def _args(f, eps):
    theta = math.sqrt(2 * f / (eps * (2 - eps)))
    return theta, theta - eps * theta


@pytest.mark.parametrize("f, rho", [(0.37, 0.9), (0.05, 0.6), (1.0, 0.99), (0.01, 0.999)])
def test_closed_form_matches_monte_carlo(f, rho):
    # g1, g2 unit-power complex Gaussians with E[g1 g2*] = rho: g2 = rho g1 + sqrt(1 - rho^2) w.
    # 4e6 pairs (at F = 0.01, 4e4 failures); tolerance 5 binomial standard errors.
    rng = np.random.default_rng(11)
    n = 4_000_000
    g1 = (rng.standard_normal(n) + 1j * rng.standard_normal(n)) / math.sqrt(2)
    w = (rng.standard_normal(n) + 1j * rng.standard_normal(n)) / math.sqrt(2)
    g2 = rho * g1 + math.sqrt(1 - rho**2) * w
    failed = np.abs(g1) ** 2 < f
    exits = np.count_nonzero(failed & (np.abs(g2) ** 2 >= f)) / np.count_nonzero(failed)
    fd_t = _fd_t_for(rho)
    chain = threshold_chain(1 / f, 1.0, fd_t)
    assert chain.rho == pytest.approx(rho, abs=1e-12)
    se = math.sqrt(exits * (1 - exits) / np.count_nonzero(failed))
    assert abs((1 - chain.q) - exits) <= 5 * se, (1 - chain.q, exits, se)
    assert np.mean(failed) == pytest.approx(chain.p_e, abs=5 * math.sqrt(chain.p_e / n))
    assert 1 - chain.q == pytest.approx(exit_by_integral(f, 1 - rho), rel=1e-7)


def _fd_t_for(rho):
    """f_d T with J0(2 pi f_d T) = rho (on the first lobe)."""
    from scipy.optimize import brentq

    return brentq(lambda x: j0(2 * math.pi * x) - rho, 0.0, 0.38, xtol=1e-16, rtol=1e-15)


def test_independent_limit_and_stationarity():
    # rho = 0 (2 pi f_d T at the first zero of J0): packets independent, 1 - q = e^(-1/F).
    chain = threshold_chain(1 / 0.3, 1.0, 2.404825557695773 / (2 * math.pi))
    assert abs(chain.rho) < 1e-12
    assert 1 - chain.q == pytest.approx(math.exp(-0.3), rel=1e-9)
    assert chain.p == pytest.approx(math.exp(-0.3), rel=1e-9)
    # Stationarity of Eq. 1: P_E (1 - q) = (1 - P_E)(1 - p).
    c = threshold_chain(10.0, 10.0, 5.1e-4)
    assert c.p_e * (1 - c.q) == pytest.approx((1 - c.p_e) * (1 - c.p), rel=1e-12)
    assert c.burst == pytest.approx(1 / (1 - c.q))


@pytest.mark.parametrize("f", [0.0035, 0.37])
@pytest.mark.parametrize("t", [1e-4, 1e-6, 1e-8])
def test_slow_fading_limit_is_the_level_crossing_rate(f, t):
    # rho -> 1: P(fail, then success) -> N_R T, the envelope's rate of upward crossings
    # of sqrt(F) (REFERENCES.md: N_R = sqrt(2 pi) f_d r e^(-r^2), r = sqrt(F)) times T;
    # relative correction about -1/(8 theta^2) = -(2 pi f_d T)^2/(16 F).
    fd = 1.0
    chain = threshold_chain(1 / f, fd, t)  # f: the normalized threshold 1/F
    crossings = math.sqrt(2 * math.pi) * fd * math.sqrt(f) * math.exp(-f) * t
    correction = (2 * math.pi * fd * t) ** 2 / (16 * f)
    assert chain.p_e * (1 - chain.q) == pytest.approx(crossings, rel=2 * correction + 1e-9)


def test_threshold_given_or_matched():
    # Threshold 10 dB below a 20 dB mean: a 10 dB margin, F = 10, threshold 1/F = 0.1.
    a = threshold_chain_at_snr(10.0, 20.0, 10.0, 1.7e-4)
    assert a.fade_margin == pytest.approx(10.0)
    assert a.threshold == pytest.approx(0.1)
    assert a.p_e == pytest.approx(1 - math.exp(-0.1))
    b = threshold_chain_matching(a.p_e, 10.0, 1.7e-4)
    assert b.q == pytest.approx(a.q, rel=1e-12)
    with pytest.raises(ValueError, match="p_e: 0.0 is not allowed"):
        threshold_chain_matching(0.0, 10.0, 1.7e-4)
    with pytest.raises(ValueError, match="fade_margin"):
        threshold_chain(float("nan"), 10.0, 1.7e-4)


def test_marcum_q1_edges():
    assert marcum_q1(1.0, 0.0) == 1.0
    assert marcum_q1(0.0, 2.0) == pytest.approx(math.exp(-2.0))
    # Q1(a, b) + Q1(b, a) = 1 + e^(-(a^2 + b^2)/2) I0(ab).
    from scipy.special import i0e

    a, b = 1.3, 2.1
    assert marcum_q1(a, b) + marcum_q1(b, a) == pytest.approx(1 + math.exp(-((a - b) ** 2) / 2) * i0e(a * b), rel=1e-12)


def test_fade_margin_is_the_mean_snr_over_the_threshold():
    # The literature's fade margin (Zorzi, Rao and Milstein; the paper's [10], [11]) is
    # F = mean SNR / SNR_t, so P_E = 1 - e^(-1/F): a 10 dB margin (F = 10) loses a packet
    # in about 10.5, not nearly every packet (1 - e^(-10) = 0.99995, taking F as SNR_t/mean).
    chain = threshold_chain(10.0, 10.0, 1.7e-4)
    assert chain.fade_margin == 10.0
    assert chain.p_e == pytest.approx(-math.expm1(-0.1), rel=1e-12)  # 0.0952
    # The same channel given in dB: threshold 10 dB below a 20 dB mean is F = 10.
    assert threshold_chain_at_snr(10.0, 20.0, 10.0, 1.7e-4).fade_margin == pytest.approx(10.0)
    # A larger margin, fewer failures.
    assert threshold_chain(100.0, 10.0, 1.7e-4).p_e < chain.p_e < threshold_chain(2.0, 10.0, 1.7e-4).p_e
