"""Several contacts where a face of a box or mesh rests on another: face clipping (MuJoCo 4.0's
multi-contact for polytopes).

GJK/EPA (:mod:`~rbdl_edu.collision.convex`) give the deepest point and the normal
:math:`n` (from geom 1 to geom 2). A box lying on a face penetrates along a whole patch; one
contact there lets it rock. MuJoCo 4.0 then looks at the *features* that touch
(:mod:`~rbdl_edu.collision.polytope`): the vertices of each shape at its support height
along :math:`\\pm n`, and the faces that hold them.

1. **Face on face.** A face :math:`F_1` of geom 1 and a face :math:`F_2` of geom 2 whose
   outward normals oppose, :math:`n_1\\cdot n_2 < -0.996` (within 5 degrees): the polygon
   :math:`F_1` is clipped to the prism over :math:`F_2` (Sutherland-Hodgman; the side plane
   through each edge of :math:`F_2` holds :math:`n_1`) and every clipped vertex :math:`v`
   below the plane of :math:`F_2` is a contact with depth :math:`d = n_2\\cdot(v - a_2)`
   (:math:`a_2` a vertex of :math:`F_2`), normal :math:`-n_2` and position
   :math:`v + n_2 |d|/2`: geom 2's face is the reference, as MuJoCo 4.0 (found by
   comparing with it: its 3.12 source clips the other way).
2. **Edge on face.** Otherwise, an edge of one shape (:math:`e`) nearly parallel to a face of
   the other, :math:`|\\hat e\\cdot n_f| < 0.0888` (geom 1's edge first, if its feature is
   not larger; the most perpendicular face): the edge is clipped to the face's prism, its
   two ends are the contacts, the normal is the face's.
3. More than four clipped points are pruned to the quadrilateral of largest area
   (:func:`polygon_quad`, MuJoCo's search), so a pair gives at most 4.

The same face search gives the plane-mesh contacts (:func:`plane_face`): the mesh face at
the deepest vertex most opposed to the plane normal, each of its vertices within the margin
a contact at its own depth.
"""
from __future__ import annotations

import numpy as np

FACE_TOL = 0.996          # |cos| above which two faces are parallel (MuJoCo's mjFACE_TOL)
EDGE_TOL = 0.0888         # |cos| below which an edge is parallel to a face (mjEDGE_TOL)
MINVAL = 1e-15            # mjMINVAL: the clipping's half-spaces are closed by this much
MAXCON = 4                # contacts a box or mesh pair keeps (MuJoCo: mjMAXCONPAIR caps boxes at 8)


# ----------------------------------------------------------------------------- clipping --
def clip(face, n, polygon):
    """Sutherland-Hodgman: the part of ``polygon`` (k, 3) inside the prism over the convex
    ``face`` (m, 3; clockwise seen along ``-n``, ``n`` its outward normal).

    The side plane through edge :math:`a b` holds :math:`n`; its normal
    :math:`m = (b - a)\\times n / |\\ldots|` points into the face, and a point :math:`p` is
    inside when :math:`m\\cdot(p - a) > -\\varepsilon`. Each edge :math:`PQ` of the polygon
    keeps :math:`Q` if inside, and adds the crossing
    :math:`P + t\\,(Q - P)`, :math:`t = m\\cdot(a - P) / m\\cdot(Q - P)`, where it crosses.

    >>> sq = np.array([[1., 1, 0], [1, -1, 0], [-1, -1, 0], [-1, 1, 0]])    # clockwise from +z
    >>> np.round(clip(sq, np.array([0., 0, 1]), sq + [1, 1, -0.1]), 9) + 0.0
    array([[ 1. ,  0. , -0.1],
           [ 0. ,  0. , -0.1],
           [ 0. ,  1. , -0.1],
           [ 1. ,  1. , -0.1]])
    """
    out = [np.asarray(p, dtype=float) for p in polygon]
    for i in range(len(face)):
        a, b = face[i], face[(i + 1) % len(face)]
        m = np.cross(b - a, n)
        m = m / np.linalg.norm(m)
        kept = []
        for k in range(len(out)):
            P, Q = out[k], out[(k + 1) % len(out)]
            inP, inQ = m @ (P - a) > -MINVAL, m @ (Q - a) > -MINVAL
            if not inP and not inQ:
                continue
            if inP and inQ:
                kept.append(Q)
                continue
            den = m @ (Q - P)
            if den != 0.0:
                t = (m @ a - m @ P) / den
                if 0.0 <= t <= 1.0:
                    kept.append(P + t * (Q - P))
            if inQ:
                kept.append(Q)
        out = kept
    return np.array(out).reshape(-1, 3)


def _area4(a, b, c, d):
    """Area of the quadrilateral abcd: :math:`\\tfrac12|(d - a)\\times(b - d) + (c - b)\\times(a - c)|`."""
    return 0.5 * np.linalg.norm(np.cross(d - a, b - d) + np.cross(c - b, a - c))


def polygon_quad(P):
    """Indices of four vertices of the convex polygon ``P`` spanning (nearly) the largest
    area, by MuJoCo's search: for each first corner ``a``, move the last corner ``d``
    forward while the area grows, and after each move ``c``, then ``b``."""
    k = len(P)
    nxt = lambda i: (i + 1) % k                     # noqa: E731 (one line says it)
    a, b, c, d = 0, 1, 2, 3
    best = (a, b, c, d)
    m = _area4(*P[[a, b, c, d]])
    for a in range(k):
        while True:
            m_next = _area4(P[a], P[b], P[c], P[nxt(d)])
            if m_next <= m:
                break
            m, d = m_next, nxt(d)
            best = (a, b, c, d)
            while (m_next := _area4(P[a], P[b], P[nxt(c)], P[d])) > m:
                m, c = m_next, nxt(c)
                best = (a, b, c, d)
            while (m_next := _area4(P[a], P[nxt(b)], P[c], P[d])) > m:
                m, b = m_next, nxt(b)
                best = (a, b, c, d)
        if b == a:                                  # the corners move on with a
            b = nxt(b)
            if c == b:
                c = nxt(c)
                if d == c:
                    d = nxt(d)
    return list(best)


def clipped_contacts(face, n, polygon, direction, maxcon=MAXCON, side=None):
    """Contacts ``(dist, x1, x2)`` from clipping ``polygon`` to ``face``: each clipped vertex
    :math:`v` with :math:`d = n\\cdot(v - a) \\le 0` gives :math:`x_2 = v`,
    :math:`x_1 = v - |d|\\,\\mathrm{direction}`; more than ``maxcon`` are pruned to the largest
    quadrilateral, an edge's to its two farthest points. The side planes hold ``side``
    (default ``n``)."""
    V = clip(face, n if side is None else side, polygon)
    if len(V):
        V = V[(V - face[0]) @ n <= 0]
    if not len(V):
        return []
    if maxcon < 5 and len(V) > 4:
        V = V[polygon_quad(V)]
    elif len(polygon) == 2 and len(V) > 2:          # an edge: its two farthest points
        D = np.linalg.norm(V[:, None] - V[None], axis=-1)
        i, j = np.unravel_index(np.argmax(D), D.shape)
        V = V[[i, j]] if i < j else V[[j, i]]
    out = []
    for v in V:
        d = (v - face[0]) @ n
        out.append((float(d), v - direction * abs(d), v))
    return out


# ------------------------------------------------------------------------ feature search --
def face_contacts(P1, p1, R1, P2, p2, R2, n):
    """Contacts between polytopes ``P1`` (pose ``p1, R1``) and ``P2`` near the EPA normal
    ``n`` (world, from 1 to 2), as ``[(dist, pos, normal), ...]``; ``[]`` if the touching
    features are not a face on a face or an edge on a face."""
    if not P1.faces or not P2.faces:
        return []
    f1, f2 = P1.feature(R1.T @ n), P2.feature(-(R2.T @ n))
    F1, F2 = P1.faces_at(f1), P2.faces_at(f2)
    N1, N2 = P1.normal[F1] @ R1.T, P2.normal[F2] @ R2.T
    W1 = lambda f: p1 + P1.vert[P1.faces[f]] @ R1.T            # noqa: E731
    W2 = lambda f: p2 + P2.vert[P2.faces[f]] @ R2.T            # noqa: E731
    if len(F1) and len(F2):
        C = N1 @ N2.T                                          # cosines between the faces
        i, j = np.unravel_index(np.argmin(C), C.shape)
        if C[i, j] < -FACE_TOL:                                # 1. face on face
            # geom 2's face is the reference: geom 1's face is clipped to it
            cons = clipped_contacts(W2(F2[j]), N2[j], W1(F1[i]), -N2[j], side=-N1[i])
            return [(d, (x1 + x2) / 2, _unit(x2 - x1, -N2[j])) for d, x1, x2 in cons]
    # 2. an edge on a face: an edge of geom 1 first (if its feature is the smaller), then of geom 2
    if len(f1) < 3 and len(f1) <= len(f2) and len(F2):
        for e in P1.edges_at(f1):
            E = p1 + P1.vert[list(e)] @ R1.T
            j = _parallel_face(E, N2)
            if j is not None:
                cons = clipped_contacts(W2(F2[j]), N2[j], E, -N2[j])
                # the edge belongs to geom 1: its points are the x1, the face's the x2
                return [(d, (x1 + x2) / 2, _unit(x2 - x1, -N2[j])) for d, x1, x2 in cons]
    if len(f2) < 3 and len(F1):
        for e in P2.edges_at(f2):
            E = p2 + P2.vert[list(e)] @ R2.T
            i = _parallel_face(E, N1)
            if i is not None:
                cons = clipped_contacts(W1(F1[i]), N1[i], E, -N1[i])
                return [(d, (x1 + x2) / 2, _unit(x1 - x2, N1[i])) for d, x1, x2 in cons]
    return []


def _parallel_face(E, N):
    """Index of the face normal in ``N`` most nearly perpendicular to edge ``E``, if within
    EDGE_TOL; else ``None``."""
    e = (E[1] - E[0]) / np.linalg.norm(E[1] - E[0])
    cos = np.abs(N @ e)
    i = int(np.argmin(cos))
    return i if cos[i] < EDGE_TOL else None


def _unit(v, fallback):
    """``v / |v|``; at zero depth (no length) the face normal ``fallback``."""
    length = np.linalg.norm(v)
    return v / length if length > 0 else np.asarray(fallback, dtype=float)


def plane_face(P, p, R, p0, n, margin, deepest):
    """Plane (point ``p0``, normal ``n``) against mesh polytope ``P``: the face at vertex
    ``deepest`` most opposed to ``n``, each of its vertices with
    :math:`d = n\\cdot(v - p_0) \\le` ``margin`` a contact at :math:`v - n d/2`, starting
    from ``deepest`` and going round the face; more than 4 are pruned to the largest
    quadrilateral. ``[]`` if the mesh has no faces."""
    faces = P.vert_faces[deepest] if P.faces else []
    if not faces:
        return []
    f = max(faces, key=lambda f: -(n @ (R @ P.normal[f])))
    loop = P.faces[f][::-1]                                     # counter-clockwise from outside
    k = loop.index(deepest)
    loop = loop[k:] + loop[:k]
    V = p + P.vert[loop] @ R.T
    d = (V - p0) @ n
    V, d = V[d <= margin], d[d <= margin]
    if len(V) > 4:
        keep = polygon_quad(V)
        V, d = V[keep], d[keep]
    return [(float(di), v - n * di / 2, n) for di, v in zip(d, V)]
