"""lossy.plot and `lossy plot` on a synthetic results store (no simulation needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from lossy.cli import app

from lossy.plot import Curve, PlotError, PlotSpec, draw, plot_runs, summarize_for_plot

PNG = b"\x89PNG\r\n\x1a\n"


def synthetic_runs() -> pd.DataFrame:
    """Rows shaped like the store's: two axes, three replications, one failed run."""
    rows = []
    for p in [0.005, 0.01, 0.02, 0.05]:
        for scheme, gain in [("reno", 1.0), ("eln", 1.6)]:
            for rep in range(3):
                g = gain * 1.2e5 / p**0.5 * (1 + 0.03 * (rep - 1))
                rows.append({"run_id": f"{p}-{scheme}-{rep}", "point": f"wireless.p={p} scheme={scheme}",
                             "wireless.p": p, "scheme": scheme, "replication": rep, "seed": 1,
                             "status": "ok", "error": None, "goodput": g, "flows.0.goodput_bps": g})
    rows.append({**rows[0], "run_id": "bad", "replication": 3, "status": "failed",
                 "error": "boom", "goodput": None, "flows.0.goodput_bps": None})
    return pd.DataFrame(rows)


def lossy_plot(*args: object):
    """`lossy plot ...` in this process: the error cases need no fresh interpreter."""
    return CliRunner().invoke(app, ["plot", *map(str, args)])


@pytest.fixture
def store(tmp_path: Path) -> Path:
    """A results directory as lossy.sweep writes it: runs/<run_id>.parquet, one row each."""
    root = tmp_path / "results" / "synthetic"
    (root / "runs").mkdir(parents=True)
    df = synthetic_runs()
    for i in range(len(df)):
        df.iloc[[i]].to_parquet(root / "runs" / f"{df['run_id'].iloc[i]}.parquet", index=False)
    (root / "sweep.json").write_text(json.dumps({"name": "synthetic", "axes": [
        {"name": "wireless.p"}, {"name": "scheme"}]}))
    return root


def test_cli_draws_a_png(cli, store: Path, tmp_path: Path) -> None:
    fig = tmp_path / "figs" / "fig.png"
    r = cli("plot", store, "--x", "wireless.p", "--y", "goodput", "--hue", "scheme", "--logx",
            "--title", "synthetic", "-o", fig)
    assert r.returncode == 0, r.stderr
    assert fig.read_bytes()[:8] == PNG
    assert str(fig) in r.stdout


@pytest.mark.parametrize("ext,magic", [("svg", b"<?xml"), ("pdf", b"%PDF")])
def test_vector_formats_and_error_bars(tmp_path: Path, ext: str, magic: bytes) -> None:
    spec = PlotSpec(x="wireless.p", y="flows.0.goodput_bps", hue="scheme", logx=True, logy=True,
                    errorbars=True, curves=[Curve("model", [0.005, 0.05], [1.7e6, 5.4e5])])
    out = tmp_path / f"fig.{ext}"
    summary = plot_runs(synthetic_runs(), spec, out)
    assert out.read_bytes()[:len(magic)] == magic
    assert list(summary["n"]) == [3] * 8  # the failed run is not counted


@pytest.mark.parametrize("args,message", [
    (["--x", "nope", "--y", "goodput"], "--x 'nope': no such axis in the results; the sweep's axes: wireless.p, scheme"),
    (["--x", "wireless.p", "--y", "goodput", "--hue", "colour"], "--hue 'colour': no such axis"),
    (["--x", "wireless.p", "--y", "goodptu", "--hue", "scheme"], "--y 'goodptu': no such metric in the results (did you mean goodput?)"),
    (["--x", "wireless.p", "--y", "scheme"], "not a number column"),
    (["--x", "wireless.p", "--y", "goodput"], "they differ in scheme; put it on --hue"),
])
def test_cli_bad_columns_are_one_line(store: Path, tmp_path: Path, args: list, message: str) -> None:
    r = lossy_plot(store, *args, "-o", tmp_path / "fig.png")
    assert r.exit_code == 2
    assert r.stderr.startswith("lossy: ") and r.stderr.count("\n") == 1
    assert message in r.stderr
    assert not (tmp_path / "fig.png").exists()


def test_cli_bad_extension_and_missing_directory(store: Path, tmp_path: Path) -> None:
    r = lossy_plot(store, "--x", "wireless.p", "--y", "goodput", "--hue", "scheme", "-o", tmp_path / "fig.jpg")
    assert r.exit_code == 2 and "end the name in .png, .svg or .pdf" in r.stderr
    r = lossy_plot(tmp_path / "nowhere", "--x", "p", "--y", "goodput", "-o", tmp_path / "fig.png")
    assert r.exit_code == 2
    assert r.stderr == f"lossy: {tmp_path / 'nowhere'}: no such results directory\n"


def test_no_ok_runs(tmp_path: Path) -> None:
    df = synthetic_runs().assign(status="failed")
    with pytest.raises(PlotError, match="no finished"):
        plot_runs(df, PlotSpec(x="wireless.p", y="goodput", hue="scheme"), tmp_path / "fig.png")


def test_pooled_axes_are_found_without_sweep_json() -> None:
    with pytest.raises(PlotError, match="differ in scheme"):
        summarize_for_plot(synthetic_runs(), PlotSpec(x="wireless.p", y="goodput"))


def test_single_run_points_draw_without_a_band(tmp_path: Path) -> None:
    df = synthetic_runs()
    df = df[df["replication"] == 0]
    spec = PlotSpec(x="wireless.p", y="goodput", hue="scheme")
    summary = summarize_for_plot(df, spec)
    assert summary["half_width"].isna().all()
    assert draw(summary, spec, tmp_path / "one.png").read_bytes()[:8] == PNG


def test_an_empty_store_says_no_runs_are_stored(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    (empty / "runs").mkdir(parents=True)
    r = lossy_plot(empty, "--x", "wireless.p", "--y", "goodput", "-o", tmp_path / "fig.png")
    assert r.exit_code == 2
    assert r.stderr.startswith(f"lossy: no runs stored in {empty};") and r.stderr.count("\n") == 1


def svg_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@pytest.fixture
def svg_keeps_text():
    import matplotlib

    with matplotlib.rc_context({"svg.fonttype": "none"}):  # labels as <text>, not paths
        yield


def test_y_axis_carries_the_unit_of_the_metric(store: Path, tmp_path: Path, svg_keeps_text) -> None:
    # sweep.json maps the alias to its summary key, whose suffix (_bps) gives the unit.
    meta = json.loads((store / "sweep.json").read_text())
    (store / "sweep.json").write_text(json.dumps({**meta, "metrics": {"goodput": "flows.0.goodput_bps"}}))
    fig = tmp_path / "fig.svg"
    r = lossy_plot(store, "--x", "wireless.p", "--y", "goodput", "--hue", "scheme", "-o", fig)
    assert r.exit_code == 0, r.stderr
    assert "goodput (Mb/s)" in svg_text(fig)
    r = lossy_plot(store, "--x", "wireless.p", "--y", "goodput", "--hue", "scheme", "-o", fig,
                   "--ylabel", "rate (my units)", "--xlabel", "loss")
    assert r.exit_code == 0, r.stderr
    assert "rate (my units)" in svg_text(fig) and "(Mb/s)" not in svg_text(fig)


def test_unit_from_the_name_and_ticks_in_that_scale(tmp_path: Path, svg_keeps_text) -> None:
    out = tmp_path / "fig.svg"
    plot_runs(synthetic_runs(), PlotSpec(x="wireless.p", y="flows.0.goodput_bps", hue="scheme"), out)
    text = svg_text(out)
    assert "flows.0.goodput_bps (Mb/s)" in text
    # Only what the figure shows: element ids are random hashes that may hold "1e6".
    shown = " ".join(re.findall(r"<text[^>]*>(.*?)</text>", text, re.S))
    assert "Mb/s" in shown
    assert "e+06" not in shown and "1e6" not in shown


def test_formatters_are_human() -> None:
    from lossy.formatting import mean_ci, pct, quantity, seconds, si, unit_of

    assert seconds(30000.0) == "30,000 s" and seconds(0.0523) == "52.3 ms"
    assert si(1234567, "b/s") == "1.23 Mb/s"
    assert pct(-0.1) == "−10.0 %" and pct(float("nan")) == "-"
    assert mean_ci(1.241e6, 4.6e4) == "1.241 ± 0.046"
    assert unit_of("flows.0.goodput_bps") == "b/s" and unit_of("flows.0.rtt_mean_s") == "s"
    assert quantity(1.5e6, "b/s") == "1.5 Mb/s" and quantity(3e4, "s") == "30,000 s"
    assert quantity(12.5, "segments") == "12.5 segments" and quantity(None, None) == "-"


def test_swept_ticks_too_close_to_read_are_dropped_on_a_linear_axis() -> None:
    from lossy.plot import spaced

    inv_sqrt_p = [3.16, 4.47, 7.07, 10.0, 14.1, 22.4, 31.6]  # Chen Fig. 10's 1/√p
    assert spaced(inv_sqrt_p) == [3.16, 7.07, 10.0, 14.1, 22.4, 31.6]
    assert spaced([0.0, 1.0, 2.0]) == [0.0, 1.0, 2.0]
    assert spaced([0.0, 9.9, 10.0]) == [0.0, 10.0], "the last value is always ticked"


def count_runs() -> pd.DataFrame:
    """Timeouts (a count, stored as integers) that are all 0 at the lowest loss rate."""
    rows = []
    for p, counts in [(0.001, [0, 0, 0]), (0.01, [0, 0, 1]), (0.02, [1, 2, 4]), (0.05, [3, 5, 9])]:
        for rep, n in enumerate(counts):
            rows.append({"point": f"p={p}", "wireless.p": p, "replication": rep, "status": "ok", "timeouts": n})
    return pd.DataFrame(rows).astype({"timeouts": "Int64"})


def test_logy_leaves_out_zeros_with_a_warning_and_keeps_the_band_in_the_axes(tmp_path: Path) -> None:
    # Issue 27: --logy on a count with zeros drew a band (its CI reached below 0) that
    # filled the axes down to ~1e-300.
    from matplotlib.figure import Figure

    from lossy.plot import draw_on

    spec = PlotSpec(x="wireless.p", y="timeouts", logy=True)
    summary = summarize_for_plot(count_runs(), spec)
    assert (summary["ci_low"] >= 0).all()  # a count's interval is cut at 0
    ax = Figure().add_subplot()
    with pytest.warns(UserWarning, match=r"^--logy: timeouts is 0 or below at 1 of 4 points, left out"):
        draw_on(ax, summary, spec)
    bottom, top = ax.get_ylim()
    assert 0.1 <= bottom <= 1 / 6 and top < 100, (bottom, top)  # half the lowest value drawn (1/3)


def test_logy_with_nothing_above_zero_is_refused(tmp_path: Path) -> None:
    df = count_runs().assign(timeouts=0).astype({"timeouts": "Int64"})
    with pytest.raises(PlotError, match="--logy: timeouts is 0 or below at every point"):
        plot_runs(df, PlotSpec(x="wireless.p", y="timeouts", logy=True), tmp_path / "fig.png")
