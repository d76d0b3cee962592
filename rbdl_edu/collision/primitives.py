"""Closed-form narrowphase for planes, spheres and capsules (MuJoCo's ``engine_collision_primitive``).

Every function has the signature ``f(p1, R1, s1, p2, R2, s2, margin) -> list of
(dist, pos, normal, tangent)``: geom centers ``p``, orientations ``R`` (columns = geom
axes), sizes ``s``, and the detection distance ``margin`` (pair margin + gap). Geom 1 has
the lower type, the normal points from geom 1 to geom 2, ``dist`` is the signed surface
distance and ``pos`` lies midway between the surfaces. ``tangent`` is zero unless the
collider prefers one (plane-capsule keeps the capsule axis).

Size conventions (MuJoCo's): sphere ``r``; capsule ``r, h`` (half-length of the segment);
cylinder ``r, h`` (half-height); box half-sizes; the plane's normal is its local z axis.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.enums import MINVAL

ZERO = np.zeros(3)


def _con(dist, pos, normal, tangent=ZERO):
    return (float(dist), np.asarray(pos, float), np.asarray(normal, float), np.asarray(tangent, float))


def _normalize(v):
    """``(v/|v|, |v|)``; a zero vector becomes the x axis (MuJoCo's ``mju_normalize3``)."""
    n = np.linalg.norm(v)
    return (v / n if n >= MINVAL else np.array([1.0, 0.0, 0.0])), n


# ---------------------------------------------------------------- sphere-like primitives --
def sphere_sphere(p1, R1, s1, p2, R2, s2, margin):
    """Two spheres: :math:`d = |p_2 - p_1| - r_1 - r_2`, normal along :math:`p_2 - p_1`.

    Concentric spheres take the normal :math:`z_1 \\times z_2` (MuJoCo's choice).

    >>> I = np.eye(3)
    >>> sphere_sphere(np.zeros(3), I, [1.0], np.array([1.5, 0, 0]), I, [1.0], 0.0)[0][:2]
    (-0.5, array([0.75, 0.  , 0.  ]))
    """
    r1, r2 = s1[0], s2[0]
    dif = p2 - p1
    if dif @ dif > (margin + r1 + r2) ** 2:
        return []
    n, length = _normalize(dif)
    dist = length - r1 - r2
    if length < MINVAL:
        n, _ = _normalize(np.cross(R1[:, 2], R2[:, 2]))
    # contact point: from p1 along n by r1 plus half the distance
    return [_con(dist, p1 + n * (r1 + dist / 2), n)]


def plane_sphere(p1, R1, s1, p2, R2, s2, margin):
    """Plane (normal ``n = R1 z``) and sphere: :math:`d = n\\cdot(p_2 - p_1) - r`,
    the point halfway between the plane and the sphere's lowest point.

    >>> I = np.eye(3)
    >>> plane_sphere(np.zeros(3), I, [0, 0, 1.], np.array([0, 0, 0.5]), I, [1.0], 0.0)[0][:2]
    (-0.5, array([ 0.  ,  0.  , -0.25]))
    """
    n = R1[:, 2]
    h = n @ (p2 - p1)                       # height of the sphere center above the plane
    if h > margin + s2[0]:
        return []
    dist = h - s2[0]
    return [_con(dist, p2 - n * (s2[0] + dist / 2), n)]


def plane_capsule(p1, R1, s1, p2, R2, s2, margin):
    """Plane and capsule: a plane-sphere test at each end of the segment (at most 2 contacts);
    the contact frame's tangent is the capsule axis.

    >>> I = np.eye(3); R = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0.]])   # capsule along x
    >>> [c[0] for c in plane_capsule(np.zeros(3), I, [0, 0, 1.], np.array([0, 0, 0.05]), R, [0.1, 0.5], 0)]
    [-0.05, -0.05]
    """
    axis, n, r, h = R2[:, 2], R1[:, 2], float(s2[0]), float(s2[1])
    (ux, uy, uz), (x, y, z), (ax, ay, az), (nx, ny, nz) = axis.tolist(), p2.tolist(), p1.tolist(), n.tolist()
    hx, hy, hz = h * ux, h * uy, h * uz
    out = []
    for ex, ey, ez in ((x + hx, y + hy, z + hz), (x - hx, y - hy, z - hz)):     # the ends p2 ± h axis
        # a plane-sphere test at each (as plane_sphere: its height n·(x - p1) by NumPy's dot, the
        # rest on numbers, the same bits)
        height = float(n @ np.array([ex - ax, ey - ay, ez - az]))
        if not height > margin + r:
            dist = height - r
            k = r + dist / 2
            out.append(_con(dist, np.array([ex - nx * k, ey - ny * k, ez - nz * k]), n, axis))
    return out


def sphere_capsule(p1, R1, s1, p2, R2, s2, margin):
    """Sphere and capsule: sphere-sphere with the nearest point of the capsule segment,
    :math:`x = p_2 + \\mathrm{clip}(a\\cdot(p_1 - p_2), -h, h)\\, a`.

    >>> I = np.eye(3)
    >>> round(sphere_capsule(np.array([0.15, 0, 0.3]), I, [0.1], np.zeros(3), I, [0.1, 0.5], 0)[0][0], 12)
    -0.05
    """
    axis = R2[:, 2]
    t = np.clip(axis @ (p1 - p2), -s2[1], s2[1])
    return sphere_sphere(p1, R1, s1, p2 + t * axis, R2, s2, margin)


def capsule_capsule(p1, R1, s1, p2, R2, s2, margin):
    """Two capsules: sphere-sphere between the closest points of the two segments.

    With segments :math:`p_i + x_i A_i`, :math:`A_i = h_i a_i`, :math:`x_i \\in [-1, 1]`,
    the unconstrained closest points solve the 2x2 normal equations
    :math:`\\begin{bmatrix} A_1\\cdot A_1 & -A_1\\cdot A_2\\\\ -A_1\\cdot A_2 & A_2\\cdot A_2\\end{bmatrix}
    \\begin{bmatrix}x_1\\\\x_2\\end{bmatrix} = \\begin{bmatrix}-A_1\\cdot(p_1-p_2)\\\\A_2\\cdot(p_1-p_2)\\end{bmatrix}`;
    then each is clipped and the other re-solved. Parallel segments give up to 2 contacts
    (the ends of their overlap).

    >>> I = np.eye(3); Rx = np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0.]])
    >>> d, pos, n, _ = capsule_capsule(np.zeros(3), I, [0.1, 1.0], np.array([0, 0.15, 0.5]), Rx, [0.1, 1.0], 0)[0]
    >>> round(d, 12), n
    (-0.05, array([0., 1., 0.]))
    """
    A1, A2 = R1[:, 2] * s1[1], R2[:, 2] * s2[1]
    dif = p1 - p2
    ma, mb, mc = A1 @ A1, -(A1 @ A2), A2 @ A2
    u, v = -(A1 @ dif), A2 @ dif
    det = ma * mc - mb * mb
    if abs(det) >= MINVAL:                                    # general position
        x1 = (mc * u - mb * v) / det
        x2 = (ma * v - mb * u) / det
        if x1 > 1:
            x1, x2 = 1.0, (v - mb) / mc
        elif x1 < -1:
            x1, x2 = -1.0, (v + mb) / mc
        if x2 > 1:
            x2, x1 = 1.0, np.clip((u - mb) / ma, -1, 1)
        elif x2 < -1:
            x2, x1 = -1.0, np.clip((u + mb) / ma, -1, 1)
        return sphere_sphere(p1 + x1 * A1, R1, s1, p2 + x2 * A2, R2, s2, margin)
    # parallel: try the ends of segment 1, then (if needed) the ends of segment 2
    out = []
    for x1 in (1.0, -1.0):
        x2 = np.clip((v - x1 * mb) / mc, -1, 1)
        out += sphere_sphere(p1 + x1 * A1, R1, s1, p2 + x2 * A2, R2, s2, margin)
    for x2 in (1.0, -1.0):
        if len(out) >= 2:
            break
        x1 = np.clip((u - x2 * mb) / ma, -1, 1)
        out += sphere_sphere(p1 + x1 * A1, R1, s1, p2 + x2 * A2, R2, s2, margin)
    return out


def sphere_cylinder(p1, R1, s1, p2, R2, s2, margin):
    """Sphere and cylinder: side (sphere-sphere with the axis point), cap (plane-sphere
    with the cap plane) or rim (sphere-sphere with the nearest rim point), by where the
    sphere center projects; a center inside uses the nearer of side and cap.

    >>> I = np.eye(3)
    >>> [round(c[0], 12) for c in sphere_cylinder(np.array([0, 0, 0.55]), I, [0.1], np.zeros(3), I, [0.3, 0.5], 0)]
    [-0.05]
    """
    r, h = s2[0], s2[1]
    axis = R2[:, 2]
    vec = p1 - p2
    x = axis @ vec                                # height along the axis
    a_proj = axis * x
    p_proj = vec - a_proj                         # radial offset
    p2sqr = p_proj @ p_proj
    side, cap = abs(x) < h, p2sqr < r * r
    if side and cap:                              # center inside: nearest feature wins
        if h - abs(x) < r - np.sqrt(p2sqr):
            side = False
        else:
            cap = False
    if side:
        return sphere_sphere(p1, R1, s1, p2 + a_proj, R2, s2, margin)
    if cap:
        sign = 1.0 if x > 0 else -1.0
        Rcap = R2 * np.array([sign, 1.0, sign])   # cap plane whose normal is ±axis
        out = plane_sphere(p2 + sign * h * axis, Rcap, s2, p1, R1, s1, margin)
        return [_con(d, pos, -n) for d, pos, n, _ in out]   # normal from sphere to cylinder
    rim = p2 + p_proj * (r / np.sqrt(p2sqr)) + axis * (h if x > 0 else -h)
    return sphere_sphere(p1, R1, s1, rim, R2, [0.0], margin)


def sphere_box(p1, R1, s1, p2, R2, s2, margin):
    """Sphere and box: in the box frame, the center clamped to the box is the nearest
    box point; if the center is inside, the nearest face gives the normal and depth.

    >>> I = np.eye(3)
    >>> d, pos, n, _ = sphere_box(np.array([1.0, 0, 0]), I, [0.2], np.zeros(3), I, np.array([0.9, 1, 1]), 0)[0]
    >>> round(d, 12), n, pos
    (-0.1, array([-1.,  0.,  0.]), array([0.85, 0.  , 0.  ]))
    """
    r = s1[0]
    center = R2.T @ (p1 - p2)
    clamped = np.clip(center, -s2, s2)
    tmp, dist = _normalize(clamped - center)      # from the sphere center to the box
    if dist - r > margin:
        return []
    if dist <= MINVAL:                            # center inside the box
        faces = [abs((1 if k % 2 else -1) * s2[k // 2] - center[k // 2]) for k in range(6)]
        k = int(np.argmin(faces))
        closest = faces[k]
        nearest = np.zeros(3)
        nearest[k // 2] = -1.0 if k % 2 else 1.0
        pos = center + nearest * (r - closest) / 2
        normal = R2 @ nearest
        dist = -closest
    else:
        deepest = center + tmp * r
        pos = (clamped + deepest) / 2
        normal = R2 @ tmp
    return [_con(dist - r, R2 @ pos + p2, normal)]


# --------------------------------------------------------------------- plane and solids --
def plane_cylinder(p1, R1, s1, p2, R2, s2, margin):
    """Plane and cylinder: the lowest rim point of each disk, then (if the lower disk is
    close enough) two more points of the lower disk 120 degrees away: up to 4 contacts.

    >>> I = np.eye(3)
    >>> len(plane_cylinder(np.zeros(3), I, [0, 0, 1.], np.array([0, 0, 0.19]), I, [0.1, 0.2], 0))
    3
    """
    n, axis = R1[:, 2], R2[:, 2].copy()
    prjaxis = n @ axis
    if prjaxis > 0:                               # make the axis point into the plane
        axis, prjaxis = -axis, -prjaxis
    dist0 = n @ (p2 - p1)
    vec = axis * prjaxis - n                      # rim direction towards the plane
    lensq = vec @ vec
    if lensq >= MINVAL * MINVAL:
        vec = vec * (s2[0] / np.sqrt(lensq))
    else:                                         # disk parallel to the plane
        vec = R2[:, 0] * s2[0]
    prjvec = vec @ n
    axis, prjaxis = axis * s2[1], prjaxis * s2[1]
    out = []
    d = dist0 + prjaxis + prjvec                  # lowest point of the lower disk
    if d > margin:
        return []
    out.append(_con(d, p2 + vec + axis - n * d / 2, n))
    d = dist0 - prjaxis + prjvec                  # lowest point of the upper disk
    if d <= margin:
        out.append(_con(d, p2 + vec - axis - n * d / 2, n))
    d = dist0 + prjaxis - prjvec / 2              # two more points on the lower disk
    if d <= margin:
        side = np.cross(vec, axis)
        side = side / np.linalg.norm(side) * s2[0] * np.sqrt(3) / 2
        for sgn in (1, -1):
            out.append(_con(d, p2 + sgn * side + axis - vec / 2 - n * d / 2, n))
    return out


def plane_box(p1, R1, s1, p2, R2, s2, margin):
    """Plane and box: every corner below ``margin`` on the lower side of the box, in corner
    order (x fastest), at most 4.

    >>> I = np.eye(3)
    >>> [round(c[0], 12) for c in plane_box(np.zeros(3), I, [0, 0, 1.], np.array([0, 0, 0.9]), I, [1, 1, 1.], 0)]
    [-0.1, -0.1, -0.1, -0.1]
    """
    n = R1[:, 2]
    dist = float(n @ (p2 - p1))                         # the box center's height
    corners = np.matvec(R2, _CORNERS * np.asarray(s2, dtype=float)[:3])     # R2 v, v = (±a, ±b, ±c)
    heights = np.vecdot(n, corners)                     # each corner's height above the center
    (nx, ny, nz), (x, y, z), out = n.tolist(), p2.tolist(), []
    for (cx, cy, cz), ld in zip(corners.tolist(), heights.tolist()):
        if dist + ld > margin or ld > 0:
            continue
        d = dist + ld
        # halfway between the corner and the plane, R2 v + p2 - n d/2 (on numbers: the same bits)
        out.append(_con(d, np.array([cx + x - nx * d / 2, cy + y - ny * d / 2, cz + z - nz * d / 2]), n))
        if len(out) == 4:
            break
    return out


#: the box's corners in corner order (x fastest), in units of its half-sizes
_CORNERS = np.array([[1.0 if i & 1 else -1.0, 1.0 if i & 2 else -1.0, 1.0 if i & 4 else -1.0]
                     for i in range(8)])
