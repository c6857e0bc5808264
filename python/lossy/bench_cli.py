"""`lossy bench`, command-line part: what a person waits for before the core starts.

Each row is the wall time of a fresh `lossy` process (interpreter start-up, imports,
parsing, the run, printing), min/median/max of a few with the machine's load before
them: `lossy --help` (issue 28's target: 0.1 s), a 1 s run of the last-hop scenario
(0.25 s), and a 1,000-flow run printed as tables and as JSON (where printing and
converting results, not the core, used to dominate).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

from rich.console import Console
from rich.table import Table

from .bench_stats import machine_load

def _lossy() -> List[str]:
    script = Path(sys.executable).with_name("lossy")
    return [str(script)] if script.exists() else [sys.executable, "-m", "lossy"]


def measure(quick: bool = False, progress: Optional[Console] = None) -> List[Dict[str, Any]]:
    from .shipped import scenario_path

    repeat = 3 if quick else 5
    rows = []
    with tempfile.TemporaryDirectory(prefix="lossy-bench-cli-") as tmp:
        big = Path(tmp) / "bs1000.toml"
        subprocess.run([*_lossy(), "generate", "base-station", "--hosts", "1000", "--out", str(big)],
                       check=True, capture_output=True, stdin=subprocess.DEVNULL)
        last_hop = str(scenario_path("last-hop"))
        cases = [
            ("lossy --help", ["--help"], 0.1, repeat),
            ("lossy run last-hop.toml --set duration=1s", ["run", last_hop, "--set", "duration=1s"], 0.25, repeat),
            ("lossy run (1,000 flows, 10 s)", ["run", str(big)], None, 1),
            ("lossy run (1,000 flows, 10 s) --json", ["run", str(big), "--json"], None, 1),
        ]
        for label, args, target, n in cases:
            if progress is not None:
                progress.print(f"[dim]bench: {label} ({n}x)[/dim]", highlight=False)
            times = []
            error = None
            load = machine_load()
            for _ in range(n):
                t0 = time.perf_counter()
                proc = subprocess.run([*_lossy(), *args], capture_output=True, text=True,
                                      stdin=subprocess.DEVNULL)
                times.append(time.perf_counter() - t0)
                if proc.returncode != 0:
                    error = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
                    break
            rows.append({"command": label, "wall_s": statistics.median(times), "min_s": min(times),
                         "max_s": max(times), "samples_s": times, "repeat": len(times), "target_s": target,
                         "error": error, "load": load})
    return rows


def table(rows: List[Dict[str, Any]]) -> Table:
    t = Table(title="command line: wall time of a fresh `lossy` process, median (min–max)", title_justify="left")
    for name in ["command", "wall time", "target", "runs", "load"]:
        t.add_column(name, justify="left" if name == "command" else "right")
    for r in rows:
        wall = (f"[red]{r['error']}[/]" if r["error"] else
                f"{r['wall_s']:.3f} s ({r.get('min_s', r['wall_s']):.3f}–{r.get('max_s', r['wall_s']):.3f})")
        target = f"≤ {r['target_s']:g} s" if r["target_s"] is not None else ""
        load = f"{r['load']:.1f}" if r.get("load") is not None else "-"
        t.add_row(r["command"], wall, target, str(r["repeat"]), load)
    return t
