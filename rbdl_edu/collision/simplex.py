"""GJK's sub-distance routine: the point of a simplex (1 to 4 points) closest to the origin,
in closed form.

GJK (:mod:`rbdl_edu.collision.convex`) keeps a simplex of support points of the Minkowski
difference and asks, after each new point, which point of the simplex is nearest the origin,
with its barycentric weights (they give the witness points on the two shapes) and the
smallest face that holds it (the simplex GJK keeps). The answer comes from the Voronoi
regions of the simplex's features: for a point ``p`` and a triangle ``abc``, the signs of the
dot products of ``p - a``, ``p - b``, ``p - c`` with the edges ``ab`` and ``ac`` say whether
``p`` projects onto a vertex, an edge or the interior, and the same numbers are the
barycentric weights. Plain floats, no linear solve.

>>> W = np.array([[1.0, -1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 0.0, -1.0]])
>>> v, idx, lam = closest_on_simplex(W)         # the triangle crosses x = 1 around the axis
>>> v, idx
(array([1., 0., 0.]), (0, 1, 2))
"""
from __future__ import annotations

import itertools

import numpy as np


def closest_on_simplex(W):
    """Point of conv(W) closest to the origin (``W``: 1 to 4 points, one a row), with the
    smallest sub-simplex that holds it (indices into ``W``) and its barycentric weights there.

    Closed form, by the Voronoi regions of the simplex's features (Ericson, *Real-Time
    Collision Detection*, 5.1): a vertex, an edge or a face is the answer when the origin
    projects into its region, and the dot products that decide the region also give the
    barycentric weights. A tetrahedron tries each face that has the origin on its outer
    side; if none does, the origin is inside."""
    P = [tuple(w) for w in np.asarray(W, dtype=float).tolist()]
    if len(P) == 1:
        idx, lam = (0,), (1.0,)
    elif len(P) == 2:
        idx, lam = _segment(P, (0, 1))
    elif len(P) == 3:
        idx, lam = _triangle(P, (0, 1, 2))
    else:
        idx, lam = _tetrahedron(P)
    v = [sum(l * P[i][c] for l, i in zip(lam, idx)) for c in range(3)]
    # the closest point v of a convex set: every point w of it has w·v >= v·v. Where rounding
    # in a thin or tiny simplex breaks that, the faces are searched one by one instead
    if min(_dot(w, v) for w in P) < _dot(v, v) - 1e-12 * max(1.0, max(abs(x) for w in P for x in w)) ** 2:
        return closest_by_faces(np.asarray(W, dtype=float))
    return np.array(v), idx, np.array(lam)


def closest_by_faces(W):
    r"""The same by brute force: on every face of the simplex (at most 15) the closest point of
    its affine hull, :math:`\min |\sum_i \lambda_i w_i|` with :math:`\sum \lambda_i = 1`
    (least squares), kept if all :math:`\lambda_i \ge 0`; the nearest of those."""
    best = None
    for k in range(1, len(W) + 1):
        for idx in itertools.combinations(range(len(W)), k):
            Pk = W[list(idx)]
            # λ = [1 - Σμ, μ] with (P_i - P_0) μ ≈ -P_0 in least squares
            mu = np.linalg.lstsq((Pk[1:] - Pk[0]).T, -Pk[0], rcond=None)[0] if k > 1 else np.zeros(0)
            lam = np.concatenate([[1 - mu.sum()], mu])
            if np.any(lam < -1e-12):
                continue
            v = lam @ Pk
            if best is None or v @ v < best[0] @ best[0] - 1e-30:
                best = (v, idx, lam)
        if best is not None and best[0] @ best[0] < 1e-30:       # origin reached: done
            break
    return best


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _segment(P, idx):
    r"""Closest point to the origin on segment ``P[i]P[j]``: the origin projected on the line,
    at :math:`t = -a\cdot(b - a)/|b - a|^2`, clamped to the ends."""
    i, j = idx
    a, ab = P[i], _sub(P[j], P[i])
    length2 = _dot(ab, ab)
    t = -_dot(a, ab) / length2 if length2 > 0 else 0.0
    if t <= 0:
        return (i,), (1.0,)
    if t >= 1:
        return (j,), (1.0,)
    return (i, j), (1 - t, t)


def _triangle(P, idx):
    """Closest point to the origin on triangle ``idx`` of ``P``: the region of each vertex,
    then of each edge, else the interior (weights from the signed areas ``va, vb, vc``)."""
    i, j, k = idx
    a, b, c = P[i], P[j], P[k]
    ab, ac = _sub(b, a), _sub(c, a)
    n, size = _cross(ab, ac), max(_dot(ab, ab), _dot(ac, ac), _dot(_sub(c, b), _sub(c, b)))
    if _dot(n, n) <= 1e-24 * size * size:          # flat (two points equal, or in a line): its best edge
        return _nearest([_segment(P, e) for e in ((i, j), (i, k), (j, k))], P)
    d1, d2 = -_dot(ab, a), -_dot(ac, a)           # with the origin o: ab·(o - a), ac·(o - a)
    if d1 <= 0 and d2 <= 0:
        return (i,), (1.0,)
    d3, d4 = -_dot(ab, b), -_dot(ac, b)
    if d3 >= 0 and d4 <= d3:
        return (j,), (1.0,)
    vc = d1 * d4 - d3 * d2
    if vc <= 0 and d1 >= 0 and d3 <= 0:           # edge ab
        t = d1 / (d1 - d3) if d1 != d3 else 0.0      # (0 for a degenerate edge, a == b)
        return (i, j), (1 - t, t)
    d5, d6 = -_dot(ab, c), -_dot(ac, c)
    if d6 >= 0 and d5 <= d6:
        return (k,), (1.0,)
    vb = d5 * d2 - d1 * d6
    if vb <= 0 and d2 >= 0 and d6 <= 0:           # edge ac
        t = d2 / (d2 - d6) if d2 != d6 else 0.0
        return (i, k), (1 - t, t)
    va = d3 * d6 - d5 * d4
    if va <= 0 and d4 - d3 >= 0 and d5 - d6 >= 0:  # edge bc
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6)) if (d4 - d3) + (d5 - d6) != 0 else 0.0
        return (j, k), (1 - t, t)
    area = va + vb + vc
    if not area > 0:                               # a flat (degenerate) triangle: its best edge
        return _nearest([_segment(P, e) for e in ((i, j), (i, k), (j, k))], P)
    return (i, j, k), (va / area, vb / area, vc / area)


def _tetrahedron(P):
    """Closest point to the origin on the tetrahedron ``P``: the nearest of the faces the
    origin lies outside of (on the far side from the fourth vertex), or the origin itself,
    weighted by the signed volumes of the four tetrahedra it makes with the faces."""
    # six times the volume, against the cube of the longest edge: a flat tetrahedron has no
    # inside, and the side of its faces the origin is on means nothing: all faces are tried
    size = max(_dot(e, e) for e in (_sub(P[i], P[j]) for i in range(4) for j in range(i)))
    volume = _dot(_cross(_sub(P[1], P[0]), _sub(P[2], P[0])), _sub(P[3], P[0]))
    flat = abs(volume) <= 1e-12 * size ** 1.5
    candidates, volumes = [], []
    for face, opposite in (((1, 2, 3), 0), ((0, 2, 3), 1), ((0, 1, 3), 2), ((0, 1, 2), 3)):
        a = P[face[0]]
        n = _cross(_sub(P[face[1]], a), _sub(P[face[2]], a))
        side_origin, side_opposite = -_dot(n, a), _dot(n, _sub(P[opposite], a))
        volumes.append(side_origin / side_opposite if not flat else 0.0)
        if flat or side_origin * side_opposite < 0:          # the origin is outside this face
            candidates.append(_triangle(P, face))
    if candidates:
        return _nearest(candidates, P)
    # inside: weight of vertex i = volume(origin, face opposite i) / volume(tetrahedron)
    return (0, 1, 2, 3), tuple(volumes)


def _nearest(candidates, P):
    """The ``(idx, lam)`` among ``candidates`` whose point is nearest the origin (the first
    of equals, so the smaller sub-simplex when listed first)."""
    def norm2(c):
        v = [sum(l * P[i][k] for l, i in zip(c[1], c[0])) for k in range(3)]
        return _dot(v, v)
    return min(candidates, key=norm2)
