"""Reference goodput of ns-3 TCP NewReno with SACK on the ns3-compare path.

What it measures
    One bulk TCP flow in ns-3 3.44 (the repository's program
    ``python/lossy/anchors/ns3/bulk.cc``, built on demand as ``lossy bench`` builds it:
    ``lossy.bench_anchors.ns3_program``) over

        S --[10 Mbps, 10 ms]--> BS --[2 Mbps, 5 ms, packet loss p]--> R

    with SACK on, for every loss rate p in {0, 0.001, 0.005, 0.01, 0.02, 0.05,
    0.1}, two socket buffer sizes (32 KiB, which keeps the BS queue from
    overflowing, and the program's default of 16 MiB) and runs 1..N (ns-3 RNG
    runs). Each run is

        bulk --sack=1 --rate=2000000 --wired-rate=10000000 --sim-time=100 \\
             --p=P --buffer=BUF --seed=R --counters=1

    and prints its counters as a JSON line before its last; this script keeps the
    deterministic numeric fields (not the CPU and wall-clock ones) and writes one CSV
    row per run, sorted by buffer, p and run.

Requirements
    ns-3 3.44 from PyPI (``LOSSY_NS3_VENV``, or lossy's own virtual environment in the
    cache, made with pip where PyPI is reachable) and g++; run with the repository's
    ``python/`` on PYTHONPATH.

Usage (from the repository root)
    PYTHONPATH=python python3 tools/ns3_sack_reference.py          # 10 runs per point
    PYTHONPATH=python python3 tools/ns3_sack_reference.py --runs 3 --out /tmp/ns3_sack.csv

    At most two ns-3 processes run at once; 10 runs a point (140 runs) took 100 s of CPU
    and 6 minutes on a 2-core machine under a load of 10, and reproduced the stored CSV
    byte for byte (2026-11-27).
"""

import argparse
import csv
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "python" / "lossy" / "papers" / "validation" / "ns3_sack.csv"

LOSS_RATES = ["0", "0.001", "0.005", "0.01", "0.02", "0.05", "0.1"]
BUFFERS = [32768, 16777216]  # 32 KiB and 16 MiB (the anchor's default)
FIXED_ARGS = ["--sack=1", "--rate=2000000", "--wired-rate=10000000", "--sim-time=100", "--counters=1"]
PARALLEL = 2

# JSON fields copied into the CSV (after buffer_bytes, p, run, goodput_bps).
FIELDS = [
    "rxBytes",          # bytes received by the sink application
    "rxDataPkts",       # packets that survived the error model at R
    "errDrops",         # packets dropped by the error model (channel losses)
    "queueDrops",       # drops inside the DropTail device queues
    "tcDrops_S",        # drops at S's traffic-control layer (device queue full)
    "tcDrops_BS",       # drops at BS (bottleneck queue overflow)
    "tcDrops_R",        # drops at R
    "retrans",          # sender retransmissions
    "recoveries",       # entries into fast recovery (CA_RECOVERY)
    "rtos",             # retransmission timeouts (entries into CA_LOSS)
    "meanRtt_s",        # mean Karn RTT sample at the sender
    "minRtt_s",         # smallest RTT sample
    "meanBsQueuePkts",  # mean BS->R queue length seen at ACK arrivals
    "maxBsQueuePkts",   # largest BS->R queue length seen
    "meanCwndSegs",     # mean cwnd (segments) seen at ACK arrivals
    "events",           # ns-3 events executed
]
HEADER = ["buffer_bytes", "p", "run", "goodput_bps"] + FIELDS


def default_bin():
    """The repository's bulk.cc, built (or found built) in lossy's anchors cache."""
    from lossy.bench_anchors import Skip, ns3_program

    built = ns3_program("bulk.cc", lambda line: print(line, file=sys.stderr))
    if isinstance(built, Skip):
        sys.exit(built.note)
    return str(built[0])


def run_one(binary, buf, p, run):
    """Run the anchor once and return its CSV row."""
    cmd = [binary] + FIXED_ARGS + [f"--p={p}", f"--buffer={buf}", f"--seed={run}"]
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    lines = out.strip().splitlines()
    counters, last = json.loads(lines[-2]), json.loads(lines[-1])
    return [buf, p, run, last["goodput_bps"]] + [counters[f] for f in FIELDS]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10, help="runs per point (default 10)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="CSV to write")
    ap.add_argument("--bin", help="a built bulk.cc (default: build it as lossy bench does)")
    args = ap.parse_args()

    binary = args.bin or default_bin()
    jobs = [(buf, p, run) for buf in BUFFERS for p in LOSS_RATES
            for run in range(1, args.runs + 1)]
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        rows = list(pool.map(lambda job: run_one(binary, *job), jobs))
    rows.sort(key=lambda r: (r[0], float(r[1]), r[2]))

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(HEADER)
        writer.writerows(rows)
    print(f"wrote {len(rows)} rows to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
