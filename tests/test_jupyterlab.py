"""``make lab`` in a real browser: JupyterLab starts on copies of the chapter notebooks, a
chapter runs in its kernel, and moving one of its sliders changes its 3D view — the round
trip browser → kernel → pythreejs → browser that the static book cannot show.

The server is the README's command, ``make lab``, with ``LAB_DIR`` pointing at a temporary
folder and ``LAB_ARGS`` adding a port and no token (and no browser of its own); Chromium is
Debian's, driven by Playwright, with every host other than the server blocked. The
committed notebook must be byte for byte the same afterwards.
"""
from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pytest
from PIL import Image

CHROMIUM = os.environ.get("RBDL_EDU_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                 "--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "01-spatial-algebra.ipynb"          # its last widget: six joint sliders moving a frame
# seconds a condition may take to come true (server up, kernel idle, a view changed): generous,
# for loaded machines; nothing passes or fails by how fast it happens
WAIT_S = float(os.environ.get("RBDL_EDU_BROWSER_WAIT", "300"))


def wait_until(get, ok, what):
    """Poll ``get()`` until ``ok(value)``; return the value, or fail with ``what`` after WAIT_S."""
    deadline = time.monotonic() + WAIT_S
    while True:
        value = get()
        if ok(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} (still so after {WAIT_S:g} s; last: {str(value)[:300]})")
        time.sleep(0.25)


def changed(png1: bytes, png2: bytes) -> float:
    """Fraction of pixels that changed between two screenshots of the same element."""
    a = np.asarray(Image.open(io.BytesIO(png1)).convert("RGB")).astype(int)
    b = np.asarray(Image.open(io.BytesIO(png2)).convert("RGB")).astype(int)
    return 1.0 if a.shape != b.shape else float(np.mean(np.abs(a - b).sum(axis=2) > 30))


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("lab")
    port = _free_port()
    args = (f"--no-browser --ip=127.0.0.1 --port={port} --ServerApp.token= --ServerApp.password= "
            f"--ServerApp.disable_check_xsrf=True")
    log = open(work / "server.log", "w")
    proc = subprocess.Popen(["make", "--no-print-directory", "lab", f"LAB_DIR={work}", f"LAB_ARGS={args}"],
                            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:                    # JupyterLab takes a few seconds
            if proc.poll() is not None:
                raise RuntimeError(f"make lab exited with {proc.returncode}:\n{(work / 'server.log').read_text()}")
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=10)
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError(f"JupyterLab did not answer on {url} in {WAIT_S:g} s:\n{(work / 'server.log').read_text()}")
        yield url, work
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)               # make and the server it started
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def test_make_lab_copies_the_notebooks_and_has_the_extensions(lab):
    url, work = lab
    assert sorted(p.name for p in work.glob("*.ipynb")) == sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert "new notebook copies" in (work / "server.log").read_text()


def test_a_slider_moves_the_3d_view_through_the_kernel(lab):
    url, work = lab
    committed = (ROOT / "notebooks" / NOTEBOOK).read_bytes()
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright
    host = urlparse(url).netloc
    outside = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})

        def route(r):
            u = urlparse(r.request.url)
            if u.scheme in ("http", "https", "ws", "wss") and u.netloc != host:
                outside.append(r.request.url)
                return r.abort()
            return r.continue_()

        context.route("**/*", route)
        context.set_default_timeout(WAIT_S * 1000)
        context.set_default_navigation_timeout(WAIT_S * 1000)
        page = context.new_page()
        page.goto(f"{url}/lab/tree/{NOTEBOOK}")
        page.locator(".jp-Notebook").first.wait_for(timeout=WAIT_S * 1000)
        # a fresh JupyterLab may ask which kernel to start: the notebook's own, python3
        select = page.locator(".jp-Dialog button", has_text="Select")
        try:
            select.wait_for(timeout=15_000)
            select.click()
        except Exception:
            pass                                               # no question asked
        # wait for the kernel, then Run > Run All Cells
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=WAIT_S * 1000)
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        # the box of the frame's six joint sliders and its 3D view (JupyterLab draws only the
        # cells near the screen, so it is attached first and scrolled to)
        box = page.locator(".widget-vbox:has(.widget-slider:has-text('pitch')):has(.jupyter-threejs)").last
        try:
            box.wait_for(state="attached", timeout=WAIT_S * 1000)
        except Exception:
            page.screenshot(path=str(work / "lab-timeout.png"))
            raise
        page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").first.wait_for(timeout=WAIT_S * 1000)
        box.scroll_into_view_if_needed()
        canvas = box.locator(".jupyter-threejs canvas").first
        canvas.wait_for(timeout=WAIT_S * 1000)
        canvas.scroll_into_view_if_needed()
        shots = [canvas.screenshot()]

        def still():                                          # two pictures 0.6 s apart agree
            time.sleep(0.6)
            shots.append(canvas.screenshot())
            return changed(shots[-2], shots[-1])

        wait_until(still, lambda c: c < 0.001, "the 3D view never stood still before the slider moved")
        before = shots[-1]
        handle = box.locator(".widget-slider", has_text="yaw").locator(".noUi-handle").first
        handle.focus()
        for _ in range(40):                                   # turn the frame about z, key by key
            handle.press("ArrowRight")
        readout = box.locator(".widget-slider", has_text="yaw").locator(".widget-readout").first
        wait_until(readout.inner_text, lambda r: float(r) != pytest.approx(0.6), "the yaw slider did not move")
        wait_until(canvas.screenshot, lambda after: changed(before, after) > 0.003,
                   "moving the slider did not change the 3D view through the kernel")
        assert page.get_by_text("Error displaying widget").count() == 0
        browser.close()
    assert outside == [], f"JupyterLab asked other hosts: {outside}"
    assert (ROOT / "notebooks" / NOTEBOOK).read_bytes() == committed, "the committed notebook changed"
