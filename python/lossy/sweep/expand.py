"""Expanding a checked spec into points: every combination of grid values x zip row x
variant, its final scenario, and whether the core accepts it."""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import math
import re
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import _core
from .._core import ScenarioError
from ..scenario import Scenario, apply_overrides, identity, to_json_text
from .model import Axis, Point, SweepSpec, canonical_json


def expand(spec: SweepSpec, progress: Optional[Callable[[int, int], None]] = None) -> List[Point]:
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
            where = _blame(field_path, overrides)
            # `variants.scheme.reno.links.1.loss.q` names the field already: the core's
            # own `links.1.loss.q: ` is not repeated after it.
            core_path, _, rest = message.partition(": ")
            raise ScenarioError(f"{where}: {rest if where.endswith(core_path) else message}") from None
        error = message
    canonical = canonical_json(identity(doc))  # a data file's content names the scenario
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
