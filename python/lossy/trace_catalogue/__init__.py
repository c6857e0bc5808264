"""The trace catalogue (issue 30): public capacity traces of real links, each an entry
with its public URL pinned to a commit, its SHA-256, its format and its licence, fetched
into the user's cache on first use and checked like a data set.

    >>> from lossy import trace_catalogue
    >>> trace_catalogue.path("mahimahi:TMobile-LTE-short.down")   # fetched, verified
    PosixPath('/home/me/.cache/lossy/traces/mahimahi/TMobile-LTE-short.down')

A scenario names one as `capacity = { trace = "mahimahi:TMobile-LTE-short.down" }`
(`references` turns it into `kind` and `file` when the scenario is loaded).
`lossy traces list | info | fetch` is the command line. LOSSY_TRACE_MIRROR points the
catalogue at a local copy (tests and CI: never the network); LOSSY_CACHE_DIR moves the
cache (`store` says where it is).

The names below load on first use: `lossy.scenario` imports `references` for every
scenario, and a scenario without a trace must not pay for the catalogue (issue 28).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Dict

if TYPE_CHECKING:
    from .errors import CatalogueError, ChecksumMismatch, TraceUnavailable, UnknownTrace
    from .registry import COLLECTIONS, FORMATS, Entry, close_names, entries, entry, is_catalogue_name, names
    from .store import CACHE_VARIABLE, MIRROR_VARIABLE, cache_dir, cached_path, fetch, is_cached, mirror_dir, path

_WHERE: Dict[str, str] = {
    **dict.fromkeys(["CatalogueError", "ChecksumMismatch", "TraceUnavailable", "UnknownTrace"], ".errors"),
    **dict.fromkeys(["COLLECTIONS", "FORMATS", "Entry", "close_names", "entries", "entry", "is_catalogue_name",
                     "names"], ".registry"),
    **dict.fromkeys(["CACHE_VARIABLE", "MIRROR_VARIABLE", "cache_dir", "cached_path", "fetch", "is_cached",
                     "mirror_dir", "path"], ".store"),
}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'lossy.trace_catalogue' has no attribute {name!r}")
    value = getattr(importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


