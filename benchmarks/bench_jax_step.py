"""The smooth step compiled with JAX (``compiled.jit(model, pure_step)``, issue 20) next to
``mujoco.mj_step``, the jitted ``rnea`` next to Pinocchio, and compile times against the
number of bodies.

1. **rnea on the Panda** (URDF, example-robot-data): one jitted call against one
   ``pinocchio.rnea`` call from Python (goal: within 20×).
2. **The step on every gymnasium asset**, constraints off in both engines, with each
   integrator: first checked (the compiled step equals ``rbd.step`` to 1e-12 at a random
   state), then its compile time, the time of one jitted step, and per state of a step
   ``vmap``-ed over 4096 states, against one ``mj_step``.
3. **Compile time against bodies** (chains ``auto_tree(N)``, N = 4 ... 64): jitted ``rnea``,
   ``crba`` and the Euler step (goal: ≤ 30 s up to 64 bodies).

JAX calls are timed by the wall clock with ``block_until_ready`` (XLA runs its own threads,
so process CPU time over-counts), best of several loops; MuJoCo and Pinocchio by this
process's CPU time, medians, as ``bench_dynamics.py``. CPU only: no accelerator is used. Nothing here asserts a time.

Run: ``make bench`` or ``python benchmarks/bench_jax_step.py [--quick]`` (--quick: a few
assets, Euler only, N up to 32).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import mujoco  # noqa: E402
import numpy as np  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu import compiled  # noqa: E402
from rbdl_edu.models import auto_tree  # noqa: E402
from rbdl_edu.simulation.step import pure_step  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import bench_dynamics as bd  # noqa: E402
import bench_jax  # noqa: E402
from bench_jax import compile_time, panda  # noqa: E402
from test_jax import numpy_step, random_states  # noqa: E402
from test_mjcf import GYM  # noqa: E402

jax = compiled.jax
INTEGRATORS = {"Euler": mujoco.mjtIntegrator.mjINT_EULER, "RK4": mujoco.mjtIntegrator.mjINT_RK4,
               "implicitfast": mujoco.mjtIntegrator.mjINT_IMPLICITFAST}
NBATCH = 4096


def wall(f, min_time=0.1, repeat=7):
    """Seconds per call of ``f``: the best of ``repeat`` loops (on a shared machine the best
    loop is the one least disturbed; ``bench_jax.py`` reports medians)."""
    return bench_jax.wall(f, min_time, repeat, pick=min)


def smooth(model, integrator):
    """``model`` with constraints off and ``integrator``."""
    opt = dataclasses.replace(model.opt, integrator=integrator, disableflags=model.opt.disableflags | {"constraint"})
    return model.replace(opt=opt)


def rnea_vs_pinocchio(min_time):
    import pinocchio as pin
    model, pm, to_pin = panda()
    rng = np.random.default_rng(0)
    q, qd, qdd = rbd.random_qpos(model, rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
    f, ct = compile_time(model, rbd.rnea, q, qd, qdd)
    assert np.allclose(f(q, qd, qdd), rbd.rnea(model, q, qd, qdd), rtol=1e-10, atol=1e-10)
    pdata = pm.createData()
    qp = to_pin(q)
    t_jit = wall(lambda: f(q, qd, qdd), min_time)
    # one call runs in this thread (compiled turns asynchronous dispatch off): its CPU time,
    # by the clock that times Pinocchio, is the fair ratio on a machine shared with other work
    cpu = bd.measure({"jit": lambda: jax.block_until_ready(f(q, qd, qdd)),
                      "pin": lambda: pin.rnea(pm, pdata, qp, qd, qdd)}, 7, min_time)
    t_cpu, t_pin = cpu["jit"], cpu["pin"]
    print(f"1. rnea on the Panda (nv = {model.nv}): one call\n")
    bd.table(["", "per call", "÷ Pinocchio"], [["jit (CPU time)", bd.fmt(t_cpu), bd.ratio(t_cpu, t_pin)],
                                                 ["jit (wall clock, best loop)", bd.fmt(t_jit), bd.ratio(t_jit, t_pin)],
                                                 ["Pinocchio (CPU time)", bd.fmt(t_pin), "1×"]])
    print(f"\n   jitted rnea is {t_cpu / t_pin:.1f}× a Pinocchio call in CPU time, {t_jit / t_pin:.1f}× by the "
          f"wall clock (goal ≤ 20×); compile {ct:.1f} s\n")


def steps(paths, integrators, min_time):
    print(f"2. The step, constraints off: compiled (one state; {NBATCH} states vmap-ed, per state) "
          "against mj_step\n")
    rows = []
    for path in paths:
        for integrator in integrators:
            model = smooth(rbd.load_model(path), integrator)
            m = mujoco.MjModel.from_xml_path(str(path))
            m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
            m.opt.integrator = INTEGRATORS[integrator]
            d = mujoco.MjData(m)
            rng = np.random.default_rng(len(path.name))
            states = random_states(model, rng, NBATCH)
            one = tuple(x[0] for x in states)
            f, ct = compile_time(model, pure_step, *one)
            err = max(bd_rel(a, b) for a, b in zip(f(*one), numpy_step(model, *one)))
            fb, ctb = compile_time(model, pure_step, *states, batched=True)
            batch = fb(*states)
            err_b = max(bd_rel(np.asarray(a)[:4], b) for a, b in
                        zip(batch, (np.array(x) for x in zip(*(numpy_step(model, *s) for s in
                                                                 zip(*(x[:4] for x in states)))))))
            t_one = wall(lambda: f(*one), min_time)
            t_batch = wall(lambda: fb(*states), min_time, repeat=3) / NBATCH
            d.qpos[:], d.qvel[:], d.act[:], d.ctrl[:] = one

            def mj():
                d.qpos[:], d.qvel[:] = one[0], one[1]
                mujoco.mj_step(m, d)
            t_mj = bd.measure({"x": mj}, 5, min_time)["x"]
            rows.append([path.name, integrator, model.nbody, f"{max(err, err_b):.0e}", f"{ct:.1f} s",
                         f"{ctb:.1f} s", bd.fmt(t_one), bd.fmt(t_batch), bd.fmt(t_mj), bd.ratio(t_one, t_mj),
                         bd.ratio(t_batch, t_mj)])
            bd.progress(f"{path.name} {integrator}")
    bd.table(["asset", "integrator", "nbody", "err", "compile", "vmap compile", "jit step", "vmap/state",
              "mj_step", "jit ÷ mj", "vmap ÷ mj"], rows)
    print("\n   err: the largest relative difference from rbd.step (qpos, qvel, act; the claim is 1e-12)\n")


def bd_rel(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return float(np.abs(a - b).max(initial=0) / max(1.0, np.abs(b).max(initial=0)))


def compile_times(ns):
    print("3. Compile time against bodies, chains auto_tree(N) (tracing, XLA, one run)\n")
    rows = []
    rng = np.random.default_rng(3)
    for n in ns:
        m = smooth(auto_tree(n), "Euler")
        q, qd = rbd.random_qpos(m, rng), rng.normal(size=n)
        row = [n]
        for fn, args in ((rbd.rnea, (q, qd, qd)), (rbd.crba, (q,)), (pure_step, (q, qd, np.zeros(0), np.zeros(0)))):
            c0 = time.process_time()
            _, ct = compile_time(m, fn, *args)
            row.append(f"{ct:.1f} s ({time.process_time() - c0:.1f} s)")
        rows.append(row)
        bd.progress(f"N = {n}")
    bd.table(["N", "rnea", "crba", "step (Euler)"], rows)
    print("\n   wall clock (CPU time of this process: on a machine shared with other work, the fair figure);"
          "\n   goal: ≤ 30 s up to N = 64\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a few assets, Euler only, N up to 32")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    print("rbdl_edu: the compiled step" + (" (--quick)" if args.quick else ""))
    print(f"jax {jax.__version__} on {jax.devices()[0].platform.upper()}, mujoco {mujoco.__version__}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; rbdl_edu at {bd._git_state()}\n")
    rnea_vs_pinocchio(0.05 if args.quick else 0.2)
    quick = ("inverted_double_pendulum.xml", "hopper.xml", "ant.xml")
    steps([p for p in GYM if p.name in quick] if args.quick else GYM,
          ("Euler",) if args.quick else tuple(INTEGRATORS), 0.05 if args.quick else 0.1)
    compile_times((4, 8, 16, 32) if args.quick else (4, 8, 16, 32, 64))
    print(f"total {time.perf_counter() - t0:.0f} s, load average now {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
