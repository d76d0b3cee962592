r"""A capsule against a cylinder's curved side, in closed form; anything else by GJK/EPA.

In the cylinder's frame (radius :math:`R`, half-height :math:`H`, axis :math:`z`) the capsule
is the segment :math:`x(s) = p + s\,a`, :math:`s\in[-1, 1]`, swollen by its radius
:math:`r`. Its signed distance is the segment's minus :math:`r`, as for the cores of
:mod:`~rbdl_edu.collision.convex`. The segment's distance from the axis,

.. math:: \rho(s) = |p_{xy} + s\,a_{xy}|,\qquad
          s^* = \mathrm{clamp}\Big(-\frac{p_{xy}\cdot a_{xy}}{a_{xy}\cdot a_{xy}}, -1, 1\Big),

is smallest at :math:`x^* = x(s^*)` (:math:`\rho^2` is a quadratic in :math:`s`). The side is
the closest feature, and :math:`d = \rho(s^*) - R` the segment's signed distance, with the
normal :math:`n = -(x^*_x, x^*_y, 0)/\rho(s^*)` from the capsule to the cylinder, when

* apart (:math:`d \ge 0`) with :math:`|x^*_z| \le H`: every point of the cylinder lies within
  :math:`\rho \le R`, so no point of the segment is nearer than :math:`\rho(s) - R \ge d`, and
  :math:`x^*` is that near;
* overlapping (:math:`d < 0`) with :math:`H - |x^*_z| > -d`: the ball of radius :math:`-d`
  about :math:`x^*` lies inside the cylinder, so pushing the capsule out by less than
  :math:`-d` in any direction leaves :math:`x^*` inside -- the depth is at least :math:`-d`,
  and moving it by :math:`-d` along :math:`-n` clears the side.

The witness points are :math:`x^*` (pushed out by :math:`r` along :math:`n`) and
:math:`x^* + d\,n` on the side; the contact lies midway, as GJK/EPA would put it. A segment
parallel to the axis (:math:`a_{xy} = 0`) is equally near along all of it: the contact is a
line, and :math:`s^*` is the middle of the part that faces the side (:math:`|x_z| \le H`).
Where the segment crosses the axis or the closest feature is a cap or a rim,
:func:`~rbdl_edu.collision.convex.convex` answers instead.

MuJoCo 4.0 collides the pair with its general convex collider; its single-shot multi-contact
path returns one contact on the curved side whatever the capsule's tilt (checked in
``tests/test_capsule_cylinder.py``; along a line contact its point is wherever its EPA
stopped, ours the middle), and so does this: the tilts of :mod:`~rbdl_edu.collision.multiccd`
are not run here.
"""
from __future__ import annotations

import math

import numpy as np

from rbdl_edu.collision.convex import convex
from rbdl_edu.model.frozen import plain

OVERLAP_SLACK = 1e-9      # relative: nearer a cap than this, the side and the cap tie
PARALLEL = 1e-24          # (a_x² + a_y²)/|a|² below this: the segment runs along the axis


def side_contact(p, a, radius, half_height):
    """``(d, x, n)`` in the cylinder's frame: the segment's signed distance ``d``, its point
    ``x`` nearest the side and the normal ``n`` from the segment to the cylinder, where the
    side is the closest feature (the module docstring); else ``None``.

    >>> side_contact(np.array([0.3, 0.0, 0.1]), np.array([0.0, 0.2, 0.0]), 0.2, 0.5)
    (0.09999999999999998, array([0.3, 0. , 0.1]), array([-1., -0.,  0.]))
    """
    axy2 = a[0] * a[0] + a[1] * a[1]
    if axy2 > PARALLEL * (a @ a):
        s = min(1.0, max(-1.0, -(p[0] * a[0] + p[1] * a[1]) / axy2))
    elif a[2] == 0:                                     # (a capsule of no length: a sphere)
        s = 0.0
    else:                                               # parallel to the axis: the middle of
        ends = sorted(((-half_height - p[2]) / a[2], (half_height - p[2]) / a[2]))     # what
        lo, hi = max(ends[0], -1.0), min(ends[1], 1.0)  # faces the side (|z| <= H), if any
        if lo > hi:
            return None
        s = (lo + hi) / 2
    x = p + s * a
    rho = math.hypot(x[0], x[1])
    if rho <= 1e-12 * radius:                           # through the axis: no side normal
        return None
    d = rho - radius
    if d >= 0 and abs(x[2]) > half_height:              # apart, beyond a cap: a rim or a cap
        return None
    if d < 0 and half_height - abs(x[2]) <= -d + OVERLAP_SLACK * (radius + half_height):
        return None                                     # overlapping, nearer a cap
    return d, x, np.array([-x[0] / rho, -x[1] / rho, 0.0])


def capsule_cylinder(model, gpos, gmat, g1, g2, margin):
    """Capsule ``g1``, cylinder ``g2``: one contact ``(dist, pos, n, 0)`` on the curved side
    where the signed distance is below ``margin`` (the module docstring), else GJK/EPA's
    (:func:`~rbdl_edu.collision.convex.convex`).

    >>> from rbdl_edu.collision.geometry import geom_poses
    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); _ = s.add_geom(0, "capsule", [0.05, 0.2], quat=[0.5 ** 0.5, 0.5 ** 0.5, 0, 0])
    >>> _ = s.add_geom(0, "cylinder", [0.1, 0.3], pos=[0.14, 0, 0])
    >>> m = s.compile()
    >>> dist, pos, n, _ = capsule_cylinder(m, *geom_poses(m, []), 0, 1, 0.0)[0]
    >>> round(dist, 12), pos.round(12) + 0.0, n + 0.0
    (-0.01, array([0.045, 0.   , 0.   ]), array([1., 0., 0.]))
    """
    m = plain(model)
    r, L = m.geom_size[g1][0], m.geom_size[g1][1]
    R, H = m.geom_size[g2][0], m.geom_size[g2][1]
    Rc, c = gmat[g2], gpos[g2]
    p = Rc.T @ (gpos[g1] - c)                           # the capsule's center and half-axis,
    a = Rc.T @ gmat[g1][:, 2] * L                       # in the cylinder's frame
    found = side_contact(p, a, R, H)
    if found is None:
        return convex(model, gpos, gmat, g1, g2, margin)
    d, x, n = found
    if d - r > margin:
        return []
    on_capsule, on_cylinder = x + r * n, x + d * n      # the witness points
    return [(float(d - r), c + Rc @ ((on_capsule + on_cylinder) / 2), Rc @ n, np.zeros(3))]
