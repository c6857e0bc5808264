"""lossy: a fast, reproducible packet-level simulator of TCP over lossy wireless links.

    >>> import lossy
    >>> r = lossy.run("scenarios/last-hop.toml", seed=1, overrides={"flows.0.tcp.variant": "newreno"})
    >>> r.summary["flows.0.goodput_bps"]

The simulator itself is the compiled `lossy._core` (Rust); this package loads scenarios,
applies overrides and shapes results.
"""

from . import _core
from . import results
from ._core import ScenarioError
from .api import run
from .result import RunResult
from .scenario import load_scenario
from .sweep import Sweep, sweep

__version__: str = _core.version()

__all__ = ["RunResult", "ScenarioError", "Sweep", "__version__", "load_scenario", "results", "run", "sweep"]
