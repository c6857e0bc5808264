"""The `lossy` command's checks of its own arguments before any work: names that are
neither a file nor a shipped scenario or experiment, trace names, options that would be
ignored (issue 27: each was accepted silently or answered in weaker words). Each raises
ScenarioError, which the command prints as one line with status 2."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping

from . import _core
from ._core import ScenarioError
from .ellipsis import shorten


def file_or_shipped(given: str, kind: str) -> str:
    """`given` when it exists, else the shipped scenario (`kind` "scenario") or
    experiment of that name; a bare name that is neither lists the shipped ones."""
    from .shipped import instead_of, not_found

    shipped = instead_of(given, kind)
    if shipped is not None:
        return str(shipped)
    if not os.path.lexists(given):
        what = "scenario file" if kind == "scenario" else "sweep spec file"
        raise ScenarioError(not_found(given, kind) if _bare(given) else f"{given}: no such {what}")
    return given


def results_target(target: str, out_given: bool, quick: bool) -> None:
    """`lossy results SPEC|DIR`: neither (nor a shipped experiment) said as such; a
    results directory with --out or --quick refused (they were ignored)."""
    from .shipped import experiment_names, instead_of, listing

    if not out_given and not os.path.lexists(target) and instead_of(target, "experiment") is None:
        stem = target[:-5] if target.endswith(".toml") else target
        shipped = f"; {listing(stem, experiment_names())}" if _bare(target) else ""
        raise ScenarioError(f"{target}: no such sweep spec or results directory{shipped}")
    if os.path.isdir(target) and (quick or out_given):
        option = "--quick" if quick else "--out"
        raise ScenarioError(f"{option}: {target} is a results directory, read as it is; {option} only says "
                            "where a sweep spec's results are: leave it out, or give the spec")


def trace_names() -> List[str]:
    """The traces a run can record: the [traces] table's on/off fields in the core's schema."""
    schema = json.loads(_core.schema())
    fields = schema.get("$defs", {}).get("TraceConfig", {}).get("properties", {})
    return [name for name, field in fields.items() if field.get("type") == "boolean"]


def traces_asked(names: List[str], out: Any, doc: Mapping[str, Any]) -> None:
    """--trace NAME is a trace the core records; --out has a trace to write (by --trace
    or the scenario's [traces]): without one it wrote nothing, after the whole run."""
    known = trace_names()
    for name in names:
        if known and name not in known:
            # `lossy traces` names capacity traces (mahimahi:NAME): those belong in a link, not here.
            capacity = (f"; a link's capacity trace goes in the scenario, e.g. --set links.0.capacity.trace={name}"
                        if ":" in name else "")
            raise ScenarioError(f"--trace {name!r} is not a trace; use {', '.join(known[:-1])} or {known[-1]}{capacity}")
    table = doc.get("traces")
    in_scenario = isinstance(table, dict) and any(value is True for value in table.values())
    if out is not None and not names and not in_scenario:
        raise ScenarioError(f"--out {out}: no trace to write there; name one with --trace "
                            f"({', '.join(known)}), or turn one on in the scenario's [traces]")


def run_numbers(seed: int, replication: int) -> None:
    """--seed and --replication in the core's range (the API would name `seed`)."""
    for option, value in (("--seed", seed), ("--replication", replication)):
        if not 0 <= value < 2**64:
            raise ScenarioError(f"{option}: {value} is out of range; use a whole number from 0 to 2^64-1")


def scheduler_with_dask(scheduler: Any, executor: str) -> None:
    """--scheduler only with --executor dask: otherwise the address went unused."""
    if scheduler is not None and executor != "dask":
        raise ScenarioError(f"--scheduler {scheduler}: only a Dask cluster has a scheduler; "
                            "add --executor dask, or leave --scheduler out")


def only_with_until_ci(until_ci: Any, options: Dict[str, Any]) -> None:
    """--max-replications and --metric steer --until-ci: without it they went unused."""
    for option, value in options.items():
        if value not in (None, []) and until_ci is None:
            shown = ",".join(value) if isinstance(value, list) else value
            raise ScenarioError(f"{option} {shorten(str(shown))}: only --until-ci reads it; "
                                f"add --until-ci (e.g. 5%), or leave {option} out")


def _bare(given: str) -> bool:
    return "/" not in given and os.sep not in given
