"""The cwnd and pacing-rate traces of one run per traced set-up, beside each
other: ns-3's stored in ns3_traces.csv (written with the reference by `lossy ns3
--write-reference`, so the docs' figure needs no ns-3), lossy's made afresh. The
figure in docs/guide/anchors.md is drawn from them (docs/gen/gen_ns3_traces.py)."""

from __future__ import annotations

import csv
import tempfile
from importlib.resources import files
from pathlib import Path
from typing import Dict, List, Tuple

from .. import api
from . import trace_summary
from .setups import SETUPS

# The run each traced set-up shows: the congestion control the issue names and seed 1.
SHOWN: Dict[str, str] = {"bbr-dumbbell": "Bbr", "cubic-codel": "Cubic"}
SEED = 1

Steps = List[Tuple[float, float]]


def path() -> Path:
    return Path(str(files(__package__).joinpath("ns3_traces.csv")))


def write(binary: Path, version: str) -> Path:
    """Run cc.cc with --trace for each shown run and store its cwnd and pacing steps."""
    import subprocess

    out = path()
    with out.open("w", newline="") as f:
        f.write(f"# cwnd and pacing-rate traces of cc.cc (--trace), {version}; one run per set-up, seed {SEED}\n")
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["setup", "cc", "seed", "t_s", "kind", "value"])
        for name, cc in SHOWN.items():
            with tempfile.TemporaryDirectory() as folder:
                trace = Path(folder) / "trace.txt"
                subprocess.run([str(binary), *SETUPS[name].ns3_args(cc, 0.0, SEED), f"--trace={trace}"],
                               capture_output=True, check=True)
                cwnd, pacing = trace_summary.read_ns3_trace(trace.read_text())
            for kind, steps in (("cwnd", cwnd), ("pacing", pacing)):
                writer.writerows([name, cc, SEED, f"{t:.6f}", kind, f"{v:.0f}"] for t, v in steps)
    return out


def ns3(setup: str) -> Dict[str, Steps]:
    """ns-3's stored steps of `setup`'s shown run, by kind ("cwnd" bytes, "pacing" b/s)."""
    steps: Dict[str, Steps] = {"cwnd": [], "pacing": []}
    if path().is_file():
        with path().open() as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                if row["setup"] == setup:
                    steps[row["kind"]].append((float(row["t_s"]), float(row["value"])))
    return steps


def lossy(setup: str) -> Dict[str, Steps]:
    """lossy's steps of `setup`'s shown run, made now, by kind as ns3() has them ("cwnd"
    bytes, "pacing" b/s: empty where the control does not pace)."""
    s = SETUPS[setup]
    doc = api.load_scenario(str(s.scenario))
    result = api.run(doc, seed=SEED, overrides=s.lossy_overrides(SHOWN[setup], 0.0),
                     traces=list(trace_summary.LOSSY_TRACES))
    cwnd, pacing = trace_summary.lossy_steps(result.traces)
    return {"cwnd": cwnd, "pacing": pacing}
