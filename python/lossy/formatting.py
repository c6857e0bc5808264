"""Numbers as a person reads them: SI prefixes, seconds, counts, signed percentages,
means with their interval, and cells of a markdown table.

The one copy of each formatter; the terminal tables (render), the reproductions'
reports (papers) and the plots' axis labels (plot) all use these. Plain Python only, so
importing it costs nothing.
"""

from __future__ import annotations

import json
import math
from typing import Any, Iterable, Optional, Tuple

_SI = [(1e9, "G"), (1e6, "M"), (1e3, "k")]

# Metric name suffixes (as the core names its summary fields) -> the unit they carry.
UNITS = {"_bps": "b/s", "_s": "s", "_bytes": "B", "_segments": "segments", "_packets": "packets"}


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def si(value: Optional[float], unit: str, digits: int = 3) -> str:
    """`1234567, "b/s"` -> `1.23 Mb/s`; None or NaN -> `-`."""
    if value is None or _missing(value):
        return "-"
    for scale, prefix in _SI:
        if abs(value) >= scale:
            return f"{value / scale:.{digits}g} {prefix}{unit}"
    return f"{value:.{digits}g} {unit}"


def seconds(value: Optional[float]) -> str:
    """`0.0523` -> `52.3 ms`, `30000` -> `30,000 s`; None -> `-`."""
    if value is None or _missing(value):
        return "-"
    if abs(value) >= 1e4:
        return f"{value:,.0f} s"  # never "3e+04 s"
    if value == 0 or abs(value) >= 1:
        return f"{value:.4g} s"
    if abs(value) >= 1e-3:
        return f"{value * 1e3:.3g} ms"
    return f"{value * 1e6:.3g} µs"


def count(value: Any) -> str:
    if value is None or _missing(value):
        return "-"
    if isinstance(value, float):
        return f"{value:,.1f}" if not value.is_integer() else f"{int(value):,}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def number(value: Optional[float], digits: int = 3) -> str:
    """`3.14159` -> `3.14`; `4151.7` -> `4,152` (no exponent for large values)."""
    if value is None or _missing(value):
        return "-"
    if abs(value) >= 10**digits:
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def pct(x: Optional[float]) -> str:
    """A signed relative deviation: `0.015` -> `+1.5 %`, `-0.1` -> `−10.0 %`."""
    if x is None or _missing(x):
        return "-"
    return f"{x * 100:+.1f} %".replace("-", "−")


def tolerance(x: float) -> str:
    """`0.12` -> `±12 %`."""
    return f"±{x * 100:.0f} %"


def mean_ci(mean: float, half: float, scale: float = 1e6, digits: int = 3) -> str:
    """A mean and its CI half-width in units of `scale`: `1.241 ± 0.046` (Mb/s by
    default); the mean alone when there is no interval (one run)."""
    if _missing(mean):
        return "-"
    if _missing(half):
        return f"{mean / scale:.{digits}f}"
    return f"{mean / scale:.{digits}f} ± {half / scale:.{digits}f}"


def values(xs: Iterable[Any]) -> str:
    """`[0.01, 0.02]` -> `0.01, 0.02`."""
    return ", ".join(f"{x:g}" if isinstance(x, float) else str(x) for x in xs)


def value(v: Any) -> str:
    """A spec value as it would be written: strings bare, tables and lists as JSON."""
    if isinstance(v, str):
        return v
    if isinstance(v, (dict, list, bool)):
        return json.dumps(v)
    return f"{v:g}" if isinstance(v, float) else str(v)


def cell(v: Any) -> str:
    """One cell of a markdown table: floats short, whitespace folded, pipes escaped."""
    if isinstance(v, float):
        v = "-" if math.isnan(v) else f"{v:g}"
    return " ".join(str(v).split()).replace("|", "\\|")


def quantity(value: Optional[float], unit: Optional[str]) -> str:
    """A value in its unit, readable: b/s and B with an SI prefix (1.23 Mb/s), seconds
    as seconds() does, anything else as number() (for `lossy results` and reports)."""
    if unit == "s":
        return seconds(value)
    if unit in ("b/s", "B"):
        return si(value, unit)
    text = number(value)
    return f"{text} {unit}" if unit and text != "-" else text


def unit_of(metric: str) -> Optional[str]:
    """The unit a metric's name carries by its suffix (`flows.0.goodput_bps` -> `b/s`)."""
    for suffix, unit in UNITS.items():
        if metric.endswith(suffix):
            return unit
    return None


def prefix_for(top: float) -> Tuple[float, str]:
    """The SI scale and prefix for numbers up to `top`: 2.1e6 -> (1e6, "M")."""
    for scale, prefix in _SI:
        if math.isfinite(top) and abs(top) >= scale:
            return scale, prefix
    return 1.0, ""


def label(name: str, unit: Optional[str]) -> str:
    """An axis label: `goodput (Mb/s)`; the bare name only when there is no unit."""
    return f"{name} ({unit})" if unit else name
