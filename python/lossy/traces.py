"""Writing a run's traces to files people can open elsewhere: CSV, and Parquet when
pyarrow is installed. Files are written atomically with the store's mode (0644)."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import IO, Any, Dict, List, Optional, Sequence

from . import _core
from ._core import ScenarioError
from .atomic import atomic_write
from .result import RunResult


def event_names(trace: str) -> Dict[str, List[str]]:
    """Column -> the name of each code, for the trace's coded columns (the seq trace's
    `event`: sent, resent, acked), from the core's legend: one list, kept with the code."""
    legend: Dict[str, Dict[str, List[str]]] = _core.trace_legend()
    return legend.get(trace, {})


def _given(option: str) -> Optional[str]:
    """What the command line gave `option`, as typed (a Path turns '' into '.')."""
    from .cli_errors import _argument_after

    return _argument_after(option) if option.startswith("--") else None


def check_trace_dir(out_dir: Path, option: str = "--out") -> None:
    """Make `out_dir` (for --out, or `option`) or say why it cannot be, before anything runs."""
    given = _given(option)
    if given is not None and given.strip() != given or given == "":
        # `--pcap ''` became "." and `--pcap ' '` a directory named " ", silently.
        raise ScenarioError(f"{option} {given!r}: an empty or space-padded name; name a directory, e.g. {option} out")
    if out_dir.exists() and not out_dir.is_dir():
        raise ScenarioError(f"{option} {out_dir}: exists and is not a directory; name a directory")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ScenarioError(f"{option} {out_dir}: cannot create it ({e.strerror or e})") from None
    if not os.access(out_dir, os.W_OK | os.X_OK):
        raise ScenarioError(f"{option} {out_dir}: not writable; name a directory you can write to")


def write_traces(result: RunResult, names: Sequence[str], out_dir: Path) -> List[Path]:
    """Write each named trace as `<out_dir>/<name>.csv` (and `.parquet` with pyarrow).
    Returns the files written. A name the run did not record raises ScenarioError."""
    missing = [n for n in names if n not in result.traces]
    if missing:
        have = ", ".join(sorted(result.traces)) or "none"
        raise ScenarioError(f"traces.{missing[0]}: the run recorded no such trace (recorded: {have})")
    out_dir.mkdir(parents=True, exist_ok=True)
    written: List[Path] = []
    parquet = _have_pyarrow()
    for name in names:
        columns = _readable(name, result.traces[name])
        path = out_dir / f"{name}.csv"
        atomic_write(path, lambda f: _write_csv(f, columns))
        written.append(path)
        if parquet:
            path = out_dir / f"{name}.parquet"
            atomic_write(path, lambda f: _write_parquet(f, columns))
            written.append(path)
    return written


def _readable(trace: str, columns: Dict[str, Any]) -> Dict[str, Any]:
    """Coded columns in words (`event` = sent / resent / acked): files are for people."""
    out = dict(columns)
    for column, names in event_names(trace).items():
        if column in out:
            out[column] = [names[int(code)] for code in out[column]]
    return out


def _write_csv(f: IO[bytes], columns: Dict[str, Any]) -> None:
    import numpy as np

    names = list(columns)
    arrays = [np.asarray(columns[n]) for n in names]
    # Integers print as integers (exact below 2^53: sequence numbers in bytes stay far
    # below); floats keep 15 significant digits, nanoseconds of simulated time to 10^6 s;
    # text (event names) as it is.
    fmts = ["%d" if a.dtype.kind in "iub" else "%s" if a.dtype.kind in "OUS" else "%.15g" for a in arrays]
    text = io.StringIO()
    if arrays and all(a.dtype.kind not in "OUS" for a in arrays):
        np.savetxt(text, np.column_stack(arrays), fmt=fmts, delimiter=",", header=",".join(names), comments="")
    else:
        text.write(",".join(names) + "\n")
        for row in zip(*arrays):
            text.write(",".join(fmt % (v,) for fmt, v in zip(fmts, row)) + "\n")
    f.write(text.getvalue().encode())


def _write_parquet(f: IO[bytes], columns: Dict[str, Any]) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({n: np.asarray(a) for n, a in columns.items()}), f)


def _have_pyarrow() -> bool:
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True
