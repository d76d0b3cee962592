r"""A tendon wrapping a sphere or a cylinder (MuJoCo's ``mju_wrap``).

A string pulled tight between two points :math:`x_0`, :math:`x_1` past a round obstacle takes
the shortest way around it. Both obstacles reduce to a circle of radius :math:`r` in a plane:

* a **sphere**: the plane through its center and the two points (the shortest path on a
  sphere between two tangent lines lies on a great circle);
* a **cylinder**: the cross-section, the plane of the cylinder's local ``x``, ``y``; the
  height is put back afterwards by unrolling the cylinder, which makes the path on its
  surface a helix of length :math:`\sqrt{(r\theta)^2 + h^2}`.

In the plane, a point :math:`p` at distance :math:`|p| > r` from the center sees the circle
under the half-angle :math:`\alpha = \arccos(r/|p|)`: its tangent points are at
:math:`\pm\alpha` from :math:`p`'s direction. The straight segment from :math:`p_0` to
:math:`p_1` misses the circle exactly when the angle :math:`\Phi` between them, seen from the
center, is at most :math:`\alpha_0 + \alpha_1`. Otherwise the string leaves :math:`p_0` along
a tangent, follows the circle through the arc :math:`|\Phi| - \alpha_0 - \alpha_1`, and leaves
along the tangent towards :math:`p_1`.

Which way round? Without a side site: the shorter way. With a side site :math:`s`, the way
the polyline :math:`p_0 \to s \to p_1` goes round the center (MuJoCo 4.0's rule: the
shortest path homotopic to that polyline), which may be the long way, more than half a
turn. Its winding angle :math:`\Phi` is the sum of the angles the two pieces sweep.

A side site *inside* the geom threads the string *through* it instead: the string touches
the circle from inside at one point :math:`p` (both "tangent points" are :math:`p`, the arc
is zero) where the two straight pieces make equal angles with the radius, a light ray
reflected by the circle. With :math:`A = r/|p_0|`, :math:`B = r/|p_1|` and :math:`G` the
angle between :math:`p_0` and :math:`p_1`, :math:`z = \sin` of that angle solves
:math:`\arcsin(Az) + \arcsin(Bz) - 2\arcsin z + G = 0`, solved by Newton's method from
:math:`z = 1 - 10^{-7}` to a tolerance of :math:`10^{-6}`, as in MuJoCo's published
``wrap_inside``. MuJoCo 4.0's point differs from this one by up to ~2e-8 (its iteration
is not quite the published one); the length, stationary there, agrees to round-off.

>>> import numpy as np
>>> t0, t1, arc = wrap([-2.0, 0, 0], [2.0, 0, 0], np.zeros(3), np.eye(3), 1.0, CYLINDER,
...                   side=[0.0, 3, 0])                  # over the top, where the side site is
>>> np.round(t0, 6), np.round(t1, 6), round(arc, 6)      # a sixth of a turn: pi - 2 acos(1/2)
(array([-0.5     ,  0.866025,  0.      ]), array([0.5     , 0.866025, 0.      ]), 1.047198)
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.enums import MINVAL, WRAP_CYLINDER, WRAP_SPHERE

SPHERE, CYLINDER = WRAP_SPHERE, WRAP_CYLINDER


def wrap(x0, x1, xpos, xmat, radius, kind, side=None):
    """The string from ``x0`` to ``x1`` (world points) around a sphere or cylinder of
    ``radius`` at ``xpos`` with axes ``xmat`` (``kind`` ``WRAP_SPHERE``/``WRAP_CYLINDER``),
    on the side of the world point ``side`` if given (a point outside the geom).

    Returns ``None`` if the straight string misses the geom, else ``(t0, t1, arc)``: the
    world tangent points where the string meets and leaves the surface, and the length of
    the string on the surface.
    """
    x0, x1, xpos, xmat = (np.asarray(a, dtype=float) for a in (x0, x1, xpos, xmat))
    # the points in the geom's frame
    p0, p1 = xmat.T @ (x0 - xpos), xmat.T @ (x1 - xpos)
    if np.linalg.norm(p0) < MINVAL or np.linalg.norm(p1) < MINVAL:
        return None
    axes = _plane(p0, p1, kind)                          # (2, 3): the circle's plane
    d0, d1 = axes @ p0, axes @ p1
    s = None if side is None else xmat.T @ (np.asarray(side, dtype=float) - xpos)
    if s is not None and np.linalg.norm(s) < radius:      # through the geom
        found = _inside(d0, d1, radius)
    else:
        found = _around(d0, d1, None if s is None else axes @ s, radius)
    if found is None:
        return None
    (t0, t1), arc = found
    t0, t1 = t0 @ axes, t1 @ axes                        # back to 3D, in the geom's frame
    if kind == CYLINDER:
        # unroll the cylinder: the height grows in proportion to the length travelled
        L0, L1 = np.linalg.norm(p0[:2] - t0[:2]), np.linalg.norm(p1[:2] - t1[:2])
        total = L0 + arc + L1
        t0[2] = p0[2] + (p1[2] - p0[2]) * L0 / total
        t1[2] = p0[2] + (p1[2] - p0[2]) * (L0 + arc) / total
        arc = float(np.hypot(arc, t1[2] - t0[2]))
    return xpos + xmat @ t0, xpos + xmat @ t1, float(arc)


def _plane(p0, p1, kind):
    """Two orthonormal axes ``(2, 3)`` of the plane the string wraps in: a cylinder's
    cross-section, or the plane of a sphere's center and the two points."""
    if kind == CYLINDER:
        return np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    a0 = p0 / np.linalg.norm(p0)
    normal = np.cross(p0, p1)
    if np.linalg.norm(normal) < MINVAL:              # p0, p1 parallel: any plane through them
        x, y, z = np.abs(a0)
        i = 1 if (y > x and y > z) else 2 if (z > x and z > y) else 0
        other = np.ones(3)
        other[i] = 0.0
        normal = np.cross(a0, other)
    normal = normal / np.linalg.norm(normal)
    a1 = np.cross(normal, a0)
    return np.array([a0, a1 / np.linalg.norm(a1)])


def _tangents(d, r, turn):
    """The tangent point of the circle of radius ``r`` seen from the 2D point ``d``, on
    the side ``turn`` (+1: counterclockwise from ``d``'s direction, -1: clockwise)."""
    n2 = d @ d
    perp = np.array([-d[1], d[0]])                   # d turned a quarter counterclockwise
    return (r * r * d + turn * r * np.sqrt(n2 - r * r) * perp) / n2


def _angle(a, b):
    """The signed angle from 2D direction ``a`` to ``b``, in ``(-pi, pi]``."""
    return float(np.arctan2(a[0] * b[1] - a[1] * b[0], a @ b))


def _around(d0, d1, sd, r):
    """The 2D tangent points and arc of a string from ``d0`` to ``d1`` around the circle of
    radius ``r`` at the origin (on the side of ``sd`` if given), or ``None`` if it misses."""
    n0, n1 = np.linalg.norm(d0), np.linalg.norm(d1)
    if n0 < r or n1 < r or r < MINVAL:
        return None
    if (d1 - d0) @ (d1 - d0) < MINVAL:
        return None
    a0, a1 = np.arccos(r / n0), np.arccos(r / n1)
    if sd is None:
        Phi = _angle(d0, d1)                         # the straight string's sweep
    else:
        Phi = _angle(d0, sd) + _angle(sd, d1)        # the polyline through the side point
    if abs(Phi) <= a0 + a1:
        return None
    turn = 1.0 if Phi > 0 else -1.0
    t0, t1 = _tangents(d0, r, turn), _tangents(d1, r, -turn)
    return (t0, t1), r * (abs(Phi) - a0 - a1)


def _inside(d0, d1, r):
    """The point where the string from ``d0`` to ``d1`` through the circle of radius ``r``
    touches it from inside, as ``((p, p), 0.0)``, or ``None`` (an end inside the circle,
    or the straight string already crosses it): MuJoCo's ``wrap_inside``, step for step."""
    n0, n1 = np.linalg.norm(d0), np.linalg.norm(d1)
    dif = d1 - d0
    dd = dif[0] * dif[0] + dif[1] * dif[1]
    if n0 <= r or n1 <= r or r < MINVAL or n0 < MINVAL or n1 < MINVAL:
        return None
    if dd > MINVAL:
        a = -(dif[0] * d0[0] + dif[1] * d0[1]) / dd
        if 0 < a < 1 and np.linalg.norm(d0 + a * dif) <= r:
            return None
    # MuJoCo's fallback where the iteration fails: the direction of the average
    mid = 0.5 * (d0 + d1)
    fallback = ((r * mid / np.linalg.norm(mid),) * 2, 0.0)
    A, B = r / n0, r / n1
    cosG = (n0 * n0 + n1 * n1 - dd) / (2 * n0 * n1)
    if cosG < -1 + MINVAL:
        return None
    if cosG > 1 - MINVAL:
        return fallback
    G = np.arccos(cosG)

    def f(z):
        return np.arcsin(A * z) + np.arcsin(B * z) - 2 * np.arcsin(z) + G
    z = 1 - 1e-7
    fz = f(z)
    if fz > 0:
        return fallback
    it = 0
    while it < 20 and abs(fz) > 1e-6:
        df = (A / max(MINVAL, np.sqrt(1 - z * z * A * A)) + B / max(MINVAL, np.sqrt(1 - z * z * B * B))
              - 2 / max(MINVAL, np.sqrt(1 - z * z)))
        if df > -MINVAL:
            return fallback
        z1 = z - fz / df
        if z1 > z:
            return fallback
        z, fz = z1, f(z1)
        if fz > 1e-6:
            return fallback
        it += 1
    if it >= 20:
        return fallback
    # turn from d0 (or d1) by the angle between the radius and the piece
    if d0[0] * d1[1] - d0[1] * d1[0] > 0:
        vec, ang = d0, np.arcsin(z) - np.arcsin(A * z)
    else:
        vec, ang = d1, np.arcsin(z) - np.arcsin(B * z)
    vec = vec / np.linalg.norm(vec)
    p = r * np.array([np.cos(ang) * vec[0] - np.sin(ang) * vec[1], np.sin(ang) * vec[0] + np.cos(ang) * vec[1]])
    return (p, p.copy()), 0.0
