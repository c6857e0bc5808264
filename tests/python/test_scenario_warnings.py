"""A scenario that runs but almost surely not as meant (a bare number in a unit field)
warns through Python's warnings, as `lossy.ScenarioWarning`, before the run (issue 27)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import lossy

LAST_HOP = str(Path(__file__).resolve().parents[2] / "scenarios" / "last-hop.toml")
SHORT = {"duration": "1 s"}


def test_a_bare_delay_warns_naming_the_field_and_the_run_goes_on() -> None:
    # A value no other test uses: each distinct warning is issued once per process.
    with pytest.warns(lossy.ScenarioWarning, match=r'^links\.0\.delay: 0\.037 is read as 0\.037 s; write "0\.037 s" \(or "0\.037 ms"\)$'):
        result = lossy.run(LAST_HOP, overrides={**SHORT, "links.0.delay": 0.037})
    assert result.summary["sim_time_s"] == 1.0
    # The same scenario again (a loop of runs, a sweep checking its points twice): once.
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        lossy.run(LAST_HOP, overrides={**SHORT, "links.0.delay": 0.037})
    assert not [w for w in seen if issubclass(w.category, lossy.ScenarioWarning)]


def test_units_written_out_warn_of_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", lossy.ScenarioWarning)
        lossy.run(LAST_HOP, overrides={**SHORT, "links.0.delay": "5 ms", "links.0.queue": "10 packets"})


def test_a_refused_scenario_raises_without_warning_first() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", lossy.ScenarioWarning)
        with pytest.raises(lossy.ScenarioError, match=r"^links\.0\.rate: -1 must be ≥ 1 bps"):
            lossy.run(LAST_HOP, overrides={"links.0.delay": 5, "links.0.rate": -1})
