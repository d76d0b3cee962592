"""``<mesh builtin="..." params="...">``: meshes MuJoCo's compiler generates, built here
with the same arithmetic (single precision where MuJoCo uses it), vertex for vertex.

* ``sphere`` (subdivisions 0-4): an icosahedron whose faces are split in four ``s`` times,
  each new vertex pushed out onto the unit sphere;
* ``hemisphere`` (resolution 0-10): rows of points from the north pole to the equator,
  projected onto the sphere, closed by a cap;
* ``supersphere`` (resolution, e, n) and ``supertorus`` (resolution, radius, s, t): the
  superquadrics :math:`x = c(v, n) c(u, e)`, ... with :math:`c(w, m) = \\mathrm{sign}(\\cos w) |\\cos w|^m`;
* ``cone`` (nvert, radius): a regular polygon at ``z = -1`` and one of the given radius
  at ``z = 1`` (or the apex), as points: the mesh is their convex hull.

``wedge`` and ``plate`` (normals only, shell inertia) are refused by name.

>>> vert, face = sphere(1)
>>> vert.shape, face.shape
((42, 3), (80, 3))
"""
from __future__ import annotations

import math

import numpy as np

F32 = np.float32
BUILTIN = ("sphere", "hemisphere", "supersphere", "supertorus", "cone")
REFUSED = ("wedge", "plate")


def sphere(subdiv):
    """The icosphere: vertices ``(2 + 10 4^s, 3)`` and triangles ``(20 4^s, 3)``."""
    phi = F32((1.0 + math.sqrt(5.0)) / 2.0)
    one, zero = F32(1.0), F32(0.0)
    vert = [[-one, phi, zero], [one, phi, zero], [-one, -phi, zero], [one, -phi, zero],
            [zero, -one, phi], [zero, one, phi], [zero, -one, -phi], [zero, one, -phi],
            [phi, zero, -one], [phi, zero, one], [-phi, zero, -one], [-phi, zero, one]]
    norm = math.sqrt(1.0 + float(phi) * float(phi))
    vert = [[F32(float(x) / norm) for x in v] for v in vert]
    face = [0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
            3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1]
    face = [face[k:k + 3] for k in range(0, len(face), 3)]
    for _ in range(subdiv):
        cache, new = {}, []

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in cache:
                m = [(vert[a][i] + vert[b][i]) / F32(2.0) for i in range(3)]     # single precision
                n = np.sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2])
                cache[key] = len(vert)
                vert.append([x / n for x in m])
            return cache[key]
        for a, b, c in face:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            new += [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
        face = new
    return np.array(vert, dtype=F32).astype(float), np.array(face, dtype=int)


def hemisphere(res):
    """The quad-projected hemisphere with its cap."""
    pole, equator = np.array([0.0, 0, 1]), np.array([[1.0, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0]])
    vert = [pole]
    for row in range(res + 1):
        factor = (row + 1) / (res + 1)
        for side in range(4):
            start = pole + factor * (equator[side] - pole)
            end = pole + factor * (equator[(side + 1) % 4] - pole)
            delta = (end - start) / (row + 1)
            for i in range(row + 1):
                p = start + i * delta
                vert.append(p / math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]))
    vert.append(np.zeros(3))
    nvert = len(vert)
    face = [[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 1]]
    for row in range(res):
        start_curr, count_curr = 2 * row * (row + 1) + 1, 4 * (row + 1)
        start_next, count_next = start_curr + count_curr, 4 * (row + 2)
        for side in range(4):
            for i in range(row + 2):
                vc, vn = i + (row + 1) * side, i + (row + 2) * side
                face.append([start_curr + vc % count_curr, start_next + vn % count_next,
                             start_next + (vn + 1) % count_next])
                if i < row + 1:
                    face.append([start_curr + vc % count_curr, start_next + (vn + 1) % count_next,
                                 start_curr + (vc + 1) % count_curr])
    start, count = 2 * res * (res + 1) + 1, 4 * (res + 1)
    face += [[start + i, nvert - 1, start + (i + 1) % count] for i in range(count)]
    return np.array(vert, dtype=F32).astype(float), np.array(face, dtype=int)


def _c(w, m):
    return math.copysign(abs(math.cos(w)) ** m, math.cos(w))


def _s(w, m):
    return math.copysign(abs(math.sin(w)) ** m, math.sin(w))


def supersphere(res, e, n):
    """Rings of the superellipsoid between two poles."""
    vert = [[0.0, 0.0, -1.0]]
    for i in range(1, res):
        v = -math.pi / 2 + i * math.pi / res
        for j in range(res):
            u = -math.pi + j * 2 * math.pi / res
            vert.append([_c(v, n) * _c(u, e), _c(v, n) * _s(u, e), _s(v, n)])
    vert.append([0.0, 0.0, 1.0])
    face = [[0, 1 + (j + 1) % res, 1 + j] for j in range(res)]
    for i in range(res - 2):
        for j in range(res):
            v1, v2 = 1 + i * res + j, 1 + i * res + (j + 1) % res
            v4, v3 = 1 + (i + 1) * res + j, 1 + (i + 1) * res + (j + 1) % res
            face += [[v1, v2, v4], [v2, v3, v4]]
    last = 1 + (res - 2) * res
    face += [[last + j, last + (j + 1) % res, len(vert) - 1] for j in range(res)]
    return np.array(vert, dtype=F32).astype(float), np.array(face, dtype=int)


def supertorus(res, radius, s, t):
    """The supertoroid, ``res x res`` vertices."""
    vert, face = [], []
    for i in range(res):
        for j in range(res):
            u, v = 2 * math.pi * i / res, 2 * math.pi * j / res
            vert.append([(1 + radius * _c(v, s)) * _c(u, t), (1 + radius * _c(v, s)) * _s(u, t),
                         radius * _s(v, s)])
    for i in range(res):
        for j in range(res):
            v1, v2 = i * res + j, (i + 1) % res * res + j
            v3, v4 = (i + 1) % res * res + (j + 1) % res, i * res + (j + 1) % res
            face += [[v1, v2, v4], [v2, v3, v4]]
    return np.array(vert, dtype=F32).astype(float), np.array(face, dtype=int)


def cone(nedge, radius):
    """The points of the two polygons (or the polygon and the apex), no faces."""
    vert = [[math.cos(2 * i * math.pi / nedge), math.sin(2 * i * math.pi / nedge), -1.0] for i in range(nedge)]
    if radius > 0:
        vert += [[radius * math.cos(2 * i * math.pi / nedge), radius * math.sin(2 * i * math.pi / nedge), 1.0]
                 for i in range(nedge, 2 * nedge)]
    else:
        vert.append([0.0, 0.0, 1.0])
    return np.array(vert, dtype=F32).astype(float), np.zeros((0, 3), dtype=int)


# (number of parameters, check of the parameters -> reason or None, generator)
RULES = {
    "sphere": (1, lambda p: None if 0 <= int(p[0]) <= 4 else "subdivision must be in 0..4",
               lambda p: sphere(int(p[0]))),
    "hemisphere": (1, lambda p: None if 0 <= int(p[0]) <= 10 else "resolution must be in 0..10",
                   lambda p: hemisphere(int(p[0]))),
    "supersphere": (3, lambda p: "resolution must be at least 3" if int(p[0]) < 3 else
                    "e and n must not be negative" if min(p[1], p[2]) < 0 else None,
                    lambda p: supersphere(int(p[0]), p[1], p[2])),
    "supertorus": (4, lambda p: "resolution must be at least 3" if int(p[0]) < 3 else
                   "radius must be in (0, 1]" if not 0 < p[1] <= 1 else
                   "s and t must be positive" if min(p[2], p[3]) <= 0 else None,
                   lambda p: supertorus(int(p[0]), p[1], p[2], p[3])),
    "cone": (2, lambda p: None if int(p[0]) >= 3 and 0 <= p[1] <= 1 else
             "nvert must be at least 3 and radius in [0, 1]", lambda p: cone(int(p[0]), p[1])),
}


def builtin_mesh(node):
    """Vertices and triangles (none for a cone: its hull is taken) of ``node``'s builtin mesh."""
    kind = node.keyword("builtin", ("none",) + BUILTIN + REFUSED, "none")
    if kind in REFUSED:
        raise node.error(f'builtin="{kind}" (a mesh of normals only, shell inertia) is not supported',
                         "builtin")
    count, check, make = RULES[kind]
    params = node.floats("params", at_least=0, default=[])
    if len(params) != count:
        raise node.error(f'builtin="{kind}" needs {count} params, got {len(params)}', "params")
    reason = check(params)
    if reason:
        raise node.error(f'builtin="{kind}": {reason}', "params")
    return make(params)
