"""`lossy ns3` (lossy.ns3cc): the table's arithmetic, the set-ups' scenarios against their
ns-3 arguments, the stored reference's coverage and provenance, and the notes when ns-3
is missing or lossy lacks a set-up's congestion control; with LOSSY_NS3_VENV set, one
short real run of cc.cc."""

import hashlib
import math
import os
import re
import subprocess
import sys
import json

import pytest

import lossy
from lossy import bench_anchors
from lossy._core import ScenarioError
from lossy.ns3cc import command, compare, lossy_side, reference
from lossy.ns3cc.setups import CCS, SETUPS, points


def test_mean_ci_is_students_t_interval():
    mean, half = compare.mean_ci([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert half == pytest.approx(4.302653 * 1.0 / math.sqrt(3), rel=1e-6)  # t(0.975, 2) s / √n
    assert math.isnan(compare.mean_ci([5.0])[1])


def test_rows_give_the_difference_relative_to_ns3_and_the_verdict():
    ns3 = [{"setup": "s", "cc": "Bbr", "p": 0.0, "goodput_bps": g} for g in (9e6, 11e6)]
    ours = [{"setup": "s", "cc": "Bbr", "p": 0.0, "goodput_bps": g} for g in (10.4e6, 10.6e6)]
    far = [{"setup": "s", "cc": "Cubic", "p": 0.0, "goodput_bps": 1e6}]
    rows = {r["cc"]: r for r in compare.rows(ns3 + far, ours)}
    assert rows["Bbr"]["diff"] == pytest.approx(0.05) and rows["Bbr"]["within"] == "yes"
    assert rows["Cubic"]["lossy_n"] == 0 and rows["Cubic"]["within"] == ""  # no lossy side: no verdict
    ours[0]["goodput_bps"] = 12e6
    assert compare.rows(ns3, ours)[0]["within"] == "no"  # +13 %
    assert "| s | Bbr | 0 | 10.000 ± 12.706 (n=2)" in compare.markdown(compare.rows(ns3, ours))


def _rate(text):
    number, unit = re.fullmatch(r"\s*([0-9.]+)\s*([GMk]?)b(?:ps|it/s)?\s*", text.replace("bps", "b")).groups()
    return float(number) * {"G": 1e9, "M": 1e6, "k": 1e3, "": 1}[unit]


def _seconds(text):
    number, unit = re.fullmatch(r"\s*([0-9.]+)\s*(s|ms|us)\s*", text).groups()
    return float(number) * {"s": 1, "ms": 1e-3, "us": 1e-6}[unit]


@pytest.mark.parametrize("name", list(SETUPS))
def test_each_scenario_has_its_ns3_path_and_tcp_settings(name):
    setup = SETUPS[name]
    doc = lossy.load_scenario(str(setup.scenario))
    ns3_links = [link.split(",") for link in setup.links.split(";")]
    assert len(doc["links"]) == len(ns3_links)
    for ours, (rate, delay, queue) in zip(doc["links"], ns3_links):
        assert _rate(ours["rate"]) == _rate(rate) and _seconds(ours["delay"]) == _seconds(delay)
        if queue == "codel":
            assert ours["queue"] == {"kind": "codel"}
        else:
            assert ours["queue"] == f"{queue[:-1]} packets"
    tcp = doc["flows"][0]["tcp"]
    assert tcp["mss"] == f"{setup.mss} B" and tcp["header"] == "42 B" and tcp["initial_window"] == 10
    assert ("delayed_ack" in tcp) == (setup.delack == 2)
    assert tcp["max_window"] in (f"{setup.buffer} B", f"{setup.buffer >> 20} MiB")


def test_a_points_overrides_set_the_cc_sack_and_the_loss_of_the_last_link():
    over = SETUPS["lossy-path"].lossy_overrides("WestwoodPlus", 0.01)
    assert over == {"flows.0.tcp.variant": "sack", "flows.0.tcp.cc": "westwood",
                    "links.1.loss": {"model": "bernoulli", "p": 0.01}, "duration": "100 s"}
    assert SETUPS["bbr-dumbbell"].lossy_overrides("Bbr", 0.0)["links.2.loss"] == {"model": "none"}
    assert set(CCS.values()) == {"reno", "cubic", "bbr", "vegas", "westwood"}


def test_the_stored_reference_has_every_run_and_names_the_program_that_made_it():
    stored = {(r["setup"], r["cc"], round(r["p"], 9), int(r["seed"])) for r in reference.read()}
    wanted = {(s.name, cc, round(p, 9), seed) for s in SETUPS.values() for cc, p, seed in points(s)}
    assert wanted <= stored
    head = "\n".join(reference.provenance())
    assert "ns3 3.44" in head
    sha = hashlib.sha256((bench_anchors.PROGRAMS / "ns3" / "cc.cc").read_bytes()).hexdigest()[:16]
    assert f"cc.cc sha256 {sha}" in head, "cc.cc changed: rerun `lossy ns3 --write-reference`"


def test_without_ns3_the_stored_reference_stands_in_with_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "venv" / "lib" / "python3.11" / "site-packages").mkdir(parents=True)
    monkeypatch.setenv("LOSSY_NS3_VENV", str(tmp_path / "venv"))
    said = []
    runs = command.ns3_runs([SETUPS["cubic-codel"]], quick=True, stored=False, say=said.append)
    assert len(said) == 1 and "LOSSY_NS3_VENV" in said[0] and "stored reference" in said[0]
    assert len(runs) == len(points(SETUPS["cubic-codel"], quick=True))


def test_a_set_up_lossy_cannot_run_is_one_line_and_the_others_go_on(monkeypatch):
    def refuse(setup, runs):
        if setup.name == "cubic-codel" and runs[0][0] == "Cubic":
            raise ScenarioError('links.1.queue.kind: "codel" is not allowed; use one of: drop_tail, red')
        return [{"setup": setup.name, "cc": cc, "p": p, "seed": s, "goodput_bps": 1.0} for cc, p, s in runs]

    monkeypatch.setattr(lossy_side, "run_setup", refuse)
    said = []
    runs = command.lossy_runs([SETUPS["cubic-codel"], SETUPS["bbr-dumbbell"]], True, said.append)
    assert [line for line in said if "cannot run" in line] == [
        'lossy: cubic-codel Cubic cannot run with this lossy (cubic-codel.toml): links.1.queue.kind: "codel" '
        'is not allowed; use one of: drop_tail, red']
    assert {(r["setup"], r["cc"]) for r in runs} == {("cubic-codel", "NewReno")} | {
        ("bbr-dumbbell", cc) for cc in SETUPS["bbr-dumbbell"].ccs}


def test_an_unknown_set_up_lists_the_known_ones():
    with pytest.raises(ScenarioError, match="--setup: no set-up 'nope'; known: bbr-dumbbell, cubic-codel, lossy-path"):
        command.chosen(["nope"])


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("LOSSY_NS3_VENV"),
                    reason="set LOSSY_NS3_VENV to a virtual environment with ns3==3.44.post0 to build ns-3's")
def test_cc_builds_and_runs_two_seconds_of_bbr_on_the_lossy_path():
    built = bench_anchors.ns3_program("cc.cc")
    assert not isinstance(built, bench_anchors.Skip), built
    args = SETUPS["lossy-path"].ns3_args("Bbr", 0.01, 1)
    args = [a if not a.startswith("--sim-time") else "--sim-time=2" for a in args]
    out = subprocess.run([str(built[0]), *args], capture_output=True, text=True, check=True).stdout
    reply = json.loads(out.strip().splitlines()[-1])
    assert reply["cc"] == "Bbr" and 0 < reply["goodput_bps"] <= 2_000_000


@pytest.mark.slow
def test_the_command_prints_and_writes_the_table_from_the_stored_reference(tmp_path):
    done = subprocess.run([sys.executable, "-m", "lossy", "ns3", "--setup", "bbr-dumbbell", "--quick", "--stored",
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "its column is the stored reference (ns-3 side of `lossy ns3`" in done.stderr
    newreno = [line for line in done.stdout.splitlines() if line.startswith("| bbr-dumbbell | NewReno | 0 |")]
    assert newreno and newreno[0].startswith("| bbr-dumbbell | NewReno | 0 | 9.705 ± 0.000 (n=3) |")
    assert newreno[0].endswith("| yes |")  # lossy has Reno: 9.709 Mb/s, +0.0 %
    assert (tmp_path / "ns3-compare.md").read_text().startswith(done.stdout.splitlines()[0])
