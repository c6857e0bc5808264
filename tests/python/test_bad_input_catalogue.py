"""The catalogue of bad inputs (issue 27): every entry of `bad_inputs/*.py` run as a user
meets it, a real `lossy` process (or the package's interpreter for the Python API), and
its answer held to the rule: one line naming the field or option, the value and what is
allowed; exit status 2; no traceback, no panic; a warning on stderr where the input is
legal but almost surely a mistake."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bad_inputs
from bad_inputs.case import BadInput
from conftest import lossy_command

# An error line longer than this echoes unbounded input (values are cut with "…").
LONGEST_LINE = 400

CASES: list[BadInput] = [
    case
    for module in pkgutil.iter_modules(bad_inputs.__path__)
    if module.name != "case"
    for case in importlib.import_module(f"bad_inputs.{module.name}").CASES
]

# The API's errors reach the user as one line: a ScenarioError's message on stderr, status 2;
# anything else escapes as a traceback and fails the case.
_API_WRAPPER = """\
import sys
import lossy
try:
{body}
except lossy.ScenarioError as e:
    print("lossy: " + str(e), file=sys.stderr)
    sys.exit(2)
"""


def _run(case: BadInput, tmp: Path) -> subprocess.CompletedProcess[str]:
    for name, text in case.files.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text, encoding="utf-8")
    if case.python:
        body = textwrap.indent(textwrap.dedent(case.python).replace("{tmp}", str(tmp)), "    ")
        command = [sys.executable, "-c", _API_WRAPPER.format(body=body)]
    else:
        command = [*lossy_command(), *(arg.replace("{tmp}", str(tmp)) for arg in case.argv)]
    return subprocess.run(command, cwd=tmp, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


def test_the_catalogue_names_each_case_once() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    for case in CASES:
        assert bool(case.argv) != bool(case.python), f"{case.name}: argv or python, not both"
        assert case.says, f"{case.name}: says nothing to check"


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_bad_input_gets_the_ideal_answer(case: BadInput, tmp_path: Path) -> None:
    proc = _run(case, tmp_path)
    everything = proc.stdout + proc.stderr
    assert "Traceback" not in everything and "panicked" not in everything, everything[-3000:]
    lines = proc.stderr.splitlines()
    if case.warning:
        assert proc.returncode == 0, (proc.returncode, proc.stderr)
        found = [line for line in lines if line.startswith("lossy: warning: ")
                 and all(fragment in line for fragment in case.says)]
        assert len(found) == 1, proc.stderr
        line = found[0]
    else:
        assert proc.returncode == case.status, (proc.returncode, proc.stdout[-1000:], proc.stderr)
        assert len(lines) == 1, proc.stderr
        line = lines[0]
        assert line.startswith("lossy: "), line
        for fragment in case.says:
            assert fragment in line, f"{fragment!r} not in {line!r}"
    assert len(line) <= LONGEST_LINE, f"{len(line)} characters: {line[:200]}…"
