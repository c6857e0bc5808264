"""The index of a results store: which runs it holds and in which part, and which files
cannot be trusted (store.py writes and reads them; manifest.py records what was written).

A part is checked before its runs are counted: against the manifest (its whole runs file
by SHA-256, its flows and links files by size, whole when they are read), else (a store
from before the manifest) by the old checks: footer format and row count, page CRCs, its
flows and links parts present.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pyarrow as pa
import pyarrow.parquet as pq

from .manifest import Entry, FileFacts, describe, facts_of, read_manifest
from .parts import READ_ERRORS, read_part_and_footer

__all__ = ["INDEX_COLUMNS", "PART", "Bad", "StoredRun", "TraceFacts", "check_file", "file_facts", "index_parts", "index_store",
           "read_single", "trace_files", "why_unusable"]

INDEX_COLUMNS = ("run_id", "status", "scenario_hash", "seed")
PART = re.compile(r"^part-(\d+)\.parquet$")
TraceFacts = Dict[str, FileFacts]  # trace name -> the file written


@dataclass(frozen=True)
class StoredRun:
    status: str  # "ok" | "failed"
    scenario_hash: str
    seed: int
    source: str = ""  # the file under runs/ that holds its row; "" while buffered



def why_unusable(e: BaseException) -> str:
    """A read error as the reason a warning line gives."""
    if isinstance(e, FileNotFoundError):
        return "missing (the manifest lists it)"
    text = describe(e)
    return text if text.startswith("altered") else f"unreadable ({text})"


def file_facts(path: Path) -> FileFacts:
    return facts_of(path.read_bytes())


def check_file(path: Path, facts: FileFacts) -> Optional[str]:
    """Why `path` is not the file the manifest recorded (None when it is)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return "missing (the manifest lists it)"
    except OSError as e:
        return f"unreadable ({e.strerror or e})"
    return facts.check(data)


def trace_files(root: Path, run_id: str) -> Tuple[TraceFacts, List[Path]]:
    """A run's trace files as they are now (migrating a store): the facts of those
    Parquet can read, and the paths of those it cannot."""
    out: TraceFacts = {}
    unreadable: List[Path] = []
    for path in sorted((root / "traces" / run_id).glob("*.parquet")):
        try:
            data = path.read_bytes()
            pq.ParquetFile(pa.BufferReader(data), page_checksum_verification=True).read()
        except READ_ERRORS:
            unreadable.append(path)
            continue
        out[path.stem] = facts_of(data)
    return out, unreadable


Bad = Tuple[str, str, Optional[int], str]  # (part, why, its runs if known, the bad file)


def index_store(root: Path) -> "Tuple[Dict[str, StoredRun], List[str]]":
    """Every stored run by run_id (newest row wins), and the names of the files under
    runs/ that cannot be trusted."""
    found = read_manifest(root)
    index, bad = index_parts(root, None if found is None else found[0])
    return index, [b[0] for b in bad]


def index_parts(root: Path, manifest: Optional[Dict[str, Entry]]) -> "Tuple[Dict[str, StoredRun], List[Bad]]":
    """Every stored run by run_id (newest row wins), and the batches that cannot be
    trusted, with why. With a manifest each runs part is checked whole against it and
    its flows and links parts by size (whole when read), a part without an entry is not
    committed (not read), and an entry without its part is a deleted part; without one
    (a store from before), the old checks. Reads footers and the four index columns."""
    runs_dir = root / "runs"
    index: Dict[str, StoredRun] = {}
    bad: List[Bad] = []
    files = sorted(runs_dir.glob("*.parquet")) if runs_dir.is_dir() else []
    singles = [p for p in files if not PART.match(p.name)]
    names = {p.name for p in files if PART.match(p.name)}
    if manifest is not None:
        for name, listed in manifest.items():
            if name not in names:
                bad.append((name, "missing (the manifest lists it)", listed.runs, f"runs/{name}"))
        names &= set(manifest)
    parts = sorted(names, key=lambda n: int(PART.match(n).group(1)))  # type: ignore[union-attr]
    for path in singles:
        try:
            index[path.stem] = single_index(path)
        except READ_ERRORS as e:
            bad.append((path.name, why_unusable(e), 1, f"runs/{path.name}"))
    for name in parts:
        path = runs_dir / name
        entry = manifest.get(name) if manifest is not None else None
        try:
            table, footer = read_part_and_footer(path, INDEX_COLUMNS, entry.files.get(f"runs/{name}") if entry else None)
            sections = footer.get("lossy.sections", "")
            for s in (x for x in sections.split(",") if x):
                _check_section(root / s / name, entry.files.get(f"{s}/{name}") if entry else None)
        except SectionProblem as e:
            bad.append((name, str(e), entry.runs if entry else None, e.file))
            continue
        except READ_ERRORS as e:
            bad.append((name, why_unusable(e), entry.runs if entry else None, f"runs/{name}"))
            continue
        cols = {c: table.column(c).to_pylist() if c in table.column_names else [None] * table.num_rows
                for c in INDEX_COLUMNS}
        for rid, status, shash, seed in zip(*(cols[c] for c in INDEX_COLUMNS)):
            index[str(rid)] = StoredRun(str(status), str(shash or ""), int(seed or 0), name)
    return index, bad


class SectionProblem(ValueError):
    """A batch's flows or links part is missing or not the size it was written."""

    def __init__(self, why: str, file: str) -> None:
        super().__init__(why)
        self.file = file


def _check_section(path: Path, facts: Optional[FileFacts]) -> None:
    """A flows or links part is there, with the size the manifest says (its hash is
    checked when it is read, and by the writer's open)."""
    file = f"{path.parent.name}/{path.name}"
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise SectionProblem("missing (its runs part lists it)", file) from None
    if facts is not None and size != facts.size:
        raise SectionProblem(f"altered or replaced since it was written ({size:,} bytes, "
                             f"the manifest says {facts.size:,})", file)


def single_index(path: Path) -> StoredRun:
    """A one-run file's facts from its footer (or, for a file without our footer keys,
    from its columns)."""
    meta = pq.read_metadata(path)
    if meta.num_rows != 1:
        raise ValueError("not one row")
    keys = {k.decode(): v.decode() for k, v in (meta.metadata or {}).items()}
    if "lossy.status" in keys:
        return StoredRun(keys["lossy.status"], keys["lossy.scenario_hash"], int(keys["lossy.seed"]), path.name)
    row = read_single(path).to_pylist()[0]
    return StoredRun(str(row.get("status")), str(row.get("scenario_hash") or ""), int(row.get("seed") or 0), path.name)


def read_single(path: Path, columns: Optional[List[str]] = None) -> pa.Table:
    if columns is not None:
        present = set(pq.read_schema(path).names)
        columns = [c for c in columns if c in present]
    table = pq.read_table(path, columns=columns)
    if table.num_rows != 1 or "run_id" not in table.column_names:
        raise ValueError("not a run row")
    return table.replace_schema_metadata(None)
