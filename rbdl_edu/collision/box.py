"""The box-box collider (separating axes + face clipping); capsule-box is in
:mod:`~rbdl_edu.collision.capsule_box`.

Box-box follows the same two stages as MuJoCo's collider, written from the geometry:

1. **Separating-axis test.** Two boxes are disjoint iff some axis separates their
   projections. Candidates: the 3 face normals of each box and the 9 cross products of an
   edge of one with an edge of the other. Along a unit axis :math:`L` (oriented from box 1
   to box 2) the gap is

   .. math:: \\sigma(L) = L\\cdot(p_2 - p_1) - \\sum_k h^1_k |L\\cdot u^1_k| - \\sum_k h^2_k |L\\cdot u^2_k|

   and the signed distance is the largest :math:`\\sigma`. A face axis wins near-ties, since
   it gives a contact patch rather than a point; and, as in MuJoCo, an edge axis within
   about 8 degrees of the best face axis must be 5% better than it to be used.
2. **Contacts.** *Face axis*: the face of the other box most opposed to the normal (the
   *incident* face) is clipped against the four side planes of the reference face
   (Sutherland-Hodgman); every clipped vertex within ``margin`` of the reference plane is a
   contact, its depth measured along the normal, its position midway between the
   surfaces. *Edge axis*: one contact midway between the closest points of the two edges.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.rotation import cross

EDGE_BIAS = 1e-6          # relative preference of face axes on near-ties


def _clip(poly, axis2d, limit, sign):
    """Sutherland-Hodgman: keep the part of polygon ``poly`` (k, 3) with
    ``sign * poly[:, axis2d] <= limit``."""
    out = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        da, db = sign * a[axis2d] - limit, sign * b[axis2d] - limit
        if da <= 0:
            out.append(a)
        if da * db < 0:                               # the edge crosses the plane
            out.append(a + (b - a) * (da / (da - db)))
    return out


def box_box(p1, R1, h1, p2, R2, h2, margin):
    """Box-box contacts, at most 8 (see the module docstring).

    A unit cube resting 0.01 deep on a wider, flatter box gets its four bottom corners:

    >>> I = np.eye(3)
    >>> cons = box_box(np.zeros(3), I, np.array([2, 2, 0.5]), np.array([0, 0, 0.99]), I, np.ones(3) / 2, 0)
    >>> len(cons), round(cons[0][0], 12), cons[0][2]
    (4, -0.01, array([0., 0., 1.]))
    """
    c = p2 - p1
    scale = h1.sum() + h2.sum()
    # 1. separating axes: (sigma, kind, data)
    best = None
    for box, R in ((0, R1), (1, R2)):
        for k in range(3):
            L = R[:, k] if R[:, k] @ c >= 0 else -R[:, k]
            sigma = L @ c - np.abs(R1.T @ L) @ h1 - np.abs(R2.T @ L) @ h2
            if best is None or sigma > best[0]:
                best = (sigma, "face", (box, k, L))
    best_face = best
    for i in range(3):
        for j in range(3):
            L = cross(R1[:, i], R2[:, j])
            nrm = np.linalg.norm(L)
            if nrm < 1e-6:                            # parallel edges: no new axis
                continue
            L = L / nrm
            L = L if L @ c >= 0 else -L
            sigma = L @ c - np.abs(R1.T @ L) @ h1 - np.abs(R2.T @ L) @ h2
            # an edge must beat the best axis so far by a relative bias (ties go to faces)
            if sigma - EDGE_BIAS * abs(sigma) > best[0] and sigma > best_face[0]:
                best = (sigma, "edge", (i, j, L))
    # an edge axis within ~8 degrees of the best face axis and less than 5% better than it
    # would make stacks flip between the two: take the face (MuJoCo's rule, after ODE)
    if best[1] == "edge":
        face_axis = best_face[2][2]
        if abs(best[2][2] @ face_axis) > 0.99 and \
                best[0] < best_face[0] + 0.05 * abs(best_face[0]) + 1e-15:
            best = best_face
    sigma, kind, info = best
    if sigma > margin:
        return []
    if kind == "edge":
        return _edge_contact(p1, R1, h1, p2, R2, h2, *info, sigma)
    box, k, L = info
    # 2. face axis: reference box = owner of the face, incident = the other
    if box == 0:
        pr, Rr, hr, pi, Ri, hi, n = p1, R1, h1, p2, R2, h2, L
    else:
        pr, Rr, hr, pi, Ri, hi, n = p2, R2, h2, p1, R1, h1, -L
    # n points from the reference box towards the incident box
    # incident face: the face of the incident box whose normal is most opposed to n
    d = Ri.T @ n
    m = int(np.argmax(np.abs(d)))
    s = -np.sign(d[m]) if d[m] != 0 else 1.0
    u, v = [a for a in range(3) if a != m]
    center = pi + Ri[:, m] * s * hi[m]
    face = [center + Ri[:, u] * su * hi[u] + Ri[:, v] * sv * hi[v]
            for su, sv in ((1, 1), (-1, 1), (-1, -1), (1, -1))]
    # express in the reference box frame and clip against the reference face's sides
    poly = [Rr.T @ (x - pr) for x in face]
    ref_axis = k
    for a in range(3):
        if a == ref_axis:
            continue
        for sign in (1.0, -1.0):
            poly = _clip(poly, a, hr[a], sign)
            if not poly:
                return []
    nl = Rr.T @ n                                     # normal in the reference frame
    out = []
    for x in poly:
        dist = x @ nl - hr[ref_axis]                  # height above the reference face
        if dist > margin:
            continue
        pos = pr + Rr @ x - n * dist / 2
        # the contact normal points from box 1 to box 2: L (= n, or -n if box 2 is the reference)
        if all(np.linalg.norm(pos - q[1]) > 1e-10 * scale for q in out):   # no duplicates
            out.append((float(dist), pos, L, np.zeros(3)))
    return out[:8]


def _edge_contact(p1, R1, h1, p2, R2, h2, i, j, L, sigma):
    """One contact between edge i of box 1 and edge j of box 2 along the axis L."""
    # supporting edge of box 1 (towards +L) and of box 2 (towards -L): fix the other two
    # coordinates at the corner that is extreme along L
    s1 = np.where(R1.T @ L >= 0, h1, -h1)
    s2 = np.where(R2.T @ -L >= 0, h2, -h2)
    a0 = p1 + R1 @ s1 - R1[:, i] * s1[i]               # edge 1: a0 + t R1[:, i], |t| <= h1[i]
    b0 = p2 + R2 @ s2 - R2[:, j] * s2[j]               # edge 2: b0 + u R2[:, j], |u| <= h2[j]
    d1, d2, r = R1[:, i], R2[:, j], a0 - b0
    # closest points of the two lines: minimize |r + t d1 - u d2|²
    b = d1 @ d2
    den = 1 - b * b
    t = (b * (d2 @ r) - d1 @ r) / den
    u = (d2 @ r - b * (d1 @ r)) / den
    t, u = np.clip(t, -h1[i], h1[i]), np.clip(u, -h2[j], h2[j])
    pa, pb = a0 + t * d1, b0 + u * d2
    return [(float(sigma), (pa + pb) / 2, L, np.zeros(3))]
