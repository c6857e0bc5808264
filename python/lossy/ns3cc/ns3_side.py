"""ns-3's side of a set-up: our program anchors/ns3/cc.cc, built on demand against ns-3
3.44 from PyPI (bench_anchors.ns3_program), one process per (cc, p, seed). A run's JSON
is cached under the user cache directory (bench_anchors.cache_root()/ns3-results/), in a
folder named after the binary's build key (a hash of cc.cc, counters.h, the wheel's
RECORD and the flags) and a file named after the run's arguments, so a run is made once
per program version and a changed program runs afresh."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from ..bench_anchors import Skip, cache_root, ns3_program
from .setups import SetUp

PARALLEL = 2  # ns-3 processes at once: the machine's two cores


class Ns3:
    """A built cc.cc and the ns-3 it was built against."""

    def __init__(self, binary: Path, version: str) -> None:
        self.binary = binary
        self.version = version
        self.key = binary.parent.name  # the build key: a hash of the program and ns-3

    def run(self, args: List[str]) -> Dict[str, Any]:
        """One run's JSON, from the cache or from a fresh process."""
        digest = hashlib.sha256("\0".join(args).encode()).hexdigest()[:20]
        cached = cache_root() / "ns3-results" / self.key / f"{digest}.json"
        if cached.is_file():
            result: Dict[str, Any] = json.loads(cached.read_text())
            return result
        done = subprocess.run([str(self.binary), *args], capture_output=True, text=True, check=True)
        result = json.loads(done.stdout.strip().splitlines()[-1])
        result["argv"] = ["cc", *args]
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.partial")
        partial.write_text(json.dumps(result))
        os.replace(partial, cached)
        return result


def find(progress: Optional[Callable[[str], Any]] = None) -> Union[Ns3, Skip]:
    built = ns3_program("cc.cc", progress)
    if isinstance(built, Skip):
        return built
    return Ns3(*built)


def run_setup(ns3: Ns3, setup: SetUp, runs: List[Tuple[str, float, int]]) -> List[Dict[str, Any]]:
    """Every (cc, p, seed) of `runs` on `setup`, two processes at once; each row is the
    program's JSON with the set-up's name."""
    def one(point: Tuple[str, float, int]) -> Dict[str, Any]:
        cc, p, seed = point
        return {"setup": setup.name, **ns3.run(setup.ns3_args(cc, p, seed))}

    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        return list(pool.map(one, runs))
