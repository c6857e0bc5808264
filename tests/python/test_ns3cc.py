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
from lossy.ns3cc import command, compare, fairness, lossy_side, queues, reference, trace_summary
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


def test_a_row_outside_the_tolerance_carries_its_explanation_and_one_inside_none():
    ns3 = [{"setup": "lossy-path", "cc": "Bbr", "p": 0.05, "goodput_bps": g} for g in (1.6e6, 1.7e6)]
    ours = [{"setup": "lossy-path", "cc": "Bbr", "p": 0.05, "goodput_bps": g} for g in (1.3e6, 1.4e6)]
    row = compare.rows(ns3, ours)[0]
    assert row["within"] == "no" and "NewAck" in row["why"]
    assert row["why"] in compare.markdown([row])
    assert compare.rows(ns3, ns3)[0]["why"] == ""  # within 5 %: no note
    assert all(".cc" in why for why in compare.NOTES.values())  # each names the ns-3 file it rests on


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
        if queue == "codel" and name == "cubic-codel":
            assert ours["queue"] == {"kind": "codel"}  # ns-3's CoDelQueueDisc with its defaults
        elif queue in ("codel", "fq_codel", "pie"):
            assert ours["queue"]["kind"] == queue
        else:
            assert ours["queue"] == f"{queue[:-1]} packets"
    assert len(doc["flows"]) == setup.flows
    for i, flow in enumerate(doc["flows"]):
        tcp = flow["tcp"]
        assert tcp["mss"] == f"{setup.mss} B" and tcp["header"] == "42 B" and tcp["initial_window"] == 10
        assert ("delayed_ack" in tcp) == (setup.delack == 2)
        assert tcp["max_window"] in (f"{setup.buffer} B", f"{setup.buffer >> 20} MiB")
        assert _seconds(flow.get("start", "0 s")) == i * setup.start_gap  # cc.cc --start-gap


def test_a_points_overrides_set_the_cc_sack_and_the_loss_of_the_last_link():
    over = SETUPS["lossy-path"].lossy_overrides("WestwoodPlus", 0.01)
    assert over == {"flows.0.tcp.variant": "sack", "flows.0.tcp.cc": "westwood",
                    "links.1.loss": {"model": "bernoulli", "p": 0.01}, "duration": "100 s"}
    assert SETUPS["bbr-dumbbell"].lossy_overrides("Bbr", 0.0)["links.2.loss"] == {"model": "none"}
    assert set(CCS.values()) == {"reno", "cubic", "bbr", "vegas", "westwood"}


def test_the_multi_flow_set_up_sets_every_flow_and_asks_cc_for_its_flows():
    setup = SETUPS["fq-codel-4flows"]
    over = setup.lossy_overrides("Cubic", 0.0)
    assert {k for k in over if k.startswith("flows.")} == {f"flows.{i}.tcp.{f}" for i in range(4) for f in ("variant", "cc")}
    assert set(over[f"flows.{i}.tcp.cc"] for i in range(4)) == {"cubic"}
    assert setup.ns3_args("Cubic", 0.0, 1)[-2:] == ["--flows=4", "--start-gap=2"]
    assert "--flows" not in " ".join(SETUPS["aqm-fq-codel"].ns3_args("Cubic", 0.0, 1))  # one flow: as before


def test_jains_index_and_the_fairness_rows():
    assert fairness.jain([1.0, 1.0, 1.0, 1.0]) == 1.0
    assert fairness.jain([4.0, 0.0, 0.0, 0.0]) == pytest.approx(0.25)
    assert fairness.jain([3.0, 1.0]) == pytest.approx(16 / 20)
    ns3 = [{"setup": "f", "cc": "Cubic", "goodput_bps": 9e6, "flow_goodputs_bps": [3e6, 2e6, 2e6, 2e6]}] * 2
    ours = [{"setup": "f", "cc": "Cubic", "goodput_bps": 9e6, "flow_goodputs_bps": [2.25e6] * 4}] * 2
    one = [{"setup": "g", "cc": "Cubic", "goodput_bps": 9e6, "flow_goodputs_bps": []}]  # a single-flow run: no row
    rows = {r["measure"]: r for r in fairness.rows(ns3 + one, ours + one)}
    assert set(rows) == {"flow 0", "flow 1", "flow 2", "flow 3", "total", "jain"}
    assert rows["flow 0"]["diff"] == pytest.approx(-0.25) and rows["flow 0"]["within"] == "no"
    assert rows["total"]["within"] == "yes" and rows["jain"]["lossy_mean"] == 1.0
    assert rows["jain"]["ns3_mean"] == pytest.approx(81 / (4 * 21))
    assert "| f | Cubic | Jain's index | 0.9643 ± 0.0000 (n=2) | 1.0000 ± 0.0000 (n=2) | +3.7 % | yes |" \
        in fairness.markdown(fairness.rows(ns3, ours))


def test_the_reference_keeps_each_flows_goodput(tmp_path, monkeypatch):
    run = {"setup": "fq-codel-4flows", "cc": "Cubic", "p": 0.0, "seed": 1, "goodput_bps": 9e6,
           "flow_goodputs_bps": [2.5e6, 2.4e6, 2.3e6, 2.2e6]}
    row = reference.row_of(run)
    assert row["flow_goodputs_bps"] == "2500000.000000 2400000.000000 2300000.000000 2200000.000000"
    assert reference.row_of({**run, "flow_goodputs_bps": []})["flow_goodputs_bps"] == ""


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
    with pytest.raises(ScenarioError, match="--setup: no set-up 'nope'; known: bbr-dumbbell, cubic-codel, aqm-droptail, aqm-codel, "
                                          "aqm-fq-codel, aqm-pie, fq-codel-4flows, lossy-path"):
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
@pytest.mark.skipif(not os.environ.get("LOSSY_NS3_VENV"),
                    reason="set LOSSY_NS3_VENV to a virtual environment with ns3==3.44.post0 to build ns-3's")
def test_cc_runs_several_flows_and_the_flightsize_probe():
    built = bench_anchors.ns3_program("cc.cc")
    assert not isinstance(built, bench_anchors.Skip), built

    def run(*extra, check=True):
        return subprocess.run([str(built[0]), *SETUPS["fq-codel-4flows"].ns3_args("NewReno", 0.0, 1)[:-2],
                               "--sim-time=3", *extra], capture_output=True, text=True, check=check)
    reply = json.loads(run("--flows=2", "--start-gap=1").stdout.strip().splitlines()[-1])
    assert len(reply["flow_goodputs_bps"]) == 2 and reply["aqm_classes"] == 2  # a flow queue each
    assert all(g > 0 for g in reply["flow_goodputs_bps"])
    assert json.loads(run("--ssthresh-of=flightsize").stdout.strip().splitlines()[-1])["goodput_bps"] > 0
    refused = run("--ssthresh-of=flightsize", "--cc=Cubic", check=False)
    assert refused.returncode != 0 and "NewReno" in refused.stderr


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("LOSSY_NS3_VENV"),
                    reason="set LOSSY_NS3_VENV to a virtual environment with ns3==3.44.post0 to build ns-3's")
def test_cc_flightsize_less_limited_transmit_enters_recovery_with_a_smaller_window(tmp_path):
    """lossy's FlightSize leaves out limited transmit's segments (RFC 5681 3.2 step 2), so
    ns-3 run with it (--ssthresh-of=flightsize-less-lt) starts its recoveries lower than
    with the whole FlightSize, and above 2 segments, the floor, where the pipe rule sits."""
    built = bench_anchors.ns3_program("cc.cc")
    assert not isinstance(built, bench_anchors.Skip), built

    def entry_windows(rule):
        trace = tmp_path / f"{rule}.txt"
        subprocess.run([str(built[0]), *SETUPS["lossy-path"].ns3_args("NewReno", 0.05, 1)[:-4],
                        "--sim-time=20", "--mss=1000", "--delack=1", "--buffer=16777216",
                        f"--ssthresh-of={rule}", f"--trace={trace}"], capture_output=True, check=True)
        lines = [line.split() for line in trace.read_text().splitlines()]
        return [int(b[2]) / 1000 for a, b in zip(lines, lines[1:])
                if a[1:] == ["state", "CA_RECOVERY"] and b[1] == "cwnd" and a[0] == b[0]]

    whole, less = entry_windows("flightsize"), entry_windows("flightsize-less-lt")
    assert len(whole) > 20 and len(less) > 20
    assert 2 < sum(less) / len(less) < sum(whole) / len(whole) - 0.5
    refused = subprocess.run([str(built[0]), "--ssthresh-of=flightsize-less", "--sim-time=1"],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "flightsize-less-lt" in refused.stderr


@pytest.mark.slow
def test_the_command_prints_and_writes_the_table_from_the_stored_reference(tmp_path):
    done = subprocess.run([sys.executable, "-m", "lossy", "ns3", "--setup", "bbr-dumbbell", "--quick", "--stored",
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "its column is the stored reference (ns-3 side of `lossy ns3`" in done.stderr
    newreno = [line for line in done.stdout.splitlines() if line.startswith("| bbr-dumbbell | NewReno | 0 |")]
    assert newreno and newreno[0].startswith("| bbr-dumbbell | NewReno | 0 | 9.705 ± 0.000 (n=3) |")
    assert newreno[0].endswith("| yes |  |")  # lossy has Reno: 9.709 Mb/s, +0.0 %, nothing to explain
    assert (tmp_path / "ns3-compare.md").read_text().startswith(done.stdout.splitlines()[0])


# ---- the AQM rows (issue 29): cc.cc's queue discs set as lossy's scenarios set theirs

def _cc_defaults():
    """cc.cc's AqmDefaults: {(disc, attribute): the value's text}, and the quantum."""
    text = (bench_anchors.PROGRAMS / "ns3" / "cc.cc").read_text()
    found = {(d, a): v for d, a, v in
             re.findall(r'Config::SetDefault\("ns3::(\w+)QueueDisc::(\w+)",\s*\w+\((.*?)\)\);', text)}
    found[("FqCoDel", "Quantum")] = re.search(r"FQ_CODEL_QUANTUM = (\d+);", text).group(1)
    return found


def _queue(name):
    return lossy.load_scenario(str(SETUPS[name].scenario))["links"][1]["queue"]


def test_cc_sets_ns3s_pie_as_the_pie_scenario_sets_ours():
    ns3, ours = _cc_defaults(), _queue("aqm-pie")
    assert ns3[("Pie", "MaxSize")] == 'QueueSize("1000p")' and ours["limit"] == "1000 packets"
    assert ns3[("Pie", "QueueDelayReference")] == "MilliSeconds(15)" and ours["target"] == "15 ms"
    assert ns3[("Pie", "Tupdate")] == "MilliSeconds(15)" and ours["tupdate"] == "15 ms"
    assert float(ns3[("Pie", "A")]) == ours["alpha"] and float(ns3[("Pie", "B")]) == ours["beta"]
    assert ns3[("Pie", "MaxBurstAllowance")] == "MilliSeconds(150)" and ours["max_burst"] == "150 ms"
    assert ns3[("Pie", "UseDerandomization")] == str(ours["derandomize"]).lower()
    assert ns3[("Pie", "UseEcn")] == str(ours["ecn"]).lower()
    # Our PIE measures the delay by timestamps, has no active threshold and caps the rise
    # above 10 % (RFC 8033 §5.5): ns-3's switches for the same.
    assert ns3[("Pie", "UseDequeueRateEstimator")] == "false" and ns3[("Pie", "ActiveThreshold")] == "Time::Max()"
    assert ns3[("Pie", "UseCapDropAdjustment")] == "true"


def test_cc_sets_ns3s_fq_codel_as_the_fq_codel_scenario_sets_ours():
    ns3, ours = _cc_defaults(), _queue("aqm-fq-codel")
    assert ns3[("FqCoDel", "MaxSize")] == 'QueueSize("10240p")' and ours["limit"] == "10240 packets"
    assert int(ns3[("FqCoDel", "Flows")]) == ours["flows"]
    assert f'{ns3[("FqCoDel", "Quantum")]} B' == ours["quantum"]
    assert ns3[("FqCoDel", "Target")] == '"5ms"' and ours["target"] == "5 ms"
    assert ns3[("FqCoDel", "Interval")] == '"100ms"' and ours["interval"] == "100 ms"
    assert ns3[("FqCoDel", "UseEcn")] == str(ours["ecn"]).lower()
    assert int(ns3[("FqCoDel", "DropBatchSize")]) == ours["drop_batch"]


class _Result:
    links = [{"name": "WR->LR", "queue_mean_packets": 3.0, "sojourn_p50_ms": 1.0, "sojourn_p95_ms": 5.0,
              "sojourn_p99_ms": 7.0, "sojourn_mean_ms": 2.0, "queue_drops": 20},
             {"name": "LR->WR", "queue_mean_packets": 0.0, "sojourn_p50_ms": 0.0, "sojourn_p95_ms": 0.0,
              "sojourn_p99_ms": 0.0, "sojourn_mean_ms": 0.0, "queue_drops": 0},
             {"name": "S->WR", "queue_mean_packets": 0.5, "sojourn_p50_ms": 0.0, "sojourn_p95_ms": 0.1,
              "sojourn_p99_ms": 0.2, "sojourn_mean_ms": 0.0, "queue_drops": 2}]


def test_lossys_queue_columns_are_the_bottlenecks_forward_direction_and_all_drops():
    doc = {"links": [{"between": ["S", "WR"]}, {"between": ["WR", "LR"]}, {"between": ["LR", "D"]}]}
    got = queues.lossy_columns(doc, "1Gbps,1us,100p;10Mbps,25ms,pie;1Gbps,1us,100p", _Result())
    assert got == {"queue_mean_pkts": 3.0, "sojourn_p50_ms": 1.0, "sojourn_p95_ms": 5.0, "sojourn_p99_ms": 7.0,
                   "sojourn_mean_ms": 2.0, "drops": 22}


def test_the_queue_table_gives_each_sides_mean_over_seeds():
    ns3 = [{"setup": "aqm-pie", "cc": "Cubic", "queue_mean_pkts": q, "sojourn_p50_ms": 10.0, "sojourn_p95_ms": 20.0,
            "sojourn_p99_ms": 30.0, "aqm_drops": 100.0, "tc_drops": 0.0, "queue_drops": d} for q, d in ((12.0, 0.0), (14.0, 2.0))]
    old = [{"setup": "bbr-dumbbell", "cc": "Bbr", "sojourn_p50_ms": math.nan}]  # a row from before the columns
    ours = [{"setup": "aqm-pie", "cc": "Cubic", "queue_mean_pkts": 12.5, "sojourn_p50_ms": 9.0, "sojourn_p95_ms": 21.0,
             "sojourn_p99_ms": 31.0, "drops": 300}]
    assert queues.markdown(ns3 + old, ours).splitlines()[2] == \
        "| aqm-pie | Cubic | 13.0 / 12.5 | 10.00 / 9.00 | 20.00 / 21.00 | 30.00 / 31.00 | 101 / 300 |"
    assert len(queues.markdown(ns3 + old, ours).splitlines()) == 3


def test_the_stored_aqm_rows_show_each_queue_doing_its_job():
    """ns-3's stored AQM rows: PIE holds the sojourn's median near its 15 ms reference,
    CoDel and FQ-CoDel (one flow: one flow queue) near or below their 5 ms target, the
    1000-packet FIFO at over half a second; CoDel's and FQ-CoDel's rows are the same runs."""
    ns3 = queues.means([r for r in reference.read() if r["setup"].startswith("aqm-")], [])
    for cc in ("Cubic", "NewReno"):
        p50 = {s: ns3[(s, cc)]["ns3"]["sojourn_p50_ms"] for s in ("aqm-droptail", "aqm-codel", "aqm-fq-codel", "aqm-pie")}
        assert 7.5 < p50["aqm-pie"] < 22.5 and p50["aqm-codel"] < 5.0 and p50["aqm-droptail"] > 500.0
        assert ns3[("aqm-codel", cc)]["ns3"] == ns3[("aqm-fq-codel", cc)]["ns3"]
    classes = {int(r["aqm_classes"]) for r in reference.read() if r["setup"] == "aqm-fq-codel"}
    assert classes == {1}


@pytest.mark.slow
def test_the_command_prints_the_queue_table_from_the_stored_reference(tmp_path):
    done = subprocess.run([sys.executable, "-m", "lossy", "ns3", "--setup", "aqm-codel", "--quick", "--stored",
                           "--out", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    row = [line for line in done.stdout.splitlines() if line.startswith("| aqm-codel | NewReno | 1.6 / 1.3 |")]
    assert row and row[0].endswith("| 23 / 23 |"), done.stdout  # CoDel's drops, ns-3 / lossy


def test_the_trace_summary_finds_probe_rtt_dips_and_the_sawtooth():
    mss = 1000
    # BBR-like: 50 segments, a ProbeRTT at 4 segments every 10 s that bounces at the floor.
    bbr = [(0.0, 10 * mss), (0.5, 50 * mss)]
    for start in (10.0, 20.0, 30.0):
        bbr += [(start, 4 * mss), (start + 0.1, 5 * mss), (start + 0.15, 4 * mss), (start + 0.3, 50 * mss)]
    got = trace_summary.summary(bbr, mss, 40.0)
    assert got["probe_rtt_count"] == 3 and got["probe_rtt_mean_gap_s"] == pytest.approx(10.0)
    assert got["cwnd_min_segs"] == 4 and math.isnan(got["pacing_mean_bps"])
    # A sawtooth: up by one segment a step, cut by β = 0.7 every 4 s; small steps are no
    # cut, nor is one in the first second (slow start's exit).
    saw, cwnd, t = [(0.0, 200.0 * mss), (0.5, 100.0 * mss)], 100.0, 0.5
    while t < 20.0:
        saw.append((t, cwnd * mss))
        t += 0.1
        cwnd = cwnd * 0.7 if round(t * 10) % 40 == 0 else cwnd * 0.99 + 1
    got = trace_summary.summary(saw, mss, 20.0, pacing=[(0.0, 1e6), (10.0, 3e6)])
    assert got["cwnd_cuts"] == 4 and got["cwnd_cut_mean_gap_s"] == pytest.approx(4.0)
    assert got["probe_rtt_count"] == 0 and got["pacing_mean_bps"] == pytest.approx(2e6)


def test_an_ns3_trace_file_reads_as_cwnd_and_pacing_steps():
    cwnd, pacing = trace_summary.read_ns3_trace("0.1 cwnd 14480\n0.1 pacing 10000000\n0.2 state CA_RECOVERY\n"
                                                "0.3 cwnd 7240\n")
    assert cwnd == [(0.1, 14480.0), (0.3, 7240.0)] and pacing == [(0.1, 1e7)]


@pytest.mark.slow
def test_the_docs_figure_draws_ns3s_stored_traces_over_lossys():
    import importlib.util
    from pathlib import Path

    from lossy.ns3cc import traces

    for setup in traces.SHOWN:
        stored = traces.ns3(setup)
        assert len(stored["cwnd"]) > 100, f"{setup}: no stored ns-3 cwnd trace; rerun `lossy ns3 --write-reference`"
    assert traces.ns3("bbr-dumbbell")["pacing"], "ns-3's BBR pacing-rate trace is stored"
    gen = Path(__file__).resolve().parents[2] / "docs" / "gen" / "gen_ns3_traces.py"
    spec = importlib.util.spec_from_file_location("gen_ns3_traces", gen)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.pages()[module.PATH].startswith(b"\x89PNG")


@pytest.mark.slow
def test_bbrs_probe_rtt_and_cubics_sawtooth_agree_with_ns3s_stored_traces():
    from lossy.ns3cc import traces

    stored = [r for r in reference.read() if r["setup"] == "bbr-dumbbell" and r["cc"] == "Bbr"]
    lossy_bbr = traces.lossy("bbr-dumbbell")
    bbr = trace_summary.summary(lossy_bbr["cwnd"], 1448, 100.0, lossy_bbr["pacing"])
    # ns-3 (every seed) and lossy: ProbeRTT 9 times in 100 s, every 10 s plus 200 ms and
    # a round (10.31-10.33 s in ns-3), at 4 segments.
    assert {r["probe_rtt_count"] for r in stored} == {9.0} and bbr["probe_rtt_count"] == 9
    assert all(10.2 < r["probe_rtt_mean_gap_s"] < 10.5 for r in stored)
    assert bbr["probe_rtt_mean_gap_s"] == pytest.approx(stored[0]["probe_rtt_mean_gap_s"], rel=0.03)
    assert {r["cwnd_min_segs"] for r in stored} == {4.0} and bbr["cwnd_min_segs"] == 4.0
    # The time-weighted pacing rate, lossy's seed 1 against ns-3's mean over seeds: the
    # same gain cycle and 1 % margin (docs/guide/anchors.md, "Traces").
    ns3_pacing = sum(r["pacing_mean_bps"] for r in stored) / len(stored)
    assert bbr["pacing_mean_bps"] == pytest.approx(ns3_pacing, rel=compare.TOLERANCE)
    # CUBIC under CoDel after slow start: the same number of cuts and the same period.
    ns3 = trace_summary.summary(traces.ns3("cubic-codel")["cwnd"], 1448, 30.0)
    lossy_cubic = traces.lossy("cubic-codel")
    assert not lossy_cubic["pacing"], "CUBIC does not pace"
    cubic = trace_summary.summary(lossy_cubic["cwnd"], 1448, 30.0)
    assert ns3["cwnd_cuts"] == cubic["cwnd_cuts"] == 5
    assert cubic["cwnd_cut_mean_gap_s"] == pytest.approx(ns3["cwnd_cut_mean_gap_s"], rel=0.05)
    assert cubic["cwnd_min_segs"] == pytest.approx(ns3["cwnd_min_segs"], rel=0.05)


def test_the_pacing_table_sets_each_sides_mean_beside_the_other():
    runs = [{"setup": "bbr-dumbbell", "cc": "Bbr", "pacing_mean_bps": v} for v in (9.9e6, 10.1e6)]
    lossy = [{"setup": "bbr-dumbbell", "cc": "Bbr", "pacing_mean_bps": 9.9e6},
             {"setup": "bbr-dumbbell", "cc": "Cubic", "pacing_mean_bps": float("nan")}]
    text = compare.windows(runs, lossy)
    assert "| bbr-dumbbell | Bbr | 10.000 (n=2) | 9.900 (n=1) | -1.0 % | yes |" in text
    # A control that paces on one side only (or neither) has no row there.
    assert "| bbr-dumbbell | Cubic | -" not in text.split("pacing rate mean, Mb/s | lossy")[1]
