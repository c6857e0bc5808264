"""Reading a sweep's results store: `lossy.results.load("results/reno-vs-eln")`.

The store itself (layout, atomic writes, provenance) is lossy.sweep.store; this module
is the short public name for reading it, and imports pandas and pyarrow only when used.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, Union

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["load", "load_meta"]

PathLike = Union[str, "os.PathLike[str]"]


def load(path: PathLike) -> "pd.DataFrame":
    """Every run stored under a sweep directory (`results/<name>/`), ok and failed, one
    row each: run_id, point, the axes, replication, seed, status, error, wall_s, every
    summary field and metric alias, and provenance."""
    from .sweep.store import load as _load

    return _load(path)


def load_meta(path: PathLike) -> Dict[str, Any]:
    """The sweep's own description (axes, metric aliases, points) from its sweep.json."""
    from .sweep.store import load_meta as _load_meta

    return _load_meta(path)
