"""`lossy traces list | info | fetch`: the catalogue on the command line. Names are
checked before anything is fetched (an unknown one lists the close ones, status 2); a
file that cannot be fetched is one `lossy: ...` line and status 1 after the others."""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .errors import CatalogueError
from .registry import COLLECTIONS, Entry, entries, entry
from .stats import TraceStats, trace_stats
from ..file_digest import sha256_of
from .store import CACHE_VARIABLE, MIRROR_VARIABLE, cache_dir, is_cached, mirror_dir, path
from .store import cached_path
from .store import fetch as fetch_entry

FORMAT_WORDS = {"mahimahi": "Mahimahi: one delivery opportunity a line, in ms from the start; repeats",
                "rate_schedule": "rate schedule: `<second> <Mbit/s>` a line, one sample a second"}


def _size(n: int) -> str:
    for unit, scale in (("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def _where_from() -> str:
    mirror = mirror_dir()
    return (f"the mirror {mirror} ({MIRROR_VARIABLE})" if mirror is not None
            else "the entries' URLs (set LOSSY_TRACE_MIRROR to copy from a local mirror instead)")


def _cache_line() -> str:
    try:
        return f"cache: {cache_dir()} (set {CACHE_VARIABLE} to move it); fetching from {_where_from()}"
    except CatalogueError as e:
        return str(e)


def list_entries(collection: Optional[str], as_json: bool) -> None:
    if collection is not None and collection not in COLLECTIONS:
        raise CatalogueError(f"{collection!r} is not a collection; use {', '.join(COLLECTIONS)}")
    chosen = [e for e in entries() if collection in (None, e.collection)]
    if as_json:
        rows = [{**e._asdict(), "cached": is_cached(e)} for e in chosen]
        sys.stdout.write(json.dumps(rows) + "\n")
        return
    width = max(len(e.name) for e in chosen)
    out: List[str] = []
    for c, description in COLLECTIONS.items():
        mine = [e for e in chosen if e.collection == c]
        if not mine:
            continue
        out.append(f"{c}: {description}, {len(mine)} traces")
        out.append(f"  {'NAME':<{width}}  {'FORMAT':<13}  {'LICENCE':<15}  {'SIZE':>8}  CACHED")
        out += [f"  {e.name:<{width}}  {e.format:<13}  {e.licence:<15}  {_size(e.bytes):>8}  "
                f"{'yes' if is_cached(e) else 'no'}" for e in mine]
        out.append("")
    out.append(_cache_line())
    out.append("`lossy traces info NAME` describes one; a scenario names one as "
               "capacity = { trace = \"NAME\" }.")
    sys.stdout.write("\n".join(out) + "\n")


def info(name: str, as_json: bool) -> None:
    e = entry(name)
    file = path(name)
    stats = trace_stats(file, e.format)
    if as_json:
        sys.stdout.write(json.dumps({**e._asdict(), "file": str(file), **stats.to_dict()}) + "\n")
        return
    sys.stdout.write("\n".join(info_lines(e, str(file), stats)) + "\n")


def info_lines(e: Entry, file: str, s: TraceStats) -> List[str]:
    p = s.percentiles_mbps
    mean = f"mean {s.mean_mbps:.2f} Mbit/s"
    if s.format == "mahimahi":
        mean += f" (a 1500-byte packet an opportunity; {s.mean_mbps_1504:.2f} counting 1504 bytes, as mm-link does)"
        repeats = "the trace repeats after it"
    else:
        repeats = "one sample a second; the schedule repeats after it"
    rows: List[Tuple[str, str]] = [
        ("collection", f"{e.collection}: {COLLECTIONS[e.collection]}"),
        ("format", f"{e.format} ({FORMAT_WORDS[e.format]})"),
        ("licence", e.licence),
        ("source", e.url),
        ("sha256", e.sha256),
        ("file", file),
        ("duration", f"{s.duration_s:,.3f} s ({repeats})"),
        (s.events_word, f"{s.events:,}"),
        ("capacity", mean),
        ("", f"over {s.bins:,} one-second bins: p5 {p[5]:.2f}, median {p[50]:.2f}, p95 {p[95]:.2f}, "
             f"max {s.max_mbps:.2f} Mbit/s"),
        ("outage", f"{s.outage_s:,} s ({s.outage_s / s.bins:.1%} of the bins: seconds with no capacity)"),
    ]
    return [e.name] + [f"  {k:<13} {v}" for k, v in rows]


def chosen_for_fetch(names: Sequence[str], every: bool) -> List[Entry]:
    """The entries NAME... and --all name (a collection's name: all of it), every name
    checked before anything is fetched."""
    if every:
        return list(entries())
    if not names:
        raise CatalogueError("name a trace, a collection or --all; `lossy traces list` shows the names")
    out: Dict[str, Entry] = {}
    for name in names:
        group = [e for e in entries() if e.collection == name] if name in COLLECTIONS else [entry(name)]
        out.update((e.name, e) for e in group)
    return list(out.values())


def fetch(chosen: Sequence[Entry], say: Any) -> List[str]:
    """Fetch each entry not cached with the right sum; say a line each. The errors, one
    line each, of those that could not be fetched."""
    mirror = mirror_dir()
    errors: List[str] = []
    for e in chosen:
        target = cached_path(e)
        try:
            if target.is_file() and sha256_of(target) == e.sha256:
                say(f"{e.name}: cached, SHA-256 checked ({target})")
                continue
            source = fetch_entry(e)
            say(f"{e.name}: {'copied from' if mirror is not None else 'downloaded from'} {source}, "
                f"SHA-256 checked -> {target}")
        except CatalogueError as err:
            errors.append(str(err))
    if mirror is not None and len(errors) < len(chosen):
        say(f"(from the mirror {MIRROR_VARIABLE}={mirror}; without it, the same command downloads each file from "
            "its URL, `lossy traces info NAME` shows it)")
    return errors
