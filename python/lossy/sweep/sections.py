"""A result section (flows, links) as a table, whatever shape the core returns it in.

The core returns `raw["flows"]` as a dict of columns (name -> NumPy array or list of
str); older callers and tests pass a list of dicts (one per flow). This is the one place
that knows both shapes. Workers send the section as the core gave it; the store stacks a batch's
sections here, in Arrow's C++ (a list of dicts is read as one struct array), which
costs ~5 µs a flow against ~50 µs a run to convert in Python.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np
import pyarrow as pa

from .parts import concat, rows_table

Section = Any  # List[Dict[str, Any]] | Dict[str, np.ndarray | List[Any]]


def sections_table(items: Sequence[Tuple[str, Section]]) -> Optional[pa.Table]:
    """The sections of several runs stacked into one long table, a run_id column first
    (nested tables in an item become dotted columns: `tcp.variant`); None when no run
    has an item."""
    dicts: List[Any] = []
    dict_ids: List[str] = []
    columnar: List[Tuple[str, Mapping[str, Any]]] = []
    for rid, value in items:
        if isinstance(value, Mapping):
            if value and _length(value):
                columnar.append((rid, value))
        elif value:
            dicts.extend(value)
            dict_ids.extend([rid] * len(value))
    tables = []
    if dicts:
        table = _dicts_table(dicts)
        tables.append(table.add_column(0, "run_id", pa.array(dict_ids, pa.string())))
    if columnar:
        tables.append(_stacked_columns(columnar))
    return concat(tables) if tables else None


def column_table(columns: Mapping[str, Any]) -> pa.Table:
    """A dict of columns (arrays or lists) as a table."""
    return pa.table({str(k): (v if isinstance(v, np.ndarray) else list(v)) for k, v in columns.items()})


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
        elif all(isinstance(p, list) for p in pieces):
            out[str(name)] = pa.array([v for p in pieces for v in p])
        else:  # missing in some runs, or of another kind: per value, nulls where absent
            values: List[Any] = []
            for piece, n in zip(pieces, lengths):
                values.extend([None] * n if piece is None else
                              piece.tolist() if isinstance(piece, np.ndarray) else list(piece))
            out[str(name)] = pa.array(values)
    return pa.table(out)


def _dicts_table(dicts: List[Any]) -> pa.Table:
    try:
        table = pa.Table.from_struct_array(pa.array(dicts))
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # a key whose kinds do not mix: per column
        return rows_table([_flat(d) for d in dicts])
    while any(pa.types.is_struct(f.type) for f in table.schema):
        table = table.flatten()
    # Per-item lists (none today) would be traces, not columns.
    keep = [f.name for f in table.schema if not pa.types.is_list(f.type)]
    return table.select(keep)


def _flat(item: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in item.items():
        if isinstance(v, Mapping):
            out.update(_flat(v, f"{prefix}{k}."))
        elif not isinstance(v, (list, tuple, np.ndarray)):
            out[f"{prefix}{k}"] = v.item() if isinstance(v, np.generic) else v
    return out
