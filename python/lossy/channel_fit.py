"""The two-state Markov fit of the fading channel (Chockalingam, Zorzi and Tralli §III.A,
Eq. 1 and Table 1), with the threshold model's closed form beside it.

    >>> from lossy.channel_fit import fit_markov
    >>> f = fit_markov(10, 1, code=(255, 87))       # Table 1: BCH(255,87), f_d = 1 Hz, 10 dB
    >>> f.p_e, f.burst, f.closed_form_burst
    >>> f.loss_config()                             # the fitted chain as a scenario's loss table

The simulation is the Rust core's (`crates/lossy-core/src/channel/fit.rs`): link packets
of N_L data bytes (plus BCH parity) sent back to back at the link rate over the Rayleigh
channel of `model = "rayleigh"`, each judged by the link's coding; P_E, p = P(success |
previous success), q = P(failure | previous failure) and (1 - q)^-1 with standard errors
by batch means over 40 independent fading draws. The default run spans max(2000 Doppler
periods, 10^6 link packets).

The closed form (`lossy.threshold_model`) is Zorzi, Rao and Milstein's threshold model
with its threshold chosen as they did: so that its P_E equals the simulated P_E.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

from . import _core
from .threshold_model import threshold_chain_matching

__all__ = ["MarkovFit", "fit_markov"]


@dataclass(frozen=True)
class MarkovFit:
    """The fitted chain M_c = [[p, 1 - p], [1 - q, q]] (Chockalingam Eq. 1) of one setting.
    NaN where a number is undefined (q and the burst when no packet failed)."""

    p_e: float
    """P_E: fraction of link packets that failed."""
    p_e_se: float
    p: float
    """P(success | previous success)."""
    q: float
    """P(failure | previous failure)."""
    burst: float
    """(1 - q)^-1: mean length of a burst of failed link packets."""
    burst_se: float
    packet_time_s: float
    """T: air time of one link packet (data and parity bits at the rate)."""
    packets: int
    closed_form_burst: float
    """(1 - q)^-1 of the threshold model (Zorzi, Rao and Milstein) whose threshold gives
    the simulated P_E, with rho = J0(2 pi f_d T)."""
    p_se: float = math.nan
    q_se: float = math.nan
    closed_form_q: float = math.nan
    packet_time_ns: int = 0
    coded_bits: int = 0
    doppler_periods: float = math.nan
    mean_snr_db: float = math.nan
    doppler_hz: float = math.nan
    payload_bytes: int = 32
    code: Optional[Tuple[int, int]] = None
    modulation: str = "bpsk"
    rate_bps: int = 1_500_000
    seed: int = 1

    @property
    def one_minus_q(self) -> float:
        """1 - q = P(success | previous failure); its standard error is q_se."""
        return 1.0 - self.q

    def loss_config(self, slot: bool = True) -> Dict[str, Any]:
        """The fitted chain as a scenario's loss table: the Gilbert model with packet units,
        Error = failure, p_ge = 1 - p, p_eg = 1 - q; with `slot`, also `slot` = T, so the
        chain keeps moving while the link is idle (one step per link packet time). Where
        the fit leaves a transition undefined (no failure, or no success, observed) it is
        set to 1: the chain then never leaves the state it was always seen in."""
        p_ge = 1.0 - self.p if math.isfinite(self.p) else 1.0
        p_eg = 1.0 - self.q if math.isfinite(self.q) else 1.0
        table: Dict[str, Any] = {"model": "gilbert", "p_ge": _clip(p_ge), "p_eg": _clip(p_eg)}
        if slot:
            table["slot"] = f"{self.packet_time_ns} ns"
        return table

    def loss_toml(self, slot: bool = True) -> str:
        """`loss = { model = "gilbert", ... }`: the line to paste into a link."""
        fields = ", ".join(f"{k} = {_toml_value(v)}" for k, v in self.loss_config(slot).items())
        return f"loss = {{ {fields} }}"

    def to_dict(self) -> Dict[str, Any]:
        """Every field, 1 - q and the loss table (None for NaN), e.g. for JSON."""
        out: Dict[str, Any] = {k: _none_if_nan(v) for k, v in self.__dict__.items()}
        out["code"] = list(self.code) if self.code is not None else None
        out["one_minus_q"] = _none_if_nan(self.one_minus_q)
        out["loss"] = self.loss_config()
        return out


def fit_markov(mean_snr_db: float, doppler_hz: float, payload_bytes: int = 32,
               code: Optional[Tuple[int, int]] = None, modulation: str = "bpsk",
               rate_bps: int = 1_500_000, packets: Optional[int] = None, seed: int = 1) -> MarkovFit:
    """Fit Chockalingam's two-state chain (Eq. 1) to the Rayleigh channel at mean SNR per
    bit `mean_snr_db` and maximum Doppler `doppler_hz`, for link packets of
    `payload_bytes` data bytes, coded with BCH `code` = (n, k) or not, `modulation`
    "bpsk" or "dpsk", sent back to back at `rate_bps`; `packets` link packets (default
    max(2000 Doppler periods, 10^6)), deterministic in `seed`. ValueError naming the
    field, the value and what is allowed for bad input."""
    if code is not None and len(code) != 2:
        raise ValueError(f"code: {tuple(code)!r} is not allowed; use None or (n, k), e.g. (255, 87)")
    pair = (int(code[0]), int(code[1])) if code is not None else None
    raw = _core.fit_markov(float(mean_snr_db), float(doppler_hz), payload_bytes, pair, modulation,
                           rate_bps, packets, seed)
    assert raw is not None
    closed_q = math.nan
    if 0.0 < raw["p_e"] < 1.0:
        closed_q = threshold_chain_matching(raw["p_e"], doppler_hz, raw["packet_time_s"]).q
    return MarkovFit(
        p_e=raw["p_e"], p_e_se=raw["p_e_se"], p=raw["p"], q=raw["q"], burst=raw["burst"],
        burst_se=raw["burst_se"], packet_time_s=raw["packet_time_s"], packets=raw["packets"],
        closed_form_burst=1.0 / (1.0 - closed_q) if closed_q < 1.0 else math.nan,
        p_se=raw["p_se"], q_se=raw["q_se"], closed_form_q=closed_q,
        packet_time_ns=raw["packet_time_ns"], coded_bits=raw["coded_bits"],
        doppler_periods=raw["doppler_periods"], mean_snr_db=float(mean_snr_db),
        doppler_hz=float(doppler_hz), payload_bytes=payload_bytes,
        code=pair,
        modulation=modulation, rate_bps=rate_bps, seed=seed,
    )


def _clip(x: float) -> float:
    return min(max(x, 0.0), 1.0)


def _toml_value(v: Any) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, float):
        return repr(float(f"{v:.6g}"))
    return str(v)


def _none_if_nan(v: Any) -> Any:
    return None if isinstance(v, float) and math.isnan(v) else v
