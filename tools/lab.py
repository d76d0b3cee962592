#!/usr/bin/env python3
"""Get JupyterLab ready for the chapter notebooks (``make lab`` runs it, then starts JupyterLab).

The committed notebooks in ``notebooks/`` carry the outputs that ``nbval`` compares, so a
reader works on copies: ``prepare`` copies every chapter notebook that is not there yet
into ``_lab/`` (a copy you have worked on is never overwritten: delete it to get a fresh
one) and checks that what the notebooks need in the browser is installed and enabled:

- the ``python3`` kernel of this environment (``ipykernel``);
- the ipywidgets manager (``@jupyter-widgets/jupyterlab-manager``, from ``jupyterlab_widgets``);
- the pythreejs extension (``jupyter-threejs``, shipped in the ``pythreejs`` wheel).

Usage: ``python tools/lab.py prepare [DIR]`` (default ``_lab``); ``python tools/lab.py check``.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NEEDED_EXTENSIONS = ("@jupyter-widgets/jupyterlab-manager", "jupyter-threejs")


def labextensions() -> dict:
    """``{name: "enabled OK"}`` for the prebuilt JupyterLab extensions this environment has,
    as ``jupyter labextension list`` reports them (``"disabled"``, ``"X"`` for a problem)."""
    res = subprocess.run([sys.executable, "-m", "jupyter", "labextension", "list"], capture_output=True, text=True)
    if res.returncode != 0:
        raise ImportError(res.stderr.strip() or "jupyter labextension list failed")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", res.stdout + res.stderr)       # without terminal colours
    return {m.group(1): m.group(2) for m in re.finditer(r"^\s+(\S+) v\S+ (\w+(?: \S+)?)", plain, re.M)}


def check() -> list[str]:
    """What is missing for widgets and 3D views in JupyterLab (an empty list: nothing)."""
    problems = []
    try:
        exts = labextensions()
    except ImportError:
        return ["JupyterLab is not installed in this environment (make lab installs it)"]
    for name in NEEDED_EXTENSIONS:
        if name not in exts:
            problems.append(f"JupyterLab extension {name} is not installed")
        elif exts[name] != "enabled OK":
            problems.append(f"JupyterLab extension {name}: {exts[name]}")
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_all_specs().get("python3")
    if spec is None:
        problems.append("no python3 kernel (pip install ipykernel)")
    return problems


def prepare(dest: Path) -> list[Path]:
    """Copy the chapter notebooks that ``dest`` does not have yet; return the new copies."""
    dest.mkdir(parents=True, exist_ok=True)
    copied = []
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        target = dest / nb.name
        if not target.exists():
            shutil.copy2(nb, target)
            copied.append(target)
    return copied


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "prepare"
    problems = check()
    for p in problems:
        print(f"lab: {p}", file=sys.stderr)
    if problems:
        return 1
    if command == "check":
        print("lab: widgets, pythreejs and the python3 kernel are ready")
        return 0
    dest = Path(argv[2]) if len(argv) > 2 else ROOT / "_lab"
    copied = prepare(dest)
    print(f"lab: {len(copied)} new notebook copies in {dest} "
          f"(the committed notebooks/ stay untouched; delete a copy to get a fresh one)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
