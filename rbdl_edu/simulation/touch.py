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
from rbdl_edu.constraint.rows import contact_forces
from rbdl_edu.model.enums import MINVAL, SPHERE
from rbdl_edu.model.frozen import plain


def touch(model, data, sites):
    """``(len(sites),)``: what the touch sensors on ``sites`` read, in one pass over the contacts:
    each contact with rows that pushes (normal force > 0) adds its normal force to every
    sensor whose site's body it touches and whose zone its force ray meets (:func:`ray_meets_site`)."""
    m = plain(model)
    site_body, body = m.site_bodyid[sites].tolist(), m.geom_bodyid
    total = [0.0] * len(sites)
    f = None
    for con in data.contact:
        if con.efc_address < 0:
            continue
        bodies = (int(body[con.geom1]), int(body[con.geom2]))
        if bodies[0] not in site_body and bodies[1] not in site_body:
            continue
        f = data.efc_force.tolist() if f is None else f
        normal = contact_forces(m, [con], f)[0][0]
        if normal <= 0:
            continue
        n, pos = con.frame[0].tolist(), con.pos.tolist()
        for i, b in enumerate(site_body):
            if b in bodies:
                # the normal points from geom1 to geom2: turned where the site's body is geom2's
                ray = [-x for x in n] if b == bodies[1] else n
                if ray_meets_site(m, data, sites[i], pos, ray):
                    total[i] += normal
    return np.array(total)


def ray_meets_site(model, data, s, pnt, vec):
    r"""True if the ray :math:`p + x\,v`, :math:`x \ge 0`, meets the volume of site ``s``
    (:func:`~rbdl_edu.collision.ray.ray_geom` :math:`\ge 0`). A sphere as MuJoCo's ``ray_sphere``,
    on numbers: with :math:`d = p - x_s`, the ray meets the sphere of radius :math:`r` where
    :math:`(v \cdot v)\,x^2 + 2 (v \cdot d)\,x + d \cdot d - r^2 = 0` has a root :math:`x \ge 0`,
    that is where its larger root :math:`(-b + \sqrt{b^2 - ac})/a` is not negative."""
    m = plain(model)
    if m.site_type[s] != SPHERE:
        return ray_geom(data.site_xpos[s], data.site_xmat[s], m.site_size[s], np.asarray(pnt, dtype=float),
                        np.asarray(vec, dtype=float), m.site_type[s]) >= 0
    (vx, vy, vz), (px, py, pz) = _numbers(vec), _numbers(pnt)
    sx, sy, sz = data.site_xpos[s].tolist()
    dx, dy, dz = px - sx, py - sy, pz - sz
    a, b = vx * vx + vy * vy + vz * vz, vx * dx + vy * dy + vz * dz
    c = dx * dx + dy * dy + dz * dz - float(m.site_size[s, 0]) ** 2
    det = b * b - a * c
    return det >= 0 and a >= MINVAL and math.sqrt(det) >= b


def _numbers(x):
    """A 3-vector as three Python floats (an array's, or already numbers)."""
    return x.tolist() if isinstance(x, np.ndarray) else x
