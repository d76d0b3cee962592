r"""Sensors that look at the geometry (MuJoCo's ``mj_sensorPos``, book, chapter 10):

=================  ===========================================================================
``rangefinder``    a ray along the site's :math:`z` axis (:func:`~rbdl_edu.collision.raycast.ray_scene`,
                   the site's own body excluded), or one through each pixel of a camera: the
                   fields of its ``data``, in order, ``dist`` (-1: no hit), ``dir``,
                   ``origin``, ``point``, ``normal``, ``depth`` (along a camera's view axis;
                   ``dir``, ``point``, ``normal`` are zero without a hit)
``camprojection``  the pixel coordinates of a site in a camera's image
``insidesite``     1 if the frame origin of the object (for ``body`` its center of mass) is
                   strictly inside the site's volume, else 0
``distance``       the smallest signed distance between the surfaces of two geoms (or of
                   any geoms of two bodies), found by the colliders with the sensor's
                   ``cutoff`` as margin; ``cutoff`` when nothing is that close
``normal``         the unit vector along the ``fromto`` segment (zero when nothing was found)
``fromto``         the segment from the surface of the first geom to the second:
                   :math:`p \mp \tfrac{d}{2}\,n` of the closest contact (zeros when none)
=================  ===========================================================================

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><geom name="a" size=".1"/>
...   <geom name="b" size=".2" pos="0.5 0 0"/></worldbody>
...   <sensor><distance geom1="a" geom2="b" cutoff="1"/><fromto geom1="a" geom2="b" cutoff="1"/></sensor></mujoco>''')
>>> data = rbd.Data(model); rbd.forward(model, data); data.sensordata.round(12)
array([0.2, 0.1, 0. , 0. , 0.3, 0. , 0. ])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.collision.box import box_box
from rbdl_edu.collision.convex import convex, signed_distance
from rbdl_edu.collision.driver import COLLIDERS, CONVEX
from rbdl_edu.collision.raycast import inside_shape, ray_scene
from rbdl_edu.model.enums import MINVAL, OBJ_BODY, OBJ_CAMERA, OBJ_SITE, RAYDATA, SENSOR_NAMES
from rbdl_edu.smooth.comframe import frame_of

__all__ = ["rangefinder", "cam_projection", "camera_pose", "pixel_ray", "inside_site", "geom_pair", "geom_distance"]


def _ray_fields(model, data, bits, origin, direction, exclude, camera=None):
    """One ray's ``data`` fields; ``depth`` is along the camera's view axis if ``camera``
    ``(x, R)`` is given, else the distance."""
    dist, _, normal = ray_scene(model, data, origin, direction, exclude)
    hit = dist >= 0
    point = origin + dist * direction if hit else np.zeros(3)
    depth = dist if camera is None else -float((point - camera[0]) @ camera[1][:, 2])
    values = {"dist": [dist], "dir": direction if hit else np.zeros(3), "origin": origin, "point": point,
              "normal": normal if hit else np.zeros(3), "depth": [depth if hit else -1.0]}
    return np.concatenate([values[k] for i, k in enumerate(RAYDATA) if bits >> i & 1])


def rangefinder(model, data, s):
    """The rangefinder's ``data`` fields: one ray from its site along the site's z axis, or
    one per pixel of its camera, row by row from the top (:func:`pixel_ray`)."""
    m, bits = model, int(model.sensor_intprm[s, 0])
    if m.sensor_objtype[s] == OBJ_SITE:
        site = m.sensor_objid[s]
        return _ray_fields(m, data, bits, data.site_xpos[site], data.site_xmat[site][:, 2], m.site_bodyid[site])
    k = m.sensor_objid[s]
    x, R = camera_pose(m, data, k)
    width, height = m.cam_resolution[k]
    return np.concatenate([_ray_fields(m, data, bits, *pixel_ray(m, k, x, R, col, row), m.cam_bodyid[k], (x, R))
                           for row in range(height) for col in range(width)])


def camera_pose(model, data, k):
    """Camera ``k``'s world position and orientation ``(x, R)``, ``cam_xpos`` and ``cam_xmat``
    of the position stage (:mod:`rbdl_edu.smooth.camera`)."""
    return data.cam_xpos[k], data.cam_xmat[k]


def intrinsics(model, k):
    """``(fx, fy, cx, cy)`` of camera ``k`` in pixels (MuJoCo's ``mju_camIntrinsics``): from
    the sensor size and ``cam_intrinsic`` if given, else from ``fovy``; for an orthographic
    camera the half image size."""
    width, height = model.cam_resolution[k]
    ss, f = model.cam_sensorsize[k], model.cam_intrinsic[k]
    if model.cam_projection[k] == 1:
        return width / 2, height / 2, width / 2, height / 2
    if ss[0] and ss[1]:                       # in single precision, as MuJoCo
        f, ss, size = np.float32(f), np.float32(ss), np.float32([width, height])
        return tuple(float(v) for v in (f[0] / ss[0] * size[0], f[1] / ss[1] * size[1], f[2] / ss[0] * size[0],
                                        f[3] / ss[1] * size[1]))
    focal = 0.5 / np.tan(model.cam_fovy[k] * np.pi / 360) * height
    return focal, focal, width / 2, height / 2


def pixel_ray(model, k, x, R, col, row):
    """The ray ``(origin, unit direction)`` through the center of pixel ``(col, row)`` of camera
    ``k`` at ``(x, R)`` (MuJoCo's ``mju_camPixelRay``): from the camera through the image
    plane (perspective), or parallel to the view axis from a point on the image plane whose
    height is ``fovy`` (orthographic)."""
    fx, fy, cx, cy = intrinsics(model, k)
    px, py = col + 0.5 - cx, row + 0.5 - cy
    if model.cam_projection[k] == 0:
        d = R @ np.array([px / fx, -py / fy, -1.0])
        return x, d / np.linalg.norm(d)
    half = model.cam_fovy[k] / 2
    return x + R @ np.array([px / fx * half, -py / fy * half, 0.0]), -R[:, 2]


def cam_projection(model, data, s):
    r"""``camprojection``: the site's pixel coordinates ``(u, v)`` in the camera image, origin
    at the top left: :math:`u = -f_x\,p_x/p_z + w/2`, :math:`v = f_y\,p_y/p_z + h/2` with
    :math:`p` the site in camera axes (not clipped; a point behind the camera projects too)."""
    m, site, k = model, model.sensor_objid[s], model.sensor_refid[s]
    x, R = camera_pose(m, data, k)
    width, height = m.cam_resolution[k]
    ss = m.cam_sensorsize[k]
    if ss[0] and ss[1]:                       # in single precision, as MuJoCo
        f, ss = np.float32(m.cam_intrinsic[k]), np.float32(ss)
        fx, fy = float(f[0] / ss[0] * np.float32(width)), float(f[1] / ss[1] * np.float32(height))
    else:
        fx = fy = 0.5 / np.tan(m.cam_fovy[k] * np.pi / 360) * height
    p = R.T @ (data.site_xpos[site] - x)
    z = p[2] if abs(p[2]) >= MINVAL else (-MINVAL if p[2] < 0 else MINVAL)
    return np.array([-fx * p[0] / z + 0.5 * width, fy * p[1] / z + 0.5 * height])


def inside_site(model, data, s):
    """1.0 if the object's frame origin is inside the site's volume (``mju_insideGeom``)."""
    m = model
    objtype, objid, site = m.sensor_objtype[s], m.sensor_objid[s], m.sensor_refid[s]
    x = camera_pose(m, data, objid)[0] if objtype == OBJ_CAMERA else frame_of(m, data, objtype, objid)[0]
    if objtype == OBJ_BODY and objid > 0 and m.body_mass[objid] < MINVAL and m.body_subtreemass[objid] >= MINVAL:
        x = data.subtree_com[objid]            # a massless body with mass below it: its subtree's com
    return float(inside_shape(data.site_xpos[site], data.site_xmat[site], m.site_size[site], m.site_type[site], x))


def geom_distance(model, data, g1, g2, distmax):
    """MuJoCo's ``mj_geomDistance``: ``(dist, fromto)``, the smallest signed distance below
    ``distmax`` between geoms ``g1`` and ``g2`` and the segment from ``g1``'s surface to
    ``g2``'s; ``(distmax, zeros)`` if nothing is that close (or there is no collider for the
    pair: two planes). Pairs MuJoCo hands to its convex collider, and two boxes, take the
    GJK/EPA distance and witness points (:func:`~rbdl_edu.collision.convex.signed_distance`,
    MuJoCo's ``mjc_ccd``); the others their collider's contacts with ``distmax`` as margin."""
    m = model
    flip = m.geom_type[g1] > m.geom_type[g2]
    a, b = (g2, g1) if flip else (g1, g2)
    collider = COLLIDERS.get((int(m.geom_type[a]), int(m.geom_type[b])))
    dist, fromto = distmax, np.zeros(6)
    if collider is None:
        return dist, fromto
    if collider in (convex, box_box) and not m.opt.disabled("nativeccd"):
        out = signed_distance(m, data.geom_xpos, data.geom_xmat, g1, g2)
        if out is not None and out[0] < distmax:
            dist, fromto = out[0], np.concatenate([out[2], out[3]])
        return dist, fromto
    if collider in CONVEX:
        contacts = collider(m, data.geom_xpos, data.geom_xmat, a, b, distmax)
    else:
        contacts = collider(data.geom_xpos[a], data.geom_xmat[a], m.geom_size[a],
                            data.geom_xpos[b], data.geom_xmat[b], m.geom_size[b], distmax)
    for d, pos, n, _ in contacts:
        if d < dist:
            sign = -1.0 if flip else 1.0
            dist, fromto = d, np.concatenate([pos - 0.5 * sign * d * n, pos + 0.5 * sign * d * n])
    return dist, fromto


def _geoms(model, objtype, objid):
    if objtype == OBJ_BODY:
        return range(model.body_geomadr[objid], model.body_geomadr[objid] + model.body_geomnum[objid])
    return [objid]


def geom_pair(model, data, s):
    """``distance``, ``normal`` or ``fromto`` between the sensor's two geoms or bodies: the
    pair of their geoms with the smallest distance below the ``cutoff``."""
    m = model
    dist, fromto = m.sensor_cutoff[s], np.zeros(6)
    for g1 in _geoms(m, m.sensor_objtype[s], m.sensor_objid[s]):
        for g2 in _geoms(m, m.sensor_reftype[s], m.sensor_refid[s]):
            d, ft = geom_distance(m, data, g1, g2, m.sensor_cutoff[s])
            if d < dist:
                dist, fromto = d, ft
    kind = SENSOR_NAMES[int(m.sensor_type[s])]
    if kind == "distance":
        return dist
    if kind == "normal":
        n = fromto[3:] - fromto[:3]
        return n / np.linalg.norm(n) if np.any(n != 0) else n
    return fromto
