"""The function an executor runs for each run, in whatever process or machine it likes.

It is top-level (so it pickles by name), imports only the core and the result flattener
(cheap to import in a fresh worker), and never raises: a run the core refuses, or any
other error, comes back as a row with status "failed" and the message. The row depends
only on its arguments, so every executor gives the same rows (wall-clock fields aside).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Dict

from .. import _core
from .._core import ScenarioError
from ..result import flatten_result
from ..scenario import to_json_text

Row = Dict[str, Any]

# Keys of the returned dict that are not columns: the run's traces, when the caller
# stores them, and whether this worker stored the run itself.
TRACES_KEY = "__traces__"
STORED_KEY = "__stored__"
_SLIM = ("run_id", "point", "replication", "seed", "status", "error", "scenario_hash")


def execute(scenario: Mapping[str, Any], seed: int, replication: int, meta: Mapping[str, Any]) -> Row:
    """Run (scenario, seed, replication); return its row for the store.

    `meta` carries what the row needs beyond the run itself: run_id, point, coords (axis
    -> column value), metrics (alias -> summary key), traces (names to keep), git_commit
    and scenario_hash; and `store`, the store's directory when this worker sees the same
    file system as the sweep (local pools): the worker then writes the run itself, which
    spreads the Parquet encoding over the workers instead of queueing it in the parent.
    """
    row: Row = {"run_id": meta["run_id"], "point": meta["point"], **meta["coords"],
                "replication": replication, "seed": seed, "status": "ok", "error": None,
                "wall_s": None}
    traces: Any = None
    try:
        raw = _core.run(to_json_text(scenario), seed=seed, replication=replication)
        summary = flatten_result(raw)
        if meta.get("traces"):
            traces = {name: raw.get("traces", {}).get(name, {}) for name in meta["traces"]}
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
        for alias, key in meta.get("metrics", {}).items():
            row[alias] = summary.get(key)
    row.update(lossy_version=_core.version(), git_commit=meta["git_commit"],
               scenario_hash=meta["scenario_hash"], core_versions=core_versions())
    if meta.get("store"):
        try:
            from .store import write_run  # pyarrow: only where the worker writes

            write_run(Path(meta["store"]), row, traces)
            # The parent needs only this much of a stored run: less to send back.
            slim = {k: row[k] for k in _SLIM}
            slim["missing_metrics"] = [a for a, key in meta.get("metrics", {}).items() if key not in row]
            return {**slim, STORED_KEY: True}
        except Exception:  # e.g. a full disk: the parent writes it, or says why it cannot
            pass
    if traces is not None:
        row[TRACES_KEY] = traces
    return row


@functools.lru_cache(maxsize=None)
def core_versions() -> str:
    return json.dumps(_core.build_info(), sort_keys=True)
