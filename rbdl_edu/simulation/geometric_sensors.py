r"""Sensors that look at the geometry (MuJoCo's ``mj_sensorPos``, book, chapter 10):

=================  ===========================================================================
``rangefinder``    a ray along the site's :math:`z` axis (:func:`~rbdl_edu.collision.raycast.ray_scene`,
                   the site's own body excluded): the fields of its ``data``, in order,
                   ``dist`` (-1: no hit), ``dir``, ``origin``, ``point``, ``normal``, ``depth``
                   (``dir``, ``point``, ``normal`` are zero without a hit)
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

from rbdl_edu.collision.driver import COLLIDERS
from rbdl_edu.collision.raycast import inside_shape, ray_scene
from rbdl_edu.model.enums import MINVAL, OBJ_BODY, RAYDATA, SENSOR_NAMES
from rbdl_edu.smooth.comframe import frame_of

__all__ = ["rangefinder", "inside_site", "geom_pair", "geom_distance"]


def rangefinder(model, data, s):
    """The rangefinder's ``data`` fields for one ray from its site along the site's z axis."""
    m, site = model, model.sensor_objid[s]
    origin, direction = data.site_xpos[site], data.site_xmat[site][:, 2]
    dist, _, normal = ray_scene(m, data, origin, direction, m.site_bodyid[site])
    hit = dist >= 0
    point = origin + dist * direction if hit else np.zeros(3)
    values = {"dist": [dist], "dir": direction if hit else np.zeros(3), "origin": origin, "point": point,
              "normal": normal if hit else np.zeros(3), "depth": [dist if hit else -1.0]}
    bits = int(m.sensor_intprm[s, 0])
    return np.concatenate([values[k] for i, k in enumerate(RAYDATA) if bits >> i & 1])


def inside_site(model, data, s):
    """1.0 if the object's frame origin is inside the site's volume (``mju_insideGeom``)."""
    m = model
    objtype, objid, site = m.sensor_objtype[s], m.sensor_objid[s], m.sensor_refid[s]
    x = frame_of(m, data, objtype, objid)[0]
    if objtype == OBJ_BODY and objid > 0 and m.body_mass[objid] < MINVAL and m.body_subtreemass[objid] >= MINVAL:
        x = data.subtree_com[objid]            # a massless body with mass below it: its subtree's com
    return float(inside_shape(data.site_xpos[site], data.site_xmat[site], m.site_size[site], m.site_type[site], x))


def geom_distance(model, data, g1, g2, distmax):
    """MuJoCo's ``mj_geomDistance``: ``(dist, fromto)``, the smallest signed distance below
    ``distmax`` between geoms ``g1`` and ``g2`` and the segment from ``g1``'s surface to
    ``g2``'s; ``(distmax, zeros)`` if the colliders find nothing that close (or have no
    collider for the pair: two planes)."""
    m = model
    flip = m.geom_type[g1] > m.geom_type[g2]
    a, b = (g2, g1) if flip else (g1, g2)
    collider = COLLIDERS.get((int(m.geom_type[a]), int(m.geom_type[b])))
    dist, fromto = distmax, np.zeros(6)
    if collider is None:
        return dist, fromto
    for d, pos, n, _ in collider(data.geom_xpos[a], data.geom_xmat[a], m.geom_size[a],
                                 data.geom_xpos[b], data.geom_xmat[b], m.geom_size[b], distmax):
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
