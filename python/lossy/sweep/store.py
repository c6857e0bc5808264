"""The results store: `results/<sweep>/runs/<run_id>.parquet`, one row per run.

Each run is its own file, written atomically (temp file in the same directory, fsync,
rename), so a sweep killed at any instant leaves whole runs or none: resuming needs no
journal, only the list of files. Each file's footer also carries the run's status,
scenario hash and seed as Parquet key-value metadata, so opening a store reads footers
only (about 0.4 ms a file, against 2 ms for the whole row). A file whose footer cannot
be read (a disk filled up, a kill mid-copy, a truncation) is removed and run again.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import shutil
import subprocess
import uuid
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Mapping, Optional

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

if TYPE_CHECKING:
    import pandas as pd

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, one sweep per store is on the user
    fcntl = None  # type: ignore[assignment]

Row = Dict[str, Any]
TracesOut = Dict[str, Dict[str, np.ndarray]]

META_FILE = "sweep.json"
_FOOTER_KEYS = ("status", "scenario_hash", "seed")  # copied into each file's footer


@dataclass(frozen=True)
class StoredRun:
    status: str  # "ok" | "failed"
    scenario_hash: str
    seed: int


@dataclass
class Store:
    """One sweep's directory. `open()` takes a lock (one writer at a time) and indexes
    every stored run from its footer; `write()` adds one atomically."""

    root: Path
    index: Dict[str, StoredRun] = field(default_factory=dict)  # run_id -> what its footer says
    removed: List[str] = field(default_factory=list)  # run_ids whose file was unreadable
    _lock: Optional[IO[bytes]] = None
    _rows: Dict[str, pa.Table] = field(default_factory=dict)  # rows read so far (--until-ci rereads)

    @property
    def runs_dir(self) -> Path:
        return self.root / "runs"

    def open(self) -> "Store":
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        for stale in self.runs_dir.glob(".*.tmp"):  # a write cut short by a kill
            stale.unlink(missing_ok=True)
        self.index, bad = index_runs(self.runs_dir)
        for path in bad:
            path.unlink(missing_ok=True)
            shutil.rmtree(self.root / "traces" / path.stem, ignore_errors=True)
            self.removed.append(path.stem)
        return self

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file releases the flock
            self._lock = None

    def __enter__(self) -> "Store":
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _take_lock(self) -> None:
        if fcntl is None:
            return
        lock = open(self.root / ".lock", "wb")
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            raise BlockingIOError(
                errno.EWOULDBLOCK, "another lossy sweep is writing to this store", str(self.root)
            ) from None
        self._lock = lock

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        text = json.dumps(meta, indent=1, default=str, allow_nan=True)
        atomic_write(self.root / META_FILE, lambda f: f.write(text.encode()))

    def write(self, row: Row, traces: Optional[TracesOut] = None) -> None:
        write_run(self.root, row, traces)
        self.record(row)

    def record(self, row: Row) -> None:
        """Note a run that was written (here, or by the worker that ran it)."""
        self._rows.pop(str(row["run_id"]), None)
        self.index[str(row["run_id"])] = StoredRun(
            str(row["status"]), str(row["scenario_hash"]), int(row["seed"]))

    def read(self, run_ids: Iterable[str]) -> List[pa.Table]:
        """The rows of these runs (unreadable files left out)."""
        wanted = list(run_ids)
        missing = [rid for rid in wanted if rid not in self._rows]
        tables, _ = read_runs(self.runs_dir, missing)
        for table in tables:
            self._rows[str(table.column("run_id")[0].as_py())] = table
        return [self._rows[rid] for rid in wanted if rid in self._rows]


# --- writing ---------------------------------------------------------------------------


def write_run(root: Path, row: Row, traces: Optional[TracesOut] = None) -> None:
    """Store one run under `root`: its traces first, then its row, so that a stored row
    means its traces are there too. Safe to call from any worker that sees `root`."""
    rid = str(row["run_id"])
    if traces:
        out = root / "traces" / rid
        out.mkdir(parents=True, exist_ok=True)
        for name, columns in traces.items():
            trace = pa.table({k: np.asarray(v) for k, v in columns.items()})
            atomic_write(out / f"{name}.parquet", functools.partial(_write_parquet, trace))
    table = row_table(row)
    atomic_write(root / "runs" / f"{rid}.parquet", functools.partial(_write_parquet, table))


def row_table(row: Row) -> pa.Table:
    """One row with typed columns (int64, double, string, bool; null where absent), and
    the footer keys that let a store be indexed without reading rows."""
    # Typed up front (inferring each column's type takes twice as long), with one schema
    # per shape of row: the runs of a sweep have a handful of shapes between them.
    shape = tuple((k, _arrow_type(v)) for k, v in row.items())
    schema = _schema(shape).with_metadata({f"lossy.{k}": str(row[k]) for k in _FOOTER_KEYS})
    return pa.Table.from_pylist([row], schema=schema)


@functools.lru_cache(maxsize=64)
def _schema(shape: "tuple[tuple[str, pa.DataType], ...]") -> pa.Schema:
    return pa.schema(shape)


_TYPES = {type(None): pa.null(), bool: pa.bool_(), float: pa.float64(), str: pa.string()}


def _arrow_type(value: Any) -> pa.DataType:
    kind = type(value)
    if kind in _TYPES:
        return _TYPES[kind]
    if kind is int:
        return pa.int64() if -(2**63) <= value < 2**63 else pa.uint64()
    return pa.array([value]).type


def _write_parquet(table: pa.Table, f: IO[bytes]) -> None:
    # Statistics, dictionaries and compression buy nothing for one row, and together
    # cost a third of the time of a write.
    pq.write_table(table, f, write_statistics=False, use_dictionary=False, compression="none")


def atomic_write(path: Path, write: Callable[[IO[bytes]], Any]) -> None:
    """Write to a temp file beside `path`, fsync it, then rename over `path`: readers
    see the old file or the whole new one, never half of it."""
    # Not mkstemp: its files are private (0600), and results are often shared. O_EXCL
    # and a random suffix keep concurrent writers apart; the umask sets the mode.
    tmp = path.parent / f".{path.name}.{uuid.uuid4().hex[:12]}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- reading ---------------------------------------------------------------------------


def index_runs(runs_dir: Path) -> "tuple[Dict[str, StoredRun], List[Path]]":
    """Every run file's footer, by run_id, and the files whose footer cannot be read."""
    index: Dict[str, StoredRun] = {}
    bad: List[Path] = []
    for path in sorted(runs_dir.glob("*.parquet")) if runs_dir.is_dir() else []:
        try:
            meta = pq.read_metadata(path)
            keys = {k.decode(): v.decode() for k, v in (meta.metadata or {}).items()}
            if meta.num_rows != 1:
                raise ValueError("not one row")
            index[path.stem] = StoredRun(keys["lossy.status"], keys["lossy.scenario_hash"],
                                         int(keys["lossy.seed"]))
        except (pa.ArrowException, OSError, ValueError, KeyError):
            bad.append(path)
    return index, bad


def read_runs(runs_dir: Path, run_ids: Optional[Iterable[str]] = None) -> "tuple[List[pa.Table], List[Path]]":
    """The rows of the given runs (all when None), and the files that could not be read."""
    paths = (sorted(runs_dir.glob("*.parquet")) if run_ids is None
             else [runs_dir / f"{rid}.parquet" for rid in run_ids])
    tables: List[pa.Table] = []
    bad: List[Path] = []
    for path in paths:
        try:
            table = pq.ParquetFile(path).read()
            if table.num_rows != 1 or "run_id" not in table.column_names:
                raise ValueError("not a run row")
        except (pa.ArrowException, OSError, ValueError):
            bad.append(path)
            continue
        tables.append(table.replace_schema_metadata(None))
    return tables, bad


def to_frame(tables: List[pa.Table]) -> "pd.DataFrame":
    """One DataFrame from run rows whose columns may differ (a failed run has no metrics;
    a variant without agents has no agent columns; a field null in one run and a number
    in another takes the number's type)."""
    import pandas as pd

    if not tables:
        return pd.DataFrame()
    frame: pd.DataFrame = pa.concat_tables(tables, promote_options="permissive").to_pandas()
    return frame


def load(root: "str | os.PathLike[str]") -> "pd.DataFrame":
    """All runs stored under a sweep directory (ok and failed), one row each. Unreadable
    files are skipped with a warning (the next `lossy sweep` redoes them)."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(errno.ENOENT, "no such results directory", str(root))
    tables, bad = read_runs(root / "runs")
    if bad:
        warnings.warn(f"{len(bad)} unreadable run file(s) in {root / 'runs'} skipped "
                      f"(e.g. {bad[0].name}); run the sweep again to redo them", stacklevel=2)
    return to_frame(tables)


def load_meta(root: "str | os.PathLike[str]") -> Dict[str, Any]:
    """What the sweep wrote about itself (axes, metric aliases, points); {} if nothing."""
    try:
        meta: Dict[str, Any] = json.loads((Path(root) / META_FILE).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return meta


# --- provenance ------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def git_commit() -> str:
    """The commit of the lossy source that runs, when it runs from a git checkout;
    "unknown" for an installed package or without git."""
    here = Path(__file__).resolve().parent
    if "site-packages" in here.parts or "dist-packages" in here.parts:
        return "unknown"
    try:
        proc = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                              text=True, timeout=5, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = proc.stdout.strip()
    return commit if proc.returncode == 0 and commit else "unknown"
