"""Sweeps that run: the store's rows, resume, failed runs, unreadable parts, --until-ci."""

import importlib
import json

import pyarrow.parquet as pq
import pytest

import lossy
from lossy.sweep.runner import results_frame
from lossy.sweep.spec import load_spec

# A tiny scenario: a run takes well under a millisecond in the core.
TINY = {
    "name": "tiny",
    "duration": "2 s",
    "nodes": ["A", "B"],
    "links": [{"between": ["A", "B"], "rate": "10 Mbps", "delay": "10 ms", "queue": "100 packets",
               "loss": {"model": "bernoulli", "p": 0.01}}],
    "flows": [{"from": "A", "to": "B", "app": {"kind": "bulk"}, "tcp": {"variant": "reno"}}],
}


def tiny_spec(**fields):
    return {"name": "t", "scenario": TINY, "replications": 2,
            "grid": {"p": {"path": "links.0.loss.p", "values": [0.01, 0.05]}},
            "variants": {"tcp": {"reno": {"flows.0.tcp.variant": "reno"},
                                 "newreno": {"flows.0.tcp.variant": "newreno"}}},
            "metrics": {"goodput": "flows.0.goodput_bps"}, **fields}


def run_files(out):
    return sorted((out / "runs").glob("*.parquet"))


@pytest.fixture
def small_parts(monkeypatch):
    """Parts of 3 rows, so a tiny sweep writes several."""
    monkeypatch.setattr(importlib.import_module("lossy.sweep.store"), "PART_ROWS", 3)


def test_rows_have_axes_metrics_and_provenance(tmp_path):
    s = lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    assert (s.report.planned, s.report.ok, s.report.failed) == (8, 8, 0)
    files = run_files(tmp_path)
    assert [f.name for f in files] == ["part-00000000.parquet"]  # one batch
    df = s.results()
    assert len(df) == 8 and set(df["status"]) == {"ok"}
    for column in ["run_id", "point", "p", "tcp", "replication", "seed", "status", "error", "wall_s",
                   "flows.0.goodput_bps", "links.0.loss_rate", "goodput",
                   "lossy_version", "git_commit", "scenario_hash", "core_versions"]:
        assert column in df.columns, column
    assert (df["goodput"] == df["flows.0.goodput_bps"]).all()
    assert set(df["flows.0.variant"]) == {"reno", "newreno"}
    assert df["lossy_version"].iloc[0] == lossy.__version__
    assert json.loads(df["core_versions"].iloc[0]) == lossy._core.build_info()
    # typed columns in the files themselves
    schema = pq.read_schema(files[0])
    assert str(schema.field("flows.0.segments_sent").type) == "int64"
    assert str(schema.field("flows.0.goodput_bps").type) == "double"
    assert str(schema.field("p").type) == "double"
    assert pq.read_table(files[0]).num_rows == 8
    assert df["run_id"].is_unique
    # the whole store reads back the same rows
    assert sorted(lossy.results.load(tmp_path)["run_id"]) == sorted(df["run_id"])


def test_rows_match_lossy_run(tmp_path):
    s = lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    row = s.results().iloc[-1]
    direct = lossy.run(TINY, seed=1, replication=int(row["replication"]),
                       overrides={"links.0.loss.p": row["p"], "flows.0.tcp.variant": row["tcp"]})
    for key, value in direct.comparable_summary().items():
        if value is not None:
            assert row[key] == value, key


def test_second_call_runs_nothing(tmp_path):
    lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    before = {f.name: f.stat().st_mtime_ns for f in run_files(tmp_path)}
    again = lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    assert (again.report.ok, again.report.failed, again.report.stored_before) == (0, 0, 8)
    assert {f.name: f.stat().st_mtime_ns for f in run_files(tmp_path)} == before
    # more replications run only the new ones
    more = lossy.sweep(tiny_spec(replications=3), out=tmp_path, progress=False)
    assert (more.report.ok, more.report.stored_before) == (4, 8)


def test_invalid_point_is_stored_as_failed_and_retried_on_request(tmp_path):
    doc = tiny_spec(grid={"p": {"path": "links.0.loss.p", "values": [0.01, 1.5]}})
    s = lossy.sweep(doc, out=tmp_path, progress=False)
    assert (s.report.ok, s.report.failed) == (4, 4)
    df = s.results()
    failed = df[df["status"] == "failed"]
    assert set(failed["p"]) == {1.5} and len(failed) == 4
    assert all("links.0.loss.p: 1.5 is not a probability" in e for e in failed["error"])
    assert df[df["status"] == "ok"]["error"].isna().all()
    # failed runs do not count in summaries
    summary = s.summary()
    assert set(summary["p"]) == {0.01}
    # not retried unless asked
    again = lossy.sweep(doc, out=tmp_path, progress=False)
    assert (again.report.ok, again.report.failed, again.report.failed_kept) == (0, 0, 4)
    retried = lossy.sweep(doc, out=tmp_path, progress=False, retry_failed=True)
    assert (retried.report.ok, retried.report.failed) == (0, 4)
    assert len(run_files(tmp_path)) == 2  # the retried runs are a part of their own
    assert len(retried.results()) == 8 and len(lossy.results.load(tmp_path)) == 8


def test_a_retried_run_supersedes_its_failed_row(tmp_path, small_parts):
    """The newest part wins per run_id: a failed run that now succeeds reads back ok."""
    from lossy.sweep.store import Store

    doc = tiny_spec()
    first = lossy.sweep(doc, out=tmp_path, progress=False)
    victim = first.results().iloc[5]
    with Store(tmp_path) as store:  # rewrite one run as failed, in a newer part
        row = store.read([victim["run_id"]]).to_pylist()[0]
        row.update(status="failed", error="boom", goodput=None)
        store.add(row)
    assert lossy.results.load(tmp_path).set_index("run_id").loc[victim["run_id"], "status"] == "failed"
    again = lossy.sweep(doc, out=tmp_path, progress=False, retry_failed=True)
    assert (again.report.ok, again.report.failed, again.report.stored_before) == (1, 0, 7)
    df = lossy.results.load(tmp_path)
    assert len(df) == 8 and set(df["status"]) == {"ok"} and df["run_id"].is_unique
    assert df.set_index("run_id").loc[victim["run_id"], "goodput"] == victim["goodput"]


def test_truncated_part_is_detected_and_redone(tmp_path, small_parts):
    lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    parts = run_files(tmp_path)
    assert [pq.read_metadata(p).num_rows for p in parts] == [3, 3, 2]
    victim = parts[1]
    good = victim.read_bytes()
    victim.write_bytes(good[: len(good) // 2])
    s = lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    assert s.report.redone == [victim.name]
    assert (s.report.ok, s.report.stored_before) == (3, 5)
    assert (tmp_path / "quarantine" / f"runs-{victim.name}").read_bytes() == good[: len(good) // 2]
    assert len(s.results()) == 8 and s.results()["run_id"].is_unique


def test_reading_sets_an_unreadable_part_aside(tmp_path, small_parts):
    lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    victim = run_files(tmp_path)[0]
    victim.write_bytes(victim.read_bytes()[:100])
    with pytest.warns(UserWarning, match="altered or replaced"):
        assert len(lossy.results.load(tmp_path)) == 5  # reading alone skips it, loudly
    s = lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    assert (s.report.ok, s.report.stored_before) == (3, 5)
    assert len(lossy.results.load(tmp_path)) == 8


def test_leftover_temp_files_are_removed(tmp_path):
    lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    stale = [tmp_path / d / ".part-00000007.parquet.xyz.tmp" for d in ("runs", "flows", "links")]
    for f in stale:
        f.write_bytes(b"PAR1 half a file")
    lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    assert not any(f.exists() for f in stale)


def test_second_sweep_on_the_same_store_is_refused(tmp_path):
    from lossy.sweep.store import Store

    with Store(tmp_path):
        with pytest.raises(BlockingIOError):
            lossy.sweep(tiny_spec(), out=tmp_path, progress=False)


def test_bad_metric_alias_stops_the_sweep(tmp_path):
    with pytest.raises(lossy.ScenarioError, match=r"metrics.goodput: .*flows.0.goodput_bpz.*flows.0.goodput_bps"):
        lossy.sweep(tiny_spec(metrics={"goodput": "flows.0.goodput_bpz"}), out=tmp_path, progress=False)
    # fixing the alias needs no re-run: aliases are recomputed from the spec
    fixed = lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    assert fixed.results()["goodput"].notna().sum() == fixed.report.stored_before + fixed.report.ok


def test_until_ci_adds_replications_up_to_the_maximum(tmp_path):
    s = lossy.sweep(tiny_spec(), out=tmp_path, progress=False, until_ci=0.001, max_replications=5)
    counts = s.results().groupby("point").size()
    assert s.report.rounds > 1
    assert (counts <= 5).all() and (counts > 2).any()
    assert s.report.ci_unmet  # 0.1 % is out of reach in 5 replications


def test_until_ci_stops_when_met(tmp_path):
    s = lossy.sweep(tiny_spec(), out=tmp_path, progress=False, until_ci=0.5, max_replications=20)
    summary = s.summary()
    assert (summary["half_width"] <= 0.5 * summary["mean"].abs()).all()
    assert not s.report.ci_unmet
    assert summary["n"].max() < 20


def test_paired_and_summary(tmp_path):
    s = lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    summary = s.summary()
    assert set(summary.columns) >= {"p", "tcp", "metric", "n", "mean", "ci_low", "ci_high", "half_width"}
    assert (summary["n"] == 2).all() and (summary["metric"] == "goodput").all()
    diff = s.paired("goodput", "tcp", "reno")
    assert len(diff) == 2 and (diff["n"] == 2).all()


def test_traces_go_beside_the_rows(tmp_path):
    import stat

    from lossy.sweep.store import read_trace

    s = lossy.sweep(tiny_spec(traces=["cwnd"], replications=1), out=tmp_path, progress=False)
    for rid in s.results()["run_id"]:
        path = tmp_path / "traces" / rid / "cwnd.parquet"
        trace = pq.read_table(path)
        assert trace.num_rows > 0
        assert read_trace(tmp_path, rid, "cwnd").to_pandas().equals(trace.to_pandas())  # NaN == NaN
        assert lossy.results.read_trace(tmp_path, rid, "cwnd").num_rows == trace.num_rows
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()
    with pytest.raises(lossy.ScenarioError, match="trace 'rtt' of run .*stored: cwnd"):
        read_trace(tmp_path, rid, "rtt")


def _umask():
    import os

    old = os.umask(0)
    os.umask(old)
    return old


def test_results_follow_the_spec_not_the_whole_store(tmp_path):
    lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    narrower = tiny_spec(grid={"p": {"path": "links.0.loss.p", "values": [0.01]}})
    s = lossy.sweep(narrower, out=tmp_path, progress=False)
    assert s.report.ok == 0
    assert set(s.results()["p"]) == {0.01} and len(s.results()) == 4
    assert len(lossy.results.load(tmp_path)) == 8


def test_the_same_runs_whatever_the_local_executor(tmp_path):
    from concurrent.futures import ProcessPoolExecutor

    threads = lossy.sweep(tiny_spec(), out=tmp_path / "a", progress=False).results()
    with ProcessPoolExecutor(2) as pool:  # a pool we pass in
        procs = lossy.sweep(tiny_spec(), out=tmp_path / "b", executor=pool, progress=False).results()
    assert_same_rows(threads, procs)


def assert_same_rows(a, b):
    """Equal rows, bit for bit, apart from the wall-clock columns."""
    import pandas as pd
    from lossy.result import WALL_CLOCK_KEYS

    drop = [c for c in a.columns if c.rsplit(".", 1)[-1] in WALL_CLOCK_KEYS]
    a = a.drop(columns=drop).sort_values("run_id").reset_index(drop=True)
    b = b.drop(columns=drop).sort_values("run_id").reset_index(drop=True)
    assert list(a.columns) == list(b.columns)
    pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_flows_long_table(tmp_path):
    s = lossy.sweep(tiny_spec(), out=tmp_path, progress=False)
    flows = s.flows()
    assert len(flows) == 8  # one flow per run
    for column in ["run_id", "point", "p", "tcp", "replication", "goodput_bps", "variant", "from"]:
        assert column in flows.columns, column
    runs = s.results().set_index("run_id")
    for _, f in flows.iterrows():
        assert f["goodput_bps"] == runs.loc[f["run_id"], "flows.0.goodput_bps"]
        assert f["tcp"] == runs.loc[f["run_id"], "tcp"]
    assert str(pq.read_schema(next((tmp_path / "flows").glob("*.parquet"))).field("segments_sent").type) == "int64"
    links = s.flows("links")
    assert len(links) == 16 and set(links["name"]) == {"A->B", "B->A"}
    loaded = lossy.results.load_flows(tmp_path)
    assert sorted(loaded["run_id"]) == sorted(flows["run_id"]) and "p" in loaded.columns
    with pytest.raises(lossy.ScenarioError, match="section: 'agents'"):
        s.flows("agents")


def test_results_frame_of_an_empty_store(tmp_path):
    from lossy.sweep.store import Store

    spec = load_spec(tiny_spec())
    with Store(tmp_path) as store:
        frame = results_frame(spec, store)
    assert frame.empty and "goodput" in frame.columns


def test_bench_sweep_reports_overhead_per_run():
    from lossy.bench_sweep import measure, table

    rows = measure(runs=40, workers=[1, 2])
    assert [r["workers"] for r in rows] == [1, 2]
    for r in rows:
        assert r["runs"] == r["ok"] == 40
        assert r["wall_s"] > 0 and r["sum_run_wall_s"] > 0 and r["overhead_per_run_ms"] > 0
    assert table(rows).row_count == 2


def test_a_misspelled_metric_alias_stops_the_sweep_with_a_hint(tmp_path):
    spec = tiny_spec(metrics={"goodput": "flows.0.goodput_bsp"})
    with pytest.raises(lossy.ScenarioError, match=r"metrics\.goodput: .*did you mean flows\.0\.goodput_bps"):
        lossy.sweep(spec, out=tmp_path, progress=False)


def test_an_alias_some_points_lack_is_not_a_mistake(tmp_path):
    # The agent exists only in the "eln" variant: Reno rows have no agents.0.* keys.
    two_hops = {
        "name": "two-hops", "duration": "2 s", "nodes": ["S", "BS", "MH"],
        "links": [{"between": ["S", "BS"], "rate": "10 Mbps", "delay": "10 ms"},
                  {"between": ["BS", "MH"], "rate": "2 Mbps", "delay": "5 ms",
                   "loss": {"model": "bernoulli", "p": 0.02}}],
        "flows": [{"from": "S", "to": "MH", "tcp": {"variant": "reno"}}],
        "agents": [{"kind": "eln", "node": "BS", "wireless_neighbor": "MH"}],
    }
    spec = {"name": "alias", "scenario": two_hops, "replications": 2,
            "variants": {"scheme": {"reno": {"agents": []}, "eln": {}}},
            "metrics": {"marked": "agents.0.eln_marked"}}
    df = lossy.sweep(spec, out=tmp_path, progress=False).results()
    assert set(df["status"]) == {"ok"}
    assert df[df["scheme"] == "reno"]["marked"].isna().all()
    assert (df[df["scheme"] == "eln"]["marked"] > 0).all()


def test_until_ci_maximum_is_bounded(tmp_path):
    with pytest.raises(lossy.ScenarioError, match=r"--max-replications: 1,000,000 is more than 100,000"):
        lossy.sweep(tiny_spec(), out=tmp_path / "a", until_ci=0.05, max_replications=1_000_000, progress=False)
    wide = tiny_spec(grid={"p": {"path": "links.0.loss.p", "values": [i / 100 for i in range(20)]}})
    with pytest.raises(lossy.ScenarioError, match=r"--max-replications: 100,000 replications of 40 points"):
        lossy.sweep(wide, out=tmp_path / "b", until_ci=0.05, max_replications=100_000, progress=False)
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_flows_of_failed_runs_and_of_an_empty_store(tmp_path):
    doc = tiny_spec(grid={"p": {"path": "links.0.loss.p", "values": [0.01, 1.5]}}, replications=1)
    open_sweep = importlib.import_module("lossy.sweep").open_sweep
    assert list(open_sweep(doc, out=tmp_path).flows().columns) == ["run_id", "point", "p", "tcp", "replication"]
    s = lossy.sweep(doc, out=tmp_path, progress=False)
    flows = s.flows()
    assert set(flows["p"]) == {0.01} and len(flows) == 2  # failed runs have no flows
