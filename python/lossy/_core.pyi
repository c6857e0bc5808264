# Stub for the compiled module built from crates/lossy-py (kept honest by mypy.stubtest).
from typing import Any

__all__ = ["ScenarioError", "build_info", "run", "schema", "validate", "version"]

class ScenarioError(ValueError):
    """A scenario the core cannot run; the message is one line: `<field path>: <what is wrong>`."""

def run(scenario_json: str, seed: int = 1, replication: int = 0) -> dict[str, Any]:
    """Run one simulation (GIL released) and return summary, flows, links, agents and traces."""

def validate(scenario_json: str) -> None:
    """Check a scenario without running it; raises ScenarioError if it cannot run."""

def schema() -> str:
    """The scenario JSON Schema, as JSON text."""

def version() -> str:
    """The lossy-core crate version."""

def build_info() -> dict[str, str]:
    """Versions of the core and of the crates that decide its random streams."""
