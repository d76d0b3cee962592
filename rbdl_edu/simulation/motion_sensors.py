r"""The sensors of a frame's motion (book, chapter 8): ``framelinvel``, ``frameangvel``
(MuJoCo's in ``mj_sensorVel``) and ``accelerometer`` (in ``mj_sensorAcc``) -- the velocity and
the acceleration of a point of a body.

The body's c-frame velocity :math:`[\omega; v_c]` (``cvel``) and acceleration
:math:`[\alpha; a_c]` (``cacc``, :func:`~rbdl_edu.simulation.rne_post.rne_post_constraint`;
it holds the world's fictitious upward :math:`-g`, which is why a resting accelerometer reads
:math:`+g`) are about the point :math:`c` of the body's tree (``subtree_com`` of its root).
A point :math:`x` of the body (a frame's origin) moves at

.. math:: v = v_c + \omega \times r, \qquad r = x - c,

and accelerates at :math:`a = a_c + \alpha \times r + \omega \times v`. ``framelinvel`` reads
:math:`v`, ``frameangvel`` :math:`\omega` (both in world axes, or relative to a moving
reference frame: :mod:`~rbdl_edu.simulation.sensors`), an accelerometer at a site
:math:`R_s^T a` in the site's axes (:func:`~rbdl_edu.smooth.comframe.object_velocity`,
:func:`~rbdl_edu.smooth.comframe.object_acceleration`, which symbols and JAX go through). On
one state of numbers these are a few 3-vectors: they are Python floats here, several times
faster than NumPy's calls on 3-vectors (the same lines, the same bits).

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><body><freejoint/><geom size=".1"/><site name="s"/></body>
...   </worldbody><sensor><accelerometer site="s"/><framelinvel objtype="site" objname="s"/></sensor>
...   </mujoco>''')
>>> data = rbd.Data(model); data.qvel[:3] = 1.0; rbd.forward(model, data)
>>> data.sensordata                               # falling freely: the accelerometer reads nothing
array([0., 0., 0., 1., 1., 1.])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import FLOAT64
from rbdl_edu.model.enums import OBJ_SITE
from rbdl_edu.model.frozen import plain
from rbdl_edu.smooth.comframe import frame_of, object_acceleration, object_velocity


def accelerometer(model, data, s):
    """``(3,)``: what accelerometer ``s`` reads, :math:`R_s^T a` (module docstring)."""
    m, cacc = plain(model), data.cacc
    site = m.sensor_objid[s]
    if type(cacc) is not np.ndarray or cacc.dtype is not FLOAT64:      # symbols, JAX: as arrays
        return object_acceleration(m, data, OBJ_SITE, site, local=True)[3:]
    b = m.site_bodyid[site]
    (wx, wy, wz, vx, vy, vz), (ax, ay, az, cx, cy, cz) = data.cvel[b].tolist(), cacc[b].tolist()
    rx, ry, rz = (data.site_xpos[site] - data.subtree_com[m.body_rootid[b]]).tolist()
    # v = v_c + ω × r, then a = a_c + α × r + ω × v
    vx, vy, vz = vx + (wy * rz - wz * ry), vy + (wz * rx - wx * rz), vz + (wx * ry - wy * rx)
    cx, cy, cz = cx + (ay * rz - az * ry), cy + (az * rx - ax * rz), cz + (ax * ry - ay * rx)
    cx, cy, cz = cx + (wy * vz - wz * vy), cy + (wz * vx - wx * vz), cz + (wx * vy - wy * vx)
    return data.site_xmat[site].T @ np.array([cx, cy, cz])


def frame_velocity(model, data, objtype, objid, linear):
    """``(3,)``: the velocity :math:`v` (``linear``) or :math:`\\omega` of the origin of a body's
    frame, ``xbody``'s, a geom's or a site's, in world axes (module docstring)."""
    m, cvel = plain(model), data.cvel
    if type(cvel) is not np.ndarray or cvel.dtype is not FLOAT64:       # symbols, JAX: as arrays
        vel = object_velocity(m, data, objtype, objid)
        return vel[3:] if linear else vel[:3]
    x, _, b = frame_of(m, data, objtype, objid)
    if not linear:
        return cvel[b, :3].copy()
    wx, wy, wz, vx, vy, vz = cvel[b].tolist()
    rx, ry, rz = (x - data.subtree_com[m.body_rootid[b]]).tolist()
    return np.array([vx + (wy * rz - wz * ry), vy + (wz * rx - wx * rz), vz + (wx * ry - wy * rx)])
