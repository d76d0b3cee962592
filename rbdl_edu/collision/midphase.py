"""The midphase: a tree of boxes per body (MuJoCo's ``mj_collideTree``).

A body pair that survives the broadphase may carry many geoms each: ``n1 * n2`` geom pairs.
Most are far apart. Each body keeps a **bounding-volume tree** built once per model in its
inertial frame: the root box holds all of the body's geoms, a node's geoms are split at the
median along the box's longest edge into two children, and each leaf is one geom (MuJoCo's
``mjCBoundingVolumeHierarchy::MakeBVH``; the model's ``body_bvhadr``, ``bvh_aabb``,
``bvh_child``, ``bvh_nodeid``). Two trees are descended together from their roots: a node
pair whose oriented boxes (grown by the bodies' margins) are apart is dropped with everything
below it; otherwise the node with the larger box surface is opened. Only leaf pairs whose
geoms' own boxes overlap (:func:`~rbdl_edu.collision.filters.boxes_apart`, grown by
``margin + gap``) reach the filters and the narrowphase.

A box that holds a geom's box holds the geom, so nothing that could touch is dropped: the
contacts are those of the all-pairs loop, only the work shrinks. Geoms with neither a
``contype`` nor a ``conaffinity`` bit are left out of the tree. MuJoCo takes this path for a
body pair unless both bodies have a single geom; ``<flag midphase="disable"/>`` turns it off.
"""
from __future__ import annotations

from functools import cmp_to_key
from typing import NamedTuple

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.collision.filters import bounding_sphere_rejects, boxes_apart
from rbdl_edu.collision.geometry import geom_aabb, geom_rbound
from rbdl_edu.collision.pair_params import pair_margin_gap
from rbdl_edu.rotation import quat_to_mat

EPS = 1e-14     # mjEPS: flat boxes are inflated by it; closer centers tie (then geom order decides)


class BoxTree(NamedTuple):
    """One body's tree, in the body's inertial frame: ``aabb (n, 6)`` node boxes (center,
    half-sizes), ``child (n, 2)`` (``-1``: none), ``geom (n,)`` (the leaf's geom, else ``-1``);
    ``frame = (g0, p, R)``: a geom ``g0`` of the body and its pose in the inertial frame, from
    which the frame is recovered at run time (``R_i = R_g0 Rᵀ``, ``x_i = x_g0 - R_i p``)."""
    aabb: np.ndarray
    child: np.ndarray
    geom: np.ndarray
    frame: tuple


def _build(lpos, corners, geoms, nodes):
    """Append the subtree of ``geoms`` to ``nodes`` (pre-order); return its root's index."""
    pts = np.concatenate([corners[g] for g in geoms])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    flat = np.abs(hi - lo) < EPS
    lo, hi = np.where(flat, lo - EPS, lo), np.where(flat, hi + EPS, hi)
    k = len(nodes)
    nodes.append([np.concatenate([(hi + lo) / 2, (hi - lo) / 2]), [-1, -1], -1])
    if len(geoms) == 1:
        nodes[k][2] = geoms[0]
        return k
    e = hi - lo                                  # longest edge (by at least EPS), else x
    axis = 0
    axis = 1 if e[1] >= e[0] + EPS else axis
    axis = 2 if e[2] >= e[axis] + EPS else axis

    def before(a, b):
        d = float(lpos[a][axis] - lpos[b][axis])
        return (d > 0) - (d < 0) if abs(d) > EPS else (a > b) - (a < b)
    order = sorted(geoms, key=cmp_to_key(before))
    m = len(order) // 2                          # the median splits the geoms in two halves
    nodes[k][1] = [_build(lpos, corners, order[:m], nodes), _build(lpos, corners, order[m:], nodes)]
    return k


@per_model
def body_trees(model):
    """:class:`BoxTree` of every body (``None`` for a body without collidable geoms), once per
    model. Node boxes match MuJoCo's ``bvh_aabb`` to round-off.

    Three balls in a row: the root holds all, its first child the left ball (a leaf), its
    second the other two.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); b = s.add_body(0, mass=1, inertia=[1e-3] * 3)
    >>> for x in (0, 1, 2): _ = s.add_geom(b, "sphere", [0.1], pos=[x, 0, 0])
    >>> t = body_trees(s.compile())[1]
    >>> t.child.tolist(), t.geom.tolist()
    ([[1, 2], [-1, -1], [3, 4], [-1, -1], [-1, -1]], [-1, 0, -1, 1, 2])
    >>> t.aabb[0].round(6).tolist()          # center, half-sizes
    [1.0, 0.0, 0.0, 1.1, 0.1, 0.1]
    """
    aabb, trees = geom_aabb(model), []
    signs = np.array([[(v >> i) & 1 for i in range(3)] for v in range(8)]) * 2 - 1
    for b in range(model.nbody):
        Ri = quat_to_mat(np.asarray(model.body_iquat[b], dtype=float))
        geoms = [int(g) for g in np.flatnonzero(np.asarray(model.geom_bodyid) == b)
                 if model.geom_contype[g] or model.geom_conaffinity[g]]
        if not geoms:
            trees.append(None)
            continue
        lpos, corners, pose = {}, {}, {}
        for g in geoms:                          # geom pose in the inertial frame: p, R
            R = Ri.T @ quat_to_mat(np.asarray(model.geom_quat[g], dtype=float))
            p = Ri.T @ (np.asarray(model.geom_pos[g], dtype=float) - model.body_ipos[b])
            lpos[g], pose[g] = p, (p, R)
            corners[g] = p + (aabb[g, :3] + signs * aabb[g, 3:]) @ R.T     # the 8 box corners
        nodes = []
        _build(lpos, corners, geoms, nodes)
        trees.append(BoxTree(np.array([n[0] for n in nodes]), np.array([n[1] for n in nodes]),
                             np.array([n[2] for n in nodes]), (geoms[0], *pose[geoms[0]])))
    return trees


@per_model
def body_margin(model):
    """Per body: the largest ``margin + gap`` of its geoms (MuJoCo's ``body_margin``)."""
    out = np.zeros(model.nbody)
    for g in range(model.ngeom):
        b = model.geom_bodyid[g]
        out[b] = max(out[b], model.geom_margin[g] + model.geom_gap[g])
    return out


def uses_midphase(model, b1, b2) -> bool:
    """MuJoCo's choice: the tree unless both bodies hold one geom, the flag is off, or a body
    has no tree."""
    trees = body_trees(model)
    return (not (model.body_geomnum[b1] == 1 and model.body_geomnum[b2] == 1) and not model.opt.disabled("midphase")
            and trees[b1] is not None and trees[b2] is not None)


def _inertial_frame(tree, gpos, gmat):
    g0, p, R = tree.frame
    Ri = gmat[g0] @ R.T
    return gpos[g0] - Ri @ p, Ri


def node_margin(model, b1, b2):
    """The margin the node boxes of two bodies' trees are grown by: the option's if it
    overrides, else the sum of the bodies' (:func:`body_margin`)."""
    return model.opt.o_margin if model.opt.enabled("override") else \
        body_margin(model)[b1] + body_margin(model)[b2]


@per_model
def tree_shape(model, b):
    """Per node of body ``b``'s tree: leaf?, a plane's box (never apart)?, box surface (half
    of it), once per model."""
    tree = body_trees(model)[b]
    h = tree.aabb[:, 3:]
    return (tree.child < 0).all(axis=1), (h >= 1e9).any(axis=1), (h * np.roll(h, 1, axis=1)).sum(1)


@per_model
def descent_paths(model, b1, b2):
    """The descent of :func:`tree_pairs` with nothing apart: each leaf pair ``(g1, g2)`` with
    the node pairs ``((n1, n2), ...)`` whose box test lies on its way (planes' nodes, never
    apart, left out), once per model and body pair.

    Which node opens next depends on the trees alone, so each leaf pair has one way down:
    :func:`tree_pairs` hands it on exactly when no node pair on its way is apart and the
    leaf boxes overlap. Testing all those node pairs at once gives the same pairs without a
    walk (:mod:`~rbdl_edu.collision.batch`).

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); _ = s.add_geom(0, "plane", [0, 0, 1])
    >>> b = s.add_body(0, mass=1, inertia=[1e-3] * 3); _ = s.add_joint(b, "free")
    >>> for x in (0, 1): _ = s.add_geom(b, "sphere", [0.1], pos=[x, 0, 0])
    >>> descent_paths(s.compile(), 0, 1)         # a plane's box prunes nothing
    [(0, 2, ()), (0, 1, ())]
    """
    T1, T2 = body_trees(model)[b1], body_trees(model)[b2]
    (leaf1, huge1, area1), (leaf2, huge2, area2) = tree_shape(model, b1), tree_shape(model, b2)
    out, stack = [], [(0, 0, ())]
    while stack:
        n1, n2, path = stack.pop()
        if leaf1[n1] and leaf2[n2]:
            out.append((int(T1.geom[n1]), int(T2.geom[n2]), path))
            continue
        if not (huge1[n1] or huge2[n2]):
            path = path + ((n1, n2),)
        if not leaf1[n1] and (leaf2[n2] or area1[n1] > area2[n2]):    # open the larger box
            stack += [(c, n2, path) for c in T1.child[n1] if c != -1]
        else:
            stack += [(n1, c, path) for c in T2.child[n2] if c != -1]
    return out


def tree_pairs(model, b1, b2, gpos, gmat, visit=None):
    r"""Geom pairs ``(g1, g2)`` (``g1`` on ``b1``) of two bodies' trees whose leaf boxes overlap,
    in the order the descent meets them. ``visit`` (a list), if given, gets every node pair
    ``(n1, n2)`` popped from the stack.

    Node boxes are compared in body 1's inertial frame: with :math:`R = R_1^T R_2`,
    :math:`C = |R|`, box 2's center :math:`c_2' = R_1^T(x_2 - x_1) + R\,c_2` and
    :math:`d = c_2' - c_1`, the pair is apart (as
    :func:`~rbdl_edu.collision.filters.boxes_apart`, grown by :math:`m = m_{b_1} + m_{b_2}`) if

    .. math:: |d| > h_1 + C h_2 + m \quad\text{or}\quad |R^T d| > C^T h_1 + h_2 + m

    in some component. Everything that depends on one node only is computed once per call.
    """
    T1, T2 = body_trees(model)[b1], body_trees(model)[b2]
    x1, R1 = _inertial_frame(T1, gpos, gmat)
    x2, R2 = _inertial_frame(T2, gpos, gmat)
    margin = node_margin(model, b1, b2)
    R = R1.T @ R2
    C = np.abs(R)
    c1, h1 = T1.aabb[:, :3], T1.aabb[:, 3:]
    c2, h2 = (x2 - x1) @ R1 + T2.aabb[:, :3] @ R.T, T2.aabb[:, 3:]    # box 2 in frame 1
    Ch2, Ch1 = h2 @ C.T + margin, h1 @ C + margin         # each box's reach along the other's axes
    # (a plane's nodes: never apart)
    (leaf1, huge1, area1), (leaf2, huge2, area2) = tree_shape(model, b1), tree_shape(model, b2)
    aabb, rbound = geom_aabb(model), geom_rbound(model)
    out, stack = [], [(0, 0)]
    while stack:
        n1, n2 = stack.pop()
        if visit is not None:
            visit.append((n1, n2))
        if leaf1[n1] and leaf2[n2]:
            g1, g2 = int(T1.geom[n1]), int(T2.geom[n2])
            mg = sum(pair_margin_gap(model, g1, g2))
            if not bounding_sphere_rejects(model, gpos, gmat, rbound, g1, g2, mg) and \
                    not boxes_apart(model, gpos, gmat, aabb, g1, g2, mg):
                out.append((g1, g2))
            continue
        if not (huge1[n1] or huge2[n2]):
            d = c2[n2] - c1[n1]
            if (np.abs(d) > h1[n1] + Ch2[n2]).any() or (np.abs(d @ R) > Ch1[n1] + h2[n2]).any():
                continue
        if not leaf1[n1] and (leaf2[n2] or area1[n1] > area2[n2]):    # open the larger box
            stack += [(c, n2) for c in T1.child[n1] if c != -1]
        else:
            stack += [(n1, c) for c in T2.child[n2] if c != -1]
    return out
