"""The geom-pair tests of a collision pass on arrays of pairs (plumbing behind
:func:`~rbdl_edu.collision.driver.collide`).

:func:`~rbdl_edu.collision.driver.candidate_pairs` is the book's loop: body pair after body
pair, geom pair after geom pair, one test on one pair at a time. The same tests run here on
arrays of pairs, so that a pass costs a few NumPy operations instead of Python calls per pair:

* :func:`inertial_frames`: every body's inertial frame, recovered from one of its geoms as
  :func:`~rbdl_edu.collision.midphase.tree_pairs` does;
* :func:`relative_frames`, :func:`nodes_apart`: the midphase's node-box test on node pairs
  of many body pairs;
* :func:`spheres_apart`: rule 8 (:func:`~rbdl_edu.collision.filters.bounding_sphere_rejects`);
* :func:`obbs_apart`: the oriented-box test (:func:`~rbdl_edu.collision.filters.boxes_apart`).

Each computes the equation of its one-pair version, in the same order of operations; the
tests (``tests/test_collision_batch.py``) check that they agree pair by pair.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.collision.midphase import body_trees
from rbdl_edu.model.enums import PLANE


@per_model
def frame_geoms(model):
    """Per body, the geom its inertial frame is recovered from and that frame's pose in the
    geom's (:class:`~rbdl_edu.collision.midphase.BoxTree` ``frame``): ``g0 (nbody,)``,
    ``p (nbody, 3)``, ``R (nbody, 3, 3)`` (geom 0 and the identity for a body without a
    tree), once per model."""
    g0, p = np.zeros(model.nbody, dtype=int), np.zeros((model.nbody, 3))
    R = np.tile(np.eye(3), (model.nbody, 1, 1))
    for b, tree in enumerate(body_trees(model)):
        if tree is not None:
            g0[b], p[b], R[b] = tree.frame
    return g0, p, R


@per_model
def is_plane(model):
    """``(ngeom,)`` bool: the geom is a plane (unbounded), once per model."""
    return np.asarray(model.geom_type) == PLANE


def inertial_frames(model, gpos, gmat):
    """Every body's inertial frame ``x (nbody, 3)``, ``R (nbody, 3, 3)`` from its geom ``g0``:
    :math:`R_i = R_{g_0} R^T`, :math:`x_i = x_{g_0} - R_i p` (meaningless for a body
    without a tree)."""
    g0, p, R = frame_geoms(model)
    Ri = gmat[g0] @ R.transpose(0, 2, 1)
    return gpos[g0] - np.einsum("bij,bj->bi", Ri, p), Ri


def nodes_apart(t, R, c1, h1, c2, h2, margin):
    r"""``(T,)`` bool: node box 1 (center ``c1``, half-sizes ``h1``) and node box 2, grown by
    ``margin``, are apart -- row by row, the test of
    :func:`~rbdl_edu.collision.midphase.tree_pairs`, with box 2's frame given in box 1's
    (:math:`t = R_1^T(x_2 - x_1)`, :math:`R = R_1^T R_2`, per body pair: :func:`relative_frames`):
    with :math:`C = |R|` and :math:`d = t + R\,c_2 - c_1`,

    .. math:: |d| > h_1 + C h_2 + m \quad\text{or}\quad |R^T d| > C^T h_1 + h_2 + m

    in some component.
    """
    C = np.abs(R)
    d = (t + np.einsum("tj,tij->ti", c2, R)) - c1
    Ch2 = np.einsum("tj,tij->ti", h2, C) + margin[:, None]          # each box's reach along
    Ch1 = np.einsum("ti,tij->tj", h1, C) + margin[:, None]          # the other's axes
    return (np.abs(d) > h1 + Ch2).any(axis=1) | (np.abs(np.einsum("ti,tij->tj", d, R)) > Ch1 + h2).any(axis=1)


def relative_frames(x, R, b1, b2):
    """Body ``b2[k]``'s inertial frame in body ``b1[k]``'s, from the frames ``x, R`` of
    :func:`inertial_frames`: ``t (K, 3)`` :math:`= R_1^T(x_2 - x_1)`, ``R (K, 3, 3)`` :math:`= R_1^T R_2`."""
    R1 = R[b1]
    return np.einsum("ti,tij->tj", x[b2] - x[b1], R1), R1.transpose(0, 2, 1) @ R[b2]


def spheres_apart(model, gpos, gmat, rbound, g1, g2, margin):
    r"""``(P,)`` bool: rule 8 on geom pairs ``g1[k], g2[k]``: the bounding spheres, grown by
    ``margin[k]``, cannot touch (:func:`~rbdl_edu.collision.filters.bounding_sphere_rejects`):

    .. math:: |x_1 - x_2| > r_1 + r_2 + m  \qquad\text{or, for a plane } g_1:\quad
              n_1\cdot(x_2 - x_1) > r_2 + m
    """
    r1, r2, plane = rbound[g1], rbound[g2], is_plane(model)
    d = gpos[g1] - gpos[g2]
    far = np.einsum("pi,pi->p", d, d) > (r1 + r2 + margin) ** 2
    above1 = plane[g1] & (r2 > 0) & (np.einsum("pi,pi->p", gmat[g1][:, :, 2], -d) > margin + r2)
    above2 = plane[g2] & (r1 > 0) & (np.einsum("pi,pi->p", gmat[g2][:, :, 2], d) > margin + r1)
    return np.where((r1 > 0) & (r2 > 0), far, above1 | above2)


def obbs_apart(model, gpos, gmat, aabb, g1, g2, margin):
    r"""``(P,)`` bool: the oriented bounding boxes of geom pairs ``g1[k], g2[k]``, grown by
    ``margin[k]``, are separated along one of their face normals
    (:func:`~rbdl_edu.collision.filters.boxes_apart`): with :math:`d = c_2 - c_1` and
    :math:`C = R_1^T R_2`,

    .. math:: |R_1^T d| > h_1 + |C|\,h_2 + m \quad\text{or}\quad |R_2^T d| > |C|^T h_1 + h_2 + m

    Planes are unbounded: never apart.
    """
    R1, R2, h1, h2, m = gmat[g1], gmat[g2], aabb[g1, 3:], aabb[g2, 3:], margin[:, None]
    d = (gpos[g2] + np.einsum("pij,pj->pi", R2, aabb[g2, :3])
         - gpos[g1] - np.einsum("pij,pj->pi", R1, aabb[g1, :3]))
    C = np.abs(R1.transpose(0, 2, 1) @ R2)
    apart = (np.abs(np.einsum("pi,pij->pj", d, R1)) > h1 + np.einsum("pij,pj->pi", C, h2) + m).any(axis=1) | \
        (np.abs(np.einsum("pi,pij->pj", d, R2)) > np.einsum("pi,pij->pj", h1, C) + h2 + m).any(axis=1)
    plane = is_plane(model)
    return apart & ~(plane[g1] | plane[g2])
