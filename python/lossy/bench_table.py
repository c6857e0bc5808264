"""`lossy bench`, the table: one line per row for this lossy, and under it one line per
other side (REF, htsim, ns-3) with its ratio. Fits in 120 columns."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from rich import box
from rich.table import Table

from .render import si

COLUMNS = ["scenario / side", "simulated", "µs CPU / pkt\nmin/median/max", "events /\nCPU s",
           "peak MiB\n(run)", "goodput", "ratio\nmin/median/max", "load\nmin–max"]


def report_table(report: Dict[str, Any]) -> Table:
    quick = " (quick)" if report["quick"] else ""
    table = Table(
        title=(f"lossy {report['lossy_version']} bench{quick}: {report['pairs']} interleaved rounds of fresh "
               f"processes, each loop ≥ {report['target_loop_s']:g} s CPU where it could be"),
        title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True,
        caption=(
            "µs CPU / pkt: each simulator's CPU time in its own event loop per delivered data packet; "
            "ratio: for an anchor, its CPU per packet ÷ lossy's (how many times faster lossy is); for REF, "
            "this build's ÷ REF's (above 1: this build is slower); both taken within each round. "
            "peak: the process's own VmHWM (run: what the run added after `import lossy`, modules it imports included). load: 1-minute load average "
            f"before each round, on {report['cpus']} CPUs. w: timed by wall_s (a REF without cpu_s; its ratio is then of wall times on both sides). "
            "Every sample: --json."),
        caption_justify="left",
    )
    ratios = any(row.get("ratios") for row in report["rows"])
    columns = [c for c in COLUMNS if ratios or not c.startswith("ratio")]
    for name in columns:
        table.add_column(name, justify="left" if name.startswith("scenario") else "right", no_wrap=True)
    for row in report["rows"]:
        if "error" in row:  # its one line comes after the table (bench.failures)
            table.add_row(row["label"], "failed", *["-"] * (len(columns) - 2))
            continue
        for i, (name, side) in enumerate(row["sides"].items()):
            label = row["label"] if i == 0 else f"  {_side_label(name)}"
            ratio = row["ratios"].get(name)
            cells = [
                label,
                _simulated(side),
                _spread(side["cpu_per_packet_us"], "") + ("" if side["cpu_measured"] else " w"),
                si(side["events_per_cpu_s"]["median"], "").strip() if "events_per_cpu_s" in side else "-",
                _memory(side),
                si(side["goodput_bps"], "b/s"),
                *([_spread(ratio, "×") if ratio else ""] if ratios else []),
                _load(row["load"]) if i == 0 else "",
            ]
            table.add_row(*cells, end_section=len(row["sides"]) > 1 and i == len(row["sides"]) - 1)
    return table


def _side_label(name: str) -> str:
    return {"ns3": "ns-3"}.get(name, name)


def _simulated(side: Dict[str, Any]) -> str:
    return f"{side['sim_time_s']:,.0f} s" if side["sim_time_s"] >= 10 else f"{side['sim_time_s']:.2g} s"


def _spread(s: Optional[Dict[str, float]], unit: str) -> str:
    if s is None:
        return "-"
    return f"{_g(s['min'])}/{_g(s['median'])}/{_g(s['max'])}{unit}"


def _g(x: float) -> str:
    """Three significant digits, no exponent for the values a bench shows."""
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _memory(side: Dict[str, Any]) -> str:
    peak = f"{side['peak_rss_bytes'] / 2**20:.1f}"
    run = side.get("run_rss_bytes")
    return f"{peak} ({run / 2**20:.1f})" if run is not None else peak


def _load(load: Optional[Dict[str, float]]) -> str:
    return f"{load['min']:.1f}–{load['max']:.1f}" if load else "-"


def eln_lines(report: Dict[str, Any]) -> List[str]:
    """The ELN agent's state per flow, for the rows that have one."""
    lines = []
    for row in report["rows"]:
        side = row.get("sides", {}).get("lossy", {})
        if "eln_state_bytes_per_flow_max" in side:
            lines.append(f"{row['label']}: the ELN agent holds {side['eln_state_bytes_per_flow_max']:.1f} bytes per "
                         f"flow at most ({side['eln_state_bytes_per_flow_mean']:.1f} on average)")
    return lines


MARKDOWN_COLUMNS = ["scenario / side", "simulated", "µs CPU / pkt (min/median/max)", "events / CPU s",
                    "peak MiB (run)", "goodput", "ratio (min/median/max)", "load (min–max)"]


def markdown(report: Dict[str, Any]) -> str:
    """The table as Markdown, for a README or a paper (`lossy bench --markdown`): a line
    per row and, under it, `· <side>` per other side, then the notes as a list."""
    lines = ["| " + " | ".join(MARKDOWN_COLUMNS) + " |", "|" + " --- |" * len(MARKDOWN_COLUMNS)]
    for row in report["rows"]:
        if "error" in row:
            lines.append(f"| {row['label']} | failed |" + " - |" * (len(MARKDOWN_COLUMNS) - 2))
            continue
        for i, (name, side) in enumerate(row["sides"].items()):
            ratio = row["ratios"].get(name)
            cells = [
                row["label"] if i == 0 else f"· {_side_label(name)}",
                _simulated(side),
                _spread(side["cpu_per_packet_us"], "") + ("" if side["cpu_measured"] else " w"),
                si(side["events_per_cpu_s"]["median"], "").strip() if "events_per_cpu_s" in side else "-",
                _memory(side),
                si(side["goodput_bps"], "b/s").strip(),
                _spread(ratio, "×") if ratio else "",
                _load(row["load"]) if i == 0 else "",
            ]
            lines.append("| " + " | ".join(cells) + " |")
    notes = report["notes"] + eln_lines(report)
    return "\n".join(lines + ([""] + [f"- {note}" for note in notes] if notes else [])) + "\n"
