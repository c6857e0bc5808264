"""`lossy bench`, the sides of a comparison: this build of lossy, a `--compare` reference
build, and the anchors (htsim, ns-3). Each runs one fresh process per sample and returns
the same sample: the loop's CPU and wall seconds, delivered data packets, events, peak
memory, goodput.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from ._core import ScenarioError
from .bench_cases import Case

_CHILD_SOURCE = (Path(__file__).with_name("bench_child.py")).read_text(encoding="utf-8")


class SideError(RuntimeError):
    """A side's process failed (its message says how); the row keeps the other sides."""


@dataclass
class LossySide:
    """A lossy build: an interpreter, and the PYTHONPATH that makes it import that build's
    `lossy` (None: the interpreter's own installation)."""
    name: str
    python: str
    pythonpath: Optional[str]
    description: str

    def run(self, case: Case, path: Path, seed: int = 1) -> Dict[str, Any]:
        arg = json.dumps({"path": str(path), "seed": seed, "overrides": case.overrides})
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)  # the bench's own would make another interpreter import this lossy
        if self.pythonpath is not None:
            env["PYTHONPATH"] = self.pythonpath
        out, maxrss, code, err, wall = spawn([self.python, "-c", _CHILD_SOURCE, arg], env)
        reply = last_json_line(out)
        if code == 2 and reply and "error" in reply:
            given = f" with {case.overrides}" if case.overrides else ""
            raise ScenarioError(f"{case.scenario}{given}: {reply['error']}")
        if code != 0 or reply is None:
            raise SideError(f"{self.name}: exit {code}: {last_line(err)}")
        return lossy_sample(reply, maxrss, wall)


def lossy_sample(reply: Dict[str, Any], maxrss: int, process_wall_s: float) -> Dict[str, Any]:
    """The child's reply as a sample. A build whose summary has no cpu_s (before issue
    28) is timed by its wall_s instead, and the sample says so."""
    cpu = reply.get("cpu_s")
    sample = {
        "sim_time_s": reply["sim_time_s"],
        "delivered_packets": reply["packets_delivered"],
        "events": reply["events"],
        "loop_cpu_s": cpu if cpu is not None else reply["wall_s"],
        "loop_wall_s": reply["wall_s"],
        "cpu_measured": cpu is not None,
        "goodput_bps": reply["goodput_bps"],
        "process_wall_s": process_wall_s,
        **_memory(reply.get("peak_rss_bytes"), maxrss),
        "import_rss_bytes": reply.get("import_rss_bytes"),
    }
    for key in ("link_transmissions", "eln_state_bytes_per_flow_max", "eln_state_bytes_per_flow_mean"):
        if key in reply:
            sample[key] = reply[key]
    return sample


@dataclass
class AnchorSide:
    """An anchor program (bench_anchors.Anchor): our bulk transfer in htsim or ns-3."""
    anchor: Any

    @property
    def name(self) -> str:
        return str(self.anchor.name)

    def run(self, case: Case, sim_s: float, seed: int = 1) -> Dict[str, Any]:
        path = case.anchors
        assert path is not None
        try:
            argv = self.anchor.argv_for(path.rate_bps, path.wired_rate_bps, path.loss_p, sim_s, path.sack, seed)
        except ValueError as e:  # a configuration this anchor cannot run (htsim has no SACK)
            raise SideError(f"{self.name}: {e}") from None
        out, maxrss, code, err, wall = spawn(list(argv), dict(os.environ))
        reply = last_json_line(out)
        if code != 0 or reply is None:
            raise SideError(f"{self.name}: exit {code}: {last_line(err)}")
        return anchor_sample(self.name, reply, maxrss, wall)


ANCHOR_KEYS = ("sim_time_s", "delivered_packets", "events", "loop_cpu_s", "loop_wall_s", "peak_rss_bytes",
               "goodput_bps")


def anchor_sample(name: str, reply: Dict[str, Any], maxrss: int, process_wall_s: float) -> Dict[str, Any]:
    """An anchor's last JSON line (the contract of bench_anchors) as a sample."""
    missing = [k for k in ANCHOR_KEYS if k not in reply]
    if missing:
        raise SideError(f"{name}: its JSON line lacks {', '.join(missing)}")
    if not reply["delivered_packets"]:
        raise SideError(f"{name}: delivered no packets")
    return {
        "sim_time_s": reply["sim_time_s"],
        "delivered_packets": reply["delivered_packets"],
        "events": reply["events"],
        "loop_cpu_s": reply["loop_cpu_s"],
        "loop_wall_s": reply["loop_wall_s"],
        "cpu_measured": True,
        "goodput_bps": reply["goodput_bps"],
        "process_wall_s": process_wall_s,
        **_memory(reply["peak_rss_bytes"], maxrss),
        "import_rss_bytes": None,
    }


def _memory(own: Optional[int], maxrss: int) -> Dict[str, Any]:
    """The process's own peak (VmHWM) when it read one; else wait4's ru_maxrss, which on
    Linux also holds the bench process's own peak (see bench_child)."""
    if own is not None:
        return {"peak_rss_bytes": own, "peak_rss_from": "VmHWM"}
    return {"peak_rss_bytes": maxrss, "peak_rss_from": "ru_maxrss"}


def spawn(cmd: List[str], env: Dict[str, str]) -> Tuple[str, int, int, str, float]:
    """Run cmd to the end; return (stdout, its ru_maxrss in bytes, exit code, stderr,
    wall seconds of the whole process). wait4 gives this child's own rusage, unlike
    RUSAGE_CHILDREN, which keeps the largest of all children so far."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, env=env)
        assert proc.stdout is not None
        try:
            out = proc.stdout.read()
        finally:
            proc.stdout.close()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        err.seek(0)
        err_text = err.read().decode("utf-8", "replace")
    # ru_maxrss is in KiB on Linux and in bytes on macOS.
    peak = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
    return out.decode("utf-8", "replace"), peak, code, err_text, wall


def last_json_line(text: str) -> Optional[Dict[str, Any]]:
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            try:
                reply = json.loads(line)
            except ValueError:
                return None
            return reply if isinstance(reply, dict) else None
    return None


def last_line(text: str) -> str:
    """The line of a child's stderr that says what went wrong (a traceback's last)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no message"


def this_build() -> LossySide:
    """The lossy this bench runs from: this interpreter, this package's directory."""
    from . import _core

    here = str(Path(__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH")) if p)
    return LossySide("lossy", sys.executable, path, f"lossy {_core.version()} ({sys.executable})")
