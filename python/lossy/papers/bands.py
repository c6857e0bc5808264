"""Acceptance bands: what a paper's words allow our number to be, both ends finite.

A band is read from the source's words before any run, never fitted to ours. Three
ways to read one:

- the paper states a range ("30–80 per cent more"): `Band.between(1.3, 1.8, ...)`;
- the paper states a number ("12 times", "about 0.7"): `Band.stated(12, ...)`, the
  number ± STATED (relative), since a number read off a figure or rounded in the text
  carries about that much;
- the paper uses a word of likeness ("comparable", "almost no difference"):
  `Band.word("comparable")`, the one band per word of WORDS below, the same for every
  paper.

Only where the paper gives no magnitude at all ("higher", "best") may a band be open
on one side, and then it says so (`Band.above`/`Band.below`, direction-only); the report
still prints the magnitude we measured.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict

# Words of likeness -> the half-width of the band around equality: relative for a ratio
# (1 ± w), absolute for a difference of quantities on a 0–1 scale (0 ± w). Defined once,
# used by every paper. Why these widths: a curve read off a printed figure is good to a
# few per cent of its axis, so "the same" (no difference the authors could see) is ±5 %;
# "very close" admits a visible but small gap, twice that; "close", "comparable",
# "similar" and "roughly equal" admit a gap an author still calls alike, and about the
# largest a reader would not call "notable": ±20 %.
WORDS: Dict[str, float] = {
    "the same": 0.05,
    "almost no difference": 0.05,
    "no notable difference": 0.05,
    "negligible": 0.05,
    "as good as": 0.05,
    "very close": 0.10,
    "close": 0.20,
    "comparable": 0.20,
    "similar": 0.20,
    "roughly equal": 0.20,
}

# A number the paper states ("12 times", "about 0.7", "+10 %") holds to ±25 % of itself:
# the papers round their numbers and read them off figures of a few centimetres.
STATED = 0.25


class BadBand(ValueError):
    """A band that is not two-sided and finite (and not marked direction-only)."""


@dataclass(frozen=True)
class Band:
    """[low, high] for the quantity a claim measures, in `unit` ("×", "%", "" …), and
    how it was read from the paper's words."""

    low: float
    high: float
    reading: str  # how the words give these ends, e.g. '"30–80 per cent more": 1.3× to 1.8×'
    unit: str = "×"
    direction_only: bool = False  # one end open: the paper gives no magnitude

    def __post_init__(self) -> None:
        if math.isnan(self.low) or math.isnan(self.high) or not self.low < self.high:
            raise BadBand(f"band [{self.low}, {self.high}] must have low < high")
        open_ends = math.isinf(self.low) + math.isinf(self.high)
        if self.direction_only and open_ends != 1:
            raise BadBand("a direction-only band is open at exactly one end")
        if not self.direction_only and open_ends:
            raise BadBand(f"band [{self.low}, {self.high}] is open; only a direction-only claim may be")

    @classmethod
    def between(cls, low: float, high: float, reading: str, unit: str = "×") -> "Band":
        return cls(low, high, reading, unit)

    @classmethod
    def stated(cls, value: float, reading: str, unit: str = "×", tolerance: float = STATED) -> "Band":
        """The paper's number ± `tolerance` of itself."""
        a, b = value * (1 - tolerance), value * (1 + tolerance)
        return cls(min(a, b), max(a, b), f"{reading}: {fmt(value, unit)} ± {tolerance:.0%}", unit)

    @classmethod
    def word(cls, word: str, centre: float = 1.0, unit: str = "×", absolute: bool = False) -> "Band":
        """The one band of WORDS for `word`: centre × (1 ± w), or centre ± w when
        `absolute` (a difference on a 0–1 scale)."""
        if word not in WORDS:
            raise BadBand(f"no band for the word {word!r}; WORDS has: {', '.join(WORDS)}")
        w = WORDS[word]
        low, high = (centre - w, centre + w) if absolute else (centre * (1 - w), centre * (1 + w))
        spread = f"± {fmt(w, unit)}" if absolute else f"± {w:.0%}"
        return cls(low, high, f'"{word}": {fmt(centre, unit)} {spread}', unit)

    @classmethod
    def above(cls, threshold: float, reading: str, unit: str = "×") -> "Band":
        """Direction only: above `threshold`, where the paper gives no magnitude."""
        return cls(threshold, math.inf, reading, unit, direction_only=True)

    @classmethod
    def below(cls, threshold: float, reading: str, unit: str = "×") -> "Band":
        return cls(-math.inf, threshold, reading, unit, direction_only=True)

    @property
    def centre(self) -> float:
        """The middle of a two-sided band (the paper's magnitude); NaN when direction-only."""
        return math.nan if self.direction_only else (self.low + self.high) / 2

    def text(self) -> str:
        if math.isinf(self.high):
            return f"> {fmt(self.low, self.unit)} (direction only)"
        if math.isinf(self.low):
            return f"< {fmt(self.high, self.unit)} (direction only)"
        return f"{fmt(self.low, self.unit)} to {fmt(self.high, self.unit)}"

    def distance(self, x: float) -> float:
        """How far `x` lies outside the band (0 inside)."""
        return max(self.low - x, x - self.high, 0.0)


def fmt(x: float, unit: str) -> str:
    """A value in a band's unit: `1.3×`, `+2.0 %`, `0.70`."""
    if math.isnan(x):
        return "-"
    if unit == "%":
        return f"{x:+.1f} %"
    if unit == "×":
        return f"{x:.2f}×" if abs(x) < 100 else f"{x:.0f}×"
    digits = 3 if abs(x) < 1 else 4
    return f"{x:.{digits}g}{unit}"


__all__ = ["Band", "BadBand", "STATED", "WORDS", "fmt"]
