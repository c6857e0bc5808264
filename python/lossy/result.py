"""RunResult: what one run (scenario, seed, replication) returns, flattened for tables."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Dict, List, Optional

import numpy as np

Scalar = Any  # bool | int | float | str | None
Traces = Dict[str, Dict[str, np.ndarray]]

# Summary fields that measure the machine, not the simulation: they differ between two
# runs of the same (scenario, seed, replication) and are left out of reproducibility checks.
WALL_CLOCK_KEYS = frozenset({"wall_s", "events_per_s", "sim_s_per_wall_s"})

_SECTIONS = ("flows", "links", "agents")


class RunResult:
    """The result of one run.

    `summary` is one flat row of typed scalars: the core's summary fields plus
    `flows.<i>.<key>`, `links.<i>.<key>` and `agents.<i>.<key>`, so that a sweep can put
    one run per row. `flows`, `links` and `agents` are the per-item dicts, `traces` maps a
    trace name to its columns (1-D NumPy arrays), and `raw` is what the core returned.
    """

    def __init__(
        self,
        raw: Mapping[str, Any],
        scenario: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.raw: Dict[str, Any] = dict(raw)
        self.scenario: Dict[str, Any] = dict(scenario or {})
        self.flows: List[Dict[str, Any]] = list(self.raw.get("flows", []))
        self.links: List[Dict[str, Any]] = list(self.raw.get("links", []))
        self.agents: List[Dict[str, Any]] = list(self.raw.get("agents", []))
        self.traces: Traces = dict(self.raw.get("traces", {}))
        self.summary: Dict[str, Scalar] = flatten_result(self.raw)

    def comparable_summary(self) -> Dict[str, Scalar]:
        """The summary without wall-clock fields: equal for equal (scenario, seed, replication)."""
        return {
            k: v for k, v in self.summary.items() if k.rsplit(".", 1)[-1] not in WALL_CLOCK_KEYS
        }

    def to_dict(self, traces: bool = True) -> Dict[str, Any]:
        """A JSON-ready dict: arrays become lists and NaN or infinities become None."""
        out: Dict[str, Any] = {
            "summary": _jsonable(self.raw.get("summary", {})),
            "flows": _jsonable(self.flows),
            "links": _jsonable(self.links),
            "agents": _jsonable(self.agents),
        }
        if traces:
            out["traces"] = _jsonable(self.traces)
        return out

    def to_json(self, traces: bool = True, indent: Optional[int] = None) -> str:
        return json.dumps(self.to_dict(traces=traces), indent=indent, allow_nan=False)

    def __repr__(self) -> str:
        s = self.raw.get("summary", {})
        goodputs = ", ".join(
            f"{f.get('name', i)}={_mbps(f.get('goodput_bps'))}" for i, f in enumerate(self.flows)
        )
        return (
            f"<RunResult {s.get('scenario', '?')!r} seed={s.get('seed')} "
            f"replication={s.get('replication')} sim_time_s={s.get('sim_time_s')} "
            f"goodput[{goodputs}] traces={sorted(self.traces)}>"
        )


def flatten_result(raw: Mapping[str, Any]) -> Dict[str, Scalar]:
    """One flat row: summary fields as they are, then every scalar of every flow, link and
    agent under `<section>.<index>.<key>` (nested tables and lists by dotted path too)."""
    row: Dict[str, Scalar] = {}
    _flatten("", raw.get("summary", {}), row)
    for section in _SECTIONS:
        for i, item in enumerate(raw.get(section, [])):
            _flatten(f"{section}.{i}", item, row)
    return row


def _flatten(prefix: str, value: Any, out: Dict[str, Scalar]) -> None:
    if isinstance(value, Mapping):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _flatten(f"{prefix}.{i}", v, out)
    elif isinstance(value, np.ndarray):
        if value.ndim == 0:
            out[prefix] = value.item()
        # arrays are traces, not summary columns
    elif isinstance(value, np.generic):
        out[prefix] = value.item()
    else:
        out[prefix] = value


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f" and not np.isfinite(value).all():
            return [None if not math.isfinite(x) else x for x in value.tolist()]
        return value.tolist()
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _mbps(bps: Any) -> str:
    return "?" if bps is None else f"{bps / 1e6:.3g}Mb/s"
