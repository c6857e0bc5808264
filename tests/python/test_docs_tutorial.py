"""The tutorial notebook runs: executed cell by cell with nbclient in a python3 kernel of
this interpreter, in a copy under tmp_path (a test never writes into the checkout).

The committed notebook (docs/tutorial/*.ipynb) carries its outputs; the site shows
them as they are (mkdocs-jupyter with `execute: false`), so the docs build never runs a
simulation. This test fails on any cell error. `make notebooks` (LOSSY_REFRESH_NOTEBOOKS=1)
also writes the executed notebook back in place to refresh the outputs the site shows;
they are deterministic (seeded runs, no timings, no paths, no execution timestamps), so
a diff after it means the simulator's numbers moved: look at it and commit it.
"""

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="the docs extra (pip install -e '.[docs]') is not installed")
nbclient = pytest.importorskip("nbclient", reason="the docs extra (pip install -e '.[docs]') is not installed")
pytest.importorskip("ipykernel", reason="the docs extra (pip install -e '.[docs]') is not installed")

import lossy  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "docs" / "tutorial").glob("*.ipynb"))
TIMEOUT_S = 120  # per cell; the whole notebook takes a few seconds


@pytest.fixture
def kernel_env(tmp_path, monkeypatch):
    """A `python3` kernel spec that runs this interpreter, found first (JUPYTER_PATH), and
    Jupyter's and IPython's runtime files in tmp_path rather than the user's home."""
    from ipykernel.kernelspec import write_kernel_spec

    write_kernel_spec(str(tmp_path / "jupyter" / "kernels" / "python3"))  # argv[0] = sys.executable
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # The kernel imports the same lossy as this test, installed or from a checkout.
    package_root = str(Path(lossy.__file__).resolve().parents[1])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")])))
    return tmp_path


def test_there_is_a_tutorial():
    assert NOTEBOOKS, "no notebook in docs/tutorial/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_tutorial_executes(path, kernel_env):
    copy = kernel_env / path.name
    shutil.copyfile(path, copy)
    nb = nbformat.read(copy, as_version=4)
    client = nbclient.NotebookClient(
        nb, kernel_name="python3", timeout=TIMEOUT_S, allow_errors=False,
        record_timing=False,  # no timestamps in the committed notebook
        resources={"metadata": {"path": str(kernel_env)}},  # the kernel's working directory
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        plain = re.sub(r"\x1b\[[0-9;]*m", "", str(e))  # the kernel's traceback, without its colours
        pytest.fail(f"{path.relative_to(ROOT)}: a cell failed:\n{plain}", pytrace=False)

    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error", f"{path.name}: {output.get('ename')}: {output.get('evalue')}"
            text = str(output.get("text", "")) + str(output.get("data", {}).get("text/plain", ""))
            assert tempfile.gettempdir() not in text, f"{path.name}: an output shows a temporary path: {text[:200]}"
    assert any("image/png" in o.get("data", {}) for c in nb.cells if c.cell_type == "code"
               for o in c.get("outputs", [])), f"{path.name}: no figure among the outputs"

    nb.metadata.pop("widgets", None)
    nb.metadata.get("language_info", {}).pop("version", None)  # the same file from any Python
    nbformat.validate(nb)
    nbformat.write(nb, copy)
    if os.environ.get("LOSSY_REFRESH_NOTEBOOKS") == "1":  # make notebooks: the site shows these outputs
        nbformat.write(nb, path)
