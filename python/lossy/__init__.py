"""lossy: a fast, reproducible packet-level simulator of TCP over lossy wireless links.

    >>> import lossy
    >>> r = lossy.run("last-hop", seed=1, overrides={"flows.0.tcp.variant": "newreno"})
    >>> r.summary["flows.0.goodput_bps"]

The simulator itself is the compiled `lossy._core` (Rust); this package loads scenarios,
applies overrides and shapes results. Its names load when first used, so `import lossy`
(and the `lossy` command) costs only the core: NumPy, pandas and pyarrow come with the
parts that need them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _core
from ._core import ScenarioError, ScenarioWarning

# PyO3 names the core's classes' module "_core", which no import finds: pickling a
# ScenarioError, or pytest-xdist passing a ScenarioWarning between processes, imports
# the class by its module. Their true home:
for _cls in (ScenarioError, ScenarioWarning):
    _cls.__module__ = "lossy._core"

# Eager, because the subpackage `lossy.sweep` and the function `lossy.sweep` share a
# name: importing the subpackage later would rebind `lossy.sweep` to it. It is light
# (no NumPy, pandas or pyarrow until a sweep runs).
from .sweep import Sweep, sweep

if TYPE_CHECKING:
    from . import results
    from .api import load_scenario, run
    from .result import RunResult

__version__: str = _core.version()

__all__ = ["RunResult", "ScenarioError", "ScenarioWarning", "Sweep", "__version__", "load_scenario", "results", "run", "sweep"]

# name -> (module, attribute); None: the module itself.
_LAZY = {
    "run": (".api", "run"),
    "RunResult": (".result", "RunResult"),
    "load_scenario": (".api", "load_scenario"),  # shipped names too, as `lossy run` takes
    "results": (".results", None),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'lossy' has no attribute {name!r}")
    module_name, attr = _LAZY[name]
    module = importlib.import_module(module_name, __name__)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value  # once loaded, a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
