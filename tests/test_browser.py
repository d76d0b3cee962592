"""The built book in a real browser: Debian's Chromium, headless, driven by Playwright.

The site in ``_build/html`` is served on 127.0.0.1 and every page is loaded with all
other hosts blocked (and recorded). A page passes when it has no console error, no page
error, no failed or 4xx/5xx request and no request off localhost, and every pythreejs view
on it shows a picture (non-blank pixels) in which the model fills at least a quarter of the
canvas (the box around what is drawn; for an animation, around everything drawn while it
plays), and every chapter page links its notebook for download. A page must also read as
typeset: no MathJax error, no raw ``$`` or TeX command
(``\\frac``, ``\\dot``, ...) left in its text outside code, no empty table cell. On the
visualization appendix a ``jslink``-ed slider must change the view it is linked to, and an
animation's play button must move the model (and pause must stop it); in chapters 6 and 8
the sliders of the tree builder and of the collision explorer must change what is shown.
A page must also fit its column: no typeset equation and no line of code or printed output
wider than the block that holds it, and no figure shrunk to fit (its fonts would shrink with
it); every chapter page links to other pages of the book, and the references page links
every entry to its source (a DOI or URL).

If the site has not been built, this module builds it first (``tools/fetch_static.py`` and
``jupyter-book build . -W -n --keep-going``, as ``make book``); ``make test`` always builds
it before running pytest. Chromium comes from Debian (``apt-get install chromium``; ``.ci/run``
does it) — never from ``playwright install``.

**Under load.** Nothing here passes or fails by how long something took: every check waits for
its condition (a view drawn, a picture changed, a picture standing still, a readout updated),
polling, up to a generous deadline (:data:`WAIT_S`, also Playwright's default timeout for every
click and wait), so a slow, shared machine only makes the tests slower. The deadlines are there
so that a broken page fails at all; ``RBDL_EDU_BROWSER_WAIT`` (seconds) changes them.
"""
from __future__ import annotations

import functools
import http.server
import io
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
# another built site can be checked with RBDL_EDU_SITE=/path/to/html (the default is the one
# `make book` builds; nothing is built for another site)
SITE = Path(os.environ.get("RBDL_EDU_SITE", ROOT / "_build" / "html"))
CHROMIUM = os.environ.get("RBDL_EDU_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 # WebGL on the CPU (SwiftShader), since there is no GPU
                 "--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
VIZ_PAGE = "book/appendix-visualization.html"
#: seconds any one condition may take to come true (and Playwright's default timeout): generous,
#: for loaded machines; a condition that holds returns as soon as it is seen
WAIT_S = float(os.environ.get("RBDL_EDU_BROWSER_WAIT", "300"))
POLL_S = 0.25          # how often a condition is looked at again
STILL_S = 0.6          # two pictures this far apart that agree: a view that stands still


def wait_until(get, ok, what, timeout=None):
    """Poll ``get()`` until ``ok(value)``; return the value. Fails with ``what`` and the last
    value if it never holds within ``timeout`` seconds (default :data:`WAIT_S`)."""
    deadline = time.monotonic() + (WAIT_S if timeout is None else timeout)
    while True:
        value = get()
        if ok(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} (still so after waiting {WAIT_S if timeout is None else timeout:g} s; "
                                 f"last: {str(value)[:300]})")
        time.sleep(POLL_S)


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def wait_still(element, what):
    """A screenshot of ``element`` once two taken :data:`STILL_S` apart agree (the view stands
    still); fails with ``what`` if it never does."""
    shots = [element.screenshot()]

    def next_pair():
        time.sleep(STILL_S)
        shots.append(element.screenshot())
        del shots[:-2]
        return changed(shots[0], shots[1])

    wait_until(next_pair, lambda c: c < 0.001, what)
    return shots[-1]


def build_site():
    """Build the book as ``make book`` does; raise with the build's output if it fails."""
    steps = [[sys.executable, str(ROOT / "tools" / "fetch_static.py")],
             [str(Path(sys.executable).with_name("jupyter-book")), "build", str(ROOT), "-W", "-n", "--keep-going"]]
    for cmd in steps:
        res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if res.returncode != 0:
            raise RuntimeError(f"building the book failed: {' '.join(cmd)}\n{res.stdout[-4000:]}\n{res.stderr[-4000:]}")


def site_pages():
    if not (SITE / "index.html").exists():
        build_site()                 # a fresh clone: build the site before collecting its pages
    return sorted(str(p.relative_to(SITE)) for p in SITE.rglob("*.html")
                  if not str(p.relative_to(SITE)).startswith(("_static", "_sources", "_images")))


@pytest.fixture(scope="module")
def server():
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(SITE)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Visit:
    """A page loaded with everything it did recorded: ``errors`` (console errors, page errors,
    failed requests, HTTP errors) and ``outside`` (requests to other hosts, blocked)."""

    def __init__(self, browser, base, path):
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.set_default_timeout(WAIT_S * 1000)              # clicks, waits: generous
        self.context.set_default_navigation_timeout(WAIT_S * 1000)
        self.page = self.context.new_page()
        self.errors, self.outside = [], []
        host = urlparse(base).netloc

        def route(r):
            url = urlparse(r.request.url)
            if url.scheme in ("http", "https", "ws", "wss") and url.netloc != host:
                self.outside.append(r.request.url)
                return r.abort()
            return r.continue_()

        self.context.route("**/*", route)
        p = self.page
        p.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        p.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        p.on("requestfailed", lambda r: self.errors.append(f"request failed: {r.url} {r.failure}"))
        p.on("response", lambda r: self.errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
        p.goto(f"{base}/{path}")
        p.wait_for_load_state("networkidle")
        self.wait_for_widgets()

    def wait_for_widgets(self):
        """Wait until every embedded widget view has rendered and every pythreejs view shows
        a canvas (or, when Chromium's WebGL contexts are shared out, its frozen image); fail
        if that never happens within :data:`WAIT_S`. (Whether a view has drawn its first
        frame is waited for where it is looked at.)"""
        p = self.page
        n_views = p.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
        if n_views:
            p.wait_for_function("""() => {
                const subs = [...document.querySelectorAll('.widget-subarea')];
                const three = [...document.querySelectorAll('.jupyter-threejs')];
                return subs.length > 0 && subs.every(s => s.children.length > 0)
                    && three.every(t => t.querySelector('canvas, img'));
            }""", polling=250, timeout=WAIT_S * 1000)

    def close(self):
        self.context.close()


def drawn_mask(png: bytes) -> np.ndarray:
    """Pixels that differ clearly from the most common colour (the background), ``(h, w)``."""
    a = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    colors, counts = np.unique(a.reshape(-1, 3), axis=0, return_counts=True)
    return np.abs(a - colors[np.argmax(counts)]).sum(axis=2) > 40


def coverage(mask: np.ndarray) -> float:
    """Fraction of the canvas taken by the box around the drawn pixels.

    >>> m = np.zeros((4, 4), bool); m[1, 1] = m[2, 2] = True
    >>> coverage(m)
    0.25
    """
    if not mask.any():
        return 0.0
    ys, xs = np.nonzero(mask)
    return float((ys.max() - ys.min() + 1) * (xs.max() - xs.min() + 1) / mask.size)


# Text a reader should never see: a `$` or a TeX command outside code (math that MathJax did
# not get, e.g. a Markdown line that became a list item, or a table cell split at a `|`).
RAW_TEX = r"""() => {
  const skip = 'pre, code, script, style, mjx-container, .highlight, .output, .cell_output, textarea, '
             + '.widget-htmlmath, .headerlink, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-header';
  const root = document.querySelector('article') || document.body;
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const bad = [];
  while (walk.nextNode()) {
    const node = walk.currentNode, el = node.parentElement;
    if (!el || el.closest(skip)) continue;
    if (/\$|\\[a-zA-Z]+/.test(node.textContent)) bad.push(node.textContent.trim().slice(0, 100));
  }
  return bad;
}"""
EMPTY_CELLS = r"""() => [...document.querySelectorAll('article table td')]
  .filter(td => !td.closest('.output, .cell_output, pre') && td.textContent.trim() === ''
                && !td.querySelector('img, svg, mjx-container'))
  .map(td => td.closest('tr').textContent.trim().slice(0, 100))"""


# What runs past the column: a typeset equation wider than its block (MathJax's inner box
# against the enclosing div.math or output), a <pre> whose lines need more than its width,
# and a figure (an output image or a widget's picture) drawn wider than it is shown, i.e.
# scaled down, fonts and all.
TOO_WIDE = r"""() => {
  const root = document.querySelector('article') || document.body, bad = [];
  const where = el => { const s = el.closest('section[id], div.cell[id], [id]'); return s ? s.id : ''; };
  for (const m of root.querySelectorAll('mjx-container')) {
    const box = m.closest('div.math, .output, .cell_output, p, li, td, .widget-htmlmath') || m.parentElement;
    const inner = m.querySelector('mjx-math') || m;
    const w = Math.max(inner.getBoundingClientRect().width, m.getBoundingClientRect().width);
    const room = box.getBoundingClientRect().width;
    if (w > room + 1) bad.push(`math ${Math.round(w)} px in ${Math.round(room)} px (#${where(m)}): ${m.textContent.slice(0, 50)}`);
  }
  for (const pre of root.querySelectorAll('pre')) {
    if (pre.scrollWidth > pre.clientWidth + 1)
      bad.push(`code ${pre.scrollWidth} px in ${pre.clientWidth} px (#${where(pre)}): ${pre.textContent.slice(0, 50)}`);
  }
  for (const img of root.querySelectorAll('.cell_output img, .output img, .widget-image')) {
    if (img.naturalWidth && img.clientWidth && img.naturalWidth > img.clientWidth + 1)
      bad.push(`figure ${img.naturalWidth} px shown in ${img.clientWidth} px (#${where(img)})`);
  }
  return bad;
}"""
# Links a reader can follow inside the book: Sphinx's cross-references ({ref}, {doc},
# {numref}, {cite}), not the permalinks of headings; and links out of it.
LINKS = r"""() => {
  const root = document.querySelector('article') || document.body;
  const internal = [...root.querySelectorAll('a.reference.internal')]       // to another page, not this one's anchors
    .filter(a => !a.classList.contains('headerlink') && !(a.getAttribute('href') || '#').startsWith('#'));
  const entries = [...root.querySelectorAll('.citation')].filter(c => c.querySelector('.label, span'));
  return {internal: internal.length,
          external: root.querySelectorAll('a.reference.external[href^="http"]').length,
          entries: entries.length,
          unlinked: entries.filter(c => !c.querySelector('a[href^="http"]')).map(c => c.textContent.trim().slice(0, 80))};
}"""


def check_fits(page, path):
    """No equation, code line, printed line or figure wider than the column (:data:`TOO_WIDE`);
    waits for MathJax first, which sets the widths."""
    page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    page.wait_for_function("() => [...document.querySelectorAll('article img')].every(i => i.complete)")
    wide = page.evaluate(TOO_WIDE)
    assert wide == [], f"{path}: wider than the column: " + "\n".join(wide)


def check_links(page, path):
    """A chapter page links to other pages of the book; the references page links each entry
    to its source."""
    links = page.evaluate(LINKS)
    if path.startswith("notebooks/"):
        assert links["internal"] >= 3, f"{path}: {links['internal']} cross-references to the rest of the book"
    if path == "book/references.html":
        assert links["entries"] >= 5, f"{path}: only {links['entries']} bibliography entries"
        assert links["unlinked"] == [], f"{path}: entries with no DOI or URL: {links['unlinked']}"


def view_coverage(page, view, enough=0.25) -> float:
    """How much of a 3D view's canvas the model takes (:func:`coverage`), on everything the
    view drew while it was watched: until that reaches ``enough`` or :data:`WAIT_S` passes
    (so a slow machine, which draws later and fewer frames, is watched longer). A view with a
    play button is played while watched (then stopped)."""
    canvas = view.locator("canvas, img").first
    view.scroll_into_view_if_needed()
    mask = drawn_mask(canvas.screenshot())
    box = page.locator(".widget-vbox").filter(has=page.locator(".widget-play")).filter(has=view)
    buttons = box.last.locator(".widget-play button") if box.count() else None
    if buttons is not None:
        buttons.nth(0).click()                                    # play
    try:
        def seen():
            nonlocal mask
            mask |= drawn_mask(canvas.screenshot())
            return coverage(mask)
        try:
            return wait_until(seen, lambda c: c >= enough, "not enough of the canvas drawn")
        except AssertionError:
            return coverage(mask)                                 # the caller says what is wrong
    finally:
        if buttons is not None:
            buttons.nth(2).click()                                # stop


def blankness(png: bytes) -> float:
    """Fraction of pixels that differ clearly from the most common colour (the background)."""
    a = np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).reshape(-1, 3).astype(int)
    colors, counts = np.unique(a, axis=0, return_counts=True)
    bg = colors[np.argmax(counts)]
    return float(np.mean(np.abs(a - bg).sum(axis=1) > 40))


def changed(png1: bytes, png2: bytes) -> float:
    """Fraction of pixels that changed between two screenshots of the same element."""
    a = np.asarray(Image.open(io.BytesIO(png1)).convert("RGB")).astype(int)
    b = np.asarray(Image.open(io.BytesIO(png2)).convert("RGB")).astype(int)
    if a.shape != b.shape:
        return 1.0
    return float(np.mean(np.abs(a - b).sum(axis=2) > 30))


@pytest.fixture(scope="module")
def viz_page(browser, server):
    v = Visit(browser, server, VIZ_PAGE)
    yield v
    v.close()


def check_notebook_download(page, base, path):
    """A chapter page offers its notebook (the theme's download button), and the site serves it."""
    link = page.locator("a.btn-download-source-button[href$='.ipynb']")
    assert link.count() == 1, f"{path}: no download link to the chapter's notebook"
    url = f"{base}/{Path(path).parent.as_posix()}/{link.first.get_attribute('href')}"
    with urllib.request.urlopen(url) as r:
        nb = json.loads(r.read())
    assert nb["nbformat"] == 4 and any(c["cell_type"] == "code" for c in nb["cells"]), url


def check_typeset(page, path):
    """What a reader sees as broken: MathJax errors, raw TeX in the text, empty table cells."""
    page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    assert page.locator("mjx-merror").count() == 0, \
        f"{path}: MathJax errors: {page.locator('mjx-merror').all_inner_texts()}"
    raw = page.evaluate(RAW_TEX)
    assert raw == [], f"{path}: raw TeX in the text: {raw}"
    empty = page.evaluate(EMPTY_CELLS)
    assert empty == [], f"{path}: empty table cells in rows: {empty}"


@pytest.mark.parametrize("path", site_pages())
def test_page_loads_offline_without_errors(browser, server, path):
    v = Visit(browser, server, path)
    try:
        check_typeset(v.page, path)
        check_fits(v.page, path)
        check_links(v.page, path)
        if path.startswith("notebooks/"):
            check_notebook_download(v.page, server, path)
        assert v.outside == [], f"{path} asked other hosts: {v.outside}"
        assert v.errors == [], f"{path}: " + "\n".join(v.errors)
        views = v.page.locator(".jupyter-threejs")
        for k in range(views.count()):
            view = views.nth(k)
            view.scroll_into_view_if_needed()
            wait_until(lambda: blankness(view.screenshot()), lambda drawn: drawn > 0.002,
                       f"{path}: 3D view {k} looks blank (the fraction of pixels drawn)")
            fills = view_coverage(v.page, view)
            assert fills >= 0.25, f"{path}: the model in 3D view {k} fills only {fills:.0%} of its canvas"
        n_state = v.page.locator('script[type="application/vnd.jupyter.widget-state+json"]').count()
        n_views = v.page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
        if n_views:
            assert n_state == 1, f"{path} shows widgets but carries no widget state"
        assert not v.page.locator(".jupyter-widgets .widget-error, .jupyter-widgets-error-widget").count(), \
            f"{path}: a widget failed to render"
    finally:
        v.close()


def _box_with(page, selector):
    """The innermost ipywidgets VBox that holds a pythreejs view and ``selector``."""
    boxes = page.locator(".widget-vbox").filter(has=page.locator(selector)).filter(has=page.locator(".jupyter-threejs"))
    assert boxes.count() > 0, f"no widget box with {selector}"
    return boxes.last if boxes.count() == 1 else boxes.nth(0)


def _slider(box, description):
    s = box.locator(".widget-slider").filter(has_text=description)
    assert s.count() >= 1, f"no slider '{description}'"
    return s.first


def test_viz_page_has_every_kind_of_view(viz_page):
    p = viz_page.page
    # scenes, view controls, an animation (the joint sliders and the state explorer, whose sliders
    # need a kernel, show their code only; the RNEA stepper shows pictures drawn in advance)
    assert p.locator(".jupyter-threejs").count() >= 4
    assert p.locator(".widget-play").count() >= 1                 # the animation's buttons
    # HTMLMath widgets are typeset by the page's own MathJax (tools/offline/widgets-config.js)
    p.locator(".widget-htmlmath mjx-container").first.wait_for()   # (Playwright's timeout: WAIT_S)
    assert viz_page.errors == [] and viz_page.outside == []


def test_jslinked_opacity_slider_changes_the_view(viz_page):
    p = viz_page.page
    box = p.locator(".widget-vbox").filter(has=p.locator(".widget-slider", has_text="opacity")).first
    view = box.locator(".jupyter-threejs").first
    view.scroll_into_view_if_needed()
    before = wait_still(view, "the opacity view never stands still")
    handle = _slider(box, "opacity").locator(".noUi-handle").first
    handle.focus()
    handle.press("Home")                                          # to the slider's minimum, 0.05
    readout = _slider(box, "opacity").locator(".widget-readout").first
    wait_until(readout.inner_text, lambda r: _number(r) == pytest.approx(0.05),
               "the opacity readout did not go to 0.05")
    after = wait_until(view.screenshot, lambda shot: changed(before, shot) > 0.005,
                       "moving the jslinked opacity slider did not change the view")
    handle.press("End")                                           # back to opaque
    wait_until(view.screenshot, lambda shot: changed(before, shot) < changed(before, after),
               "moving the opacity slider back did not bring the view back")


def test_animation_play_advances_and_pause_stops(viz_page):
    p = viz_page.page
    box = p.locator(".widget-vbox").filter(has=p.locator(".widget-play")).first
    view = box.locator(".jupyter-threejs").first
    view.scroll_into_view_if_needed()
    buttons = box.locator(".widget-play button")
    still = wait_still(view, "the animation moves before play is pressed")
    buttons.nth(0).click()                                        # play
    wait_until(view.screenshot, lambda shot: changed(still, shot) > 0.002, "pressing play did not move the model")
    buttons.nth(1).click()                                        # pause
    wait_still(view, "pause did not stop the animation")


def test_speed_slider_is_linked_to_the_animation(viz_page):
    p = viz_page.page
    box = p.locator(".widget-vbox").filter(has=p.locator(".widget-play")).first
    view = box.locator(".jupyter-threejs").first
    view.scroll_into_view_if_needed()
    handle = _slider(box, "speed").locator(".noUi-handle").first
    buttons = box.locator(".widget-play button")
    handle.focus()
    handle.press("Home")                                          # speed 0: the clock stands still
    buttons.nth(0).click()
    frozen = wait_still(view, "speed 0 should hold the animation still")
    handle.focus()
    handle.press("End")                                           # speed 2
    wait_until(view.screenshot, lambda shot: changed(frozen, shot) > 0.002,
               "raising the speed did not restart the animation")
    buttons.nth(1).click()


def test_stepper_text_and_picture_follow_the_step_slider(viz_page):
    p = viz_page.page
    box = p.locator(".widget-vbox").filter(has=p.locator(".widget-slider", has_text="step")).first
    text = box.locator(".widget-html-content", has_text="pass, body").locator("visible=true")
    assert "forward pass, body 1" in text.first.inner_text()

    def picture():
        return box.locator(".widget-image").locator("visible=true").first.get_attribute("src")

    first = picture()
    handle = _slider(box, "step").locator(".noUi-handle").first
    handle.focus()
    handle.press("End")                                           # the last step: backward pass at the root
    shown = box.locator(".widget-html-content", has_text="pass, body").locator("visible=true").first
    wait_until(shown.inner_text, lambda t: "backward pass, body 1" in t and "rnea" in t,
               "the stepper's text did not follow the step slider to its last step")
    wait_until(picture, lambda src: src != first, "the stepper's picture did not follow the step slider")


def test_tree_builder_pictures_follow_the_sliders(browser, server):
    """Chapter 6: the sparsity explorer's pictures are stacked; the sliders pick one on the page."""
    v = Visit(browser, server, "notebooks/06-mass-matrix.html")
    try:
        p = v.page
        box = p.locator(".widget-vbox").filter(has=p.locator(".widget-slider", has_text="branching factor")).last
        box.scroll_into_view_if_needed()

        def shown():
            return box.locator(".widget-image").locator("visible=true").first.get_attribute("src")

        bushy = shown()
        handle = _slider(box, "branching factor").locator(".noUi-handle").first
        handle.focus()
        handle.press("Home")                                      # bf = 1: a chain
        chain = wait_until(shown, lambda src: src != bushy,
                           "moving the branching slider did not change the picture")
        handle = _slider(box, "bodies N").locator(".noUi-handle").first
        handle.focus()
        handle.press("Home")                                      # N = 4
        wait_until(shown, lambda src: src not in (chain, bushy),
                   "moving the size slider did not change the picture")
        assert v.errors == []
    finally:
        v.close()


def test_collision_report_follows_the_position_slider(browser, server):
    """Chapter 8: the report of each stop is stacked; the position slider picks one on the page."""
    v = Visit(browser, server, "notebooks/09-collision-detection.html")
    try:
        p = v.page
        box = p.locator(".widget-vbox").filter(has=p.locator(".widget-slider", has_text="position")).last
        box.scroll_into_view_if_needed()

        def report():
            return box.locator(".widget-html-content", has_text="broadphase").locator("visible=true").first.inner_text()

        middle = report()
        assert "<exclude>" in middle, middle                      # the egg passes the excluded upper arm
        handle = _slider(box, "position").locator(".noUi-handle").first
        handle.focus()
        for _ in range(3):                                        # 3 stops before the end: on the forearm
            handle.press("ArrowRight")
        wait_until(report, lambda later: later != middle and "contact: fore – egg" in later,
                   "the collision report did not follow the position slider to the forearm")
        assert v.errors == []
    finally:
        v.close()
