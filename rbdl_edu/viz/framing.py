r"""Framing a view: what of a model must be seen, and where the camera goes. Numbers only
(no pythreejs), so every helper here is tested without a browser.

* the shapes as points: a mesh geom's vertices and faces (:func:`mesh_data`), the box
  around each geom (:func:`geom_half_sizes`), the world points a view must show
  (:func:`model_points`) and their bounds (:func:`model_bounds`);
* the camera: from where to look (:func:`view_direction`: front-right and a little above,
  or square onto a planar mechanism's plane), how far back so the points fill the
  picture (:func:`fit_camera`), and the camera's orientation (:func:`look_at`).

The world is z-up, as in MuJoCo; :func:`look_at` returns a three.js ``(x, y, z, w)``
quaternion.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.enums import BOX, CAPSULE, CYLINDER, ELLIPSOID, MESH, SPHERE
from rbdl_edu.rotation import mat_to_quat, quat_to_mat


def mesh_data(model, g):
    """Vertices ``(n, 3)`` and triangle indices ``(m, 3)`` of mesh geom ``g`` (in the geom's
    frame: ``mesh_vert``/``mesh_face`` of mesh ``geom_dataid[g]``), or ``None`` if it has none.

    >>> from rbdl_edu.models import pendulum
    >>> mesh_data(pendulum(), 0) is None
    True
    """
    k = int(model.geom_dataid[g])
    if k < 0:
        return None
    v0, f0 = model.mesh_vertadr[k], model.mesh_faceadr[k]
    v, f = model.mesh_vert[v0:v0 + model.mesh_vertnum[k]], model.mesh_face[f0:f0 + model.mesh_facenum[k]]
    if len(v) == 0 or len(f) == 0:
        return None
    return np.asarray(v, dtype=np.float32), np.asarray(f, dtype=np.uint32)


def geom_half_sizes(model, g):
    """Half-sizes ``(3,)`` of the box around geom ``g`` in its own frame (planes: ``None``;
    meshes: from their vertices, ``None`` if the model does not carry them).

    >>> from rbdl_edu.models import cart_pole
    >>> geom_half_sizes(cart_pole(), 1)          # the pole: a capsule of radius 0.02, half-length 0.5
    array([0.02, 0.02, 0.52])
    """
    t, size = int(model.geom_type[g]), np.asarray(model.geom_size[g], dtype=float)
    if t == SPHERE:
        return np.full(3, size[0])
    if t == CAPSULE:
        return np.array([size[0], size[0], size[1] + size[0]])
    if t == CYLINDER:
        return np.array([size[0], size[0], size[1]])
    if t in (ELLIPSOID, BOX):
        return size[:3].copy()
    if t == MESH:
        data = mesh_data(model, g)
        return None if data is None else np.abs(data[0]).max(axis=0).astype(float)
    return None


def model_points(model, xpos, xmat):
    """World points a view of the model must show: body origins, and the corners of each
    finite geom's box (mesh geoms: their vertices). Planes are left out (they are unbounded).

    >>> from rbdl_edu.models import pendulum
    >>> from rbdl_edu.kinematics import forward_kinematics
    >>> model_points(pendulum(), *forward_kinematics(pendulum(), [0.0])).shape    # 2 origins, 2 geoms
    (18, 3)
    """
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
    pts = [np.asarray(xpos, float)]
    for g in range(model.ngeom):
        half = geom_half_sizes(model, g)
        if half is None:
            continue
        b = int(model.geom_bodyid[g])
        R = np.asarray(xmat[b], float) @ quat_to_mat(np.asarray(model.geom_quat[g], float))
        center = np.asarray(xpos[b], float) + np.asarray(xmat[b], float) @ np.asarray(model.geom_pos[g], float)
        data = mesh_data(model, g) if int(model.geom_type[g]) == MESH else None
        local = data[0].astype(float) if data is not None else corners * half
        pts.append(center + local @ R.T)
    return np.concatenate(pts)


def model_bounds(model, xpos, xmat):
    """Center ``(3,)`` and size (a length) of the box around :func:`model_points`. The size
    sets arrow and frame lengths.

    >>> from rbdl_edu.models import double_pendulum
    >>> from rbdl_edu.kinematics import forward_kinematics
    >>> m = double_pendulum()
    >>> center, size = model_bounds(m, *forward_kinematics(m, [0.0, 0.0]))
    >>> center.round(3), round(size, 3)
    (array([ 0.  ,  0.  , -0.99]), 2.08)
    """
    pts = model_points(model, xpos, xmat)
    lo, hi = pts.min(0), pts.max(0)
    return 0.5 * (lo + hi), float(max(np.max(hi - lo), 0.5))


DEFAULT_DIRECTION = np.array([0.45, -1.0, 0.35]) / np.linalg.norm([0.45, -1.0, 0.35])


def view_direction(points, planar_ratio=0.15):
    """From where to look at ``points (n, 3)``: the book's default, from the front-right and
    a little above; but when the points (a planar mechanism's positions over a motion)
    spread much less across one direction than along the others, from that plane's normal,
    turned a little towards the default so the view keeps some depth. A unit vector from
    the target towards the camera.

    >>> np.round(view_direction(np.array([[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1.0]])), 3)
    array([ 0.227, -0.958,  0.176])
    """
    p = np.asarray(points, float)
    p = p - p.mean(axis=0)
    _, s, vt = np.linalg.svd(p, full_matrices=False) if len(p) >= 3 else (None, np.zeros(3), np.eye(3))
    if len(s) < 3 or s[0] <= 0 or s[2] > planar_ratio * s[1]:
        return DEFAULT_DIRECTION.copy()
    n = vt[2] * np.sign(vt[2] @ DEFAULT_DIRECTION or 1.0)
    inplane = DEFAULT_DIRECTION - (DEFAULT_DIRECTION @ n) * n
    d = n + 0.3 * inplane / max(np.linalg.norm(inplane), 1e-12)
    return d / np.linalg.norm(d)


def fit_camera(points, direction, aspect, fov=40.0, fill=0.88, up=(0.0, 0.0, 1.0)):
    """Aim a perspective camera along ``-direction`` so that ``points (n, 3)`` fill
    ``fill`` of the picture's height or width, whichever binds first.

    Returns ``(target, distance)``: the point the camera looks at (the middle of the points
    as the camera sees them) and how far from it the camera stands.

    >>> target, d = fit_camera(np.array([[-1.0, 0, -1], [1, 0, 1]]), np.array([0.0, -1, 0]), aspect=1.0)
    >>> target.round(6), round(d, 3)
    (array([0., 0., 0.]), 3.122)
    """
    p = np.asarray(points, float)
    back = np.asarray(direction, float) / np.linalg.norm(direction)
    right = np.cross(up, back)
    if np.linalg.norm(right) < 1e-9:
        right = np.cross([0.0, 1.0, 0.0], back)
    right /= np.linalg.norm(right)
    upv = np.cross(back, right)
    x, y = p @ right, p @ upv
    target = (0.5 * (x.min() + x.max())) * right + (0.5 * (y.min() + y.max())) * upv
    target = target + (0.5 * ((p @ back).min() + (p @ back).max())) * back
    rel = p - target
    x, y, z = rel @ right, rel @ upv, rel @ back
    tan_v = np.tan(np.radians(fov) / 2) * fill
    tan_h = tan_v * aspect
    distance = float(np.max(z + np.maximum(np.abs(x) / tan_h, np.abs(y) / tan_v)))
    return target, max(distance, 1e-3)


def look_at(eye, target, up=(0.0, 0.0, 1.0)):
    """three.js quaternion of a camera at ``eye`` looking at ``target`` (a camera looks along
    its local -z with local +y up), so the first frame is aimed right before any
    OrbitControls update.

    >>> np.round(look_at([0.0, -1.0, 0.0], [0.0, 0.0, 0.0]), 6)     # looking along +y, z up
    array([0.707107, 0.      , 0.      , 0.707107])
    """
    z = np.asarray(eye, float) - np.asarray(target, float)
    z /= np.linalg.norm(z)
    x = np.cross(up, z)
    if np.linalg.norm(x) < 1e-9:                     # looking straight along up
        x = np.cross([0.0, 1.0, 0.0], z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    q = mat_to_quat(np.stack([x, y, z], axis=1))
    return np.array([q[1], q[2], q[3], q[0]])
