"""Broadphase: which *body* pairs might touch (MuJoCo's ``mj_broadphase``).

Two sources of candidate body pairs:

1. **Always-colliding bodies.** The world (if it has geoms) and every static body that
   carries a plane are paired with every other body: planes are unbounded, so no box
   test can prune them.
2. **Sweep and prune** (SAP) over all other bodies that have collidable geoms:

   * Frame: the principal axes of the geom centers. With :math:`c = \\tfrac1N\\sum x_g`,
     :math:`C = \\tfrac1N \\sum (x_g - c)(x_g - c)^T = E\\,\\Lambda E^T`; the rows of
     :math:`E^T` are the axes, the largest spread first. Geoms that lie along a diagonal
     line are then sorted along that line, so far fewer boxes overlap than in the world
     axes.
   * Boxes: each body's box is the union of its geoms' boxes in that frame, each geom's
     extent along axis :math:`e` being the smaller of the bounding-sphere interval
     :math:`e\\cdot x_g \\pm r_g` and the projected geom box
     :math:`e\\cdot c_g \\pm \\sum_k h_k |e\\cdot R_g u_k|`, grown by ``margin + gap``.
   * Sweep: sort the ``2N`` interval ends along the first axis; walking the sorted list,
     a *min* end meets every box in the active list (a pair if the boxes also overlap
     along the two other axes) and joins the list, a *max* end leaves it. Sorting is
     :math:`O(N\\log N)`; the sweep costs :math:`O(N\\,A)` for an active list of length
     :math:`A`: a constant when the geoms spread along the first axis, about
     :math:`N^{2/3}` for geoms filling a cube (benchmarks/bench_broadphase.py).

Every candidate passes the body-level filters (:func:`~rbdl_edu.collision.filters.body_pair_filter`
and the body bitmask) and the list is returned sorted by *signature* ``(b1 << 16) + b2``.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.collision.filters import bitmask_rejects, body_pair_filter
from rbdl_edu.model.enums import PLANE


def sap_frame(model, gpos):
    """Principal axes ``(3, 3)`` (rows, largest variance first) of the non-world geom centers.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec()
    >>> for x in range(4): _ = s.add_geom(s.add_body(0, pos=[x, x, 0]), "sphere", [0.1])
    >>> np.round(np.abs(sap_frame(s.compile(), np.array([[x, x, 0.] for x in range(4)]))[0]), 6)
    array([0.707107, 0.707107, 0.      ])
    """
    x = gpos[model.geom_bodyid != 0]
    if len(x) == 0:
        return np.eye(3)
    d = x - x.mean(axis=0)
    # (the axes do not depend on the scale: divided by the largest offset, no square of a
    # far-away geom's coordinates can overflow)
    scale = np.abs(d).max()
    d = d / scale if scale > 0 else d
    C = d.T @ d / len(x)
    lam, E = np.linalg.eigh(C)                       # ascending eigenvalues
    E = E[:, ::-1].T                                 # rows: largest spread first
    # an eigenvector's sign is arbitrary: make each axis' largest component positive
    return E * np.sign(E[np.arange(3), np.argmax(np.abs(E), axis=1)])[:, None]


@per_model
def geoms_of_bodies(model):
    """``((geom ids of body 0), (geom ids of body 1), ...)`` in one pass over the geoms (once
    per model)."""
    out = [[] for _ in range(model.nbody)]
    for g, b in enumerate(model.geom_bodyid):
        out[b].append(int(g))
    return tuple(tuple(gs) for gs in out)


@per_model
def body_masks(model):
    """Each body's ``(contype, conaffinity)``, the OR over its geoms (0 without geoms), once per
    model."""
    ct, ca = model.geom_contype, model.geom_conaffinity
    return tuple((int(np.bitwise_or.reduce(ct[list(gs)])) if gs else 0,
                  int(np.bitwise_or.reduce(ca[list(gs)])) if gs else 0) for gs in geoms_of_bodies(model))


@per_model
def keep_body_pair(model, b1, b2):
    """Whether the body pair passes the body-level filters and the body bitmask (rules 1-4 of
    :mod:`~rbdl_edu.collision.filters`): the model alone decides, so once per pair."""
    masks = body_masks(model)
    return body_pair_filter(model, b1, b2) is None and not bitmask_rejects(*masks[b1], *masks[b2])


@per_model
def sap_bodies(model):
    """The collidable bodies other than the world that the body bitmask lets pair with at
    least one other such body (once per model): a body no other can touch would only bring
    pairs that :func:`keep_body_pair` drops (a robot whose geoms only touch the world)."""
    masks = np.array(body_masks(model), dtype=np.int64).reshape(-1, 2)
    bodies = [b for b in range(1, model.nbody) if masks[b].any()]
    ct, ca = masks[bodies, 0], masks[bodies, 1]
    ok = ((ct[:, None] & ca[None, :]) | (ca[:, None] & ct[None, :])) != 0
    np.fill_diagonal(ok, False)
    return frozenset(b for b, row in zip(bodies, ok) if row.any())


@per_model
def always_colliding(model):
    """The body pairs that are candidates at every step: the world (if it has geoms) and every
    static body with a plane, paired with every other collidable body (once per model)."""
    geoms_of, masks = geoms_of_bodies(model), body_masks(model)
    can = [ct or ca for ct, ca in masks]
    pairs = set()
    for b1 in range(model.nbody):
        if not can[b1]:
            continue
        static = model.body_dofnum[model.body_weldid[b1]] == 0
        has_plane = any(model.geom_type[g] == PLANE for g in geoms_of[b1])
        if (b1 == 0 and geoms_of[0]) or (static and has_plane):
            for b2 in range(model.nbody):
                if can[b2] and keep_body_pair(model, min(b1, b2), max(b1, b2)):
                    pairs.add((min(b1, b2), max(b1, b2)))
    return frozenset(pairs)


@per_model
def swept_bodies(model, every=False):
    """The bodies the sweep sorts, once per model: those with collidable geoms other than the
    world, and (unless ``every``) only those :func:`sap_bodies` keeps."""
    masks = body_masks(model)
    bodies = [b for b in range(1, model.nbody) if masks[b][0] or masks[b][1]]
    return tuple(bodies if every else [b for b in bodies if b in sap_bodies(model)])


@per_model
def sorted_always_colliding(model):
    """:func:`always_colliding` sorted by signature, once per model."""
    return tuple(sorted(always_colliding(model)))


def body_boxes(model, gpos, gmat, rbound, aabb, bodies, frame, geoms_of=None):
    """Box ``(len(bodies), 6)`` = (min (3), max (3)) of each body along the ``frame`` axes
    (each body has geoms): the union of its geoms' intervals, all geoms at once."""
    geoms_of = geoms_of or geoms_of_bodies(model)
    if not bodies:
        return np.zeros((0, 6))
    gs = [g for b in bodies for g in geoms_of[b]]
    starts = np.cumsum([0] + [len(geoms_of[b]) for b in bodies[:-1]])
    margin = (model.geom_margin[gs] + model.geom_gap[gs])[:, None]
    R, h, r = gmat[gs], aabb[gs, 3:], rbound[gs][:, None]
    center = gpos[gs] + np.einsum("gij,gj->gi", R, aabb[gs, :3])
    half = np.einsum("gaj,gj->ga", np.abs(np.einsum("ai,gij->gaj", frame, R)), h)   # Σ_k h_k |e·R u_k|
    c_box, c_sph = center @ frame.T, gpos[gs] @ frame.T
    lo = np.maximum(c_sph - r, c_box - half) - margin
    hi = np.minimum(c_sph + r, c_box + half) + margin
    return np.hstack([np.minimum.reduceat(lo, starts), np.maximum.reduceat(hi, starts)])


def sweep_and_prune(boxes, axis=0):
    """Index pairs ``(i, j)`` of overlapping boxes ``(n, 6)``, sweeping along ``axis``.

    >>> b = np.array([[0, 0, 0, 1, 1, 1], [0.5, 0, 0, 2, 1, 1], [3, 0, 0, 4, 1, 1.]])
    >>> sweep_and_prune(b)
    [(0, 1)]
    """
    others = [a for a in range(3) if a != axis]
    lo, hi = boxes[:, others], boxes[:, [a + 3 for a in others]]
    # an empty box (a negative margin larger than the geoms) overlaps nothing
    boxed = np.flatnonzero(np.all(boxes[:, :3] <= boxes[:, 3:], axis=1)).tolist()
    # interval ends along the sweep axis, as (value, is_max, id); a min sorts before a max
    # at the same value, so touching boxes count as overlapping
    ends = sorted([(boxes[i, axis], 0, i) for i in boxed] +
                  [(boxes[i, axis + 3], 1, i) for i in boxed])
    active, pairs = [], []
    for _, is_max, i in ends:
        if is_max:                                  # i's interval ends: leave the list
            active.remove(i)
            continue
        if active:                                  # i meets every active box ...
            act = np.array(active)
            # ... that also overlaps it along the two other axes
            hit = np.all((lo[act] <= hi[i]) & (lo[i] <= hi[act]), axis=1)
            pairs += [(min(i, j), max(i, j)) for j in act[hit].tolist()]
        active.append(i)
    return pairs


def broadphase(model, gpos, gmat, rbound, aabb, return_sap=False):
    """Candidate body pairs ``[(b1, b2), ...]`` (``b1 < b2``), sorted by signature.

    With ``return_sap=True`` also returns the SAP frame, the bodies and their boxes
    (for drawing them).

    >>> import rbdl_edu as rbd
    >>> from rbdl_edu.collision.geometry import geom_aabb, geom_poses, geom_rbound
    >>> s = rbd.ModelSpec(); _ = s.add_geom(0, "plane", [0, 0, 1])
    >>> for x in (0.0, 0.15, 3.0):
    ...     b = s.add_body(0, pos=[x, 0, 1], mass=1, inertia=[1e-3] * 3)
    ...     _ = s.add_joint(b, "free"); _ = s.add_geom(b, "sphere", [0.1])
    >>> m = s.compile()
    >>> broadphase(m, *geom_poses(m, m.qpos0), geom_rbound(m), geom_aabb(m))
    [(0, 1), (0, 2), (0, 3), (1, 2)]
    """
    # 1. always-colliding: the world with geoms, static bodies with a plane
    pairs = set(always_colliding(model))
    # 2. sweep and prune over the other collidable bodies (two at least)
    bodies = swept_bodies(model, return_sap)    # (the drawing shows every collidable body's box)
    if len(bodies) < 2 and not return_sap:      # (a robot whose geoms only touch the world)
        return list(sorted_always_colliding(model))
    frame = boxes = None
    if len(bodies) >= 2 or return_sap:
        frame = sap_frame(model, gpos)
        boxes = body_boxes(model, gpos, gmat, rbound, aabb, bodies, frame, geoms_of_bodies(model))
        for i, j in sweep_and_prune(boxes):
            b1, b2 = sorted((bodies[i], bodies[j]))
            if keep_body_pair(model, b1, b2):
                pairs.add((b1, b2))
    result = sorted(pairs)
    if return_sap:
        return result, frame, list(bodies), boxes
    return result
