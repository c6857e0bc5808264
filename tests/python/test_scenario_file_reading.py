"""What is read as a scenario file (issue 27): a regular file of at most 64 MiB; a
device such as /dev/zero (read until the process was killed at 2 GiB), a pipe or an
oversized file is refused in one line before it is read."""

from __future__ import annotations

import os
import time

import pytest

import lossy
from lossy.scenario import MAX_SCENARIO_BYTES, load_scenario


def test_a_device_is_refused_at_once() -> None:
    started = time.monotonic()
    with pytest.raises(lossy.ScenarioError, match=r"^/dev/zero: not a regular file"):
        load_scenario("/dev/zero")
    assert time.monotonic() - started < 1


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_without_a_writer_is_refused_without_waiting(tmp_path) -> None:
    fifo = tmp_path / "scenario.toml"
    os.mkfifo(fifo)
    with pytest.raises(lossy.ScenarioError, match="not a regular file"):
        load_scenario(fifo)


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path) -> None:
    big = tmp_path / "big.toml"
    with open(big, "wb") as f:  # sparse: no 64 MiB written
        f.truncate(MAX_SCENARIO_BYTES + 1)
    with pytest.raises(lossy.ScenarioError, match=r"big.toml: 67,108,865 B is over the limit of 64 MiB"):
        load_scenario(big)


def test_a_file_at_the_limit_is_read_and_one_byte_more_is_not(tmp_path, monkeypatch) -> None:
    import lossy.scenario

    monkeypatch.setattr(lossy.scenario, "MAX_SCENARIO_BYTES", 100)
    path = tmp_path / "exact.toml"
    path.write_text('name = "x"\n' + "#" * 88 + "\n")
    assert path.stat().st_size == 100 and load_scenario(path) == {"name": "x"}
    path.write_text('name = "x"\n' + "#" * 89 + "\n")
    with pytest.raises(lossy.ScenarioError, match="101 B is over the limit"):
        load_scenario(path)


@pytest.mark.parametrize("text", ["", "# only a comment\n\n   \n"])
def test_an_empty_file_is_named(tmp_path, text: str) -> None:
    path = tmp_path / "my.toml"
    path.write_text(text)
    with pytest.raises(lossy.ScenarioError,
                       match=r"my.toml: the file is empty \(or has only comments\); a scenario needs nodes, links and flows"):
        lossy.run(path)


def test_a_sweep_spec_is_sent_to_lossy_sweep(tmp_path) -> None:
    path = tmp_path / "spec.toml"
    path.write_text('name = "s"\nscenario = "last-hop"\n[grid]\n"x" = { path = "links.1.loss.p", values = [0.1] }\n')
    with pytest.raises(lossy.ScenarioError, match=r"spec.toml: a sweep spec \(it has scenario, grid\), not a scenario; "
                                                  r"run it with `lossy sweep .*spec.toml`"):
        lossy.run(path)
