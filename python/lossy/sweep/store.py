"""The results store: `results/<sweep>/`, run rows written in batches.

    runs/part-<seq>.parquet     one row per run, a batch at a time (parts.py)
    flows/part-<seq>.parquet    one row per flow of those runs (run_id + typed columns)
    links/part-<seq>.parquet    one row per link, the same way
    traces/<run_id>/<name>.parquet
    runs/<run_id>.parquet       one row: a store written before batches (still read)
    quarantine/                 parts that could not be read, kept for a post-mortem

Rows are buffered and written as one part every PART_ROWS runs or PART_SECONDS seconds,
atomically; a run's traces are written before its row is buffered. A sweep killed at
any instant so loses at most the unflushed batch, whose runs are simply not in the
store and are run again on resume: no journal, only the list of parts. The runs part of
a batch is written last (after its flows and links parts), so it is the commit point.

A run_id may be in several parts (a failed run retried): the newest part wins, and a
part is newer than every one-file-per-run file. Opening a store reads four columns of
each part (run_id, status, scenario_hash, seed), never the rest. A part that cannot be
read (a short file, a page whose CRC fails, fewer rows than its footer says) is moved
to quarantine/ and its runs are run again by the next sweep.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import re
import subprocess
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .._core import ScenarioError
from .parts import (READ_ERRORS, atomic_write, concat, read_part, read_part_and_footer, rows_table,
                    write_part, write_table_file)
from .sections import Section, sections_table

if TYPE_CHECKING:
    import pandas as pd

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, one sweep per store is on the user
    fcntl = None  # type: ignore[assignment]

__all__ = ["Store", "StoredRun", "atomic_write", "load", "load_flows", "load_meta", "read_trace"]

Row = Dict[str, Any]
TracesOut = Dict[str, Dict[str, np.ndarray]]

META_FILE = "sweep.json"
SECTIONS = ("flows", "links")  # per-item tables stored beside the run rows
# A batch is flushed at PART_ROWS runs or PART_SECONDS after its first row, whichever
# comes first. 1,000 rows make a part of ~100 kB that costs ~10 ms to write (0.01 ms a
# run, against ~3 ms for a file per run); 5 s bounds what a kill loses to 5 s of work
# and keeps a day-long sweep under ~20,000 parts (opening reads ~1 ms a part).
# LOSSY_STORE_BATCH_S sets another T (tests use 0.2 s to watch rows land).
PART_ROWS = 1000
PART_SECONDS = float(os.environ.get("LOSSY_STORE_BATCH_S", "") or 5.0)
PART_SECTION_ROWS = 200_000  # flows + links rows buffered: big runs flush sooner
INDEX_COLUMNS = ("run_id", "status", "scenario_hash", "seed")
_PART = re.compile(r"^part-(\d+)\.parquet$")


@dataclass(frozen=True)
class StoredRun:
    status: str  # "ok" | "failed"
    scenario_hash: str
    seed: int
    source: str = ""  # the file under runs/ that holds its row; "" while buffered


@dataclass
class Store:
    """One sweep's directory. `open()` takes a lock (one writer at a time), indexes the
    stored runs and quarantines what cannot be read; `add()` buffers a run's row and
    writes a part when the batch is due; `close()` writes what is left."""

    root: Path
    index: Dict[str, StoredRun] = field(default_factory=dict)  # run_id -> the newest row's facts
    removed: List[str] = field(default_factory=list)  # files quarantined (their runs are redone)
    _lock: Optional[IO[bytes]] = None
    _pending: Dict[str, Tuple[Row, Dict[str, Section]]] = field(default_factory=dict)
    _pending_since: float = 0.0
    _pending_items: int = 0
    _seq: int = 0
    _cache: Dict[str, pa.Table] = field(default_factory=dict)  # source -> its rows (--until-ci rereads)

    @property
    def runs_dir(self) -> Path:
        return self.root / "runs"

    # --- opening and closing -----------------------------------------------------------

    def open(self) -> "Store":
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        for d in (self.runs_dir, *(self.root / s for s in SECTIONS)):
            for stale in d.glob(".*.tmp") if d.is_dir() else []:  # a write cut short by a kill
                stale.unlink(missing_ok=True)
        self.scan()
        for s in SECTIONS:  # a batch killed between its flows part and its runs part
            for orphan in (self.root / s).glob("part-*.parquet") if (self.root / s).is_dir() else []:
                if not (self.runs_dir / orphan.name).exists():
                    orphan.unlink(missing_ok=True)
        return self

    def scan(self) -> "Store":
        """Index every stored run (newest row wins); quarantine what cannot be read when
        no other sweep holds the store, else leave it and warn."""
        self.index, bad = index_store(self.root)
        for name in bad:
            self._set_aside(name)
        parts = [int(m.group(1)) for p in self.runs_dir.glob("part-*.parquet")
                 if (m := _PART.match(p.name))] if self.runs_dir.is_dir() else []
        self._seq = max(parts, default=-1) + 1
        return self

    def close(self) -> None:
        try:
            if self._lock is not None:
                self.flush()
        finally:
            if self._lock is not None:
                self._lock.close()  # closing the file releases the flock
                self._lock = None

    def __enter__(self) -> "Store":
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _take_lock(self) -> None:
        if not self._try_lock():
            raise BlockingIOError(errno.EWOULDBLOCK, "another lossy sweep is writing to this store",
                                  str(self.root))

    def _try_lock(self) -> bool:
        if fcntl is None or self._lock is not None:
            return True
        lock = open(self.root / ".lock", "wb")
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            return False
        self._lock = lock
        return True

    # --- writing -----------------------------------------------------------------------

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        text = json.dumps(meta, indent=1, default=str, allow_nan=True)
        atomic_write(self.root / META_FILE, lambda f: f.write(text.encode()))

    def add(self, row: Row, sections: Optional[Dict[str, Section]] = None,
            traces: Optional[TracesOut] = None) -> None:
        """Buffer one run (its traces, if any, are written now: before its row)."""
        rid = str(row["run_id"])
        if traces:
            write_traces(self.root, rid, traces)
        if not self._pending:
            self._pending_since = time.monotonic()
        self._pending[rid] = (row, sections or {})
        self._pending_items += sum(_items(v) for v in (sections or {}).values())
        self.index[rid] = StoredRun(str(row["status"]), str(row["scenario_hash"]), int(row["seed"]))
        if len(self._pending) >= PART_ROWS or self._pending_items >= PART_SECTION_ROWS:
            self.flush()

    def flush_if_due(self) -> None:
        if self._pending and time.monotonic() - self._pending_since >= PART_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Write the buffered runs as one part: flows and links first, the runs last."""
        if not self._pending:
            return
        name = f"part-{self._seq:08d}.parquet"
        self._seq += 1
        written = []
        for s in SECTIONS:
            table = sections_table([(rid, secs[s]) for rid, (_, secs) in self._pending.items() if s in secs])
            if table is not None:
                (self.root / s).mkdir(exist_ok=True)
                write_part(self.root / s / name, table)
                written.append(s)
        rows = rows_table([self._pending[rid][0] for rid in sorted(self._pending)])
        write_part(self.runs_dir / name, rows, {"lossy.sections": ",".join(written)})
        for rid in self._pending:
            self.index[rid] = replace(self.index[rid], source=name)
        self._pending.clear()
        self._pending_items = 0

    # --- reading -----------------------------------------------------------------------

    def read(self, run_ids: Iterable[str], columns: Optional[List[str]] = None) -> pa.Table:
        """The newest rows of these runs (those in unreadable parts left out); only
        `columns` (those that exist) when given."""
        self.flush()
        return concat(self._pick("runs", run_ids, columns))

    def read_section(self, section: str, run_ids: Iterable[str]) -> pa.Table:
        """The flows (or links) rows of these runs; runs stored without them have none."""
        self.flush()
        return concat(self._pick(section, run_ids))

    def _pick(self, where: str, run_ids: Iterable[str], columns: Optional[List[str]] = None) -> List[pa.Table]:
        by_source: Dict[str, List[str]] = {}
        for rid in run_ids:
            stored = self.index.get(rid)
            if stored is not None:
                by_source.setdefault(stored.source, []).append(rid)
        out = []
        for source, rids in sorted(by_source.items()):
            table = self._source_table(where, source, columns)
            if table is None:
                continue
            if table.num_rows == 1 and where == "runs" and not _PART.match(source):
                out.append(table)  # a one-run file: its one row
            else:
                out.append(table.filter(pc.is_in(table.column("run_id"), pa.array(rids, pa.string()))))
        return out

    def _source_table(self, where: str, source: str, columns: Optional[List[str]] = None) -> Optional[pa.Table]:
        key = f"{where}/{source}"
        if key in self._cache:
            table = self._cache[key]
            return table.select([c for c in columns if c in table.column_names]) if columns else table
        path = self.root / where / source
        if where != "runs" and not path.exists():
            return None  # a batch without flows, or a run stored before flows were
        try:
            if columns is not None:  # a projection: not cached (the whole table may be wanted later)
                wanted = list(dict.fromkeys(["run_id", *columns]))
                return read_part(path, wanted) if _PART.match(source) else _read_single(path, wanted)
            self._cache[key] = read_part(path) if _PART.match(source) else _read_single(path)
        except READ_ERRORS:
            self._set_aside(source)
            return None
        return self._cache[key]

    def _set_aside(self, name: str) -> None:
        """An unreadable file: its runs leave the index; when no sweep holds the store it
        moves to quarantine/ (the next sweep runs them again), else it stays and we warn."""
        self.index = {rid: r for rid, r in self.index.items() if r.source != name}
        self.removed.append(Path(name).stem if not _PART.match(name) else name)
        held_before = self._lock is not None
        if self._try_lock():
            try:
                q = self.root / "quarantine"
                q.mkdir(exist_ok=True)
                for d in ("runs", *SECTIONS):
                    src = self.root / d / name
                    if src.exists():
                        dest = q / f"{d}-{name}"
                        if dest.exists():  # a part of the same name set aside before
                            dest = q / f"{d}-{int(time.time() * 1e3)}-{name}"
                        os.replace(src, dest)
                        self._cache.pop(f"{d}/{name}", None)
            finally:
                if not held_before and self._lock is not None:
                    self._lock.close()
                    self._lock = None
            if not held_before:
                warnings.warn(f"{self.root}: unreadable {name} moved to quarantine/ with its batch; "
                              "run the sweep again to redo its runs", stacklevel=4)
        else:
            warnings.warn(f"{self.root}: unreadable {name} skipped with its batch; run the sweep "
                          "again to redo its runs", stacklevel=4)


def _items(section: Section) -> int:
    if isinstance(section, Mapping):  # columns of equal length: the first says how many rows
        return len(next(iter(section.values()), ()))
    return len(section)


def write_traces(root: Path, run_id: str, traces: TracesOut) -> None:
    """`traces/<run_id>/<name>.parquet`, each atomically (mode 0644)."""
    out = root / "traces" / run_id
    out.mkdir(parents=True, exist_ok=True)
    for name, columns in traces.items():
        table = pa.table({k: np.asarray(v) for k, v in columns.items()})
        write_table_file(out / f"{name}.parquet", table)


# --- the index -------------------------------------------------------------------------


def index_store(root: Path) -> "Tuple[Dict[str, StoredRun], List[str]]":
    """Every stored run by run_id (newest row wins), and the names of the files under
    runs/ that cannot be read. Reads footers and the four index columns only."""
    runs_dir = root / "runs"
    index: Dict[str, StoredRun] = {}
    bad: List[str] = []
    files = sorted(runs_dir.glob("*.parquet")) if runs_dir.is_dir() else []
    singles = [p for p in files if not _PART.match(p.name)]
    parts = sorted((p for p in files if _PART.match(p.name)), key=lambda p: int(_PART.match(p.name).group(1)))  # type: ignore[union-attr]
    for path in singles:
        try:
            index[path.stem] = _single_index(path)
        except READ_ERRORS:
            bad.append(path.name)
    for path in parts:
        try:
            table, footer = read_part_and_footer(path, INDEX_COLUMNS)
            sections = footer.get("lossy.sections", "")
            if any(not (root / s / path.name).exists() for s in sections.split(",") if s):
                raise ValueError("a section part is missing")
        except READ_ERRORS:
            bad.append(path.name)
            continue
        cols = {c: table.column(c).to_pylist() if c in table.column_names else [None] * table.num_rows
                for c in INDEX_COLUMNS}
        for rid, status, shash, seed in zip(*(cols[c] for c in INDEX_COLUMNS)):
            index[str(rid)] = StoredRun(str(status), str(shash or ""), int(seed or 0), path.name)
    return index, bad


def _single_index(path: Path) -> StoredRun:
    """A one-run file's facts from its footer (or, for a file without our footer keys,
    from its columns)."""
    meta = pq.read_metadata(path)
    if meta.num_rows != 1:
        raise ValueError("not one row")
    keys = {k.decode(): v.decode() for k, v in (meta.metadata or {}).items()}
    if "lossy.status" in keys:
        return StoredRun(keys["lossy.status"], keys["lossy.scenario_hash"], int(keys["lossy.seed"]), path.name)
    row = _read_single(path).to_pylist()[0]
    return StoredRun(str(row.get("status")), str(row.get("scenario_hash") or ""), int(row.get("seed") or 0), path.name)


def _read_single(path: Path, columns: Optional[List[str]] = None) -> pa.Table:
    if columns is not None:
        present = set(pq.read_schema(path).names)
        columns = [c for c in columns if c in present]
    table = pq.read_table(path, columns=columns)
    if table.num_rows != 1 or "run_id" not in table.column_names:
        raise ValueError("not a run row")
    return table.replace_schema_metadata(None)


# --- reading a store -------------------------------------------------------------------


def to_frame(table: pa.Table) -> "pd.DataFrame":
    import pandas as pd

    if table.num_columns == 0:
        return pd.DataFrame()
    frame: pd.DataFrame = table.to_pandas()
    return frame


def open_store(root: "str | os.PathLike[str]") -> Store:
    """A store to read (no lock held), or one ScenarioError line when `root` is not a
    store or holds no runs."""
    path = Path(root)
    if not path.exists():  # the CLI prints it as `lossy: DIR: no such results directory`
        raise FileNotFoundError(errno.ENOENT, "no such results directory", str(path))
    if not path.is_dir():
        raise ScenarioError(f"{path} is not a results store: it is a file")
    entries = sorted(p.name + ("/" if p.is_dir() else "") for p in path.iterdir() if not p.name.startswith("."))
    if not (path / "runs").is_dir() and not (path / META_FILE).is_file() and entries:
        shown = ", ".join(entries[:5]) + (f", ... ({len(entries)} entries)" if len(entries) > 5 else "")
        raise ScenarioError(f"{path} is not a results store (no runs/ or {META_FILE}); it holds {shown}")
    store = Store(path).scan()
    if not store.index:
        raise ScenarioError(f"no runs stored in {path}; run `lossy sweep` with --out {path} first")
    return store


def load(root: "str | os.PathLike[str]") -> "pd.DataFrame":
    """All runs stored under a sweep directory (ok and failed), one row each (the newest
    row of a retried run). Unreadable parts are set aside with a warning."""
    store = open_store(root)
    table = store.read(list(store.index))
    if table.num_rows == 0:  # every part was set aside
        raise ScenarioError(f"no runs stored in {root} can be read ({', '.join(store.removed)} set aside); "
                            "run the sweep again to redo them")
    return to_frame(table)


def load_flows(root: "str | os.PathLike[str]", section: str = "flows") -> "pd.DataFrame":
    """The long table of every stored run's flows (or links): one row per flow, with
    the run's point, axes and replication joined."""
    store = open_store(root)
    axes = [str(a["name"]) for a in load_meta(root).get("axes", []) if "name" in a]
    return joined_section(store, list(store.index), section, axes)


def joined_section(store: Store, run_ids: List[str], section: str, axes: List[str]) -> "pd.DataFrame":
    keys = list(dict.fromkeys(["run_id", "point", *axes, "replication"]))
    runs = store.read(run_ids, columns=keys)  # a projection: a run row may be wide
    items = to_frame(store.read_section(section, run_ids))
    if items.empty:
        return to_frame(runs).iloc[0:0]
    frame: pd.DataFrame = to_frame(runs).merge(items, on="run_id", how="inner", suffixes=("", f".{section}"))
    return frame


def read_trace(root: "str | os.PathLike[str]", run_id: str, name: str) -> pa.Table:
    """One stored trace of one run: `traces/<run_id>/<name>.parquet`."""
    path = Path(root) / "traces" / run_id / f"{name}.parquet"
    if not path.is_file():
        have = sorted(p.stem for p in path.parent.glob("*.parquet")) if path.parent.is_dir() else []
        stored = f"stored: {', '.join(have)}" if have else "none stored for that run"
        raise ScenarioError(f"trace {name!r} of run {run_id}: not in {Path(root)} ({stored})")
    table: pa.Table = pq.read_table(path)
    return table


def load_meta(root: "str | os.PathLike[str]") -> Dict[str, Any]:
    """What the sweep wrote about itself (axes, metric aliases, points); {} if nothing."""
    try:
        meta: Dict[str, Any] = json.loads((Path(root) / META_FILE).read_text(encoding="utf-8"))
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return {}
    return meta


# --- provenance ------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def git_commit() -> str:
    """The commit of the lossy source that runs: asked of git when it runs from a
    checkout, else the one its compiled core was built from (an installed wheel;
    crates/lossy-py/build.rs records it), "unknown" when neither knows."""
    from .. import _core

    built = _core.build_commit()
    here = Path(__file__).resolve().parent
    if "site-packages" in here.parts or "dist-packages" in here.parts:
        return built
    try:
        proc = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                              text=True, timeout=5, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return built
    commit = proc.stdout.strip()
    return commit if proc.returncode == 0 and commit else built
