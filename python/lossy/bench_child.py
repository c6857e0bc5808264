"""`lossy bench`, the child: one `lossy.run` in a fresh process, reported as one JSON line.

`bench_sides` runs this file's source with `python -c`, under this build's interpreter or
under the one of a `--compare` reference, so it imports nothing from `lossy` but `run`
and works with an older `lossy` too (one whose summary has no `cpu_s`).

Peak memory is the process's own high-water mark, `VmHWM` of /proc/self/status, read
after `import lossy` and at the end. Not wait4's ru_maxrss: Linux keeps the parent's
maxrss across exec (exec_mmap copies the old mm's high-water mark into
signal->maxrss), so a child forked from a 34 MiB bench could never read below 34 MiB;
the new mm that exec makes starts its own VmHWM.
"""

import json
import sys
from typing import Any, Dict, Optional


def vmhwm_bytes(status: str) -> Optional[int]:
    """The `VmHWM:` line of a /proc/<pid>/status text, in bytes (the kernel writes kB,
    meaning KiB); None when there is no such line (not Linux)."""
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            value, unit = line.split()[1:3]
            if unit != "kB":
                raise ValueError(f"VmHWM in {unit!r}, expected kB: {line!r}")
            return int(value) * 1024
    return None


def own_peak_bytes() -> Optional[int]:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            return vmhwm_bytes(f.read())
    except OSError:  # not Linux: bench falls back to wait4's ru_maxrss
        return None


def main(argv: Any) -> int:
    args = json.loads(argv[1])
    import lossy

    after_import = own_peak_bytes()
    try:
        r = lossy.run(args["path"], seed=args["seed"], overrides=args["overrides"])
    except lossy.ScenarioError as e:
        print(json.dumps({"error": str(e)}))
        return 2
    s = r.raw["summary"]
    out: Dict[str, Any] = {k: s.get(k) for k in ("sim_time_s", "events", "wall_s", "cpu_s", "packets_delivered")}
    # Bytes over the whole run: a flow's own goodput_bps is over its active time, and flows
    # that start late would make the sum exceed the link.
    out["goodput_bps"] = 8 * sum(f["bytes_delivered"] for f in r.flows) / s["sim_time_s"]
    # Link-layer frames (ARQ's link packets, 802.11 data frames; retransmissions included).
    frames = sum(link.get("link_transmissions", 0) for link in r.links)
    if frames:
        out["link_transmissions"] = frames
    eln = [a for a in r.agents if a["kind"] == "eln"]
    if eln and r.flows:
        out["eln_state_bytes_per_flow_max"] = eln[0]["state_bytes_max"] / len(r.flows)
        out["eln_state_bytes_per_flow_mean"] = eln[0]["state_bytes_mean"] / len(r.flows)
    out["import_rss_bytes"] = after_import
    out["peak_rss_bytes"] = own_peak_bytes()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
