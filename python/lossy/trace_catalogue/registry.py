"""The catalogue's entries, read from registry.csv beside this module: metadata only
(name, collection, format, licence, the public URL pinned to a commit, SHA-256, size,
where the file lies in a mirror), never the traces themselves (issue 30: Mahimahi's are
GPL-3+, the others carry no licence file, so none ships in the wheel).
tools/trace_catalogue_registry.py writes the CSV from the trace mirror's README.md."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Dict, List, NamedTuple, Tuple

from .errors import UnknownTrace

REGISTRY = Path(__file__).with_name("registry.csv")

# The collections in the order `lossy traces list` shows them, each with where it comes
# from (the README of the trace mirror names the same repositories and commits).
COLLECTIONS = {
    # traces/README there: recorded with Saturator (Winstein et al., NSDI 2013).
    "mahimahi": "US cellular links recorded with Saturator (ravinet/mahimahi, traces/)",
    "pantheon": "Pantheon's emulator traces (StanfordSNR/observatory, traces/)",
    "lumos5g": "Lumos5G 4G and 5G throughput, one sample a second (SIGCOMM21-5G/artifact, "
               "Video-Streaming/Network-Traces/Lumous5G)",
}
FORMATS = ("mahimahi", "rate_schedule")


class Entry(NamedTuple):  # not a dataclass: `dataclasses` costs `lossy run` 20 ms of imports
    """One trace file of the catalogue."""

    name: str          # "mahimahi:TMobile-LTE-short.down"
    collection: str    # "mahimahi", "pantheon" or "lumos5g"
    format: str        # "mahimahi" (delivery opportunities) or "rate_schedule" (second, Mbit/s)
    licence: str
    url: str           # raw file at a pinned commit
    sha256: str
    bytes: int
    mirror_path: str   # where a mirror laid out like ../shared/traces holds it

    @property
    def file_name(self) -> str:
        return self.name.split(":", 1)[1]


@lru_cache(maxsize=1)
def _table() -> Tuple[Dict[str, Entry], Tuple[Entry, ...]]:
    import csv  # here, not at the top: a scenario without a trace never reads the catalogue

    with open(REGISTRY, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    entries = tuple(Entry(name=r["name"], collection=r["collection"], format=r["format"], licence=r["licence"],
                          url=r["url"], sha256=r["sha256"], bytes=int(r["bytes"]), mirror_path=r["mirror_path"])
                    for r in rows)
    return {e.name: e for e in entries}, entries


def entries() -> Tuple[Entry, ...]:
    """Every entry, collection by collection (mahimahi, pantheon, lumos5g), then by name."""
    return _table()[1]


def names() -> List[str]:
    return [e.name for e in entries()]


def is_catalogue_name(text: str) -> bool:
    """Whether `text` is written as a catalogue name, `<collection>:<name>` with a known
    collection (whether the name exists is `entry`'s to say)."""
    collection, sep, rest = text.partition(":")
    return bool(sep) and collection in COLLECTIONS and bool(rest)


def entry(name: str) -> Entry:
    """The entry called `name` ("mahimahi:TMobile-LTE-short.down"); UnknownTrace, listing
    the close names, when there is none."""
    found = _table()[0].get(name)
    if found is None:
        raise UnknownTrace(unknown_message(name))
    return found


def close_names(name: str, n: int = 5) -> List[str]:
    """The catalogue's names closest to `name` (difflib), also matching a name given
    without its collection ("TMobile-LTE-short.down")."""
    import difflib

    all_names = names()
    bare = {e.file_name: e.name for e in entries()}
    close = difflib.get_close_matches(name, all_names, n=n, cutoff=0.6)
    close += [bare[b] for b in difflib.get_close_matches(name.partition(":")[2] or name, list(bare), n=n, cutoff=0.6)]
    return list(dict.fromkeys(close))[:n]


def unknown_message(name: str) -> str:
    close = close_names(name)
    collection, sep, _ = name.partition(":")
    hints = [f"close names: {', '.join(close)}"] if close else []
    if sep and collection not in COLLECTIONS:
        hints.append(f"the collections are {', '.join(COLLECTIONS)}")
    return (f"{name!r} is not in the trace catalogue; {'; '.join(hints) or 'no name is close'} "
            f"(`lossy traces list` shows every name)")
