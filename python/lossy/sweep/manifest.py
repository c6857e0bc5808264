"""The store's manifest: what every committed batch wrote, so a missing, swapped or altered
file is found (issue 27, "Store integrity").

    manifest/part-<seq>.json    one per batch: its runs count, and the size and SHA-256 of
                                runs/, flows/ and links/part-<seq>.parquet and of every
                                trace file its runs wrote

An entry is written atomically after the batch's parts, so it is the batch's commit point:
a part without an entry is a batch cut short by a kill (removed by the next sweep), an entry
without its part is a deleted part (its runs are redone). Page checksums cover a part's
data pages only; the footer (most of a small part's bytes: the schema, column names, row
count) is covered by the hash here. A store written before the manifest has no manifest/
directory: it is read with the old checks, and the next sweep on it writes the manifest
(migration) from the parts that pass them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

from ..atomic import atomic_write

__all__ = ["MANIFEST_DIR", "Entry", "FileFacts", "describe", "discard_migration", "entry_path", "facts_of", "read_manifest",
           "write_entries", "write_entry"]

MANIFEST_DIR = "manifest"
FORMAT = "lossy-manifest-1"
_MIGRATING = ".manifest.tmp"  # a migration in progress: renamed to manifest/ when whole


@dataclass(frozen=True)
class FileFacts:
    """What a file held when it was written."""

    size: int
    sha256: str

    def check(self, data: bytes) -> Optional[str]:
        """Why `data` is not that file ("" or None when it is)."""
        if len(data) != self.size:
            return f"altered or replaced since it was written ({len(data):,} bytes, the manifest says {self.size:,})"
        if hashlib.sha256(data).hexdigest() != self.sha256:
            return "altered or replaced since it was written (its SHA-256 differs from the manifest's)"
        return None


def facts_of(data: bytes) -> FileFacts:
    return FileFacts(len(data), hashlib.sha256(data).hexdigest())


@dataclass
class Entry:
    """One committed batch: `part` (part-<seq>.parquet), its run rows, and its files by
    path under the store (runs/..., flows/..., links/...); its traces by run and name."""

    part: str
    runs: int
    files: Dict[str, FileFacts] = field(default_factory=dict)
    traces: Dict[str, Dict[str, FileFacts]] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps({
            "format": FORMAT, "part": self.part, "runs": self.runs,
            "files": {k: [v.size, v.sha256] for k, v in sorted(self.files.items())},
            "traces": {rid: {n: [v.size, v.sha256] for n, v in sorted(t.items())}
                       for rid, t in sorted(self.traces.items())},
        }, separators=(",", ":"))

    @staticmethod
    def from_json(text: str) -> "Entry":
        doc = json.loads(text)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError("not a manifest entry")
        return Entry(str(doc["part"]), int(doc["runs"]),
                     {str(k): FileFacts(int(v[0]), str(v[1])) for k, v in doc["files"].items()},
                     {str(rid): {str(n): FileFacts(int(v[0]), str(v[1])) for n, v in t.items()}
                      for rid, t in doc.get("traces", {}).items()})


def entry_path(root: Path, part: str) -> Path:
    return root / MANIFEST_DIR / (Path(part).stem + ".json")


def write_entry(root: Path, entry: Entry) -> None:
    """Commit a batch: its entry, atomically, after its parts."""
    text = entry.to_json().encode()
    atomic_write(entry_path(root, entry.part), lambda f: f.write(text))


def write_entries(root: Path, entries: Iterable[Entry]) -> None:
    """A whole manifest at once (migrating a store written before it): written beside the
    store and renamed into place, so a kill leaves either no manifest or all of it."""
    tmp = root / _MIGRATING
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    for entry in entries:
        text = entry.to_json().encode()
        atomic_write(tmp / (Path(entry.part).stem + ".json"), lambda f: f.write(text))
    os.replace(tmp, root / MANIFEST_DIR)


def discard_migration(root: Path) -> None:
    """A migration cut short by a kill: the next sweep starts it again."""
    shutil.rmtree(root / _MIGRATING, ignore_errors=True)


def read_manifest(root: Path) -> Optional[Tuple[Dict[str, Entry], List[str]]]:
    """Entries by part name, and the names of entry files that cannot be read; None for a
    store without a manifest (written before it)."""
    where = root / MANIFEST_DIR
    if not where.is_dir():
        return None
    entries: Dict[str, Entry] = {}
    bad: List[str] = []
    for path in sorted(where.glob("part-*.json")):
        try:
            entry = Entry.from_json(path.read_text(encoding="utf-8"))
            if Path(entry.part).stem != path.stem:
                raise ValueError("names another part")
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            bad.append(path.name)
            continue
        entries[entry.part] = entry
    return entries, bad


def describe(why: Any) -> str:
    """An exception as the short reason a warning line gives."""
    text = " ".join(str(why).split())
    return text if len(text) <= 120 else text[:119] + "…"
