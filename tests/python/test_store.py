"""The results store without simulations: parts, checksums, legacy stores, big stores."""

import importlib
import json
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import lossy
from lossy.sweep.parts import concat, read_part, write_part
from lossy.sweep.sections import sections_table
from lossy.sweep.store import Store, index_store

store_module = importlib.import_module("lossy.sweep.store")


def row(i, status="ok", **extra):
    return {"run_id": f"r{i:05d}", "point": "all", "replication": i, "seed": 1, "status": status,
            "error": None if status == "ok" else "boom", "scenario_hash": "h0",
            "goodput": 1000.0 + i, "segments": 10 + i, **extra}


def write_store(root, n, part_rows=None, monkeypatch=None, flows=False):
    if part_rows and monkeypatch:
        monkeypatch.setattr(store_module, "PART_ROWS", part_rows)
    with Store(root) as store:
        for i in range(n):
            sections = {"flows": [{"name": "f0", "goodput_bps": 1.0 * i},
                                  {"name": "f1", "goodput_bps": 2.0 * i}]} if flows else None
            store.add(row(i), sections)
    return root


def test_rows_go_in_batches_with_a_row_count_in_the_footer(tmp_path, monkeypatch):
    write_store(tmp_path, 10, part_rows=4, monkeypatch=monkeypatch)
    parts = sorted((tmp_path / "runs").glob("*.parquet"))
    assert [p.name for p in parts] == [f"part-{i:08d}.parquet" for i in range(3)]
    assert [pq.read_metadata(p).num_rows for p in parts] == [4, 4, 2]
    assert pq.read_metadata(parts[0]).metadata[b"lossy.rows"] == b"4"
    df = lossy.results.load(tmp_path)
    assert list(df["run_id"]) == [f"r{i:05d}" for i in range(10)]
    assert str(pq.read_schema(parts[0]).field("segments").type) == "int64"


def test_a_batch_is_flushed_after_its_time(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "PART_SECONDS", 0.0)
    with Store(tmp_path) as store:
        store.add(row(0))
        assert not list((tmp_path / "runs").glob("*.parquet"))  # buffered
        store.flush_if_due()
        assert len(list((tmp_path / "runs").glob("*.parquet"))) == 1


def test_unflushed_rows_are_not_on_disk_until_close(tmp_path):
    store = Store(tmp_path).open()
    store.add(row(0))
    store.add(row(1))
    assert index_store(tmp_path)[0] == {}  # a kill now loses these two, and nothing else
    store.close()
    assert sorted(index_store(tmp_path)[0]) == ["r00000", "r00001"]


def test_a_flipped_byte_in_a_data_page_is_caught(tmp_path):
    """The footer is intact and the file has its length: without page checksums the
    flipped byte would read back as another goodput."""
    write_store(tmp_path, 5)
    part = tmp_path / "runs" / "part-00000000.parquet"
    meta = pq.ParquetFile(part).metadata
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    chunk = meta.row_group(0).column(names.index("goodput"))
    start = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
    data = bytearray(part.read_bytes())
    data[start + chunk.total_compressed_size - 3] ^= 0x01  # inside the last value of the page
    part.write_bytes(bytes(data))
    unchecked = pq.read_table(part).column("goodput").to_pylist()
    assert unchecked != [1000.0 + i for i in range(5)]  # what a reader without CRCs would see
    with pytest.raises(OSError, match="CRC"):
        read_part(part)
    shutil.rmtree(tmp_path / "manifest")  # a store from before the manifest: the CRC alone catches it
    with pytest.warns(UserWarning, match="unreadable"):
        with pytest.raises(lossy.ScenarioError, match="no runs stored"):
            lossy.results.load(tmp_path)  # the only part is set aside, never misread
    assert (tmp_path / "quarantine" / "runs-part-00000000.parquet").exists()


def test_a_part_with_fewer_rows_than_its_footer_says_is_refused(tmp_path):
    table = pa.table({"run_id": ["a", "b"], "status": ["ok", "ok"], "scenario_hash": ["h", "h"], "seed": [1, 1]})
    (tmp_path / "runs").mkdir()
    bad = tmp_path / "runs" / "part-00000000.parquet"
    write_part(bad, table)
    lying = table.replace_schema_metadata({"lossy.format": "lossy-part-1", "lossy.rows": "3"})
    pq.write_table(lying, bad)
    index, broken = index_store(tmp_path)
    assert index == {} and broken == [bad.name]
    with Store(tmp_path) as store:
        assert store.removed == [bad.name] and not bad.exists()


def test_newest_part_wins_per_run_id(tmp_path, monkeypatch):
    write_store(tmp_path, 4, part_rows=2, monkeypatch=monkeypatch)
    with Store(tmp_path) as store:
        store.add(row(1, status="failed"))  # e.g. a --retry-failed run, in part 2
    df = lossy.results.load(tmp_path).set_index("run_id")
    assert len(df) == 4 and df.loc["r00001", "status"] == "failed"
    assert np.isnan(df.loc["r00001", "goodput"]) or df.loc["r00001", "goodput"] == 1001.0
    with Store(tmp_path) as store:
        assert store.index["r00001"].source == "part-00000002.parquet"
        store.add(row(1))
    assert lossy.results.load(tmp_path).set_index("run_id").loc["r00001", "status"] == "ok"


def test_orphan_flows_parts_of_a_killed_batch_are_removed(tmp_path):
    write_store(tmp_path, 3, flows=True)
    orphan = tmp_path / "flows" / "part-00000001.parquet"
    orphan.write_bytes((tmp_path / "flows" / "part-00000000.parquet").read_bytes())
    with Store(tmp_path) as store:
        assert len(store.index) == 3
    assert not orphan.exists()


def test_a_runs_part_whose_flows_part_is_missing_is_redone(tmp_path):
    write_store(tmp_path, 3, flows=True)
    (tmp_path / "flows" / "part-00000000.parquet").unlink()
    with Store(tmp_path) as store:
        assert store.index == {} and store.removed == ["part-00000000.parquet"]


def test_flows_table_has_one_row_per_flow_and_the_run_columns(tmp_path):
    write_store(tmp_path, 3, flows=True)
    (tmp_path / "sweep.json").write_text(json.dumps({"axes": []}))
    flows = lossy.results.load_flows(tmp_path)
    assert len(flows) == 6 and list(flows.columns[:3]) == ["run_id", "point", "replication"]
    assert flows.groupby("run_id").size().tolist() == [2, 2, 2]
    assert flows[flows["run_id"] == "r00002"]["goodput_bps"].tolist() == [2.0, 4.0]


def test_sections_in_either_shape_stack_the_same():
    as_dicts = [("a", [{"name": "f0", "bytes": 1, "tcp": {"variant": "reno"}},
                       {"name": "f1", "bytes": 2, "tcp": {"variant": "eln"}}])]
    as_columns = [("a", {"name": ["f0", "f1"], "bytes": np.array([1, 2]), "tcp.variant": ["reno", "eln"]})]
    a, b = sections_table(as_dicts), sections_table(as_columns)
    assert a is not None and b is not None
    assert a.to_pylist() == b.to_pylist()
    assert a.column_names == ["run_id", "name", "bytes", "tcp.variant"]
    both = sections_table(as_dicts + [("b", {"name": ["g"], "bytes": np.array([3])})])
    assert both is not None and both.column("run_id").to_pylist() == ["a", "a", "b"]
    assert sections_table([("a", []), ("b", {})]) is None


def test_a_column_whose_type_differs_between_parts_still_reads(tmp_path, monkeypatch):
    """e.g. a store written before mixed-type axes were refused."""
    monkeypatch.setattr(store_module, "PART_ROWS", 1)
    with Store(tmp_path) as store:
        store.add(row(0, rate="10 Mbps"))
        store.add(row(1, rate=5000000))
        store.add(row(2, rate=2.5))
    df = lossy.results.load(tmp_path)
    assert df["rate"].tolist() == ["10 Mbps", "5000000", "2.5"]
    assert concat([pa.table({"x": [1]}), pa.table({"x": [2.5]})]).column("x").type == pa.float64()


def test_a_store_written_one_file_per_run_still_loads_and_resumes(tmp_path):
    """The layout before batches: runs/<run_id>.parquet, one row, status in the footer."""
    from test_sweep_run import tiny_spec

    spec = tiny_spec()
    s = lossy.sweep(spec, out=tmp_path / "new", progress=False)
    rows = s.results().drop(columns=["goodput"]).to_dict(orient="records")  # aliases are not stored
    old = tmp_path / "old"
    (old / "runs").mkdir(parents=True)
    for r in rows[:5]:  # a sweep killed after five runs, by the old code
        r = {k: v for k, v in r.items() if not (isinstance(v, float) and np.isnan(v) and k != "wall_s")}
        table = pa.Table.from_pylist([r])
        table = table.replace_schema_metadata({f"lossy.{k}": str(r[k]) for k in ("status", "scenario_hash", "seed")})
        pq.write_table(table, old / "runs" / f"{r['run_id']}.parquet")
    assert len(lossy.results.load(old)) == 5
    resumed = lossy.sweep(spec, out=old, progress=False)
    assert (resumed.report.stored_before, resumed.report.ok) == (5, 3)
    df = resumed.results()
    assert len(df) == 8 and df["run_id"].is_unique
    assert sorted(df["goodput"]) == sorted(s.results()["goodput"])
    # a legacy failed run retried lands in a part and wins over its old file
    first = rows[0]["run_id"]
    failed = pa.Table.from_pylist([{**{k: v for k, v in rows[0].items() if k != "wall_s"}, "status": "failed"}])
    pq.write_table(failed.replace_schema_metadata({"lossy.status": "failed", "lossy.scenario_hash": rows[0]["scenario_hash"],
                                                   "lossy.seed": "1"}), old / "runs" / f"{first}.parquet")
    retried = lossy.sweep(spec, out=old, progress=False, retry_failed=True)
    assert retried.report.ok == 1
    assert lossy.results.load(old).set_index("run_id").loc[first, "status"] == "ok"


def test_opening_a_big_store_reads_the_index_columns_only(tmp_path, monkeypatch):
    """100,000 runs in 100 parts: opening reads four columns; no timing asserted, the
    columns read are (a wide part would cost ~50x more to read whole)."""
    monkeypatch.setattr(store_module, "PART_ROWS", 1000)
    wide = {f"flows.{i}.goodput_bps": 1.0 for i in range(40)}
    (tmp_path / "runs").mkdir()
    base = pa.Table.from_pylist([{**row(i), **wide} for i in range(1000)])
    for p in range(100):
        ids = pa.array([f"r{p:03d}{i:04d}" for i in range(1000)])
        write_part(tmp_path / "runs" / f"part-{p:08d}.parquet", base.set_column(0, "run_id", ids))
    seen = []
    index_module = importlib.import_module("lossy.sweep.index")
    real = index_module.read_part_and_footer

    def spy(path, columns=None, expect=None):
        seen.append(columns)
        return real(path, columns, expect)

    monkeypatch.setattr(index_module, "read_part_and_footer", spy)
    monkeypatch.setattr(store_module, "read_part", lambda *a: pytest.fail("a whole part was read"))
    with Store(tmp_path) as store:
        assert len(store.index) == 100_000
    assert len(seen) == 100 and all(c == ("run_id", "status", "scenario_hash", "seed") for c in seen)


@pytest.mark.parametrize("make, message", [
    (lambda d: (d / "notes.txt").write_text("x"), r"is not a results store \(no runs/ or sweep.json\); it holds notes.txt"),
    (lambda d: (d / "sweep.json").write_text("{}"), r"no runs stored in"),
    (lambda d: None, r"no runs stored in"),
])
def test_a_directory_that_is_not_a_store_is_one_line(tmp_path, make, message):
    make(tmp_path)
    with pytest.raises(lossy.ScenarioError, match=message):
        lossy.results.load(tmp_path)
    with pytest.raises(lossy.ScenarioError, match=message):
        lossy.results.load_flows(tmp_path)
    with pytest.raises(FileNotFoundError, match="no such results directory"):
        lossy.results.load(tmp_path / "nope")
    with pytest.raises(lossy.ScenarioError, match="is a file"):
        lossy.results.load(tmp_path / "notes.txt") if (tmp_path / "notes.txt").exists() else lossy.results.load(__file__)


def test_a_reader_never_moves_a_part_while_a_sweep_holds_the_store(tmp_path, monkeypatch):
    write_store(tmp_path, 6, part_rows=3, monkeypatch=monkeypatch)
    bad = tmp_path / "runs" / "part-00000001.parquet"
    with Store(tmp_path):  # the lock: a sweep is writing
        bad.write_bytes(bad.read_bytes()[:50])
        with pytest.warns(UserWarning, match="skipped"):
            assert len(lossy.results.load(tmp_path)) == 3
        assert bad.exists()
    with pytest.warns(UserWarning, match="moved to quarantine"):
        assert len(lossy.results.load(tmp_path)) == 3
    assert not bad.exists()


def test_a_corrupt_flows_part_sends_its_batch_back_to_be_run(tmp_path, monkeypatch):
    write_store(tmp_path, 4, part_rows=2, monkeypatch=monkeypatch, flows=True)
    flows = tmp_path / "flows" / "part-00000001.parquet"
    flows.write_bytes(flows.read_bytes()[:-20])  # the footer is gone
    with pytest.warns(UserWarning, match="flows/part-00000001.parquet: altered or replaced"):
        loaded = lossy.results.load_flows(tmp_path)
    assert sorted(set(loaded["run_id"])) == ["r00000", "r00001"]
    assert not (tmp_path / "runs" / "part-00000001.parquet").exists()  # its runs are redone
    assert (tmp_path / "quarantine" / "flows-part-00000001.parquet").exists()
    assert sorted(lossy.results.load(tmp_path)["run_id"]) == ["r00000", "r00001"]


def test_columns_of_many_runs_stack_with_nulls_where_a_run_lacks_one():
    runs = [("a", {"name": ["f0", "f1"], "bytes": np.array([1, 2]), "rtt": np.array([0.1, np.nan])}),
            ("b", {"name": ["g0"], "bytes": np.array([3.5])}),  # no rtt; bytes a float here
            ("c", {"name": ["h0"], "bytes": np.array([4]), "rtt": np.array([0.2]), "group": ["mh"]})]
    table = sections_table(runs)
    assert table is not None
    rows = table.to_pylist()
    assert [r["run_id"] for r in rows] == ["a", "a", "b", "c"]
    assert [r["bytes"] for r in rows] == [1.0, 2.0, 3.5, 4.0]  # int and float runs: one float column
    assert rows[2]["rtt"] is None and rows[3]["rtt"] == 0.2
    assert [r["group"] for r in rows] == [None, None, None, "mh"]
