"""Steps per second with contacts: ``rbd.step`` (NumPy, and accelerated: the smooth half compiled
with JAX) next to ``mujoco.mj_step`` (issue 10).

Two scenes, each simulated from the same state in both engines:

1. **a box resting on a plane** (4 contacts, pyramidal cones, Newton, Euler);
2. **the gymnasium humanoid on its floor** (its own settings: PGS, RK4), started from a
   state MuJoCo reaches after 1.2 s of falling to the floor under random controls
   (then without controls).

For each, the CPU time per step of both engines over a loop, their ratio, and the three
functions of ours with the most time of their own (cProfile's ``tottime``). Nothing here
asserts a time: it is a report.

Run: ``make bench`` or ``python benchmarks/bench_contacts.py`` (about a minute).
"""
from __future__ import annotations

import cProfile
import os
import pstats
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import mujoco  # noqa: E402
import numpy as np  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu.simulation.accelerated import accelerate  # noqa: E402

BOX = """<mujoco><worldbody><geom type="plane" size="5 5 .1"/>
  <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .15 .1"/></body></worldbody></mujoco>"""


def humanoid():
    import gymnasium
    return os.path.join(os.path.dirname(gymnasium.__file__), "envs/mujoco/assets/humanoid.xml")


def start(m, settle):
    """A MuJoCo state after ``settle`` steps with random controls."""
    d = mujoco.MjData(m)
    rng = np.random.default_rng(0)
    for _ in range(settle):
        d.ctrl[:] = rng.uniform(-0.4, 0.4, m.nu)
        mujoco.mj_step(m, d)
    d.ctrl[:] = 0.0                      # then it lies still
    return d


def per_second(step, n):
    """Steps per CPU second of ``step()`` over ``n`` calls."""
    t = time.process_time()
    for _ in range(n):
        step()
    return n / (time.process_time() - t)


def bench(name, source, settle, n_ours, n_mujoco):
    m = mujoco.MjModel.from_xml_path(source) if source.endswith(".xml") else mujoco.MjModel.from_xml_string(source)
    d = start(m, settle)
    model = rbd.load_model(source)
    data = rbd.Data(model)
    data.qpos[:], data.qvel[:], data.act[:], data.ctrl[:] = d.qpos, d.qvel, d.act, d.ctrl
    data.qacc_warmstart[:] = d.qacc_warmstart
    fast, data_fast = accelerate(model), rbd.Data(model)
    data_fast.__dict__.update({k: np.copy(v) for k, v in data.__dict__.items() if isinstance(v, np.ndarray)})
    rbd.step(fast, data_fast)                                   # (the first step compiles)
    ours = per_second(lambda: rbd.step(model, data), n_ours)
    ours_fast = per_second(lambda: rbd.step(fast, data_fast), n_ours)
    theirs = per_second(lambda: mujoco.mj_step(m, d), n_mujoco)
    print(f"{name}: ncon {data.ncon}, nefc {data.nefc}, solver {model.opt.solver}, integrator {model.opt.integrator}")
    print(f"  rbd.step    {ours:10.0f} steps/s")
    print(f"  accelerated {ours_fast:10.0f} steps/s   (the smooth half compiled with JAX)")
    print(f"  mj_step     {theirs:10.0f} steps/s   (MuJoCo is {theirs / ours:.0f}x faster; "
          f"{theirs / ours_fast:.0f}x than accelerated)")
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(n_ours // 2):
        rbd.step(model, data)
    profile.disable()
    stats = pstats.Stats(profile).sort_stats("tottime")
    total = sum(v[2] for v in stats.stats.values())
    print("  hot spots (own time):")
    for (file, line, func), v in sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:3]:
        print(f"    {100 * v[2] / total:4.1f}%  {func}  ({os.path.relpath(file)}:{line})")


if __name__ == "__main__":
    bench("box on a plane", BOX, settle=200, n_ours=400, n_mujoco=40_000)
    bench("gymnasium humanoid on the floor", humanoid(), settle=400, n_ours=60, n_mujoco=20_000)
