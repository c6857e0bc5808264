"""Messages built in Python cut a long value with an ellipsis (issue 27: a 10,000-character
value came back whole in the error line). The command line cuts every over-long word
once more (cli_errors.one_line); these are the Python API's own messages."""

from __future__ import annotations

import pytest

import lossy
from lossy.generate import GenerateError, base_station
from lossy.plot import PlotError, PlotSpec, summarize_for_plot

LONG = "x" * 10_000
LIMIT = 300  # far below 10,000; the messages are one short line


def _message(call) -> str:
    with pytest.raises((lossy.ScenarioError, GenerateError, PlotError)) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize("call", [
    lambda: lossy.run({"nodes": ["a"], "name": "n"}, overrides={f"name.{LONG}": 1}),
    lambda: lossy.run({"nodes": ["a"], "name": LONG}, overrides={"name.x": 1}),
    lambda: lossy.run({"nodes": ["a"]}, overrides={f"nodes.{LONG}": 1}),
    lambda: lossy.run({"nodes": ["a"]}, overrides=[LONG]),
    lambda: lossy.run({"nodes": ["a"]}, seed=LONG),
    lambda: lossy.run({"nodes": ["a"]}, seed=10 ** 400),
    lambda: lossy.run(f"{LONG}.toml"),
    lambda: base_station(LONG),
    lambda: base_station(2, stagger=LONG),
], ids=["key-through-a-string", "through-a-string", "list-index", "overrides", "seed", "huge-seed", "file-name",
        "hosts", "stagger"])
def test_the_value_is_cut(call) -> None:
    message = _message(call)
    assert len(message) < LIMIT and "…" in message, message[:400]


def test_a_plot_column_is_cut() -> None:
    import pandas as pd

    df = pd.DataFrame({"p": [0.1], "goodput": [1.0], "status": ["ok"]})
    message = _message(lambda: summarize_for_plot(df, PlotSpec(x="p", y=LONG)))
    assert len(message) < LIMIT and "…" in message, message[:400]
