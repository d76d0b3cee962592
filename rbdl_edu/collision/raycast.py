r"""Rays against the scene and points against volumes (MuJoCo's ``mj_ray``, ``mju_rayGeom``
with surface normals, and ``mju_insideGeom``), for the ``rangefinder``, ``insidesite`` and
``contact`` sensors (book, chapter 10).

A ray :math:`p + x\,v`, :math:`x \ge 0`, is taken into each shape's frame; every surface
piece is a quadric or a plane, so each hit is a root of a quadratic or linear equation
(:func:`~rbdl_edu.collision.ray.smallest_root`), kept only on the right piece (a capsule's
caps, a cylinder's or box's faces, a plane's drawn rectangle, which is hit from the front
only). The normal at the hit is the outward normal of that piece, whichever side the ray
came from. A mesh is hit on its triangles (:func:`ray_mesh`), a height field on its
grid's triangles and its boxes (:func:`ray_hfield`). :func:`ray_scene` tries
every visible geom (alpha > 0) not on the excluded body and keeps the nearest hit.

>>> x, n = ray_shape(np.zeros(3), np.eye(3), np.array([0.5, 0, 0]), np.array([-2.0, 0, 0]),
...                  np.array([1.0, 0, 0]), SPHERE)
>>> x, n
(1.5, array([-1.,  0.,  0.]))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.collision.ray import smallest_root
from rbdl_edu.model.enums import BOX, CAPSULE, CYLINDER, ELLIPSOID, HFIELD, MESH, MINVAL, PLANE, SPHERE

__all__ = ["ray_shape", "ray_mesh", "ray_hfield", "ray_scene", "inside_shape"]

NONE = (-1.0, np.zeros(3))


def _roots(a, b, c):
    """Both real roots of :math:`a x^2 + 2bx + c = 0` (``-1`` for each when there are none)."""
    det = b * b - a * c
    if det < 0 or a < MINVAL:
        return -1.0, -1.0
    det = np.sqrt(det)
    return (-b - det) / a, (-b + det) / a


def _unit(v):
    n = np.linalg.norm(v)
    return v / n if n >= MINVAL else np.array([1.0, 0.0, 0.0])


def _sphere(pos, r2, pnt, vec):
    dif = pnt - pos
    return smallest_root(vec @ vec, vec @ dif, dif @ dif - r2)


def ray_shape(pos, mat, size, pnt, vec, geomtype):
    """``(x, normal)``: the distance along ``vec`` (in units of ``|vec|``) to the first hit of
    a plane, sphere, capsule, ellipsoid, cylinder or box, and the outward surface normal
    there (world axes); ``(-1, 0)`` if the ray misses."""
    pnt, vec = np.asarray(pnt, float), np.asarray(vec, float)
    if geomtype == SPHERE:
        x = _sphere(pos, size[0] ** 2, pnt, vec)
        return (x, _unit(pnt + x * vec - pos)) if x >= 0 else NONE
    lp, lv = mat.T @ (pnt - pos), mat.T @ vec
    if geomtype == PLANE:
        if lv[2] > -MINVAL:                                   # only the front face is hit
            return NONE
        x = -lp[2] / lv[2]
        p = lp[:2] + x * lv[:2]
        if x >= 0 and (size[0] <= 0 or abs(p[0]) <= size[0]) and (size[1] <= 0 or abs(p[1]) <= size[1]):
            return x, mat[:, 2].copy()
        return NONE
    if geomtype == ELLIPSOID:
        s = 1 / np.asarray(size[:3], float) ** 2
        x = smallest_root(s @ (lv * lv), s @ (lv * lp), s @ (lp * lp) - 1)
        return (x, mat @ _unit(s * (lp + x * lv))) if x >= 0 else NONE
    if geomtype == CAPSULE:
        return _capsule(pos, mat, size, pnt, vec, lp, lv)
    if geomtype == CYLINDER:
        return _cylinder(pos, mat, size, pnt, vec, lp, lv)
    if geomtype == BOX:
        return _box(pos, mat, size, pnt, vec, lp, lv)
    raise ValueError(f"ray_shape: geom type {geomtype} is not a plane, sphere, capsule, ellipsoid, cylinder or box")


def _capsule(pos, mat, size, pnt, vec, lp, lv):
    r, h = size[0], size[1]
    if _sphere(pos, (r + h) ** 2, pnt, vec) < 0:              # bounding sphere
        return NONE
    x, piece = -1.0, 0                                        # piece: -1 bottom cap, 0 side, 1 top cap
    sol = smallest_root(lv[:2] @ lv[:2], lv[:2] @ lp[:2], lp[:2] @ lp[:2] - r * r)
    if sol >= 0 and abs(lp[2] + sol * lv[2]) <= h:
        x = sol
    for side in (1, -1):                                      # the caps: half-spheres beyond ±h
        d = lp - np.array([0.0, 0.0, side * h])
        for root in _roots(lv @ lv, lv @ d, d @ d - r * r):
            if root >= 0 and side * (lp[2] + root * lv[2]) >= h and (x < 0 or root < x):
                x, piece = root, side
    if x < 0:
        return NONE
    p = lp + x * lv
    n = np.array([p[0], p[1], 0.0 if piece == 0 else p[2] - h * piece])
    return x, mat @ _unit(n)


def _cylinder(pos, mat, size, pnt, vec, lp, lv):
    r, h = size[0], size[1]
    if _sphere(pos, r * r + h * h, pnt, vec) < 0:
        return NONE
    x, piece = -1.0, 0
    if abs(lv[2]) > MINVAL:
        for side in (-1, 1):                                  # the flat faces
            sol = (side * h - lp[2]) / lv[2]
            p = lp[:2] + sol * lv[:2]
            if sol >= 0 and p @ p <= r * r and (x < 0 or sol < x):
                x, piece = sol, side
    sol = smallest_root(lv[:2] @ lv[:2], lv[:2] @ lp[:2], lp[:2] @ lp[:2] - r * r)
    if sol >= 0 and abs(lp[2] + sol * lv[2]) <= h and (x < 0 or sol < x):
        x, piece = sol, 0
    if x < 0:
        return NONE
    p = lp + x * lv
    n = _unit(np.array([p[0], p[1], 0.0])) if piece == 0 else np.array([0.0, 0.0, float(piece)])
    return x, mat @ n


def _box(pos, mat, size, pnt, vec, lp, lv, faces=None):
    """A box's first hit and outward normal; ``faces`` (if given, six entries) receives the
    distance to each face the ray crosses inside its rectangle (-1 for the others), in the
    order -x, +x, -y, +y, -z, +z."""
    if faces is not None:
        faces[:] = -1.0
    if _sphere(pos, float(np.sum(np.asarray(size[:3]) ** 2)), pnt, vec) < 0:
        return NONE
    x, face = -1.0, None
    for i, (j, k) in enumerate(((1, 2), (0, 2), (0, 1))):
        if abs(lv[i]) <= MINVAL:
            continue
        for side in (-1, 1):
            sol = (side * size[i] - lp[i]) / lv[i]
            if sol >= 0 and abs(lp[j] + sol * lv[j]) <= size[j] and abs(lp[k] + sol * lv[k]) <= size[k]:
                if x < 0 or sol < x:
                    x, face = sol, (i, side)
                if faces is not None:
                    faces[2 * i + (side + 1) // 2] = sol
    if x < 0:
        return NONE
    n = np.zeros(3)
    n[face[0]] = face[1]
    return x, mat @ n


def _plane_basis(lv):
    """Two unit vectors ``(b0, b1)`` across the ray direction ``lv`` (MuJoCo's choice)."""
    b0 = np.ones(3)
    b0[0 if abs(lv[0]) >= max(abs(lv[1]), abs(lv[2])) else (1 if abs(lv[1]) >= abs(lv[2]) else 2)] = 0
    b1 = _unit(b0 - lv * (lv @ b0) / (lv @ lv))
    return _unit(np.cross(b1, lv)), b1


def _triangle(v, lp, lv, b0, b1):
    """``(x, unit normal)`` where the ray ``lp + x lv`` passes through triangle ``v (3, 3)``
    (MuJoCo's ``ray_triangle``): the origin must lie inside the triangle's projection on
    the plane ``(b0, b1)`` across the ray; ``(-1, None)`` if not."""
    planar = np.stack([(v - lp) @ b0, (v - lp) @ b1], axis=1)
    if any(np.all(planar[:, i] > 0) or np.all(planar[:, i] < 0) for i in range(2)):
        return -1.0, None
    A = np.array([planar[0] - planar[2], planar[1] - planar[2]]).T
    det = A[0, 0] * A[1, 1] - A[0, 1] * A[1, 0]
    if abs(det) < MINVAL:
        return -1.0, None
    b = -planar[2]
    t0, t1 = (A[1, 1] * b[0] - A[0, 1] * b[1]) / det, (-A[1, 0] * b[0] + A[0, 0] * b[1]) / det
    if t0 < 0 or t1 < 0 or t0 + t1 > 1:
        return -1.0, None
    n = np.cross(v[0] - v[2], v[1] - v[2])
    denom = lv @ n
    if abs(denom) < MINVAL:
        return -1.0, None
    return -((lp - v[2]) @ n) / denom, _unit(n)


def ray_mesh(model, data, g, pnt, vec):
    r"""``(x, normal)``: the first hit of mesh geom ``g``'s triangles (MuJoCo's ``mj_rayMesh``,
    every triangle tried instead of its bounding-volume tree). Each triangle is tested in
    the plane across the ray: the ray passes through it if the origin lies inside the
    triangle's projection; the normal is the triangle's, :math:`(v_0 - v_2) \times (v_1 - v_2)`,
    as its winding makes it."""
    pos, mat = data.geom_xpos[g], data.geom_xmat[g]
    if _box(pos, mat, model.geom_size[g], pnt, vec, mat.T @ (pnt - pos), mat.T @ vec)[0] < 0:
        return NONE                                           # the mesh's bounding box
    lp, lv = mat.T @ (np.asarray(pnt, float) - pos), mat.T @ np.asarray(vec, float)
    b0, b1 = _plane_basis(lv)
    k = model.geom_dataid[g]
    vert = model.mesh_vert[model.mesh_vertadr[k]:model.mesh_vertadr[k] + model.mesh_vertnum[k]]
    faces = model.mesh_face[model.mesh_faceadr[k]:model.mesh_faceadr[k] + model.mesh_facenum[k]]
    best = NONE
    for face in faces:
        x, n = _triangle(vert[face], lp, lv, b0, b1)
        if x >= 0 and (best[0] < 0 or x < best[0]):
            best = (float(x), mat @ n)
    return best


def ray_hfield(model, data, g, pnt, vec):
    """``(x, normal)``: the first hit of height-field geom ``g`` (MuJoCo's ``mj_rayHfield``):
    its base box below the surface, the two triangles of each grid cell the ray crosses
    over (inside the box that holds the surface), and that box's four sides, where they
    lie below the surface's edge."""
    m, pnt, vec = model, np.asarray(pnt, float), np.asarray(vec, float)
    h = m.geom_dataid[g]
    nrow, ncol, size = int(m.hfield_nrow[h]), int(m.hfield_ncol[h]), m.hfield_size[h]
    z = m.hfield_data[m.hfield_adr[h]:m.hfield_adr[h] + nrow * ncol]
    pos, mat = data.geom_xpos[g], data.geom_xmat[g]
    lp, lv = mat.T @ (pnt - pos), mat.T @ vec
    base_pos, top_pos = pos - mat[:, 2] * size[3] * 0.5, pos + mat[:, 2] * size[2] * 0.5
    x, normal = _box(base_pos, mat, (size[0], size[1], size[3] * 0.5), pnt, vec,
                     mat.T @ (pnt - base_pos), lv)
    faces = np.full(6, -1.0)
    top = _box(top_pos, mat, (size[0], size[1], size[2] * 0.5), pnt, vec, mat.T @ (pnt - top_pos), lv, faces)[0]
    if top < 0:
        return (x, normal) if x >= 0 else NONE
    local = mat.T @ normal if x >= 0 else np.zeros(3)
    b0, b1 = _plane_basis(lv)
    seg = [0.0, top]                                          # the ray's piece inside the top box
    for f in faces:
        if f > seg[1]:
            seg = [top, f]
    dx, dy = 2.0 * size[0] / (ncol - 1), 2.0 * size[1] / (nrow - 1)
    SX = [(lp[0] + t * lv[0] + size[0]) / dx for t in seg]
    SY = [(lp[1] + t * lv[1] + size[1]) / dy for t in seg]
    cmin, cmax = max(0, int(np.floor(min(SX))) - 1), min(ncol - 1, int(np.ceil(max(SX))) + 1)
    rmin, rmax = max(0, int(np.floor(min(SY))) - 1), min(nrow - 1, int(np.ceil(max(SY))) + 1)
    def corner(r, c):
        return [dx * c - size[0], dy * r - size[1], z[r * ncol + c] * size[2]]
    for r in range(rmin, rmax):
        for c in range(cmin, cmax):
            for tri in ((corner(r, c), corner(r, c + 1), corner(r + 1, c + 1)),
                        (corner(r, c), corner(r + 1, c + 1), corner(r + 1, c))):
                sol, n = _triangle(np.array(tri), lp, lv, b0, b1)
                if sol >= 0 and (x < 0 or sol < x):
                    x, local = sol, n
    for i in range(4):                                        # the top box's sides, below the edge
        if faces[i] >= 0 and (faces[i] < x or x < 0):
            height = (lp[2] + faces[i] * lv[2]) / size[2]
            if i < 2:
                y = (lp[1] + faces[i] * lv[1] + size[1]) / dy
                y0 = max(0, min(nrow - 2, np.floor(y)))
                edge = [z[int(round(y0 + k)) * ncol + (ncol - 1 if i == 1 else 0)] for k in (0, 1)]
            else:
                y = (lp[0] + faces[i] * lv[0] + size[0]) / dx
                y0 = max(0, min(ncol - 2, np.floor(y)))
                edge = [z[int(round(y0 + k)) + ((nrow - 1) * ncol if i == 3 else 0)] for k in (0, 1)]
            if height < edge[0] * (y0 + 1 - y) + edge[1] * (y - y0):
                x, local = faces[i], np.zeros(3)
                local[i // 2] = -1.0 if i % 2 == 0 else 1.0
    return (float(x), mat @ local) if x >= 0 else NONE


def ray_scene(model, data, pnt, vec, bodyexclude=-1):
    """``(x, geom, normal)``: MuJoCo's ``mj_ray`` over every geom (static ones included, no
    group filter) that is visible (its alpha, or its material's, is not 0) and not on body
    ``bodyexclude``; ``(-1, -1, 0)`` if nothing is hit."""
    m = model
    best = (-1.0, -1, np.zeros(3))
    for g in range(m.ngeom):
        rgba = m.mat_rgba[m.geom_matid[g]] if m.geom_matid[g] >= 0 else m.geom_rgba[g]
        if m.geom_bodyid[g] == bodyexclude or rgba[3] == 0:
            continue
        if m.geom_type[g] == MESH:
            x, n = ray_mesh(m, data, g, pnt, vec)
        elif m.geom_type[g] == HFIELD:
            x, n = ray_hfield(m, data, g, pnt, vec)
        else:
            x, n = ray_shape(data.geom_xpos[g], data.geom_xmat[g], m.geom_size[g], pnt, vec, m.geom_type[g])
        if x >= 0 and (best[0] < 0 or x < best[0]):
            best = (float(x), g, n)
    return best


def inside_shape(pos, mat, size, geomtype, point):
    """MuJoCo's ``mju_insideGeom``: is ``point`` strictly inside the sphere, capsule,
    ellipsoid, cylinder or box (or below the plane) at ``pos``, ``mat``?"""
    v = np.asarray(point, float) - pos
    if geomtype == SPHERE:
        return bool(v @ v < size[0] ** 2)
    p = mat.T @ v
    if geomtype == CAPSULE:
        dz = p[2] - np.clip(p[2], -size[1], size[1])
        return bool(p[0] ** 2 + p[1] ** 2 + dz * dz < size[0] ** 2)
    if geomtype == ELLIPSOID:
        return bool(np.sum(p ** 2 / np.asarray(size[:3], float) ** 2) < 1)
    if geomtype == CYLINDER:
        return bool(abs(p[2]) < size[1] and p[0] ** 2 + p[1] ** 2 < size[0] ** 2)
    if geomtype == BOX:
        return bool(np.all(np.abs(p) < np.asarray(size[:3], float)))
    if geomtype == PLANE:
        return bool(p[2] < 0)
    return False
