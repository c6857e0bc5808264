"""Values cut to a bounded length for error messages (issue 27: a 10,000-character
value came back whole in the error line, 116 fuzzed cases). A message names the value
it refuses; past `LONGEST_VALUE` characters it shows the start and an ellipsis."""

from __future__ import annotations

from typing import Any

LONGEST_VALUE = 80
# A path is worth more of the line: temporary directories alone run to 80 characters.
LONGEST_PATH = 200


def shorten(value: Any, limit: int = LONGEST_VALUE) -> str:
    """`value` as text, cut to `limit` characters with "…" when longer."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def short_repr(value: Any, limit: int = LONGEST_VALUE) -> str:
    """`repr(value)`, cut as `shorten` cuts."""
    return shorten(repr(value), limit)


def short_path(path: Any) -> str:
    """A file name in a message: whole up to LONGEST_PATH characters."""
    return shorten(path, LONGEST_PATH)
