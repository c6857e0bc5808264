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


# `{store}` in a case's argv: a small sweep's results directory (two loss rates, three
# replications, timeouts 0 at p = 0), made once per session for the cases that need one.
STORE_SPEC = """\
name = "catalogue"
scenario = "last-hop"
replications = 3
seed = 1
duration = "2 s"

[grid]
"wireless.p" = { path = "links.1.loss.p", values = [0.0, 0.05] }

[metrics]
goodput = "flows.0.goodput_bps"
timeouts = "flows.0.timeouts"
"""


@pytest.fixture(scope="session")
def results_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("catalogue-store")
    (root / "spec.toml").write_text(STORE_SPEC, encoding="utf-8")
    proc = subprocess.run([*lossy_command(), "sweep", str(root / "spec.toml"), "--out", str(root / "results")],
                          cwd=root, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    return root / "results"


def _run(case: BadInput, tmp: Path, request: pytest.FixtureRequest) -> subprocess.CompletedProcess[str]:
    for name, text in case.files.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text, encoding="utf-8")
    places = {"{tmp}": str(tmp)}
    if any("{store}" in arg for arg in case.argv):
        places["{store}"] = str(request.getfixturevalue("results_store"))

    def filled(text: str) -> str:
        for mark, value in places.items():
            text = text.replace(mark, value)
        return text

    if case.python:
        body = textwrap.indent(filled(textwrap.dedent(case.python)), "    ")
        command = [sys.executable, "-c", _API_WRAPPER.format(body=body)]
    else:
        command = [*lossy_command(), *map(filled, case.argv)]
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
def test_bad_input_gets_the_ideal_answer(case: BadInput, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    proc = _run(case, tmp_path, request)
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
