#!/usr/bin/env python3
"""Fetch the JavaScript the book's pages need, so the built site works with no internet.

The widget manager (``@jupyter-widgets/html-manager``), require.js, the pythreejs bundle
(``jupyter-threejs``) and MathJax come from the npm registry (``npm pack``: the package
tarball only, no dependencies), pinned by version and by the registry's sha512 integrity.
They are unpacked into ``_offline/_static/offline/``; ``_config.yml`` lists ``_offline`` in
``html_extra_path``, so they land in ``_build/html/_static/offline/`` and every page
refers to them there. (They stay out of the source ``_static/`` folder: Jupyter Book 1
adds every ``_static/**/*.js`` to every page.)

Usage: ``python tools/fetch_static.py`` (``make book`` runs it). Idempotent: it does
nothing when ``_offline/_static/offline/VERSIONS.txt`` already lists these pins.
"""
from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / "_offline" / "_static" / "offline"

# name, version, sha512 integrity (from the registry), [(member in the tarball, where it goes)]
PACKAGES = [
    ("@jupyter-widgets/html-manager", "1.0.15",
     "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
     [("package/dist/", "html-manager/")]),
    ("requirejs", "2.3.7",
     "sha512-DouTG8T1WanGok6Qjg2SXuCMzszOo0eHeH9hDZ5Y4x8Je+9JB38HdTLT4/VA8OaUhBa0JPVHJ0pyBkM1z+pDsw==",
     [("package/require.js", "require.js")]),
    ("jupyter-threejs", "2.4.1",
     "sha512-AFoYllRmV5Hy1Hbyq8NR09KXiFE+9qQ4zPlKW5RAzkRjdvO56rWM4hzSKNSnW/GH/8FcqMVE2SnGHOP/ZmFwSw==",
     [("package/dist/", "jupyter-threejs/")]),
    ("mathjax", "3.2.2",
     "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
     [("package/es5/", "mathjax/")]),
]
SKIP_SUFFIXES = (".map",)
# MathJax ships many combined builds; the book uses tex-mml-chtml.js and what it loads lazily
MATHJAX_SKIP = ("svg", "full", "node-main", "mml-chtml.js", "tex-chtml.js", "startup.js", "core.js",
                "loader.js", "latest.js")
OWN_FILES = [ROOT / "tools" / "offline" / "widgets-config.js"]


def stamp_text() -> str:
    own = {p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in OWN_FILES}
    return json.dumps({"npm": [f"{n}@{v}" for n, v, _, _ in PACKAGES], "own": own}, indent=1) + "\n"


def check_integrity(path: Path, integrity: str) -> None:
    algo, _, want = integrity.partition("-")
    got = base64.b64encode(hashlib.new(algo, path.read_bytes()).digest()).decode()
    if got != want:
        sys.exit(f"fetch_static: {path.name}: integrity mismatch (got {algo}-{got}, pinned {integrity})")


def skipped(name: str, rel: str) -> bool:
    if rel.endswith(SKIP_SUFFIXES):
        return True
    if name == "mathjax" and "/" not in rel.rstrip("/").split("mathjax/", 1)[-1]:
        return any(s in rel.rsplit("/", 1)[-1] for s in MATHJAX_SKIP) and not rel.endswith("tex-mml-chtml.js")
    return False


def fetch(tmp: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("fetch_static: npm not found; install Node.js (it brings npm) to build the book")
    out = DEST.with_name("offline.partial")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for name, version, integrity, members in PACKAGES:
        print(f"fetch_static: npm pack {name}@{version}", flush=True)
        res = subprocess.run([npm, "pack", f"{name}@{version}", "--json", "--pack-destination", str(tmp)],
                             check=True, capture_output=True, text=True, cwd=tmp)
        filename = json.loads(res.stdout)[0]["filename"].replace("@", "").replace("/", "-")
        tgz = next(tmp.glob(filename)) if list(tmp.glob(filename)) else sorted(tmp.glob("*.tgz"))[-1]
        check_integrity(tgz, integrity)
        with tarfile.open(tgz) as tar:
            for m in tar.getmembers():
                if not m.isfile():
                    continue
                for src, dst in members:
                    if m.name == src or (src.endswith("/") and m.name.startswith(src)):
                        rel = dst + m.name[len(src):] if src.endswith("/") else dst
                        if skipped(name, rel):
                            continue
                        target = out / rel
                        target.parent.mkdir(parents=True, exist_ok=True)
                        with tar.extractfile(m) as f:
                            target.write_bytes(f.read())
        tgz.unlink()
    for p in OWN_FILES:
        shutil.copy2(p, out / p.name)
    (out / "VERSIONS.txt").write_text(stamp_text())
    shutil.rmtree(DEST, ignore_errors=True)
    out.rename(DEST)


def main() -> None:
    stamp = DEST / "VERSIONS.txt"
    if stamp.exists() and stamp.read_text() == stamp_text():
        print(f"fetch_static: up to date ({DEST.relative_to(ROOT)})")
        return
    with tempfile.TemporaryDirectory() as tmp:
        fetch(Path(tmp))
    size = sum(p.stat().st_size for p in DEST.rglob("*") if p.is_file())
    print(f"fetch_static: {DEST.relative_to(ROOT)} ready ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
