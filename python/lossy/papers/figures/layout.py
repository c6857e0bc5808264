"""The last step before a figure is saved, done on the drawn figure (the sizes of its
texts known): each legend in a corner where it hides no line, band or marker, else
outside the axes with the figure widened for it (one legend for panels that would all
show the same); tick labels thinned until no two overprint (a log axis's minor labels
go first)."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Tuple

from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.ticker import FixedLocator, NullFormatter
from matplotlib.transforms import Bbox

DPI = 150  # as plot.save writes them: sizes in pixels are those of the file
PAD_PX = 3.0  # labels closer than this read as one
CORNERS = ("upper right", "upper left", "lower left", "lower right",
           "center right", "center left", "upper center", "lower center")


def finish(fig: Figure) -> None:
    """Legends, then ticks (a legend moved out changes the axes' width, so the room the
    tick labels have)."""
    fig.set_dpi(DPI)
    renderer = drawn(fig)
    moved_out = _one_legend_for_equal_panels(fig)
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is not None and not _fits_inside(ax, legend, renderer):
            legend.set_loc("upper left")
            legend.set_bbox_to_anchor((1.02, 1.0), transform=ax.transAxes)
            moved_out.append(legend)
    if moved_out:
        _widen_for(fig, moved_out, drawn(fig))
        renderer = drawn(fig)
    for _ in range(4):  # thinning frees no room, but a relayout may move labels a little
        if not any([_thin(axis, renderer) for axis in _axes(fig)]):
            break
        renderer = drawn(fig)


def drawn(fig: Figure) -> Any:
    """A renderer after drawing (and laying out) the figure, as savefig will."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    fig.draw(renderer)
    return renderer


def _axes(fig: Figure) -> Iterator[Any]:
    """Every x and y axis with labels, the secondary scales included."""
    for ax in fig.axes:
        for a in [ax, *ax.child_axes]:
            yield a.xaxis
            yield a.yaxis


def tick_labels(axis: Any, minor: bool = False) -> List[Tuple[float, Any]]:
    """(tick value, its drawn Text) of the labels shown, inside the view."""
    locs = axis.get_minorticklocs() if minor else axis.get_majorticklocs()
    ticks = axis.get_minor_ticks(len(locs)) if minor else axis.get_major_ticks(len(locs))
    low, high = sorted(axis.get_view_interval())
    span = (high - low) * 1e-9
    out = []
    for loc, tick in zip(locs, ticks):
        if not (low - span <= loc <= high + span):
            continue
        for text in (tick.label1, tick.label2):
            if text.get_visible() and text.get_text().strip():
                out.append((float(loc), text))
    return out


def overlap(a: Bbox, b: Bbox, pad: float = PAD_PX) -> bool:
    return bool(a.x0 < b.x1 + pad and b.x0 < a.x1 + pad and a.y0 < b.y1 + pad and b.y0 < a.y1 + pad)


def _thin(axis: Any, renderer: Any) -> bool:
    """Drop labels until none overprints: the minor ones all at once, then every major
    one that touches the last one kept (the first and the last stay)."""
    major = [(v, t.get_window_extent(renderer)) for v, t in tick_labels(axis)]
    minor = [(v, t.get_window_extent(renderer)) for v, t in tick_labels(axis, minor=True)]
    if minor and _crowded(major + minor):
        axis.set_minor_formatter(NullFormatter())
        return True
    if not _crowded(major):
        return False
    along = 0 if axis.axis_name == "x" else 1
    major.sort(key=lambda vb: vb[1].get_points()[:, along].mean())
    kept = [major[0]]
    for v, box in major[1:]:
        if not overlap(kept[-1][1], box):
            kept.append((v, box))
    if kept[-1] is not major[-1] and len(kept) > 1:
        kept[-1] = major[-1]
    axis.set_major_locator(FixedLocator(sorted({v for v, _ in kept})))
    return True


def _crowded(labels: List[Tuple[float, Bbox]]) -> bool:
    return any(overlap(a, b) for i, (_, a) in enumerate(labels) for _, b in labels[i + 1:])


def hidden_under(ax: Any, box: Bbox, renderer: Any) -> List[Any]:
    """The data artists of `ax` (lines, markers, bands, error bars, notes) that `box`
    (in pixels) would cover."""
    out = []
    for line in ax.lines:
        if not line.get_visible():
            continue
        path = line.get_transform().transform_path(line.get_path())
        pad = line.get_markersize() * DPI / 72 / 2 if line.get_marker() not in (None, "None", "") else 0
        grown = box.padded(pad)
        joined = line.get_linestyle() not in ("None", "none", "", " ")
        v = path.vertices
        inside = (v[:, 0] >= grown.x0) & (v[:, 0] <= grown.x1) & (v[:, 1] >= grown.y0) & (v[:, 1] <= grown.y1)
        if inside.any() or (joined and path.intersects_bbox(grown, filled=False)):
            out.append(line)
    for coll in ax.collections:
        if not coll.get_visible():
            continue
        transform = coll.get_transform()
        filled = isinstance(coll, PolyCollection)
        if any(transform.transform_path(p).intersects_bbox(box, filled=filled) for p in coll.get_paths()):
            out.append(coll)
    out += [t for t in ax.texts if t.get_visible() and overlap(box, t.get_window_extent(renderer), 0)]
    return out


def _fits_inside(ax: Any, legend: Legend, renderer: Any) -> bool:
    """Put the legend in the first corner where it covers no data; False if none is free."""
    for corner in CORNERS:
        legend.set_loc(corner)  # type: ignore[arg-type]
        if not hidden_under(ax, legend.get_window_extent(renderer), renderer):
            return True
    return False


def _one_legend_for_equal_panels(fig: Figure) -> List[Legend]:
    """Panels whose legends say the same thing (the same schemes) share one, outside."""
    legends = [lg for lg in (ax.get_legend() for ax in fig.axes) if lg is not None]
    if len(legends) < 2:
        return []
    said = {(tuple(t.get_text() for t in lg.get_texts()), lg.get_title().get_text()) for lg in legends}
    if len(said) != 1:
        return []
    ax = next(ax for ax in fig.axes if ax.get_legend() is not None)
    handles, labels = ax.get_legend_handles_labels()
    title = legends[0].get_title().get_text()
    for lg in legends:
        lg.remove()
    shared = fig.legend(handles, labels, loc="outside right upper", frameon=False, title=title or None)
    return [shared]


def _widen_for(fig: Figure, legends: List[Legend], renderer: Any) -> None:
    """Widen the figure by the legends moved out of the axes, so that the axes keep
    their size: per column of panels, the widest legend beside it."""
    per_column: Dict[int, float] = {}
    for legend in legends:
        spec = legend.axes.get_subplotspec() if legend.axes is not None else None
        column = spec.colspan.start if spec is not None else -1
        width = legend.get_window_extent(renderer).width / fig.dpi
        per_column[column] = max(per_column.get(column, 0.0), width)
    w, h = fig.get_size_inches()
    fig.set_size_inches(w + sum(per_column.values()) + 0.15, h)


__all__ = ["drawn", "finish", "hidden_under", "overlap", "tick_labels"]
