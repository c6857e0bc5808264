"""Scenarios on the Python side: load one, change it by dotted paths, send it as JSON.

The schema lives in the Rust core; nothing here knows which fields exist. Python only
reads TOML, applies overrides and serialises, and the core validates the result and
names the field path of anything wrong. One convention crosses over: a key named `file`
holding a string references a data file (`crates/lossy-core/src/data_file.rs`); a
relative one is resolved here against the scenario file's directory, and the file's
content, not only its name, goes into the scenario's identity in the store
(`identity`).
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import os
import re
import stat
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Dict, Iterator, Tuple, Union

from ._core import ScenarioError
from .ellipsis import short_path, short_repr, shorten
from .file_digest import sha256_of
from .trace_catalogue.references import forget_resolved, resolve_trace_references

# Re-exported (`as tomllib`): the reproductions read TOML through this one choice.
if sys.version_info >= (3, 11):
    import tomllib as tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

ScenarioSource = Union[str, "os.PathLike[str]", Mapping[str, Any]]
Scenario = Dict[str, Any]

_TOML_DATES = (datetime.date, datetime.time, datetime.datetime)


def load_scenario(source: ScenarioSource, base_dir: Union[str, "os.PathLike[str]", None] = None) -> Scenario:
    """Return a fresh, mutable scenario dict.

    `source` is a path to a TOML file (a `Path`, or a `str` that ends in `.toml` or
    holds neither `=` nor a newline), a mapping (deep-copied), or TOML text. A missing or
    unreadable file and bad TOML raise ScenarioError. Data files the scenario names
    (`file = "losses.txt"`) are resolved against the file's directory, or against
    `base_dir` for a mapping or text (left relative, to the working directory, without).
    """
    if isinstance(source, Mapping):
        doc = copy.deepcopy(dict(source))
    elif isinstance(source, os.PathLike):
        return _load_file(Path(source))
    elif isinstance(source, str):
        looks_like_text = "\n" in source or "=" in source
        if not looks_like_text or source.endswith(".toml"):
            return _load_file(Path(source))
        doc = _parse_toml(source, origin="<scenario text>")
    else:
        raise TypeError(
            f"a scenario is a path, a dict or TOML text, not {type(source).__name__}"
        )
    resolve_trace_references(doc, Path(base_dir) if base_dir is not None else None)
    if base_dir is not None:
        resolve_data_files(doc, Path(base_dir))
    return doc


# The largest scenario file read, as for a data file (crates/lossy-core/src/data_file.rs,
# MAX_DATA_FILE_BYTES): a generated scenario of 65,533 hosts is about 11 MiB.
MAX_SCENARIO_BYTES = 64 << 20


def _load_file(path: Path) -> Scenario:
    doc = read_toml(path)
    _check_is_a_scenario(doc, path)
    resolve_trace_references(doc, path.parent)
    resolve_data_files(doc, path.parent)
    return doc


def read_toml(path: Path, what: str = "scenario file") -> Scenario:
    """A TOML file (a scenario, or a sweep spec: `what` names it in messages) as a dict:
    a regular file of at most MAX_SCENARIO_BYTES; what is wrong raises ScenarioError
    naming the file."""
    # ScenarioError, as every other bad input (the README promises it): a caller catches one type.
    try:
        text = _read_regular_file(path, what)
    except FileNotFoundError:
        raise ScenarioError(f"{short_path(path)}: no such {what}") from None
    except IsADirectoryError:
        raise ScenarioError(f"{short_path(path)}: is a directory, not a {what}") from None
    except PermissionError:
        raise ScenarioError(f"{short_path(path)}: permission denied") from None
    except UnicodeDecodeError as e:
        raise ScenarioError(f"{short_path(path)}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except OSError as e:
        raise ScenarioError(f"{short_path(path)}: {e.strerror or e}") from None
    return _parse_toml(text, origin=str(path))


def _read_regular_file(path: Path, what: str) -> str:
    """The text of `path`, a regular file of at most MAX_SCENARIO_BYTES. Issue 27: a
    scenario path of /dev/zero was read until the process was killed at 2 GiB; a device,
    a pipe or a socket is refused before a byte is read, and the read stops at the limit."""
    import stat

    # O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(mode):
            raise ScenarioError(f"{short_path(path)}: not a regular file (a device, pipe or socket); "
                                f"give a {what} in TOML")
        # The size first (nothing read), then a read that stops at the limit (a file
        # that grows meanwhile).
        size = os.fstat(fd).st_size
        data = f.read(MAX_SCENARIO_BYTES + 1) if size <= MAX_SCENARIO_BYTES else b""
    if size > MAX_SCENARIO_BYTES or len(data) > MAX_SCENARIO_BYTES:
        raise ScenarioError(f"{short_path(path)}: {max(size, len(data)):,} B is over the limit of "
                            f"{MAX_SCENARIO_BYTES >> 20} MiB for a {what}")
    return data.decode("utf-8")


# Keys of a sweep spec that no scenario has: a spec given where a scenario goes.
_SWEEP_SPEC_KEYS = ("scenario", "grid", "zip", "variants", "replications", "metrics")


def _check_is_a_scenario(doc: Scenario, path: Path) -> None:
    """An empty file, or a sweep spec, named as such (issue 27: both said only
    "nodes: missing", without the file's name)."""
    if not doc:
        raise ScenarioError(f"{short_path(path)}: the file is empty (or has only comments); a scenario needs "
                            "nodes, links and flows (`lossy scenarios show last-hop` prints one)")
    if "nodes" not in doc and "scenario" in doc:
        found = ", ".join(k for k in _SWEEP_SPEC_KEYS if k in doc)
        raise ScenarioError(f"{short_path(path)}: a sweep spec (it has {found}), not a scenario; run it with "
                            f"`lossy sweep {short_path(path)}` (lossy.sweep in Python)")


def _parse_toml(text: str, origin: str) -> Scenario:
    try:
        doc: Scenario = tomllib.loads(text)
        return doc
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{short_path(origin)}: invalid TOML: {shorten(_one_line(str(e)), 200)}") from None
    except ValueError:
        # Python's own limit on an integer's digits (4,300 by default), not TOML's syntax.
        raise ScenarioError(f"{short_path(origin)}: a number has more than "
                            f"{sys.get_int_max_str_digits():,} digits; no scenario field takes one that long") from None


def _one_line(message: str) -> str:
    return " ".join(message.split())


# --- data files ------------------------------------------------------------------------

DATA_FILE_KEY = "file"


def _data_file_refs(value: Any, where: str = "") -> Iterator[Tuple[Dict[str, Any], str]]:
    """Each (table, dotted path) whose `file` key holds a string, depth first."""
    if isinstance(value, dict):
        for key, v in value.items():
            path = f"{where}.{key}" if where else str(key)
            if key == DATA_FILE_KEY and isinstance(v, str):
                yield value, path
            else:
                yield from _data_file_refs(v, path)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _data_file_refs(v, f"{where}.{i}" if where else str(i))


def resolve_data_files(doc: Scenario, base_dir: Path) -> None:
    """Make every relative data-file path in `doc` (in place) relative to `base_dir`
    instead of the working directory: the core reads it from where the scenario is."""
    for table, _ in list(_data_file_refs(doc)):
        name = table[DATA_FILE_KEY]
        if name and not os.path.isabs(os.path.expanduser(name)):
            table[DATA_FILE_KEY] = os.path.normpath(os.path.abspath(base_dir / name))


def identity(doc: Mapping[str, Any]) -> Any:
    """What names the scenario in the store: `doc` itself, or, when it references data
    files, a copy with each reference replaced by the SHA-256 of the file's bytes (where
    the file lies does not matter, what it holds does: a changed file is a new
    scenario). An unreadable file stays a path: the run fails in the core anyway."""
    refs = list(_data_file_refs(doc))  # type: ignore[arg-type]
    if not refs:
        return doc
    out = copy.deepcopy(dict(doc))
    for table, _ in list(_data_file_refs(out)):
        try:
            table[DATA_FILE_KEY] = {"sha256": sha256_of(os.path.expanduser(table[DATA_FILE_KEY]))}
        except OSError:
            pass
    return out




# --- overrides -------------------------------------------------------------------------


def apply_overrides(doc: Scenario, overrides: Mapping[str, Any]) -> Scenario:
    """Set each `dotted.path` in `doc` (in place) and return `doc`.

    Dicts are indexed by key and lists by integer (`flows.0.tcp.variant`). A missing key
    in a dict is created, tables on the way included: the core rejects unknown fields
    with their path. An index out of range, a non-integer list index, or a path through
    a value that is not a table or list raises ScenarioError naming the path.
    """
    forget_resolved(doc, overrides.items())
    for path, value in overrides.items():
        set_path(doc, path, value)
    resolve_trace_references(doc, None)  # a trace set here: relative to the working directory
    return doc


def set_path(doc: Scenario, path: str, value: Any) -> None:
    # `links[1].loss.p`, as error messages name fields, means `links.1.loss.p`.
    path = re.sub(r"\[(\d+)\]", r".\1", path)
    keys = path.split(".")
    if not path or any(k == "" for k in keys):
        raise ScenarioError(f"{short_repr(path)}: not a dotted path; use e.g. flows.0.tcp.variant")
    node: Any = doc
    for depth, key in enumerate(keys):
        last = depth == len(keys) - 1
        where = ".".join(keys[: depth + 1])
        if isinstance(node, dict):
            if last:
                node[key] = value
            else:
                if key not in node:
                    node[key] = {}  # a table the file left out, e.g. [traces]
                node = node[key]
        elif isinstance(node, list):
            index = _list_index(node, key, where, ".".join(keys[:depth]))
            if last:
                node[index] = value
            else:
                node = node[index]
        else:
            parent = ".".join(keys[:depth])
            raise ScenarioError(
                f"{shorten(where)}: {shorten(parent)} is {_describe(node)}, not a table or a list, "
                f"so it has no {short_repr(key)}"
            )


def _list_index(items: list[Any], key: str, where: str, parent: str) -> int:
    try:
        index = int(key)
    except ValueError:
        index = -1
    if not key.isdigit() or not 0 <= index < len(items):
        allowed = f"0 to {len(items) - 1}" if items else "none, the list is empty"
        raise ScenarioError(
            f"{shorten(where)}: {shorten(parent)} is a list of {len(items)}; {short_repr(key)} is not an index "
            f"in it (allowed: {allowed})"
        )
    return index


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, (int, float)):
        return f"a number ({shorten(value)})"
    if isinstance(value, str):
        return f"a string ({short_repr(value)})"
    return f"a {type(value).__name__}"


def parse_assignment(text: str) -> Tuple[str, Any]:
    """Parse a CLI `PATH=VALUE`: the value is TOML when it parses as a TOML value
    (`0.02`, `true`, `"5 ms"`, `[1, 2]`), else the bare text (`5 ms`, `newreno`)."""
    path, sep, raw = text.partition("=")
    path, raw = path.strip(), raw.strip()
    if not sep or not path:
        raise ScenarioError(f"--set {short_repr(text)}: expected PATH=VALUE, e.g. flows.0.tcp.variant=newreno")
    if not raw:
        raise ScenarioError(f"--set {short_repr(text)}: no value after '='")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except ValueError:  # not TOML (TOMLDecodeError), or an integer past Python's digit limit
        return path, raw
    if isinstance(value, _TOML_DATES):
        return path, raw  # no scenario field is a date; keep what was typed
    return path, value


# --- serialisation ---------------------------------------------------------------------


def to_json_text(doc: Mapping[str, Any]) -> str:
    """The scenario as JSON for the core. NumPy scalars (from sweeps) become plain
    numbers; NaN and infinities, which JSON cannot carry, go as text for the core to refuse
    with the field's range."""
    try:
        return json.dumps(non_finite_as_text(doc), default=_json_default, allow_nan=False)
    except TypeError as e:
        raise ScenarioError(str(e)) from None


def _json_default(value: Any) -> Any:
    if _is_numpy_scalar(value):
        return value.item()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, _TOML_DATES):
        return value.isoformat()
    raise TypeError(f"a value of type {type(value).__name__} cannot go in a scenario")


def _is_numpy_scalar(value: Any) -> bool:
    # Without importing NumPy (60 ms): a NumPy value exists only once NumPy is loaded.
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.generic)


def non_finite_as_text(value: Any) -> Any:
    """`value` with each NaN or infinity (a TOML `nan`, `inf`; NumPy's too) as its text,
    which JSON can carry: the core then answers it with the field's own range
    (`links.0.delay: nan is not a finite number; use 0 s to 1,000,000 s`), where a check
    here could only say "a finite value" (issue 27)."""
    if isinstance(value, Mapping):
        return {k: non_finite_as_text(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [non_finite_as_text(v) for v in value]
    if (isinstance(value, float) or (_is_numpy_scalar(value) and value.dtype.kind == "f")) \
            and not math.isfinite(float(value)):
        return str(float(value))  # "nan", "inf", "-inf"
    return value
