"""One entry of the bad-input catalogue: an input and the answer it must get."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Tuple


@dataclass(frozen=True)
class BadInput:
    """A mistaken or hostile input and what `lossy` must answer.

    Either `argv` (the `lossy` command's arguments) or `python` (statements run by the
    package's interpreter, for the Python API). `{tmp}` in either is replaced by the case's
    own empty directory, where `files` are written first and which is the working
    directory. The answer: exit status `status`; for 2, exactly one line on stderr,
    `lossy: ...` (the API's `ScenarioError` message for `python`), containing every
    fragment of `says`; for a `warning`, status 0 and one `lossy: warning: ...` line with
    them. Never a traceback or a panic, and never a line longer than the limit the
    catalogue sets (long values are cut with an ellipsis).
    """

    name: str
    says: Tuple[str, ...]
    argv: Tuple[str, ...] = ()
    python: str = ""
    files: Mapping[str, str] = field(default_factory=dict)
    status: int = 2
    warning: bool = False
    # Where it comes from: issue 27's words ("silent: ...", "weak: ...", "fuzz: ...").
    source: str = ""
