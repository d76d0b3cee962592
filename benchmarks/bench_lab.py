"""The lab at scale (issue 23): environment steps per second on each engine, vectors of mice,
and a gait-search sweep on a local Ray.

1. **One mouse**: ``MouseEnv(engine=...)`` on flat ground, the lab's trot (zero gait action),
   on rbdl_edu, rbdl_edu accelerated (the smooth half compiled with JAX; the compile falls
   in the first, untimed step) and MuJoCo:
   steps of 0.1 s (20 simulation steps each): environment steps per wall and per CPU second,
   and (in a second pass, the engine's ``step`` under a CPU clock) the share of an environment
   step spent inside the engine's ``step``; the rest is the lab's (controller, observation,
   reward) and the one ``forward`` per environment step that computes the sensors at the new
   state (the clock's own calls count there too: a few percent on MuJoCo).
2. **Vectors of mice**: ``gymnasium.make_vec("rbdl_edu/Mouse-v0", num_envs=N,
   vectorization_mode="async")``, one process per mouse, N = 1, 2, 4 (MuJoCo) and 1, 2
   (rbdl_edu): environment steps per wall second, all mice together. On this 2-core machine
   more than two processes share the cores.
3. **Ray sweep**: four short gait searches (:func:`rbdl_edu.lab.sweep.gait_trial`: 2
   generations of 4 gaits on 2 starts, MuJoCo) as Ray tasks on ``ray.init()`` here: trials per
   minute, and how long starting Ray took.

Nothing here asserts a time: it is a report (wall time unless said). Run:
``python benchmarks/bench_lab.py`` (about two minutes), ``--no-ray`` to leave out part 3.
"""
from __future__ import annotations

import argparse
import os
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

from rbdl_edu.lab import ENV_ID  # noqa: E402
from rbdl_edu.lab.engine import get_engine  # noqa: E402
from rbdl_edu.lab.env import GAIT_ACTION, MouseEnv  # noqa: E402

ZERO = np.zeros(len(GAIT_ACTION), np.float32)


def one_mouse(engine, steps):
    """Environment steps per wall second and per CPU second of one MouseEnv."""
    env = MouseEnv(engine=engine, episode_seconds=1e6)
    env.reset(seed=0)
    env.step(ZERO)                                       # first-call costs out of the timing
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        env.step(ZERO)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return steps / wall, steps / max(cpu, 1e-9), env


class StepClock:
    """``engine`` with a CPU clock around its ``step``: ``seconds`` is the time spent inside it."""

    def __init__(self, engine):
        self.engine, self.seconds = get_engine(engine), 0.0

    def __getattr__(self, name):
        return getattr(self.engine, name)

    def step(self, model, data):
        t = time.process_time()
        self.engine.step(model, data)
        self.seconds += time.process_time() - t


def inside_step(engine, steps):
    """The share of one MouseEnv's CPU time spent inside ``engine.step``."""
    clock = StepClock(engine)
    env = MouseEnv(engine=clock, episode_seconds=1e6)
    env.reset(seed=0)
    env.step(ZERO)
    clock.seconds, cpu = 0.0, time.process_time()
    for _ in range(steps):
        env.step(ZERO)
    return clock.seconds / max(time.process_time() - cpu, 1e-9)


def vector(engine, n, steps):
    """Environment steps per wall second of ``n`` mice in ``n`` processes, all together."""
    vec = gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode="async", engine=engine, episode_seconds=1e6)
    try:
        vec.reset(seed=0)
        actions = np.zeros((n, len(GAIT_ACTION)), np.float32)
        vec.step(actions)
        wall = time.perf_counter()
        for _ in range(steps):
            vec.step(actions)
        return n * steps / (time.perf_counter() - wall)
    finally:
        vec.close()


def ray_sweep():
    from rbdl_edu.lab.sweep import gait_trial, start_ray, sweep

    t = time.perf_counter()
    ray = start_ray()
    started = time.perf_counter() - t
    configs = [dict(seed=s, generations=2, popsize=4, seeds=[0, 1]) for s in range(1, 5)]
    t = time.perf_counter()
    rows = sweep(gait_trial, configs)
    wall = time.perf_counter() - t
    cpus = ray.cluster_resources().get("CPU", 0)
    ray.shutdown()
    return started, wall, rows, cpus


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    print(f"robot mouse, MouseEnv on flat ground, 0.1 s per environment step; {os.cpu_count()} CPUs")
    print(f"{'one mouse':32s} {'env steps / wall s':>19s} {'env steps / CPU s':>18s} {'in engine.step':>15s}")
    for engine, steps in (("rbdl_edu", 10), ("rbdl_edu-accelerated", 20), ("mujoco", 1000)):
        wall, cpu, env = one_mouse(engine, steps)
        inside = inside_step(engine, steps)
        print(f"{engine:32s} {wall:19.1f} {cpu:18.1f} {100 * inside:14.1f}%   ({steps} steps, x = {env._x():.3f} m)",
              flush=True)
    print(f"{'vector of mice (async)':32s} {'env steps / wall s':>19s}")
    for engine, sizes, steps in (("mujoco", (1, 2, 4), 400), ("rbdl_edu", (1, 2), 6)):
        for n in sizes:
            print(f"{engine + f', {n} mice':32s} {vector(engine, n, steps):19.1f}", flush=True)
    if not args.no_ray:
        try:
            started, wall, rows, cpus = ray_sweep()
        except Exception as e:                             # Ray waits a fixed 30 s for its processes
            print(f"Ray sweep: Ray did not start here ({str(e).splitlines()[0]})")
            return
        ok = sum(r["status"] == "ok" for r in rows)
        print(f"Ray sweep, local ({cpus:g} CPUs): ray.init {started:.1f} s; {len(rows)} gait searches "
              f"({ok} ok) in {wall:.1f} s: {60 * len(rows) / wall:.1f} trials per minute")


if __name__ == "__main__":
    main()
