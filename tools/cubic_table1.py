#!/usr/bin/env python3
"""CUBIC and Reno against RFC 9438 §5's Table 1 (deterministic loss, RTT 0.1 s): the
numbers of docs/mechanisms/tcp-cubic.md's "Against RFC 9438's Table 1".

    python tools/cubic_table1.py            # runs, steady-state means and the fluid model
    python tools/cubic_table1.py --model    # the fluid model only (no core needed)

Runs: S -[1 Gbps, 1 ms]- BS -[100 Mbps, 49 ms]- R, 1200-packet DropTail queues, SACK,
MSS 1000 B, a `trace` loss model losing every (1/p)-th packet offered to BS->R; the
whole-run `cwnd_mean_segments` and, from the cwnd trace, the time-weighted mean over the
complete loss cycles after the first 12 cuts, beside the fluid model's over the same
seconds.

The fluid model applies the same rules per ACK at a sending rate of cwnd/RTT, RTT fixed:
RFC 9438 eq. 1, 2 and 4 with §4.6-4.7 (β = 0.7, C = 0.4, fast convergence), or Reno's
RFC 5681 eq. 3 in whole bytes (SMSS·SMSS/cwnd truncated, as tcp/cc/aimd.rs computes
it); the loss of every (1/p)-th packet is acted on one RTT after it is sent, followed by
one RTT of recovery at the reduced window. It starts where the run's slow start ended.
"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

RTT = 0.1
MSS = 1000.0


def fluid_mean(cc, p, duration, start_window, beta=0.7, c=0.4, fast_convergence=True, t_from=0.0):
    """Time-weighted mean window (segments) over [t_from, duration] of the fluid model."""
    every = round(1 / p)
    t, w, sent, area = 0.0, 10.0, 0, 0.0
    while w < start_window:  # slow start, one round per RTT
        sent += w
        area += w * RTT if t >= t_from else 0.0
        t += RTT
        w = min(2 * w, start_window)
    w_max, cwnd_prior, epoch = None, w, None
    next_loss = every * (int(sent) // every + 1)
    detect_at = recover_until = None
    while t < duration:
        dt = RTT / w
        if t >= t_from:
            area += w * dt
        t += dt
        sent += 1
        if detect_at is None and sent >= next_loss:
            detect_at, next_loss = t + RTT, next_loss + every
        if detect_at is not None and t >= detect_at:
            if cc == "cubic":
                below = fast_convergence and w_max is not None and w < w_max
                w_max = w * (1 + beta) / 2 if below else w
                cwnd_prior, w = w, beta * w
            else:
                w = w / 2
            detect_at, recover_until, epoch = None, t + RTT, None
            continue
        if recover_until is not None:
            if t < recover_until:
                continue
            recover_until = None
        if cc == "cubic":
            if epoch is None:
                wm = w_max if w_max is not None and w_max > w else w
                w_max = wm
                alpha = 1.0 if w >= cwnd_prior else 3 * (1 - beta) / (1 + beta)
                epoch = {"t0": t, "k": ((wm - w) / c) ** (1 / 3), "wm": wm, "west": w, "alpha": alpha}
            epoch["west"] += epoch["alpha"] / w
            if epoch["west"] >= cwnd_prior:
                epoch["alpha"] = 1.0
            tt = t - epoch["t0"]
            if c * (tt - epoch["k"]) ** 3 + epoch["wm"] < epoch["west"]:
                w = max(epoch["west"], w)
            else:
                target = min(max(c * (tt + RTT - epoch["k"]) ** 3 + epoch["wm"], w), 1.5 * w)
                w += (target - w) / w
        else:
            w += math.floor(MSS * MSS / (w * MSS)) / MSS
    return area / (duration - t_from)


def scenario(cc, p, duration):
    every = round(1 / p)
    offered = int(100e6 / 8 / 1042 * duration * 1.1)
    losses = list(range(every - 1, offered, every))
    return f"""name = "cubic-table1"
duration = "{duration} s"
nodes = ["S", "BS", "R"]
[[links]]
between = ["S", "BS"]
rate = "1 Gbps"
delay = "1 ms"
queue = "1200 packets"
[[links]]
between = ["BS", "R"]
rate = "100 Mbps"
delay = "49 ms"
queue = "1200 packets"
loss = {{ model = "trace", packets = {losses} }}
[[flows]]
from = "S"
to = "R"
app = {{ kind = "bulk" }}
[flows.tcp]
variant = "sack"
cc = "{cc}"
mss = "1000 B"
header = "42 B"
ack_size = "42 B"
initial_window = 10
max_window = "64 MiB"
min_rto = "1 s"
timer_granularity = "1 ms"
limited_transmit = true
"""


def run(cc, p, duration, skip=12):
    """(whole-run mean, steady mean, and the steady window's start and end) of one run."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "s.toml")
        with open(path, "w") as f:
            f.write(scenario(cc, p, duration))
        out = subprocess.run([sys.executable, "-m", "lossy", "run", path, "--json", "--trace", "cwnd", "--out", d],
                             check=True, capture_output=True, text=True).stdout
        whole = json.loads(out)["flows"][0]["cwnd_mean_segments"]
        rows = [(float(r["time_s"]), float(r["cwnd_bytes"]) / MSS) for r in csv.DictReader(open(os.path.join(d, "cwnd.csv")))]
    cuts = [rows[i][0] for i in range(1, len(rows)) if rows[i][1] < 0.95 * rows[i - 1][1]]
    t0, t1 = cuts[skip], cuts[-1]
    area = sum(w * (min(tb, t1) - max(ta, t0)) for (ta, w), (tb, _) in zip(rows, rows[1:]) if min(tb, t1) > max(ta, t0))
    return whole, area / (t1 - t0), t0, t1


def main():
    eq5 = (0.4 * 3.7 / (4 * 0.3)) ** 0.25 * RTT ** 0.75
    print("RFC 9438 eq. 5: %.1f (p = 1e-4), %.1f (p = 1e-3); sqrt(3/2)/sqrt(p): %.1f, %.1f"
          % (eq5 / 1e-4 ** 0.75, eq5 / 1e-3 ** 0.75, math.sqrt(1.5 / 1e-4), math.sqrt(1.5 / 1e-3)))
    # (cc, p, the window the run's slow start ended at, read from its cwnd trace)
    cases = [("cubic", 1e-4, 1241.0), ("cubic", 1e-3, 1009.0), ("reno", 1e-4, 2400.0), ("reno", 1e-3, 1009.0)]
    for cc, p, start in cases:
        model = fluid_mean(cc, p, 120, start)
        if "--model" in sys.argv:
            steady = fluid_mean(cc, p, 1200, start, t_from=600)
            print("%-5s p = %g: model 120 s %.1f, 600-1200 s %.1f" % (cc, p, model, steady))
            continue
        whole, ours_steady, t0, t1 = run(cc, p, 120)
        steady = fluid_mean(cc, p, t1, start, t_from=t0)
        print("%-5s p = %g: 120 s: model %.1f, ours %.1f; cycles %.1f-%.1f s: model %.1f, ours %.1f"
              % (cc, p, model, whole, t0, t1, steady, ours_steady))


if __name__ == "__main__":
    main()
