# Stub for the compiled module built from crates/lossy-py (kept honest by mypy.stubtest).
from typing import Any, final

__all__ = ["RunProgress", "ScenarioError", "build_info", "capture_example", "run", "schema", "trace_legend", "validate", "version"]

class ScenarioError(ValueError):
    """A scenario the core cannot run; the message is one line: `<field path>: <what is wrong>`."""

@final
class RunProgress:
    """How far a run has got: pass one to run(..., progress=p), read it from another thread."""

    def __init__(self) -> None: ...
    @property
    def sim_time_s(self) -> float:
        """Simulated time reached so far, in seconds."""
    @property
    def end_s(self) -> float:
        """The run's stop time in seconds (0 until the run has started)."""

def run(scenario_json: str, seed: int = 1, replication: int = 0,
        progress: RunProgress | None = None) -> dict[str, Any]:
    """Run one simulation (GIL released). Returns "summary" (a dict of scalars, with the
    goodput aggregates and "groups": {name: {key: value}}), "flows" and "links" (column
    name -> 1-D NumPy array, int64 or float64 with NaN for a missing value, or a list of
    str for text), "agents" (a list of dicts), "notes" (a list of str: one-line remarks
    on a valid run), "traces" (name -> column -> array) and
    "captures" (a list of {"link": str, "packets": int, "pcap": bytes}, one per link
    direction in the scenario's capture.links)."""

def capture_example() -> dict[str, Any]:
    """A capture of hand-made packets setting every field a capture shows, as
    {"link", "packets", "pcap"}: for tests of pcap readers."""

def validate(scenario_json: str) -> None:
    """Check a scenario without running it; raises ScenarioError if it cannot run."""

def schema() -> str:
    """The scenario JSON Schema, as JSON text."""

def version() -> str:
    """The lossy-core crate version."""

def trace_legend() -> dict[str, dict[str, list[str]]]:
    """What coded trace columns mean: {trace: {column: [name of code 0, 1, ...]}}."""

def build_info() -> dict[str, str]:
    """Versions of the core and of the crates that decide its random streams."""
