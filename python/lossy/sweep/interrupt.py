"""Ctrl-C during a sweep (issue 27, "Ctrl-C is inconsistent").

A KeyboardInterrupt raised wherever the main thread happens to be can be lost: inside a
library that turns it into something else, or in a callback that swallows it, after which
the sweep ran to the end and exited 0. So while runs are being scheduled, the first Ctrl-C
only sets a flag that the scheduling loop reads at least every WAIT_SLICE_S: it stops
scheduling, stores what has finished (waiting at most GRACE_S for runs in flight) and
raises SweepInterrupted. The second Ctrl-C raises KeyboardInterrupt at once (stop
waiting); from the `lossy` command it also ends the process within EXIT_AFTER_S, whatever
is still closing (a Dask cluster took 70 s). Outside the scheduling loop (reading the
spec, planning) Ctrl-C raises KeyboardInterrupt as usual.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType
from typing import Any, Optional

__all__ = ["EXIT_AFTER_S", "GRACE_S", "CtrlC", "exit_on_second"]

GRACE_S = 1.0  # how long the first Ctrl-C waits for runs in flight before leaving them
EXIT_AFTER_S = 2.0  # after the second Ctrl-C, the `lossy` command is gone within this

_EXIT_ON_SECOND = False


def exit_on_second(enabled: bool = True) -> None:
    """The `lossy` command's choice: a second Ctrl-C ends the process (a library caller,
    such as a notebook, gets KeyboardInterrupt instead)."""
    global _EXIT_ON_SECOND
    _EXIT_ON_SECOND = enabled


class CtrlC:
    """SIGINT while a sweep runs: `deferring` (the scheduling loop) turns the first into
    `requested`; any other raises KeyboardInterrupt. A no-op off the main thread, where
    Python delivers no signals."""

    def __init__(self) -> None:
        self.requested = False
        self.deferring = False
        self.count = 0
        self._old: Any = None
        self._installed = False

    def __enter__(self) -> "CtrlC":
        # Not where SIGINT is ignored (a job started in the background by a script): a
        # sweep must not become interruptible there.
        if threading.current_thread() is threading.main_thread() and \
                signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            self._old = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._old)
            self._installed = False

    def _handle(self, signum: int, frame: Optional[FrameType]) -> None:
        self.count += 1
        if self.count == 1 and self.deferring:
            self.requested = True  # the loop sees it within WAIT_SLICE_S
            return
        if self.count >= 2 and _EXIT_ON_SECOND:
            _exit_soon(now=self.count >= 3)
        raise KeyboardInterrupt


def _exit_soon(now: bool) -> None:
    """End the process within EXIT_AFTER_S: the KeyboardInterrupt raised next usually gets
    there first, with the finished runs stored and the closing table printed."""
    def leave() -> None:
        from .executors import release_before_exit

        sys.stderr.write("lossy: interrupted\n")
        sys.stderr.flush()
        release_before_exit()
        os._exit(130)

    if now:
        leave()
    timer = threading.Timer(EXIT_AFTER_S, leave)
    timer.daemon = True
    timer.start()
