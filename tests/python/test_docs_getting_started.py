"""Every command on docs/getting-started.md runs, in order, in an empty directory.

The commands are the lines starting with `$ ` in the page's ```console blocks; the lines
after one, up to the next `$ `, are its output as shown (an excerpt, not compared). A
block right after an HTML comment `<!-- not run: reason -->` is not executed, and only
the install steps may be marked so: `make demo`, `make test`, `source
.venv/bin/activate`, `make wheel` and `pip install dist/lossy_sim-*.whl` (they build the Rust core, minutes each, or
change the calling shell; CI runs `make test` itself and test_wheel.py installs the
wheel). Any other marked command fails this test.

Each command runs in bash (`-e -o pipefail`) with a `lossy` on the path that is this
interpreter's `python -m lossy`, so the page is checked against the package under test.
A command that exits non-zero fails the test, naming the command and its output.
`lossy reproduce validation --quick` finds the validation's runs already stored (copied
from the session's one quick run of every reproduction, conftest.py), as on a second
call, so it judges and draws without simulating again.
"""

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import seed_validation_runs

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "getting-started.md"

NOT_RUN_ALLOWED = {"make demo", "make test", "source .venv/bin/activate", "make wheel",
                   "pip install dist/lossy_sim-*.whl"}

BLOCK = re.compile(
    r"(?P<note><!--\s*not run:(?P<reason>.*?)-->\s*\n)?^```console[^\n]*\n(?P<body>.*?)^```",
    re.M | re.S,
)


def blocks(text):
    """(commands, not-run reason or None) for each console block, in page order."""
    out = []
    for m in BLOCK.finditer(text):
        commands = [line[2:].strip() for line in m.group("body").splitlines() if line.startswith("$ ")]
        reason = m.group("reason").strip() if m.group("note") else None
        out.append((commands, reason))
    return out


def test_the_page_has_commands_and_only_install_steps_are_skipped():
    found = blocks(PAGE.read_text(encoding="utf-8"))
    run = [c for cmds, reason in found if reason is None for c in cmds]
    skipped = [c for cmds, reason in found if reason is not None for c in cmds]
    assert len(run) >= 10, f"only {len(run)} commands found on {PAGE.name}"
    bad = [c for c in skipped if c not in NOT_RUN_ALLOWED]
    assert not bad, f"marked not run, but not an install step: {bad}"
    for cmds, reason in found:
        assert cmds, "a console block without a `$ ` command"
        if reason is not None:
            assert reason, "a `not run` note must say why"


@pytest.fixture
def lossy_on_path(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "lossy"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m lossy "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    # The package under test, wherever pytest found it (a checkout or an install).
    import lossy

    package_root = str(Path(lossy.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    env.setdefault("COLUMNS", "120")
    return env


@pytest.mark.slow
def test_every_command_on_the_page_runs(tmp_path, lossy_on_path, quick_reproductions):
    work = tmp_path / "work"
    work.mkdir()
    seed_validation_runs(work / "results", quick_reproductions)
    commands = [c for cmds, reason in blocks(PAGE.read_text(encoding="utf-8")) if reason is None for c in cmds]
    for command in commands:
        done = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", command],
            cwd=work, env=lossy_on_path, capture_output=True, text=True, timeout=120,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, (
            f"getting-started.md: `{command}` exited with status {done.returncode}\n"
            f"stdout (end):\n{done.stdout[-1500:]}\nstderr (end):\n{done.stderr[-1500:]}"
        )
