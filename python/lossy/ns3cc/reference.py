"""ns-3's stored results (ns3_reference.csv beside this file): every run of every set-up
made once with anchors/ns3/cc.cc, so that `lossy ns3` has ns-3's column where
ns-3 cannot be installed. Its '#' lines hold the provenance: ns-3's version, the
program's SHA-256, the command of each set-up and the date. `lossy ns3
--write-reference` rewrites it from the runs just made."""

from __future__ import annotations

import csv
import datetime
import hashlib
import math
from importlib.resources import files
from pathlib import Path
from typing import Any, Dict, List

from ..bench_anchors import PROGRAMS
from .setups import SETUPS

COLUMNS = ["setup", "cc", "p", "seed", "goodput_bps", "retrans", "recoveries", "rtos", "rtt_mean_s",
           "rtt_min_s", "cwnd_mean_segs", "cwnd_peak_segs", "cwnd_peak_t_s", "probe_rtt_count",
           "probe_rtt_mean_gap_s", "err_drops", "queue_drops", "tc_drops", "aqm_drops",
           "bottleneck_queue_mean_pkts", "events",
           # The bottleneck queue as lossy measures it (anchors/ns3/queue_delay.h; queues.py).
           "sojourn_p50_ms", "sojourn_p95_ms", "sojourn_p99_ms", "sojourn_mean_ms", "queue_mean_pkts",
           "aqm_classes",
           # the cwnd trace's numbers on the traced set-ups (trace_summary.py), else empty
           "cwnd_min_segs", "cwnd_cuts", "cwnd_cut_mean_gap_s", "pacing_mean_bps",
           # each flow's goodput on a set-up of several flows (fairness.py), space-separated
           "flow_goodputs_bps"]
LISTS = ("flow_goodputs_bps",)


def path() -> Path:
    return Path(str(files(__package__).joinpath("ns3_reference.csv")))


def read() -> List[Dict[str, Any]]:
    """The stored runs, numbers as floats (empty where the file is absent)."""
    if not path().is_file():
        return []
    with path().open() as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    # An empty cell (a gap between ProbeRTTs where there were fewer than two) reads as NaN.
    return [{k: (v if k in ("setup", "cc") else [float(x) for x in (v or "").split()] if k in LISTS
                 else float(v or "nan")) for k, v in row.items()} for row in rows]


def provenance() -> List[str]:
    """The stored file's '#' lines, without the '# '."""
    if not path().is_file():
        return []
    with path().open() as f:
        return [line[2:].rstrip("\n") for line in f if line.startswith("#")]


def row_of(run: Dict[str, Any]) -> Dict[str, Any]:
    """The stored columns of one run of cc.cc."""
    probes = run.get("probe_rtt_t_s", [])
    gaps = [b - a for a, b in zip(probes, probes[1:])]
    return {**{k: _cell(run.get(k)) for k in COLUMNS}, "probe_rtt_count": len(probes),
            **{k: " ".join(f"{x:.6f}" for x in run.get(k, [])) for k in LISTS},
            "probe_rtt_mean_gap_s": round(sum(gaps) / len(gaps), 6) if gaps else ""}


def _cell(value: Any) -> Any:
    """A number as stored: NaN (no such number for this run) as an empty cell."""
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) else value


def write(runs: List[Dict[str, Any]], version: str) -> Path:
    """Rewrite ns3_reference.csv from these runs of cc.cc, with their provenance."""
    program = PROGRAMS / "ns3"
    sha = {name: hashlib.sha256((program / name).read_bytes()).hexdigest()[:16] for name in ("cc.cc", "counters.h")}
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    head = [f"ns-3 side of `lossy ns3`, written by `lossy ns3 --write-reference` on {when}",
            f"simulator: {version}",
            f"program: python/lossy/anchors/ns3/cc.cc sha256 {sha['cc.cc']}, counters.h sha256 {sha['counters.h']}"]
    for setup in SETUPS.values():
        args = " ".join(setup.ns3_args("CC", "P", "SEED"))
        head.append(f"{setup.name}: cc {args}; CC in {', '.join(setup.ccs)}, P in "
                    f"{', '.join(f'{p:g}' for p in setup.loss)}, SEED in {', '.join(map(str, setup.seeds))}")
    out = path()
    with out.open("w", newline="") as f:
        f.writelines(f"# {line}\n" for line in head)
        writer = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for run in sorted(runs, key=lambda r: (r["setup"], r["cc"], r["p"], r["seed"])):
            writer.writerow(row_of(run))
    return out
