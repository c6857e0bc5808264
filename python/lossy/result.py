"""RunResult: what one run (scenario, seed, replication) returns, flattened for tables."""

from __future__ import annotations

import array
import json
import math
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Union, cast

from .formatting import number, si

if TYPE_CHECKING:
    import numpy as np

# NumPy is imported only where a result's arrays are asked for (`flow_table`, `traces`,
# the DataFrames): `lossy run` takes the core's columns as `array.array`s and prints
# them without it, ~100 ms of its start-up (issue 28).

Scalar = Any  # bool | int | float | str | None
Traces = Dict[str, Dict[str, "np.ndarray"]]

# Summary fields that measure the machine, not the simulation: they differ between two
# runs of the same (scenario, seed, replication) and are left out of reproducibility checks.
WALL_CLOCK_KEYS = frozenset({"wall_s", "cpu_s", "events_per_s", "sim_s_per_wall_s"})

_SECTIONS = ("flows", "links", "agents")


# A section (flows, links, agents) with more items than this is not spread into
# `<section>.<i>.<key>` summary columns: 1,000 flows would make 25,000 columns. Its long
# table (`section_columns`) and the core's aggregates (`goodput_*`, `jain_index`,
# `groups.<name>.<key>`) carry it instead.
MAX_FLATTENED = 16

# A section as the core returns it (column name -> NumPy array or list of str) or in the
# old shape (a list of dicts, one per item).
Section = Union[Mapping[str, Any], Sequence[Mapping[str, Any]]]
Columns = Dict[str, Union[List[Any], "np.ndarray"]]

# An `array.array` column's type code -> the NumPy dtype the core gives the same column
# (crates/lossy-py: `run(..., numpy=False)`).
_DTYPES = {"q": "int64", "Q": "uint64", "d": "float64", "I": "uint32", "B": "uint8"}


class RunResult:
    """The result of one run.

    `summary` is one flat row of typed scalars: the core's summary fields (with its goodput
    aggregates, and `groups.<name>.<key>` per flow group) plus `flows.<i>.<key>`,
    `links.<i>.<key>` and `agents.<i>.<key>` for sections of at most `MAX_FLATTENED`
    items, so that a sweep can put one run per row. `flow_table` and `link_table` are the
    long tables (column name -> 1-D NumPy array, or list of str); `flows` and `links` the same
    as a list of dicts, built on first use; `agents` is a list of dicts; `traces` maps a
    trace name to its columns (1-D NumPy arrays); `captures` is a list of
    {"link", "packets", "pcap"} (pcap file bytes), one per captured link direction;
    `notes` is a list of one-line remarks on a valid run (e.g. a Syndrome receiver whose
    data never carried a counter), kept out of `summary` so they never become sweep
    columns; `raw` is what the core returned (from `lossy.run`, its numeric columns and
    traces as `array.array`s: `flow_table`, `link_table` and `traces` are the same as
    NumPy arrays).
    """

    def __init__(
        self,
        raw: Mapping[str, Any],
        scenario: Optional[Mapping[str, Any]] = None,
    ) -> None:
        self.raw: Dict[str, Any] = dict(raw)
        self.scenario: Dict[str, Any] = dict(scenario or {})
        # Columns and traces as the core gave them: NumPy arrays, or `array.array`s that
        # become NumPy arrays when `flow_table`, `link_table` or `traces` is first read.
        self._flow_table: Columns = section_columns(self.raw.get("flows", []))
        self._link_table: Columns = section_columns(self.raw.get("links", []))
        self.agents: List[Dict[str, Any]] = list(self.raw.get("agents", []))
        self._traces: Dict[str, Columns] = dict(self.raw.get("traces", {}))
        self.captures: List[Dict[str, Any]] = list(self.raw.get("captures", []))
        self.notes: List[str] = list(self.raw.get("notes", []))
        self.summary: Dict[str, Scalar] = flatten_result(self.raw)
        self._flows: Optional[List[Dict[str, Any]]] = None
        self._links: Optional[List[Dict[str, Any]]] = None

    @property
    def flow_table(self) -> Columns:
        """The per-flow long table: column name -> 1-D NumPy array, or list of str."""
        return _numpy_columns(self._flow_table)

    @property
    def link_table(self) -> Columns:
        """The per-link-direction long table, as `flow_table`."""
        return _numpy_columns(self._link_table)

    @property
    def traces(self) -> Traces:
        """Trace name -> column name -> 1-D NumPy array."""
        for columns in self._traces.values():
            _numpy_columns(columns)
        return cast(Traces, self._traces)

    @property
    def flows(self) -> List[Dict[str, Any]]:
        """One dict per flow (built from `flow_table` on first use)."""
        if self._flows is None:
            self._flows = column_rows(self._flow_table)
        return self._flows

    @property
    def links(self) -> List[Dict[str, Any]]:
        """One dict per link direction (built from `link_table` on first use)."""
        if self._links is None:
            self._links = column_rows(self._link_table)
        return self._links

    def flows_frame(self) -> Any:
        """The per-flow long table as a pandas DataFrame, one row per flow."""
        import pandas as pd  # here, not at import: `lossy run` stays fast

        return pd.DataFrame(self.flow_table)

    def links_frame(self) -> Any:
        """The per-link-direction long table as a pandas DataFrame."""
        import pandas as pd

        return pd.DataFrame(self.link_table)

    def fairness(self, flows: Optional[Sequence[Union[str, int]]] = None) -> Any:
        """Each flow's rate per interval of the throughput trace and Jain's index over
        the flows per interval, as a pandas DataFrame: `time_s` (end of the interval),
        one column of bit/s per flow (named by the flow) and `jain`. `flows` picks and
        orders flows by name or index (default: all). Needs the throughput trace
        (`traces=["throughput"]`; its interval is `traces.throughput_interval`, 100 ms
        by default). The index over the whole run is `summary["jain_index"]`. See
        `lossy.fairness`."""
        from .fairness import interval_rates

        trace = self.traces.get("throughput")
        if trace is None:
            raise ValueError('traces.throughput: the run recorded no throughput trace; '
                             'run with traces=["throughput"]')
        names = [str(n) for n in self.flow_table.get("name", [])]
        count = int(trace["flow"].max()) + 1 if len(trace["flow"]) else 0
        names += [f"flow {i}" for i in range(len(names), count)]
        return interval_rates(trace, names, flows)

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
            "notes": list(self.notes),
        }
        if traces:
            out["traces"] = _jsonable(self._traces)
        return out

    def to_json(self, traces: bool = True, indent: Optional[int] = None) -> str:
        """`to_dict` as JSON text (what `lossy run --json` prints)."""
        return json.dumps(self.to_dict(traces=traces), indent=indent, allow_nan=False)

    def __repr__(self) -> str:
        s = self.raw.get("summary", {})
        head = (
            f"<RunResult {s.get('scenario', '?')!r} seed={s.get('seed')} "
            f"replication={s.get('replication')} sim_time_s={s.get('sim_time_s')} "
        )
        n = _section_len(self._flow_table)
        if n <= 8:
            names = self._flow_table.get("name", [])
            goodput = self._flow_table.get("goodput_bps", [])
            body = ", ".join(f"{names[i]}={_si_bps(goodput[i])}" for i in range(n))
            return f"{head}goodput[{body}] traces={sorted(self._traces)}>"
        return (
            f"{head}flows={n} goodput[mean={_si_bps(s.get('goodput_mean_bps'))}, "
            f"p5={_si_bps(s.get('goodput_p5_bps'))}, min={_si_bps(s.get('goodput_min_bps'))}] "
            f"jain_index={number(s.get('jain_index'))} traces={sorted(self._traces)}>"
        )


def flatten_result(raw: Mapping[str, Any]) -> Dict[str, Scalar]:
    """One flat row: summary fields as they are (per-group aggregates as
    `groups.<name>.<key>`), then, for each of flows, links and agents with at most
    `MAX_FLATTENED` items, every scalar under `<section>.<index>.<key>`. A section may be
    columns (the core's shape) or a list of dicts (the old shape)."""
    row: Dict[str, Scalar] = {}
    _flatten("", raw.get("summary", {}), row)
    for section in _SECTIONS:
        value = raw.get(section)
        if value is None or _section_len(value) > MAX_FLATTENED:
            continue
        if isinstance(value, Mapping):
            keys = list(value)
            lists = [_plain_list(value[k]) for k in keys]
            for i in range(_section_len(value)):
                for key, values in zip(keys, lists):
                    row[f"{section}.{i}.{key}"] = values[i]
        else:
            for i, item in enumerate(value):
                _flatten(f"{section}.{i}", item, row)
    return row


def section_columns(value: Section) -> Columns:
    """A section as columns (column name -> 1-D array or list), from either shape: the
    core's columns are returned as they are; a list of dicts becomes one list per key
    (in first-seen key order, None where an item lacks the key)."""
    if isinstance(value, Mapping):
        return dict(value)
    rows = list(value)
    keys: Dict[str, None] = {}
    for row in rows:
        keys.update(dict.fromkeys(row))
    return {k: [row.get(k) for row in rows] for k in keys}


def column_rows(columns: Mapping[str, Any]) -> List[Dict[str, Any]]:
    """Columns back to one dict per item, with Python scalars; NaN in a float column is
    None, as a missing value was before results came as columns."""
    names = list(columns)
    if not names:
        return []
    lists = [_plain_list(columns[k]) for k in names]
    return [dict(zip(names, values)) for values in zip(*lists)]


def _numpy_columns(columns: Columns) -> Columns:
    """`columns` with each `array.array` replaced, in place, by the NumPy array of the
    same values and the dtype the core gives that column."""
    for name, column in columns.items():
        if isinstance(column, array.array):
            import numpy as np

            columns[name] = np.array(column, dtype=_DTYPES[column.typecode])
    return columns


def _numpy() -> Any:
    """NumPy if something has imported it, else None: then no value can be a NumPy
    array, and asking must not import it."""
    return sys.modules.get("numpy")


def _is_float_array(column: Any) -> bool:
    if isinstance(column, array.array):
        return column.typecode in "fd"
    np = _numpy()
    return np is not None and isinstance(column, np.ndarray) and column.dtype.kind == "f"


def _is_array(value: Any) -> bool:
    np = _numpy()
    return isinstance(value, array.array) or (np is not None and isinstance(value, np.ndarray))


def _plain_list(column: Any) -> List[Any]:
    if _is_array(column):
        values: List[Any] = column.tolist()
        if _is_float_array(column):
            return [None if v != v else v for v in values]  # NaN -> None
        return values
    return list(column)


def _section_len(value: Any) -> int:
    if isinstance(value, Mapping):
        return len(next(iter(value.values()), ()))
    return len(value)


_PLAIN = (str, int, float, bool, type(None))


def _flatten(prefix: str, value: Any, out: Dict[str, Scalar]) -> None:
    if isinstance(value, Mapping):
        dot = f"{prefix}." if prefix else ""
        for k, v in value.items():
            if type(v) in _PLAIN:  # the common case, without the checks below
                out[f"{dot}{k}"] = v
            else:
                _flatten(f"{dot}{k}", v, out)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _flatten(f"{prefix}.{i}", v, out)
    elif isinstance(value, array.array):
        pass  # arrays are traces, not summary columns
    elif (np := _numpy()) is not None and isinstance(value, np.ndarray):
        if value.ndim == 0:
            out[prefix] = value.item()
        # arrays are traces, not summary columns
    elif np is not None and isinstance(value, np.generic):
        out[prefix] = value.item()
    else:
        out[prefix] = value


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if _is_array(value):
        values = value.tolist()
        if _is_float_array(value) and not _all_finite(value, values):
            return [None if not math.isfinite(x) else x for x in values]
        return values
    np = _numpy()
    if np is not None and isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _all_finite(column: Any, values: List[float]) -> bool:
    np = _numpy()
    if np is not None and isinstance(column, np.ndarray):
        return bool(np.isfinite(column).all())
    return all(math.isfinite(x) for x in values)


def _si_bps(bps: Any) -> str:
    return si(bps, "b/s").replace(" ", "")  # 1.23Mb/s: one token in a repr
