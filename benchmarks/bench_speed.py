"""CPU ms per ``rbd.step`` on five rows (issue "Speed"), best of several runs, and MuJoCo's on
the same rows; ``--profile ROW`` prints cProfile's top entries (tottime) for one row.

Two columns for rbdl_edu: the NumPy pipeline (the reference), and the same model after
``rbdl_edu.simulation.accelerated.accelerate`` (the smooth half of each stage pass compiled
with JAX; its compile, seconds per model, is printed apart and not in the time per step).
``--accelerated`` with ``--profile`` profiles the accelerated model.

Rows: the double pendulum (Euler), the gymnasium humanoid (constraints off, RK4), the robot
mouse with constraints off (implicitfast), the mouse trotting on flat ground (contacts) and
the mouse trotting into each obstacle of the lab: the ellipsoid humps, the bars (capsules),
the boards, the arc (a cylinder), the slope and the height-field terrain (contacts). Run from
the repository root: ``python benchmarks/bench_speed.py``.
"""
from __future__ import annotations

import argparse
import cProfile
import dataclasses
import importlib.util
import os
import pstats
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import mujoco  # noqa: E402
import numpy as np  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu.lab import Gait, TrotController, scene_path  # noqa: E402
from rbdl_edu.simulation.accelerated import accelerate  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GYM = os.path.join(os.path.dirname(importlib.util.find_spec("gymnasium").origin), "envs", "mujoco", "assets")


def smooth(path, fast=False):
    """Our model and MuJoCo's of ``path`` with constraints off, at a random state (``fast``: our
    model accelerated)."""
    m = mujoco.MjModel.from_xml_path(path)
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    model = rbd.load_model(path)
    model = model.replace(opt=dataclasses.replace(model.opt, disableflags=model.opt.disableflags | {"constraint"}))
    model = accelerate(model) if fast else model
    data, d = rbd.Data(model), mujoco.MjData(m)
    rng = np.random.default_rng(0)
    d.ctrl[:] = data.ctrl[:] = rng.uniform(-0.3, 0.3, m.nu)
    data.qvel[:] = d.qvel[:] = 0.1 * rng.normal(size=m.nv)
    return (lambda: rbd.step(model, data)), (lambda: mujoco.mj_step(m, d))


def mouse(scene, x0=0.0, warm=40, fast=False):
    """The lab's trot on ``scene`` from ``x0``: controller then step, in both engines, after
    ``warm`` steps (so the feet touch whatever they touch; ``fast``: our model accelerated)."""
    path = str(scene_path(scene))
    model, m = rbd.load_model(path), mujoco.MjModel.from_xml_path(path)
    model = accelerate(model) if fast else model
    data, d = rbd.Data(model), mujoco.MjData(m)
    rbd.reset(model, data, "stand")
    mujoco.mj_resetDataKeyframe(m, d, 0)
    data.qpos[0] = d.qpos[0] = x0
    trot = TrotController(model, Gait())

    def ours():
        trot(data)
        rbd.step(model, data)

    def theirs():
        d.ctrl[:] = data.ctrl
        mujoco.mj_step(m, d)
    for _ in range(warm):
        ours()
    return ours, theirs


ROWS = {            # each row: fast -> (ours, theirs)
    "pendulum": lambda fast: smooth(os.path.join(ROOT, "models", "double_pendulum.xml"), fast),
    "humanoid": lambda fast: smooth(os.path.join(GYM, "humanoid.xml"), fast),
    "mouse_smooth": lambda fast: smooth(str(scene_path("flat")), fast),
    "mouse_flat": lambda fast: mouse("flat", fast=fast),
    "mouse_humps": lambda fast: mouse("ellipsoids", x0=0.29, fast=fast),
    # beside each other obstacle scene of the lab (issue 20: at least real time beside every one)
    "mouse_bars": lambda fast: mouse("capsules", x0=0.29, fast=fast),
    "mouse_boards": lambda fast: mouse("boards", x0=0.34, fast=fast),
    "mouse_arc": lambda fast: mouse("arc", x0=0.25, fast=fast),
    "mouse_slope": lambda fast: mouse("slope", x0=0.25, fast=fast),
    "mouse_terrain": lambda fast: mouse("terrain", x0=0.25, fast=fast),
}


def best_ms(f, n, repeats=5):
    best = np.inf
    for _ in range(repeats):
        t = time.process_time()
        for _ in range(n):
            f()
        best = min(best, (time.process_time() - t) / n)
    return 1e3 * best


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", choices=list(ROWS))
    parser.add_argument("--rows", nargs="*", default=list(ROWS))
    parser.add_argument("-n", type=int, default=20)
    parser.add_argument("--accelerated", action="store_true", help="with --profile: the accelerated model")
    parser.add_argument("--numpy-only", action="store_true", help="leave out the accelerated column")
    args = parser.parse_args()
    if args.profile:
        ours, _ = ROWS[args.profile](args.accelerated)
        ours()
        p = cProfile.Profile()
        p.enable()
        for _ in range(args.n):
            ours()
        p.disable()
        st = pstats.Stats(p)
        print(f"{st.total_calls / args.n:.0f} calls per step")
        st.sort_stats("tottime").print_stats(25)
        return
    print(f"{'row':13s} {'rbd ms':>8s} {'accel ms':>9s} {'mj ms':>8s} {'ratio':>6s} {'accel':>6s} {'compile s':>9s}")
    for name in args.rows:
        ours, theirs = ROWS[name](False)
        a = best_ms(ours, args.n)
        b = best_ms(theirs, 500)
        fast, compile_s = float("nan"), float("nan")
        if not args.numpy_only:
            t = time.process_time()
            ours_fast, _ = ROWS[name](True)
            ours_fast()                                  # the first step compiles
            compile_s = time.process_time() - t
            fast = best_ms(ours_fast, args.n)
        print(f"{name:13s} {a:8.2f} {fast:9.2f} {b:8.4f} {a / b:6.0f} {fast / b:6.0f} {compile_s:9.1f}", flush=True)


if __name__ == "__main__":
    main()
