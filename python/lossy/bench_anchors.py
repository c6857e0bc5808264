"""The other simulators `lossy bench` measures against: our own bulk-transfer programs
(python/lossy/anchors/) built against a pinned htsim source and ns-3 3.44 from PyPI.

`find("htsim" | "ns3")` returns an `Anchor` (a built binary and the argv for one run) or a
`Skip` whose note says, in one line, why and how to enable it. Binaries are compiled with
g++ -O3 into the user's cache directory, in a folder keyed by a hash of our program and
the simulator's source, so a change to either rebuilds and nothing is rebuilt otherwise.

Sources: htsim from LOSSY_HTSIM_SRC (a csg-htsim work tree or git directory; from a git
directory the pinned commit is extracted) or, where the network allows, a clone of the
pinned commit into the cache. ns-3 from a virtual environment holding the ns3 3.44 wheel:
LOSSY_NS3_VENV, or the cache's own, created with pip where PyPI is reachable.
"""

from __future__ import annotations

import glob
import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

HTSIM_URL = "https://github.com/Broadcom/csg-htsim"
# The commit our htsim program was written and measured against (2026-03-23).
HTSIM_COMMIT = "841d9e7be46bb968eece766aa4b6c044c7799f67"
# htsim's files our program links: its TCP, queue, pipe and event list, and what they
# reference (tcp.cpp calls MultipathTcpSrc; queue.cpp's other queues need the NDP and
# pause packets' pools and the fair pull queue).
HTSIM_SOURCES = ("eventlist.cpp", "tcppacket.cpp", "pipe.cpp", "queue.cpp", "tcp.cpp", "network.cpp",
                 "config.cpp", "route.cpp", "loggers.cpp", "mtcp.cpp", "logfile.cpp",
                 "eth_pause_packet.cpp", "fairpullqueue.cpp", "ndppacket.cpp")

NS3_REQUIREMENT = "ns3==3.44.post0"
NS3_VERSION = "3.44"
NS3_LIB = "ns3.44"  # its libraries are libns3.44-<module>.so
# The wheel's own compile definitions (lib64/cmake/ns3/ns3Targets.cmake): its headers'
# inline code must see the same ones as its libraries; ns-3.44 needs C++20.
NS3_DEFINES = ("-D__LINUX__", "-DNS3_BUILD_PROFILE_RELEASE", "-DHAVE_SQLITE3", "-DHAVE_LIBXML2",
               "-DHAVE_GSL", "-DNS3_LOG_ENABLE", "-DNS3_ASSERT_ENABLE")
NS3_LIBS = ("applications", "point-to-point", "internet", "traffic-control", "network", "core")

PROGRAMS = Path(__file__).resolve().parent / "anchors"
Progress = Union[None, Callable[[str], Any], Any]
Source = Tuple[Path, Optional[str]]  # htsim's sim/ folder, and its commit where git knows it


@dataclass(frozen=True)
class Anchor:
    name: str  # "htsim" or "ns3"
    version: str  # the simulator's source, e.g. "htsim 841d9e7 (Broadcom/csg-htsim, pinned)"
    binary: Path
    supports_sack: bool
    warning: Optional[str] = None  # e.g. a source at another commit than the pinned one

    def argv_for(self, rate_bps: int, wired_rate_bps: int, loss_p: float, sim_s: float, sack: bool,
                 seed: int) -> List[str]:
        """One run of the ns3-compare path: last hop rate_bps, wired hop wired_rate_bps,
        data loss loss_p on the last hop, sim_s simulated seconds."""
        if sack and not self.supports_sack:
            raise ValueError(f"{self.name} has no SACK: its anchor runs NewReno only")
        argv = [str(self.binary), f"--rate={int(rate_bps)}", f"--wired-rate={int(wired_rate_bps)}",
                f"--p={loss_p!r}", f"--sim-time={sim_s!r}", f"--seed={int(seed)}"]
        return argv + [f"--sack={int(sack)}"] if self.supports_sack else argv


@dataclass(frozen=True)
class Skip:
    name: str
    note: str  # one line: why, and how to enable it


def find(name: str, progress: Progress = None) -> Union[Anchor, Skip]:
    """The anchor `name` ("htsim" or "ns3"), built if needed, or why it cannot run."""
    if name == "htsim":
        return _find_htsim(progress)
    if name == "ns3":
        return _find_ns3(progress)
    raise ValueError(f"unknown anchor {name!r}: expected 'htsim' or 'ns3'")


def cache_root() -> Path:
    """lossy's anchors folder in the platform's user cache directory."""
    if sys.platform == "darwin":
        base = Path("~/Library/Caches").expanduser()
    elif sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", "~/AppData/Local")).expanduser()
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache").expanduser()
    return base / "lossy" / "anchors"


# ---------------------------------------------------------------- htsim

def _find_htsim(progress: Progress) -> Union[Anchor, Skip]:
    given = os.environ.get("LOSSY_HTSIM_SRC")
    if given:
        source = htsim_source(Path(given).expanduser(), progress)
    else:
        source = _clone_htsim(cache_root() / "htsim-src" / HTSIM_COMMIT, progress)
    if isinstance(source, Skip):
        return source
    sim, commit = source
    warning = None
    if commit != HTSIM_COMMIT:
        warning = (f"htsim source at {commit or 'an unknown commit'}, not the pinned {HTSIM_COMMIT[:12]}: "
                   "its numbers may differ from the documented ones")
        _say(progress, warning)
    missing = [f for f in HTSIM_SOURCES if not (sim / f).is_file()]
    if missing:
        return Skip("htsim", f"{sim} lacks {', '.join(missing)}: LOSSY_HTSIM_SRC must be a csg-htsim "
                             f"work tree or git directory ({HTSIM_URL} at {HTSIM_COMMIT[:12]})")
    program = PROGRAMS / "htsim" / "bulk.cpp"
    flags = ["-O3", "-std=c++17", "-w", f"-I{sim}"]
    inputs = [program] + [sim / f for f in HTSIM_SOURCES] + sorted(sim.glob("*.h"))
    binary = _build("htsim", inputs, flags, lambda out: ["g++", *flags, str(program),
                    *(str(sim / f) for f in HTSIM_SOURCES), "-o", str(out)], progress)
    if isinstance(binary, Skip):
        return binary
    short = (commit or "unknown commit")[:12]
    pinned = "pinned" if commit == HTSIM_COMMIT else f"NOT the pinned {HTSIM_COMMIT[:12]}"
    return Anchor("htsim", f"htsim {short} (Broadcom/csg-htsim, {pinned})", binary, False, warning)


def htsim_source(path: Path, progress: Progress = None) -> Union[Source, Skip]:
    """(the folder of htsim's sim/ sources, its commit or None) for a work tree or a git
    directory; from a git directory, the pinned commit is extracted into the cache."""
    if not path.exists():
        return Skip("htsim", f"LOSSY_HTSIM_SRC={path} does not exist: point it at a csg-htsim work tree "
                             f"or git directory ({HTSIM_URL} at {HTSIM_COMMIT[:12]})")
    if (path / "objects").is_dir() and (path / "HEAD").is_file():  # a bare git directory
        return _extract(path, progress)
    for sim in (path / "sim", path):
        if (sim / "tcp.cpp").is_file():
            return sim, _git_head(path)
    if (path / ".git").exists():  # a clone whose files are not checked out
        return _extract(path / ".git", progress)
    return Skip("htsim", f"LOSSY_HTSIM_SRC={path} holds neither htsim's sim/ folder nor a git directory "
                         f"({HTSIM_URL} at {HTSIM_COMMIT[:12]})")


def _extract(git_dir: Path, progress: Progress) -> Union[Source, Skip]:
    """The pinned commit's sim/ from a git directory (its HEAD, with a warning, when the
    pinned commit is not in it), extracted into the cache once."""
    has_pinned = _git(git_dir, "cat-file", "-e", f"{HTSIM_COMMIT}^{{commit}}") is not None
    commit = HTSIM_COMMIT if has_pinned else (_git(git_dir, "rev-parse", "HEAD") or b"").decode().strip()
    if not commit:
        return Skip("htsim", f"{git_dir} is not a readable git directory (git rev-parse HEAD failed)")
    dest = cache_root() / "htsim-src" / commit
    if not (dest / "sim" / "tcp.cpp").is_file():
        _say(progress, f"extracting htsim {commit[:12]} from {git_dir}")
        archive = _git(git_dir, "archive", "--format=tar", commit, "sim")
        if archive is None:
            return Skip("htsim", f"git archive {commit[:12]} sim failed in {git_dir}")
        tmp = Path(tempfile.mkdtemp(prefix="htsim-src-", dir=_made(dest.parent)))
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            try:
                tar.extractall(tmp, filter="data")  # no links or paths outside tmp
            except TypeError:  # a Python without extraction filters (before 3.11.4)
                tar.extractall(tmp)
        shutil.rmtree(dest, ignore_errors=True)
        os.replace(tmp, dest)
    return dest / "sim", commit


def _clone_htsim(dest: Path, progress: Progress) -> Union[Source, Skip]:
    """The pinned commit fetched from GitHub into the cache, where the network allows."""
    if (dest / "sim" / "tcp.cpp").is_file():
        return dest / "sim", _git_head(dest)
    how = (f"set LOSSY_HTSIM_SRC to a csg-htsim work tree or git directory "
           f"(git clone {HTSIM_URL}; commit {HTSIM_COMMIT[:12]})")
    if shutil.which("git") is None:
        return Skip("htsim", f"htsim anchor skipped: no git to fetch its source; {how}")
    _say(progress, f"fetching htsim {HTSIM_COMMIT[:12]} from {HTSIM_URL}")
    tmp = Path(tempfile.mkdtemp(prefix="htsim-clone-", dir=_made(dest.parent)))
    # A stalled connection (under 1 kB/s for 20 s) ends the fetch instead of hanging the bench.
    stall = ["-c", "http.lowSpeedLimit=1000", "-c", "http.lowSpeedTime=20"]
    steps = [["init", "-q"], [*stall, "fetch", "-q", "--depth", "1", HTSIM_URL, HTSIM_COMMIT],
             ["checkout", "-q", "FETCH_HEAD"]]
    for step in steps:
        if _git(None, "-C", str(tmp), *step, timeout=600) is None:
            shutil.rmtree(tmp, ignore_errors=True)
            return Skip("htsim", f"htsim anchor skipped: fetching {HTSIM_URL} failed (no network?); {how}")
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)
    return dest / "sim", _git_head(dest)


def _git_head(path: Path) -> Optional[str]:
    """The commit a work tree (or the repository above its sim/ folder) is at, if git knows."""
    out = _git(None, "-C", str(path), "rev-parse", "HEAD")
    return out.decode().strip() if out else None


def _git(git_dir: Optional[Path], *args: str, timeout: float = 120) -> Optional[bytes]:
    """git's stdout, or None when it fails (no git, not a repository, no network)."""
    cmd = ["git"] + ([f"--git-dir={git_dir}"] if git_dir is not None else [])
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}
    try:
        done = subprocess.run(cmd + list(args), capture_output=True, timeout=timeout, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


# ---------------------------------------------------------------- ns-3

def _find_ns3(progress: Progress) -> Union[Anchor, Skip]:
    built = ns3_program("bulk.cc", progress)
    if isinstance(built, Skip):
        return built
    binary, version = built
    return Anchor("ns3", version, binary, True)


def ns3_program(name: str, progress: Progress = None) -> Union[Tuple[Path, str], Skip]:
    """(the binary, the ns-3 it was built against) of our ns-3 program `name` (a file in
    anchors/ns3/, e.g. "bulk.cc" or "cc.cc"), compiled if needed, or why it cannot be."""
    given = os.environ.get("LOSSY_NS3_VENV")
    venv = Path(given).expanduser() if given else cache_root() / "ns3venv"
    root = ns3_root(venv)
    if root is None and not given:
        installed = _install_ns3(venv, progress)
        if isinstance(installed, Skip):
            return installed
        root = installed
    if root is None:
        return Skip("ns3", f"LOSSY_NS3_VENV={venv} holds no ns3 {NS3_VERSION} package: "
                           f"pip install {NS3_REQUIREMENT} into it, or unset it to let lossy make its own")
    wheel = _ns3_dist_info(root)
    program = PROGRAMS / "ns3" / name
    flags = ["-O3", "-std=c++20", *NS3_DEFINES, f"-I{root / 'include'}"]
    lib = root / "lib64"
    link = [f"-L{lib}", f"-Wl,-rpath,{lib}", "-Wl,--no-as-needed", *(f"-l{NS3_LIB}-{m}" for m in NS3_LIBS)]
    # Our headers beside it (counters.h) and the wheel's RECORD (the hash of every installed file).
    inputs = [program, *sorted((PROGRAMS / "ns3").glob("*.h"))] + ([wheel / "RECORD"] if wheel else [])
    binary = _build("ns3", inputs, flags + link,
                    lambda out: ["g++", *flags, str(program), "-o", str(out), *link], progress,
                    binary_name=Path(name).stem)
    if isinstance(binary, Skip):
        return binary
    version = wheel.name[:-len(".dist-info")].replace("-", " ") if wheel else f"ns3 {NS3_VERSION}"
    return binary, f"{version} (PyPI wheel in {venv})"


def ns3_root(venv: Path) -> Optional[Path]:
    """The ns3 package folder (include/, lib64/) of ns-3 3.44 in a virtual environment."""
    for site in sorted(glob.glob(str(venv / "lib" / "python3*" / "site-packages"))):
        root = Path(site) / "ns3"
        if (root / "include" / "ns3" / "core-module.h").is_file() and \
                (root / "lib64" / f"lib{NS3_LIB}-core.so").exists():
            return root
    return None


def _ns3_dist_info(root: Path) -> Optional[Path]:
    found = sorted(root.parent.glob(f"ns3-{NS3_VERSION}*.dist-info"))
    return found[-1] if found else None


def _install_ns3(venv: Path, progress: Progress) -> Union[Path, Skip]:
    how = (f"set LOSSY_NS3_VENV to a virtual environment holding {NS3_REQUIREMENT} "
           "(python3 -m venv DIR && DIR/bin/pip install " + NS3_REQUIREMENT + ")")
    _say(progress, f"installing {NS3_REQUIREMENT} (~520 MB) into {venv}")
    log = _made(venv.parent) / "ns3venv-install.log"
    with open(log, "wb") as out:
        for cmd in ([sys.executable, "-m", "venv", str(venv)],
                    [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", NS3_REQUIREMENT]):
            try:
                code = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=1800).returncode
            except (OSError, subprocess.TimeoutExpired) as e:
                out.write(f"{e}\n".encode())
                code = -1
            if code != 0:
                shutil.rmtree(venv, ignore_errors=True)
                return Skip("ns3", f"ns-3 anchor skipped: installing {NS3_REQUIREMENT} failed (see {log}); {how}")
    root = ns3_root(venv)
    return root if root is not None else Skip("ns3", f"ns-3 anchor skipped: {venv} has no ns-3 headers "
                                                     f"after pip install; {how}")


# ---------------------------------------------------------------- building

def source_key(inputs: Sequence[Path], flags: Sequence[str]) -> str:
    """A hash of every input file's bytes (name and content) and the compiler flags."""
    digest = hashlib.sha256()
    for path in inputs:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update("\0".join(flags).encode())
    return digest.hexdigest()[:16]


def _build(name: str, inputs: Sequence[Path], flags: Sequence[str],
           command: Callable[[Path], List[str]], progress: Progress,
           binary_name: str = "bulk") -> Union[Path, Skip]:
    """The binary for these inputs, compiled once into the cache; a failure is one line
    naming the log."""
    folder = cache_root() / name / source_key(inputs, flags)
    binary = folder / binary_name
    if os.access(binary, os.X_OK):
        return binary
    if shutil.which("g++") is None:
        return Skip(name, f"{name} anchor skipped: no g++ to compile it (install a C++ compiler)")
    _made(folder)
    log = folder / "build.log"
    _say(progress, f"compiling the {name} anchor into {folder} (a minute or two)")
    partial = folder / f"{binary_name}.{os.getpid()}.partial"  # two builds at once each write their own
    with open(log, "wb") as out:
        cmd = command(partial)
        out.write((" ".join(cmd) + "\n").encode())
        out.flush()
        try:
            code = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode
        except OSError as e:
            out.write(f"{e}\n".encode())
            code = -1
    if code != 0:
        return Skip(name, f"compiling the {name} anchor failed (exit {code}): see {log}")
    os.replace(partial, binary)
    return binary


def _made(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _say(progress: Progress, text: str) -> None:
    """progress may be a function of one string or a console with print()."""
    if progress is None:
        return
    if callable(progress):
        progress(f"anchors: {text}")
    else:
        progress.print(f"anchors: {text}")
