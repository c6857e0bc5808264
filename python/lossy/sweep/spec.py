"""Sweep specs: read one (TOML file or dict), check it, and expand it into points and runs.

A point is one combination of grid values x zip row x variant; a run is (point,
replication). Every run uses the master seed and its replication index, so variants and
points at the same replication see the same random streams (common random numbers).
Spec mistakes raise ScenarioError with the spec path first (`grid.wireless.p.values:
...`), which the CLI prints as one line.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from .. import _core
from .._core import ScenarioError
from ..scenario import Scenario, apply_overrides, load_scenario, to_json_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python < 3.11 only
    import tomli as tomllib

SpecSource = Union[str, "os.PathLike[str]", Mapping[str, Any]]

# Columns every stored row has; an axis or metric alias may not take these names.
RESERVED_COLUMNS = frozenset({
    "run_id", "point", "replication", "seed", "status", "error", "wall_s",
    "lossy_version", "git_commit", "scenario_hash", "core_versions",
    # the core's own summary fields
    "scenario", "sim_time_s", "events", "events_per_s", "sim_s_per_wall_s", "packets_delivered",
    "packets_injected", "packets_duplicated", "packets_delivered_all", "drops_queue", "drops_channel",
    "drops_link_retry", "drops_link_down", "drops_no_route", "packets_absorbed", "packets_held_at_end",
})

# Bounds on the work one spec may ask for, so a typo fails at once instead of planning
# for hours. 100,000 replications already give a CI of 0.3 % of the spread; 100,000
# points take ~20 s just to check through the core; a million runs is a day of 0.1 s
# runs on a 16-core machine and an index of ~200 MB. Split bigger studies into sweeps.
MAX_REPLICATIONS = 100_000
MAX_POINTS = 100_000
MAX_RUNS = 1_000_000

_KEYS = ("name", "description", "scenario", "replications", "seed", "duration", "set",
         "grid", "zip", "variants", "metrics", "traces", "quick")
_MERGED_TABLES = ("set", "grid", "zip", "variants", "metrics")  # [quick] merges these per key


@dataclass(frozen=True)
class Axis:
    """One column of the results: a grid or zip axis (one path, a list of values) or a
    variant axis (named options, each a table of path -> value)."""

    name: str
    kind: str  # "grid" | "zip" | "variants"
    path: Optional[str]  # None for variant axes
    values: Tuple[Any, ...]  # for variants: the option names
    options: Dict[str, Dict[str, Any]] = field(default_factory=dict)  # variants only
    where: str = ""  # where the spec sets the path, for errors: `grid.wireless.p.path`


@dataclass(frozen=True)
class Point:
    """One combination of axis values: its id, its column values, its final scenario."""

    id: str
    coords: Dict[str, Any]  # axis name -> value as stored in the column
    scenario: Scenario  # the final scenario dict (base + set + axes)
    scenario_hash: str
    error: Optional[str]  # the core's message when this point cannot run (stored as failed)
    json: Optional[str] = None  # the scenario as the core reads it (None: it cannot be written)
    # sha256 fed with `[<canonical scenario>,`: a run id then hashes a few more bytes,
    # not the whole scenario again (a million runs are planned in about a second).
    _prefix: Any = field(default=None, repr=False, compare=False)

    def run_id(self, seed: int, replication: int) -> str:
        """The same id as run_id(self.scenario, seed, replication), cheaply."""
        if self._prefix is None:
            return run_id(self.scenario, seed, replication)
        h = self._prefix.copy()
        h.update(f"{seed},{replication}]".encode())
        return str(h.hexdigest()[:16])


@dataclass(frozen=True)
class Run:
    run_id: str
    point: Point
    replication: int
    seed: int


@dataclass
class SweepSpec:
    name: str
    source: Optional[Path]  # the spec file, when it came from one
    base: Scenario
    replications: int
    seed: int
    fixed: Dict[str, Any]  # [set] and the duration/traces shorthands, applied to every run
    axes: List[Axis]  # grid axes, then zip axes, then variant axes (column order)
    metrics: Dict[str, str]  # alias -> flat summary key
    traces: List[str]
    quick: bool = False
    points: List[Point] = field(default_factory=list)

    @property
    def axis_names(self) -> List[str]:
        return [a.name for a in self.axes]

    def variant_axes(self) -> List[str]:
        return [a.name for a in self.axes if a.kind == "variants"]

    def runs(self, replications: Optional[Mapping[str, int]] = None,
             tick: Optional[Callable[[int, int], None]] = None) -> List[Run]:
        """Every run: each point for replications 0..n-1 (n per point id when given,
        else the spec's `replications`). Points come first so that early results cover
        the whole grid. `tick(done, total)` hears of progress on a big sweep."""
        out = []
        counts = [replications.get(p.id, self.replications) if replications else self.replications
                  for p in self.points]
        total = sum(counts)
        most = max(counts, default=0)
        for rep in range(most):
            for point, n in zip(self.points, counts):
                if rep < n:
                    out.append(Run(point.run_id(self.seed, rep), point, rep, self.seed))
            if tick is not None:
                tick(len(out), total)
        return out

    def to_json(self) -> Dict[str, Any]:
        """What `results/<name>/sweep.json` keeps, so that a store can be read without its spec."""
        return {
            "name": self.name,
            "source": str(self.source) if self.source else None,
            "quick": self.quick,
            "replications": self.replications,
            "seed": self.seed,
            "axes": [{"name": a.name, "kind": a.kind, "path": a.path, "values": list(a.values)}
                     for a in self.axes],
            "metrics": self.metrics,
            "points": [{"id": p.id, "coords": p.coords, "scenario_hash": p.scenario_hash}
                       for p in self.points],
        }


# --- hashing ---------------------------------------------------------------------------


def canonical_json(doc: Any) -> str:
    """Key-sorted, compact JSON: the same scenario always gives the same text. NaN is
    allowed here (a run that carries one fails in the core, but it still needs an id)."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), default=_plain, allow_nan=True)


def scenario_hash(scenario: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_json(scenario).encode()).hexdigest()[:16]


def run_id(scenario: Mapping[str, Any], seed: int, replication: int) -> str:
    text = canonical_json([scenario, seed, replication])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):  # NumPy scalars from a dict spec
        return value.item()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)  # TOML dates and the like: hashed by their text


# --- loading ---------------------------------------------------------------------------


def load_spec(source: SpecSource, quick: bool = False,
              progress: Optional[Callable[[int, int], None]] = None) -> SweepSpec:
    """Read and check a spec (a TOML file path or a dict) and expand its points
    (`progress(done, total)` hears of it on a big grid)."""
    doc, path = _read(source)
    if not isinstance(doc, Mapping):
        raise ScenarioError(f"a sweep spec is a table, not {type(doc).__name__}")
    _check_keys(doc, _KEYS, "")
    quick = quick and "quick" in doc
    if quick:
        doc = _apply_quick(doc)
    elif "quick" in doc:
        _check_keys(_table(doc["quick"], "quick"), tuple(k for k in _KEYS if k != "quick"), "quick")
    base_dir = path.parent if path else Path.cwd()

    name = doc.get("name", path.stem if path else None)
    if not isinstance(name, str) or not name.strip() or "/" in name or name.startswith("."):
        raise ScenarioError(
            "name: a sweep needs a name for results/<name>/ (a plain string without '/')"
            if name is None else f"name: {name!r} is not usable as a directory name")
    base = _base_scenario(doc.get("scenario"), base_dir)
    replications = _int(doc.get("replications", 1), "replications", low=1, high=MAX_REPLICATIONS)
    seed = _int(doc.get("seed", 1), "seed", low=0, high=2**64 - 1)

    fixed: Dict[str, Any] = {}
    if "duration" in doc:
        if not isinstance(doc["duration"], str):
            raise ScenarioError(f"duration: {doc['duration']!r} is not a duration; use e.g. \"50 s\"")
        fixed["duration"] = doc["duration"]
    fixed.update(_overrides(doc.get("set", {}), "set", base))
    traces = _traces(doc.get("traces", []))
    for t in traces:
        fixed[f"traces.{t}"] = True

    axes = _grid_axes(doc.get("grid", {}), "grid") + _zip_axes(doc.get("zip", {}))
    axes += _variant_axes(doc.get("variants", {}), base)
    metrics = _metrics(doc.get("metrics", {}))
    _check_names(axes, metrics)

    spec = SweepSpec(name=name.strip(), source=path, base=base, replications=replications,
                     seed=seed, fixed=fixed, axes=axes, metrics=metrics, traces=traces,
                     quick=quick)
    _check_size(spec)
    spec.points = _expand(spec, progress)
    return spec


def _check_size(spec: SweepSpec) -> None:
    """Refuse a grid or a run count beyond the limits before expanding anything."""
    points = 1
    for a in spec.axes:
        if a.kind != "zip":
            points *= len(a.values)
    zipped = [a for a in spec.axes if a.kind == "zip"]
    points *= len(zipped[0].values) if zipped else 1
    if points > MAX_POINTS:
        sizes = " x ".join(str(len(a.values)) for a in spec.axes if a.kind != "zip")
        raise ScenarioError(f"grid: {points:,} points ({sizes}) is more than {MAX_POINTS:,}; "
                            "split the sweep or use fewer values")
    if points * spec.replications > MAX_RUNS:
        raise ScenarioError(f"replications: {spec.replications:,} replications of {points:,} points is "
                            f"{points * spec.replications:,} runs, more than {MAX_RUNS:,}; ask for fewer")


def _read(source: SpecSource) -> Tuple[Mapping[str, Any], Optional[Path]]:
    if isinstance(source, Mapping):
        return copy.deepcopy(dict(source)), None
    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ScenarioError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    try:
        return tomllib.loads(text), path
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{path}: invalid TOML: {' '.join(str(e).split())}") from None


def _apply_quick(doc: Mapping[str, Any]) -> Dict[str, Any]:
    """The spec with its [quick] table laid over it: scalars replace, and [set], [grid],
    [zip], [variants] and [metrics] are replaced key by key (one axis at a time)."""
    quick = _table(doc["quick"], "quick")
    _check_keys(quick, tuple(k for k in _KEYS if k != "quick"), "quick")
    out = {k: v for k, v in doc.items() if k != "quick"}
    for key, value in quick.items():
        if key in _MERGED_TABLES and isinstance(out.get(key), Mapping):
            out[key] = {**out[key], **_table(value, f"quick.{key}")}
        else:
            out[key] = value
    return out


def _base_scenario(value: Any, base_dir: Path) -> Scenario:
    if value is None:
        raise ScenarioError("scenario: missing; give a scenario file (relative to the spec) or a [scenario] table")
    if isinstance(value, Mapping):
        return load_scenario(value)
    if isinstance(value, str):
        path = Path(value) if Path(value).is_absolute() else base_dir / value
        if not path.is_file():
            what = "is a directory, not a scenario file" if path.is_dir() else "no such file"
            raise ScenarioError(f"scenario: {value!r}: {what} ({path})")
        try:
            return load_scenario(path)
        except OSError as e:  # unreadable (permissions), or gone since the check
            raise ScenarioError(f"scenario: {value!r}: {e.strerror or e} ({path})") from None
    raise ScenarioError(f"scenario: {value!r} is neither a file name nor a table")


# --- checking pieces -------------------------------------------------------------------


def _check_keys(doc: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    for key in doc:
        if key not in allowed:
            at = f"{where}.{key}" if where else str(key)
            raise ScenarioError(f"{at}: unknown key; expected one of {', '.join(allowed)}")


def _table(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ScenarioError(f"{where}: expected a table, got {_kind(value)}")
    return value


def _int(value: Any, where: str, low: int, high: Optional[int] = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bound = f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"
        raise ScenarioError(f"{where}: {value!r} is not {bound}")
    return value


def _overrides(value: Any, where: str, base: Scenario) -> Dict[str, Any]:
    """A table of dotted path -> value. TOML reads an unquoted `flows.0.tcp.variant = ..`
    as nested tables, which would replace the whole `flows` list: refuse that with a hint."""
    table = _table(value, where)
    for path, v in table.items():
        target = _lookup(base, str(path))
        if isinstance(v, Mapping) and isinstance(target, list):
            raise ScenarioError(
                f"{where}.{path}: {path} is a list in the scenario, and this is a table; "
                f"quote dotted paths, e.g. \"{path}.0.field\" = value")
    return dict(table)


def _lookup(doc: Any, path: str) -> Any:
    node = doc
    for key in path.split("."):
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node


def _traces(value: Any) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(t, str) and t for t in value):
        raise ScenarioError(f"traces: {value!r} is not a list of trace names, e.g. [\"cwnd\"]")
    return list(dict.fromkeys(value))


def _axis_values(value: Any, where: str) -> Tuple[str, List[Any]]:
    """`[v, ...]` (the path is the axis name) or `{ path = "...", values = [...] }`."""
    if isinstance(value, list):
        return "", value
    if isinstance(value, Mapping) and ({"path", "values"} & set(value)):
        _check_keys(value, ("path", "values"), where)
        path = value.get("path")
        values = value.get("values")
        if not isinstance(path, str) or not path:
            raise ScenarioError(f"{where}.path: missing; give the dotted scenario path, e.g. \"links.1.loss.p\"")
        if not isinstance(values, list):
            raise ScenarioError(f"{where}.values: expected a list of values, got {_kind(values)}")
        return path, values
    raise ScenarioError(
        f"{where}: expected a list of values or {{ path = \"...\", values = [...] }}, got {_kind(value)}"
        " (quote dotted axis names: \"links.1.loss.p\" = [...])")


def _grid_axes(value: Any, where: str) -> List[Axis]:
    axes = []
    for name, spec in _table(value, where).items():
        at = f"{where}.{name}"
        path, values = _axis_values(spec, at)
        vat = f"{at}.values" if isinstance(spec, Mapping) else at
        if not values:
            raise ScenarioError(f"{vat}: empty; an axis needs at least one value")
        _check_distinct(values, vat)
        _check_one_type(values, f"{at}.values")
        axes.append(Axis(name=str(name), kind="grid", path=path or str(name), values=tuple(values),
                         where=f"{at}.path" if path else at))
    return axes


def _zip_axes(value: Any) -> List[Axis]:
    axes = [Axis(a.name, "zip", a.path, a.values, where=a.where) for a in _grid_axes(value, "zip")]
    lengths = {a.name: len(a.values) for a in axes}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{n} has {k}" for n, k in lengths.items())
        first = next(n for n, k in lengths.items() if k != next(iter(lengths.values())))
        raise ScenarioError(f"zip.{first}.values: zipped lists must have the same length ({detail})")
    return axes


def _variant_axes(value: Any, base: Scenario) -> List[Axis]:
    axes = []
    for name, options in _table(value, "variants").items():
        at = f"variants.{name}"
        table = _table(options, at)
        if not table:
            raise ScenarioError(f"{at}: no variants; add e.g. reno = {{ \"agents\" = [] }}")
        parsed = {str(label): _overrides(o, f"{at}.{label}", base) for label, o in table.items()}
        axes.append(Axis(name=str(name), kind="variants", path=None, values=tuple(parsed), options=parsed))
    return axes


def _metrics(value: Any) -> Dict[str, str]:
    out = {}
    for alias, key in _table(value, "metrics").items():
        if not isinstance(key, str) or not key:
            raise ScenarioError(f"metrics.{alias}: expected a summary key such as \"flows.0.goodput_bps\", got {key!r}")
        out[str(alias)] = key
    return out


def _check_names(axes: List[Axis], metrics: Mapping[str, str]) -> None:
    seen: Dict[str, str] = {}
    for axis in axes:
        where = f"{axis.kind}.{axis.name}"
        if axis.name in RESERVED_COLUMNS:
            raise ScenarioError(f"{where}: {axis.name!r} is a column of every result; name the axis otherwise")
        if axis.name in seen:
            raise ScenarioError(f"{where}: axis name already used in [{seen[axis.name]}]")
        seen[axis.name] = axis.kind
    for alias in metrics:
        if alias in RESERVED_COLUMNS or alias in seen:
            raise ScenarioError(f"metrics.{alias}: {alias!r} is already a column; choose another alias")


def _check_distinct(values: List[Any], where: str) -> None:
    texts = [canonical_json(v) for v in values]
    for i, text in enumerate(texts):
        if text in texts[:i]:
            raise ScenarioError(f"{where}: {values[i]!r} appears twice")


def _check_one_type(values: List[Any], where: str) -> None:
    """An axis is one column of the results, so its values must have one type: numbers
    (ints and floats mix), text (tables and lists are stored as their JSON text), or
    booleans. A column of text and numbers cannot be stored as one Parquet type."""
    def kind(v: Any) -> str:
        if isinstance(v, bool):
            return "booleans"
        if isinstance(v, (int, float)):
            return "numbers"
        return "text"
    kinds = {kind(v): v for v in values}
    if len(kinds) > 1:
        shown = ", ".join(f"{k} ({v!r})" for k, v in kinds.items())
        raise ScenarioError(f"{where}: mixes {shown}; give every value of an axis the same type, "
                            "e.g. all strings such as \"5 Mbps\"")


def _kind(value: Any) -> str:
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)


# --- expansion -------------------------------------------------------------------------


def _expand(spec: SweepSpec, progress: Optional[Callable[[int, int], None]] = None) -> List[Point]:
    """Every point, its final scenario, and whether the core accepts it.

    A path the scenario has no field for is a spec mistake (ScenarioError, naming the
    axis); a value the core refuses only fails that point, whose runs are stored as
    failed with the core's message while the others run.
    """
    grid = [a for a in spec.axes if a.kind == "grid"]
    zipped = [a for a in spec.axes if a.kind == "zip"]
    variants = [a for a in spec.axes if a.kind == "variants"]
    zip_rows = list(zip(*(a.values for a in zipped))) if zipped else [()]
    total = math.prod(len(a.values) for a in grid + variants) * len(zip_rows)
    points: List[Point] = []
    by_hash: Dict[str, str] = {}
    for grid_values in itertools.product(*(a.values for a in grid)):
        for zip_row in zip_rows:
            for labels in itertools.product(*(a.values for a in variants)):
                coords: Dict[str, Any] = {}
                overrides: List[Tuple[str, str, Any]] = [(_where_fixed(p), p, v) for p, v in spec.fixed.items()]
                for axis, v in zip(grid + zipped, grid_values + zip_row):
                    coords[axis.name] = _column_value(v, axis)
                    assert axis.path is not None
                    overrides.append((axis.where, axis.path, v))
                for axis, label in zip(variants, labels):
                    coords[axis.name] = label
                    for p, v in axis.options[label].items():
                        overrides.append((f"variants.{axis.name}.{label}.{p}", p, v))
                point = _point(spec.base, coords, overrides)
                if point.scenario_hash in by_hash:
                    raise ScenarioError(
                        f"points {by_hash[point.scenario_hash]!r} and {point.id!r} give the same scenario; "
                        "drop one (their runs would be the same runs)")
                by_hash[point.scenario_hash] = point.id
                points.append(point)
                if progress is not None and len(points) % 1000 == 0:
                    progress(len(points), total)
    if points and all(p.error for p in points):
        raise ScenarioError(f"no point of the sweep can run; {points[0].error}")
    return points


def _where_fixed(path: str) -> str:
    if path == "duration":
        return "duration"
    if path.startswith("traces."):
        return "traces"
    return f"set.{path}"


def _point(base: Scenario, coords: Dict[str, Any], overrides: List[Tuple[str, str, Any]]) -> Point:
    doc = copy.deepcopy(base)
    for where, path, value in overrides:
        try:
            apply_overrides(doc, {path: copy.deepcopy(value)})
        except ScenarioError as e:
            raise ScenarioError(f"{where}: {e}") from None
    error = None
    text = None
    try:
        text = to_json_text(doc)
        _core.validate(text)
    except ScenarioError as e:
        message = str(e)
        field_path = _unknown_field(message)
        if field_path is not None:
            raise ScenarioError(f"{_blame(field_path, overrides)}: {message}") from None
        error = message
    canonical = canonical_json(doc)
    prefix = hashlib.sha256(f"[{canonical},".encode())
    return Point(id=point_id(coords), coords=coords, scenario=doc,
                 scenario_hash=hashlib.sha256(canonical.encode()).hexdigest()[:16], error=error,
                 json=text, _prefix=prefix)


_UNKNOWN = re.compile(r"^(?P<path>[^:]*): unknown field `(?P<field>[^`]*)`")


def _unknown_field(message: str) -> Optional[List[str]]:
    """For the core's `links[1].loss: unknown field `q`, ...`, the dotted paths it may
    mean (`links.1.loss.q`); None for any other error."""
    m = _UNKNOWN.match(message)
    if not m:
        return None
    path = re.sub(r"\[(\d+)\]", r".\1", m["path"]).strip(".")
    return [path] if path.rsplit(".", 1)[-1] == m["field"] else [f"{path}.{m['field']}".strip("."), path]


def _blame(candidates: List[str], overrides: List[Tuple[str, str, Any]]) -> str:
    """Which part of the spec set the unknown field: the axis, [set] or variant that
    wrote that path (or a table above it); else the base scenario."""
    for where, path, _ in reversed(overrides):
        for c in candidates:
            if c == path or c.startswith(path + ".") or path.startswith(c + "."):
                return str(where)
    return "scenario"


def _column_value(value: Any, axis: Axis) -> Any:
    """Scalars as they are (ints as floats when the axis mixes them, so the column has
    one type); tables and lists as canonical JSON text."""
    if isinstance(value, (Mapping, list)):
        return canonical_json(value)
    mixed = any(isinstance(v, float) for v in axis.values)
    if mixed and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def point_id(coords: Mapping[str, Any]) -> str:
    """`wireless.p=0.005 scheme=reno`; `all` for a sweep without axes."""
    if not coords:
        return "all"
    parts = []
    for name, value in coords.items():
        text = str(value) if isinstance(value, str) else json.dumps(value)
        if isinstance(value, float) and math.isfinite(value):
            text = repr(value)
        parts.append(f"{name}={text}")
    return " ".join(parts)
