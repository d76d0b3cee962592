#!/usr/bin/env python3
"""Execute chapter notebooks in place, as they are committed: outputs and widget state saved.

The committed notebooks carry their outputs because ``nbval`` (``make test``) compares a
fresh run with them, and their widget state because the 3D views of the book pages are
embedded from it. After changing a chapter (or the package under it), run it again:

    python tools/run_notebooks.py notebooks/04-equations-of-motion.ipynb [...]

Notebooks run in ``notebooks/`` with the full settings (``RBDL_EDU_FAST`` unset: long
simulations and studies at full length); under ``make test`` nbval runs them with
``RBDL_EDU_FAST=1`` and the printed outputs must be the same.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def run(path: Path, timeout: int = 1800) -> float:
    nb = nbformat.read(path, as_version=4)
    env_fast = os.environ.pop("RBDL_EDU_FAST", None)
    try:
        t0 = time.perf_counter()
        NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}},
                       store_widget_state=True).execute()
        took = time.perf_counter() - t0
    finally:
        if env_fast is not None:
            os.environ["RBDL_EDU_FAST"] = env_fast
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    if errors:           # e.g. a figure that fails to draw after its cell finished
        raise RuntimeError(f"{path}: {len(errors)} error output(s): {errors[0].ename}: {errors[0].evalue}")
    nbformat.write(nb, path)
    return took


def main(paths: list[str]) -> int:
    for p in paths:
        took = run(Path(p).resolve())
        print(f"{p}: executed in {took:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
