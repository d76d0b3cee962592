r"""A sphere against an ellipsoid: the point of an ellipsoid nearest a point, in closed form up
to one monotone scalar equation.

A sphere is its center :math:`c` swollen by its radius :math:`r`, so its signed distance to a
convex body is the center's minus :math:`r` (as for the cores of
:mod:`~rbdl_edu.collision.convex`). In the ellipsoid's frame (semi-axes :math:`a_i`, the
center at :math:`y = R^T(c - p)`), the nearest surface point :math:`x` is where :math:`y - x`
is normal to the surface, :math:`y - x = t\, \mathrm{diag}(a)^{-2} x` for a scalar :math:`t`:

.. math:: x_i = \frac{a_i^2\, y_i}{a_i^2 + t},\qquad
          F(t) = \sum_i \Big(\frac{a_i\, y_i}{a_i^2 + t}\Big)^2 - 1 = 0 ,

with :math:`t > 0` outside and :math:`-a_{\min}^2 < t < 0` inside (Eberly, *Distance from a
point to an ellipse, an ellipsoid, or a hyperellipsoid*). On :math:`t > -a_{\min}^2`,
:math:`F` falls monotonically and is convex, so Newton's method started left of the root
climbs to it without overshooting. Each term alone is 1 at :math:`t = a_i|y_i| - a_i^2`, and
:math:`F \ge a_{\min}^2 |y|^2/(a_{\max}^2 + t)^2 - 1`, which is 0 at
:math:`t = a_{\min}|y| - a_{\max}^2`: the largest of these is a start with :math:`F \ge 0`.

The distance is :math:`\pm|y - x|` (negative inside), the normal the surface's,
:math:`\nu \propto \mathrm{diag}(a)^{-2} x`, pointing from the sphere to the ellipsoid as
:math:`-R\nu`. Where the center lies on the ellipsoid's shortest axis plane inside it (two
nearest points, :math:`y_{\min} = 0`), the general convex path answers instead.
"""
from __future__ import annotations

import math

import numpy as np

from rbdl_edu.collision.convex import convex
from rbdl_edu.model.frozen import plain

NEWTON_ITER = 200


def nearest_on_ellipsoid(a, y):
    """``(x, inside)``: the point of the ellipsoid of semi-axes ``a (3,)`` (centered, axis
    aligned) nearest ``y (3,)``, and whether ``y`` is inside; ``None`` where the root of the
    module docstring's :math:`F` is not isolated (``y`` inside on the shortest axis' plane).

    >>> x, inside = nearest_on_ellipsoid(np.array([2.0, 1.0, 0.5]), np.array([0.0, 0.0, 3.0]))
    >>> x, inside
    (array([0. , 0. , 0.5]), False)
    """
    a, y = [float(v) for v in a], [float(v) for v in y]
    inside = sum((yi / ai) ** 2 for ai, yi in zip(a, y)) < 1
    k = min(range(3), key=lambda i: a[i])
    if inside and abs(y[k]) <= 1e-12 * a[k]:
        return None
    norm_y = math.sqrt(sum(v * v for v in y))
    t = max([ai * abs(yi) - ai * ai for ai, yi in zip(a, y)] + [min(a) * norm_y - max(a) ** 2])
    for _ in range(NEWTON_ITER):
        q = [ai * yi / (ai * ai + t) for ai, yi in zip(a, y)]            # a_i y_i / (a_i^2 + t)
        F = sum(v * v for v in q) - 1
        dF = -2 * sum(v * v / (ai * ai + t) for v, ai in zip(q, a))
        if F <= 0 or dF == 0:
            break
        t_new = t - F / dF
        if not t_new > t:                            # no more progress: the root to round-off
            break
        t = t_new
    return np.array([ai * ai * yi / (ai * ai + t) for ai, yi in zip(a, y)]), inside


def sphere_ellipsoid(model, gpos, gmat, g1, g2, margin):
    """Sphere ``g1``, ellipsoid ``g2``: one contact ``(dist, pos, n, 0)`` where the signed
    distance is below ``margin`` (the module docstring), the point midway between the two
    surfaces' nearest points.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); _ = s.add_geom(0, "sphere", [0.1])
    >>> _ = s.add_geom(0, "ellipsoid", [0.3, 0.2, 0.1], pos=[0, 0, 0.19])
    >>> m = s.compile()
    >>> dist, pos, n, _ = sphere_ellipsoid(m, m.geom_pos, np.tile(np.eye(3), (2, 1, 1)), 0, 1, 0.0)[0]
    >>> round(dist, 12), pos.round(12) + 0.0, n + 0.0
    (-0.01, array([0.   , 0.   , 0.095]), array([0., 0., 1.]))
    """
    m = plain(model)
    r, a = m.geom_size[g1][0], m.geom_size[g2]
    R, p, c = gmat[g2], gpos[g2], gpos[g1]
    found = nearest_on_ellipsoid(a, R.T @ (c - p))
    if found is None:
        return convex(model, gpos, gmat, g1, g2, margin)
    x, inside = found
    y = R.T @ (c - p)
    dist = math.sqrt(float((y - x) @ (y - x))) * (-1 if inside else 1) - r
    if dist > margin:
        return []
    nu = x / (a * a)                                  # the outward surface normal at x
    n = -R @ (nu / math.sqrt(float(nu @ nu)))
    b = p + R @ x                                     # on the ellipsoid; c + r n on the sphere
    return [(float(dist), (c + r * n + b) / 2, n, np.zeros(3))]
