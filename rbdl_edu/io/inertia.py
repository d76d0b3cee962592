r"""Mass and inertia from geometry, as MuJoCo's compiler infers them (book chapter on models).

A geom of density :math:`\rho` and volume :math:`V` has mass :math:`m = \rho V` (or the
``mass`` the file gives) and, about its center and along its own axes, the principal moments

========== ============================================================================
sphere     :math:`I = \tfrac25 m r^2` about every axis
ellipsoid  :math:`I_x = \tfrac15 m (b^2 + c^2)` (and cyclic)
box        :math:`I_x = \tfrac13 m (b^2 + c^2)` with half-sizes a, b, c
cylinder   :math:`I_x = I_y = \tfrac1{12} m (3r^2 + h^2)`, :math:`I_z = \tfrac12 m r^2`, h = 2 half-length
capsule    the cylinder plus two half-spheres shifted to its ends (parallel axes)
mesh       signed pyramids from a point to each triangle (the mesh's own principal frame)
========== ============================================================================

A body's inertia is the sum of its geoms' (each rotated into the body frame and moved to
the body's center of mass by the parallel-axis theorem), then diagonalized:
:math:`I = R\,\mathrm{diag}(I_1, I_2, I_3)\,R^T` gives ``body_inertia`` and ``body_iquat``.
A body with a single geom keeps that geom's frame, as MuJoCo does.

>>> m, I = geom_mass_inertia("box", [0.1, 0.2, 0.3], density=1000.0)
>>> round(m, 6), np.round(I, 6)
(48.0, array([2.08, 1.6 , 0.8 ]))
"""
from __future__ import annotations

import math

import numpy as np
from scipy.spatial import ConvexHull

from rbdl_edu.model.enums import MINVAL
from rbdl_edu.rotation import quat_mul, quat_to_mat

_EIG_EPS = MINVAL * 1000  # threshold of the Jacobi iteration below


def geom_volume(kind, size):
    """Volume of a primitive geom with MuJoCo's ``size`` convention (half-sizes, radii)."""
    s = size
    if kind == "sphere":
        return 4 / 3 * math.pi * s[0] ** 3
    if kind == "capsule":
        return math.pi * s[0] ** 2 * 2 * s[1] + 4 / 3 * math.pi * s[0] ** 3
    if kind == "cylinder":
        return math.pi * s[0] ** 2 * 2 * s[1]
    if kind == "ellipsoid":
        return 4 / 3 * math.pi * s[0] * s[1] * s[2]
    if kind == "box":
        return 8 * s[0] * s[1] * s[2]
    return 0.0                                   # plane, hfield: no volume, no mass


def geom_mass_inertia(kind, size, density=1000.0, mass=None):
    """Mass and principal moments ``(3,)`` about the geom's center along its axes.

    ``mass`` (if given) wins over ``density``; planes and height fields have neither.
    """
    volume = geom_volume(kind, size)
    m = float(mass) if mass is not None else density * volume
    if volume <= 0 or m == 0:
        return m if volume > 0 else 0.0, np.zeros(3)
    s = size
    if kind == "sphere":
        return m, np.full(3, 0.4 * m * s[0] ** 2)
    if kind == "ellipsoid":
        a2, b2, c2 = s[0] ** 2, s[1] ** 2, s[2] ** 2
        return m, m / 5 * np.array([b2 + c2, a2 + c2, a2 + b2])
    if kind == "box":
        a2, b2, c2 = s[0] ** 2, s[1] ** 2, s[2] ** 2
        return m, m / 3 * np.array([b2 + c2, a2 + c2, a2 + b2])
    r, h = s[0], 2 * s[1]                        # radius, full length of the cylinder part
    if kind == "cylinder":
        Ixy = m * (3 * r * r + h * h) / 12
        return m, np.array([Ixy, Ixy, m * r * r / 2])
    # capsule: split the mass by volume between the cylinder and the two half-spheres
    m_sphere = m * (4 / 3 * r) / (4 / 3 * r + h)     # = m * V_sphere / V_total
    m_cyl = m - m_sphere
    Ixy = m_cyl * (3 * r * r + h * h) / 12
    Iz = m_cyl * r * r / 2
    # each half-sphere: 2/5 m r^2 about its flat face's center (for its half of the mass),
    # moved to its own center (3r/8 from the face) and then to the capsule's center
    # (h/2 + 3r/8 away): the three steps add m_s h (3r + 2h) / 8 about x and y
    Ixy += 0.4 * m_sphere * r * r + m_sphere * h * (3 * r + 2 * h) / 8
    Iz += 0.4 * m_sphere * r * r
    return m, np.array([Ixy, Ixy, Iz])


def eig3(A, tol=_EIG_EPS):
    r"""Principal axes of a symmetric 3×3 inertia, as MuJoCo finds them.

    Returns ``(eigval, quat)`` with ``A = R diag(eigval) R^T`` for ``R = quat_to_mat(quat)``
    and eigenvalues in decreasing order. The rotation is built as a quaternion by Jacobi
    iteration: start from the identity, rotate about one axis at a time so as to zero
    the largest off-diagonal entry of :math:`D = R^T A R` until it is negligible; then
    order the eigenvalues by quarter turns. Following the same steps as MuJoCo gives the same ``body_iquat``
    even when several frames would be correct.

    ``tol``: the iteration stops when the largest off-diagonal entry is below ``tol``
    (MuJoCo's absolute ``1e-12``, the default); a smaller ``tol`` is taken relative to the
    largest eigenvalue, for an accurate frame of a very small inertia (the URDF reader).

    >>> val, q = eig3(np.diag([1.0, 3.0, 2.0]))
    >>> val, np.round(q, 12)
    (array([3., 2., 1.]), array([0.5, 0.5, 0.5, 0.5]))
    """
    A = np.asarray(A, dtype=float)
    q = np.array([1.0, 0.0, 0.0, 0.0])
    for _ in range(500):
        R = quat_to_mat(q)
        D = R.T @ A @ R
        eigval = np.diag(D).copy()
        # the largest off-diagonal entry (r, c) and the axis k a rotation about which mixes r, c
        if abs(D[0, 1]) > abs(D[0, 2]) and abs(D[0, 1]) > abs(D[1, 2]):
            r, c, k = 0, 1, 2
        elif abs(D[0, 2]) > abs(D[1, 2]):
            r, c, k = 0, 2, 1
        else:
            r, c, k = 1, 2, 0
        if D[r, c] == 0 or abs(D[r, c]) < tol * (1.0 if tol >= _EIG_EPS else np.abs(eigval).max()):
            break
        # the 2x2 symmetric Schur rotation that zeros D[r, c]: tan(theta) = t
        tau = (D[c, c] - D[r, r]) / (2 * D[r, c])
        t = 1 / (tau + math.sqrt(1 + tau * tau)) if tau >= 0 else -1 / (-tau + math.sqrt(1 + tau * tau))
        # as a quaternion about axis k (half the angle; its sense from tau's sign and the
        # cyclic order of (r, c, k))
        half = math.atan(abs(t)) / 2
        if half == 0.0:
            break
        dq = np.zeros(4)
        dq[0] = math.cos(half)
        dq[1 + k] = math.sin(half) * (-1 if tau >= 0 else 1) * (-1 if k == 1 else 1)
        q = quat_mul(q, dq)
        q /= np.linalg.norm(q)
    # sort in decreasing order by swapping neighbours (0-1, 1-2, 0-1): each swap is a
    # quarter turn about the third axis
    for j in range(3):
        a = j % 2
        if eigval[a] + _EIG_EPS < eigval[a + 1]:
            eigval[a], eigval[a + 1] = eigval[a + 1], eigval[a]
            dq = np.zeros(4)
            dq[0] = dq[1 + (a + 2) % 3] = math.sqrt(0.5)
            q = quat_mul(q, dq)
            q /= np.linalg.norm(q)
    return eigval, q


def inertia_tensor(inertia, quat):
    """The 3×3 inertia ``R diag(inertia) R^T`` of principal moments along the axes ``quat``."""
    R = quat_to_mat(np.asarray(quat, dtype=float))
    return R @ np.diag(inertia) @ R.T


def combine(parts):
    r"""Mass, center of mass, principal moments and axes of rigidly joined parts.

    ``parts`` is a list of ``(mass, pos, quat, inertia)`` (each part's principal moments
    about its own center along ``quat``). With :math:`m = \sum m_k`,
    :math:`c = \sum m_k p_k / m`, :math:`d_k = p_k - c`:

    .. math:: I = \sum_k R_k\,\mathrm{diag}(I_k)\,R_k^T + m_k (d_k^T d_k\,E - d_k d_k^T)

    One part keeps its own frame (MuJoCo does the same for a body with one geom).

    >>> m, c, I, q = combine([(1.0, [0, 0, 1], [1, 0, 0, 0], [1, 1, 1]),
    ...                       (1.0, [0, 0, -1], [1, 0, 0, 0], [1, 1, 1])])
    >>> m, c, I
    (2.0, array([0., 0., 0.]), array([4., 4., 2.]))
    """
    parts = [p for p in parts if p[0] > 0]
    if not parts:
        return 0.0, np.zeros(3), np.zeros(3), np.array([1.0, 0, 0, 0])
    if len(parts) == 1:
        m, pos, quat, inertia = parts[0]
        return float(m), np.array(pos, float), np.array(inertia, float), np.array(quat, float)
    m = sum(p[0] for p in parts)
    com = sum(p[0] * np.asarray(p[1], float) for p in parts) / m
    I = np.zeros((3, 3))
    for mk, pk, qk, Ik in parts:
        d = np.asarray(pk, float) - com
        I += inertia_tensor(Ik, qk) + mk * ((d @ d) * np.eye(3) - np.outer(d, d))
    inertia, quat = eig3(I)
    return float(m), com, inertia, quat


# -- meshes ------------------------------------------------------------------------------
def convex_hull(points):
    """The points and the outward-facing triangles of their convex hull (``scipy.spatial.ConvexHull``,
    i.e. qhull, as MuJoCo uses); points inside the hull are kept (as MuJoCo keeps them) but
    no triangle uses them.

    >>> v, f = convex_hull(np.array([[0.0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.1, 0.1, 0.1]]))
    >>> len(v), len(f), 4 in f
    (5, 4, False)
    """
    v = np.asarray(points, dtype=float)
    f = ConvexHull(v).simplices.copy()
    # orient each triangle so that its normal points away from the hull's center
    center = v[np.unique(f)].mean(0)
    a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    inward = (np.cross(b - a, c - a) * (a - center)).sum(1) < 0
    f[inward] = f[inward][:, [0, 2, 1]]
    return v, f


def mesh_mass_properties(vertices, faces, mode="legacy"):
    r"""Volume, center of mass and the inertia per unit density (3×3, about the center) of a
    triangle mesh, by summing the pyramids from a point to each triangle, as MuJoCo does.

    A pyramid with apex :math:`o` on triangle :math:`(a, b, c)` of area :math:`A` and unit
    normal :math:`n` has signed volume :math:`V = (g - o)\cdot n\,A/3`, with :math:`g`
    the triangle's centroid, and its center of mass at :math:`\tfrac34 g + \tfrac14 o`.
    Two passes: the center of mass from pyramids whose apex is the area-weighted centroid
    of the triangles; then volume and inertia from pyramids whose apex is that center of
    mass, with the second moments of each tetrahedron (vertices :math:`x_k` relative to
    the apex) :math:`C = \frac{V}{20}\big(\sum_k x_k x_k^T + (\sum_k x_k)(\sum_k x_k)^T\big)`
    and :math:`I = \operatorname{tr}(C)\,E - C`.

    ``mode="exact"`` adds signed volumes (right for any closed mesh); ``"legacy"``,
    MuJoCo's default, adds their absolute values (the same for a convex mesh, more
    forgiving of flipped triangles); ``"convex"`` uses the convex hull.

    >>> import trimesh
    >>> box = trimesh.creation.box([1.0, 2.0, 3.0])
    >>> V, c, I = mesh_mass_properties(box.vertices, box.faces)
    >>> round(V, 12), np.round(np.diag(I), 12)
    (6.0, array([6.5, 5. , 2.5]))
    """
    v = np.asarray(vertices, dtype=float)
    f = np.asarray(faces, dtype=int)
    if mode == "convex":
        v, f = convex_hull(v)
        mode = "exact"

    def pyramids(apex):
        a, b, c = v[f[:, 0]] - apex, v[f[:, 1]] - apex, v[f[:, 2]] - apex
        cross = np.cross(b - a, c - a)
        area = np.linalg.norm(cross, axis=1) / 2
        keep = area > 0
        normal = np.zeros_like(cross)
        normal[keep] = cross[keep] / (2 * area[keep, None])
        centroid = (a + b + c) / 3
        vol = (centroid * normal).sum(1) * area / 3
        return (np.abs(vol) if mode == "legacy" else vol), a, b, c, centroid, area

    # pass 1: center of mass, apex at the area-weighted centroid of the triangles
    _, _, _, _, centroid, area = pyramids(np.zeros(3))
    if area.sum() < MINVAL:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    facecen = (area[:, None] * centroid).sum(0) / area.sum()
    vol, _, _, _, centroid, _ = pyramids(facecen)
    if vol.sum() < MINVAL:
        return float(vol.sum()), facecen, np.zeros((3, 3))
    com = facecen + (vol[:, None] * 0.75 * centroid).sum(0) / vol.sum()
    # pass 2: volume and inertia, apex at the center of mass
    vol, a, b, c, _, _ = pyramids(com)
    X = np.stack([a, b, c], axis=1)                      # (m, 3 vertices, 3)
    s = X.sum(1)
    C = (vol[:, None, None] / 20 * (np.einsum("mki,mkj->mij", X, X)
                                    + s[:, :, None] * s[:, None, :])).sum(0)
    I = np.trace(C) * np.eye(3) - C
    return float(vol.sum()), com, I
