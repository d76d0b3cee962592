r"""Where a ray first meets a primitive shape (MuJoCo's ``mju_rayGeom``), for the ``touch``
sensor's zone (book, chapter 10).

A ray :math:`p + x\,v`, :math:`x \ge 0`, is taken into the shape's frame (``pos``, ``mat``);
there each surface is a quadric or a plane, so the first hit is the smallest non-negative
root of a quadratic :math:`a x^2 + 2 b x + c = 0` (:func:`smallest_root`) or of a linear
equation, kept only if it lies on the right piece of the surface (a capsule's caps, a
cylinder's or box's faces). A ray that starts inside a closed shape hits it on the way out.

>>> ray_geom(np.zeros(3), np.eye(3), np.array([0.5, 0, 0]), np.array([-2.0, 0, 0]),
...          np.array([1.0, 0, 0]), SPHERE)
1.5
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.enums import BOX, CAPSULE, CYLINDER, ELLIPSOID, MINVAL, SPHERE


def smallest_root(a, b, c):
    """The smallest non-negative root of :math:`a x^2 + 2bx + c = 0`, ``-1`` if none.

    >>> smallest_root(1.0, 0.0, -4.0), smallest_root(1.0, 0.0, 4.0)       # x^2 = 4; x^2 = -4
    (2.0, -1.0)
    """
    det = b * b - a * c
    if det < 0 or a < MINVAL:
        return -1.0
    det = np.sqrt(det)
    x0, x1 = (-b - det) / a, (-b + det) / a
    return float(x0) if x0 >= 0 else (float(x1) if x1 >= 0 else -1.0)


def ray_geom(pos, mat, size, pnt, vec, geomtype):
    """Distance ``x`` along ``vec`` (in units of ``|vec|``) from ``pnt`` to the first hit of the
    sphere, capsule, ellipsoid, cylinder or box at ``pos``, ``mat`` with MuJoCo's ``size``;
    ``-1`` if the ray misses."""
    # the ray in the shape's frame: l = R^T (p - pos), u = R^T v
    lp, lv = mat.T @ (np.asarray(pnt, float) - pos), mat.T @ np.asarray(vec, float)
    if geomtype == SPHERE:
        return smallest_root(lv @ lv, lv @ lp, lp @ lp - size[0] ** 2)
    if geomtype == ELLIPSOID:
        s = 1 / np.asarray(size[:3], float) ** 2
        return smallest_root(s @ (lv * lv), s @ (lv * lp), s @ (lp * lp) - 1)
    if geomtype == CAPSULE:
        return _capsule(lp, lv, size[0], size[1])
    if geomtype == CYLINDER:
        return _cylinder(lp, lv, size[0], size[1])
    if geomtype == BOX:
        return _box(lp, lv, np.asarray(size[:3], float))
    raise ValueError(f"ray_geom: geom type {geomtype} is not a sphere, capsule, ellipsoid, cylinder or box")


def _closest(hits):
    """The smallest non-negative distance in ``hits``, ``-1`` if none."""
    hits = [x for x in hits if x >= 0]
    return float(min(hits)) if hits else -1.0


def _capsule(lp, lv, r, h):
    """The round side :math:`x^2 + y^2 = r^2` between the caps, and the two half spheres of
    radius ``r`` at :math:`z = \\pm h`."""
    hits = []
    x = smallest_root(lv[0] ** 2 + lv[1] ** 2, lv[0] * lp[0] + lv[1] * lp[1], lp[0] ** 2 + lp[1] ** 2 - r * r)
    if x >= 0 and abs(lp[2] + x * lv[2]) <= h:
        hits.append(x)
    for side in (1, -1):
        d = lp - [0.0, 0.0, side * h]
        a, b, c = lv @ lv, lv @ d, d @ d - r * r
        det = b * b - a * c
        if det < 0 or a < MINVAL:
            continue
        for x in ((-b - np.sqrt(det)) / a, (-b + np.sqrt(det)) / a):
            # only the outer half of each cap's sphere
            if x >= 0 and side * (lp[2] + x * lv[2]) >= h:
                hits.append(x)
    return _closest(hits)


def _cylinder(lp, lv, r, h):
    """The two flat faces :math:`z = \\pm h` within radius ``r``, and the round side between them."""
    hits = []
    if abs(lv[2]) > MINVAL:
        for side in (-1, 1):
            x = (side * h - lp[2]) / lv[2]
            if x >= 0 and (lp[0] + x * lv[0]) ** 2 + (lp[1] + x * lv[1]) ** 2 <= r * r:
                hits.append(x)
    x = smallest_root(lv[0] ** 2 + lv[1] ** 2, lv[0] * lp[0] + lv[1] * lp[1], lp[0] ** 2 + lp[1] ** 2 - r * r)
    if x >= 0 and abs(lp[2] + x * lv[2]) <= h:
        hits.append(x)
    return _closest(hits)


def _box(lp, lv, size):
    """The six faces :math:`x_i = \\pm s_i`, each within its rectangle."""
    hits = []
    for i in range(3):
        if abs(lv[i]) <= MINVAL:
            continue
        j, k = [n for n in range(3) if n != i]
        for side in (-1, 1):
            x = (side * size[i] - lp[i]) / lv[i]
            if x >= 0 and abs(lp[j] + x * lv[j]) <= size[j] and abs(lp[k] + x * lv[k]) <= size[k]:
                hits.append(x)
    return _closest(hits)
