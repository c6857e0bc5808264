"""The catalogue traces a reproduction's sweeps read, and whether this machine can get
them: a reproduction on recorded traces (pantheon-emulators, cellular-bufferbloat) needs
files that never ship with lossy (issue 30: Mahimahi's are GPL-3+, the others carry no
licence). Without them, and without a mirror or the network to fetch them, the
reproduction is not run and says so in one line, rather than failing every run as a
defect; `lossy reproduce all` (and `make docs`) then goes on with the others."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator, List, Optional

from .model import Reproduction


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def catalogue_traces(repro: Reproduction) -> List[str]:
    """Every catalogue name (`collection:name`) in the sweeps' specs and in the scenario
    files they start from (whose own references are resolved when they load), in order."""
    from ..scenario import tomllib  # tomllib, or tomli before Python 3.11
    from ..trace_catalogue.references import capacity_tables
    from ..trace_catalogue.registry import is_catalogue_name

    found: List[str] = []
    for plan in repro.sweeps:
        scenario = plan.spec.get("scenario")
        if isinstance(scenario, str) and scenario.endswith(".toml") and Path(scenario).is_file():
            doc = tomllib.loads(Path(scenario).read_text(encoding="utf-8"))
            found += [str(t["trace"]) for t, _ in capacity_tables(doc) if isinstance(t.get("trace"), str)]
        found += [s for s in _strings(plan.spec) if is_catalogue_name(s)]
    return list(dict.fromkeys(found))


def unavailable(repro: Reproduction) -> Optional[str]:
    """None when every catalogue trace the reproduction reads is cached or can be fetched
    (from LOSSY_TRACE_MIRROR, else the network); else one line saying which are missing
    and how to get them. Stops at the first trace that cannot be fetched, so a machine
    without the network waits for one failed download, not one per trace."""
    from ..trace_catalogue.errors import TraceUnavailable
    from ..trace_catalogue.registry import entry
    from ..trace_catalogue.store import MIRROR_VARIABLE, is_cached, path

    names = catalogue_traces(repro)
    for i, name in enumerate(names):
        try:
            path(name)
        except TraceUnavailable:
            missing = [name] + [n for n in names[i + 1:] if not is_cached(entry(n))]
            return (f"{len(missing)} of its {len(names)} recorded traces are neither cached nor fetchable here: run "
                    f"`lossy traces fetch {' '.join(missing)}` where the network is reachable, or set "
                    f"{MIRROR_VARIABLE} to a local mirror of the traces")
    return None


__all__ = ["catalogue_traces", "unavailable"]
