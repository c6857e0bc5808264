"""What figures and claims read: each sweep's runs, and a run's traces.

A Context is a mapping from sweep key to that sweep's runs (ok and failed rows, as the
store holds them), so a check reads `ctx["one-hop"]`. `restricted(keys)` is the view a
claim or figure gets: only the sweeps it declares, so an undeclared read fails loudly
instead of working by accident when everything happens to have run.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Union

import pandas as pd

from ..summary import ok_rows
from .tracefiles import read_trace


class NotAvailable(KeyError):
    """A sweep the reader may not see, or one that did not run."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass
class Context(Mapping[str, pd.DataFrame]):
    out: Path
    quick: bool = False
    runs: Dict[str, pd.DataFrame] = field(default_factory=dict)
    stores: Dict[str, Path] = field(default_factory=dict)
    errors: Dict[str, str] = field(default_factory=dict)  # sweep key -> why it has no runs
    metrics: Dict[str, Dict[str, str]] = field(default_factory=dict)  # sweep -> alias -> summary key
    visible: Optional[frozenset[str]] = None  # None: every sweep
    specs: Dict[str, Dict[str, Any]] = field(default_factory=dict)  # sweep -> its spec (full and [quick])

    def __getitem__(self, sweep: str) -> pd.DataFrame:
        if self.visible is not None and sweep not in self.visible:
            declared = ", ".join(sorted(self.visible)) or "none"
            raise NotAvailable(f"reads sweep {sweep!r} but declares only: {declared}")
        if sweep in self.errors:
            raise NotAvailable(f"sweep {sweep!r} did not run: {self.errors[sweep]}")
        if sweep not in self.runs:
            raise NotAvailable(f"sweep {sweep!r} has no runs here (sweeps: {', '.join(self.runs) or 'none'})")
        return self.runs[sweep]

    def __iter__(self) -> Iterator[str]:
        return iter(k for k in self.runs if self.visible is None or k in self.visible)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def ok(self, sweep: str) -> pd.DataFrame:
        """The sweep's finished runs."""
        return ok_rows(self[sweep])

    def trace(self, sweep: str, run: Union[str, Mapping[str, Any], "pd.Series[Any]"], name: str) -> pd.DataFrame:
        """Trace `name` (cwnd, seq, throughput) of one run of `sweep`, given its run_id or
        its row; TraceMissing (one line) when the sweep did not record it."""
        self[sweep]  # the same visibility rules as the runs
        run_id = run if isinstance(run, str) else str(run["run_id"])
        return read_trace(self.stores.get(sweep, self.out / sweep), run_id, name)

    def unit_key(self, sweep: str, column: str) -> str:
        """The summary key behind a metric alias (goodput -> flows.0.goodput_bps), whose
        suffix says its unit; the column itself when it is not an alias."""
        return self.metrics.get(sweep, {}).get(column, column)

    def restricted(self, sweeps: Iterable[str]) -> "Context":
        return Context(self.out, self.quick, self.runs, self.stores, self.errors, self.metrics,
                       frozenset(sweeps), self.specs)

    def with_runs(self, extra: Mapping[str, pd.DataFrame]) -> "Context":
        """This context with more named tables (a claim's inputs) beside the sweeps."""
        if not extra:
            return self
        return Context(self.out, self.quick, {**self.runs, **extra}, self.stores, self.errors, self.metrics,
                       self.visible, self.specs)

    def full_values(self, sweep: str, axis: str) -> Optional[List[Any]]:
        """The values of `axis` in the full run of `sweep` (the quick run may have
        fewer); None when the context does not know the sweep's spec (synthetic runs)."""
        self[sweep]
        spec = self.specs.get(sweep)
        if spec is None:
            return None
        return _full_axes(json.dumps(spec, sort_keys=True, default=str)).get(axis)


@functools.lru_cache(maxsize=64)
def _full_axes(spec_json: str) -> Dict[str, List[Any]]:
    """Axis name -> its values in the full run, for a spec given as JSON (hashable). Read
    from the spec's tables as lossy.sweep.spec reads them ([quick] left out), without
    expanding the points: expanding validates every scenario, which costs a fitted
    channel's fit per point (0.2 s each for Chockalingam's)."""
    from ..sweep.spec import _grid_axes, _zip_axes  # the engine's own reading of the axes

    doc = json.loads(spec_json)
    axes = {a.name: list(a.values) for a in _grid_axes(doc.get("grid", {}), "grid") + _zip_axes(doc.get("zip", {}))}
    axes.update({str(name): list(options) for name, options in doc.get("variants", {}).items()})
    return axes


def as_context(runs: Mapping[str, pd.DataFrame]) -> Context:
    """A Context over plain runs (tests, notebooks): no stores, so no traces."""
    if isinstance(runs, Context):
        return runs
    return Context(Path("."), runs=dict(runs))


__all__ = ["Context", "NotAvailable", "as_context"]
