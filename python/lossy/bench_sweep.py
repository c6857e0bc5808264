"""`lossy bench`, sweep part: what the sweep machinery costs per run.

Short runs of a one-hop scenario (1 s simulated, well under a millisecond in the core)
go through `lossy.sweep` into a fresh store: 1,000 on one worker, 1,000 on every core,
and 10,000 on every core (the issue's target: >= 1,500 runs/s on 2 cores). The overhead
per run is the time a worker spends per run beyond the simulation itself: (wall time x
workers - sum of the runs' own wall_s) / runs. It covers the core's result conversion,
flattening the result, the executor's round trips, the batched Parquet parts with their
fsync and rename, and the bookkeeping of the parent. A sweep of a few runs goes first,
untimed, so that importing pyarrow and pandas (~0.3 s, once per process) is not
counted as a cost per run.
"""

from __future__ import annotations

import tempfile
import time
from typing import Any, Dict, List, Optional, Tuple

from rich.console import Console
from rich.table import Table

from .render import number

SCENARIO: Dict[str, Any] = {
    "name": "bench-sweep",
    "duration": "1 s",
    "nodes": ["A", "B"],
    "links": [{"between": ["A", "B"], "rate": "10 Mbps", "delay": "10 ms", "queue": "100 packets",
               "loss": {"model": "bernoulli", "p": 0.01}}],
    "flows": [{"from": "A", "to": "B", "app": {"kind": "bulk"}, "tcp": {"variant": "reno"}}],
}


BIG_RUNS = 10_000


def plan(runs: int = 1000, workers: Optional[List[int]] = None, quick: bool = False) -> List[Tuple[int, int]]:
    """(runs, workers) per row: the given worker counts at `runs`; else 1 and every core
    at `runs` and every core at BIG_RUNS; with `quick`, every core at `runs` alone."""
    from .sweep.executors import cpu_count

    if workers:
        return [(runs, n) for n in workers]
    if quick:
        return [(runs, cpu_count())]
    return [(runs, n) for n in sorted({1, cpu_count()})] + [(BIG_RUNS, cpu_count())]


def measure(runs: int = 1000, workers: Optional[List[int]] = None, quick: bool = False,
            progress: Optional[Console] = None) -> List[Dict[str, Any]]:
    """One row per (runs, workers) of plan()."""
    from .sweep import sweep

    rows = []
    with tempfile.TemporaryDirectory(prefix="lossy-bench-sweep-") as warm:
        sweep({"name": "warm-up", "scenario": SCENARIO, "replications": 5}, out=warm, workers=1, progress=False)
    for runs, n in plan(runs, workers, quick):
        if progress is not None:
            progress.print(f"[dim]bench: sweep of {runs:,} short runs on {n} worker(s)[/dim]", highlight=False)
        spec = {"name": "bench-sweep", "scenario": SCENARIO, "replications": runs}
        with tempfile.TemporaryDirectory(prefix="lossy-bench-sweep-") as out:
            t0 = time.perf_counter()
            done = sweep(spec, out=out, workers=n, progress=False)
            wall = time.perf_counter() - t0
            frame = done.results()
        ok = int((frame["status"] == "ok").sum())
        run_s = float(frame["wall_s"].sum())
        rows.append({
            "runs": len(frame), "ok": ok, "workers": n, "wall_s": wall, "sum_run_wall_s": run_s,
            "overhead_per_run_ms": 1e3 * (wall * n - run_s) / max(len(frame), 1),
            "runs_per_s": len(frame) / wall,
        })
    return rows


def table(rows: List[Dict[str, Any]]) -> Table:
    t = Table(title="sweep machinery: 1 s one-hop runs stored in batched Parquet parts", title_justify="left",
              caption="overhead per run = (wall x workers - sum of runs' own wall_s) / runs",
              caption_justify="left")
    for name in ["runs", "workers", "wall time", "sum of runs' wall_s", "overhead / run", "runs / s"]:
        t.add_column(name, justify="right")
    for r in rows:
        t.add_row(f"{r['runs']:,}", str(r["workers"]), f"{r['wall_s']:.2f} s",
                  f"{r['sum_run_wall_s']:.3f} s", f"{r['overhead_per_run_ms']:.2f} ms",
                  number(r["runs_per_s"]))
    return t


if __name__ == "__main__":
    from .render import console

    console().print(table(measure(progress=console(stderr=True))))
