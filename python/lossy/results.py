"""Reading a sweep's results store: `lossy.results.load("results/reno-vs-eln")`.

The store itself (layout, atomic writes, provenance) is lossy.sweep.store; this module
is the short public name for reading it, and imports pandas and pyarrow only when used.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, Union

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

__all__ = ["load", "load_flows", "load_meta", "read_trace"]

PathLike = Union[str, "os.PathLike[str]"]


def load(path: PathLike) -> "pd.DataFrame":
    """Every run stored under a sweep directory (`results/<name>/`), ok and failed, one
    row each: run_id, point, the axes, replication, seed, status, error, wall_s, every
    summary field and metric alias, and provenance. A directory that is not a store,
    or a store with no runs yet, raises ScenarioError (one line)."""
    from .sweep.store import load as _load

    return _load(path)


def load_flows(path: PathLike, section: str = "flows") -> "pd.DataFrame":
    """One row per flow of every stored run (typed columns from the core), with the
    run's run_id, point, axes and replication; `section="links"` gives the links."""
    from .sweep.store import SECTIONS, load_flows as _load_flows
    from ._core import ScenarioError

    if section not in SECTIONS:
        raise ScenarioError(f"section: {section!r} is not stored; use one of {', '.join(SECTIONS)}")
    return _load_flows(path, section)


def read_trace(path: PathLike, run_id: str, name: str) -> "pa.Table":
    """One stored trace of one run (`traces/<run_id>/<name>.parquet`)."""
    from .sweep.store import read_trace as _read_trace

    return _read_trace(path, run_id, name)


def load_meta(path: PathLike) -> Dict[str, Any]:
    """The sweep's own description (axes, metric aliases, points) from its sweep.json."""
    from .sweep.store import load_meta as _load_meta

    return _load_meta(path)
