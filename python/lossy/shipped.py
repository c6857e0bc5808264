"""The scenarios and sweep specs that ship inside the package (`lossy scenarios`).

They are package data, found with importlib.resources, so an installed wheel has them
wherever it is run from; in a source checkout `scenarios/` and `experiments/` at the top
are links to the same files.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path
from typing import List, Optional

from ._core import ScenarioError
from .ellipsis import shorten


def _data_dir(name: str) -> Path:
    # The package is installed as plain files (wheels and editable installs alike), so
    # the resource is a real directory that TOML loaders and relative paths can use.
    return Path(str(files("lossy").joinpath(name)))


def scenarios_dir() -> Path:
    return _data_dir("scenarios")


def experiments_dir() -> Path:
    return _data_dir("experiments")


def scenario_names() -> List[str]:
    return sorted(p.stem for p in scenarios_dir().glob("*.toml"))


def experiment_names() -> List[str]:
    return sorted(p.stem for p in experiments_dir().glob("*.toml"))


def scenario_path(name: str) -> Path:
    """The shipped scenario `name` (`last-hop` or `last-hop.toml`)."""
    return _find(scenarios_dir(), name, "scenario", scenario_names())


def experiment_path(name: str) -> Path:
    """The shipped sweep spec `name` (`reno-vs-eln`)."""
    return _find(experiments_dir(), name, "experiment", experiment_names())


def instead_of(given: str, kind: str) -> Optional[Path]:
    """The shipped scenario (`kind` "scenario") or experiment ("experiment") that a name
    such as `last-hop` means, when no file of that name exists here; else None."""
    if os.path.exists(given) or "/" in given or os.sep in given:
        return None
    stem = given[:-5] if given.endswith(".toml") else given
    names = scenario_names() if kind == "scenario" else experiment_names()
    if stem not in names:
        return None
    return scenario_path(stem) if kind == "scenario" else experiment_path(stem)


def resolve(given: str, kind: str) -> Path:
    """What a user means by `given` where a scenario (`kind` "scenario") or a sweep spec
    ("experiment") is expected, for the command line and the Python API alike: the file
    of that name when one exists, else the shipped one of that name (`last-hop`). A bare
    name that is neither (no such file here, no directory in it) raises ScenarioError
    naming the shipped ones; a path with a directory is left to its reader, which says
    the file is missing."""
    shipped = instead_of(given, kind)
    if shipped is not None:
        return shipped
    if not os.path.exists(given) and "/" not in given and os.sep not in given:
        names = scenario_names() if kind == "scenario" else experiment_names()
        field = "scenario" if kind == "scenario" else "spec"
        raise ScenarioError(f"{field}: '{_cut(given)}' is neither a file here nor a shipped {kind}; "
                            f"shipped: {', '.join(names) or 'none'} (lossy scenarios lists them)")
    return Path(given)


def _cut(value: str, limit: int = 60) -> str:
    # An error line stays short whatever was typed (issue 27: messages echo unbounded input).
    return value if len(value) <= limit else value[:limit - 1] + "…"


def _find(directory: Path, name: str, what: str, known: List[str]) -> Path:
    stem = name[:-5] if name.endswith(".toml") else name
    path = directory / f"{stem}.toml"
    if stem not in known:
        raise ScenarioError(f"{shorten(name)}: no shipped {what} of that name; {listing(stem, known)}")
    return path


# Up to this many shipped names are listed whole; beyond, the closest few (issue 27: an
# unknown name did not list the shipped ones).
_LIST_WHOLE = 12
_CLOSEST = 5


def listing(given: str, known: List[str]) -> str:
    """`shipped: a, b, c` (every name, or the closest few to `given`)."""
    if not known:
        return "none is shipped"
    if len(known) <= _LIST_WHOLE:
        return f"shipped: {', '.join(known)}"
    import difflib

    close = difflib.get_close_matches(given, known, n=_CLOSEST, cutoff=0.4) or known[:_CLOSEST]
    return f"closest shipped: {', '.join(close)} (`lossy scenarios` lists all {len(known)})"


def not_found(given: str, kind: str) -> str:
    """Why `given` (`lossy run` FILE, kind "scenario"; `lossy sweep` SPEC, "experiment")
    is neither a file nor a shipped name; a shipped name of the other kind gets the
    command that runs it."""
    stem = given[:-5] if given.endswith(".toml") else given
    if kind == "scenario" and stem in experiment_names():
        return (f"{shorten(given)}: a shipped experiment (a sweep spec), not a scenario; "
                f"run it with `lossy sweep {stem}`")
    if kind == "experiment" and stem in scenario_names():
        return (f"{shorten(given)}: a shipped scenario, not a sweep spec (an experiment); "
                f"run it with `lossy run {stem}`")
    names = scenario_names() if kind == "scenario" else experiment_names()
    file = "scenario file" if kind == "scenario" else "sweep spec file"
    return f"{shorten(given)}: no such {file}, nor a shipped {kind} of that name; {listing(stem, names)}"
