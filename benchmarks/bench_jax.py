"""The same algorithms compiled with JAX (``rbdl_edu.compiled``) next to NumPy, Pinocchio and
modern_robotics: one call, batches, scaling, compile times.

1. **One call, 7-DOF chain** (``auto_tree(7)``): NumPy ``rnea`` against
   ``modern_robotics.InverseDynamics`` (goal: ours at least 5× faster), and the jitted ``rnea``
   against one ``pinocchio.rnea`` call from Python (goal: within 25×).
2. **Batches of 4096 states** on the Panda URDF (example-robot-data) and on
   ``auto_tree(30, bf=1.5)``: time per state of the jitted and ``vmap``-ed ``rnea`` and ``aba``,
   and of NumPy's batched calls, against one Pinocchio call per state (goal: within 1.5×).
3. **Scaling with bodies** (chains of 8 ... 256): one jitted call of ``rnea``, ``crba``, ``aba``;
   fitted exponents (RNEA and ABA ≈ 1, CRBA ≤ 2). Traced, CRBA carries a subtree's columns
   at once (O(N) operations: 16.5 s of CPU to compile at N = 128, 2026-11-26; it unrolled one
   product per pair of bodies before, 72 s at N = 128 and 20 min at N = 256); N = 256 is
   compiled only with ``--full``.
4. **Compile time** of each model and function (the loops over bodies unroll when traced).

Every model is checked against the NumPy path (1e-10) before it is timed. JAX calls are timed
by the wall clock with ``block_until_ready`` (XLA may run its own threads, so process CPU time
could over-count); the rest as ``bench_dynamics.py`` does (process CPU time). A single jitted
call runs in the calling thread (``rbdl_edu.compiled`` turns JAX's asynchronous CPU dispatch
off), so its CPU time is timed too, by the clock that times Pinocchio: on a machine shared
with other work that is the fair ratio, the wall clock's counts the others' turns.
Nothing here asserts a time.

Run: ``make bench`` or ``python benchmarks/bench_jax.py [--quick]``.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu import compiled  # noqa: E402
from rbdl_edu.models import auto_tree  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import bench_dynamics as bd  # noqa: E402

jax = compiled.jax


def wall(f, min_time=0.1, repeat=5, pick=np.median):
    """Wall-clock seconds per call of ``f`` (blocking on JAX results): ``pick`` (the median, or
    ``min`` for the least disturbed loop on a shared machine) of ``repeat`` loops of at least
    ``min_time``."""
    g = lambda: jax.block_until_ready(f())
    g()
    n, t = 1, 0.0
    while t < min_time:
        t0 = time.perf_counter()
        for _ in range(n):
            g()
        t = time.perf_counter() - t0
        n *= 2
    n //= 2
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            g()
        samples.append((time.perf_counter() - t0) / n)
    return float(pick(samples))


def compile_time(model, function, *args, batched=False):
    """The first call of a freshly compiled function: tracing, compiling and one run."""
    f = compiled.jit(model, function, batched=batched)
    t0 = time.perf_counter()
    jax.block_until_ready(f(*args))
    return f, time.perf_counter() - t0


def panda():
    import pinocchio as pin
    from pinocchio_oracle import joint_maps
    from test_urdf import ROBOTS
    path = next(p for p in ROBOTS if p.name == "panda.urdf")
    model, pm = rbd.load_urdf(path), pin.buildModelFromUrdf(str(path))
    v_index, to_pin = joint_maps(model, pm)
    assert np.array_equal(v_index, np.arange(model.nv)), "Panda's dof order differs from Pinocchio's"
    return model, pm, to_pin


def one_call(min_time):
    import modern_robotics as mr
    import pinocchio as pin
    m = auto_tree(7)
    rng = np.random.default_rng(0)
    q, qd, qdd = rbd.random_qpos(m, rng), rng.normal(size=7), rng.normal(size=7)
    pm = bd.to_pinocchio(m)
    pdata = pm.createData()
    Mlist, Glist, Slist = bd.to_modern_robotics(m)
    g = np.asarray(m.opt.gravity, float)
    f, ct = compile_time(m, rbd.rnea, q, qd, qdd)
    assert np.allclose(f(q, qd, qdd), rbd.rnea(m, q, qd, qdd), rtol=1e-10, atol=1e-10)
    t = dict(numpy=bd.measure({"x": lambda: rbd.rnea(m, q, qd, qdd)}, 5, min_time)["x"],
             jit=wall(lambda: f(q, qd, qdd), min_time),
             jit_cpu=bd.measure({"x": lambda: jax.block_until_ready(f(q, qd, qdd))}, 5, min_time)["x"],
             pin=bd.measure({"x": lambda: pin.rnea(pm, pdata, q - m.qpos0, qd, qdd)}, 5, min_time)["x"],
             mr=bd.measure({"x": lambda: mr.InverseDynamics(q - m.qpos0, qd, qdd, g, np.zeros(6), Mlist, Glist,
                                                            Slist)}, 5, min_time)["x"])
    print("1. One call of rnea on the 7-DOF chain auto_tree(7)\n")
    bd.table(["", "per call", "÷ Pinocchio"], [[k, bd.fmt(v), bd.ratio(v, t["pin"])] for k, v in t.items()])
    print(f"\n   NumPy rnea is {t['mr'] / t['numpy']:.2f}× faster than modern_robotics (goal ≥ 5×); "
          f"jitted rnea is {t['jit_cpu'] / t['pin']:.1f}× a Pinocchio call in CPU time, {t['jit'] / t['pin']:.1f}× by "
          f"the wall clock (goal ≤ 20×); compile {ct:.1f} s\n")


def batched(nbatch, min_time):
    import pinocchio as pin
    rng = np.random.default_rng(1)
    tree = auto_tree(30, bf=1.5)
    cases = [("Panda (URDF)",) + panda(), ("auto_tree(30)", tree, bd.to_pinocchio(tree), lambda q: q - tree.qpos0)]
    print(f"2. Batches of {nbatch} states: time per state\n")
    rows = []
    for name, m, pm, to_pin in cases:
        Q = np.array([rbd.random_qpos(m, rng) for _ in range(nbatch)])
        QD, X = rng.normal(size=(2, nbatch, m.nv))
        pdata = pm.createData()
        qp, qdp, xp = to_pin(Q[0]), QD[0], X[0]
        for fn, pin_fn in ((rbd.rnea, pin.rnea), (rbd.aba, pin.aba)):
            f, ct = compile_time(m, fn, Q, QD, X, batched=True)
            assert np.allclose(f(Q[:8], QD[:8], X[:8]), fn(m, Q[:8], QD[:8], X[:8]), rtol=1e-10, atol=1e-9)
            t_jit = wall(lambda: f(Q, QD, X), min_time) / nbatch
            t_np = bd.measure({"x": lambda: fn(m, Q, QD, X)}, 3, min_time)["x"] / nbatch
            t_pin = bd.measure({"x": lambda: pin_fn(pm, pdata, qp, qdp, xp)}, 5, min_time)["x"]
            rows.append([name, fn.__name__, bd.fmt(t_jit), bd.fmt(t_np), bd.fmt(t_pin), bd.ratio(t_jit, t_pin),
                         bd.ratio(t_np, t_pin), f"{ct:.1f} s"])
    bd.table(["model", "", "jit+vmap", "NumPy", "Pinocchio", "jit ÷ pin", "NumPy ÷ pin", "compile"], rows)
    print("\n   goal: jit+vmap per state within 1.5× of one Pinocchio call\n")


#: XLA unrolled CRBA's double loop over bodies: compiling it for a 256-chain took 20 minutes
#: (2026-11-23, 2 CPUs); now O(N) operations (16.5 s of CPU at N = 128), but N = 256 is not
#: measured again, so without --full CRBA still stops at N = 128
CRBA_MAX_N = 128


def scaling(ns, min_time, full=False):
    print("3. Scaling on chains auto_tree(N): one jitted call\n")
    rows = []
    times = {f.__name__: ([], []) for f in (rbd.rnea, rbd.crba, rbd.aba)}      # (N, seconds)
    rng = np.random.default_rng(2)
    for n in ns:
        m = auto_tree(n)
        q, qd = rbd.random_qpos(m, rng), rng.normal(size=n)
        row = [n]
        for fn, args in ((rbd.rnea, (q, qd, qd)), (rbd.crba, (q,)), (rbd.aba, (q, qd, qd))):
            if fn is rbd.crba and n > CRBA_MAX_N and not full:
                row += ["—", "(--full)"]
                continue
            f, ct = compile_time(m, fn, *args)
            t = wall(lambda: f(*args), min_time)
            times[fn.__name__][0].append(n)
            times[fn.__name__][1].append(t)
            row += [bd.fmt(t), f"{ct:.1f} s"]
        rows.append(row)
        bd.progress(f"N = {n}")
    bd.table(["N", "rnea", "compile", "crba", "compile", "aba", "compile"], rows)
    fit = {k: bd.slope(n_k, t_k, n_min=16) for k, (n_k, t_k) in times.items()}
    print("\n   fitted exponent over N >= 16: " + ", ".join(f"{k} {v:.2f}" for k, v in fit.items() if v)
          + "  (RNEA, ABA ≈ 1; CRBA ≤ 2)")
    if not full and max(ns) > CRBA_MAX_N:
        print(f"   crba above N = {CRBA_MAX_N} is compiled only with --full")
    print()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (about two minutes)")
    ap.add_argument("--full", action="store_true", help=f"also compile crba above N = {CRBA_MAX_N} (slow)")
    args = ap.parse_args(argv)
    ns = (8, 16, 32, 64) if args.quick else (8, 16, 32, 64, 128, 256)
    t0 = time.perf_counter()
    print("rbdl_edu compiled with JAX" + (" (--quick)" if args.quick else ""))
    print(f"jax {jax.__version__}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}; rbdl_edu at {bd._git_state()}\n")
    one_call(0.05 if args.quick else 0.1)
    batched(1024 if args.quick else 4096, 0.05 if args.quick else 0.2)
    scaling(ns, 0.05 if args.quick else 0.1, args.full)
    print(f"total {time.perf_counter() - t0:.0f} s, load average now {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
