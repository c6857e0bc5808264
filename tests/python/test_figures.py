"""The figure kinds of lossy.papers.figures, drawn from synthetic runs and synthetic
trace files (no simulation): each writes its files, tables their CSV with every row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
    assert [name for name, _ in samples] == ["reno", "eln"]
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
    from lossy.papers.bands import Band
    from lossy.papers.estimate import Estimate
    from lossy.papers.judge import Measurement, Part
    from lossy.papers.model import Claim, Examples
    from lossy.papers.verdict import State

    def eln_window_larger(c: Context) -> Measurement:
        means = {row["scheme"]: float(c.trace("s", row, "cwnd")["cwnd_bytes"].mean())
                 for _, row in traced(c.ok("s")).iterrows()}
        return Measurement([Part("p = 0.02", Estimate.of_exact(means["eln"] / means["reno"], "one run each"))])

    def claim(measure: Any) -> Claim:
        return Claim("w", "ELN keeps a larger window", "test", "larger", "ratio of mean windows",
                     Band.between(1.5, 2.5, "test"), measure, ["s"], Examples(null=dict, faithful=dict), "traced")

    v = claim(eln_window_larger).evaluate(ctx)
    assert v.state is State.REPRODUCED and "2" in v.ours
    v = claim(lambda c: Measurement([Part("q", Estimate.of_exact(len(c.trace("s", "r-0.01-reno-0", "cwnd")), ""))])
              ).evaluate(ctx)
    assert v.state is State.UNCHECKED and v.reason.startswith("TraceMissing: trace 'cwnd' of run r-0.01-reno-0: not in ")


def test_a_palette_gives_a_scheme_one_look_whatever_else_is_shown() -> None:
    from lossy.papers.figures.palette import Palette

    palette = Palette(["syndrome", "snoop", "reno"], same={"Snoop (at BS)": "snoop"})
    everything = palette.styles(["syndrome", "snoop", "reno"])
    without_reno = palette.styles(["eln", "snoop", "syndrome"])  # Chen's Fig. 12
    assert without_reno("syndrome") == everything("syndrome")
    assert without_reno("eln")["color"] not in {everything(s)["color"] for s in ("syndrome", "snoop")}
    assert palette.styles(["Snoop (at BS)"])("Snoop (at BS)")["color"] == everything("snoop")["color"]
    assert palette.order(["p_e 0.1", "reno", "p_e 0.01", "syndrome"]) == ["syndrome", "reno", "p_e 0.01", "p_e 0.1"]


def coinciding_runs(eln_gain: float) -> pd.DataFrame:
    df = runs()
    reno = df[df["scheme"] == "reno"]
    return pd.concat([reno, reno.assign(scheme="eln", goodput=reno["goodput"] * eln_gain)], ignore_index=True)


@pytest.mark.parametrize("gain, note", [(1.0, "eln = reno at every point"),
                                        (1.001, "eln ≈ reno at every point"), (1.5, "")])
def test_curves_that_coincide_are_named_and_drawn_both(ctx: Context, gain: float, note: str) -> None:
    from matplotlib.figure import Figure

    from lossy.papers.figures.palette import Palette

    ctx.runs["s"] = coinciding_runs(gain)
    ax = Figure().add_subplot()
    LinePlot("lines", "s", "t", x="p", y="goodput", hue="scheme", logx=True,
             palette=Palette(["reno", "eln"])).draw(ax, ctx)
    assert ax.get_title(loc="right") == note
    eln = next(line for line in ax.lines if line.get_label() == "eln")
    assert (eln.get_markerfacecolor() == "none") == bool(note)  # hollow over the one it hides


def test_layout_thins_crowded_ticks_moves_a_covering_legend_out_and_puts_the_note_below(tmp_path: Path) -> None:
    from matplotlib.figure import Figure
    from matplotlib.ticker import FixedLocator

    from lossy.papers.figures.base import save_figure
    from lossy.papers.figures.layout import drawn, tick_labels

    fig = Figure(figsize=(4, 3), layout="constrained")
    ax = fig.add_subplot()
    xs = [0.1, 0.12, 0.15, 0.2, 0.25, 0.3]
    for k in range(6):  # lines through every corner
        ax.plot(xs, [k * (x - 0.1) if k % 2 else 1 - k * (x - 0.1) for x in xs], label=f"a long name {k}")
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(FixedLocator(xs))
    ax.set_xlabel("a long x label that reaches the right edge of the axes")
    ax.legend()
    width = fig.get_size_inches()[0]
    save_figure(fig, tmp_path / "f.png", note="bands: 95 % CI (Student t)")
    renderer = drawn(fig)
    shown = [(v, t.get_window_extent(renderer)) for v, t in tick_labels(ax.xaxis)]
    assert shown[0][0] == 0.1 and shown[-1][0] == 0.3 and len(shown) < len(xs)
    assert not any(a.overlaps(b) for (_, a), (_, b) in zip(shown, shown[1:]))
    assert ax.get_legend().get_window_extent(renderer).x0 > ax.bbox.x1 and fig.get_size_inches()[0] > width
    assert fig.texts[-1].get_window_extent(renderer).y1 <= ax.xaxis.label.get_window_extent(renderer).y0


def test_time_series_of_each_flow_in_the_papers_unit(ctx: Context) -> None:
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    rates = TimeSeries("rates", "s", "rates", "throughput", "bps", select=lambda r: traced(r).head(1),
                       flows={0: "FECTCP"}, unit="B/s", scale=1 / 8, prefix="k")
    rates.draw(ax, ctx)
    assert ax.get_ylabel() == "bps (kB/s)" and [line.get_label() for line in ax.lines] == ["FECTCP"]
    assert max(ax.lines[0].get_ydata()) == pytest.approx(2e6 / 8, rel=0.01)  # 2 Mb/s peak -> 250 kB/s


def test_points_hidden_under_another_line_are_found_one_by_one() -> None:
    from lossy.hiding import hidden_points

    xs = [1.0, 2.0, 3.0]
    masks = hidden_points([(xs, [0.0, 5.0, 10.0]), (xs, [0.0, 7.0, 10.05]), ([2.0, 3.0], [5.0, 3.0])])
    assert [m.tolist() for m in masks] == [[False, False, False], [True, False, True], [True, False]]
