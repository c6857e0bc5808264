"""Sweep specs: read one (TOML file or dict), check it, and expand it into points and runs.

A point is one combination of grid values x zip row x variant; a run is (point,
replication). Every run uses the master seed and its replication index, so variants and
points at the same replication see the same random streams (common random numbers).
Spec mistakes raise ScenarioError with the spec path first (`grid.wireless.p.values:
...`), which the CLI prints as one line.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from .._core import ScenarioError
from ..scenario import Scenario, load_scenario, read_toml
from ..shipped import instead_of, resolve, scenario_names
from .expand import expand, point_id
from .model import Axis, Point, Run, SweepSpec, canonical_json, run_id, scenario_hash

__all__ = ["MAX_POINTS", "MAX_REPLICATIONS", "MAX_RUNS", "RESERVED_COLUMNS", "Axis", "Point", "Run",
           "SpecSource", "SweepSpec", "canonical_json", "load_spec", "point_id", "run_id", "scenario_hash"]

SpecSource = Union[str, "os.PathLike[str]", Mapping[str, Any]]

# Columns every stored row has; an axis or metric alias may not take these names.
RESERVED_COLUMNS = frozenset({
    "run_id", "point", "replication", "seed", "status", "error", "wall_s",
    "lossy_version", "git_commit", "scenario_hash", "core_versions",
    # the core's own summary fields
    "scenario", "sim_time_s", "events", "cpu_s", "events_per_s", "sim_s_per_wall_s", "packets_delivered",
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

    name = store_name(doc.get("name", path.stem if path else None))
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

    spec = SweepSpec(name=name, source=path, base=base, replications=replications,
                     seed=seed, fixed=fixed, axes=axes, metrics=metrics, traces=traces,
                     quick=quick)
    _check_size(spec)
    spec.points = expand(spec, progress)
    return spec


# A name becomes the directory results/<name>/ (or <name>-quick/): one path component,
# at most NAME_MAX (255 bytes on Linux, macOS and Windows' NTFS) with the suffix.
NAME_MAX_BYTES = 255 - len("-quick")


def store_name(raw: Any) -> str:
    """The sweep's name, checked as the directory name it becomes: stripped first, then
    checked (`" .."` is `..`), so the store never lands outside results/."""
    if raw is None:
        raise ScenarioError("name: a sweep needs a name for results/<name>/ (a plain string without '/')")
    if not isinstance(raw, str):
        raise ScenarioError(f"name: {shorten(repr(raw))} is not a string; use a directory name such as \"reno-vs-eln\"")
    name = raw.strip()
    shown = shorten(repr(raw))
    if not name:
        raise ScenarioError(f"name: {shown} is empty; use a directory name such as \"reno-vs-eln\"")
    bad = sorted({c for c in name if c in "/\\" or ord(c) < 32 or ord(c) == 127})
    if bad:
        listed = " ".join(repr(c) for c in bad)
        raise ScenarioError(f"name: {shown} holds {listed}; a directory name has no '/', '\\' or control characters")
    if name.startswith("."):
        raise ScenarioError(f"name: {shown} starts with '.'; a results directory is not hidden and never '..'")
    size = len(name.encode("utf-8", "surrogatepass"))
    if size > NAME_MAX_BYTES:
        raise ScenarioError(f"name: {shown} is {size} bytes long; a directory name holds at most "
                            f"{NAME_MAX_BYTES} bytes (255 with '-quick')")
    return name


def shorten(text: str, limit: int = 60) -> str:
    """A value as an error line quotes it: long ones cut with an ellipsis."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


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
    path = resolve(os.fspath(source), "experiment")  # `lossy sweep reno-vs-eln`; an unknown name lists them
    # A regular file of bounded size, as a scenario (issue 27: /dev/zero was read to 2 GiB).
    return read_toml(path, what="sweep spec file"), path


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
        return load_scenario(value, base_dir=base_dir)  # its data files: beside the spec
    if isinstance(value, str):
        path = Path(value) if Path(value).is_absolute() else base_dir / value
        if not path.exists():  # `scenario = "last-hop"`: the shipped one, from anywhere
            path = instead_of(value, "scenario") or path
        if not path.is_file():
            if path.is_dir():
                what = "is a directory, not a scenario file"
            elif path.exists():  # /dev/zero: read as a scenario, it would never end
                what = "is not a regular file (a device, pipe or socket); give a scenario file in TOML"
            else:
                shipped = ", ".join(scenario_names())
                what = f"no such file, nor a shipped scenario of that name; shipped: {shipped}"
            where = "" if str(path) == value else f" ({path})"  # where a relative name was looked for
            raise ScenarioError(f"scenario: {shorten(repr(value))}: {what}{where}")
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


_TRACE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,63}$")


def _traces(value: Any) -> List[str]:
    if not isinstance(value, list) or not all(isinstance(t, str) and t for t in value):
        raise ScenarioError(f"traces: {shorten(repr(value))} is not a list of trace names, e.g. [\"cwnd\"]")
    for name in value:  # a trace name becomes a file name: traces/<run_id>/<name>.parquet
        if not _TRACE_NAME.match(name):
            raise ScenarioError(f"traces: {shorten(repr(name))} is not a trace name; use names such as "
                                "\"cwnd\", \"seq\" or \"throughput\"")
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


def _grid_axes(value: Any, where: str, distinct: bool = True) -> List[Axis]:
    axes = []
    for name, spec in _table(value, where).items():
        at = f"{where}.{name}"
        path, values = _axis_values(spec, at)
        vat = f"{at}.values" if isinstance(spec, Mapping) else at
        if not values:
            raise ScenarioError(f"{vat}: empty; an axis needs at least one value")
        if distinct:  # a zip axis may repeat a value; its rows must differ (_zip_axes)
            _check_distinct(values, vat)
        _check_one_type(values, f"{at}.values")
        axes.append(Axis(name=str(name), kind="grid", path=path or str(name), values=tuple(values),
                         where=f"{at}.path" if path else at))
    return axes


def _zip_axes(value: Any) -> List[Axis]:
    axes = [Axis(a.name, "zip", a.path, a.values, where=a.where) for a in _grid_axes(value, "zip", distinct=False)]
    lengths = {a.name: len(a.values) for a in axes}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{n} has {k}" for n, k in lengths.items())
        first = next(n for n, k in lengths.items() if k != next(iter(lengths.values())))
        raise ScenarioError(f"zip.{first}.values: zipped lists must have the same length ({detail})")
    # Zipped values may repeat (a p_eg shared by two chains); whole rows may not.
    seen: Dict[str, int] = {}
    for i, row in enumerate(zip(*(a.values for a in axes))):
        key = canonical_json(list(row))
        if key in seen:
            names = ", ".join(a.name for a in axes)
            raise ScenarioError(f"zip: rows {seen[key]} and {i} of ({names}) are the same; each row needs other values")
        seen[key] = i
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
            raise ScenarioError(f"{where}: {_toml(values[i])} appears twice")


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
        shown = ", ".join(f"{k} ({_toml(v)})" for k, v in kinds.items())
        raise ScenarioError(f"{where}: mixes {shown}; give every value of an axis the same type "
                            "(all numbers, all true/false, or all strings such as \"5 Mbps\")")


def _toml(value: Any) -> str:
    """A value as the spec's TOML spells it: true, "5 Mbps", {model = "bernoulli", p = 0.01}."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)


def _kind(value: Any) -> str:
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return repr(value)
