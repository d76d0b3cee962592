"""Capsule-box contacts the way MuJoCo 4.0 finds them: the closest feature, then a second
point along the capsule, each point colliding as a sphere with the box.

Everything happens in the box frame: the capsule is the segment
:math:`x(s) = p + s\\,a`, :math:`s\\in[-1, 1]`, with :math:`a` its half-axis, swept by radius
:math:`r`; the box is :math:`|x_k|\\le h_k`.

1. **Closest feature.** Each end :math:`p \\pm a` is clamped to the box; if at most one
   coordinate had to move, the end faces the box through a face (or is inside) and its
   squared distance to the clamped point is a candidate. Then each of the 12 box edges
   :math:`c + t\\,h_j e_j` against the segment: the closest points of the two lines
   (:math:`t, s` from the 2x2 normal equations
   :math:`\\begin{pmatrix} h_j^2 & -h_j a_j\\\\ -h_j a_j & |a|^2\\end{pmatrix}`), clamped to
   :math:`[-1, 1]`. The best gives the segment parameter :math:`s^*` of the first contact,
   and says what is closest: a face, a box corner, or the middle of an edge.
2. **Second point.** Where the capsule lies along the box, a second point
   :math:`s^* + \\delta` is chosen along the segment (MuJoCo's rules, below): as far towards
   the other end as the capsule stays over the box face or edge it lies on. A capsule
   pointing at a corner, or across an edge in a T, gets none.
3. Each point is the centre of a sphere of radius :math:`r` collided with the box
   (:func:`~rbdl_edu.collision.primitives.sphere_box`).

This is a heuristic, not the exact penetration (a segment through the box gets MuJoCo's
points, not the deepest one), kept as MuJoCo has it so that a capsule lying on a box rests
on the same two points.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.collision.primitives import sphere_box

MINVAL = 1e-15            # mjMINVAL


def _ratio(a, b):
    """``a / b`` as C computes it in doubles (``±inf`` or ``nan`` when ``b`` is 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(a) / np.float64(b))


def _closest_feature(p, a, h, L, bestdist):
    """Step 1: ``(cltype, s*, t*, corner, edge, face)``. ``cltype`` is -3/-1 for the segment's
    end -1/+1 over a face, ``3 s1 + s2`` (0..8) for an edge (``s1``: 0, 1, 2 for the edge's
    lower end, middle, upper end; ``s2`` the same for the segment), -4 if nothing. ``p``,
    ``a``, ``h``: lists of 3 floats (a few dozen operations on 3 numbers each: plain floats)."""
    cltype, s_best, t_best, corner, edge, face = -4, 0.0, 0.0, 0, 0, -1
    for i in (-1, 1):                                   # the ends, through a face
        q = [p[k] + i * a[k] for k in range(3)]
        clamped = [min(max(q[k], -h[k]), h[k]) for k in range(3)]
        moved = [k for k in range(3) if clamped[k] != q[k]]
        if len(moved) > 1:
            continue
        e = [clamped[k] - q[k] for k in range(3)]
        dist = _dot(e, e)
        if dist < bestdist:
            bestdist, s_best, cltype, face = dist, float(i), -2 + i, moved[-1] if moved else -1
    for j in range(3):                                  # the 12 edges
        for i in range(8):
            if i & (1 << j):
                continue
            c = [h[k] if i & (1 << k) else -h[k] for k in range(3)]
            c[j] = 0.0                                  # the edge's midpoint
            dif = [c[k] - p[k] for k in range(3)]
            ma, mb, mc = h[j] * h[j], -h[j] * a[j], L * L
            u, v = -h[j] * dif[j], _dot(a, dif)
            det = ma * mc - mb * mb
            if abs(det) < MINVAL:
                continue
            # (products with reciprocals, as MuJoCo rounds them)
            x1, x2 = (mc * u - mb * v) * (1 / det), (ma * v - mb * u) * (1 / det)
            s1 = s2 = 1
            if x1 > 1:
                x1, s1, x2 = 1.0, 2, (v - mb) * (1 / mc)
            elif x1 < -1:
                x1, s1, x2 = -1.0, 0, (v + mb) * (1 / mc)
            if x2 > 1 or x2 < -1:
                x2, s2 = (1.0, 2) if x2 > 1 else (-1.0, 0)
                x1 = (u - mb) * (1 / ma) if s2 == 2 else (u + mb) * (1 / ma)
                if x1 > 1:
                    x1, s1 = 1.0, 2
                elif x1 < -1:
                    x1, s1 = -1.0, 0
            d = [dif[k] - x2 * a[k] for k in range(3)]
            d[j] += h[j] * x1
            dist = _dot(d, d)
            if dist < bestdist - MINVAL:
                bestdist, s_best, t_best = dist, x2, x1
                corner, edge, cltype = i + (1 << j) * ((3 * s1 + s2) // 6), j, 3 * s1 + s2
    return cltype, s_best, t_best, corner, edge, face


def _dot(x, y):
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]


def _second_point(cltype, s, t, corner, edge, face, p, a, h, axis, axisdir):
    """Step 2: the offset ``δ`` of the second point along the segment, or ``None``."""
    if cltype >= 0 and cltype // 3 != 1:                # a corner of the box is closest
        c1 = axisdir ^ corner                           # the capsule's octant seen from the corner
        if c1 in (0, 7):
            return None                                 # pointing at (or away from) the corner
        if c1 in (1, 2, 4):
            mul, de, dp = 1.0, 1 - s, 1 + s
        else:
            mul, c1, dp, de = -1.0, 7 - c1, 1 - s, 1 + s
        ax, ax1, ax2 = {1: (0, 1, 2), 2: (1, 2, 0), 4: (2, 0, 1)}[c1]
        if axis[ax] * axis[ax] > 0.5:                   # along the box's edge
            return mul * min(de, _ratio(2 * h[ax], abs(a[ax])))
        return -mul * min(dp, _ratio(2 * h[ax1], abs(a[ax1])), _ratio(2 * h[ax2], abs(a[ax2])))
    if cltype >= 0:                                     # the middle of an edge is closest
        c1 = (axisdir ^ corner) & (7 - (1 << edge))
        if c1 not in (1, 2, 4):
            return None                                 # a T across the edge
        ax = edge
        ax1, ax2 = ((1, 2), (2, 0), (0, 1))[edge]
        if abs(axis[ax1]) > abs(axis[ax2]):             # the face the capsule is closer to lying on
            ax1 = ax2
        ax2 = 3 - ax - ax1
        mul, second = (1.0, 1 - s) if c1 & (1 << ax2) else (-1.0, 1 + s)
        second = min(second, _ratio(2 * h[ax2], abs(a[ax2])))
        e2 = 1 - t if bool(axisdir & (1 << ax)) == bool(c1 & (1 << ax2)) else 1 + t
        return mul * min(second, _ratio(h[ax] * e2, abs(a[ax])))
    if face == -1:                                      # the end is inside the box
        return None
    mul = 1.0 if cltype == -3 else -1.0                 # towards the other end
    second = 2.0
    q = p - mul * a
    for i in range(3):
        if i != face:
            for e1 in (_ratio(h[i] - q[i], a[i]) * mul, _ratio(-h[i] - q[i], a[i]) * mul):
                if 0 < e1 < second:
                    second = e1
    return mul * second


def capsule_box(p1, R1, s1, p2, R2, s2, margin):
    """Capsule-box contacts, at most 2 (see the module docstring).

    A capsule lying on a box face touches it along its length: two contacts, at its ends.

    >>> I = np.eye(3); Rx = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0.]])
    >>> cons = capsule_box(np.array([0, 0, 0.59]), Rx, [0.1, 0.3], np.zeros(3), I, np.ones(3) / 2, 0)
    >>> [(round(c[0], 9), round(float(c[1][0]), 9)) for c in cons]
    [(-0.01, -0.3), (-0.01, 0.3)]
    """
    r, L = float(s1[0]), float(s1[1])
    h = np.asarray(s2, dtype=float)
    p = R2.T @ (p1 - p2)                                # capsule centre in the box frame
    axis = R2.T @ R1[:, 2]
    a = axis * L                                        # half-axis
    axisdir = int(a[0] > 0) + 2 * int(a[1] > 0) + 4 * int(a[2] > 0)
    bestdist = margin + 2 * (r + L + h.sum())
    cltype, s, t, corner, edge, face = _closest_feature(p.tolist(), a.tolist(), h.tolist(), L, float(bestdist))
    if cltype == -4:
        return []
    delta = _second_point(cltype, s, t, corner, edge, face, p, a, h, axis, axisdir)
    out = list(sphere_box(p2 + R2 @ (p + s * a), R1, [r], p2, R2, s2, margin))
    if delta is not None and delta > -3:
        out += sphere_box(p2 + R2 @ (p + (s + delta) * a), R1, [r], p2, R2, s2, margin)
    return out
