"""CPU ms per collision pass on the lab's scenes: the book's loop against ``collide``.

For each scene the mouse trots (the lab's ``TrotController``) for 40 steps from where
``benchmarks/bench_speed.py`` starts it, and at 10 of the next 40 steps' poses two routes
are timed, in the same process (best of 5 repeats, median over the poses):

* **book loop**: :func:`~rbdl_edu.collision.candidate_pairs` (one pair at a time: the
  midphase walk, the filters), then the oriented-box test before an iterating collider and
  the narrowphase -- how ``collide`` ran before its pairs were tested on arrays;
* **collide**: :func:`~rbdl_edu.collision.collide` (:func:`~rbdl_edu.collision.driver.near_pairs`,
  then the narrowphase).

Both give the same contacts (checked here at every pose). Also printed: the geom pairs that
reach the narrowphase and the contacts, per pass. Nothing here asserts a time.

Run from the repository root: ``python benchmarks/bench_collide.py`` (about a minute).
"""
from __future__ import annotations

import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from bench_speed import best_ms  # noqa: E402

import rbdl_edu as rbd  # noqa: E402
from rbdl_edu.collision import candidate_pairs, collide, narrowphase  # noqa: E402
from rbdl_edu.collision.broadphase import broadphase  # noqa: E402
from rbdl_edu.collision.driver import COLLIDERS, ITERATIVE, near_pairs  # noqa: E402
from rbdl_edu.collision.filters import boxes_apart  # noqa: E402
from rbdl_edu.collision.geometry import geom_aabb, geom_rbound  # noqa: E402
from rbdl_edu.collision.pair_params import pair_margin_gap  # noqa: E402
from rbdl_edu.lab import Gait, TrotController, scene_path  # noqa: E402
from rbdl_edu.model.frozen import plain  # noqa: E402

#: row of benchmarks/bench_speed.py: (lab scene, the mouse's start along x)
ROWS = {"mouse_flat": ("flat", 0.0), "mouse_humps": ("ellipsoids", 0.29), "mouse_bars": ("capsules", 0.29),
        "mouse_boards": ("boards", 0.34), "mouse_arc": ("arc", 0.25), "mouse_slope": ("slope", 0.25),
        "mouse_terrain": ("terrain", 0.25)}


def book_loop(model, data):
    """The contacts at the poses in ``data``, one pair at a time (``collide`` before the arrays)."""
    gpos, gmat = data.geom_xpos, data.geom_xmat
    aabb, types, out = geom_aabb(model), plain(model).geom_type, []
    for g1, g2, pair in candidate_pairs(model, gpos, gmat):
        if COLLIDERS[(types[g1], types[g2])] in ITERATIVE and \
                boxes_apart(model, gpos, gmat, aabb, g1, g2, sum(pair_margin_gap(model, g1, g2, pair))):
            continue
        out += narrowphase(model, gpos, gmat, g1, g2, pair)
    return out


def poses(scene, x0, warm=40, count=10, every=4):
    """``count`` states of the trot on ``scene`` (geom poses in ``data``), after ``warm`` steps."""
    model = rbd.load_model(str(scene_path(scene)))
    data = rbd.Data(model)
    rbd.reset(model, data, "stand")
    data.qpos[0] = x0
    trot = TrotController(model, Gait())
    for k in range(warm + count * every):
        trot(data)
        rbd.step(model, data)
        if k >= warm and (k - warm) % every == 0:
            yield model, data


def main(rows):
    print(f"{'row':14s} {'book loop ms':>13s} {'collide ms':>11s} {'ratio':>6s} {'pairs':>6s} "
          f"{'contacts':>9s}")
    for name in rows:
        loop, fast, pairs, contacts = [], [], [], []
        for model, data in poses(*ROWS[name]):
            ours, book = collide(model, data), book_loop(model, data)
            assert [(c.geom1, c.geom2, c.dist) for c in ours] == [(c.geom1, c.geom2, c.dist) for c in book]
            loop.append(best_ms(lambda: book_loop(model, data), 20))
            fast.append(best_ms(lambda: collide(model, data), 20))
            gpos, gmat = data.geom_xpos, data.geom_xmat
            pairs.append(len(near_pairs(model, gpos, gmat, broadphase(model, gpos, gmat, geom_rbound(model),
                                                                      geom_aabb(model)))))
            contacts.append(len(ours))
        a, b = np.median(loop), np.median(fast)
        print(f"{name:14s} {a:13.3f} {b:11.3f} {a / b:6.1f} {np.mean(pairs):6.1f} {np.mean(contacts):9.1f}",
              flush=True)


if __name__ == "__main__":
    main([r for r in sys.argv[1:] if r in ROWS] or list(ROWS))
