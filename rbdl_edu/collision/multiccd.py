"""More contacts for a convex pair by tilting it a little (MuJoCo's "multi-CCD").

GJK/EPA (:mod:`~rbdl_edu.collision.convex`) return the single deepest point. Where a
cylinder lies across a box, the contact is a segment and that point is any of it; the body
then rests on one point. MuJoCo 4.0 (``multiccd``, on unless ``<flag multiccd="disable"/>``)
looks for the ends: with :math:`(n, t_1, t_2)` the contact frame of the first contact at
:math:`c`, it turns geom 1 by a small angle :math:`\\alpha = \\pm 10^{-3}` about the axis
:math:`t_k` through :math:`c`, and geom 2 by :math:`-\\alpha`,

.. math:: R_1' = Q R_1,\\quad p_1' = c + Q (p_1 - c),\\qquad
          R_2' = Q^T R_2,\\quad p_2' = c + Q^T (p_2 - c),

so the end of the segment that the tilt pushes in becomes the deepest point; the four tilts
(two axes, two signs) each add their contact if it is farther than
:math:`10^{-2}\\min(r_1, r_2)` (bounding radii) from every contact found so far, with the
first contact's depth and normal. A contact inside a segment or a triangle of the others is
then dropped: where the contact is a line or a patch, our exact EPA may put the first point
anywhere on it, MuJoCo's stops at an end, and the tilts find the ends. Spheres and
ellipsoids are skipped (a smooth point contact has no ends); boxes and meshes use face
clipping instead (:mod:`~rbdl_edu.collision.clipping`) unless the pair has a margin.

The 3.12 source has a tolerance of :math:`10^{-3}` and no dropping; MuJoCo 4.0's counts
(a cylinder rim on a box: 1; a cylinder lying on a box: 2; standing: 4) are matched by
the rule above, checked in ``tests/test_convex_multicontact.py``.
"""
from __future__ import annotations

import itertools

import numpy as np

from rbdl_edu.collision.contact import make_frame
from rbdl_edu.collision.geometry import geom_rbound
from rbdl_edu.model.enums import ELLIPSOID, SPHERE
from rbdl_edu.rotation import quat_to_mat

ANGLE = 1e-3              # the tilt, radians
RELATIVE_TOL = 1e-2       # a new contact must be this far (times the smaller bounding radius)


def tilt(axis, angle):
    """The rotation by ``angle`` about the unit ``axis``: the quaternion
    :math:`(\\cos\\frac\\alpha2, \\hat a \\sin\\frac\\alpha2)` as a matrix."""
    return quat_to_mat(np.concatenate([[np.cos(angle / 2)], np.asarray(axis) * np.sin(angle / 2)]))


def perturbed_contacts(model, gpos, gmat, g1, g2, margin, first, distance):
    """The first contact ``(dist, pos, n)`` and those the four tilts add (see the module
    docstring); ``distance(gpos, gmat)`` is the pair's ``(dist, n, a, b)`` at the poses
    ``gpos[g], gmat[g]`` of ``g1, g2``, or ``None``."""
    if SPHERE in model.geom_type[[g1, g2]] or ELLIPSOID in model.geom_type[[g1, g2]]:
        return [first]
    dist0, c, n = first
    rbound = geom_rbound(model)
    frame = make_frame(n)
    tol = RELATIVE_TOL * min(rbound[g1], rbound[g2])
    out = [first]
    for axis in (frame[1], frame[2]):
        for angle in (-ANGLE, ANGLE):
            Q = tilt(axis, angle)
            P = {g1: c + Q @ (gpos[g1] - c), g2: c + Q.T @ (gpos[g2] - c)}
            R = {g1: Q @ gmat[g1], g2: Q.T @ gmat[g2]}
            found = distance(P, R)
            if found is not None and found[0] < margin:
                _, _, a, b = found
                pos = (a + b) / 2
                if all(np.linalg.norm(pos - q[1]) > tol for q in out):
                    out.append((dist0, pos, n))              # the first depth and normal
    # a point inside the segment or triangle of others lies inside the line or the patch
    # whose ends the tilts found (where the contact is degenerate, MuJoCo's GJK/EPA stops at
    # an end or a rim point, ours anywhere): it is dropped
    x = [q[1] for q in out]
    return [q for k, q in enumerate(out) if not _inside(x[k], [y for i, y in enumerate(x) if i != k], tol)]


def _inside(p, others, tol):
    """Whether ``p`` is within ``tol`` of a segment or a triangle spanned by ``others``:
    the closest point :math:`a + B\\lambda` (:math:`B = [b - a, c - a]`, least squares),
    with :math:`\\lambda \\ge 0`, :math:`\\sum\\lambda \\le 1`."""
    for k in (2, 3):
        for corners in itertools.combinations(others, k):
            a = corners[0]
            B = np.array([c - a for c in corners[1:]]).T
            lam = np.linalg.lstsq(B, p - a, rcond=None)[0]
            if np.all(lam >= -1e-9) and lam.sum() <= 1 + 1e-9 and np.linalg.norm(a + B @ lam - p) <= tol:
                return True
    return False
