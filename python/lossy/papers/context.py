"""What figures and claims read: each sweep's runs, and a run's traces.

A Context is a mapping from sweep key to that sweep's runs (ok and failed rows, as the
store holds them), so a check reads `ctx["one-hop"]`. `restricted(keys)` is the view a
claim or figure gets: only the sweeps it declares, so an undeclared read fails loudly
instead of working by accident when everything happens to have run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, Mapping, Optional, Union

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
                       frozenset(sweeps))


def as_context(runs: Mapping[str, pd.DataFrame]) -> Context:
    """A Context over plain runs (tests, notebooks): no stores, so no traces."""
    if isinstance(runs, Context):
        return runs
    return Context(Path("."), runs=dict(runs))


__all__ = ["Context", "NotAvailable", "as_context"]
