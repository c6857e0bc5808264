"""A scenario's capacity tables that name a trace (issue 30, DESIGN30 "Catalogue
references"): `links.<i>.capacity` or `links.<i>.reverse_capacity` with
`trace = "<collection>:<name>"` (a catalogue entry) or `trace = "<path>"` (a trace file,
relative to the scenario's folder). Each is replaced, in place, by what the core reads:
`kind` (the entry's format; for a path the table's own `kind`, else "mahimahi") and
`file` (the absolute path: the cached, checksum-verified file of an entry), keeping the
table's other keys (`once`, `interval`). The core never sees `trace`. Errors name the
field: `links.0.capacity.trace: ...`."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, Mapping, Optional, Tuple

from .._core import ScenarioError
from ..ellipsis import short_repr
from .errors import CatalogueError

TRACE_KEY = "trace"
CAPACITY_KEYS = ("capacity", "reverse_capacity")
DEFAULT_KIND = "mahimahi"
_OVERRIDE = re.compile(r"^links\.(\d+)\.(capacity|reverse_capacity)\.trace$")
_EXAMPLE = "a catalogue name such as mahimahi:TMobile-LTE-short.down (`lossy traces list`) or a trace file's path"


def capacity_tables(doc: Mapping[str, Any]) -> Iterator[Tuple[Dict[str, Any], str]]:
    """Each capacity table of the scenario and its dotted path (`links.0.capacity`)."""
    links = doc.get("links")
    if not isinstance(links, list):
        return
    for i, link in enumerate(links):
        if isinstance(link, dict):
            for key in CAPACITY_KEYS:
                table = link.get(key)
                if isinstance(table, dict):
                    yield table, f"links.{i}.{key}"


def resolve_trace_references(doc: Mapping[str, Any], base_dir: Optional[Path]) -> None:
    """Replace every capacity table's `trace` by `kind` and `file` (in place). A relative
    path is taken from `base_dir` (the scenario's folder), or the working directory."""
    for table, where in list(capacity_tables(doc)):
        if TRACE_KEY in table:
            _resolve(table, where, base_dir)


def forget_resolved(doc: Mapping[str, Any], overrides: Iterable[Tuple[str, Any]]) -> None:
    """Before overrides that set a table's `trace` are applied: drop the `file` an
    earlier resolution (or the file) put there, and the `kind` too when the new trace
    is a catalogue name (its entry gives the kind; a path keeps the table's kind)."""
    for path, value in overrides:
        m = _OVERRIDE.match(re.sub(r"\[(\d+)\]", r".\1", path))
        if m is None:
            continue
        links = doc.get("links")
        index, key = int(m.group(1)), m.group(2)
        if isinstance(links, list) and index < len(links) and isinstance(links[index], dict):
            table = links[index].get(key)
            if isinstance(table, dict):
                from .registry import is_catalogue_name

                table.pop("file", None)
                if isinstance(value, str) and is_catalogue_name(value):
                    table.pop("kind", None)


def _resolve(table: Dict[str, Any], where: str, base_dir: Optional[Path]) -> None:
    from .registry import is_catalogue_name

    value = table[TRACE_KEY]
    field = f"{where}.{TRACE_KEY}"
    if not isinstance(value, str) or not value.strip():
        raise ScenarioError(f"{field}: {short_repr(value)} is not a trace; use {_EXAMPLE}")
    if "file" in table:
        raise ScenarioError(f"{where}: both trace and file are given; keep one (trace = a catalogue name or a "
                            f"trace file, file = a data file read as `kind` says)")
    if is_catalogue_name(value):
        kind, file = _from_catalogue(table, value, where)
    else:
        kind, file = _from_path(table, value, field, base_dir)
    rest = {k: v for k, v in table.items() if k not in (TRACE_KEY, "kind", "file")}
    table.clear()
    table.update({"kind": kind, "file": file, **rest})


def _from_catalogue(table: Dict[str, Any], name: str, where: str) -> Tuple[str, str]:
    from .registry import entry
    from .store import path

    field = f"{where}.{TRACE_KEY}"
    try:
        e = entry(name)
    except CatalogueError as err:
        raise ScenarioError(f"{field}: {err}") from None
    kind = table.get("kind")
    if kind is not None and kind != e.format:
        raise ScenarioError(f"{where}.kind: {short_repr(kind)} does not match {e.name}, a {e.format} trace; "
                            f"leave kind out (the catalogue gives it)")
    try:
        return e.format, str(path(name))
    except CatalogueError as err:
        raise ScenarioError(f"{field}: {err}") from None


def _from_path(table: Dict[str, Any], value: str, field: str, base_dir: Optional[Path]) -> Tuple[str, str]:
    given = os.path.expanduser(value)
    if not os.path.isabs(given):
        given = os.path.join(base_dir, given) if base_dir is not None else os.path.abspath(given)
    file = os.path.normpath(given)
    if not os.path.isfile(file):
        collection, sep, _ = value.partition(":")
        if sep and "/" not in collection and os.sep not in collection:
            from .registry import unknown_message

            # Written like a catalogue name with a collection that does not exist: say so.
            raise ScenarioError(f"{field}: {unknown_message(value)}")
        raise ScenarioError(f"{field}: {short_repr(value)}: no such file ({file}); use {_EXAMPLE}")
    kind = table.get("kind", DEFAULT_KIND)
    return kind, file
