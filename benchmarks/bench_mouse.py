"""Simulated seconds per wall-clock second for the robot mouse trotting on flat ground
(issue 11; ``models/mouse/scene_flat.xml``, 5 ms steps, the lab's trot controller).

Rows:

1. **rbdl_edu**, the mouse trotting with contacts: the lab's loop
   (:func:`rbdl_edu.lab.run`: the controller, then ``rbd.step``). Until rbdl_edu simulates
   contacts (the soft-contact issue) this row says so, and the next one stands in.
2. **rbdl_edu, smooth pipeline only**: the same model and controller with ``rbd.step`` as it
   is today (no collision, no constraints: the mouse falls through the floor). A lower bound
   on the cost of a step with contacts; the time per stage shows where it goes.
3. **MuJoCo 4.0 + the lab's controller**: the same loop through ``rbdl_edu.lab.mujoco_engine``
   (the adapter the tests use), so the Python controller's cost is in it.
4. **MuJoCo 4.0 alone**: ``mj_step`` with the controls of a period computed beforehand.

The goal (issue 11) is at least real time (1x) for row 1 on this 2-core machine. Nothing
here asserts a time: it is a report. Run: ``python benchmarks/bench_mouse.py`` (about half
a minute), ``--seconds S`` for longer runs.
"""
from __future__ import annotations

import argparse
import importlib
import os
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import mujoco  # noqa: E402
import numpy as np  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu.lab import Gait, TrotController, run, scene_path, simulates_contacts  # noqa: E402
from rbdl_edu.lab.mujoco_engine import MUJOCO  # noqa: E402

FLAT = scene_path("flat")


def lab_loop(engine, seconds):
    """The lab's loop on ``engine``: simulated seconds per wall second, and per CPU second."""
    model = engine.load_model(FLAT)
    data = engine.Data(model)
    engine.reset(model, data, "stand")
    trot = TrotController(model, Gait())
    cpu = time.process_time()
    speed = run(engine, model, data, trot, seconds)
    return speed, seconds / max(time.process_time() - cpu, 1e-12), data


def stages(seconds):
    """Wall time per step of each stage of ``rbd.step`` (smooth pipeline), in ms."""
    fwd = importlib.import_module("rbdl_edu.simulation.forward")
    integ = importlib.import_module("rbdl_edu.simulation.integrators")
    act = importlib.import_module("rbdl_edu.smooth.actuation")
    model = rbd.load_model(FLAT)
    data = rbd.Data(model)
    rbd.reset(model, data, "stand")
    trot = TrotController(model, Gait())
    parts = {"position": fwd.position, "velocity": fwd.velocity, "actuation": act.actuation,
             "acceleration": fwd.acceleration, "integrate": integ.integrate}
    total = dict.fromkeys(parts, 0.0)
    total["controller"] = 0.0
    n = max(1, round(seconds / model.opt.timestep))
    for _ in range(n):
        t = time.perf_counter()
        trot(data)
        total["controller"] += time.perf_counter() - t
        for name, f in parts.items():
            t = time.perf_counter()
            f(model, data)
            total[name] += time.perf_counter() - t
    return {k: 1e3 * v / n for k, v in total.items()}


def mujoco_alone(seconds):
    """``mj_step`` with precomputed controls: simulated seconds per wall second."""
    m = mujoco.MjModel.from_xml_path(str(FLAT))
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, 0)
    trot = TrotController(MUJOCO.load_model(FLAT), Gait())
    N = trot.steps_per_period
    ctrl = np.zeros((N, m.nu))
    ctrl[:, trot.ids] = trot.targets(np.arange(N)).T
    n = round(seconds / m.opt.timestep)
    start = time.perf_counter()
    for k in range(n):
        d.ctrl[:] = ctrl[k % N]
        mujoco.mj_step(m, d)
    return seconds / (time.perf_counter() - start), d


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="simulated seconds for rbdl_edu (MuJoCo: 10x)")
    args = parser.parse_args()
    s = args.seconds
    print(f"robot mouse, flat ground, 5 ms steps; rbdl_edu {s:g} s simulated, MuJoCo {10 * s:g} s")
    print(f"{'':44s} {'sim s / wall s':>15s} {'sim s / CPU s':>14s}")
    if simulates_contacts(rbd):
        speed, cpu, data = lab_loop(rbd, s)
        print(f"{'rbdl_edu, trot with contacts':44s} {speed:15.3f} {cpu:14.3f}   (x = {data.qpos[0]:.3f} m)")
    else:
        print(f"{'rbdl_edu, trot with contacts':44s} {'—':>15s} {'—':>14s}   rbdl_edu does not simulate contacts yet")
    speed, cpu, _ = lab_loop(rbd, s)
    print(f"{'rbdl_edu, smooth pipeline (no contacts)':44s} {speed:15.3f} {cpu:14.3f}")
    ms = stages(min(s, 0.5))
    print("    ms per step: " + ", ".join(f"{k} {v:.2f}" for k, v in ms.items())
          + f"; total {sum(ms.values()):.2f} (real time needs <= 5)")
    speed, cpu, data = lab_loop(MUJOCO, 10 * s)
    print(f"{'MuJoCo 4.0 + the lab controller (Python)':44s} {speed:15.1f} {cpu:14.1f}   (x = {data.qpos[0]:.3f} m)")
    speed, d = mujoco_alone(10 * s)
    print(f"{'MuJoCo 4.0 alone (mj_step)':44s} {speed:15.1f} {'':>14s}   (x = {d.qpos[0]:.3f} m)")


if __name__ == "__main__":
    main()
