r"""The ``touch`` sensors, all of them in one pass over the contacts (MuJoCo's touch sensor in
``mj_sensorAcc``; book, chapters 8 and 10).

A touch sensor reads the normal forces of the contacts of its site's body whose force ray,
from the contact point along the normal force (pointing into the site's body), meets the
site's volume, its zone. A contact with constraint rows (``efc_address >= 0``) pushes with the
forces of its rows (:func:`~rbdl_edu.constraint.rows.contact_force`): an elliptic cone's
first row is its normal force; a pyramid's normal force is the sum of its
:math:`2(\mathrm{dim} - 1)` edge forces; an adhesive contact reports the net force, less its
adhesion.

A walking robot has a handful of contacts and each is a few numbers: here they are Python
numbers (``efc_force`` read once as a list), not arrays. Measured inside a step of the
trotting mouse (4 touch sensors, 5 contacts, 2026-11), this pass costs about a fifth of the
same computed as array operations over all contacts and sensors (their many small NumPy calls
cost more than the arithmetic).

The simulation stages are float-only (NumPy).

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
...   <body pos="0 0 .099"><freejoint/><geom size=".1" mass="1"/><site name="s" size=".11"/></body>
...   </worldbody><sensor><touch site="s"/></sensor></mujoco>''')
>>> data = rbd.Data(model); rbd.forward(model, data)
>>> touch(model, data, np.array([0])).round(4)         # a 1 kg ball pressed 1 mm into the floor
array([11.8195])
"""
from __future__ import annotations

import math

import numpy as np

from rbdl_edu.collision.ray import ray_geom
from rbdl_edu.model.enums import MINVAL, SPHERE
from rbdl_edu.model.frozen import plain


def touch(model, data, sites):
    """``(len(sites),)``: what the touch sensors on ``sites`` read, in one pass over the contacts:
    each contact with rows that pushes (normal force > 0) adds its normal force to every
    sensor whose site's body it touches and whose zone its force ray meets (:func:`ray_meets_site`)."""
    m = plain(model)
    site_body = m.site_bodyid[sites].tolist()
    total = [0.0] * len(sites)
    f = None
    for con in data.contact:
        bodies = (int(m.geom_bodyid[con.geom1]), int(m.geom_bodyid[con.geom2]))
        if con.efc_address < 0 or (bodies[0] not in site_body and bodies[1] not in site_body):
            continue
        f = data.efc_force.tolist() if f is None else f
        normal = normal_force(m, con, f)
        if normal <= 0:
            continue
        for i, body in enumerate(site_body):
            if body in bodies:
                # the normal points from geom1 to geom2: turned where the site's body is geom2's
                ray = con.frame[0] * (-1.0 if body == bodies[1] else 1.0)
                if ray_meets_site(m, data, sites[i], con.pos, ray):
                    total[i] += normal
    return np.array(total)


def normal_force(model, con, efc_force):
    r"""The normal force of contact ``con`` (with rows) from ``efc_force`` (a list): its first row
    (an elliptic cone, or a contact of dim 1), or :math:`\sum_k (f_{k+} + f_{k-})`, its pyramid's
    edge forces added one by one (MuJoCo's ``mj_contactForce``); less the contact's adhesion
    (:func:`~rbdl_edu.constraint.rows.contact_force`'s first entry)."""
    a = con.efc_address
    if con.dim == 1 or model.opt.cone == "elliptic":
        return efc_force[a] - con.adhesion
    return sum(efc_force[a:a + 2 * (con.dim - 1)]) - con.adhesion


def ray_meets_site(model, data, s, pnt, vec):
    r"""True if the ray :math:`p + x\,v`, :math:`x \ge 0`, meets the volume of site ``s``
    (:func:`~rbdl_edu.collision.ray.ray_geom` :math:`\ge 0`). A sphere as MuJoCo's ``ray_sphere``,
    on numbers: with :math:`d = p - x_s`, the ray meets the sphere of radius :math:`r` where
    :math:`(v \cdot v)\,x^2 + 2 (v \cdot d)\,x + d \cdot d - r^2 = 0` has a root :math:`x \ge 0`,
    that is where its larger root :math:`(-b + \sqrt{b^2 - ac})/a` is not negative."""
    m = plain(model)
    if m.site_type[s] != SPHERE:
        return ray_geom(data.site_xpos[s], data.site_xmat[s], m.site_size[s], pnt, vec, m.site_type[s]) >= 0
    (vx, vy, vz), (px, py, pz), (sx, sy, sz) = vec.tolist(), pnt.tolist(), data.site_xpos[s].tolist()
    dx, dy, dz = px - sx, py - sy, pz - sz
    a, b = vx * vx + vy * vy + vz * vz, vx * dx + vy * dy + vz * dz
    c = dx * dx + dy * dy + dz * dz - float(m.site_size[s, 0]) ** 2
    det = b * b - a * c
    return det >= 0 and a >= MINVAL and math.sqrt(det) >= b
