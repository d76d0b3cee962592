#!/usr/bin/env python3
"""Measure the run times the book plots, and commit them as tables in ``book/data/``.

Timings measured while the book builds would change from build to build (a shared
machine, a busy CI runner) and could contradict the text. So the chapters plot a table
measured once, here, on a named machine, and assert the claims they make on it:

* ``forward-dynamics``: chapter 7 — ``aba`` against CRBA + Cholesky and CRBA + tree-sparse
  LTDL, on chains (``bf = 1``) and bushy trees (``bf = 4``) of N = 2 ... 64 bodies;
* ``broadphase``: chapter 9 — sweep and prune against all pairs on n spheres filling a cube
  (``benchmarks/bench_broadphase.py``), n = 10 ... 2000;
* ``mouse-speed``: chapter 11 — one step of the lab's trot (controller and ``step``) on flat
  ground and beside each obstacle, rbdl_edu (NumPy, and accelerated: the smooth half compiled
  with JAX) against MuJoCo's ``mj_step`` (``benchmarks/bench_speed.py``'s mouse rows), and
  what that is in real time.

Each time is the median over repeats of a loop long enough to measure, in CPU time of this
process (one BLAS thread), with the garbage collector off. Run from the repository root:

    python tools/bench_book.py [forward-dynamics] [broadphase] [mouse-speed]     # a few minutes
"""
from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import datetime  # noqa: E402
import gc  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.linalg  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu import factor  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "book" / "data"


def cpu_seconds_per_call(f, min_time=0.1, repeat=7):
    """Median CPU time of one call of ``f``, over ``repeat`` loops of at least ``min_time``."""
    f()                                               # warm up (imports, caches)
    n = 1
    while True:
        t0 = time.process_time()
        for _ in range(n):
            f()
        if time.process_time() - t0 >= min_time:
            break
        n *= 2
    times = []
    gc.disable()
    try:
        for _ in range(repeat):
            t0 = time.process_time()
            for _ in range(n):
                f()
            times.append((time.process_time() - t0) / n)
    finally:
        gc.enable()
    return statistics.median(times)


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
    except OSError:
        commit = "unknown"
    return {"machine": f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}",
            "software": f"Python {platform.python_version()}, NumPy {np.__version__}, SciPy {scipy.__version__}",
            "measured": f"{datetime.date.today().isoformat()}, rbdl_edu at commit {commit}",
            "clock": "CPU time of the process, median of 7 loops of at least 0.1 s, one BLAS thread"}


def write(name, header, columns, rows):
    DATA.mkdir(parents=True, exist_ok=True)
    lines = [f"# {k}: {v}" for k, v in header.items()] + [",".join(columns)]
    lines += [",".join(f"{x:.6g}" if isinstance(x, float) else str(x) for x in row) for row in rows]
    (DATA / f"{name}.csv").write_text("\n".join(lines) + "\n")
    print(f"wrote {DATA / f'{name}.csv'} ({len(rows)} rows)")


def forward_dynamics(sizes=(2, 4, 8, 16, 32, 64)):
    rows = []
    for tree, bf in (("chain", 1.0), ("bushy", 4.0)):
        for n in sizes:
            model = rbd.models.auto_tree(n, bf=bf, skew=0.3, seed=0)
            rng = np.random.default_rng(n)
            q, qd, tau = model.qpos0, rng.normal(size=model.nv), rng.normal(size=model.nv)

            def via_cholesky():
                M = rbd.crba(model, q)
                return scipy.linalg.cho_solve(scipy.linalg.cho_factor(M), tau - rbd.bias(model, q, qd))

            def via_ltdl():
                M = rbd.crba(model, q)
                return factor.solve_ltdl(model, factor.factor_ltdl(model, factor.to_tree_sparse(model, M)),
                                         tau - rbd.bias(model, q, qd))

            for method, f in (("ABA", lambda: rbd.aba(model, q, qd, tau)), ("CRBA + Cholesky", via_cholesky),
                              ("CRBA + LTDL", via_ltdl)):
                t = cpu_seconds_per_call(f)
                rows.append((tree, n, method, t))
                print(f"{tree:6s} N = {n:3d} {method:16s} {1e3 * t:9.3f} ms", flush=True)
    write("forward-dynamics", {"title": "forward dynamics, seconds per call (book chapter 7)", **machine()},
          ["tree", "n", "method", "seconds"], rows)


def broadphase(sizes=(10, 30, 100, 300, 1000, 2000)):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_broadphase as bb
    from rbdl_edu.collision.broadphase import body_boxes, broadphase as sweep, sap_frame
    from rbdl_edu.collision.geometry import geom_aabb, geom_poses, geom_rbound

    rows = []
    for n in sizes:
        model = bb.scene(n)
        gpos, gmat = geom_poses(model, rbd.Data(model).qpos)
        rb, ab = geom_rbound(model), geom_aabb(model)
        boxes = body_boxes(model, gpos, gmat, rb, ab, list(range(1, model.nbody)), sap_frame(model, gpos))
        assert len(sweep(model, gpos, gmat, rb, ab)) == len(bb.all_pairs(boxes))
        for method, f in (("sweep and prune", lambda: sweep(model, gpos, gmat, rb, ab)),
                          ("all pairs", lambda: bb.all_pairs(boxes))):
            t = cpu_seconds_per_call(f, repeat=7 if n <= 300 else 3)
            rows.append((n, method, t))
            print(f"n = {n:5d} {method:16s} {1e3 * t:10.3f} ms", flush=True)
    write("broadphase", {"title": "broadphase, seconds per call (book chapter 9)", **machine()},
          ["n", "method", "seconds"], rows)


MOUSE_ROWS = {"flat": "mouse_flat", "humps": "mouse_humps", "bars": "mouse_bars", "boards": "mouse_boards",
              "arc": "mouse_arc", "slope": "mouse_slope", "terrain": "mouse_terrain"}


def mouse_speed():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_speed as bs
    from rbdl_edu.lab import scene_path

    h = rbd.load_model(str(scene_path("flat"))).opt.timestep
    rows = []
    for scene, row in MOUSE_ROWS.items():
        ours, theirs = bs.ROWS[row](False)
        fast, _ = bs.ROWS[row](True)                 # accelerated: the smooth half compiled with JAX
        fast()                                       # (its first step compiles: not measured)
        for engine, f in (("rbdl_edu", ours), ("rbdl_edu-accelerated", fast), ("mujoco", theirs)):
            t = cpu_seconds_per_call(f)
            rows.append((scene, engine, t, h / t))
            print(f"{scene:8s} {engine:20s} {1e3 * t:9.4f} ms per step, {h / t:9.2f}x real time", flush=True)
    write("mouse-speed", {"title": f"the mouse's trot, seconds per {1e3 * h:g} ms step (book chapter 11)",
                          **machine()},
          ["scene", "engine", "seconds", "real_time_factor"], rows)


if __name__ == "__main__":
    which = sys.argv[1:] or ["forward-dynamics", "broadphase", "mouse-speed"]
    if "forward-dynamics" in which:
        forward_dynamics()
    if "broadphase" in which:
        broadphase()
    if "mouse-speed" in which:
        mouse_speed()
