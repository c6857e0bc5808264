"""The one reader of a stored run's traces: `<store>/traces/<run_id>/<name>.parquet`,
with the columns the core records (cwnd: time_s, flow, cwnd_bytes, ssthresh_bytes;
seq: time_s, flow, event, seq; throughput: time_s, flow, bps)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .._core import ScenarioError

# The core records an unset ssthresh as u64::MAX (about 1.8e19, 9.2e18 after a cast):
# no window is that large, so it becomes NaN and is not drawn as a line at the top.
_UNSET = 1e18

# Event codes of the seq trace (crates/lossy-core/src/trace.rs), in words.
SEQ_EVENTS = {0: "sent", 1: "resent", 2: "acked"}


class TraceMissing(ScenarioError):
    """A run has no such trace: the sweep did not record it, or the run is not stored."""


def trace_path(store: Path, run_id: str, name: str) -> Path:
    return store / "traces" / run_id / f"{name}.parquet"


def read_trace(store: Path, run_id: str, name: str) -> pd.DataFrame:
    """One trace of one stored run, as a DataFrame (one row per record)."""
    import pyarrow.parquet as pq

    path = trace_path(store, run_id, name)
    if not path.is_file():
        raise TraceMissing(_missing(store, run_id, name))
    df: pd.DataFrame = pq.read_table(path).to_pandas()
    for column in ("ssthresh_bytes", "cwnd_bytes"):
        if column in df.columns:
            df[column] = df[column].where(df[column] < _UNSET, np.nan)
    if "event" in df.columns:
        df["event_name"] = df["event"].map(SEQ_EVENTS)
    return df


def _missing(store: Path, run_id: str, name: str) -> str:
    there = store / "traces" / run_id
    if there.is_dir():
        have = ", ".join(sorted(p.stem for p in there.glob("*.parquet"))) or "none"
        return f"run {run_id} has no trace {name!r} in {there} (recorded: {have})"
    return (f"run {run_id} has no traces in {store / 'traces'}; the sweep must record "
            f"them (traces = [\"{name}\"] in its spec)")


__all__ = ["SEQ_EVENTS", "TraceMissing", "read_trace", "trace_path"]
