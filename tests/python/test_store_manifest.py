"""The store's manifest under fault injection (issue 27, "Store integrity"): a missing,
swapped or altered part or trace is reported in one line and its runs are redone by the
next resume; a store from before the manifest still reads and gets one; sweep.json
overwritten with garbage is reported; a read-only store with a bad part still reads."""

import errno
import importlib
import json
import shutil
import warnings

import pyarrow.parquet as pq
import pytest

import lossy
from lossy.sweep.store import Store
from test_store import row, write_store
from test_sweep_run import tiny_spec

store_module = importlib.import_module("lossy.sweep.store")


def one_warning(record, *fragments):
    """The one warning of `record`, holding every fragment."""
    lines = [str(w.message) for w in record]
    assert len(lines) == 1, lines
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def flip_in_footer(part, word=b"goodput"):
    """Flip one bit of a column name in the part's footer (the schema), which the page
    checksums do not cover: the column `goodput` reads back as `goodpuu`."""
    data = bytearray(part.read_bytes())
    footer_len = int.from_bytes(data[-8:-4], "little")
    at = data.index(word, len(data) - 8 - footer_len)
    data[at + len(word) - 1] ^= 0x01
    part.write_bytes(bytes(data))


def test_a_flipped_footer_byte_is_one_line_and_its_runs_are_redone(tmp_path, monkeypatch):
    write_store(tmp_path, 6, part_rows=3, monkeypatch=monkeypatch)
    part = tmp_path / "runs" / "part-00000001.parquet"
    flip_in_footer(part)
    assert "goodput" not in pq.read_table(part).column_names  # what a reader without the manifest sees
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        df = lossy.results.load(tmp_path)
    one_warning(record, "runs/part-00000001.parquet: altered or replaced", "its 3 runs are redone by the next resume")
    assert sorted(df["run_id"]) == ["r00000", "r00001", "r00002"] and df["goodput"].notna().all()
    with Store(tmp_path) as store:  # the resume: the three runs are not stored, so it runs them
        assert sorted(store.index) == ["r00000", "r00001", "r00002"]
    assert (tmp_path / "quarantine" / "runs-part-00000001.parquet").exists()


def test_a_deleted_part_is_one_line_and_its_runs_are_redone(tmp_path, monkeypatch):
    write_store(tmp_path, 6, part_rows=3, monkeypatch=monkeypatch, flows=True)
    (tmp_path / "runs" / "part-00000000.parquet").unlink()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with Store(tmp_path) as store:
            assert sorted(store.index) == ["r00003", "r00004", "r00005"]
            store.add(row(0))  # the resume redoes it
    one_warning(record, "runs/part-00000000.parquet: missing", "its 3 runs are run again")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reported once: the next open is clean
        assert sorted(lossy.results.load(tmp_path)["run_id"]) == ["r00000", "r00003", "r00004", "r00005"]
    assert not (tmp_path / "flows" / "part-00000000.parquet").exists()  # its batch went to quarantine/


@pytest.mark.parametrize("section", ["runs", "flows"])
def test_a_part_copied_over_another_is_one_line(tmp_path, monkeypatch, section):
    write_store(tmp_path, 6, part_rows=3, monkeypatch=monkeypatch, flows=True)
    shutil.copyfile(tmp_path / section / "part-00000000.parquet", tmp_path / section / "part-00000001.parquet")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with Store(tmp_path) as store:
            assert sorted(store.index) == ["r00000", "r00001", "r00002"]  # no run counted twice
    one_warning(record, f"{section}/part-00000001.parquet: altered or replaced", "its 3 runs are run again")
    assert len(lossy.results.load_flows(tmp_path)) == 6  # 3 runs, 2 flows each: rows agree with runs


def test_a_batch_killed_before_its_commit_is_removed_quietly(tmp_path, monkeypatch):
    """The manifest entry is written last: a kill just before it leaves parts without one."""
    write_store(tmp_path, 6, part_rows=3, monkeypatch=monkeypatch, flows=True)
    (tmp_path / "manifest" / "part-00000001.json").unlink()
    assert len(lossy.results.load(tmp_path)) == 3  # a reader ignores what is not committed
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with Store(tmp_path) as store:
            assert sorted(store.index) == ["r00000", "r00001", "r00002"]
    assert not (tmp_path / "runs" / "part-00000001.parquet").exists()
    assert not (tmp_path / "flows" / "part-00000001.parquet").exists()


def test_a_store_from_before_the_manifest_reads_and_gets_one(tmp_path, monkeypatch):
    write_store(tmp_path, 6, part_rows=3, monkeypatch=monkeypatch, flows=True)
    shutil.rmtree(tmp_path / "manifest")
    assert len(lossy.results.load(tmp_path)) == 6  # legacy: the old checks
    assert not (tmp_path / "manifest").exists()  # a reader writes nothing
    with Store(tmp_path) as store:  # the next sweep migrates it
        assert len(store.index) == 6
    entry = json.loads((tmp_path / "manifest" / "part-00000001.json").read_text())
    assert entry["runs"] == 3 and sorted(entry["files"]) == ["flows/part-00000001.parquet", "runs/part-00000001.parquet"]
    flip_in_footer(tmp_path / "runs" / "part-00000001.parquet")
    with pytest.warns(UserWarning, match="altered or replaced"):
        assert len(lossy.results.load(tmp_path)) == 3


def test_sweep_json_overwritten_with_garbage_is_one_line(tmp_path, cli):
    write_store(tmp_path, 3)
    (tmp_path / "sweep.json").write_bytes(b"\x89PNG\r\n garbage")
    with pytest.warns(UserWarning, match="sweep.json: not a sweep description"):
        assert lossy.results.load_meta(tmp_path) == {}
    proc = cli("results", tmp_path, "--metric", "goodput")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"lossy: warning: {tmp_path / 'sweep.json'}: not a sweep description")
    assert "goodput" in proc.stdout


def test_a_read_only_store_with_a_bad_part_reads_the_rest(tmp_path, monkeypatch):
    """`.lock: Read-only file system` made `lossy results` fail whole. Root ignores chmod,
    so the lock file fails to open as on a read-only mount."""
    write_store(tmp_path, 6, part_rows=3, monkeypatch=monkeypatch)
    (tmp_path / "runs" / "part-00000000.parquet").write_bytes(b"PAR1 garbage")

    def read_only(path):
        raise OSError(errno.EROFS, "Read-only file system", str(path))

    monkeypatch.setattr(store_module, "open_lock", read_only)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert sorted(lossy.results.load(tmp_path)["run_id"]) == ["r00003", "r00004", "r00005"]
    one_warning(record, "runs/part-00000000.parquet:", "skipped (the store cannot be written)")
    assert (tmp_path / "runs" / "part-00000000.parquet").exists()


@pytest.mark.slow
def test_traces_deleted_corrupt_or_half_written_are_found_and_redone(tmp_path):
    spec = tiny_spec(traces=["cwnd"], replications=1, variants={})
    s = lossy.sweep(spec, out=tmp_path, progress=False)
    first, second = sorted(s.results()["run_id"])[:2]
    deleted = tmp_path / "traces" / first / "cwnd.parquet"
    corrupt = tmp_path / "traces" / second / "cwnd.parquet"
    deleted.unlink()
    data = bytearray(corrupt.read_bytes())
    data[len(data) // 2] ^= 0xFF
    corrupt.write_bytes(bytes(data))
    stale = tmp_path / "traces" / second / ".cwnd.parquet.0123456789ab.tmp"  # a worker killed mid-write
    stale.write_bytes(b"half")
    with pytest.raises(lossy.ScenarioError, match=r"trace 'cwnd' of run .*: .*cwnd.parquet is (altered|unreadable).*"
                                                  r"run the sweep again"):
        lossy.results.read_trace(tmp_path, second, "cwnd")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        again = lossy.sweep(spec, out=tmp_path, progress=False)
    messages = sorted(str(w.message) for w in record)
    assert len(messages) == 2 and "missing" in messages[0] + messages[1], messages
    assert again.report is not None and again.report.ok == 2  # the two runs, run again
    assert not stale.exists()
    for rid in (first, second):
        assert lossy.results.read_trace(tmp_path, rid, "cwnd").num_rows > 0


def test_an_unreadable_manifest_entry_is_one_line_and_its_batch_is_redone(tmp_path, monkeypatch):
    write_store(tmp_path, 6, part_rows=3, monkeypatch=monkeypatch)
    (tmp_path / "manifest" / "part-00000000.json").write_text("{garbage")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        with Store(tmp_path) as store:
            assert sorted(store.index) == ["r00003", "r00004", "r00005"]
    one_warning(record, "runs/part-00000000.parquet: its manifest entry manifest/part-00000000.json is unreadable",
                "its 3 runs are run again")
    assert (tmp_path / "quarantine" / "manifest-part-00000000.json").exists()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reported once
        assert len(lossy.results.load(tmp_path)) == 3


def test_migrating_a_store_redoes_a_run_whose_trace_is_unreadable(tmp_path):
    import numpy as np

    with Store(tmp_path) as store:
        for i in range(2):
            store.add(row(i), traces={"cwnd": {"time_s": np.arange(5.0), "cwnd_bytes": np.arange(5)}})
    shutil.rmtree(tmp_path / "manifest")  # a store from before the manifest
    bad = tmp_path / "traces" / "r00001" / "cwnd.parquet"
    bad.write_bytes(bad.read_bytes()[:-12])
    with pytest.warns(UserWarning, match="r00001/cwnd.parquet: unreadable; its run is run again"):
        with Store(tmp_path) as store:
            assert sorted(store.index) == ["r00000"]
    entry = json.loads((tmp_path / "manifest" / "part-00000000.json").read_text())
    assert list(entry["traces"]) == ["r00000"]
