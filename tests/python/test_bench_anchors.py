"""The anchors `lossy bench` measures against (lossy.bench_anchors): their command lines,
the build cache's key, the notes when a source is missing or at another commit, and (with
LOSSY_HTSIM_SRC set) one real build and run of the htsim anchor."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from lossy import bench_anchors as anchors


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A cache of the test's own, so nothing is read from or left in the user's."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "lossy" / "anchors"


def test_htsim_argv_names_every_setting_and_refuses_sack():
    a = anchors.Anchor("htsim", "htsim x", Path("/c/bulk"), supports_sack=False)
    assert a.argv_for(2_000_000, 10_000_000, 0.01, 100.0, False, 7) == [
        "/c/bulk", "--rate=2000000", "--wired-rate=10000000", "--p=0.01", "--sim-time=100.0", "--seed=7"]
    with pytest.raises(ValueError, match="no SACK"):
        a.argv_for(2_000_000, 10_000_000, 0.01, 100.0, True, 7)


def test_ns3_argv_passes_sack_either_way():
    a = anchors.Anchor("ns3", "ns3 3.44", Path("/c/bulk"), supports_sack=True)
    assert a.argv_for(100_000_000, 1_000_000_000, 0.05, 20, True, 3) == [
        "/c/bulk", "--rate=100000000", "--wired-rate=1000000000", "--p=0.05", "--sim-time=20",
        "--seed=3", "--sack=1"]
    assert a.argv_for(2_000_000, 10_000_000, 0.0, 2.5, False, 1)[-1] == "--sack=0"


def test_cache_key_changes_with_the_program_the_source_and_the_flags(tmp_path):
    program, source = tmp_path / "bulk.cpp", tmp_path / "tcp.cpp"
    program.write_text("int main() {}\n")
    source.write_text("// htsim\n")
    key = anchors.source_key([program, source], ["-O3"])
    assert anchors.source_key([program, source], ["-O3"]) == key
    assert anchors.source_key([program, source], ["-O2"]) != key
    source.write_text("// htsim, one line changed\n")
    changed = anchors.source_key([program, source], ["-O3"])
    assert changed != key
    program.write_text("int main() { return 0; }\n")
    assert anchors.source_key([program, source], ["-O3"]) not in (key, changed)


def test_a_missing_htsim_source_is_a_skip_naming_the_variable(own_cache, tmp_path, monkeypatch):
    monkeypatch.setenv("LOSSY_HTSIM_SRC", str(tmp_path / "nowhere"))
    found = anchors.find("htsim")
    assert isinstance(found, anchors.Skip)
    assert "LOSSY_HTSIM_SRC" in found.note and "\n" not in found.note


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_no_source_and_no_network_is_a_skip_saying_how_to_enable(own_cache, monkeypatch):
    monkeypatch.delenv("LOSSY_HTSIM_SRC", raising=False)
    monkeypatch.setattr(anchors, "HTSIM_URL", str(own_cache / "no-such-repository"))  # fails at once
    found = anchors.find("htsim")
    assert isinstance(found, anchors.Skip)
    assert "LOSSY_HTSIM_SRC" in found.note and anchors.HTSIM_COMMIT[:12] in found.note


def test_a_venv_without_ns3_is_a_skip_naming_the_variable(own_cache, tmp_path, monkeypatch):
    (tmp_path / "venv" / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    monkeypatch.setenv("LOSSY_NS3_VENV", str(tmp_path / "venv"))
    found = anchors.find("ns3")
    assert isinstance(found, anchors.Skip)
    assert "LOSSY_NS3_VENV" in found.note and "ns3==3.44" in found.note


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}).stdout.strip()


@pytest.mark.skipif(shutil.which("git") is None or shutil.which("g++") is None, reason="needs git and g++")
def test_a_git_dir_at_another_commit_is_noticed_and_a_compile_error_names_its_log(own_cache, tmp_path,
                                                                                  monkeypatch):
    work = tmp_path / "htsim"
    (work / "sim").mkdir(parents=True)
    for name in anchors.HTSIM_SOURCES:  # not htsim: each file stops the compiler at once
        (work / "sim" / name).write_text("#error not htsim\n")
    _git(work, "init", "-q")
    _git(work, "add", "sim")
    _git(work, "commit", "-q", "-m", "not the pinned commit")
    head = _git(work, "rev-parse", "HEAD")
    bare = tmp_path / "htsim.git"
    _git(tmp_path, "clone", "-q", "--bare", str(work), str(bare))

    sim, commit = anchors.htsim_source(bare)
    assert commit == head != anchors.HTSIM_COMMIT
    assert (sim / "tcp.cpp").read_text() == "#error not htsim\n"

    said = []
    monkeypatch.setenv("LOSSY_HTSIM_SRC", str(bare))
    found = anchors.find("htsim", progress=said.append)
    assert any(head in line and "not the pinned" in line for line in said)
    assert isinstance(found, anchors.Skip)
    log = found.note.rsplit("see ", 1)[-1]
    assert "\n" not in found.note and log.endswith("build.log") and Path(log).is_file()


def _two_seconds_at_2_mbps(name: str, sack: bool) -> None:
    """Build (or reuse) the anchor, run it for 2 simulated seconds and read its JSON line."""
    found = anchors.find(name)
    assert isinstance(found, anchors.Anchor), found
    run = subprocess.run(found.argv_for(2_000_000, 10_000_000, 0.01, 2.0, sack, 1),
                         capture_output=True, text=True, check=True, timeout=120)
    reply = json.loads(run.stdout.strip().splitlines()[-1])
    assert {"sim_time_s", "delivered_packets", "events", "loop_cpu_s", "loop_wall_s", "peak_rss_bytes",
            "goodput_bps"} <= reply.keys()
    assert reply["sim_time_s"] == 2 and reply["delivered_packets"] > 0 and reply["peak_rss_bytes"] > 0
    assert 0 < reply["goodput_bps"] <= 2_000_000  # within the last hop's rate


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("LOSSY_HTSIM_SRC"),
                    reason="set LOSSY_HTSIM_SRC to a csg-htsim work tree or git directory to build htsim")
def test_the_htsim_anchor_builds_and_runs_two_simulated_seconds():
    _two_seconds_at_2_mbps("htsim", sack=False)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("LOSSY_NS3_VENV"),
                    reason="set LOSSY_NS3_VENV to a virtual environment with ns3==3.44.post0 to build ns-3's")
def test_the_ns3_anchor_builds_and_runs_two_simulated_seconds_with_sack():
    _two_seconds_at_2_mbps("ns3", sack=True)
