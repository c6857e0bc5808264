"""`lossy bench`: speed and memory of the simulator on the standard scenarios, and beside
ns-3 (shared/anchors/ns3) on the same path when that anchor is built.

Every measurement runs in a fresh process so that its peak resident memory (read with
wait4) is its own. The core times its own event loop (wall_s) and ns-3's anchor times
Simulator::Run() alone, so both rates leave out process start-up and imports. A row that
fails keeps its error and the other rows still run.
"""

from __future__ import annotations

import errno
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from rich.console import Console
from rich.table import Table
from rich.text import Text

from . import _core
from ._core import ScenarioError
from .render import number, seconds, si

# What the child process runs: one lossy.run, reported as one JSON line.
_CHILD = r"""
import json, sys
import lossy
args = json.loads(sys.argv[1])
try:
    r = lossy.run(args["path"], seed=args["seed"], overrides=args["overrides"])
except lossy.ScenarioError as e:
    print(json.dumps({"error": str(e)}))
    sys.exit(2)
s = r.raw["summary"]
keep = ("sim_time_s", "events", "wall_s", "events_per_s", "sim_s_per_wall_s", "packets_delivered")
out = {k: s[k] for k in keep}
# Bytes over the whole run: a flow's own goodput_bps is over its active time, and flows
# that start late would make the sum exceed the link.
out["goodput_bps"] = 8 * sum(f["bytes_delivered"] for f in r.flows) / s["sim_time_s"]
# Link-layer frames (ARQ's link packets, retransmissions included), where a link layer sends them.
frames = sum(link["link_transmissions"] for link in r.links)
if frames:
    out["link_transmissions"] = frames
eln = [a for a in r.agents if a["kind"] == "eln"]
if eln and r.flows:
    out["eln_state_bytes_per_flow_max"] = eln[0]["state_bytes_max"] / len(r.flows)
    out["eln_state_bytes_per_flow_mean"] = eln[0]["state_bytes_mean"] / len(r.flows)
print(json.dumps(out))
"""


@dataclass
class Case:
    label: str
    scenario: str  # file name in the scenarios directory, or a generator's name
    overrides: Dict[str, Any] = field(default_factory=dict)
    ns3_args: Optional[List[str]] = None  # the same configuration in shared/anchors/ns3/bulk.cc
    generate: Optional[Dict[str, Any]] = None  # arguments of generate.base_station, instead of a file
    speed_vs: Optional[str] = None  # the label of a row whose speed this one is held to


def _with_sack(case: Case) -> Case:
    """The same path with SACK (RFC 6675) on both sides, held to the NewReno row's speed."""
    assert case.ns3_args is not None
    return Case(f"{case.label} SACK", case.scenario, {**case.overrides, "flows.0.tcp.variant": "sack"},
                case.ns3_args + ["--sack=1"], speed_vs=case.label)


def standard_cases(quick: bool) -> List[Case]:
    """The standard scenarios; ns3-compare at 2 and 100 Mbps as in the anchor's README
    (p = 0.01 on the last hop, 100 s simulated; 20 s with --quick, on both sides); and
    the scale case, 10,000 bulk flows through one base station (1,000 with --quick)."""
    sim_s = 20 if quick else 100
    hosts = 1_000 if quick else 10_000
    common = {"links.1.loss.p": 0.01, "duration": f"{sim_s} s"}
    ns3_common = ["--p=0.01", f"--simTime={sim_s}", "--run=1"]
    slow = Case("ns3-compare 2 Mbps", "ns3-compare.toml",
                {**common, "links.0.rate": "10 Mbps", "links.1.rate": "2 Mbps"},
                ns3_common + ["--rate=2Mbps", "--wiredRate=10Mbps"])
    fast = Case("ns3-compare 100 Mbps", "ns3-compare.toml",
                {**common, "links.0.rate": "1 Gbps", "links.1.rate": "100 Mbps"},
                ns3_common + ["--rate=100Mbps", "--wiredRate=1Gbps"])
    return [
        Case("one-hop", "one-hop.toml"),
        Case("last-hop", "last-hop.toml"),
        slow, _with_sack(slow), fast, _with_sack(fast),
        # Chockalingam's link: Rayleigh fading per bit at 20 dB and 10 Hz, 32-byte link
        # packets in BCH(255,131) codewords, 16 attempts each; TCP Tahoe, 1024-byte packets.
        Case("fading + BCH(255,131) + ARQ", "chockalingam.toml",
             {"duration": f"{sim_s} s", "links.0.loss.mean_snr_db": 20, "links.0.loss.doppler_hz": 10,
              "links.0.link_layer": {"kind": "arq", "payload": "32 B", "attempts": 16,
                                     "coding": {"code": "bch", "n": 255, "k": 131}}}),
        # Shagdar's topology 1: TCP from a station over an 802.11b WLAN (DCF with RTS/CTS,
        # retries) and a wire, DPSK errors at the SNR; EWLN where it matters (9-10 dB: at
        # 8.5 dB almost no frame gets through and a run delivers nothing to time).
        Case("802.11b WLAN, 9.5 dB, EWLN", "shagdar-t1.toml",
             {"duration": f"{sim_s} s", "wlans.0.loss.snr_db": 9.5, "wlans.0.ewln": True, "flows.0.tcp.ewln": True}),
        Case("802.11b WLAN, 11.5 dB", "shagdar-t1.toml", {"duration": f"{sim_s} s", "wlans.0.loss.snr_db": 11.5}),
        # Botoș's path: a FECTCP transfer over a 1 Mbit/s hop at 10 % segment loss, its
        # decoding by the measured RaptorQ model (the fast mode); it ends when decoded.
        Case("FECTCP, 1 Mbit/s, 10 % loss", "botos.toml",
             {"links.2.loss.p": 0.1, "flows.0.fectcp": {}, "flows.0.app.size": f"{2 if quick else 10} MB"}),
        # Flows start 0.1 ms apart, so all of them run for at least 9 of the 10 s.
        Case(f"{hosts:,} flows via one BS{' (quick)' if quick else ''}", "base_station",
             generate={"hosts": hosts, "duration": "10 s", "stagger": "0.1 ms", "eln": True}),
    ]


def find_scenarios(given: Optional[Path]) -> Path:
    from .shipped import scenarios_dir

    candidates = [given] if given else [scenarios_dir()]  # package data, from any directory
    for path in candidates:
        if path is not None and path.is_dir():
            return path
    raise FileNotFoundError(errno.ENOENT, "no scenarios directory; pass --scenarios DIR",
                            str(candidates[0]))


def ns3_binary() -> Path:
    root = Path(os.environ.get("LOSSY_ANCHORS", "~/.cache/lossy-anchors")).expanduser()
    return root / "ns3" / "bulk"


def run_bench(
    scenarios_dir: Path,
    repeat: int,
    quick: bool,
    with_ns3: bool,
    progress: Optional[Console] = None,
) -> Dict[str, Any]:
    ns3 = ns3_binary()
    use_ns3 = with_ns3 and os.access(ns3, os.X_OK)
    notes: List[str] = []
    if with_ns3 and not use_ns3:
        notes.append(f"ns-3 anchor not found at {ns3}: build it with shared/anchors/ns3/build.sh "
                     "(see its README; set LOSSY_ANCHORS to look elsewhere). bench never builds it.")
    # What a Python process holds before any run, to read the peak RSS column against.
    _say(progress, "baseline: import lossy")
    _, baseline_rss, _, _ = _spawn([sys.executable, "-c", "import lossy"])
    rows = []
    with tempfile.TemporaryDirectory(prefix="lossy-bench-") as tmp:
        for case in standard_cases(quick):
            path = _scenario_file(case, scenarios_dir, Path(tmp))
            row: Dict[str, Any] = {"label": case.label, "scenario": _describe(case, path),
                                   "overrides": case.overrides}
            try:
                row.update(_measure_lossy(case, path, repeat, progress))
                if use_ns3 and case.ns3_args is not None:
                    anchor = _measure_ns3(case, ns3, repeat, progress)
                    row["ns3"] = anchor
                    row["ratio_packets_per_wall_s"] = row["packets_per_wall_s"] / anchor["packets_per_wall_s"]
            except (ScenarioError, RuntimeError) as e:
                row["error"] = " ".join(str(e).split())  # shown after the table
            rows.append(row)
    notes += _speed_notes(rows, standard_cases(quick)) + _link_notes(rows)
    return {
        "lossy_version": _core.version(),
        "build_info": _core.build_info(),
        "repeat": repeat,
        "quick": quick,
        "ns3_binary": str(ns3) if use_ns3 else None,
        "baseline_rss_bytes": baseline_rss,
        "rows": rows,
        "notes": notes,
    }


# SACK's scoreboard must not cost more than this share of the NewReno speed (issue 9).
SACK_SPEED_FLOOR = 0.7


def _speed_notes(rows: List[Dict[str, Any]], cases: List[Case]) -> List[str]:
    """One line per row held to another's speed: the ratio of delivered packets per wall
    second, against the floor."""
    by_label = {row["label"]: row for row in rows if "error" not in row}
    notes = []
    for case in cases:
        mine, base = by_label.get(case.label), by_label.get(case.speed_vs or "")
        if mine is None or base is None:
            continue
        ratio = mine["packets_per_wall_s"] / base["packets_per_wall_s"]
        verdict = "ok" if ratio >= SACK_SPEED_FLOOR else "BELOW"
        notes.append(f"{case.label}: {ratio:.2f}× the speed of {case.speed_vs} "
                     f"(floor {SACK_SPEED_FLOOR}×: {verdict})")
    return notes


def _link_notes(rows: List[Dict[str, Any]]) -> List[str]:
    """Link-layer frames per wall second for the rows whose link layer sends them."""
    return [f"{row['label']}: {si(row['link_packets_per_wall_s'], '').strip()} link-layer frames per wall second "
            "(ARQ's link packets or 802.11 data frames, retransmissions included)"
            for row in rows if "link_packets_per_wall_s" in row]


def _scenario_file(case: Case, scenarios_dir: Path, tmp: Path) -> Path:
    """The file the child runs: a shipped scenario, or a generated one written to tmp,
    so that both take the same path through the child."""
    if case.generate is not None:
        from .generate import base_station, to_toml

        path = tmp / f"{case.scenario}-{case.generate['hosts']}.toml"
        path.write_text(to_toml(base_station(**case.generate)), encoding="utf-8")
        return path
    path = scenarios_dir / case.scenario
    if not path.is_file():
        raise FileNotFoundError(errno.ENOENT, "no such scenario file", str(path))
    return path


def _describe(case: Case, path: Path) -> str:
    if case.generate is None:
        return str(path)
    args = ", ".join(f"{k}={v!r}" for k, v in case.generate.items())
    return f"lossy.generate.{case.scenario}({args})"


def _measure_lossy(case: Case, path: Path, repeat: int, progress: Optional[Console]) -> Dict[str, Any]:
    samples, peaks = [], []
    arg = json.dumps({"path": str(path), "seed": 1, "overrides": case.overrides})
    for i in range(repeat):
        _say(progress, f"lossy  {case.label} ({i + 1}/{repeat})")
        out, peak, code, err = _spawn([sys.executable, "-c", _CHILD, arg])
        reply = _last_json_line(out)
        if code == 2 and reply and "error" in reply:
            given = f" with {case.overrides}" if case.overrides else ""
            raise ScenarioError(f"{case.scenario}{given}: {reply['error']}")
        if code != 0 or reply is None:
            raise RuntimeError(f"exit {code}: {_last_line(err)}")
        samples.append(reply)
        peaks.append(peak)
    result: Dict[str, Any] = {
        "sim_time_s": samples[0]["sim_time_s"],
        "wall_s": statistics.median(s["wall_s"] for s in samples),
        "goodput_bps": statistics.median(s["goodput_bps"] for s in samples),
        "sim_s_per_wall_s": statistics.median(s["sim_s_per_wall_s"] for s in samples),
        "packets_per_wall_s": statistics.median(s["packets_delivered"] / s["wall_s"] for s in samples),
        "events_per_s": statistics.median(s["events_per_s"] for s in samples),
        "peak_rss_bytes": max(peaks),
    }
    if "link_transmissions" in samples[0]:
        result["link_packets_per_wall_s"] = statistics.median(s["link_transmissions"] / s["wall_s"] for s in samples)
    for key in ("eln_state_bytes_per_flow_max", "eln_state_bytes_per_flow_mean"):
        if key in samples[0]:  # the state is deterministic: equal in every sample
            result[key] = samples[0][key]
    return result


def _measure_ns3(case: Case, binary: Path, repeat: int, progress: Optional[Console]) -> Dict[str, Any]:
    samples, peaks = [], []
    assert case.ns3_args is not None
    for i in range(repeat):
        _say(progress, f"ns-3   {case.label} ({i + 1}/{repeat})")
        out, peak, code, err = _spawn([str(binary), *case.ns3_args])
        reply = _last_json_line(out)
        if code != 0 or reply is None:
            raise RuntimeError(f"ns-3 anchor: exit {code}: {_last_line(err)}")
        samples.append(reply)
        peaks.append(peak)
    return {
        "args": case.ns3_args,
        "goodput_bps": statistics.median(s["goodput_bps"] for s in samples),
        "sim_s_per_wall_s": statistics.median(s["sim_s_per_wall_s"] for s in samples),
        "packets_per_wall_s": statistics.median(s["rxDataPkts_per_wall_s"] for s in samples),
        "events_per_s": statistics.median(s["events_per_s"] for s in samples),
        "peak_rss_bytes": max(peaks),
    }


def _spawn(cmd: List[str]) -> Tuple[str, int, int, str]:
    """Run cmd to the end; return (stdout, peak RSS in bytes of that process alone,
    exit code, stderr). wait4 gives the child's own rusage, unlike RUSAGE_CHILDREN,
    which keeps the largest of all children so far."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err)
        assert proc.stdout is not None
        try:
            out = proc.stdout.read()
        finally:
            proc.stdout.close()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        err.seek(0)
        err_text = err.read().decode("utf-8", "replace")
    # ru_maxrss is in KiB on Linux and in bytes on macOS.
    peak = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
    return out.decode("utf-8", "replace"), peak, code, err_text


def _last_json_line(text: str) -> Optional[Dict[str, Any]]:
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            try:
                reply: Dict[str, Any] = json.loads(line)
            except ValueError:
                return None
            return reply
    return None


def _last_line(text: str) -> str:
    """The line of a child's stderr that says what went wrong (a traceback's last)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no message"


def _say(progress: Optional[Console], text: str) -> None:
    if progress is not None:
        progress.print(Text(f"bench: {text}", style="dim"), highlight=False)


def failures(report: Dict[str, Any]) -> List[str]:
    """One line per row that failed: `<label>: <error>`."""
    return [f"{row['label']}: {row['error']}" for row in report["rows"] if "error" in row]


def report_table(report: Dict[str, Any]) -> Table:
    quick = " (quick)" if report["quick"] else ""
    with_ns3 = any("ns3" in row for row in report["rows"])
    table = Table(
        title=f"lossy {report['lossy_version']} bench{quick}: median of {report['repeat']}",
        title_justify="left",
        caption=("pkt = data packets delivered; wall = the event loop alone; peak RSS of the whole "
                 f"Python process (after `import lossy` alone: {report['baseline_rss_bytes'] / 2**20:.1f} MiB); "
                 "ELN B / flow = the ELN agent's largest / mean state in bytes, over the flows"),
        caption_justify="left",
    )
    # Two-line headers keep the values on one line within 120 columns.
    columns = ["scenario", "sim s /\nwall s", "pkt /\nwall s", "events\n/ s", "wall", "peak\nRSS",
               "goodput", "ELN B /\nflow"]
    if with_ns3:
        columns += ["ns-3 pkt\n/ wall s", "ns-3\ngoodput", "lossy\n÷ ns-3"]
    for name in columns:
        table.add_column(name, justify="left" if name == "scenario" else "right",
                         no_wrap=name == "scenario")
    for row in report["rows"]:
        if "error" in row:  # its one line comes after the table (failures())
            table.add_row(row["label"], "failed", *["-"] * (len(columns) - 2))
            continue
        cells = [
            row["label"],
            number(row["sim_s_per_wall_s"]),
            si(row["packets_per_wall_s"], "").strip(),
            si(row["events_per_s"], "").strip(),
            seconds(row["wall_s"]),
            f"{row['peak_rss_bytes'] / 2**20:.1f} MiB",
            si(row["goodput_bps"], "b/s"),
            _eln_state(row),
        ]
        if with_ns3:
            anchor = row.get("ns3")
            cells += [
                si(anchor["packets_per_wall_s"], "").strip() if anchor else "-",
                si(anchor["goodput_bps"], "b/s") if anchor else "-",
                f"{row['ratio_packets_per_wall_s']:.1f}×" if anchor else "-",
            ]
        table.add_row(*cells)
    return table


def _eln_state(row: Dict[str, Any]) -> str:
    if "eln_state_bytes_per_flow_max" not in row:
        return "-"
    return (f"{number(row['eln_state_bytes_per_flow_max'])} / "
            f"{number(row['eln_state_bytes_per_flow_mean'])}")
