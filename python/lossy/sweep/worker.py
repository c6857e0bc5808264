"""The function an executor runs, in whatever process or machine it likes.

`execute_chunk` runs a few runs and returns their rows. It is top-level (so it pickles by
name), imports only the core and the result flattener (cheap to import in a fresh
worker), and never raises: a run the core refuses, or any other error, comes back as a
row with status "failed" and the message. A row depends only on its arguments, so every
executor gives the same rows (wall-clock fields aside). Rows go back to the sweep, which
writes them in batches; traces are written here when the worker shares the store's file
system (a local pool), which spreads their encoding over the workers.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .. import _core
from .._core import ScenarioError
from ..result import flatten_result

Row = Dict[str, Any]

# Keys of a returned row that are not columns: the run's traces (when the parent stores
# them) and its per-item tables (flows, links) as columns.
TRACES_KEY = "__traces__"
SECTIONS_KEY = "__sections__"
TRACE_FILES_KEY = "__trace_files__"  # the trace files this worker wrote: their size and hash
SECTIONS = ("flows", "links")


@dataclass(frozen=True)
class PointJob:
    """What every run of a point shares, made once per point (not once per run): the
    scenario as JSON text, the row's labels and what to keep. A chunk pickles it once
    however many of its runs it carries."""

    point: str
    coords: Mapping[str, Any]
    scenario_json: Optional[str]  # None: the scenario cannot be written as JSON (error says why)
    scenario_hash: str
    metrics: Mapping[str, str]  # alias -> summary key
    traces: Tuple[str, ...]
    git_commit: str
    store: Optional[str]  # the store's directory when this worker may write traces there
    error: Optional[str] = None


Task = Tuple[PointJob, str, int, int]  # (point, run_id, seed, replication)


def execute_chunk(tasks: Sequence[Task]) -> Tuple[List[Row], float]:
    """Run each task; return their rows and the seconds this took (for chunk sizing)."""
    t0 = time.perf_counter()
    rows = [execute(job, rid, seed, rep) for job, rid, seed, rep in tasks]
    return rows, time.perf_counter() - t0


def execute(job: PointJob, run_id: str, seed: int, replication: int) -> Row:
    """Run (scenario, seed, replication); return its row for the store."""
    row: Row = {"run_id": run_id, "point": job.point, **job.coords, "replication": replication,
                "seed": seed, "status": "ok", "error": None, "wall_s": None}
    raw: Any = None
    try:
        if job.scenario_json is None:
            raise ScenarioError(job.error or "the scenario cannot be written as JSON")
        # The sweep warned once per point when it checked them (expand.py): not per run.
        raw = _core.run(job.scenario_json, seed=seed, replication=replication, warn=False)
        summary = flatten_result(raw)
    except ScenarioError as e:
        row.update(status="failed", error=str(e))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # a bug, or a panic in the core (PanicException): keep going
        row.update(status="failed", error=f"{type(e).__name__}: {e}")
    else:
        for key, value in summary.items():
            if key not in ("seed", "replication"):  # already set, and equal
                row[key] = value
        for alias, key in job.metrics.items():
            row[alias] = summary.get(key)
        row[SECTIONS_KEY] = {s: raw[s] for s in SECTIONS if raw.get(s) is not None}
    row.update(lossy_version=_core.version(), git_commit=job.git_commit,
               scenario_hash=job.scenario_hash, core_versions=core_versions())
    if job.traces and raw is not None:
        traces = {name: raw.get("traces", {}).get(name, {}) for name in job.traces}
        written = _write_traces(job.store, run_id, traces)
        if written is None:
            row[TRACES_KEY] = traces
        else:
            row[TRACE_FILES_KEY] = written  # for the batch's manifest entry
    return row


def _write_traces(store: Optional[str], run_id: str, traces: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """Write the run's traces into the store; their size and hash, or None when the
    parent must write them."""
    if not store:
        return None
    try:
        from .store import write_traces  # pyarrow: only where the worker writes

        return write_traces(Path(store), run_id, traces)
    except Exception:  # e.g. a full disk: the parent writes them, or says why it cannot
        return None


@functools.lru_cache(maxsize=None)
def core_versions() -> str:
    return json.dumps(_core.build_info(), sort_keys=True)
