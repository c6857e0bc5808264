"""`lossy ns3`: run (or read) ns-3's side and lossy's side of each set-up and
print and write the table. ns-3 missing: its stored reference stands in, with one line
saying so. A set-up lossy cannot run yet (a congestion control or queue it lacks): one
line naming the scenario's error, and that set-up's lossy column stays empty."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .._core import ScenarioError
from . import compare, fairness, lossy_side, ns3_side, queues, reference, traces
from .setups import SETUPS, SetUp, points


def chosen(names: Optional[Sequence[str]]) -> List[SetUp]:
    for name in names or []:
        if name not in SETUPS:
            raise ScenarioError(f"--setup: no set-up {name!r}; known: {', '.join(SETUPS)}")
    return [SETUPS[n] for n in (names or SETUPS)]


def ns3_runs(setups: List[SetUp], quick: bool, stored: bool, say: Any) -> List[Dict[str, Any]]:
    """ns-3's runs: made (or read from the cache) when ns-3 can be built, else the stored ones."""
    found = None if stored else ns3_side.find(say)
    if not isinstance(found, ns3_side.Ns3):
        why = "--stored" if found is None else found.note
        source = (reference.provenance() or ["no stored reference"])[0]
        say(f"ns-3: {why}; its column is the stored reference ({source})")
        wanted = {(s.name, cc, round(p, 9), seed) for s in setups for cc, p, seed in points(s, quick)}
        return [r for r in reference.read() if (r["setup"], r["cc"], round(r["p"], 9), int(r["seed"])) in wanted]
    runs: List[Dict[str, Any]] = []
    for setup in setups:
        todo = points(setup, quick)
        say(f"ns-3: {len(todo)} runs of {setup.name} (cached ones are read, not rerun)")
        runs += ns3_side.run_setup(found, setup, todo)
    return runs


def lossy_runs(setups: List[SetUp], quick: bool, say: Any) -> List[Dict[str, Any]]:
    """lossy's runs, a congestion control at a time: one it cannot run is one line."""
    runs: List[Dict[str, Any]] = []
    for setup in setups:
        todo = points(setup, quick)
        say(f"lossy: {len(todo)} runs of {setup.name}")
        for cc in setup.ccs:
            try:
                runs += lossy_side.run_setup(setup, [point for point in todo if point[0] == cc])
            except ScenarioError as e:
                say(f"lossy: {setup.name} {cc} cannot run with this lossy ({setup.scenario.name}): {e}")
    return runs


def compare_ns3(names: Optional[Sequence[str]], quick: bool, stored: bool, write_reference: bool,
                out: Path, say: Any) -> Tuple[List[Dict[str, Any]], str]:
    """The goodput table's rows and the window table (markdown), also written to
    out/ns3-compare.{csv,md}."""
    setups = chosen(names)
    if write_reference and (stored or quick or len(setups) != len(SETUPS)):
        raise ScenarioError("--write-reference: needs every set-up at full scale from ns-3 itself "
                            "(no --setup, --quick or --stored)")
    ns3 = ns3_runs(setups, quick, stored, say)
    if write_reference:
        found = ns3_side.find(say)
        if not isinstance(found, ns3_side.Ns3):  # ns3_runs fell back to the stored runs
            raise ScenarioError(f"--write-reference: needs ns-3 itself: {found.note}")
        say(f"wrote {reference.write(ns3, found.version)}")
        say(f"wrote {traces.write(found.binary, found.version)}")
    theirs = lossy_runs(setups, quick, say)
    table = compare.rows(ns3, theirs)
    window = compare.windows(ns3, theirs)
    window += "\n" + queues.markdown(ns3, theirs)  # the bottleneck queue, each side
    shared = fairness.rows(ns3, theirs)
    if shared:  # several flows through one bottleneck: each flow's goodput and Jain's index
        window += "\n" + fairness.markdown(shared)
    notes = [f"ns-3 3.44: python/lossy/anchors/ns3/cc.cc; lossy: the set-ups' scenarios "
             f"(python/lossy/ns3cc/setups.py); {'quick (3 seeds)' if quick else 'full'}"]
    for path in compare.write(table, out, notes, window):
        say(f"wrote {path}")
    return table, window
