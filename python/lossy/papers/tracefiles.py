"""Stored traces as DataFrames for figures and claims: the store's reader
(`lossy.sweep.store.read_trace`) with event codes in words, from the core's legend."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .._core import ScenarioError
from ..traces import event_names


class TraceMissing(ScenarioError):
    """A run has no such trace: the sweep did not record it, or the run is not stored."""


def read_trace(store: Path, run_id: str, name: str) -> pd.DataFrame:
    """One trace of one stored run, one row per record (`event_name` beside a code)."""
    from ..sweep.store import read_trace as read_stored

    try:
        table = read_stored(store, run_id, name)
    except ScenarioError as e:
        raise TraceMissing(f"{e}; the sweep records it with traces = [\"{name}\"] in its spec") from None
    df: pd.DataFrame = table.to_pandas()
    for column, names in event_names(name).items():
        if column in df.columns:
            df[f"{column}_name"] = df[column].map(dict(enumerate(names)))
    return df


__all__ = ["TraceMissing", "read_trace"]
