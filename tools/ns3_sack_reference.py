"""Reference goodput of ns-3 TCP NewReno with SACK on the ns3-compare path.

What it measures
    One bulk TCP flow in ns-3 3.44 (the anchor program ``bulk.cc`` in
    ``../shared/anchors/ns3``) over

        S --[10 Mbps, 10 ms]--> BS --[2 Mbps, 5 ms, packet loss p]--> R

    with SACK on, for every loss rate p in {0, 0.001, 0.005, 0.01, 0.02, 0.05,
    0.1}, two socket buffer sizes (32 KiB, which keeps the BS queue from
    overflowing, and ns-3's anchor default of 16 MiB) and runs 1..N (ns-3 RNG
    substreams). Each anchor run is

        bulk --sack=1 --rate=2Mbps --wiredRate=10Mbps --simTime=100 \\
             --p=P --buf=BUF --run=R

    and prints one JSON line; this script keeps the deterministic numeric
    fields (not the wall-clock ones) and writes one CSV row per run, sorted by
    buffer, p and run.

Requirements
    The anchor must be built with ``../shared/anchors/ns3/build.sh`` (relative
    to the repository root); by default this script calls build.sh itself and
    uses the binary path it prints last. Python standard library only.

Usage (from the repository root)
    python3 tools/ns3_sack_reference.py                 # 10 runs per point
    python3 tools/ns3_sack_reference.py --runs 3 --out /tmp/ns3_sack.csv
    python3 tools/ns3_sack_reference.py --bin ~/.cache/lossy-anchors/ns3/bulk

    At most two anchor processes run at once; 10 runs take about 2 minutes on
    a 2-core machine.
"""

import argparse
import csv
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUILD_SH = REPO.parent / "shared" / "anchors" / "ns3" / "build.sh"
DEFAULT_OUT = REPO / "python" / "lossy" / "papers" / "validation" / "ns3_sack.csv"

LOSS_RATES = ["0", "0.001", "0.005", "0.01", "0.02", "0.05", "0.1"]
BUFFERS = [32768, 16777216]  # 32 KiB and 16 MiB (the anchor's default)
FIXED_ARGS = ["--sack=1", "--rate=2Mbps", "--wiredRate=10Mbps", "--simTime=100"]
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
    """Build (or reuse) the anchor and return the path build.sh prints last."""
    out = subprocess.run(["bash", str(BUILD_SH)], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return out.strip().splitlines()[-1]


def run_one(binary, buf, p, run):
    """Run the anchor once and return its CSV row."""
    cmd = [binary] + FIXED_ARGS + [f"--p={p}", f"--buf={buf}", f"--run={run}"]
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
    result = json.loads(out.strip().splitlines()[-1])
    return [buf, p, run, result["goodput_bps"]] + [result[f] for f in FIELDS]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10, help="runs per point (default 10)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="CSV to write")
    ap.add_argument("--bin", help="anchor binary (default: run build.sh)")
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
