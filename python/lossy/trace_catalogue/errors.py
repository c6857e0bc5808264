"""The catalogue's errors. Each is a ScenarioError: bad input, one line (the command line
prints it as `lossy: ...` with status 2; a scenario's reference prefixes the field)."""

from __future__ import annotations

from .._core import ScenarioError


class CatalogueError(ScenarioError):
    """A trace the catalogue cannot give."""


class UnknownTrace(CatalogueError):
    """A name not in the catalogue (the message lists the close ones)."""


class ChecksumMismatch(CatalogueError):
    """A fetched or copied file whose SHA-256 is not the catalogue's (both sums named)."""


class TraceUnavailable(CatalogueError):
    """A file neither cached nor fetchable (the message names `lossy traces fetch NAME`)."""
