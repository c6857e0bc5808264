"""Writing a run's traces to files people can open elsewhere: CSV, and Parquet when
pyarrow is installed."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable, Dict, List, Sequence

import numpy as np

from ._core import ScenarioError
from .result import RunResult


def write_traces(result: RunResult, names: Sequence[str], out_dir: Path) -> List[Path]:
    """Write each named trace as `<out_dir>/<name>.csv` (and `.parquet` with pyarrow).
    Returns the files written. A name the run did not record raises ScenarioError."""
    missing = [n for n in names if n not in result.traces]
    if missing:
        have = ", ".join(sorted(result.traces)) or "none"
        raise ScenarioError(f"traces.{missing[0]}: the run recorded no such trace (recorded: {have})")
    out_dir.mkdir(parents=True, exist_ok=True)
    written: List[Path] = []
    for name in names:
        columns = result.traces[name]
        written.append(_atomic(out_dir / f"{name}.csv", _write_csv, columns))
        if _have_pyarrow():
            written.append(_atomic(out_dir / f"{name}.parquet", _write_parquet, columns))
    return written


def _write_csv(path: Path, columns: Dict[str, np.ndarray]) -> None:
    names = list(columns)
    arrays = [np.asarray(columns[n]) for n in names]
    # Integers print as integers (exact below 2^53: sequence numbers in bytes stay far
    # below); floats keep 15 significant digits, nanoseconds of simulated time to 10^6 s.
    fmts = ["%d" if a.dtype.kind in "iub" else "%.15g" for a in arrays]
    table = np.column_stack(arrays) if arrays else np.empty((0, 0))
    np.savetxt(path, table, fmt=fmts, delimiter=",", header=",".join(names), comments="")


def _write_parquet(path: Path, columns: Dict[str, np.ndarray]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({n: np.asarray(a) for n, a in columns.items()}), path)


def _have_pyarrow() -> bool:
    try:
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


def _atomic(
    path: Path, write: Callable[[Path, Dict[str, np.ndarray]], None], columns: Dict[str, np.ndarray]
) -> Path:
    # Write beside the target, then rename: a reader never sees half a file.
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp), columns)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
    return path
