"""A result section (flows, links) of many runs as one long table.

The core returns `raw["flows"]` as a dict of columns (name -> NumPy array or list of
str); older callers and tests pass a list of dicts, which `lossy.result.section_columns`
turns into columns (nested tables flattened to dotted names first). Workers send the
section as the core gave it; the store stacks a batch's sections here at flush.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
import pyarrow as pa

from ..result import section_columns

Section = Any  # List[Dict[str, Any]] | Dict[str, np.ndarray | List[Any]]


def sections_table(items: Sequence[Tuple[str, Section]]) -> Optional[pa.Table]:
    """The sections of several runs stacked into one long table, a run_id column first
    (nested tables in an item become dotted columns: `tcp.variant`); None when no run
    has an item."""
    columnar: List[Tuple[str, Mapping[str, Any]]] = []
    for rid, value in items:
        columns = value if isinstance(value, Mapping) else section_columns([_flat(d) for d in value])
        if columns and _length(columns):
            columnar.append((rid, columns))
    return _stacked_columns(columnar) if columnar else None


def _length(columns: Mapping[str, Any]) -> int:
    return len(next(iter(columns.values())))


def _stacked_columns(items: Sequence[Tuple[str, Mapping[str, Any]]]) -> pa.Table:
    """Many runs' columns as one table, a column at a time: one np.concatenate per
    column for a whole batch (a table per run cost ~0.1 ms each, the store's largest
    cost per run). A column some runs lack is null in their rows."""
    lengths = [_length(cols) for _, cols in items]
    names: dict[str, None] = {}
    for _, cols in items:
        names.update(dict.fromkeys(cols))
    out = {"run_id": pa.array([rid for (rid, _), n in zip(items, lengths) for _ in range(n)], pa.string())}
    for name in names:
        pieces: List[Any] = [cols.get(name) for _, cols in items]
        if all(isinstance(p, np.ndarray) for p in pieces):
            out[str(name)] = pa.array(np.concatenate(pieces))
            continue
        values: List[Any] = []  # per value, nulls where a run lacks the column
        for piece, n in zip(pieces, lengths):
            values.extend([None] * n if piece is None else
                          piece.tolist() if isinstance(piece, np.ndarray) else list(piece))
        try:
            out[str(name)] = pa.array(values)
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # kinds that do not mix: as text
            out[str(name)] = pa.array([None if v is None else str(v) for v in values], pa.string())
    return pa.table(out)


def _flat(item: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in item.items():
        if isinstance(v, Mapping):
            out.update(_flat(v, f"{prefix}{k}."))
        elif not isinstance(v, (list, tuple, np.ndarray)):
            out[f"{prefix}{k}"] = v.item() if isinstance(v, np.generic) else v
    return out
