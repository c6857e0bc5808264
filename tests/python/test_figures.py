"""The figure kinds of lossy.papers.figures, drawn from synthetic runs and synthetic
trace files (no simulation): each writes its files, tables their CSV with every row."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from lossy.papers.context import Context
from lossy.papers.figures import Cdf, LinePlot, Panels, Table, TimeSeries, moving_mean, table_of
from lossy.papers.tracefiles import TraceMissing, read_trace
from lossy.plot import Curve, SecondaryX

PNG = b"\x89PNG\r\n\x1a\n"


def runs() -> pd.DataFrame:
    rows = []
    for p in [0.01, 0.02, 0.05]:
        for scheme, gain in [("reno", 1.0), ("eln", 1.5)]:
            for rep in range(3):
                g = gain * 1.2e5 / p**0.5 * (1 + 0.02 * (rep - 1))
                rows.append({"run_id": f"r-{p}-{scheme}-{rep}", "point": f"{p}-{scheme}", "p": p,
                             "scheme": scheme, "replication": rep, "seed": 1, "status": "ok",
                             "goodput": g})
    return pd.DataFrame(rows)


def write_traces(store: Path, run_id: str, scale: float) -> None:
    """Traces with the core's columns: cwnd (with an unset ssthresh), seq, throughput."""
    out = store / "traces" / run_id
    out.mkdir(parents=True)
    t = np.linspace(0, 10, 101)
    unset = float("nan")  # the core writes an unset ssthresh as NaN
    pq.write_table(pa.table({"time_s": t, "flow": np.zeros(101, np.uint32),
                             "cwnd_bytes": scale * (1000 + 100 * (np.arange(101) % 20)),
                             "ssthresh_bytes": np.where(t < 2, unset, 8000.0)}), out / "cwnd.parquet")
    pq.write_table(pa.table({"time_s": t, "flow": np.zeros(101, np.uint32),
                             "event": np.tile(np.array([0, 2, 1], np.uint8), 34)[:101],
                             "seq": 1000.0 * np.arange(101)}), out / "seq.parquet")
    pq.write_table(pa.table({"time_s": t, "flow": np.zeros(101, np.uint32),
                             "bps": scale * 1e6 * (1 + np.sin(t))}), out / "throughput.parquet")


@pytest.fixture
def ctx(tmp_path: Path) -> Context:
    df = runs()
    store = tmp_path / "out" / "s"
    for _, row in df[(df["p"] == 0.02) & (df["replication"] == 0)].iterrows():
        write_traces(store, row["run_id"], 1.0 if row["scheme"] == "reno" else 2.0)
    return Context(tmp_path / "out", runs={"s": df}, stores={"s": store},
                   metrics={"s": {"goodput": "flows.0.goodput_bps"}})


def traced(runs: pd.DataFrame) -> pd.DataFrame:
    return runs[(runs["p"] == 0.02) & (runs["replication"] == 0)]


def line() -> LinePlot:
    return LinePlot("lines", "s", "goodput against p", x="p", y="goodput", hue="scheme", logx=True, logy=True,
                    xlabel="loss rate p", ylabel="goodput",
                    curves=lambda r: [Curve("model", [0.01, 0.05], [1.2e6, 5.4e5])],
                    table=lambda r: r.groupby(["p", "scheme"], as_index=False)["goodput"].mean(),
                    secondary_x=SecondaryX("1/√p", lambda p: 1 / np.sqrt(p), lambda q: 1 / np.square(q)))


def cwnd(scheme: str) -> TimeSeries:
    return TimeSeries(f"cwnd-{scheme}", "s", scheme, "cwnd", "cwnd_bytes",
                      select=lambda r: traced(r)[traced(r)["scheme"] == scheme],
                      label=lambda row: str(row["scheme"]))


def test_line_plot_writes_the_figure_and_its_table(ctx: Context) -> None:
    artifacts = line().render(ctx)
    assert [a.path.name for a in artifacts] == ["lines.png", "lines.csv"]
    assert artifacts[0].path.read_bytes()[:8] == PNG
    csv = pd.read_csv(artifacts[1].path)
    assert len(csv) == 6 and list(csv.columns) == ["p", "scheme", "goodput"]


def test_line_plot_labels_carry_units(ctx: Context) -> None:
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    line().draw(ax, ctx)
    assert ax.get_ylabel() == "goodput (Mb/s)"  # the alias's summary key ends in _bps
    assert ax.get_xlabel() == "loss rate p"


def test_table_csv_has_every_row(ctx: Context) -> None:
    t = Table("t3", "Table 3", ["s"], lambda c: c["s"][["p", "scheme", "goodput"]])
    (artifact,) = t.render(ctx)
    assert artifact.path == ctx.out / "t3.csv"
    assert len(pd.read_csv(artifact.path)) == len(runs())
    one = table_of("t4", "s", "Table 4", lambda r: r.head(2))
    assert one.needs == ("s",) and len(pd.read_csv(one.render(ctx)[0].path)) == 2


def test_time_series_of_cwnd_seq_and_moving_throughput(ctx: Context) -> None:
    for figure in [cwnd("reno"),
                   TimeSeries("seq", "s", "seq", "seq", "seq", select=traced, events=["sent", "acked"]),
                   TimeSeries("thr", "s", "throughput", "throughput", "bps", select=traced, window_s=1.0)]:
        (artifact,) = figure.render(ctx)
        assert artifact.path.read_bytes()[:8] == PNG
    (label, df), _ = TimeSeries("seq", "s", "seq", "seq", "seq", select=traced, events=["resent"]).series(ctx)
    assert set(df["event_name"]) == {"resent"}


def test_moving_mean_is_over_time_not_samples() -> None:
    t = pd.Series([0.0, 0.5, 1.0, 3.0])
    v = pd.Series([1.0, 3.0, 5.0, 7.0])
    assert moving_mean(t, v, 1.0).tolist() == [1.0, 2.0, 4.0, 7.0]  # (0, 1] holds 0.5 and 1.0


def test_the_trace_reader_names_events_and_says_what_is_missing(ctx: Context) -> None:
    df = ctx.trace("s", traced(runs()).iloc[0], "cwnd")
    assert df["ssthresh_bytes"].isna().sum() == 20 and df["ssthresh_bytes"].max() == 8000
    seq = ctx.trace("s", traced(runs()).iloc[0], "seq")
    assert seq["event_name"].tolist()[:3] == ["sent", "acked", "resent"]  # the core's legend
    with pytest.raises(TraceMissing, match="stored: cwnd, seq, throughput"):
        ctx.trace("s", traced(runs()).iloc[0], "queue")
    with pytest.raises(TraceMissing, match=r"none stored for that run.*traces = \[\"cwnd\"\]"):
        read_trace(ctx.stores["s"], "r-0.01-reno-0", "cwnd")


def test_cdf_of_a_metric_and_of_a_trace_column(ctx: Context) -> None:
    over_runs = Cdf("cdf-runs", "s", "goodput", "goodput", hue="scheme")
    samples = over_runs.samples(ctx)
    assert [name for name, _ in samples] == ["scheme = reno", "scheme = eln"]
    assert all(len(xs) == 9 for _, xs in samples)
    of_trace = Cdf("cdf-cwnd", "s", "cwnd", "cwnd_bytes", hue="scheme", trace="cwnd", where=traced)
    assert [len(xs) for _, xs in of_trace.samples(ctx)] == [101, 101]
    for figure in (over_runs, of_trace):
        assert figure.render(ctx)[0].path.read_bytes()[:8] == PNG


def test_panels_of_every_plot_kind(ctx: Context) -> None:
    panels = Panels("fig5", "four panels", [line(), cwnd("reno"), cwnd("eln"),
                                             Cdf("c", "s", "goodput", "goodput", hue="scheme")], ncols=2)
    assert panels.needs == ("s",)
    (artifact,) = panels.render(ctx)
    assert artifact.path == ctx.out / "fig5.png" and artifact.path.read_bytes()[:8] == PNG


def test_claims_read_traces_through_the_context(ctx: Context) -> None:
    from lossy.papers.model import Claim
    from lossy.papers.verdict import State, Verdict

    def eln_window_larger(c: Context) -> Verdict:
        means = {row["scheme"]: float(c.trace("s", row, "cwnd")["cwnd_bytes"].mean())
                 for _, row in traced(c.ok("s")).iterrows()}
        return Verdict.of(means["eln"] > means["reno"], f"{means['eln'] / means['reno']:.1f}×", "mean cwnd")

    claim = Claim("w", "ELN keeps a larger window", ">", "-", eln_window_larger, sweeps=["s"])
    v = claim.evaluate(ctx)
    assert v.state is State.REPRODUCED and v.ours == "2.0×"
    missing = Claim("q", "queue", ">", "-", lambda c: Verdict.of(True, str(len(c.trace("s", "r-0.01-reno-0", "cwnd"))), ""),
                    sweeps=["s"])
    v = missing.evaluate(ctx)
    assert v.state is State.UNCHECKED and v.reason.startswith("TraceMissing: trace 'cwnd' of run r-0.01-reno-0: not in ")
