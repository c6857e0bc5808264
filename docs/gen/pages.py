"""Pages written at build time (mkdocs-gen-files runs this script).

Every `gen_*.py` module beside it has a `write()` that writes its pages with
`mkdocs_gen_files.open(...)`; a new generated page is one new module. Hand-written
pages get their verdicts, counts and bands the same way: gen_page_sections.py fills
their `<!-- generated: ... -->` markers from the same run as the gallery.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load(path: Path):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(f"lossy_docs_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


for generator in sorted(HERE.glob("gen_*.py")):
    _load(generator).write()
