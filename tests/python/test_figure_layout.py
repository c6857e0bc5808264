"""Every figure of every reproduction, drawn from synthetic runs shaped by its sweeps'
specs (the full grids, so the most crowded axes; no simulation), then read back as
drawn: no two texts overprint (tick labels, axis labels, titles, legends, the CI note
under the axes), no legend covers data, a scheme has one colour in all the figures of
its paper, and throughput is in the paper's unit where the paper states one."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from matplotlib.colors import to_hex
from matplotlib.figure import Figure as MplFigure
from matplotlib.transforms import Bbox

import lossy.plot
from lossy.papers import get, names
from lossy.papers.context import Context
from lossy.papers.figures.layout import drawn, hidden_under, tick_labels

REPLICATIONS = 2


def points(spec: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The axis values of every point of a spec (grid × zip × variants), read from the
    spec itself: expanding it would fit channels for minutes."""
    grid = [[(name, v) for v in axis["values"]] for name, axis in spec.get("grid", {}).items()]
    zipped = spec.get("zip", {})
    rows = [list(zip(zipped, values)) for values in zip(*(a["values"] for a in zipped.values()))] or [[]]
    variants = [[(name, v) for v in options] for name, options in spec.get("variants", {}).items()]
    return [dict([*g, *z, *v])
            for g in itertools.product(*grid) for z in rows for v in itertools.product(*variants)]


def synthetic(spec: Dict[str, Any], store: Path) -> pd.DataFrame:
    """Rows as a store holds them, each metric different per point (so curves differ),
    and the traces the spec records."""
    rows = []
    for i, point in enumerate(points(spec)):
        for rep in range(REPLICATIONS):
            level = 1e5 * (1.2 + np.sin(i)) * (1 + 0.03 * rep)
            rows.append({**point, "run_id": f"p{i}r{rep}", "point": f"p{i}", "replication": rep, "seed": 1,
                         "status": "ok", "error": None, "sim_time_s": 100.0, "events_per_s": 1e6 * (1 + i),
                         **{m: level * (1 + 0.1 * k) for k, m in enumerate(spec.get("metrics", {}))}})
            if spec.get("traces"):
                write_traces(store / "traces" / f"p{i}r{rep}", 1 + 0.1 * i)
    return pd.DataFrame(rows)


def write_traces(out: Path, scale: float) -> None:
    out.mkdir(parents=True)
    n = 301
    t = np.linspace(0, 30, n)
    one = np.zeros(n, np.uint32)
    pq.write_table(pa.table({"time_s": t, "flow": one, "cwnd_bytes": scale * (1e3 + 100 * (np.arange(n) % 20)),
                             "ssthresh_bytes": np.full(n, 8e3)}), out / "cwnd.parquet")
    pq.write_table(pa.table({"time_s": t, "flow": one, "event": np.tile(np.array([0, 2, 1], np.uint8), n)[:n],
                             "seq": 1e3 * np.arange(n)}), out / "seq.parquet")
    pq.write_table(pa.table({"time_s": np.concatenate([t, t]), "flow": np.concatenate([one, one + 1]),
                             "bps": scale * 1e6 * np.concatenate([1 + np.sin(t), 1 + np.cos(t)])}),
                   out / "throughput.parquet")


def context(name: str, tmp: Path) -> Context:
    repro = get(name)
    needed = {s for f in repro.figures for s in f.needs}
    ctx = Context(tmp, quick=True)
    for plan in repro.sweeps:
        if plan.key in needed:
            ctx.stores[plan.key] = tmp / plan.key
            ctx.metrics[plan.key] = {str(k): str(v) for k, v in plan.spec.get("metrics", {}).items()}
            ctx.runs[plan.key] = synthetic(plan.spec, tmp / plan.key)
    return ctx


@pytest.fixture
def captured(monkeypatch: pytest.MonkeyPatch) -> List[MplFigure]:
    """The figures as they are saved (laid out), without writing them."""
    figures: List[MplFigure] = []

    def keep(fig: MplFigure, path: Path) -> Path:
        figures.append(fig)
        return path
    monkeypatch.setattr(lossy.plot, "save", keep)
    return figures


def drawn_figures(name: str, tmp: Path, captured: List[MplFigure]) -> Iterator[Tuple[str, MplFigure]]:
    ctx = context(name, tmp)
    for figure in get(name).figures:
        if figure.kind == "table":
            continue
        before = len(captured)
        figure.render(ctx.restricted(figure.needs))
        assert len(captured) == before + 1, f"{figure.key}: drew no figure"
        yield figure.key, captured[-1]


def texts(fig: MplFigure, renderer: Any) -> List[Tuple[str, Bbox]]:
    """Everything written on the figure, each with its box in pixels."""
    out: List[Tuple[str, Bbox]] = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for a in [ax, *ax.child_axes]:
            for axis in (a.xaxis, a.yaxis):
                out += [(f"tick {t.get_text()!r}", t.get_window_extent(renderer))
                        for minor in (False, True) for _, t in tick_labels(axis, minor)]
                if axis.label.get_visible() and axis.label.get_text():
                    out.append((f"axis label {axis.label.get_text()!r}", axis.label.get_window_extent(renderer)))
        for loc in ("left", "center", "right"):
            title = ax._left_title if loc == "left" else ax.title if loc == "center" else ax._right_title
            if title.get_text():
                out.append((f"title {title.get_text()!r}", title.get_window_extent(renderer)))
        if ax.get_legend() is not None:
            out.append(("legend", ax.get_legend().get_window_extent(renderer)))
    out += [("figure legend", lg.get_window_extent(renderer)) for lg in fig.legends]
    out += [(f"note {t.get_text()!r}", t.get_window_extent(renderer)) for t in fig.texts if t.get_text()]
    return out


def overprints(fig: MplFigure, renderer: Any) -> List[str]:
    boxes = texts(fig, renderer)
    return [f"{a} over {b}" for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1:]
            if ba.overlaps(bb) and ba.width > 0 and bb.width > 0]


def covered(fig: MplFigure, renderer: Any) -> List[str]:
    out = []
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is not None and legend.get_bbox_to_anchor() is ax.bbox:  # a legend inside the axes
            hidden = hidden_under(ax, legend.get_window_extent(renderer), renderer)
            out += [f"legend over {h.get_label()!r}" for h in hidden]
    return out


def colours(fig: MplFigure) -> Dict[str, str]:
    """Legend entry -> the colour of its line."""
    out = {}
    for legend in [*(ax.get_legend() for ax in fig.axes), *fig.legends]:
        if legend is None:
            continue
        for text, handle in zip(legend.get_texts(), legend.legend_handles):
            if handle is not None and hasattr(handle, "get_color"):
                out[text.get_text()] = to_hex(handle.get_color())
    return out


# The figures whose throughput axis the paper states a unit for.
PAPER_UNITS = {"chen-syndrome": ({"fig10", "fig11", "fig12", "fig13", "fig14", "uplink"}, "kB/s"),
               "botos-fectcp": ({"fig5", "fig6"}, "kB/s")}


@pytest.mark.parametrize("name", names())
def test_every_figure_is_laid_out_without_overprinting(name: str, tmp_path: Path,
                                                       captured: List[MplFigure]) -> None:
    problems = []
    looks: Dict[str, Dict[str, str]] = {}
    in_unit, unit = PAPER_UNITS.get(name, (set(), ""))
    for key, fig in drawn_figures(name, tmp_path, captured):
        renderer = drawn(fig)
        problems += [f"{key}: {p}" for p in overprints(fig, renderer) + covered(fig, renderer)]
        for label, colour in colours(fig).items():
            looks.setdefault(label, {})[key] = colour
        if key in in_unit and not fig.axes[0].get_ylabel().endswith(f"({unit})"):
            problems.append(f"{key}: {fig.axes[0].get_ylabel()!r} is not in the paper's {unit}")
    assert not problems, "\n".join(problems)
    changing = {label: seen for label, seen in looks.items() if len(set(seen.values())) > 1}
    assert not changing, f"a scheme changes colour between figures: {changing}"
