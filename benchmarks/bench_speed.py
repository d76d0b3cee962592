"""CPU ms per ``rbd.step`` on five rows (issue "Speed"), best of several runs, and MuJoCo's on
the same rows; ``--profile ROW`` prints cProfile's top entries (tottime) for one row.

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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GYM = os.path.join(os.path.dirname(importlib.util.find_spec("gymnasium").origin), "envs", "mujoco", "assets")


def smooth(path):
    """Our model and MuJoCo's of ``path`` with constraints off, at a random state."""
    m = mujoco.MjModel.from_xml_path(path)
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    model = rbd.load_model(path)
    model = model.replace(opt=dataclasses.replace(model.opt, disableflags=model.opt.disableflags | {"constraint"}))
    data, d = rbd.Data(model), mujoco.MjData(m)
    rng = np.random.default_rng(0)
    d.ctrl[:] = data.ctrl[:] = rng.uniform(-0.3, 0.3, m.nu)
    data.qvel[:] = d.qvel[:] = 0.1 * rng.normal(size=m.nv)
    return (lambda: rbd.step(model, data)), (lambda: mujoco.mj_step(m, d))


def mouse(scene, x0=0.0, warm=40):
    """The lab's trot on ``scene`` from ``x0``: controller then step, in both engines, after
    ``warm`` steps (so the feet touch whatever they touch)."""
    path = str(scene_path(scene))
    model, m = rbd.load_model(path), mujoco.MjModel.from_xml_path(path)
    data, d = rbd.Data(model), mujoco.MjData(m)
    rbd.reset(model, data, "stand")
    mujoco.mj_resetDataKeyframe(m, d, 0)
    data.qpos[0] = d.qpos[0] = x0
    trot = TrotController(model, Gait())
    k = [0]

    def ours():
        trot(data)
        rbd.step(model, data)

    def theirs():
        d.ctrl[:] = data.ctrl
        mujoco.mj_step(m, d)
    for _ in range(warm):
        ours()
    return ours, theirs


ROWS = {
    "pendulum": lambda: smooth(os.path.join(ROOT, "models", "double_pendulum.xml")),
    "humanoid": lambda: smooth(os.path.join(GYM, "humanoid.xml")),
    "mouse_smooth": lambda: smooth(str(scene_path("flat"))),
    "mouse_flat": lambda: mouse("flat"),
    "mouse_humps": lambda: mouse("ellipsoids", x0=0.29),
    # beside each other obstacle scene of the lab (issue 20: at least real time beside every one)
    "mouse_bars": lambda: mouse("capsules", x0=0.29),
    "mouse_boards": lambda: mouse("boards", x0=0.34),
    "mouse_arc": lambda: mouse("arc", x0=0.25),
    "mouse_slope": lambda: mouse("slope", x0=0.25),
    "mouse_terrain": lambda: mouse("terrain", x0=0.25),
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
    args = parser.parse_args()
    if args.profile:
        ours, _ = ROWS[args.profile]()
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
    print(f"{'row':12s} {'rbd ms':>9s} {'mj ms':>9s} {'ratio':>8s}")
    for name in args.rows:
        ours, theirs = ROWS[name]()
        a = best_ms(ours, args.n)
        b = best_ms(theirs, 500)
        print(f"{name:12s} {a:9.2f} {b:9.4f} {a / b:8.0f}", flush=True)


if __name__ == "__main__":
    main()
