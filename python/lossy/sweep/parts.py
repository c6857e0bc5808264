"""Parquet parts: many rows in one file, written atomically, checked when read.

A part is what one batch of runs leaves on disk: `runs/part-<seq>.parquet` (one row per
run) and, beside it, `flows/part-<seq>.parquet` and `links/part-<seq>.parquet` (one row
per flow or link, keyed by run_id). Every part is written to a temp file, fsynced and
renamed, so it is there whole or not at all; its footer says how many rows it holds
(`lossy.rows`, checked on read) and every page carries a CRC (Parquet page checksums,
verified on read), so a flipped byte raises instead of reading back as a wrong value.
The footer has no checksum of its own: the manifest (manifest.py) holds each part's size
and SHA-256, checked when it is read.
"""

from __future__ import annotations

from pathlib import Path
from collections.abc import Mapping
from typing import IO, Any, Callable, Dict, Iterable, Optional, Sequence, Tuple

import pyarrow as pa
import pyarrow.parquet as pq

from ..atomic import atomic_write
from .manifest import FileFacts, facts_of

__all__ = ["BadPart", "READ_ERRORS", "atomic_write", "concat", "read_part", "read_part_and_footer", "rows_table",
           "typed_array", "write_part", "write_table_file"]

Row = Dict[str, Any]

PART_FORMAT = "lossy-part-1"
# What a part cannot be read for: a short or garbled file, a page whose CRC fails, a
# footer that does not say what we wrote.
READ_ERRORS = (pa.ArrowException, OSError, ValueError, KeyError)


class BadPart(ValueError):
    """A part whose footer does not match what was written (rows, format)."""


# --- writing ---------------------------------------------------------------------------


def write_part(path: Path, table: pa.Table, extra: Optional[Mapping[str, str]] = None) -> FileFacts:
    """One part, atomically, with its row count and format in the footer; returns its
    size and hash for the manifest."""
    meta = {"lossy.format": PART_FORMAT, "lossy.rows": str(table.num_rows), **(extra or {})}
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **meta})
    return write_table_file(path, table)


def write_table_file(path: Path, table: pa.Table) -> FileFacts:
    """A table (a part, a trace), atomically, with page checksums; encoded in memory
    first so the bytes hashed for the manifest are the bytes written."""
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, write_page_checksum=True)
    data = sink.getvalue().to_pybytes()
    atomic_write(path, lambda f: f.write(data))
    return facts_of(data)


def rows_table(rows: Sequence[Row]) -> pa.Table:
    """Run rows whose keys may differ (a failed run has no metrics) as one typed table:
    the union of the keys, in the order of the row with the most (an ok run's), so the
    columns come in the same order whichever run finished first; null where a row
    lacks a key."""
    widest = max(rows, key=len)
    try:  # Arrow's C++ infers the types of all columns at once (~0.01 ms a row)
        table = pa.Table.from_struct_array(pa.array(list(rows)))
        if not any(pa.types.is_struct(f.type) or pa.types.is_list(f.type) for f in table.schema):
            return table.select(list(dict.fromkeys([*widest, *table.column_names])))
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        pass
    keys = dict.fromkeys([*widest, *(k for row in rows for k in row)])
    return pa.table({k: typed_array([row.get(k) for row in rows]) for k in keys})


def typed_array(values: Sequence[Any]) -> pa.Array:
    """Arrow's own inference (int64, double, string, bool; ints and floats together
    become double); a column mixing kinds that do not mix (text and numbers) becomes text,
    so one odd value never makes a batch unwritable."""
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        return pa.array([None if v is None else str(v) for v in values], type=pa.string())


# --- reading ---------------------------------------------------------------------------


def read_part(path: Path, columns: Optional[Sequence[str]] = None, expect: Optional[FileFacts] = None) -> pa.Table:
    """A part's rows (only `columns` when given), every page's CRC verified and the row
    count checked against the footer, and the whole file against its manifest facts
    (`expect`); raises one of READ_ERRORS when it cannot be trusted."""
    return read_part_and_footer(path, columns, expect)[0]


def read_part_and_footer(path: Path, columns: Optional[Sequence[str]] = None,
                         expect: Optional[FileFacts] = None) -> Tuple[pa.Table, Dict[str, str]]:
    """read_part, and the footer's key-value metadata (parsed once: a wide part's
    footer is most of its cost to open)."""
    source: Any = path
    if expect is not None:  # the whole file, footer included, is what was written
        data = path.read_bytes()
        why = expect.check(data)
        if why:
            raise BadPart(why)
        source = pa.BufferReader(data)
    f = pq.ParquetFile(source, page_checksum_verification=True)
    meta = {k.decode(): v.decode() for k, v in (f.metadata.metadata or {}).items()}
    if meta.get("lossy.format") != PART_FORMAT:
        raise BadPart(f"{path.name}: not a lossy part")
    rows = int(meta["lossy.rows"])
    if f.metadata.num_rows != rows:
        raise BadPart(f"{path.name}: footer says {rows} rows, the file has {f.metadata.num_rows}")
    present = set(f.schema_arrow.names)
    table = f.read(columns=[c for c in columns if c in present] if columns is not None else None)
    if table.num_rows != rows:
        raise BadPart(f"{path.name}: read {table.num_rows} rows of {rows}")
    return table.replace_schema_metadata(None), meta


def concat(tables: Iterable[pa.Table]) -> pa.Table:
    """Tables whose columns differ (missing columns become null; int and double become
    double). A column whose types cannot be reconciled (text in one part, numbers in
    another, e.g. a store written before mixed axes were refused) becomes text, so a
    store always stays readable."""
    tables = [t for t in tables]
    if not tables:
        return pa.table({})
    try:
        return pa.concat_tables(tables, promote_options="permissive")
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        pass
    kinds: Dict[str, set[pa.DataType]] = {}
    for t in tables:
        for f in t.schema:
            if not pa.types.is_null(f.type):
                kinds.setdefault(f.name, set()).add(f.type)
    clash = {name for name, types in kinds.items() if len(types) > 1}
    numeric = {name for name in clash if all(_is_number(t) for t in kinds[name])}
    fixed = []
    for t in tables:
        for name in clash & set(t.column_names):
            i = t.column_names.index(name)
            col = t.column(i)
            if pa.types.is_null(col.type):
                continue
            t = t.set_column(i, name, col.cast(pa.float64()) if name in numeric else _as_text(col))
        fixed.append(t)
    return pa.concat_tables(fixed, promote_options="permissive")


def _is_number(t: pa.DataType) -> bool:
    return bool(pa.types.is_integer(t) or pa.types.is_floating(t))


def _as_text(col: pa.ChunkedArray) -> pa.Array:
    try:
        return col.cast(pa.string())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return pa.array([None if v is None else str(v) for v in col.to_pylist()], pa.string())
