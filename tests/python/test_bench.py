"""`lossy bench`'s machinery (issue 28): the order of the runs, the statistics, the
duration rule, VmHWM, the anchors' JSON contract, --compare's arguments. No timing is
asserted: speed is what `lossy bench` prints, never a test's pass or fail."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from lossy import bench, bench_compare
from lossy.bench_cases import AnchorPath, Case, standard_cases
from lossy.bench_child import vmhwm_bytes
from lossy.bench_sides import AnchorSide, SideError, lossy_sample
from lossy.bench_stats import MARGIN, MAX_FACTOR, pair_ratios, round_order, scaled_size, spread
from lossy.bench_table import markdown

STATUS = """Name:\tpython3
VmPeak:\t  310044 kB
VmSize:\t  245100 kB
VmHWM:\t   34612 kB
VmRSS:\t   30120 kB
"""


def test_the_sides_alternate_pair_by_pair():
    order = round_order(["lossy", "htsim", "ns3"], 3)
    assert [side for _, side in order] == ["lossy", "htsim", "ns3"] * 3
    assert [i for i, _ in order] == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_spread_is_min_median_max():
    assert spread([3.0, 1.0, 2.0]) == {"min": 1.0, "median": 2.0, "max": 3.0}
    assert spread([4.0, 1.0, 2.0, 10.0])["median"] == 3.0  # the mean of the middle two
    with pytest.raises(ValueError):
        spread([])


def test_ratios_are_taken_within_each_pair_not_between_medians():
    anchor, lossy = [10.0, 30.0, 20.0], [5.0, 10.0, 20.0]
    ratios = pair_ratios(anchor, lossy)
    assert ratios == [2.0, 3.0, 1.0]
    assert spread(ratios) == {"min": 1.0, "median": 2.0, "max": 3.0}
    # The ratio of the medians would be 20 / 10 = 2 too, but from other pairs: not the same thing.
    with pytest.raises(ValueError, match="not pairs"):
        pair_ratios([1.0], [1.0, 2.0])


def test_vmhwm_is_read_in_bytes_from_proc_status():
    assert vmhwm_bytes(STATUS) == 34612 * 1024
    assert vmhwm_bytes("Name:\tx\nVmRSS:\t1 kB\n") is None
    with pytest.raises(ValueError):
        vmhwm_bytes("VmHWM:\t1 MB\n")


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="Linux only")
def test_this_process_has_a_vmhwm():
    from lossy.bench_child import own_peak_bytes

    peak = own_peak_bytes()
    assert peak is not None and peak > 0


def test_a_short_loop_scales_its_size_up_to_the_target():
    # ns3-compare 2 Mbps in lossy today: a 25 ms loop for 100 s simulated.
    assert scaled_size(100.0, 0.025) == pytest.approx(100 * MARGIN / 0.025)
    assert scaled_size(100.0, 0.025) >= 100 / 0.025  # at least the target
    assert scaled_size(100.0, 1.5) == 100.0  # long enough already
    assert scaled_size(10.0, 0.3, target_s=1.0) == pytest.approx(44.0)  # 43.3 rounded up, two digits
    assert scaled_size(100.0, 0.0) == 100.0 * MAX_FACTOR
    assert scaled_size(100.0, 0.02, target_s=0.0) == 100.0


def test_each_case_sets_its_size_where_it_lives():
    cases = {c.label: c for c in standard_cases(quick=True)}
    assert cases["one-hop"].at_size(4800).overrides["duration"] == "4800 s"
    fectcp = cases["FECTCP, 1 Mbit/s, 10 % loss"].at_size(25)
    assert fectcp.overrides["flows.0.app.size"] == "25 MB"
    assert fectcp.overrides["duration"] == "1000000 s"  # the transfer, not the clock, ends the run
    flows = cases["1,000 flows via one BS (quick)"].at_size(40)
    assert flows.generate is not None and flows.generate["duration"] == "40 s"
    fast = cases["ns3-compare 100 Mbps"]
    assert fast.anchors is not None and fast.anchors.fixed_sim_s == {"ns3": 20.0}
    sack = cases["ns3-compare 100 Mbps SACK"]
    assert sack.anchors is not None and sack.anchors.sack and sack.anchors.fixed_sim_s == {}


def test_every_issue_29_congestion_control_and_queue_discipline_has_a_row_beside_reno():
    # Issue 29: a row per CC and AQM on Reno's path, held to its speed; BBR's bound is
    # 1.5× Reno's cost per delivered packet. The kinds are the core's (`lossy schema`).
    from lossy import _core
    from lossy.bench_cases import BBR_COST_BOUND, SPEED_FLOOR

    defs = json.loads(_core.schema())["$defs"]
    cc_kinds = set(defs["CcChoice"]["anyOf"][0]["enum"]) - {"reno"}
    queue_kinds = {v["properties"]["kind"]["const"] for v in defs["QueueDiscConfig"]["oneOf"]} - {"drop_tail", "red"}
    cases = standard_cases(quick=True)
    base = next(c for c in cases if c.label == "ns3-compare 2 Mbps")
    beside = [c for c in cases if c.speed_vs == base.label and "flows.0.tcp.variant" not in c.overrides]
    ccs = {c.overrides["flows.0.tcp.cc"]: c for c in beside if "flows.0.tcp.cc" in c.overrides}
    queues = {c.overrides["links.1.queue"]["kind"]: c for c in beside if "links.1.queue" in c.overrides}
    assert set(ccs) == cc_kinds and set(queues) == queue_kinds
    for case in beside:
        # The same path: the base row's overrides and one of its own.
        assert case.scenario == base.scenario and case.anchors is None
        assert {k: v for k, v in case.overrides.items() if k in base.overrides} == base.overrides
        assert len(case.overrides) == len(base.overrides) + 1
    bbrs = [ccs["bbr"], ccs["bbr3"]]
    assert all(c.speed_floor == pytest.approx(1 / BBR_COST_BOUND) for c in bbrs) and BBR_COST_BOUND == 1.5
    assert all(c.speed_floor == SPEED_FLOOR for c in beside if c not in bbrs)


def test_a_cost_bound_is_named_in_its_speed_note():
    from lossy.bench_cases import BBR_COST_BOUND

    def row(label: str, us: float) -> Dict[str, Any]:
        return {"label": label, "sides": {"lossy": {"cpu_per_packet_us": {"median": us}}}}

    cases = [Case("reno", "x.toml"), Case("bbr", "x.toml", speed_vs="reno", speed_floor=1 / BBR_COST_BOUND),
             Case("sack", "x.toml", speed_vs="reno")]
    notes = bench._speed_notes([row("reno", 1.0), row("bbr", 1.6), row("sack", 1.25)], cases)
    assert notes == ["bbr: 0.62× the speed of reno per delivered packet (floor 0.67×, cost ≤ 1.5×: BELOW)",
                     "sack: 0.80× the speed of reno per delivered packet (floor 0.7×: ok)"]


def test_rows_are_chosen_by_a_pattern():
    cases = standard_cases(quick=True)
    assert [c.label for c in bench.select(cases, "ns3-compare 2 Mbps( SACK)?$")] == ["ns3-compare 2 Mbps",
                                                                                   "ns3-compare 2 Mbps SACK"]
    assert bench.select(cases, None) == cases
    assert bench.select(cases, "FECTCP")[0].size_key == "flows.0.app.size"


# --- the anchors' contract: one JSON object as the last line of stdout -------------------

FAKE_ANCHOR = r"""
import json, sys
rate, wired, p, sim_s, sack, seed = sys.argv[1:]
print("some log line")
print(json.dumps({"sim_time_s": float(sim_s), "delivered_packets": 1000, "events": 5000,
                  "loop_cpu_s": 0.002, "loop_wall_s": 0.003, "peak_rss_bytes": 4096 * 1024,
                  "goodput_bps": float(rate) / 2, "argv": sys.argv[1:]}))
"""


class FakeAnchor:
    name = "htsim"
    version = "fake htsim for tests"

    def __init__(self, script: Path) -> None:
        self.script = script

    def argv_for(self, rate_bps: int, wired_rate_bps: int, loss_p: float, sim_s: float, sack: bool,
                 seed: int) -> List[str]:
        return [sys.executable, str(self.script), str(rate_bps), str(wired_rate_bps), str(loss_p), str(sim_s),
                str(int(sack)), str(seed)]


@pytest.fixture
def fake_anchor(tmp_path: Path) -> AnchorSide:
    script = tmp_path / "anchor.py"
    script.write_text(FAKE_ANCHOR, encoding="utf-8")
    return AnchorSide(FakeAnchor(script))


def test_an_anchor_is_read_from_its_last_json_line(fake_anchor: AnchorSide):
    case = Case("path", "ns3-compare.toml", anchors=AnchorPath(2_000_000, 10_000_000, 0.01, True))
    sample = fake_anchor.run(case, 150.0, seed=3)
    assert sample["delivered_packets"] == 1000 and sample["loop_cpu_s"] == 0.002
    assert sample["peak_rss_bytes"] == 4096 * 1024 and sample["peak_rss_from"] == "VmHWM"
    assert sample["goodput_bps"] == 1e6 and sample["sim_time_s"] == 150.0


def test_an_anchor_line_without_a_contract_key_is_a_side_error(tmp_path: Path):
    script = tmp_path / "bad.py"
    script.write_text('import json; print(json.dumps({"sim_time_s": 1.0}))', encoding="utf-8")
    side = AnchorSide(FakeAnchor(script))
    with pytest.raises(SideError, match="lacks delivered_packets"):
        side.run(Case("path", "x", anchors=AnchorPath(1, 1, 0.0, False)), 1.0)


def test_a_reference_without_cpu_s_is_timed_by_its_wall_s():
    reply = {"sim_time_s": 100.0, "packets_delivered": 17000, "events": 85000, "wall_s": 0.03,
             "goodput_bps": 1.7e6, "peak_rss_bytes": None}
    sample = lossy_sample(reply, 35 * 2**20, 0.3)
    assert sample["loop_cpu_s"] == 0.03 and not sample["cpu_measured"]
    assert sample["peak_rss_bytes"] == 35 * 2**20 and sample["peak_rss_from"] == "ru_maxrss"
    sample = lossy_sample({**reply, "cpu_s": 0.025, "peak_rss_bytes": 9 * 2**20}, 35 * 2**20, 0.3)
    assert sample["loop_cpu_s"] == 0.025 and sample["cpu_measured"] and sample["peak_rss_from"] == "VmHWM"


class FakeLossy:
    """Stands for a lossy build: records the order of its runs, returns fixed costs."""

    def __init__(self, name: str, log: List[str], cpu_s: List[float]) -> None:
        self.name, self.log, self.cpu_s = name, log, list(cpu_s)
        self.description = f"fake {name}"

    def run(self, case: Case, path: Path, seed: int = 1) -> Dict[str, Any]:
        self.log.append(f"{self.name} {case.overrides['duration']}")
        cpu = self.cpu_s.pop(0)
        return {"sim_time_s": 1.0, "delivered_packets": 1000, "events": 5000, "loop_cpu_s": cpu,
                "loop_wall_s": cpu, "cpu_measured": True, "goodput_bps": 1e6, "process_wall_s": cpu,
                "peak_rss_bytes": 20 * 2**20, "peak_rss_from": "VmHWM", "import_rss_bytes": 18 * 2**20}


def test_a_row_calibrates_then_interleaves_and_takes_ratios_per_pair(monkeypatch):
    log: List[str] = []
    # calibration 0.01 s at 1 s: too short, so 0.25 s at 33 s (-> 180 s), then three pairs against REF
    this = FakeLossy("lossy", log, [0.01, 0.25, 1.0, 2.0, 1.0])
    ref = FakeLossy("REF", log, [2.0, 2.0, 4.0])
    monkeypatch.setattr(bench, "standard_cases", lambda quick: [Case("one-hop", "one-hop.toml", base_size=1.0)])
    report = bench.run_bench(bench.find_scenarios(None), pairs=3, quick=True, lossy=this, compare=ref)  # type: ignore[arg-type]
    assert log == ["lossy 1 s", "lossy 33 s",
                   "lossy 180 s", "REF 180 s", "lossy 180 s", "REF 180 s", "lossy 180 s", "REF 180 s"]
    assert report["rows"][0]["size"]["calibration"] == [[1.0, 0.01], [33.0, 0.25]]
    row = report["rows"][0]
    assert row["ratios"]["REF"]["per_pair"] == [0.5, 1.0, 0.25]  # this build's cost over REF's
    assert row["ratios"]["REF"]["median"] == 0.5
    assert row["sides"]["lossy"]["cpu_per_packet_us"] == {"min": 1000.0, "median": 1000.0, "max": 2000.0}
    assert row["sides"]["lossy"]["run_rss_bytes"] == 2 * 2**20
    assert row["cpus"] == os.cpu_count()
    bench.report_table(report)  # renders
    md = markdown(report).splitlines()
    assert md[0].startswith("| scenario / side | simulated | µs CPU / pkt")
    assert md[2].startswith("| one-hop | 1 s | 1,000/1,000/2,000 |")
    assert md[3].startswith("| · REF | 1 s |") and "| 0.25/0.5/1× |" in md[3]


def test_markdown_and_json_together_are_one_line_and_status_2(cli):
    r = cli("bench", "--json", "--markdown", "--rows", "one-hop")
    assert r.returncode == 2 and r.stderr == "lossy: --json and --markdown: choose one output\n"


# --- --compare's arguments ----------------------------------------------------------------


def test_compare_refuses_what_is_neither_an_interpreter_nor_a_commit(tmp_path: Path):
    with pytest.raises(bench_compare.CompareError, match="needs a git commit"):
        bench_compare.resolve("")
    with pytest.raises(bench_compare.CompareError, match="a directory"):
        bench_compare.resolve(str(tmp_path))
    plain = tmp_path / "python"
    plain.write_text("", encoding="utf-8")
    with pytest.raises(bench_compare.CompareError, match="not an executable"):
        bench_compare.resolve(str(plain))
    with pytest.raises(bench_compare.CompareError, match="neither a file nor a commit|not run from a git"):
        bench_compare.resolve("no-such-ref-in-this-repository")


def test_compare_names_an_interpreter_as_its_side(tmp_path: Path):
    python = tmp_path / "python"
    python.write_text("#!/bin/sh\n", encoding="utf-8")
    python.chmod(python.stat().st_mode | stat.S_IXUSR)
    side = bench_compare.resolve(str(python))
    assert side.python == str(python) and side.pythonpath is None and side.name == "REF"


def test_compare_without_git_says_so(monkeypatch):
    monkeypatch.setattr(bench_compare.shutil, "which", lambda name: None)
    with pytest.raises(bench_compare.CompareError, match="git is not installed"):
        bench_compare.resolve("HEAD~1")


def test_compare_without_cargo_says_so(monkeypatch, tmp_path: Path):
    if bench_compare.repo_root() is None:
        pytest.skip("not a git checkout")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # nothing built yet
    real = bench_compare.shutil.which
    monkeypatch.setattr(bench_compare.shutil, "which", lambda name: None if name == "cargo" else real(name))
    with pytest.raises(bench_compare.CompareError, match="needs cargo"):
        bench_compare.resolve("HEAD")


def test_a_bad_compare_is_one_line_and_status_2(cli, tmp_path: Path):
    proc = cli("bench", "--compare", str(tmp_path), "--rows", "nothing", "--json")
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [f"lossy: --compare {tmp_path}: a directory; give a Python interpreter "
                                        "(…/bin/python) or a git commit"]
    proc = cli("bench", "--rows", "(", "--json")
    assert proc.returncode == 2 and proc.stderr.startswith("lossy: --rows '(': not a regular expression")


def test_the_json_holds_every_sample(cli):
    proc = cli("bench", "--rows", "^one-hop$", "--pairs", "2", "--min-loop", "0.05", "--no-anchors", "--json",
               timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    (row,) = report["rows"]
    side = row["sides"]["lossy"]
    assert len(side["samples"]) == 2 and all(s["cpu_measured"] for s in side["samples"])
    assert side["peak_rss_from"] == ("VmHWM" if sys.platform.startswith("linux") else "ru_maxrss")
    assert report["sides"]["lossy"].startswith("lossy ")
    assert "sweep" not in report and "cli" not in report  # --rows left the other tables out


def test_without_bench_anchors_the_rows_run_alone_with_a_note(monkeypatch):
    monkeypatch.setitem(sys.modules, "lossy.bench_anchors", None)  # import fails as in a build without it
    import lossy

    # `from . import bench_anchors` takes the package's attribute first, set once another
    # test has imported the module.
    monkeypatch.delattr(lossy, "bench_anchors", raising=False)
    sides, notes = bench.load_anchors(True, None)
    assert sides == [] and len(notes) == 1 and notes[0].startswith("anchors: not available")
    assert bench.load_anchors(False, None) == ([], [])


def test_a_skipped_anchor_is_one_note_and_a_found_one_a_side(monkeypatch, tmp_path: Path):
    import types

    class Skip:
        note = "no htsim source: set LOSSY_HTSIM_SRC"

    fake = types.ModuleType("lossy.bench_anchors")
    found = FakeAnchor(tmp_path / "anchor.py")
    fake.find = lambda name, progress: found if name == "ns3" else Skip()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lossy.bench_anchors", fake)
    import lossy

    monkeypatch.setattr(lossy, "bench_anchors", fake, raising=False)
    sides, notes = bench.load_anchors(True, None)
    assert [s.anchor for s in sides] == [found]
    assert notes == ["htsim: skipped: no htsim source: set LOSSY_HTSIM_SRC", "htsim: fake htsim for tests"]


def test_a_reference_without_cpu_s_is_compared_by_wall_time_on_both_sides(monkeypatch):
    log: List[str] = []
    this = FakeLossy("lossy", log, [2.0, 1.0, 1.0, 1.0])  # calibrated at once; CPU 1 s, wall 3 s below
    ref = FakeLossy("REF", log, [1.5, 1.5, 1.5])
    original = this.run

    def loaded(case: Case, path: Path, seed: int = 1) -> Dict[str, Any]:
        return {**original(case, path, seed), "loop_wall_s": 3.0}

    this.run = loaded  # type: ignore[method-assign]
    old_run = ref.run
    ref.run = lambda case, path, seed=1: {**old_run(case, path, seed), "cpu_measured": False}  # type: ignore[method-assign]
    monkeypatch.setattr(bench, "standard_cases", lambda quick: [Case("one-hop", "one-hop.toml", base_size=1.0)])
    report = bench.run_bench(bench.find_scenarios(None), pairs=3, quick=True, lossy=this, compare=ref)  # type: ignore[arg-type]
    ratio = report["rows"][0]["ratios"]["REF"]
    assert ratio["clock"] == "loop_wall_s" and ratio["per_pair"] == [2.0, 2.0, 2.0]  # 3 s wall over 1.5 s wall
    assert any("REF timed by its wall_s" in n for n in report["notes"])


def test_a_very_short_calibration_run_is_refined_once():
    sizes: List[float] = []

    def loop_at(size: float) -> float:  # 1 ms per simulated second, plus 20 ms of noise at the start
        sizes.append(size)
        return 0.001 * size + (0.02 if len(sizes) == 1 else 0.0)

    size, steps = bench.calibrate(loop_at, 10.0, 1.0)
    # 0.03 s at 10 s: under a tenth of the target, so one more run near a quarter of it
    assert sizes == [10.0, 110.0]
    # From the second run: 1,300 s, a 1.3 s loop; from the first alone 440 s, a 0.44 s loop.
    assert size == pytest.approx(1300.0) and scaled_size(10.0, 0.03) == pytest.approx(440.0)
    assert steps == [[10.0, 0.03], [110.0, pytest.approx(0.11)]]
    assert bench.calibrate(lambda s: 0.5, 10.0, 1.0) == (scaled_size(10.0, 0.5), [[10.0, 0.5]])


def test_trace_rows_run_a_synthetic_mahimahi_trace_of_the_rate_they_name(tmp_path):
    """Issue 30's bench rows: the bench writes its own trace (no shipped GPL trace), whose
    mean is the rate the row names, into the scenario's last hop."""
    import lossy
    from lossy.bench_cases import scenario_file, standard_cases
    from lossy.shipped import scenarios_dir

    rows = {c.label: c for c in standard_cases(quick=False) if c.trace_bps is not None}
    assert sorted(rows) == ["Mahimahi trace 1.9 Gbit/s", "Mahimahi trace 16 Mbit/s"]
    # --quick keeps the 16 Mbit/s pair only.
    assert [c.label for c in standard_cases(quick=True) if c.trace_bps is not None] == ["Mahimahi trace 16 Mbit/s"]
    for case in rows.values():
        path = scenario_file(case, scenarios_dir(), tmp_path)
        trace = next(tmp_path.glob(f"synthetic-{case.trace_bps:.0f}bps.down"))
        lines = [int(x) for x in trace.read_text().split()]
        assert lines == sorted(lines) and lines[-1] == 2000
        mean = len(lines) * 1504 * 8 * 1000 / lines[-1]
        assert abs(mean / case.trace_bps - 1) < 1e-3, mean
        r = lossy.run(str(path), overrides={**case.overrides, "duration": "0.2 s"})
        assert r.links[2]["name"] == "BS->R" and r.links[2]["packets_delivered"] > 0
