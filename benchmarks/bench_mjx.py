"""What a step compiled whole costs on a CPU: MuJoCo's own JAX port, MJX (``mujoco.mjx``), next
to ``mj_step`` on the same scenes and states (issue 20, "what stands between us and ≤ 30×").

MJX compiles every stage, contacts and solver included, over fixed maxima of contacts and
iterations: the design a fully compiled rbdl_edu step would follow. This prints, per scene,
the CPU time of one ``mj_step``, of one jitted ``mjx.step`` (one state) and of one
``jax.vmap``-ed ``mjx.step`` per state of a batch, with their ratios to ``mj_step``.

MJX is not a dependency of rbdl_edu (its newest release on PyPI, 3.17, lags MuJoCo 4.0, and
pip installs it beside ``mujoco`` 4.0, as the lab's MuJoCo adapter uses): run this in a virtual
environment of its own, from the repository root::

    python -m venv /tmp/mjx && /tmp/mjx/bin/pip install "mujoco-mjx==3.17.0"
    /tmp/mjx/bin/python benchmarks/bench_mjx.py

Scenes: the double pendulum, the box on a plane of ``bench_contacts.py`` (4 contacts, Newton)
and the robot mouse standing on flat ground (zero controls; 4 foot contacts), each after 200
steps of ``mj_step``. (MJX 3.17 has no PGS solver: the gymnasium humanoid on its floor is left
out.) XLA runs in the calling thread, as :mod:`rbdl_edu.compiled` sets it; CPU time, best of 3 loops.
"""
from __future__ import annotations

import ast
import copy
import os
import sys
import time

os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false"
os.environ.setdefault("PJRT_NPROC", "1")
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import mujoco  # noqa: E402
from mujoco import mjx  # noqa: E402

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_cpu_enable_async_dispatch", False)      # as rbdl_edu.compiled: calls run in this thread
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BATCH = 1024


def box_on_a_plane():
    """``bench_contacts.BOX``, read from that file (it imports rbdl_edu, which this environment lacks)."""
    with open(os.path.join(ROOT, "benchmarks", "bench_contacts.py")) as f:
        tree = ast.parse(f.read())
    return next(ast.literal_eval(node.value) for node in tree.body
                if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "BOX")


def cpu_seconds(f, n, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(n):
            f()
        best = min(best, (time.process_time() - t) / n)
    return best


def compile_seconds(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def row(name, m):
    d = mujoco.MjData(m)
    for _ in range(200):
        mujoco.mj_step(m, d)
    ncon, nefc = d.ncon, d.nefc
    mx, dx = mjx.put_model(m), mjx.put_data(m, d)     # every engine starts from this state
    d_mj = copy.copy(d)
    t_mj = cpu_seconds(lambda: mujoco.mj_step(m, d_mj), 2000)
    one = jax.jit(mjx.step)
    c_one = compile_seconds(lambda: jax.block_until_ready(one(mx, dx)))
    t_one = cpu_seconds(lambda: jax.block_until_ready(one(mx, dx)), 100)
    batch = jax.tree_util.tree_map(lambda x: jnp.broadcast_to(x, (BATCH,) + x.shape), dx)
    many = jax.jit(jax.vmap(mjx.step, in_axes=(None, 0)))
    c_many = compile_seconds(lambda: jax.block_until_ready(many(mx, batch)))
    t_many = cpu_seconds(lambda: jax.block_until_ready(many(mx, batch)), 3) / BATCH
    print(f"{name:16s} {ncon:4d} {nefc:5d} {1e6 * t_mj:9.1f} {1e6 * t_one:10.0f} {t_one / t_mj:7.0f}x "
          f"{c_one:6.0f} {1e6 * t_many:11.1f} {t_many / t_mj:7.1f}x {c_many:6.0f}", flush=True)


def main():
    print(f"mujoco {mujoco.__version__}, mujoco-mjx (jax {jax.__version__}, one XLA thread), "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; CPU µs per step\n")
    print(f"{'scene':16s} {'ncon':>4s} {'nefc':>5s} {'mj_step':>9s} {'mjx one':>10s} {'ratio':>8s} "
          f"{'comp s':>6s} {f'mjx/state ({BATCH})':>11s} {'ratio':>8s} {'comp s':>6s}")
    row("double pendulum", mujoco.MjModel.from_xml_path(os.path.join(ROOT, "models", "double_pendulum.xml")))
    row("box on a plane", mujoco.MjModel.from_xml_string(box_on_a_plane()))
    row("mouse, flat", mujoco.MjModel.from_xml_path(os.path.join(ROOT, "models", "mouse", "scene_flat.xml")))


if __name__ == "__main__":
    sys.exit(main())
