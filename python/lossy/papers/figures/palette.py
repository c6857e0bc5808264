"""One look per scheme across a paper's figures: a Palette gives each name its colour,
marker and display name, so Syndrome is the same blue circle in Fig. 10 and Fig. 12
whichever schemes a figure leaves out. Names a palette does not list (a figure's own
curves: "N_T 512, f_d 1 Hz") take the colours no listed name in the same figure has,
in the order the figure shows them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Mapping, Sequence, Tuple, Union

# matplotlib's tab10, spelled out so a changed rcParams cycle cannot reshuffle them; its
# grey last, as model curves and marks are grey.
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
           "#8c564b", "#e377c2", "#bcbd22", "#17becf", "#7f7f7f")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")


@dataclass(frozen=True)
class Palette:
    names: Sequence[Any] = ()  # the paper's schemes, in the order of its legends
    labels: Mapping[Any, str] = field(default_factory=dict)  # name -> how the legend says it
    # Another name of a listed scheme (Fig. 2's "Snoop+ELN" is Fig. 3's "Snoop+ELN, no
    # FEC"): it takes that one's look.
    same: Mapping[Any, Any] = field(default_factory=dict)

    def _index(self, value: Any) -> int:
        listed = list(self.names)
        value = self.same.get(value, value)
        return listed.index(value) if value in listed else -1

    def order(self, shown: Sequence[Any]) -> List[Any]:
        """The values `shown` in palette order, the unlisted ones after them in natural
        order (N_T 512 before N_T 1024): so two panels showing the same curves in a
        different data order give each the same look."""
        shown = list(dict.fromkeys(shown))
        listed = sorted((v for v in shown if self._index(v) >= 0), key=self._index)
        return listed + sorted((v for v in shown if self._index(v) < 0), key=natural)

    def styles(self, shown: Sequence[Any]) -> Callable[[Any], Dict[str, Any]]:
        """colour, marker and label of each value a figure shows (matplotlib keywords)."""
        shown = list(dict.fromkeys(shown))
        taken = {self._index(v) % len(COLOURS) for v in shown if self._index(v) >= 0}
        free = [i for i in range(len(COLOURS)) if i not in taken] or list(range(len(COLOURS)))
        others = [v for v in shown if self._index(v) < 0]

        def style(value: Any) -> Dict[str, Any]:
            i = self._index(value)
            if i < 0:
                if value not in others:
                    others.append(value)
                i = free[others.index(value) % len(free)]
            return {"color": COLOURS[i % len(COLOURS)], "marker": MARKERS[i % len(MARKERS)],
                    "label": self.labels.get(value, str(value))}
        return style


def natural(value: Any) -> Tuple[Tuple[int, Union[float, str]], ...]:
    """A sort key reading the numbers in a name as numbers: p_e 0.01 before p_e 0.1."""
    parts = re.split(r"(\d+(?:\.\d+)?)", str(value))
    return tuple((0, float(x)) if i % 2 else (1, x) for i, x in enumerate(parts) if x)


__all__ = ["COLOURS", "MARKERS", "Palette", "natural"]
