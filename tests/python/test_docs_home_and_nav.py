"""The home page and the navigation, on the built site (issue 27): the home page says how
to install (from a checkout, and the distribution's name on PyPI) and shows a figure of
the site's own run; the navigation's sections start collapsed, so the 30 mechanism pages
are not all listed at once (tests/python/test_docs_browser.py counts what a reader sees)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.shared  # the session's site (conftest.py)


def test_the_home_page_says_how_to_install_and_shows_a_figure(built_site: Path) -> None:
    html = (built_site / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)
    assert "make demo" in text
    assert "pip install lossy-sim" in text
    assert "import lossy" in text  # the import name stays, said beside the distribution's
    images = re.findall(r'<img[^>]*src="([^"]+)"', html)
    assert any(src.startswith("gallery/") and src.endswith(".png") for src in images), images
    for src in images:
        assert (built_site / src).is_file(), f"the home page's image {src} is not in the site"


def _toggles(html: str) -> dict:
    return {m.group(1): m.group(2) is not None
            for m in re.finditer(r'<input class="md-nav__toggle md-toggle[^"]*" type="checkbox" id="(__nav_\d+)"\s*(checked)?', html)}


def test_the_navigation_sections_start_collapsed(built_site: Path) -> None:
    home = (built_site / "index.html").read_text(encoding="utf-8")
    assert "md-nav__item--section" not in home, "sections are laid out expanded (navigation.sections)"
    toggles = _toggles(home)
    assert len(toggles) >= 5 and not any(toggles.values()), toggles
    # On a mechanism page its own section is open, and only that one.
    page = (built_site / "mechanisms" / "loss-neyman" / "index.html").read_text(encoding="utf-8")
    assert sum(_toggles(page).values()) == 1, _toggles(page)
