"""CITATION.cff and LICENSE (issue 27): researchers cite what they use, with the version
that made their results. The citation file has the keys Citation File Format 1.2.0
requires (validated against the format's schema with PyPI's cffconvert when written:
`cffconvert --validate -i CITATION.cff`), and says the version `lossy version` says."""

import sys
from pathlib import Path

import pytest

import lossy

ROOT = Path(__file__).resolve().parents[2]
yaml = pytest.importorskip("yaml", reason="PyYAML comes with the docs extra (MkDocs)")

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def test_citation_has_the_required_keys_and_the_current_version():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title"):
        assert isinstance(cff[key], str) and cff[key].strip(), key
    assert cff["authors"] and all(a.get("name") or a.get("family-names") for a in cff["authors"])
    assert cff["version"] == lossy.__version__, "CITATION.cff's version is not `lossy version`'s"
    assert cff["type"] == "software"


def test_license_is_the_one_pyproject_and_citation_name():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["license"] == "MIT" and cff["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]  # so the wheel and the sdist carry it
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the lossy developers" in text
