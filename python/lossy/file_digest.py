"""A file's SHA-256, computed once while the file stays the same: the scenario's data
files (hashed into its identity at every sweep point) and the trace catalogue's cached
files (checked against their registry sums) both ask for it."""

from __future__ import annotations

import hashlib
import os
import stat
from typing import Dict, Tuple, Union

_DIGESTS: Dict[Tuple[str, int, int], str] = {}


def sha256_of(path: Union[str, "os.PathLike[str]"]) -> str:
    """The hex SHA-256 of the regular file at `path`; OSError for anything else (/dev/zero,
    a FIFO: never read)."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise OSError(f"{os.fspath(path)}: not a regular file")
    key = (os.path.abspath(path), st.st_mtime_ns, st.st_size)
    if key not in _DIGESTS:
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        _DIGESTS[key] = digest.hexdigest()
    return _DIGESTS[key]
