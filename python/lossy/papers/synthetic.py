"""Synthetic runs for a claim's examples: the data as they would look with the claimed
effect absent (the null), doubled (the exaggeration) or as the paper states it (the
faithful case). tests/python/test_claims_protocol.py feeds every claim its examples and
asserts that the null and the exaggeration are never "reproduced" and that the faithful
case is: a claim that passes on its null cannot fail, one that fails its faithful case
cannot pass.

`runs` makes rows shaped like a sweep store's: one per point and replication, the axis
columns, `replication`, `seed`, `status`, `run_id`, and each metric. Each replication
carries a shared multiplicative disturbance (the channel every scheme saw at that
replication, as common random numbers give) and a smaller one of its own, drawn from a
fixed seed: a pure function of its arguments.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, Dict, List, Mapping, Sequence, Union

import numpy as np
import pandas as pd

Level = Union[float, Mapping[str, float]]  # one metric's mean, or metric -> mean


def runs(axes: Mapping[str, Sequence[Any]], level: Callable[..., Level], metric: str = "goodput",
         replications: int = 10, spread: float = 0.02, seed: int = 1) -> pd.DataFrame:
    """Rows for every combination of the axes' values × `replications`; `level(**point)`
    gives the metric's mean there (or a dict metric -> mean for several metrics)."""
    rng = np.random.default_rng(seed)
    shared = rng.standard_normal(replications)
    names = list(axes)
    rows: List[Dict[str, Any]] = []
    for i, values in enumerate(itertools.product(*(axes[a] for a in names))):
        point = dict(zip(names, values))
        means = level(**point)
        means = {metric: float(means)} if not isinstance(means, Mapping) else dict(means)
        own = rng.standard_normal(replications)
        for r in range(replications):
            factor = 1 + spread * (shared[r] + 0.5 * own[r])
            rows.append({**point, "run_id": f"p{i}r{r}", "point": f"p{i}", "replication": r, "seed": seed,
                         "status": "ok", "error": None, **{m: v * factor for m, v in means.items()}})
    return pd.DataFrame(rows)


__all__ = ["runs"]
