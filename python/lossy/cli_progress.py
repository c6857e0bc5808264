"""Running the core from the `lossy` command: in a worker thread, so that Ctrl-C lands at
once, with a progress line on a terminal once a run has taken a second."""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Callable, Dict, Optional, TypeVar

from . import _core

T = TypeVar("T")


def interruptible(fn: Callable[[], T], progress: Optional[_core.RunProgress] = None) -> T:
    """Call fn in a worker thread so that Ctrl-C stops the command at once, and, on a
    terminal, show how far a run has got once it has taken a second.

    The core runs with the GIL released and never returns to Python mid-run, so the main
    thread waits in short joins, where KeyboardInterrupt can land, and reads `progress`
    (which the core updates as it goes). The run cannot be cancelled from outside, so an
    interrupt ends the process.
    """
    box: Dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:  # handed back to the main thread
            box["error"] = e

    worker = threading.Thread(target=target, name="lossy-run", daemon=True)
    started = time.monotonic()
    worker.start()
    shown = False
    terminal = sys.stderr.isatty()
    last_line = -PLAIN_EVERY_S
    try:
        while worker.is_alive():
            worker.join(0.1)
            elapsed = time.monotonic() - started
            if progress is None or elapsed < PROGRESS_AFTER_S or not worker.is_alive():
                continue
            if terminal:  # one line, rewritten in place
                sys.stderr.write("\r" + progress_line(progress, elapsed) + "\033[K")
                shown = True
            elif elapsed - last_line >= PLAIN_EVERY_S:  # a log: a line now and then
                sys.stderr.write(progress_line(progress, elapsed) + "\n")
                last_line = elapsed
            sys.stderr.flush()
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.write("\nlossy: interrupted\n" if shown else "lossy: interrupted\n")
        sys.stderr.flush()
        os._exit(130)  # the worker is still inside the core; nothing else can stop it
    if shown:
        sys.stderr.write("\r\033[K")  # the line goes; the result follows
        sys.stderr.flush()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


PROGRESS_AFTER_S = 1.0  # a run shorter than this shows no progress line
PLAIN_EVERY_S = 10.0  # between two progress lines when stderr is not a terminal


def progress_line(progress: _core.RunProgress, elapsed: float) -> str:
    """`lossy: simulated 3.2 s of 10 s (32 %) in 1.0 s; about 2.1 s left`, or before the
    run, while its Markov fits run, `lossy: fitting the Markov chain: 2,000,000 of
    11,700,000 link packets (17%) in 3.0 s; about 14.6 s left`."""
    now, end = progress.sim_time_s, progress.end_s
    if end == 0 and progress.fit_packets_total > 0:
        done, total = progress.fit_packets_done, progress.fit_packets_total
        share = done / total
        left = f"; about {elapsed * (1 - share) / share:.1f} s left" if share > 0.01 else ""
        return (f"lossy: fitting the Markov chain: {done:,} of {total:,} link packets ({share:.0%}) "
                f"in {elapsed:.1f} s{left}")
    share = now / end if end > 0 else 0.0
    left = f"; about {elapsed * (1 - share) / share:.1f} s left" if share > 0.01 else ""
    return f"lossy: simulated {now:.4g} s of {end:.4g} s ({share:.0%}) in {elapsed:.1f} s{left}"
