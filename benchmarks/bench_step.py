"""Steps per second of ``rbd.step`` next to ``mujoco.mj_step`` on the same file (issue 9, and
issue 10 once contacts exist).

Rows: the double pendulum of ``models/``, the gymnasium humanoid and the robot mouse, with
constraints off in both engines (the smooth pipeline), and for each integrator the model
asks for. Each row is checked first: one step of ours equals one ``mj_step`` to 1e-9.
CPU time of this process, best of several runs of a few hundred steps. Nothing here asserts a
time. Run: ``python benchmarks/bench_step.py`` (a minute).
"""
from __future__ import annotations

import dataclasses
import importlib.util
import os
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import mujoco  # noqa: E402
import numpy as np  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu.lab import scene_path  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GYM = os.path.join(os.path.dirname(importlib.util.find_spec("gymnasium").origin), "envs", "mujoco", "assets")


def pair(path, constraints=False):
    m = mujoco.MjModel.from_xml_path(path)
    model = rbd.load_model(path)
    if not constraints:
        m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
        model = model.replace(opt=dataclasses.replace(model.opt, disableflags=model.opt.disableflags | {"constraint"}))
    return model, m


def steps_per_second(step, n):
    best = 0.0
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(n):
            step()
        best = max(best, n / max(time.process_time() - t0, 1e-12))
    return best


def row(name, path, n, constraints=False):
    model, m = pair(path, constraints)
    data, d = rbd.Data(model), mujoco.MjData(m)
    rng = np.random.default_rng(0)
    d.ctrl[:] = data.ctrl[:] = rng.uniform(-0.3, 0.3, m.nu)
    if m.nkey:
        mujoco.mj_resetDataKeyframe(m, d, 0)
        rbd.reset(model, data, 0)
    data.qvel[:] = d.qvel[:] = 0.1 * rng.normal(size=m.nv)
    d2 = mujoco.MjData(m)
    d2.qpos[:], d2.qvel[:], d2.ctrl[:], d2.act[:] = data.qpos, data.qvel, data.ctrl, data.act
    mujoco.mj_step(m, d2)
    rbd.step(model, data)
    err = max(np.abs(data.qpos - d2.qpos).max(), np.abs(data.qvel - d2.qvel).max())
    assert err < 1e-9, f"{name}: one step differs from mj_step by {err:.2g}"
    ours = steps_per_second(lambda: rbd.step(model, data), n)
    theirs = steps_per_second(lambda: mujoco.mj_step(m, d), 50 * n)
    return [name, m.nv, model.opt.integrator, f"{ours:,.0f}", f"{theirs:,.0f}", f"{theirs / ours:,.0f}×",
            f"{ours * model.opt.timestep:.2f}×"]


def main():
    rows = [row("double pendulum", os.path.join(ROOT, "models", "double_pendulum.xml"), 400),
            row("humanoid (gymnasium)", os.path.join(GYM, "humanoid.xml"), 100),
            row("robot mouse", str(scene_path("flat")), 100)]
    headers = ["model (constraints off)", "nv", "integrator", "rbd.step /s", "mj_step /s", "mj_step ÷ ours",
               "ours: sim s per CPU s"]
    widths = [max(len(str(r[k])) for r in rows + [headers]) for k in range(len(headers))]
    print(f"steps per second, CPU time, load average {os.getloadavg()[0]:.2f}\n")
    print("  ".join(h.rjust(w) for h, w in zip(headers, widths)))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(str(c).rjust(w) for c, w in zip(r, widths)))
    domain_randomization()


def domain_randomization():
    """What one episode's model costs: ``model.replace(body_mass=...)`` on a loaded model
    recomputes the constants at ``qpos0`` (set_const), the recipe of ``Model.replace``."""
    print("\ndomain randomization: model.replace(body_mass=m * U(0.8, 1.2)), CPU ms per call")
    rng = np.random.default_rng(0)
    for name, path in (("double pendulum", os.path.join(ROOT, "models", "double_pendulum.xml")),
                       ("humanoid (gymnasium)", os.path.join(GYM, "humanoid.xml")),
                       ("robot mouse", str(scene_path("flat")))):
        model = rbd.load_model(path)
        calls = []
        for _ in range(5):
            t0 = time.process_time()
            model.replace(body_mass=model.body_mass * rng.uniform(0.8, 1.2, model.nbody))
            calls.append(time.process_time() - t0)
        print(f"  {name:22s} {1e3 * min(calls):8.1f} ms")


if __name__ == "__main__":
    main()
