"""Synthetic runs for the claims' examples (lossy.papers.synthetic): rows shaped like
the sweeps' (a `scheme` variant, the loss axis, S1 and S2 throughput), with each
scheme's level a multiple of a Reno-like curve, so a claim's null, faithful and
exaggerated cases differ only in the multiple its words are about."""

from __future__ import annotations

from typing import Any, Callable, Dict, Sequence

import pandas as pd

from .. import synthetic
from ..model import Runs

# A few loss rates of Fig. 10's axis: two of "high loss" and a low one.
PS = (0.1, 0.05, 0.005)


def reno_like(p: float) -> float:
    """Throughput (b/s) of S1 at loss p, falling as 1/√p; S2 gets 0.8 of it."""
    return float(1e5 / p ** 0.5)


def fig10(schemes: Dict[str, Callable[[float], float]], axis: str = "p", values: Sequence[float] = PS,
          extra: Dict[str, float] | None = None) -> pd.DataFrame:
    """Rows for each scheme whose S1 and S2 are its multiple `schemes[s](p)` of the
    Reno-like curve (at `axis` = p, or at p = 0.02 when the axis is another one)."""
    def level(**point: float) -> Dict[str, float]:
        x = point[axis]
        p = x if axis == "p" else 0.02
        m = schemes[str(point["scheme"])](x)
        return {"S1": m * reno_like(p), "S2": 0.8 * m * reno_like(p), **(extra or {})}
    return synthetic.runs({axis: list(values), "scheme": list(schemes)}, level)


def constant(m: float) -> Callable[[float], float]:
    return lambda x: m


def one_sweep(name: str, schemes: Dict[str, Callable[[float], float]], **kw: Any) -> Callable[[], Runs]:
    """An example of a claim that reads the one sweep `name`."""
    return lambda: {name: fig10(schemes, **kw)}


__all__ = ["PS", "constant", "fig10", "one_sweep", "reno_like"]
