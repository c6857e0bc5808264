"""Writing a run's packet captures (`lossy run --pcap DIR`): one pcap file per captured
link direction, as the core made it (docs/guide/captures.md), written atomically with
the store's mode (0644)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Dict, List, MutableMapping, Optional, Tuple

from .atomic import atomic_write
from .result import RunResult


def directions(doc: MutableMapping[str, Any]) -> Optional[List[str]]:
    """Every link direction of a scenario, named as the results' links table names them;
    None when `links` is not a list of tables whose `between` is two names: the core
    then says what is wrong with them (issue 27: this ran before validation and raised a
    raw TypeError or KeyError on malformed links)."""
    links = doc.get("links", [])
    if not isinstance(links, list):
        return None
    names: List[str] = []
    for link in links:
        between = link.get("between") if isinstance(link, dict) else None
        if not (isinstance(between, list) and len(between) == 2
                and all(isinstance(end, str) for end in between)):
            return None
        a, b = between
        names += [f"{a}->{b}", f"{b}->{a}"]
    return names


def capture_everything(doc: MutableMapping[str, Any]) -> None:
    """Capture every direction, unless the scenario's `capture.links` names some. A
    scenario whose links or capture table are malformed is left as it is, for the core
    to reject with the field's path."""
    table = doc.setdefault("capture", {})
    if isinstance(table, dict) and not table.get("links"):
        every = directions(doc)
        if every is not None:
            table["links"] = every


def file_name(link: str) -> str:
    """`BS->MH` -> `BS-to-MH.pcap`; characters other than letters, digits, `.`, `_` and
    `-` become `_`."""
    a, _, b = link.partition("->")
    return f"{_clean(a)}-to-{_clean(b)}.pcap"


def _clean(name: str) -> str:
    return re.sub(r"[^\w.-]", "_", name, flags=re.ASCII)


def write_captures(result: RunResult, out_dir: Path) -> List[Tuple[Path, int]]:
    """Write each capture to `out_dir`; returns (file, packets) per file written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: List[Tuple[Path, int]] = []
    seen: Dict[str, int] = {}
    for c in result.captures:
        name = file_name(c["link"])
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:  # two names cleaned to one: keep both files
            name = f"{name[:-5]}-{seen[name]}.pcap"
        path = out_dir / name
        data: bytes = c["pcap"]
        atomic_write(path, lambda f: f.write(data))
        written.append((path, int(c["packets"])))
    return written
