"""`lossy bench --compare REF`: another build of lossy run interleaved with this one, so a
regression shows as a ratio of CPU time per delivered packet.

REF is a path to another installation's Python interpreter, or a git commit (or any
ref) of this repository. A commit is built once: its tree is extracted with `git
archive` into a temporary directory (not a `git worktree`, which would register itself in
the repository's shared .git), `cargo build --release -p lossy-py` runs there with its own
CARGO_TARGET_DIR, and its `python/` tree with the built module as `lossy/_core.abi3.so`
is kept in the user cache directory keyed by the commit's hash: the second call with the
same commit starts at once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Optional

from rich.console import Console

from .bench_sides import LossySide


class CompareError(ValueError):
    """REF cannot be used (one line for `lossy:`, exit 2)."""


def cache_root() -> Path:
    """Where built references are kept: $XDG_CACHE_HOME/lossy/bench-ref (~/.cache/...)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "lossy" / "bench-ref"


def repo_root() -> Optional[Path]:
    """The checkout this lossy runs from, or None (an installed wheel)."""
    here = Path(__file__).resolve().parent
    if shutil.which("git") is None:
        return None
    out = subprocess.run(["git", "-C", str(here), "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    return Path(out.stdout.strip()) if out.returncode == 0 and out.stdout.strip() else None


def resolve(ref: str, progress: Optional[Console] = None) -> LossySide:
    """The side REF names: an interpreter (a file that can be executed) or a commit."""
    if not ref.strip():
        raise CompareError("--compare needs a git commit of this repository or a path to a Python interpreter")
    path = Path(ref).expanduser()
    if path.is_dir():
        raise CompareError(f"--compare {ref}: a directory; give a Python interpreter (…/bin/python) or a git commit")
    if path.is_file():
        if not os.access(path, os.X_OK):
            raise CompareError(f"--compare {ref}: not an executable file (a Python interpreter is)")
        return LossySide("REF", str(path), None, f"the lossy of {path}")
    return _commit_side(ref, progress)


def _commit_side(ref: str, progress: Optional[Console]) -> LossySide:
    if shutil.which("git") is None:
        raise CompareError(f"--compare {ref}: not a file, and git is not installed to read it as a commit")
    root = repo_root()
    if root is None:
        raise CompareError(f"--compare {ref}: not a file, and lossy does not run from a git checkout "
                           "(give a Python interpreter instead)")
    out = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
                         capture_output=True, text=True)
    commit = out.stdout.strip()
    if out.returncode != 0 or not commit:
        raise CompareError(f"--compare {ref}: neither a file nor a commit of {root}")
    built = cache_root() / commit / "python"
    if not (built / "lossy" / "_core.abi3.so").is_file():
        _build(root, commit, built, progress)
    return LossySide("REF", sys.executable, str(built), f"lossy at {ref} ({commit[:12]})")


def _build(root: Path, commit: str, built: Path, progress: Optional[Console]) -> None:
    if shutil.which("cargo") is None:
        raise CompareError(f"--compare {commit[:12]}: building it needs cargo (Rust), which is not installed")
    if progress is not None:
        progress.print(f"[dim]bench: building {commit[:12]} for --compare (once; kept in {built.parent})[/dim]",
                       highlight=False)
    target = built.parent / "target"
    with tempfile.TemporaryDirectory(prefix="lossy-bench-ref-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        archive = Path(tmp) / "tree.tar"
        with archive.open("wb") as f:
            subprocess.run(["git", "-C", str(root), "archive", "--format=tar", commit], stdout=f, check=True)
        with tarfile.open(archive) as tar:
            if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4: refuse links out of src
                tar.extractall(src, filter="data")
            else:
                tar.extractall(src)  # noqa: S202 (our own repository's tree)
        env = {**os.environ, "CARGO_TARGET_DIR": str(target), "LOSSY_GIT_COMMIT": commit,
               "PYO3_BUILD_EXTENSION_MODULE": "1"}
        proc = subprocess.run(["cargo", "build", "--release", "-p", "lossy-py"], cwd=src, env=env,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            last = [line for line in proc.stderr.splitlines() if line.strip()][-1:] or ["no message"]
            raise CompareError(f"--compare {commit[:12]}: cargo build failed: {last[0].strip()}")
        staging = built.parent / "python.partial"
        shutil.rmtree(staging, ignore_errors=True)
        shutil.copytree(src / "python", staging)
        library = target / "release" / ("lib_core.dylib" if sys.platform == "darwin" else "lib_core.so")
        shutil.copy2(library, staging / "lossy" / "_core.abi3.so")
        shutil.rmtree(built, ignore_errors=True)
        staging.rename(built)  # whole or absent: a build cut short is redone, not half used
    shutil.rmtree(target, ignore_errors=True)  # ~1 GB; the module is all a second call needs
