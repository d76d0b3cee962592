"""How loading a model scales with its size, and CRBA on long chains (issue 14).

Loading is two steps (:func:`rbdl_edu.load_model`): compiling the file
(:func:`rbdl_edu.io.mjcf.read_mjcf`, which should be linear in the number of elements) and
:func:`rbdl_edu.setconst.set_const`, which needs the mass matrix at ``qpos0``: linear when
the dof trees are small (free bodies, a star of links), and as costly as CRBA on one long
chain, whose :math:`M` is dense: :math:`O(N \\cdot \\text{depth}) = O(N^2)`.

Tables (CPU seconds of this process; on a shared machine the wall clock is longer):

1. an MJCF chain of N bodies (hinges), compile and set_const;
2. a URDF chain of N links, compile (and set_const up to 1000 links);
3. a URDF star of N links on one base (8000 links: the fuzzer's 7.5 s case), both steps;
4. N free spheres (MJCF), both steps;
5. ``crba`` on a chain and on a star of N bodies.

Each table ends with the exponent k of ``t ~ N^k`` fitted over its rows (log-log slope):
about 1 for linear, 2 for quadratic. Nothing here asserts a time: it is a report.

Run: ``python benchmarks/bench_loading.py`` (a few CPU-minutes), ``--quick`` (smaller sizes).
"""
from __future__ import annotations

import argparse
import os
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import rbdl_edu as rbd
from rbdl_edu.io.mjcf import read_mjcf
from rbdl_edu.io.urdf import read_urdf  # noqa: E402
from rbdl_edu.setconst import set_const  # noqa: E402

INERTIAL = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>'


def mjcf_chain(n):
    return ("<mujoco><worldbody>" + '<body pos="0 0 0.1"><joint axis="0 1 0"/><geom size="0.05"/>' * n
            + "</body>" * n + "</worldbody></mujoco>")


def urdf_chain(n):
    parts = ['<robot name="chain"><link name="l0"/>']
    for i in range(1, n + 1):
        parts.append(f'<link name="l{i}">{INERTIAL}</link><joint name="j{i}" type="revolute">'
                     f'<parent link="l{i - 1}"/><child link="l{i}"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/>'
                     '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
    return "".join(parts) + "</robot>"


def urdf_star(n):
    parts = ['<robot name="star"><link name="base"/>']
    for i in range(1, n + 1):
        parts.append(f'<link name="l{i}">{INERTIAL}</link><joint name="j{i}" type="continuous">'
                     f'<parent link="base"/><child link="l{i}"/><origin xyz="{i} 0 0"/><axis xyz="0 1 0"/></joint>')
    return "".join(parts) + "</robot>"


def free_spheres(n):
    return ("<mujoco><worldbody>" + "".join(f'<body pos="{i} 0 0"><freejoint/><geom size="0.1"/></body>'
                                            for i in range(n)) + "</worldbody></mujoco>")


def cpu(f, *args):
    t0 = time.process_time()
    out = f(*args)
    return time.process_time() - t0, out


def slope(ns, ts):
    ns, ts = np.asarray(ns, float), np.asarray(ts, float)
    keep = ts > 0
    return np.polyfit(np.log(ns[keep]), np.log(ts[keep]), 1)[0] if keep.sum() > 1 else float("nan")


def read(text):
    """Read and compile, without set_const (timed apart): MJCF or URDF by the root element."""
    return (read_urdf if text.lstrip().startswith("<robot") else read_mjcf)(text)


def table(title, build, sizes, set_const_up_to=None):
    print(f"\n{title}\n{'N':>7} {'compile s':>10} {'set_const s':>12} {'total s':>9}")
    rows = []
    for n in sizes:
        text = build(n)
        t_compile, model = cpu(read, text)
        t_const = cpu(set_const, model)[0] if set_const_up_to is None or n <= set_const_up_to else None
        rows.append((n, t_compile, t_const))
        total = "" if t_const is None else f"{t_compile + t_const:9.2f}"
        print(f"{n:7d} {t_compile:10.2f} {'' if t_const is None else f'{t_const:12.2f}':>12} {total:>9}")
    ks = slope([r[0] for r in rows], [r[1] for r in rows])
    with_const = [r for r in rows if r[2] is not None]
    kc = slope([r[0] for r in with_const], [r[2] for r in with_const])
    print(f"{'k':>7} {ks:10.2f} {kc:12.2f}")
    return rows


def crba_table(sizes):
    print(f"\nCRBA on a chain (depth N) and a star (depth 1) of N bodies\n{'N':>7} {'chain s':>9} {'star s':>9}")
    rows = []
    for n in sizes:
        chain, star = read_mjcf(mjcf_chain(n)), read_urdf(urdf_star(n))
        t_chain = min(cpu(rbd.crba, chain, chain.qpos0)[0] for _ in range(2))
        t_star = min(cpu(rbd.crba, star, star.qpos0)[0] for _ in range(2))
        rows.append((n, t_chain, t_star))
        print(f"{n:7d} {t_chain:9.3f} {t_star:9.3f}")
    print(f"{'k':>7} {slope([r[0] for r in rows], [r[1] for r in rows]):9.2f} "
          f"{slope([r[0] for r in rows], [r[2] for r in rows]):9.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    q = args.quick
    table("MJCF chain", mjcf_chain, [250, 500, 1000] if q else [250, 500, 1000, 2000])
    table("URDF chain", urdf_chain, [1000, 2000] if q else [1000, 2000, 4000, 8000], set_const_up_to=1000)
    table("URDF star", urdf_star, [1000, 2000] if q else [1000, 2000, 4000, 8000])
    table("free spheres (MJCF)", free_spheres, [250, 500] if q else [250, 500, 1000, 2000])
    crba_table([100, 200] if q else [100, 200, 400, 800])


if __name__ == "__main__":
    main()
