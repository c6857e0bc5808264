"""Where catalogue traces are kept and how they get there.

The cache: `$LOSSY_CACHE_DIR/traces/` when LOSSY_CACHE_DIR is set (lossy's cache
folder, which the core's FECTCP overhead model uses too, docs/mechanisms/fectcp.md),
else `traces/` in pooch's user cache folder for lossy (`pooch.os_cache("lossy")`:
`$XDG_CACHE_HOME/lossy` or `~/.cache/lossy` on Linux, the same folder the core uses).
A file lies there as `<collection>/<name>`.

Getting a file: from the mirror when LOSSY_TRACE_MIRROR names one (a folder laid out
like the shared `traces/`: `mahimahi/`, `pantheon-observatory/`, `lumos5g/4G`,
`lumos5g/5G`), never the network then; else downloaded with pooch's HTTP downloader
from the entry's URL. Either way the bytes land in a temporary file beside the
destination, their SHA-256 is checked against the catalogue's, and only then is the file
renamed into place: a wrong file is refused naming both sums and never cached, and
concurrent processes never see half a file. A cached file is checked again each time a
process first uses it (a cached file whose sum is wrong is fetched again).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional

from ..file_digest import sha256_of
from .errors import CatalogueError, ChecksumMismatch, TraceUnavailable
from .registry import Entry, entry

MIRROR_VARIABLE = "LOSSY_TRACE_MIRROR"
CACHE_VARIABLE = "LOSSY_CACHE_DIR"
FOLDER = "traces"


def cache_dir() -> Path:
    """The folder cached traces live in (not created here)."""
    base = os.environ.get(CACHE_VARIABLE, "")
    if base == "off":
        raise CatalogueError(f"{CACHE_VARIABLE}=off turns lossy's cache off, and catalogue traces are kept in it; "
                             f"set {CACHE_VARIABLE} to a folder, or unset it for the user cache folder")
    if base:
        return Path(base).expanduser() / FOLDER
    import pooch  # only here: the variable above is how tests and CI avoid the user's folder

    return Path(pooch.os_cache("lossy")) / FOLDER


def mirror_dir() -> Optional[Path]:
    """The local mirror LOSSY_TRACE_MIRROR names, or None (then the network)."""
    value = os.environ.get(MIRROR_VARIABLE, "")
    return Path(value).expanduser() if value else None


def cached_path(e: Entry) -> Path:
    return cache_dir() / e.collection / e.file_name


def is_cached(e: Entry) -> bool:
    """Whether the file is in the cache (its sum is checked when it is used)."""
    try:
        return cached_path(e).is_file()
    except CatalogueError:
        return False


def path(name: str) -> Path:
    """The cached, checksum-verified file of catalogue entry `name`, fetched (or copied
    from the mirror) first when it is not cached."""
    e = entry(name)
    target = cached_path(e)
    if target.is_file() and sha256_of(target) == e.sha256:
        return target
    fetch(e)
    return target


def fetch(e: Entry) -> str:
    """Put `e`'s file into the cache whatever is there now; return where it came from
    (the mirror's file or the URL)."""
    mirror = mirror_dir()
    source = str(mirror / e.mirror_path) if mirror is not None else e.url
    get: Callable[[Path], None] = (lambda tmp: _copy_from_mirror(e, mirror, tmp)) if mirror is not None \
        else (lambda tmp: _download(e, tmp))
    target = cached_path(e)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CatalogueError(f"{e.name}: cannot create the cache folder {target.parent} ({err.strerror or err}); "
                             f"set {CACHE_VARIABLE} to a folder lossy can write") from None
    import tempfile

    fd, tmp_name = tempfile.mkstemp(prefix=f".{e.file_name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        get(tmp)
        got = sha256_of(tmp)
        if got != e.sha256:
            raise ChecksumMismatch(f"{e.name}: refused: the SHA-256 of {source} is {got}, the catalogue's is "
                                   f"{e.sha256} (a changed or damaged file; it was not cached)")
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide a shared cache's files from other users
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return source


def _copy_from_mirror(e: Entry, mirror: Path, tmp: Path) -> None:
    source = mirror / e.mirror_path
    if not mirror.is_dir():
        raise TraceUnavailable(
            f"{e.name}: not cached, and {MIRROR_VARIABLE}={mirror} is not a folder; point it at a copy of the "
            f"traces laid out like mahimahi/, pantheon-observatory/, lumos5g/ (or unset it to download {e.url})")
    if not source.is_file():
        raise TraceUnavailable(
            f"{e.name}: not cached, and the mirror {MIRROR_VARIABLE}={mirror} has no {e.mirror_path}; "
            f"`lossy traces fetch {e.name}` fetches it (with {MIRROR_VARIABLE} unset it downloads {e.url})")
    import shutil

    shutil.copyfile(source, tmp)


def _download(e: Entry, tmp: Path) -> None:
    import pooch

    try:
        pooch.HTTPDownloader(progressbar=False, timeout=60)(e.url, str(tmp), None)
    except Exception as err:  # requests' errors, OSError: the network or the server
        raise TraceUnavailable(
            f"{e.name}: not cached, and the download of {e.url} failed ({type(err).__name__}: "
            f"{' '.join(str(err).split())[:200]}); `lossy traces fetch {e.name}` fetches it where the network is "
            f"reachable, or set {MIRROR_VARIABLE} to a folder that holds {e.mirror_path}") from None
