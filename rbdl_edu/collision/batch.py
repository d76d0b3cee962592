"""The geom-pair tests of a collision pass on arrays of pairs (plumbing behind
:func:`~rbdl_edu.collision.driver.collide`).

:func:`~rbdl_edu.collision.driver.candidate_pairs` is the book's loop: body pair after body
pair, geom pair after geom pair, one test on one pair at a time. The same tests run here on
arrays of pairs, so that a pass costs a few NumPy operations instead of Python calls per pair:

* :func:`node_frames`, :func:`nodes_apart`: the midphase's node-box test on the node pairs of
  many body pairs, each node box in the world from its body's frame geom;
* :func:`spheres_apart`: rule 8 (:func:`~rbdl_edu.collision.filters.bounding_sphere_rejects`),
  what the model decides about it (:func:`sphere_tests`) apart from the poses (:func:`spheres_apart_at`);
* :func:`obbs_apart`: the oriented-box test (:func:`~rbdl_edu.collision.filters.boxes_apart`);
  both box tests are :func:`boxes_apart` on boxes in the world.

Each computes the equation of its one-pair version; the tests
(``tests/test_collision_batch.py``) check that they agree pair by pair.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.collision.midphase import body_trees
from rbdl_edu.model.enums import PLANE


def node_frames(model, b, n):
    """Node ``n`` of body ``b``'s tree (:func:`~rbdl_edu.collision.midphase.body_trees`) in the
    frame of the body's geom ``g0`` (the tree's ``frame``: ``g0`` and its pose ``p, R`` in the
    body's inertial frame): ``(g0, A, c, h)`` with axes :math:`A = R^T`, center
    :math:`c = R^T(c_n - p)` and half-sizes ``h`` -- at run time the box's world axes are
    :math:`R_{g_0} A` and its center :math:`x_{g_0} + R_{g_0} c`."""
    tree = body_trees(model)[b]
    g0, p, R = tree.frame
    return g0, R.T, R.T @ (tree.aabb[n, :3] - p), tree.aabb[n, 3:]


def boxes_apart(c, A, h, margin):
    r"""``(T,)`` bool: box 1 and box 2 of each test (centers ``c (T, 2, 3)``, axes the columns of
    ``A (T, 2, 3, 3)``, half-sizes ``h (T, 2, 3)``), grown by ``margin (T,)``, are separated
    along one of their six face normals: with :math:`d = c_2 - c_1` and :math:`C = |A_1^T A_2|`,

    .. math:: |A_1^T d| > h_1 + C h_2 + m \quad\text{or}\quad |A_2^T d| > C^T h_1 + h_2 + m

    in some component. (Both sides at once: :math:`|A_s^T d|` and, with
    :math:`C^T = |A_2^T A_1|`, the reach :math:`h_s + |A_s^T A_{\bar s}|\, h_{\bar s} + m`.)"""
    d = (c[:, 1] - c[:, 0])[:, None]                    # (the same d for both sides' axes)
    At = A.mT
    reach = h + np.matvec(np.abs(At @ A[:, ::-1]), h[:, ::-1]) + margin[:, None, None]
    return np.logical_or.reduce(np.abs(np.matvec(At, d)) > reach, axis=(1, 2))     # (any, undispatched)


def nodes_apart(gpos, gmat, geom, axes, center, half, margin):
    """``(T,)`` bool: the node-box test of :func:`~rbdl_edu.collision.midphase.tree_pairs` on
    node pairs, each side as :func:`node_frames` gives it (``geom (T, 2)``, ``axes (T, 2, 3, 3)``,
    ``center (T, 2, 3)``, ``half (T, 2, 3)``), grown by ``margin (T,)``: :func:`boxes_apart`
    of the boxes in the world."""
    R = gmat[geom]
    return boxes_apart(gpos[geom] + np.matvec(R, center), R @ axes, half, margin)


@per_model
def is_plane(model):
    """``(ngeom,)`` bool: the geom is a plane (unbounded), once per model."""
    return np.asarray(model.geom_type) == PLANE


def spheres_apart(model, gpos, gmat, rbound, g1, g2, margin):
    r"""``(P,)`` bool: rule 8 on geom pairs ``g1[k], g2[k]``: the bounding spheres, grown by
    ``margin[k]``, cannot touch (:func:`~rbdl_edu.collision.filters.bounding_sphere_rejects`):

    .. math:: |x_1 - x_2| > r_1 + r_2 + m  \qquad\text{or, for a plane } g_1:\quad
              n_1\cdot(x_2 - x_1) > r_2 + m

    (:func:`sphere_tests`, what the model decides, then :func:`spheres_apart_at`, the poses.)
    """
    return spheres_apart_at(gpos, gmat, sphere_tests(model, rbound, g1, g2, margin), len(g1))


class SphereTests(NamedTuple):
    """Rule 8 on a list of geom pairs, sorted by what the model decides: the rows of two
    bounded geoms, ``bounded (S,)``, their geoms ``pairs (S, 2)`` and reach squared
    ``reach2 (S,)`` :math:`= (r_1 + r_2 + m)^2`; the rows of a plane and a bounded geom,
    ``planar (Q,)``, their geoms ``planes (Q, 2)`` (the plane first) and ``reach (Q,)``
    :math:`= r + m`. Other rows (two unbounded geoms) are never apart. ``floor``: the plane of
    every row if all rows are a plane's and it is the same one (a robot on the ground), else
    ``-1``; its bounded geoms ``others (Q,)``."""
    bounded: np.ndarray
    pairs: np.ndarray
    reach2: np.ndarray
    planar: np.ndarray
    planes: np.ndarray
    reach: np.ndarray
    floor: int = -1
    others: np.ndarray = np.zeros(0, dtype=int)


def sphere_tests(model, rbound, g1, g2, margin):
    """The :class:`SphereTests` of geom pairs ``g1[k], g2[k]`` with margins ``margin[k]``."""
    r1, r2, plane = rbound[g1], rbound[g2], is_plane(model)
    both = (r1 > 0) & (r2 > 0)
    first, second = ~both & plane[g1] & (r2 > 0), ~both & plane[g2] & (r1 > 0)
    b, p = np.flatnonzero(both), np.flatnonzero(first | second)
    planes = np.where(first[p, None], np.stack([g1[p], g2[p]], axis=1), np.stack([g2[p], g1[p]], axis=1))
    floor = int(planes[0, 0]) if len(p) == len(g1) > 0 and (planes[:, 0] == planes[0, 0]).all() else -1
    return SphereTests(b, np.stack([g1[b], g2[b]], axis=1), (r1[b] + r2[b] + margin[b]) ** 2,
                       p, planes, margin[p] + np.where(first[p], r2[p], r1[p]), floor, planes[:, 1])


def spheres_apart_at(gpos, gmat, tests, n):
    """``(n,)`` bool: rule 8 at the poses ``gpos, gmat`` on the ``n`` rows of ``tests``
    (:class:`SphereTests`)."""
    if tests.floor >= 0:                        # every row on one plane: n · (x_2 - x_1) at once
        x, normal = gpos[tests.floor], gmat[tests.floor, :, 2]
        return np.vecdot(normal, gpos[tests.others] - x) > tests.reach
    out = np.zeros(n, dtype=bool)
    if len(tests.bounded):
        d = gpos[tests.pairs[:, 0]] - gpos[tests.pairs[:, 1]]
        out[tests.bounded] = np.vecdot(d, d) > tests.reach2
    if len(tests.planar):
        plane, other = tests.planes[:, 0], tests.planes[:, 1]
        out[tests.planar] = np.vecdot(gmat[plane, :, 2], gpos[other] - gpos[plane]) > tests.reach
    return out


def obbs_apart(model, gpos, gmat, aabb, g1, g2, margin):
    r"""``(P,)`` bool: the oriented bounding boxes of geom pairs ``g1[k], g2[k]``, grown by
    ``margin[k]``, are separated along one of their face normals
    (:func:`~rbdl_edu.collision.filters.boxes_apart`): with :math:`d = c_2 - c_1` and
    :math:`C = R_1^T R_2`,

    .. math:: |R_1^T d| > h_1 + |C|\,h_2 + m \quad\text{or}\quad |R_2^T d| > |C|^T h_1 + h_2 + m

    Planes are unbounded: never apart.
    """
    g = np.stack([g1, g2], axis=1)
    R, box = gmat[g], aabb[g]
    apart = boxes_apart(gpos[g] + np.matvec(R, box[..., :3]), R, box[..., 3:], margin)
    plane = is_plane(model)
    return apart & ~(plane[g1] | plane[g2])
