"""A sweep killed mid-way (SIGKILL, or Ctrl-C) and run again: no run lost, none duplicated."""

import os
import signal
import subprocess
import time

import pyarrow.parquet as pq

from conftest import SCENARIOS, lossy_command

RUNS = 300


def write_spec(tmp_path):
    # ~5 ms per run: long enough to be killed in the middle, short enough for a test.
    spec = tmp_path / "kill.toml"
    spec.write_text(
        f'name = "kill"\nscenario = "{SCENARIOS / "one-hop.toml"}"\nreplications = {RUNS // 2}\n'
        'duration = "60 s"\n[grid]\n"p" = { path = "links.0.loss.p", values = [0.01, 0.02] }\n'
    )
    return spec


def start(spec, out):
    return subprocess.Popen([*lossy_command(), "sweep", str(spec), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            stdin=subprocess.DEVNULL, start_new_session=True)


def wait_for_files(proc, runs_dir, count, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if runs_dir.is_dir() and sum(1 for _ in runs_dir.glob("*.parquet")) >= count:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)
    raise AssertionError("the sweep stored too few runs in time")


def stored(out):
    files = sorted((out / "runs").glob("*.parquet"))
    ids = [pq.read_table(f).column("run_id")[0].as_py() for f in files]
    return files, ids


def finish(spec, out):
    proc = subprocess.run([*lossy_command(), "sweep", str(spec), "--out", str(out)],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_sigkill_then_resume_loses_and_duplicates_nothing(tmp_path):
    spec, out = write_spec(tmp_path), tmp_path / "out"
    proc = start(spec, out)
    wait_for_files(proc, out / "runs", RUNS // 6)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    files, ids = stored(out)
    assert RUNS // 6 <= len(files) < RUNS  # killed in the middle

    again = finish(spec, out)
    assert "already stored" in again.stdout
    files, ids = stored(out)
    assert len(files) == RUNS
    assert len(set(ids)) == RUNS  # none duplicated
    assert {f.stem for f in files} == set(ids)
    assert not list((out / "runs").glob(".*.tmp"))


def test_ctrl_c_keeps_finished_runs_and_exits_130(tmp_path):
    spec, out = write_spec(tmp_path), tmp_path / "out"
    proc = start(spec, out)
    wait_for_files(proc, out / "runs", RUNS // 6)
    os.kill(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "interrupted" in stdout and "not run" in stdout  # the closing table
    assert stderr.strip().splitlines()[-1].startswith("lossy: interrupted")
    files, ids = stored(out)
    assert 0 < len(files) < RUNS and len(set(ids)) == len(ids)

    finish(spec, out)
    files, ids = stored(out)
    assert len(files) == len(set(ids)) == RUNS
