"""The site's math, turned into MathML when the site is built (an MkDocs hook).

Pages write TeX between dollars: `$p$` inline, `$$ ... $$` on lines of their own for a
display. pymdownx.arithmatex (generic mode, mkdocs.yml) finds them, so code spans and
blocks are never read as math, and wraps each in `<span class="arithmatex">\\(...\\)</span>`
(or a `<div>` with `\\[...\\]`); this hook replaces each wrapper with the MathML that
latex2mathml makes of its TeX. The browser draws MathML itself (MathML Core: Chromium
109+, Firefox, Safari), so the site needs no script, no font and no network for its
math: it is built and tested offline (tests/python/test_docs_math.py), where a renderer
fetched from a CDN would leave the TeX as text. Why MathML rather than KaTeX or MathJax
files vendored into the site: docs/architecture.md, "The documentation site".

It also drops the MathJax script that mkdocs-jupyter's notebook template loads from a
CDN: the tutorial's text has no math, and the site fetches nothing from elsewhere.
"""

from __future__ import annotations

import html
import re
from typing import Any

try:
    from latex2mathml.converter import convert
except ImportError as e:  # the docs extra is what the site needs: say so, not a bare traceback
    raise ImportError("the site's math needs latex2mathml: pip install -e '.[docs]' "
                      "(pyproject.toml, the docs extra)") from e

# arithmatex's generic output: \(...\) inline in a span, \[...\] display in a div.
WRAPPED = re.compile(r'<(?P<tag>span|div) class="arithmatex">\s*\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]\s*</(?P=tag)>',
                     re.S)
CDN_MATHJAX = re.compile(r'<script[^>]*\bsrc="https?://[^"]*mathjax[^"]*"[^>]*>\s*</script>', re.I)


class MathError(ValueError):
    """TeX that latex2mathml cannot read: the build fails naming the page and the TeX."""


# latex2mathml keeps a command it does not know as text, `<mi>\\foo</mi>`: a typo would
# show as TeX in the page, so it fails the build instead.
UNKNOWN_COMMAND = re.compile(r">(\\[A-Za-z]+)<")


def to_mathml(tex: str, display: bool) -> str:
    """One formula as a <math> element (display="block" for a display)."""
    mathml = convert(tex.strip(), display="block" if display else "inline")
    unknown = UNKNOWN_COMMAND.search(mathml)
    if unknown:
        raise ValueError(f"latex2mathml does not know {unknown.group(1)}")
    # The TeX as the formula's text alternative: screen readers, copying, search.
    return mathml.replace("<math ", f'<math alttext="{html.escape(" ".join(tex.split()), quote=True)}" ', 1)


def render_math(text: str, where: str = "") -> str:
    """Every arithmatex wrapper in a page's HTML replaced by MathML."""
    def one(m: "re.Match[str]") -> str:
        tex = html.unescape(m.group("tex"))
        try:
            return to_mathml(tex, display=m.group("open") == "[")
        except Exception as e:  # noqa: BLE001 - latex2mathml raises many kinds; all are a page's fault
            raise MathError(f"{where}: cannot render the math {tex!r}: {type(e).__name__}: {e}") from None

    return WRAPPED.sub(one, text)


def on_page_content(html_text: str, page: Any, **kwargs: Any) -> str:
    return render_math(html_text, page.file.src_uri)


def on_post_page(output: str, page: Any, **kwargs: Any) -> str:
    return CDN_MATHJAX.sub("", output)
