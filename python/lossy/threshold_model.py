"""The threshold model of packet errors on a Rayleigh fading channel, in closed form
(Zorzi, Rao and Milstein, "On the accuracy of a first-order Markov model for data
transmission on fading channels", Proc. IEEE ICUPC'95, pp. 211-215; Chockalingam,
Zorzi and Tralli §III.A cite it as [10]).

A packet succeeds iff the instantaneous SNR gamma_bar*|g|^2 at that packet is above a
threshold SNR_t; |g|^2 ~ Exp(1). The fade margin is F = gamma_bar / SNR_t (linear), the
mean SNR over the threshold, as Zorzi, Rao and Milstein define it (and as a link
budget's fade margin is meant: a 10 dB margin is F = 10, few failures). With the
normalized threshold a = 1/F = SNR_t / gamma_bar,

    P_E   = P(|g|^2 < a) = 1 - e^(-1/F),
    rho   = J0(2 pi f_d T),  the correlation of the complex gain g one packet time T apart
                             (Clarke/Jakes spectrum),
    theta = sqrt(2a / (1 - rho^2)),
    1 - q = P(success | previous failure)
          = [Q1(theta, rho theta) - Q1(rho theta, theta)] / (e^a - 1),

Q1 the first-order Marcum Q function, and 1 - p = P_E (1 - q) / (1 - P_E) from the
chain's stationarity (P_E is its stationary failure probability).

Why: given g1, g2 = rho g1 + sqrt(1 - rho^2) w, so 2|g2|^2/(1 - rho^2) is noncentral
chi-square (2 degrees of freedom, noncentrality 2 rho^2 |g1|^2/(1 - rho^2)) and
P(fail, then success) = integral over y < a of e^(-y) Q1(rho sqrt(2y/(1-rho^2)), theta) dy,
which is e^(-a) [Q1(theta, rho theta) - Q1(rho theta, theta)]. Checked in
tests/python/test_threshold_model.py against a Monte Carlo of the correlated complex
Gaussian pair, a numeric integral that uses no Marcum Q function, the independent limit
(rho = 0: 1 - q = e^(-a)) and the level-crossing rate for rho -> 1.

Until issue 25 `threshold_chain(fade_margin=...)` took SNR_t / gamma_bar, the inverse
of the margin, so F = 10 gave P_E = 0.99995 instead of 0.095.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["ThresholdChain", "marcum_q1", "threshold_chain", "threshold_chain_at_snr",
           "threshold_chain_matching"]


def marcum_q1(a: float, b: float) -> float:
    """The first-order Marcum Q function Q1(a, b) = P(R > b), R Rice-distributed with
    noncentrality a and unit scale: the survival function of a noncentral chi-square with
    2 degrees of freedom and noncentrality a^2, at b^2."""
    from scipy.stats import ncx2

    if b <= 0.0:
        return 1.0
    if a <= 0.0:
        return math.exp(-b * b / 2.0)
    return float(ncx2.sf(b * b, 2, a * a))


@dataclass(frozen=True)
class ThresholdChain:
    """The two-state chain (Chockalingam Eq. 1) of the threshold model."""

    fade_margin: float
    """F = mean SNR / SNR_t (linear): the margin of the mean over the threshold."""
    rho: float
    """J0(2 pi f_d T): correlation of the complex gain one packet apart."""
    p_e: float
    p: float
    q: float

    @property
    def threshold(self) -> float:
        """1/F = SNR_t / mean SNR: the threshold on |g|^2 below which a packet fails."""
        return 1.0 / self.fade_margin

    @property
    def burst(self) -> float:
        """(1 - q)^-1: the mean length of a burst of failures, in packets."""
        return 1.0 / (1.0 - self.q) if self.q < 1.0 else math.inf


def threshold_chain(fade_margin: float, doppler_hz: float, packet_time_s: float) -> ThresholdChain:
    """The chain of the threshold model at fade margin F = mean SNR / SNR_t (linear, > 0;
    10 for a 10 dB margin, P_E = 1 - e^(-1/F) = 0.095), for packets T = packet_time_s
    apart on a channel of maximum Doppler f_d."""
    from scipy.special import j0

    if not (fade_margin > 0.0 and math.isfinite(fade_margin)):
        raise ValueError(f"fade_margin: {fade_margin} is not allowed; use a finite number > 0")
    if not (doppler_hz >= 0.0 and packet_time_s >= 0.0):
        raise ValueError("doppler_hz and packet_time_s must be >= 0")
    f = 1.0 / fade_margin  # the normalized threshold SNR_t / mean SNR
    x = 2.0 * math.pi * doppler_hz * packet_time_s
    eps = _one_minus_j0(x)
    rho = 1.0 - eps if x < 0.1 else float(j0(x))
    p_e = -math.expm1(-f)
    if eps <= 0.0:  # the gain never changes: a failure is followed by failures
        exit_ = 0.0
    else:
        exit_ = min(max(_q_difference(f, eps) / math.expm1(f), 0.0), 1.0)
    one_minus_p = p_e * exit_ / (1.0 - p_e) if p_e < 1.0 else 1.0
    return ThresholdChain(fade_margin=fade_margin, rho=rho, p_e=p_e, p=1.0 - one_minus_p, q=1.0 - exit_)


# Beyond this theta^2 (slow fading: f_d T below about 1e-4 at a threshold 1/F = 0.37), the Marcum Q
# functions' arguments pass 300 and their difference is evaluated by its expansion.
_THETA2_EXPANSION = 1e5


def _q_difference(f: float, eps: float) -> float:
    """Q1(theta, rho theta) - Q1(rho theta, theta), rho = 1 - eps, theta^2 = 2f/(1 - rho^2),
    f = 1/F the normalized threshold (SNR_t / mean SNR).

    Where theta is large the two Q1 are nearly equal and scipy's noncentral chi-square
    loses digits (1e-8 relative at theta^2 = 1e6, worse beyond), so there the difference
    comes from Craig-type integrals of Q1 subtracted under one integral,
    (1/pi) * integral_0^pi K(psi) (1 - exp(-f d/(1 - rho^2))) dpsi with the Poisson kernel
    K = (1 - rho^2)/d, d = (1 - rho)^2 + 4 rho sin^2(psi/2), expanded about psi = 0:
    ((2 - eps)/(2 sqrt(rho))) erf(sqrt(f eps/(2 - eps))) (1 - 1/(8 theta^2)), relative
    error O(theta^-4), below 1e-9 where used (tests/python/test_threshold_model.py checks
    both branches against the integral). Its leading term is the level-crossing rate:
    P(fail, then success) -> sqrt(2 pi f) e^(-f) f_d T."""
    from scipy.special import erf

    rho = 1.0 - eps
    theta2 = 2.0 * f / (eps * (1.0 + rho))
    if theta2 <= _THETA2_EXPANSION:
        theta = math.sqrt(theta2)
        rho_theta = theta - eps * theta
        return marcum_q1(theta, rho_theta) - marcum_q1(rho_theta, theta)
    a = f * eps / (2.0 - eps)
    return (2.0 - eps) / (2.0 * math.sqrt(rho)) * float(erf(math.sqrt(a))) * (1.0 - 1.0 / (8.0 * theta2))


def _one_minus_j0(x: float) -> float:
    """1 - J0(x), without the cancellation of 1 - j0(x) for small x (slow fading, where
    1 - rho is ~1e-7 and theta grows as its inverse square root): the series
    sum_{k>=1} (-1)^(k+1) (x^2/4)^k / (k!)^2 below x = 0.1 (10 terms: error < 1e-40)."""
    from scipy.special import j0

    if x >= 0.1:
        return 1.0 - float(j0(x))
    y = x * x / 4.0
    term, total = 1.0, 0.0
    for k in range(1, 11):
        term *= -y / (k * k)
        total -= term
    return total


def threshold_chain_at_snr(threshold_snr_db: float, mean_snr_db: float, doppler_hz: float,
                           packet_time_s: float) -> ThresholdChain:
    """The chain for an explicitly given threshold SNR_t and mean SNR, both in dB: the
    fade margin is their difference, F = 10^((mean - SNR_t)/10)."""
    return threshold_chain(10.0 ** ((mean_snr_db - threshold_snr_db) / 10.0), doppler_hz, packet_time_s)


def threshold_chain_matching(p_e: float, doppler_hz: float, packet_time_s: float) -> ThresholdChain:
    """The chain whose threshold gives this packet error rate, F = -1/ln(1 - P_E): how
    Zorzi, Rao and Milstein set the threshold to compare the model with a simulated
    channel (P_E in (0, 1))."""
    if not 0.0 < p_e < 1.0:
        raise ValueError(f"p_e: {p_e} is not allowed; use a probability in (0, 1)")
    return threshold_chain(-1.0 / math.log1p(-p_e), doppler_hz, packet_time_s)
