"""ns-3 3.44's numbers for the SACK comparison, measured once with the anchor
(python/lossy/anchors/ns3/bulk.cc, `--sack=1 --counters=1`, 10 runs per point, 100 s) by
tools/ns3_sack_reference.py and kept in ns3_sack.csv beside this file: the reference
column of the comparison, read here rather than rerun (ns-3 is not a dependency)."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

import pandas as pd

# The windows of the comparison, by the sweep's axis value: bytes of the socket buffers.
WINDOWS = {"32 KB": 32_768, "16 MiB": 16_777_216}


@lru_cache(maxsize=1)
def ns3_sack_runs() -> pd.DataFrame:
    with files(__package__).joinpath("ns3_sack.csv").open() as f:
        return pd.read_csv(f)


def ns3_point(window: str, p: float) -> pd.DataFrame:
    """ns-3's runs at one point: goodput_bps and its counters, one row per run."""
    runs = ns3_sack_runs()
    rows = runs[(runs["buffer_bytes"] == WINDOWS[window]) & (runs["p"].round(6) == round(p, 6))]
    if rows.empty:
        raise KeyError(f"ns-3 has no runs at window {window}, p = {p:g}")
    return rows


def ns3_goodput_bps(window: str, p: float) -> float:
    return float(ns3_point(window, p)["goodput_bps"].mean())
