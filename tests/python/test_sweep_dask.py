"""The same sweep on a Dask cluster gives the same rows, bit for bit (wall clock aside)."""

import pyarrow.parquet as pq
import pytest

import lossy

from test_sweep_run import assert_same_rows, tiny_spec

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    # Two single-threaded worker processes: arguments and rows cross process boundaries
    # by pickle, as they would on a real cluster.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=40) as c:
        yield c


def test_dask_rows_equal_local_rows(tmp_path, cluster):
    doc = tiny_spec(grid={"p": {"path": "links.0.loss.p", "values": [0.01, 0.05, 1.5]}})
    local = lossy.sweep(doc, out=tmp_path / "local", progress=False)
    remote = lossy.sweep(doc, out=tmp_path / "dask", executor="dask",
                         scheduler=cluster.scheduler_address, progress=False)
    assert (remote.report.ok, remote.report.failed) == (local.report.ok, local.report.failed) == (8, 4)
    assert_same_rows(local.results(), remote.results())
    # the files carry the same types too
    name = sorted((tmp_path / "local" / "runs").glob("*.parquet"))[0].name
    a = pq.read_schema(tmp_path / "local" / "runs" / name)
    b = pq.read_schema(tmp_path / "dask" / "runs" / name)
    assert a.equals(b, check_metadata=True)


def test_any_executor_can_be_passed(tmp_path, cluster):
    with distributed.Client(cluster) as client:
        s = lossy.sweep(tiny_spec(), out=tmp_path, executor=client.get_executor(), progress=False)
    assert s.report.ok == 8
