"""The tutorial's words, without running it (test_docs_tutorial.py runs it): the text of
its markdown cells and of docs/tutorial/index.md must not promise as future what exists
(issue 27: "once fading channels exist" after the Rayleigh channel had shipped), and every
loss model it names is one the core knows."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lossy import _core

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial"


def _texts():
    for nb in sorted(TUTORIAL.glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        yield nb.name, "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    yield "index.md", (TUTORIAL / "index.md").read_text(encoding="utf-8")


def _loss_models():
    schema = json.dumps(json.loads(_core.schema()))
    return set(re.findall(r'"model": \{[^}]*?"const": "([a-z_]+)"', schema))


def test_no_promise_of_what_exists() -> None:
    for name, text in _texts():
        flat = " ".join(text.split()).lower()
        assert "once fading channels exist" not in flat, name
        assert not re.search(r"\bonce [a-z ]{1,40} exists?\b", flat), f"{name}: {re.search(r'once [a-z ]{1,40} exists?', flat)}"


def test_every_loss_model_named_exists() -> None:
    known = _loss_models()
    assert {"bernoulli", "rayleigh"} <= known, known  # the schema is read as expected
    for name, text in _texts():
        named = set(re.findall(r'model = "([a-z_]+)"', text))
        assert named <= known, f"{name} names loss models the core does not have: {named - known}"
    assert any("rayleigh" in text for _, text in _texts()), "the tutorial no longer says how to run on a fading hop"
