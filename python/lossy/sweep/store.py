"""The results store: `results/<sweep>/`, run rows written in batches.

    runs/part-<seq>.parquet     one row per run, a batch at a time (parts.py)
    flows/part-<seq>.parquet    one row per flow of those runs (run_id + typed columns)
    links/part-<seq>.parquet    one row per link, the same way
    traces/<run_id>/<name>.parquet
    manifest/part-<seq>.json    a batch's commit: the size and SHA-256 of its parts and
                                traces (manifest.py)
    runs/<run_id>.parquet       one row: a store written before batches (still read)
    quarantine/                 parts that could not be read, kept for a post-mortem

Rows are buffered and written as one part every PART_ROWS runs or PART_SECONDS seconds,
atomically; a run's traces are written before its row is buffered. A sweep killed at
any instant so loses at most the unflushed batch, whose runs are simply not in the
store and are run again on resume. A batch's manifest entry is written last (after its
flows, links and runs parts), so it is the commit point.

A run_id may be in several parts (a failed run retried): the newest part wins, and a
part is newer than every one-file-per-run file. Opening a store reads four columns of
each part (run_id, status, scenario_hash, seed) after checking the file's hash against
the manifest. A part that cannot be trusted (missing, altered or replaced, a short file,
a page whose CRC fails, fewer rows than its footer says) is reported in one warning line,
moved to quarantine/ (when the store can be written and no sweep holds it) and its runs
are run again by the next sweep; so is a run whose trace file is missing or altered.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import subprocess
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Set, Tuple

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .._core import ScenarioError
from .manifest import (MANIFEST_DIR, Entry, FileFacts, describe, discard_migration, entry_path,
                       read_manifest, write_entries, write_entry)
from .index import (PART, StoredRun, TraceFacts, check_file, file_facts, index_parts, index_store,
                    read_single, trace_files, why_unusable)
from .parts import READ_ERRORS, atomic_write, concat, read_part, rows_table, write_part, write_table_file
from .sections import Section, sections_table

if TYPE_CHECKING:
    import pandas as pd

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, one sweep per store is on the user
    fcntl = None  # type: ignore[assignment]

__all__ = ["Store", "StoredRun", "atomic_write", "index_store", "load", "load_flows", "load_meta", "read_trace"]

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
_PART = PART


@dataclass
class Store:
    """One sweep's directory. `open()` takes a lock (one writer at a time), indexes the
    stored runs, checks every file against the manifest and quarantines what cannot be
    trusted; `add()` buffers a run's row and writes a part when the batch is due;
    `close()` writes what is left."""

    root: Path
    index: Dict[str, StoredRun] = field(default_factory=dict)  # run_id -> the newest row's facts
    removed: List[str] = field(default_factory=list)  # files quarantined (their runs are redone)
    manifest: Optional[Dict[str, Entry]] = None  # part -> its entry; None: a store from before manifests
    _lock: Optional[IO[bytes]] = None
    _pending: Dict[str, Tuple[Row, Dict[str, Section]]] = field(default_factory=dict)
    _pending_traces: Dict[str, TraceFacts] = field(default_factory=dict)
    _pending_since: float = 0.0
    _pending_items: int = 0
    _seq: int = 0
    _cache: Dict[str, pa.Table] = field(default_factory=dict)  # source -> its rows (--until-ci rereads)
    _verified: Set[str] = field(default_factory=set)  # files whose hash was checked by this Store
    _bad_entries: List[str] = field(default_factory=list)  # manifest/ files that cannot be read

    @property
    def runs_dir(self) -> Path:
        return self.root / "runs"

    # --- opening and closing -----------------------------------------------------------

    def open(self) -> "Store":
        self.runs_dir.mkdir(parents=True, exist_ok=True)
        self._take_lock()
        discard_migration(self.root)
        traces = self.root / "traces"
        for d in (self.runs_dir, self.root / MANIFEST_DIR, *(self.root / s for s in SECTIONS)):
            for stale in d.glob(".*.tmp") if d.is_dir() else []:  # a write cut short by a kill
                stale.unlink(missing_ok=True)
        for stale in traces.glob("*/.*.tmp") if traces.is_dir() else []:  # a worker's, likewise
            stale.unlink(missing_ok=True)
        self.scan()
        for s in SECTIONS:  # a batch killed between its flows part and its runs part
            for orphan in (self.root / s).glob("part-*.parquet") if (self.root / s).is_dir() else []:
                if not (self.runs_dir / orphan.name).exists():
                    orphan.unlink(missing_ok=True)
        if self.manifest is None:
            self._migrate()
        else:
            self._drop_uncommitted()
            self._check_sections()
            for name in self._bad_entries:  # reported by scan(); kept for a post-mortem
                if (self.root / MANIFEST_DIR / name).exists():  # not moved with its batch
                    (self.root / "quarantine").mkdir(exist_ok=True)
                    os.replace(self.root / MANIFEST_DIR / name, self.root / "quarantine" / f"{MANIFEST_DIR}-{name}")
        self._check_traces()
        return self

    def scan(self) -> "Store":
        """Index every stored run (newest row wins); quarantine what cannot be trusted when
        no other sweep holds the store, else leave it and warn."""
        found = read_manifest(self.root)
        self.manifest, self._bad_entries = (None, []) if found is None else found
        for name in self._bad_entries if self._lock is None else []:  # a writer says it with the batch
            warnings.warn(f"{self.root / MANIFEST_DIR / name}: unreadable manifest entry; its batch is "
                          "treated as never committed", stacklevel=3)
        self.index, bad = index_parts(self.root, self.manifest)
        # index_parts checked each indexed runs part whole against the manifest
        self._verified.update(f"runs/{r.source}" for r in self.index.values() if r.source in (self.manifest or {}))
        for name, why, runs, file in bad:
            self._set_aside(name, why, runs, file)
        parts = [int(m.group(1)) for p in self.runs_dir.glob("part-*.parquet")
                 if (m := _PART.match(p.name))] if self.runs_dir.is_dir() else []
        parts += [int(m.group(1)) for name in (self.manifest or {}) if (m := _PART.match(name))]
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
        """The writer's lock; False when another sweep holds it. An OSError (a read-only
        store) is the caller's: a reader treats it as not holding the lock."""
        if fcntl is None or self._lock is not None:
            return True
        lock = open_lock(self.root / ".lock")
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            return False
        self._lock = lock
        return True

    # --- the manifest, on the writer's open --------------------------------------------

    def _migrate(self) -> None:
        """A store written before the manifest: record what passed the old checks now,
        so from here on a missing, swapped or altered file is found."""
        by_part: Dict[str, List[str]] = {}
        for rid, run in self.index.items():
            by_part.setdefault(run.source, []).append(rid)
        entries = []
        for path in sorted(self.runs_dir.glob("part-*.parquet")):
            files = {f"{d}/{path.name}": file_facts(self.root / d / path.name)
                     for d in ("runs", *SECTIONS) if (self.root / d / path.name).exists()}
            traces = {}
            for rid in by_part.get(path.name, []):
                facts, unreadable = trace_files(self.root, rid)
                if unreadable:  # its run is redone, which writes the trace again
                    del self.index[rid]
                    warnings.warn(f"{unreadable[0]}: unreadable; its run is run again", stacklevel=3)
                elif facts:
                    traces[rid] = facts
            entries.append(Entry(path.name, pq.read_metadata(path).num_rows, files, traces))
        write_entries(self.root, entries)
        self.manifest = {e.part: e for e in entries}

    def _drop_uncommitted(self) -> None:
        """Parts without a manifest entry: the last batch, cut short by a kill before its
        commit (removed), or a file put there by hand (quarantined, with a warning)."""
        assert self.manifest is not None
        last = max((int(m.group(1)) for n in self.manifest if (m := _PART.match(n))), default=-1)
        for path in sorted(self.runs_dir.glob("part-*.parquet")):
            m = _PART.match(path.name)
            if m is None or path.name in self.manifest:
                continue
            entry = entry_path(self.root, path.name)
            if entry.name in self._bad_entries:
                self._set_aside(path.name, f"its manifest entry {MANIFEST_DIR}/{entry.name} is unreadable",
                                _rows(path))
            elif int(m.group(1)) > last:
                for d in ("runs", *SECTIONS):
                    (self.root / d / path.name).unlink(missing_ok=True)
            else:
                self._set_aside(path.name, "not in the manifest (not written by this store's sweeps)", _rows(path))

    def _check_sections(self) -> None:
        """Every flows and links part whole against the manifest (the index checked the
        runs parts): a resume redoes what a later read would have found bad."""
        assert self.manifest is not None
        used = {run.source for run in self.index.values()}
        for name in sorted(used & set(self.manifest)):
            for file, facts in sorted(self.manifest[name].files.items()):
                if file.startswith("runs/"):
                    continue
                why = check_file(self.root / file, facts)
                if why:
                    self._set_aside(name, why, self.manifest[name].runs, file)
                    break
                self._verified.add(file)

    def _check_traces(self) -> None:
        """Every trace of every stored run against the manifest: a run whose trace is
        missing or altered leaves the index, and this sweep runs it again."""
        if not self.manifest:
            return
        for rid, run in list(self.index.items()):
            entry = self.manifest.get(run.source)
            for name, facts in sorted((entry.traces.get(rid, {}) if entry else {}).items()):
                path = trace_path(self.root, rid, name)
                why = check_file(path, facts)
                if why:
                    del self.index[rid]
                    warnings.warn(f"{path}: {why}; its run is run again", stacklevel=3)
                    break

    # --- writing -----------------------------------------------------------------------

    def write_meta(self, meta: Mapping[str, Any]) -> None:
        text = json.dumps(meta, indent=1, default=str, allow_nan=True)
        atomic_write(self.root / META_FILE, lambda f: f.write(text.encode()))

    def add(self, row: Row, sections: Optional[Dict[str, Section]] = None,
            traces: Optional[TracesOut] = None, trace_files: Optional[TraceFacts] = None) -> None:
        """Buffer one run (its traces, if any, are written now: before its row;
        `trace_files` are those a worker already wrote)."""
        rid = str(row["run_id"])
        files = dict(trace_files or {})
        if traces:
            files.update(write_traces(self.root, rid, traces))
        if not self._pending:
            self._pending_since = time.monotonic()
        self._pending[rid] = (row, sections or {})
        self._pending_traces[rid] = files
        self._pending_items += sum(_items(v) for v in (sections or {}).values())
        self.index[rid] = StoredRun(str(row["status"]), str(row["scenario_hash"]), int(row["seed"]))
        if len(self._pending) >= PART_ROWS or self._pending_items >= PART_SECTION_ROWS:
            self.flush()

    def flush_if_due(self) -> None:
        if self._pending and time.monotonic() - self._pending_since >= PART_SECONDS:
            self.flush()

    def flush(self) -> None:
        """Write the buffered runs as one part: flows and links first, the runs next, its
        manifest entry last (the commit)."""
        if not self._pending:
            return
        name = f"part-{self._seq:08d}.parquet"
        self._seq += 1
        written = []
        files: Dict[str, FileFacts] = {}
        for s in SECTIONS:
            table = sections_table([(rid, secs[s]) for rid, (_, secs) in self._pending.items() if s in secs])
            if table is not None:
                (self.root / s).mkdir(exist_ok=True)
                files[f"{s}/{name}"] = write_part(self.root / s / name, table)
                written.append(s)
        rows = rows_table([self._pending[rid][0] for rid in sorted(self._pending)])
        files[f"runs/{name}"] = write_part(self.runs_dir / name, rows, {"lossy.sections": ",".join(written)})
        if self.manifest is not None:
            entry = Entry(name, rows.num_rows, files, {rid: t for rid, t in self._pending_traces.items() if t})
            (self.root / MANIFEST_DIR).mkdir(exist_ok=True)
            write_entry(self.root, entry)
            self.manifest[name] = entry
        self._verified.update(files)
        for rid in self._pending:
            self.index[rid] = replace(self.index[rid], source=name)
        self._pending.clear()
        self._pending_traces.clear()
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
        entry = (self.manifest or {}).get(source)
        expect = entry.files.get(key) if entry is not None and key not in self._verified else None
        try:
            if columns is not None:  # a projection: not cached (the whole table may be wanted later)
                wanted = list(dict.fromkeys(["run_id", *columns]))
                table = read_part(path, wanted, expect) if _PART.match(source) else read_single(path, wanted)
                self._verified.add(key)
                return table
            self._cache[key] = read_part(path, None, expect) if _PART.match(source) else read_single(path)
            self._verified.add(key)
        except READ_ERRORS as e:
            self._set_aside(source, why_unusable(e), entry.runs if entry else None, key)
            return None
        return self._cache[key]

    def _set_aside(self, name: str, why: str, runs: Optional[int], file: str = "") -> None:
        """A batch that cannot be trusted, in one warning line naming the bad file: its
        runs leave the index; when no sweep holds the store (and it can be written) its
        files move to quarantine/, and the next sweep runs them again."""
        gone = [rid for rid, r in self.index.items() if r.source == name]
        self.index = {rid: r for rid, r in self.index.items() if r.source != name}
        self.removed.append(Path(name).stem if not _PART.match(name) else name)
        count = runs if runs is not None else (len(gone) or None)
        held_before = self._lock is not None
        try:
            free = self._try_lock()
        except OSError:  # a read-only store: nothing can move, and reading goes on
            free, where = False, "skipped (the store cannot be written)"
        else:
            where = "moved to quarantine/" if free else "skipped (a sweep is writing to the store)"
        if free:
            try:
                self._quarantine(name)
            except OSError as e:
                where = f"skipped (cannot move it to quarantine/: {e.strerror or e})"
            finally:
                if not held_before and self._lock is not None:
                    self._lock.close()
                    self._lock = None
        runs_text = "its run is" if count == 1 else f"its {count:,} runs are" if count else "its runs are"
        redo = "run again now" if held_before else "redone by the next resume (lossy sweep of its spec)"
        warnings.warn(f"{self.root / (file or f'runs/{name}')}: {why}; {where}, {runs_text} {redo}", stacklevel=4)

    def _quarantine(self, name: str) -> None:
        q = self.root / "quarantine"
        q.mkdir(exist_ok=True)
        moves = [(self.root / d / name, f"{d}-{name}") for d in ("runs", *SECTIONS)]
        moves.append((entry_path(self.root, name), f"{MANIFEST_DIR}-{Path(name).stem}.json"))
        for src, base in moves:
            if src.exists():
                dest = q / base
                if dest.exists():  # a part of the same name set aside before
                    dest = q / f"{int(time.time() * 1e3)}-{base}"
                os.replace(src, dest)
                self._cache.pop(f"{src.parent.name}/{name}", None)
        if self.manifest is not None:
            self.manifest.pop(name, None)


def _rows(path: Path) -> Optional[int]:
    """A part's row count from its footer (None when it cannot be read)."""
    try:
        return int(pq.read_metadata(path).num_rows)
    except READ_ERRORS:
        return None


def open_lock(path: Path) -> IO[bytes]:
    """The lock file (a function of its own: tests make it fail as a read-only store does)."""
    return open(path, "wb")


def _items(section: Section) -> int:
    if isinstance(section, Mapping):  # columns of equal length: the first says how many rows
        return len(next(iter(section.values()), ()))
    return len(section)


def trace_path(root: Path, run_id: str, name: str) -> Path:
    return root / "traces" / run_id / f"{name}.parquet"


def write_traces(root: Path, run_id: str, traces: TracesOut) -> TraceFacts:
    """`traces/<run_id>/<name>.parquet`, each atomically (mode 0644); returns each file's
    size and hash for the manifest."""
    out = root / "traces" / run_id
    out.mkdir(parents=True, exist_ok=True)
    written: TraceFacts = {}
    for name, columns in traces.items():
        table = pa.table({k: np.asarray(v) for k, v in columns.items()})
        written[name] = write_table_file(out / f"{name}.parquet", table)
    return written


# --- the index -------------------------------------------------------------------------


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
    if not store.index and store.removed:
        raise ScenarioError(f"no runs stored in {path} can be read ({', '.join(store.removed)} set aside); "
                            "run the sweep again to redo them")
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
    """One stored trace of one run: `traces/<run_id>/<name>.parquet`, checked against the
    manifest; one ScenarioError line when it is missing, altered or unreadable."""
    path = trace_path(Path(root), run_id, name)
    if not path.is_file():
        have = sorted(p.stem for p in path.parent.glob("*.parquet")) if path.parent.is_dir() else []
        stored = f"stored: {', '.join(have)}" if have else "none stored for that run"
        raise ScenarioError(f"trace {name!r} of run {run_id}: not in {Path(root)} ({stored})")
    redo = "run the sweep again (lossy sweep of its spec) to redo the run"
    try:
        data = path.read_bytes()
        facts = _stored_trace_facts(Path(root)).get(run_id, {}).get(name)
        why = facts.check(data) if facts is not None else None
        if why is None:
            table: pa.Table = pq.ParquetFile(pa.BufferReader(data), page_checksum_verification=True).read()
            return table
    except READ_ERRORS as e:
        why = f"unreadable ({describe(e)})"
    raise ScenarioError(f"trace {name!r} of run {run_id}: {path} is {why}; {redo}")


def _stored_trace_facts(root: Path) -> Dict[str, TraceFacts]:
    """Each run's trace files as the manifest records them (the newest batch of the run
    wins, as its row does); {} for a store without a manifest."""
    try:
        stamp = (root / MANIFEST_DIR).stat().st_mtime_ns
    except OSError:
        return {}
    return _trace_facts_cached(str(root.resolve()), stamp)


@functools.lru_cache(maxsize=4)
def _trace_facts_cached(root: str, stamp: int) -> Dict[str, TraceFacts]:
    found = read_manifest(Path(root))
    out: Dict[str, TraceFacts] = {}
    for name in sorted(found[0] if found else {}, key=lambda n: int(m.group(1)) if (m := _PART.match(n)) else -1):
        out.update(found[0][name].traces)  # type: ignore[index]
    return out


def load_meta(root: "str | os.PathLike[str]") -> Dict[str, Any]:
    """What the sweep wrote about itself (axes, metric aliases, points); {} if nothing.
    A sweep.json that is not one (overwritten, cut short) is a one-line warning: the
    runs still read, by point; the next `lossy sweep` of the spec rewrites it."""
    path = Path(root) / META_FILE
    try:
        text = path.read_text(encoding="utf-8")
        meta: Any = json.loads(text)
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except OSError as e:
        why = e.strerror or describe(e)
    except ValueError as e:  # not JSON, or not UTF-8 (UnicodeDecodeError is a ValueError)
        why = describe(e)
    else:
        if isinstance(meta, dict):
            return meta
        why = f"a JSON {type(meta).__name__}, not an object"
    warnings.warn(f"{path}: not a sweep description ({why}); its axes and metric names are unknown, "
                  "runs are shown by point until `lossy sweep` of its spec rewrites it", stacklevel=3)
    return {}


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
