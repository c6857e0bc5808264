"""Lines of a plot that hide one another: a line whose every point sits on an earlier
line's (Shagdar's ECN-Reno under Reno), or some of whose points do. "Sits on" means
within a share of the span of all the ys (of their logs on a log axis), closer than a
marker: one hides the other. lossy.plot draws such lines hollow and says so."""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

import numpy as np


def coinciding(lines: Sequence[Tuple[Any, Any]], log: bool = False,
               tolerance: float = 0.01) -> Dict[int, Tuple[int, bool]]:
    """Lines (xs, ys) that lie on an earlier one at every x: index -> (that one's index,
    whether they are equal exactly). "On" means within `tolerance` of the span of all
    the ys (of their logs on a log axis): closer than a marker, so one hides the other."""
    values, span = _on_axis(lines, log)
    found: Dict[int, Tuple[int, bool]] = {}
    for i in range(1, len(lines)):
        for j in range(i):
            if j in found or not _same_xs(lines[i][0], lines[j][0]):
                continue
            a, b = np.asarray(lines[i][1], dtype=float), np.asarray(lines[j][1], dtype=float)
            if np.array_equal(a, b, equal_nan=True):
                found[i] = (j, True)
                break
            d = np.abs(values[i] - values[j])
            if span > 0 and np.all(np.isfinite(d)) and float(d.max()) <= tolerance * span:
                found[i] = (j, False)
                break
    return found


def hidden_points(lines: Sequence[Tuple[Any, Any]], log: bool = False, tolerance: float = 0.01) -> List[Any]:
    """Per line, which of its points lie on a point of an earlier line at the same x
    (as in `coinciding`): its marker would cover that one's."""
    values, span = _on_axis(lines, log)
    out = []
    for i, (xs, _) in enumerate(lines):
        mask = np.zeros(len(xs), dtype=bool)
        for j in range(i):
            at = {x: v for x, v in zip(lines[j][0], values[j])}
            mask |= np.array([x in at and abs(v - at[x]) <= tolerance * span
                              for x, v in zip(xs, values[i])], dtype=bool)
        out.append(mask)
    return out


def _on_axis(lines: Sequence[Tuple[Any, Any]], log: bool) -> Tuple[List[Any], float]:
    """The ys as the axis spaces them (logs on a log axis), and their span."""
    def scaled(ys: Any) -> Any:
        ys = np.asarray(ys, dtype=float)
        if not log:
            return ys
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(ys > 0, np.log10(np.where(ys > 0, ys, 1.0)), np.nan)
    values = [scaled(ys) for _, ys in lines]
    finite = np.concatenate([v[np.isfinite(v)] for v in values]) if values else np.empty(0)
    return values, float(finite.max() - finite.min()) if finite.size else 0.0


def _same_xs(a: Any, b: Any) -> bool:
    return len(a) == len(b) and len(a) > 0 and all(x == y for x, y in zip(a, b))


__all__ = ["coinciding", "hidden_points"]
