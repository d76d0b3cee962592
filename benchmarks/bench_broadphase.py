"""Broadphase cost: sweep and prune against the O(n²) all-pairs box test.

n free spheres (radius 0.05..0.15) are scattered at constant density (volume ∝ n), so the
number of truly overlapping pairs grows like n while the number of pairs grows like n².
Two layouts: filling a cube, and along a diagonal line (which the principal axes find).
For each n we print the candidate body pairs of :func:`rbdl_edu.collision.broadphase.broadphase`
(sweep and prune along the principal axes, plus the body filters), the pairs whose
bounding boxes overlap found by checking all pairs, and the time of each. The last line
fits the growth exponent of each time (log-log slope over the larger n): ~1 (n log n)
for sweep and prune, ~2 for all pairs.

Run: ``python benchmarks/bench_broadphase.py`` (about a minute), or ``--quick``.
"""
from __future__ import annotations

import sys
import time

import numpy as np

import rbdl_edu as rbd
from rbdl_edu.collision.broadphase import body_boxes, broadphase, sap_frame
from rbdl_edu.collision.geometry import geom_aabb, geom_poses, geom_rbound


def scene(n, seed=0, layout="cube"):
    """n free spheres at constant density: filling a cube, or along a diagonal line."""
    rng = np.random.default_rng(seed)
    side = (n / 40.0) ** (1 / 3)                     # cube: 40 spheres per unit volume
    spec = rbd.ModelSpec()
    for i in range(n):
        if layout == "cube":
            pos = rng.uniform(0, side, 3)
        else:                                        # line: 5 per unit length, jittered
            pos = rng.uniform(0, n / 5.0) * np.array([1, 2, 2]) / 3 + rng.normal(0, 0.1, 3)
        b = spec.add_body(0, f"b{i}", pos=pos, mass=1.0, inertia=[1e-3] * 3)
        spec.add_joint(b, "free")
        spec.add_geom(b, "sphere", [rng.uniform(0.05, 0.15)])
    return spec.compile()


def all_pairs(boxes):
    """Every pair of boxes tested: the O(n²) reference."""
    out = []
    n = len(boxes)
    for i in range(n):
        bi = boxes[i]
        for j in range(i + 1, n):
            bj = boxes[j]
            if (bi[0] <= bj[3] and bj[0] <= bi[3] and bi[1] <= bj[4] and bj[1] <= bi[4]
                    and bi[2] <= bj[5] and bj[2] <= bi[5]):
                out.append((i, j))
    return out


def best_time(f, repeat):
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = f()
        best = min(best, time.perf_counter() - t0)
    return best, result


def run(ns=(10, 30, 100, 300, 1000, 2000), repeat=3, out=print, layout="cube"):
    """Rows ``(n, n_pairs, sap_candidates, overlapping, t_sap, t_all)``; prints a table."""
    rows = []
    out(f"{'n':>6} {'all pairs':>10} {'SAP cand.':>10} {'overlaps':>9} {'t SAP [ms]':>11} {'t all [ms]':>11}")
    for n in ns:
        model = scene(n, layout=layout)
        gpos, gmat = geom_poses(model, rbd.Data(model).qpos)
        rb, ab = geom_rbound(model), geom_aabb(model)
        t_sap, cand = best_time(lambda: broadphase(model, gpos, gmat, rb, ab), repeat)
        frame = sap_frame(model, gpos)
        boxes = body_boxes(model, gpos, gmat, rb, ab, list(range(1, model.nbody)), frame)
        t_all, brute = best_time(lambda: all_pairs(boxes), 1 if n > 500 else repeat)
        assert len(cand) == len(brute)               # same boxes, same overlaps
        rows.append((n, n * (n - 1) // 2, len(cand), len(brute), t_sap, t_all))
        out(f"{n:>6} {n * (n - 1) // 2:>10} {len(cand):>10} {len(brute):>9} "
            f"{1e3 * t_sap:>11.2f} {1e3 * t_all:>11.2f}")
    big = [r for r in rows if r[0] >= 100]
    if len(big) >= 2:
        x = np.log([r[0] for r in big])
        s_sap = np.polyfit(x, np.log([r[4] for r in big]), 1)[0]
        s_all = np.polyfit(x, np.log([r[5] for r in big]), 1)[0]
        out(f"growth exponent (n >= 100): SAP {s_sap:.2f}, all pairs {s_all:.2f}")
    return rows


if __name__ == "__main__":
    sizes = (10, 30, 100, 300) if "--quick" in sys.argv else (10, 30, 100, 300, 1000, 2000)
    print("spheres filling a cube (the sweep meets ~n^(2/3) open boxes):")
    run(sizes)
    print("\nspheres along a diagonal line (the first principal axis; few open boxes):")
    run(sizes, layout="line")
