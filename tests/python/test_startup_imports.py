"""`lossy run` of a short scenario and `lossy --help` start without the heavy modules
(issue 28: NumPy alone was about half of a 1 s scenario's 0.35 s `lossy run`); they come
when a result's arrays are asked for. What each process imported is read from
`python -X importtime`, which names every module a process loads."""

import os
import subprocess
import sys

import pytest

from lossy.result import RunResult

# What neither command may import: each costs tens to hundreds of milliseconds.
HEAVY = ("numpy", "pandas", "pyarrow", "scipy", "matplotlib", "dask")


def imported(*args: str, columns: int = 100) -> tuple[subprocess.CompletedProcess, set]:
    """Runs `python -X importtime -m lossy ARGS` in a terminal `columns` wide; its result
    and the modules it imported."""
    env = {**os.environ, "COLUMNS": str(columns)}
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "lossy", *args], env=env,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    modules = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines()
               if line.startswith("import time:") and "|" in line}
    return proc, modules


def heavy_in(modules: set) -> list:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


@pytest.mark.slow
@pytest.mark.parametrize("as_json", [False, True], ids=["tables", "json"])
def test_lossy_run_of_a_short_scenario_imports_no_heavy_module(as_json):
    proc, modules = imported("run", "last-hop", "--set", "duration=1s", *(["--json"] if as_json else []))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "goodput" in proc.stdout  # it did run and print its result
    assert "lossy._core" in modules  # the reading of the import list works
    assert heavy_in(modules) == []


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--help"], ["-h"], []], ids=["--help", "-h", "alone"])
def test_lossy_help_prints_the_stored_text_without_the_command_line(args):
    # typer and the commands' declarations were two thirds of --help's instructions (issue 28).
    proc, modules = imported(*args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("Usage: lossy [OPTIONS] COMMAND")
    assert "lossy.entry" in modules
    assert heavy_in(modules) == []
    assert not {"typer", "rich", "lossy.cli"} & modules


@pytest.mark.slow
def test_lossy_help_in_a_narrow_terminal_is_rendered_for_it():
    proc, modules = imported("--help", columns=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "lossy.cli" in modules  # the stored text is 78 columns wide: rendered instead
    assert max(len(line) for line in proc.stdout.splitlines()) <= 58
    assert heavy_in(modules) == [] and "rich" not in modules


def test_a_result_of_std_arrays_reads_as_the_cores_numpy_arrays(last_hop):
    """The core's two column forms (NumPy, or array.array for `lossy run`) give one
    RunResult: the same dtypes, values, rows, summary and JSON."""
    import numpy as np

    from lossy import _core
    from lossy.api import load_scenario
    from lossy.scenario import apply_overrides, to_json_text

    doc = apply_overrides(load_scenario(last_hop), {"duration": "1 s", "traces.cwnd": True})
    text = to_json_text(doc)
    with_numpy = RunResult(_core.run(text, seed=3, numpy=True), scenario=doc)
    with_std = RunResult(_core.run(text, seed=3, numpy=False), scenario=doc)
    assert type(with_std.raw["flows"]["goodput_bps"]).__module__ == "array"
    assert with_std.comparable_summary() == with_numpy.comparable_summary()
    assert with_std.flows == with_numpy.flows and with_std.links == with_numpy.links
    for a, b in [(with_std.flow_table, with_numpy.flow_table), (with_std.link_table, with_numpy.link_table),
                 *[(with_std.traces[t], with_numpy.traces[t]) for t in with_numpy.traces]]:
        assert list(a) == list(b)
        for name in b:
            if isinstance(b[name], np.ndarray):
                assert isinstance(a[name], np.ndarray) and a[name].dtype == b[name].dtype, name
                np.testing.assert_array_equal(a[name], b[name])
            else:
                assert a[name] == b[name], name
    assert with_std.traces.keys() == {"cwnd"}
    from lossy.result import WALL_CLOCK_KEYS as drop
    json_std, json_numpy = with_std.to_dict(), with_numpy.to_dict()
    for d in (json_std, json_numpy):
        d["summary"] = {k: v for k, v in d["summary"].items() if k not in drop}
    assert json_std == json_numpy
