"""`lossy.run`: one simulation of a scenario, as a RunResult."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any, Optional

from . import _core
from ._core import ScenarioError
from .result import RunResult
from .scenario import ScenarioSource, apply_overrides, load_scenario, to_json_text


def run(
    scenario: ScenarioSource,
    seed: int = 1,
    replication: int = 0,
    overrides: Optional[Mapping[str, Any]] = None,
) -> RunResult:
    """Run one simulation.

    `scenario` is a path to a TOML file, a dict, or TOML text. `overrides` maps dotted
    paths to values (`{"flows.0.tcp.variant": "newreno", "links.1.loss.p": 0.02}`) and is
    applied to a copy of the scenario before the core validates it. Random streams depend
    only on (seed, replication, stream name), so two scenarios run at the same seed and
    replication see the same channel. Bad input raises ScenarioError naming the field.
    """
    doc = load_scenario(scenario)
    if overrides:
        apply_overrides(doc, overrides)
    seed = _non_negative("seed", seed)
    replication = _non_negative("replication", replication)
    raw = _core.run(to_json_text(doc), seed=seed, replication=replication)
    return RunResult(raw, scenario=doc)


def _non_negative(name: str, value: Any) -> int:
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        raise ScenarioError(f"{name}: {value!r} is not an integer; use an integer >= 0") from None
    if number < 0 or number >= 2**64:
        raise ScenarioError(f"{name}: {number} is out of range; use an integer from 0 to 2^64-1")
    return number
