"""Where runs execute: any `concurrent.futures.Executor`.

- "local" (the default): a thread pool with one thread per core. The core releases the
  GIL for the whole run, so threads run simulations in parallel; the numbers below chose
  it over a process pool.
- "processes": a process pool, one worker per core (a crash in the core takes down one
  worker instead of the sweep; scripts need the `if __name__ == "__main__":` guard).
- "dask": an existing Dask cluster, `distributed.Client(address).get_executor()`. With no
  address, `distributed.Client()` starts a local cluster. On Slurm or PBS, start the
  cluster with dask-jobqueue (`SLURMCluster(...).scale(jobs=...)`) and pass its
  `scheduler_address`, or pass `Client(cluster).get_executor()` as the executor.
- any other Executor passed in is used as it is (and not shut down by us).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, Iterator, Optional, Union

from .._core import ScenarioError

ExecutorChoice = Union[None, str, Executor]

# Measured on 2 cores shared with other jobs (load ~3; Python 3.11), wall time of
# lossy.sweep with workers=2, pool start-up included, rows stored in batched parts by
# the parent, runs sent in chunks; min / median of 3:
#   10000 runs of 1 s one-hop (~0.2 ms each in the core): threads 5.16 / 5.31 s,
#        processes (forkserver) 5.31 / 6.22 s
#    1000 runs of 20 s last-hop: threads 2.09 / 2.27 s, processes 2.58 / 2.80 s
# (Before batches and chunks, with a Parquet file per run written by each worker,
# processes won for thousands of sub-millisecond runs: 5.35 against 7.05 s for 3000.)
# Threads are as fast or faster now at every run length; a process pool also spends
# ~0.35 s starting interpreters and makes every user script need the
# `if __name__ == "__main__":` guard (forkserver and spawn re-import __main__; fork is
# unsafe with threads). So the default is the thread pool; "processes" is one word
# away, for a core that might crash.


def cpu_count() -> int:
    """Cores this process may use (the affinity mask, which containers and Slurm set)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


def _init_worker(sweep_pid: int, sweep_started: str) -> None:
    # Ctrl-C is the parent's to handle: it cancels what is pending and lets running runs
    # finish and be stored. Workers that died of it would lose those runs.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker forks from the forkserver, so it is not the sweep's child: nothing tells
    # it when the sweep is killed (SIGKILL runs no cleanup), and it would sit there,
    # ~120 MiB, until the pool's pipes time out. A thread watches the sweep instead.
    threading.Thread(target=_watch, args=(sweep_pid, sweep_started), name="lossy-watchdog",
                     daemon=True).start()


WATCH_S = 0.5  # how often a worker looks for its sweep


def _watch(pid: int, started: str) -> None:
    while _alive(pid, started):
        time.sleep(WATCH_S)
    os._exit(1)  # no cleanup to do: the sweep that would store our rows is gone


def _alive(pid: int, started: str) -> bool:
    """Whether the process `pid` that started at `started` still runs (not a zombie,
    and not another process that reuses the pid)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _started(pid) in (started, "")


def _started(pid: int) -> str:
    """The start time of a process from /proc ("" where there is no /proc), or "dead"
    for a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except OSError:
        return ""
    return "dead" if fields[0] == b"Z" else fields[19].decode()


def process_pool(workers: Optional[int] = None) -> ProcessPoolExecutor:
    """A pool whose workers fork from a clean server process that has already imported
    lossy: safe with threads in the parent (Jupyter, rich, Dask), and a worker starts in
    milliseconds instead of re-importing NumPy."""
    ctx: Any
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["lossy.sweep.worker"])
    else:  # pragma: no cover - Windows, macOS without forkserver
        ctx = multiprocessing.get_context("spawn")
    me = os.getpid()
    return ProcessPoolExecutor(max_workers=workers or cpu_count(), mp_context=ctx,
                               initializer=_init_worker, initargs=(me, _started(me)))


def thread_pool(workers: Optional[int] = None) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=workers or cpu_count(), thread_name_prefix="lossy-run")


def local_executor(workers: Optional[int] = None) -> Executor:
    """The default executor: a thread per core (see the measurements above)."""
    return thread_pool(workers)


@contextmanager
def make_executor(
    choice: ExecutorChoice = None,
    workers: Optional[int] = None,
    scheduler: Optional[str] = None,
) -> Iterator[Executor]:
    """The executor for a sweep, shut down afterwards when we made it."""
    if isinstance(choice, Executor):
        yield choice
        return
    if workers is not None and workers < 1:
        raise ScenarioError(f"--workers: {workers} is not a number of workers; use 1 or more")
    if choice in (None, "local", "processes"):
        executor = local_executor(workers) if choice != "processes" else process_pool(workers)
        try:
            yield executor
        except BaseException:  # Ctrl-C or an error: do not wait for what is queued
            shutdown(executor, cancel=True)
            raise
        shutdown(executor)
        return
    if choice == "dask":
        with _dask_executor(scheduler, workers) as executor:
            yield executor
        return
    raise ScenarioError(f"--executor: {choice!r} is not an executor; use local, processes or dask")


@contextmanager
def _dask_executor(scheduler: Optional[str], workers: Optional[int]) -> Iterator[Executor]:
    try:
        import distributed
    except ImportError:
        raise ScenarioError(
            "--executor dask needs dask.distributed: pip install 'lossy-sim[dask]' "
            "(and dask-jobqueue for Slurm/PBS: 'lossy-sim[cluster]')") from None
    kwargs: dict[str, Any] = {}
    if scheduler is None and workers is not None:
        kwargs["n_workers"] = workers  # a local cluster of that size
    make_client: Any = distributed.Client  # untyped
    try:
        client = make_client(scheduler, **kwargs) if scheduler else make_client(**kwargs)
    except OSError as e:
        raise ScenarioError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({e})") from None
    try:
        # pure=False: every submit is a task of its own, never merged with an equal one.
        yield client.get_executor(pure=False)
    except BaseException:  # Ctrl-C or an error: do not wait for runs inside the core
        _close_now(client, own_cluster=scheduler is None)
        raise
    client.close()
    if scheduler is None and client.cluster is not None:
        client.cluster.close()


CLOSE_S = 0.5  # at most this for each step of closing a Dask client and cluster on Ctrl-C


def _close_now(client: Any, own_cluster: bool) -> None:
    """Close after Ctrl-C within seconds: a worker inside the core cannot be stopped, and a
    graceful close waited for it (70 s, then tracebacks). The workers of a cluster we
    started are killed first; a cluster we were given keeps its workers."""
    cluster = client.cluster if own_cluster else None
    for pid in _worker_pids(cluster):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    # Closing a cluster whose workers were killed logs tracebacks of cancelled tasks, then
    # and from its threads later: distributed's loggers (each has a level of its own) are
    # silenced for good; the client and cluster they speak of are gone.
    for name in [n for n in logging.root.manager.loggerDict if n.split(".")[0] == "distributed"]:
        logging.getLogger(name).disabled = True
    for close in (getattr(cluster, "close", None), client.close):  # the workers' cluster first
        if close is None:
            continue
        try:
            close(timeout=CLOSE_S)
        except BaseException:  # noqa: BLE001 - a timeout, a second Ctrl-C: we are leaving
            pass


def _worker_pids(cluster: Any) -> list[int]:
    """The process ids of a local Dask cluster's workers (nanny processes and theirs)."""
    pids = []
    for nanny in dict(getattr(cluster, "workers", {}) or {}).values():
        process = getattr(getattr(nanny, "process", None), "process", None)
        pid = getattr(process, "pid", None)
        if isinstance(pid, int):
            pids.append(pid)
    return pids


def shutdown(executor: Executor, cancel: bool = False) -> None:
    """Shut down an executor we made. With `cancel`, pending runs are dropped and
    workers still inside the core are stopped (the core cannot be interrupted from
    Python; their runs are lost, and redone by the next sweep)."""
    if cancel and isinstance(executor, ProcessPoolExecutor):
        procs = list(getattr(executor, "_processes", {}).values())
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.join(timeout=1.0)
        # The workers are gone, so waiting is short; it releases the pool's queues and
        # semaphores (else the resource tracker warns of leaked ones when we exit).
        executor.shutdown(wait=all(not p.is_alive() for p in procs), cancel_futures=True)
        return
    executor.shutdown(wait=not cancel, cancel_futures=cancel)


def release_before_exit() -> None:
    """Before os._exit: unlink the named semaphores this process made (a Dask cluster's,
    a process pool's) as a normal exit would, so the resource tracker does not warn of
    leaked ones after we are gone. Only for a process that is ending: it would break
    pools still in use."""
    from multiprocessing import synchronize, util

    registry = getattr(util, "_finalizer_registry", {})
    cleanup = getattr(synchronize.SemLock, "_cleanup", None)  # private to multiprocessing
    for finalizer in list(registry.values()):
        if cleanup is not None and getattr(finalizer, "_callback", None) is cleanup:
            try:
                finalizer()
            except Exception:  # noqa: BLE001 - already unlinked: nothing to release
                pass
