"""The kinds of figure a reproduction can show: line plots, tables, time series from
traces, CDFs, means in x and y, and multi-panel figures (see base.py for the protocol they share), each
scheme in its paper's palette (palette.py), laid out before saving (layout.py)."""

from .base import Artifact, Figure, Plot, render_plot, write_table
from .cdf import Cdf
from .line import LinePlot
from .means_xy import MeansXY
from .palette import Palette
from .panels import Panels
from .table import Table, table_of
from .timeseries import TimeSeries, moving_mean

__all__ = ["Artifact", "Cdf", "Figure", "LinePlot", "MeansXY", "Palette", "Panels", "Plot", "Table", "TimeSeries",
           "moving_mean", "render_plot", "table_of", "write_table"]
