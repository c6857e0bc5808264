"""Writing a file so that readers see the old one or the whole new one, never half."""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import IO, Any, Callable


def atomic_write(path: Path, write: Callable[[IO[bytes]], Any]) -> None:
    """Write to a temp file beside `path`, fsync it, then rename over `path`."""
    # Not mkstemp: its files are private (0600), and results are often shared. O_EXCL
    # and a random suffix keep concurrent writers apart; the umask sets the mode (0644).
    tmp = path.parent / f".{path.name}.{uuid.uuid4().hex[:12]}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
