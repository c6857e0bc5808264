"""The site's math (issue 27): TeX between dollars in docs/ becomes MathML when the site
is built (docs/hooks/mathml.py), so the browser draws it with no script and nothing is
fetched from elsewhere (the site is built and read offline). Checked here on the built
site's files; tests/python/test_docs_browser.py checks that Chromium lays it out and
that no page asks for anything outside the site."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("latex2mathml", reason="the docs extra (pip install -e '.[docs]') is not installed")


def _hook():
    spec = importlib.util.spec_from_file_location("lossy_docs_mathml", ROOT / "docs" / "hooks" / "mathml.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mathml = _hook()

# Pages that state equations, and a formula each must show.
EQUATION_PAGES = {
    "mechanisms/loss-neyman/index.html": "A(L) = (b - a + 1)",
    "mechanisms/loss-rayleigh/index.html": "g(t) = \\frac{1}{\\sqrt{N}}",
    "mechanisms/markov-fit/index.html": "P_E = 1 - e^{-1/F}",
    "papers/botos-fectcp/index.html": "\\Delta T_\\text{TO}",
}
# What a page may load from elsewhere: nothing (a script, a stylesheet, an image, a frame).
EXTERNAL = re.compile(r'<(?:script|img|iframe)\b[^>]*\bsrc="(?:https?:)?//[^"]*"'
                      r'|<link\b[^>]*\bhref="(?:https?:)?//[^"]*"[^>]*>', re.I)


def test_tex_becomes_mathml_inline_and_displayed() -> None:
    html = ('<p>Loss <span class="arithmatex">\\(1 - (1 - p)^l\\)</span> and</p>\n'
            '<div class="arithmatex">\\[\\frac{a}{b} &lt; c\\]</div>')
    out = mathml.render_math(html, "page.md")
    assert "arithmatex" not in out
    assert out.count("<math ") == 2
    assert 'display="inline"' in out and 'display="block"' in out
    assert "<mfrac>" in out and "&lt;" in out  # the HTML-escaped < read back as TeX's <
    assert 'alttext="1 - (1 - p)^l"' in out


@pytest.mark.parametrize("tex,why", [("x^", "MissingSuperScriptOrSubscript"), ("\\sqr{2}", "does not know \\\\sqr")])
def test_tex_latex2mathml_cannot_read_fails_the_build_naming_the_page(tex: str, why: str) -> None:
    with pytest.raises(mathml.MathError, match=r"mechanisms/x\.md: cannot render the math .*" + why):
        mathml.render_math(f'<span class="arithmatex">\\({tex}\\)</span>', "mechanisms/x.md")


def test_the_notebook_templates_cdn_mathjax_is_dropped() -> None:
    page = ('<script src="https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.7/latest.js?config=TeX-AMS_CHTML-full,Safe"> '
            '</script><p>text</p>')
    assert mathml.on_post_page(page, page=None) == "<p>text</p>"


def test_the_built_site_shows_its_equations_as_mathml(built_site: Path) -> None:
    for page, formula in EQUATION_PAGES.items():
        html = (built_site / page).read_text(encoding="utf-8")
        assert 'xmlns="http://www.w3.org/1998/Math/MathML"' in html, f"{page}: no MathML"
        assert 'display="block"' in html or page.startswith("papers/"), f"{page}: its displayed equation is not MathML"
        alts = [" ".join(a.split()) for a in re.findall(r'alttext="([^"]*)"', html)]
        assert any(formula in a.replace("&amp;", "&") for a in alts), f"{page}: no formula with {formula!r}"
    leftovers = [p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html")
                 if 'class="arithmatex"' in p.read_text(encoding="utf-8")]
    assert not leftovers, f"math left as TeX (not turned into MathML) on: {leftovers}"


def test_no_page_loads_anything_from_elsewhere(built_site: Path) -> None:
    found = {}
    for page in built_site.rglob("*.html"):
        hits = EXTERNAL.findall(page.read_text(encoding="utf-8"))
        if hits:
            found[page.relative_to(built_site).as_posix()] = hits[:2]
    assert not found, f"pages that fetch from another site (the site must work offline): {found}"
