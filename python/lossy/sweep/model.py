"""What a sweep spec expands into: axes, points, runs, and the hashes that name them.

A run's id hashes (scenario, seed, replication) in canonical JSON, so the same run has
the same id in every store and every version of lossy: resuming needs nothing else.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from ..scenario import Scenario, identity


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
        told = 0
        for rep in range(most):
            for point, n in zip(self.points, counts):
                if rep < n:
                    out.append(Run(point.run_id(self.seed, rep), point, rep, self.seed))
            if tick is not None and (len(out) - told >= 1000 or len(out) == total):
                told = len(out)  # a progress bar redraw costs more than 1,000 run ids
                tick(told, total)
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
    return hashlib.sha256(canonical_json(identity(scenario)).encode()).hexdigest()[:16]


def run_id(scenario: Mapping[str, Any], seed: int, replication: int) -> str:
    # `identity`: a data file's content, not its path, names the scenario.
    text = canonical_json([identity(scenario), seed, replication])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _plain(value: Any) -> Any:
    if hasattr(value, "item"):  # NumPy scalars from a dict spec
        return value.item()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)  # TOML dates and the like: hashed by their text
