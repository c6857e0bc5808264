"""`lossy bench`: the cost of a simulation on the standard scenarios, beside htsim and
ns-3 (our bulk-transfer programs in each, bench_anchors) and, with --compare, beside
another build of lossy.

Per row: one or two calibration runs size the row so that each process's event loop lasts at
least 1 s (bench_stats.scaled_size); then `pairs` rounds of fresh processes, every side
once per round (lossy, REF, htsim, ns-3, lossy, ...), the machine's load read before
each round. The primary figure is CPU time per delivered data packet, timed by each
simulator around its own event loop (lossy's `cpu_s`, the anchors' `loop_cpu_s`), so
imports and start-up are left out; ratios are taken within each round. A row that
fails keeps its error and the other rows still run; a side that fails is dropped from
its row with a note.
"""

from __future__ import annotations

import os
import re
from functools import partial
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from rich.console import Console
from rich.text import Text

from . import _core
from ._core import ScenarioError
from .bench_cases import BBR_COST_BOUND, SPEED_FLOOR, Case, describe, find_scenarios, scenario_file, standard_cases
from .bench_sides import AnchorSide, LossySide, SideError, this_build
from .bench_stats import TARGET_LOOP_S, machine_load, pair_ratios, round_order, scaled_size, spread
from .render import si

__all__ = ["Case", "find_scenarios", "run_bench", "failures", "select", "load_anchors", "report_table"]

# SACK's scoreboard must keep this share of the NewReno speed (issue 9); bench_cases has
# every row's floor (issue 29's: BBR within BBR_COST_BOUND× Reno's cost).
SACK_SPEED_FLOOR = SPEED_FLOOR


def select(cases: Sequence[Case], pattern: Optional[str]) -> List[Case]:
    """The cases whose label the regular expression `pattern` finds (case-insensitive)."""
    if not pattern:
        return list(cases)
    rx = re.compile(pattern, re.I)
    return [c for c in cases if rx.search(c.label)]


def load_anchors(wanted: bool, progress: Optional[Console]) -> Tuple[List[AnchorSide], List[str]]:
    """The anchors that can run here, and one note per one that cannot. bench_anchors
    (issue 28's anchors branch) is imported only here, so bench runs without it."""
    if not wanted:
        return [], []
    try:
        from . import bench_anchors  # type: ignore[attr-defined,unused-ignore]
    except ImportError as e:
        return [], [f"anchors: not available in this build ({e}); rows run without htsim and ns-3"]
    sides, notes = [], []
    for name in ("htsim", "ns3"):
        # An Anchor or a Skip, told apart by what they offer (the tests pass stand-ins).
        found: Any = bench_anchors.find(name, progress)
        if hasattr(found, "argv_for"):
            sides.append(AnchorSide(found))
            notes.append(f"{found.name}: {found.version}")
            if getattr(found, "warning", None):
                notes.append(f"{found.name}: {found.warning}")
        else:
            notes.append(f"{name}: skipped: {found.note}")
    return sides, notes


def run_bench(
    scenarios_dir: Path,
    pairs: int,
    quick: bool,
    anchors: Sequence[AnchorSide] = (),
    compare: Optional[LossySide] = None,
    rows: Optional[str] = None,
    progress: Optional[Console] = None,
    lossy: Optional[Any] = None,
    target_s: float = TARGET_LOOP_S,
) -> Dict[str, Any]:
    """Every selected row; `lossy` is the side measured against the others (default this
    build), `target_s` the loop time each row is sized for."""
    lossy = lossy or this_build()
    cases = select(standard_cases(quick), rows)
    out = []
    with tempfile.TemporaryDirectory(prefix="lossy-bench-") as tmp:
        for case in cases:
            out.append(_row(case, scenarios_dir, Path(tmp), pairs, lossy, compare, anchors, progress, target_s))
    notes = _speed_notes(out, cases) + _link_notes(out) + _short_notes(out, target_s) + _side_notes(out)
    if any(side.get("peak_rss_from") == "ru_maxrss" for row in out for side in row.get("sides", {}).values()):
        notes.append("peak memory: no VmHWM here (not Linux): ru_maxrss from wait4, which can include "
                     "the bench process's own peak")
    return {
        "lossy_version": _core.version(),
        "build_info": _core.build_info(),
        "pairs": pairs,
        "quick": quick,
        "rows_pattern": rows,
        "target_loop_s": target_s,
        "cpus": os.cpu_count(),
        "sides": {lossy.name: lossy.description,
                  **({compare.name: compare.description} if compare else {}),
                  **{a.name: str(a.anchor.version) for a in anchors}},
        "rows": out,
        "notes": notes,
    }


def _row(case: Case, scenarios_dir: Path, tmp: Path, pairs: int, lossy: Any, compare: Optional[LossySide],
         anchors: Sequence[AnchorSide], progress: Optional[Console], target_s: float) -> Dict[str, Any]:
    row: Dict[str, Any] = {"label": case.label, "overrides": case.overrides, "sides": {}, "ratios": {},
                           "side_errors": {}, "notes": []}
    try:
        base = case.at_size(case.base_size)
        row["scenario"] = describe(base, scenario_file(base, scenarios_dir, tmp))

        def lossy_at(size: float) -> float:
            _say(progress, f"{case.label}: calibrating lossy at {size:g} {case.size_unit}")
            at = case.at_size(size)
            return float(lossy.run(at, scenario_file(at, scenarios_dir, tmp))["loop_cpu_s"])

        size, steps = calibrate(lossy_at, case.base_size, target_s)
        sized = case.at_size(size)
        path = scenario_file(sized, scenarios_dir, tmp)
        row["size"] = {"value": size, "unit": case.size_unit, "calibration": steps}
        runners: Dict[str, Callable[[], Dict[str, Any]]] = {
            lossy.name: lambda: lossy.run(sized, path)}
        if compare is not None:
            ref = compare
            runners[ref.name] = lambda: ref.run(sized, path)
        if case.anchors is not None:
            for anchor in anchors:
                if case.anchors.sack and not getattr(anchor.anchor, "supports_sack", True):
                    row["notes"].append(f"{anchor.name} has no SACK: not run on this row")
                    continue
                sim_s = _anchor_sim_s(case, anchor, row, progress, target_s)
                if sim_s is not None:
                    runners[anchor.name] = partial(anchor.run, case, sim_s)
        samples, loads = _rounds(case.label, runners, pairs, row, progress)
        row["load"] = spread(loads) if loads else None
        row["cpus"] = os.cpu_count()
        for name, taken in samples.items():
            row["sides"][name] = _side_stats(taken)
        for name, taken in samples.items():
            if name == lossy.name:
                continue
            # A side without a CPU time (a REF from before cpu_s) is compared by wall
            # time on both sides, not its wall against our CPU.
            clock = "loop_cpu_s" if all(s["cpu_measured"] for s in taken) else "loop_wall_s"
            mine = [_cost_per_packet(s, clock) for s in samples[lossy.name]]
            theirs = [_cost_per_packet(s, clock) for s in taken]
            # Anchors: how many times lossy's cost theirs is; REF: this build's cost over REF's.
            ratios = pair_ratios(mine, theirs) if name == getattr(compare, "name", None) else pair_ratios(theirs, mine)
            row["ratios"][name] = {**spread(ratios), "per_pair": ratios, "clock": clock}
    except (ScenarioError, SideError, OSError) as e:
        row["error"] = " ".join(str(e).split())  # shown after the table
        row["sides"], row["ratios"] = {}, {}
    return row


def _anchor_sim_s(case: Case, anchor: AnchorSide, row: Dict[str, Any], progress: Optional[Console],
                  target_s: float) -> Optional[float]:
    """The anchor's simulated seconds for this row: fixed for a few (bench_cases says why),
    else calibrated as lossy's; None when its calibration run failed (the row keeps it)."""
    assert case.anchors is not None
    fixed = case.anchors.fixed_sim_s.get(anchor.name)
    if fixed is not None:
        row["notes"].append(f"{anchor.name} runs {fixed:g} s simulated (fixed: its cost per packet grows "
                            "with simulated time on this path)")
        return fixed

    def anchor_at(sim_s: float) -> float:
        _say(progress, f"{case.label}: calibrating {anchor.name} at {sim_s:g} s")
        return float(anchor.run(case, sim_s)["loop_cpu_s"])

    try:
        return calibrate(anchor_at, case.base_size, target_s)[0]
    except SideError as e:
        row["side_errors"][anchor.name] = " ".join(str(e).split())
        return None


def calibrate(loop_at: Callable[[float], float], base: float, target_s: float) -> Tuple[float, List[List[float]]]:
    """The size whose loop lasts target_s, and the (size, loop CPU s) runs that found it.
    A loop under a tenth of the target is too short to extrapolate from (timer and cache
    noise are a large part of it), so a second run at about a quarter of the target
    refines it."""
    loop = loop_at(base)
    steps = [[base, loop]]
    if loop < target_s / 10:
        base = scaled_size(base, loop, target_s / 4)
        loop = loop_at(base)
        steps.append([base, loop])
    return scaled_size(base, loop, target_s), steps


def _rounds(label: str, runners: Dict[str, Callable[[], Dict[str, Any]]], pairs: int, row: Dict[str, Any],
            progress: Optional[Console]) -> Tuple[Dict[str, List[Dict[str, Any]]], List[float]]:
    """Every side once per round, rounds one after another; the first side (this lossy)
    failing fails the row, another side failing drops that side alone."""
    names = list(runners)
    samples: Dict[str, List[Dict[str, Any]]] = {name: [] for name in names}
    loads: List[float] = []
    for i, name in round_order(names, pairs):
        if name == names[0]:
            load = machine_load()
            if load is not None:
                loads.append(load)
        if name in row["side_errors"]:
            continue
        _say(progress, f"{label}: pair {i + 1}/{pairs}, {name}")
        try:
            samples[name].append(runners[name]())
        except (SideError, ScenarioError) as e:
            if name == names[0]:
                raise
            row["side_errors"][name] = " ".join(str(e).split())
    return {n: s for n, s in samples.items() if n not in row["side_errors"]}, loads


def _cpu_per_packet(sample: Dict[str, Any]) -> float:
    """Microseconds of loop CPU time per delivered data packet."""
    return _cost_per_packet(sample, "loop_cpu_s")


def _cost_per_packet(sample: Dict[str, Any], clock: str) -> float:
    """Microseconds of the loop's `clock` (loop_cpu_s or loop_wall_s) per delivered data packet."""
    if not sample["delivered_packets"]:
        raise SideError("no data packet delivered: nothing to time per packet")
    return float(1e6 * sample[clock] / sample["delivered_packets"])


def _side_stats(samples: List[Dict[str, Any]]) -> Dict[str, Any]:
    """One side's figures over its samples (each a fresh process)."""
    first = samples[0]
    stats: Dict[str, Any] = {
        "samples": samples,
        "sim_time_s": first["sim_time_s"],
        "delivered_packets": first["delivered_packets"],
        "cpu_per_packet_us": spread([_cpu_per_packet(s) for s in samples]),
        "loop_cpu_s": spread([s["loop_cpu_s"] for s in samples]),
        "goodput_bps": spread([s["goodput_bps"] for s in samples])["median"],
        "cpu_measured": all(s["cpu_measured"] for s in samples),
        "peak_rss_bytes": max(s["peak_rss_bytes"] for s in samples),
        "peak_rss_from": first["peak_rss_from"],
    }
    if all(s["events"] for s in samples):
        stats["events_per_cpu_s"] = spread([s["events"] / s["loop_cpu_s"] for s in samples])
    if all(s.get("import_rss_bytes") for s in samples):
        # The run's part: the peak over what the process held after `import lossy` (the
        # modules a run imports on demand, NumPy today, included).
        stats["run_rss_bytes"] = max(s["peak_rss_bytes"] - s["import_rss_bytes"] for s in samples)
    if "link_transmissions" in first:
        stats["link_frames_per_cpu_s"] = spread([s["link_transmissions"] / s["loop_cpu_s"] for s in samples])
    for key in ("eln_state_bytes_per_flow_max", "eln_state_bytes_per_flow_mean"):
        if key in first:  # the state is deterministic: equal in every sample
            stats[key] = first[key]
    return stats


def _speed_notes(rows: List[Dict[str, Any]], cases: List[Case]) -> List[str]:
    """One line per row held to another's speed: its base row's CPU per packet over this
    one's (medians), against the row's floor (a cost bound, as BBR's 1.5×, is the floor
    1/bound and is named with it)."""
    by_label = {row["label"]: row for row in rows if "error" not in row}
    notes = []
    for case in cases:
        mine, base = by_label.get(case.label), by_label.get(case.speed_vs or "")
        if mine is None or base is None:
            continue
        ratio = base["sides"]["lossy"]["cpu_per_packet_us"]["median"] / mine["sides"]["lossy"]["cpu_per_packet_us"]["median"]
        verdict = "ok" if ratio >= case.speed_floor else "BELOW"
        floor = f"floor {case.speed_floor:.2g}×"
        if case.speed_floor == 1 / BBR_COST_BOUND:
            floor += f", cost ≤ {BBR_COST_BOUND:g}×"
        notes.append(f"{case.label}: {ratio:.2f}× the speed of {case.speed_vs} per delivered packet "
                     f"({floor}: {verdict})")
    return notes


def _link_notes(rows: List[Dict[str, Any]]) -> List[str]:
    """Link-layer frames per CPU second for the rows whose link layer sends them."""
    return [f"{row['label']}: {si(row['sides']['lossy']['link_frames_per_cpu_s']['median'], '').strip()} "
            "link-layer frames per CPU second (ARQ's link packets or 802.11 data frames, retransmissions included)"
            for row in rows if "error" not in row and "link_frames_per_cpu_s" in row["sides"]["lossy"]]


def _short_notes(rows: List[Dict[str, Any]], target_s: float) -> List[str]:
    """The sides whose loop came in under the target in some process."""
    notes = []
    for row in rows:
        for name, side in row.get("sides", {}).items():
            if side["loop_cpu_s"]["min"] < target_s:
                notes.append(f"{row['label']}: {name}'s loop took {side['loop_cpu_s']['min']:.2f} s CPU at least, "
                             f"under {target_s:g} s: timer and scheduling noise weigh more in it")
    return notes


def _side_notes(rows: List[Dict[str, Any]]) -> List[str]:
    notes = []
    for row in rows:
        notes += [f"{row['label']}: {n}" for n in row.get("notes", [])]
        notes += [f"{row['label']}: {name} dropped: {err}" for name, err in row.get("side_errors", {}).items()]
        notes += [f"{row['label']}: {name} timed by its wall_s (its summary has no cpu_s); its ratio compares "
                  "the wall times of both builds, which the machine's load moves"
                  for name, side in row.get("sides", {}).items() if not side["cpu_measured"]]
    return notes


def _say(progress: Optional[Console], text: str) -> None:
    if progress is not None:
        progress.print(Text(f"bench: {text}", style="dim"), highlight=False)


def failures(report: Dict[str, Any]) -> List[str]:
    """One line per row that failed: `<label>: <error>`."""
    return [f"{row['label']}: {row['error']}" for row in report["rows"] if "error" in row]


def report_table(report: Dict[str, Any]) -> Any:
    from .bench_table import report_table as table

    return table(report)

