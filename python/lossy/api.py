"""`lossy.run`: one simulation of a scenario, as a RunResult; `lossy.load_scenario`.

Both take what `lossy run` takes: a file, or the name of a shipped scenario
(`lossy.run("last-hop")` from any directory), resolved as the command line resolves it
(shipped.resolve), so the README's Python works outside a checkout (issue 27)."""

from __future__ import annotations

import operator
import os
from collections.abc import Iterable, Mapping
from typing import Any, Optional, Sequence, Tuple, Union

from . import _core, scenario as _scenario
from ._core import ScenarioError
from .result import RunResult
from .ellipsis import short_repr, shorten
from .scenario import Scenario, ScenarioSource, apply_overrides, to_json_text
from .shipped import resolve


Overrides = Union[Mapping[str, Any], Iterable[Tuple[str, Any]]]


def run(
    scenario: ScenarioSource,
    seed: int = 1,
    replication: int = 0,
    overrides: Optional[Overrides] = None,
    traces: Sequence[str] = (),
    *,
    progress: Optional[_core.RunProgress] = None,
    capture: bool = False,
) -> RunResult:
    """Run one simulation.

    `scenario` is a path to a TOML file, the name of a shipped scenario (`"last-hop"`,
    as `lossy scenarios` lists them), a dict, or TOML text. `overrides` maps dotted
    paths to values (`{"flows.0.tcp.variant": "newreno", "links.1.loss.p": 0.02}`, or the
    same as (path, value) pairs) and is applied to a copy of the scenario before the core
    validates it. `traces=["cwnd", "seq"]` records those traces (the same as overrides
    `traces.cwnd = true`); they are in `result.traces`. `progress`, a
    `lossy._core.RunProgress`, shows another thread how far the run has got. Random streams depend
    only on (seed, replication, stream name), so two scenarios run at the same seed and
    replication see the same channel. `capture=True` captures every link direction when
    the scenario's `capture.links` names none (`lossy run --pcap`); the pcap files' bytes
    are in `result.captures`. Bad input raises ScenarioError naming the field.
    """
    doc = load_scenario(scenario)
    if overrides:
        apply_overrides(doc, _as_mapping(overrides))
    if isinstance(traces, str):
        traces = [traces]
    for name in traces:
        apply_overrides(doc, {f"traces.{name}": True})  # the core rejects an unknown name
    if capture:
        from .captures import capture_everything

        capture_everything(doc)
    seed = _non_negative("seed", seed)
    replication = _non_negative("replication", replication)
    # numpy=False: the columns come as array.array and RunResult makes them NumPy arrays
    # when first read, so a run that only prints them never imports NumPy (issue 28).
    raw = _core.run(to_json_text(doc), seed=seed, replication=replication, progress=progress, numpy=False)
    return RunResult(raw, scenario=doc)


def load_scenario(source: ScenarioSource,
                  base_dir: Union[str, "os.PathLike[str]", None] = None) -> Scenario:
    """Return a fresh, mutable scenario dict.

    `source` is a path to a TOML file (a `Path`, or a `str` that ends in `.toml` or holds
    neither `=` nor a newline), the name of a shipped scenario (`"last-hop"`, when no file
    of that name exists here), a mapping (deep-copied), or TOML text. A missing file, an
    unknown name (the message lists the shipped ones) and bad TOML raise ScenarioError.
    Data files the scenario names are resolved against its file's directory, or against
    `base_dir` for a mapping or text.
    """
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _names_a_file(source)):
        source = resolve(os.fspath(source), "scenario")
    return _scenario.load_scenario(source, base_dir)


def _names_a_file(text: str) -> bool:
    # The rule scenario.load_scenario reads a str by: TOML text holds `=` or a newline.
    return text.endswith(".toml") or not ("\n" in text or "=" in text)


def _as_mapping(overrides: Overrides) -> Mapping[str, Any]:
    if isinstance(overrides, Mapping):
        return overrides
    try:
        pairs = list(overrides) if not isinstance(overrides, (str, bytes)) else None
    except TypeError:  # not iterable: `overrides=5`
        pairs = None
    if pairs is None or not all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) for p in pairs):
        raise ScenarioError(f"overrides: {short_repr(overrides)} is not a mapping of dotted paths to values "
                            "(or a list of (path, value) pairs), e.g. {\"links.1.loss.p\": 0.02}")
    return dict(pairs)


def _non_negative(name: str, value: Any) -> int:
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        raise ScenarioError(f"{name}: {short_repr(value)} is not an integer; use an integer >= 0") from None
    if number < 0 or number >= 2**64:
        raise ScenarioError(f"{name}: {shorten(number)} is out of range; use an integer from 0 to 2^64-1")
    return number
