"""The site looked at in a real browser: the session's one `mkdocs build --strict`
(conftest.py's built_site: `make docs`'s under `make test`), served on loopback, opened
in headless Chromium.

Chromium is Debian's `chromium`; when it is missing the test installs it with
`apt-get install -y chromium` (as root, where apt-get exists), and skips, saying why,
only where that cannot be done.

The browser is driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
JSON messages on file descriptors 3 and 4, so the standard library is enough and no
port is opened). That lets the test wait for what it checks rather than for a fixed
time, which `--dump-dom` and `--screenshot` cannot: a page is checked after its load
event, its images after each has been fetched and decoded (`img.decode()`, which
rejects for a missing or corrupt image), and search after Material's search worker has
answered.

Checked: the home page, a mechanism page, the gallery index and the tutorial render
(the site's title, the page's heading and text, the theme's header laid out, every
image decoded, no request of the page answered with an error, none sent anywhere but
the site itself: it is read offline; the home page shows a figure, the tutorial its
own), equations are drawn as MathML (a displayed fraction stands taller than a line of
text), and the site search finds "Syndrome".
Search is checked the way a reader uses it, in the browser: Material's deep link
`?q=Syndrome` opens the search box with the query typed in, its worker builds the
index from search/search_index.json with lunr, and the test waits for the result
list. (Before that, the term is looked up in search_index.json itself, so a page
that lost the word fails with that message rather than as a search failure.)
Screenshots of each page and of the search results go to build/screenshots/ (or
$LOSSY_SCREENSHOTS); their paths are printed (pytest -s shows them).

LOSSY_DOCS_ROOT builds another tree than this checkout (a directory with mkdocs.yml,
docs/ and python/), e.g. a scratch copy with a page added.
"""

import functools
import json
import os
import select
import shutil
import subprocess
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import build_site

ROOT = Path(__file__).resolve().parents[2]
DOCS_ROOT = Path(os.environ.get("LOSSY_DOCS_ROOT", ROOT)).resolve()
SCREENSHOTS = Path(os.environ.get("LOSSY_SCREENSHOTS", ROOT / "build" / "screenshots"))
SEARCH_TERM = "Syndrome"
WINDOW = (1280, 900)
WAIT_S = 20  # at most, for a page to load or search to answer; normally well under 1 s

pytest.importorskip("mkdocs", reason="the docs extra (pip install -e '.[docs]') is not installed")
pytestmark = pytest.mark.shared  # the session's site (conftest.py)


# --- Chromium: found, or installed, or a clear reason to skip --------------------------------

def _find_chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _install_chromium():
    """(path, None) once Debian's chromium is installed, else (None, why not)."""
    if not sys.platform.startswith("linux") or shutil.which("apt-get") is None:
        return None, "no apt-get here (not Debian or Ubuntu)"
    if os.geteuid() != 0:
        return None, "not root, so apt-get cannot install it"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "chromium"]
    log = ""
    for step in ([install], [["apt-get", "update"], install]):  # update only when needed
        for command in step:
            try:
                done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900,
                                      stdin=subprocess.DEVNULL)
            except (OSError, subprocess.TimeoutExpired) as e:
                return None, f"{' '.join(command)}: {e}"
            log = (done.stdout + done.stderr)[-600:]
            if done.returncode != 0:
                break
        if _find_chromium():
            return _find_chromium(), None
    return None, f"apt-get install chromium failed: {log.strip()}"


@pytest.fixture(scope="module")
def chromium():
    path = _find_chromium()
    if path is None:
        path, why = _install_chromium()
        if path is None:
            pytest.skip(f"headless Chromium is not installed and cannot be installed here ({why}); "
                        "install Debian's chromium to run the browser test")
    return path


# --- The site, built and served ---------------------------------------------------------------

@pytest.fixture(scope="module")
def site(request, tmp_path_factory):
    """The session's one site (conftest.py: `make docs`'s under `make test`), or, for
    LOSSY_DOCS_ROOT, that tree built against the session's quick runs."""
    if DOCS_ROOT == ROOT:
        return request.getfixturevalue("built_site")
    out = tmp_path_factory.mktemp("site")
    built = build_site(out, request.getfixturevalue("quick_reproductions"), DOCS_ROOT)
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stdout}{built.stderr}"
    return out


class _Handler(SimpleHTTPRequestHandler):
    requests = None  # set per server: a list of (path, status)

    def log_request(self, code="-", size="-"):
        self.requests.append((self.path, int(code) if str(code).isdigit() else 0))

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def server(site):
    requests = []
    handler = type("Handler", (_Handler,), {"requests": requests})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", requests
    finally:
        httpd.shutdown()
        httpd.server_close()


# --- A small DevTools-protocol client over --remote-debugging-pipe ----------------------------

_FDS_3_AND_4 = """
import fcntl, os, sys
read, write = (fcntl.fcntl(int(fd), fcntl.F_DUPFD, 10) for fd in sys.argv[1:3])  # clear of 3 and 4
os.dup2(read, 3)
os.dup2(write, 4)
for fd in {read, write, int(sys.argv[1]), int(sys.argv[2])} - {3, 4}:
    os.close(fd)
os.execv(sys.argv[3], sys.argv[3:])
"""


class Browser:
    def __init__(self, executable, profile):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        args = ["--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--mute-audio",
                "--hide-scrollbars", f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
                "about:blank"]
        # Chromium reads commands on fd 3 and writes replies on fd 4: a small exec
        # trampoline puts the pipe ends there (no preexec_fn, which is unsafe with threads).
        self._log = Path(profile) / "chromium.log"  # a file, not a pipe nobody reads while it runs
        self._log_file = open(self._log, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _FDS_3_AND_4, str(to_chrome_r), str(from_chrome_w), executable, *args],
            pass_fds=(to_chrome_r, from_chrome_w), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=self._log_file,
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._next_id = 0
        self._events = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.page("Page.enable")
        self.page("Network.enable")  # every request the page sends: none may leave the site
        self.page("Emulation.setDeviceMetricsOverride", width=WINDOW[0], height=WINDOW[1],
                  deviceScaleFactor=1, mobile=False)

    def _read_message(self, deadline):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_chrome], [], [], max(0.0, left))
            if not ready:
                raise TimeoutError("Chromium did not answer in time")
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                err = self._log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"Chromium closed the DevTools pipe (exit {self.proc.poll()}): {err}")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=None, timeout=WAIT_S, **params):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self._events.append(reply)

    def page(self, method, **params):
        return self.call(method, session=self.session, **params)

    def wait_event(self, method, timeout=WAIT_S):
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self._events):
                if event["method"] == method and event.get("sessionId") == self.session:
                    return self._events.pop(i)
            self._events.append(self._read_message(deadline))

    def open(self, url):
        self._events.clear()
        navigated = self.page("Page.navigate", url=url)
        assert not navigated.get("errorText"), f"{url}: {navigated['errorText']}"
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression):
        result = self.page("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True,
                           timeout=WAIT_S * 1000)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path, max_height=6000):
        import base64

        size = self.page("Page.getLayoutMetrics")["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": WINDOW[0], "height": min(max(size["height"], WINDOW[1]), max_height),
                "scale": 1}
        shot = self.page("Page.captureScreenshot", format="png", captureBeyondViewport=True, clip=clip)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))
        print(f"screenshot: {path}")
        return path

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)
        self._log_file.close()


@pytest.fixture(scope="module")
def browser(chromium, tmp_path_factory):
    b = Browser(chromium, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield b
    finally:
        b.close()


# What a rendered page shows: every image fetched and decoded (lazy ones made eager
# first), the theme laid out, the page's heading and text.
RENDERED = """(async () => {
  const images = [...document.images];
  images.forEach(img => { img.loading = "eager"; });
  const decoded = await Promise.all(images.map(img => Promise.race([
    img.decode().then(() => true, () => false),
    new Promise(resolve => setTimeout(() => resolve(false), %d)),
  ])));
  const article = document.querySelector("article");
  const header = document.querySelector(".md-header");
  return {
    title: document.title,
    h1: (article && article.querySelector("h1") ? article.querySelector("h1").textContent : "").trim(),
    text: article ? article.innerText.length : 0,
    header: header ? header.getBoundingClientRect().height : 0,
    images: images.map((img, i) => ({src: img.currentSrc || img.src, ok: decoded[i],
                                     width: img.naturalWidth, height: img.naturalHeight})),
  };
})()""" % (WAIT_S * 1000)

# Material's search, once its worker has answered the query typed in by ?q=.
SEARCH_RESULTS = """(async () => {
  const start = Date.now();
  const meta = () => (document.querySelector(".md-search-result__meta") || {}).textContent || "";
  while (Date.now() - start < %d) {
    const items = [...document.querySelectorAll(".md-search-result__item")];
    if (items.length || /no matching/i.test(meta()))
      return {meta: meta().trim(), query: document.querySelector("input.md-search__input").value,
              results: items.map(li => ({href: (li.querySelector("a") || {}).href || "",
                                        title: ((li.querySelector("h1, h2") || {}).textContent || "").trim()}))};
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  return {meta: meta().trim(), results: [], timeout: true};
})()""" % (WAIT_S * 1000)


def _mechanism_page(site):
    """A page under mechanisms/ (the Syndrome one when there is one), else its index."""
    pages = sorted(p.parent.relative_to(site).as_posix() for p in (site / "mechanisms").glob("*/index.html"))
    preferred = [p for p in pages if "syndrome" in p] or pages
    return (preferred[0] + "/") if preferred else "mechanisms/"


def _sent_elsewhere(browser, base):
    """The URLs the page asked for outside the site (DevTools' Network.requestWillBeSent)."""
    urls = [e["params"]["request"]["url"] for e in browser._events
            if e["method"] == "Network.requestWillBeSent" and e.get("sessionId") == browser.session]
    return [u for u in urls if u.startswith(("http:", "https:", "//")) and not u.startswith(base)]


def _check_rendered(browser, server, path, name):
    base, requests = server
    first = len(requests)
    browser.open(f"{base}/{path}")
    page = browser.evaluate(RENDERED)
    elsewhere = _sent_elsewhere(browser, base)
    shot = browser.screenshot(SCREENSHOTS / f"{name}.png")
    where = f"{path or '/'} (screenshot {shot})"
    assert "lossy" in page["title"], f"{where}: title {page['title']!r} does not name the site"
    assert page["header"] > 0, f"{where}: the theme's header is not laid out (stylesheet missing?)"
    assert page["h1"], f"{where}: no heading in the page's content"
    assert page["text"] > 0, f"{where}: the page's content is empty"
    broken = [img["src"] for img in page["images"] if not img["ok"]]
    assert not broken, f"{where}: images that did not load: {broken}"
    failed = [(p, status) for p, status in requests[first:] if status >= 400]
    assert not failed, f"{where}: requests answered with an error: {failed}"
    assert not elsewhere, f"{where}: requests sent outside the site (it must work offline): {elsewhere}"
    print(f"{path or '/'}: {page['title']!r}, {len(page['images'])} image(s) decoded")
    return page


def test_home_page_renders(browser, server):
    page = _check_rendered(browser, server, "", "home")
    assert page["images"], "the home page shows no figure (docs/index.md's `generated: figure` marker)"


VISIBLE_NAV_LINKS = """(() => [...document.querySelectorAll(".md-sidebar--primary a.md-nav__link")]
  // Shown to a reader: Material hides a closed section's pages by visibility, opacity and height.
  .filter(a => a.checkVisibility({visibilityProperty: true, opacityProperty: true})
               && a.getBoundingClientRect().height > 0).length)()"""


def test_the_navigation_starts_collapsed(browser, server):
    base, _ = server
    browser.open(f"{base}/")
    shown = browser.evaluate(VISIBLE_NAV_LINKS)
    # Home's sections (Guide, Mechanisms, Papers, ...) closed: about a dozen links, not
    # the 30 mechanism pages and every other page besides.
    assert 5 <= shown <= 20, f"the home page's navigation shows {shown} links"


# Each <math> element: drawn by the browser as MathML (a box of its own) or not.
MATH = """(() => [...document.querySelectorAll("article math")].map(m => {
  const box = m.getBoundingClientRect();
  return {ns: m.namespaceURI, display: m.getAttribute("display"), width: box.width, height: box.height,
          line: parseFloat(getComputedStyle(m.parentElement).lineHeight) || 0,
          tex: m.getAttribute("alttext")};
}))()"""


def test_equations_are_drawn_as_mathml(browser, server):
    base, _ = server
    browser.open(f"{base}/mechanisms/loss-neyman/")
    maths = browser.evaluate(MATH)
    browser.screenshot(SCREENSHOTS / "math.png")
    assert maths, "mechanisms/loss-neyman/ shows no <math> element: its equations are not MathML"
    assert all(m["ns"] == "http://www.w3.org/1998/Math/MathML" for m in maths)
    assert all(m["width"] > 0 for m in maths), [m["tex"] for m in maths if m["width"] <= 0]
    displayed = [m for m in maths if m["display"] == "block"]
    assert displayed, "no displayed equation on mechanisms/loss-neyman/"
    # P(k) = e^{-m_1} \frac{m_2^k}{k!} ...: a fraction laid out as one stacks above a line.
    fraction = next(m for m in displayed if "\\frac" in m["tex"])
    assert fraction["height"] > 1.5 * max(fraction["line"], 16), (
        f"the displayed fraction is {fraction['height']} px high, a line of text {fraction['line']} px: "
        "the browser did not lay out its MathML")
    assert not _sent_elsewhere(browser, base)


def test_a_mechanism_page_renders(browser, server, site):
    _check_rendered(browser, server, _mechanism_page(site), "mechanism")


def test_the_gallery_renders(browser, server, site):
    assert (site / "gallery" / "index.html").exists(), "the site has no gallery/index.html"
    _check_rendered(browser, server, "gallery/", "gallery")


def test_the_tutorial_shows_its_outputs(browser, server, site):
    notebooks = sorted((site / "tutorial").glob("*/index.html"))
    assert notebooks, "the site has no tutorial notebook page"
    page = _check_rendered(browser, server, notebooks[0].parent.relative_to(site).as_posix() + "/", "tutorial")
    assert page["images"], "the tutorial's page shows no figure: was the notebook committed without its outputs?"


def test_search_finds_syndrome(browser, server, site):
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    pages = sorted({doc["location"].split("#")[0] for doc in index["docs"]
                    if SEARCH_TERM.lower() in (doc.get("title", "") + " " + doc.get("text", "")).lower()})
    assert pages, (f"no page of the site mentions {SEARCH_TERM!r} (search/search_index.json); "
                   "the Syndrome pages under docs/mechanisms/ and docs/papers/ should")

    base, _ = server
    browser.open(f"{base}/?q={SEARCH_TERM}")
    found = browser.evaluate(SEARCH_RESULTS)
    browser.screenshot(SCREENSHOTS / "search.png", max_height=WINDOW[1])
    assert not found.get("timeout"), f"search for {SEARCH_TERM!r} gave no answer within {WAIT_S} s: {found}"
    assert found["results"], f"search for {SEARCH_TERM!r} found nothing ({found['meta']!r}); pages with it: {pages}"
    print(f"search {SEARCH_TERM!r}: {found['meta']}: " + ", ".join(r["title"] for r in found["results"]))
