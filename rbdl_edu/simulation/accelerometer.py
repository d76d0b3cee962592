r"""The ``accelerometer`` sensor (MuJoCo's in ``mj_sensorAcc``; book, chapter 8): what an
accelerometer at a site reads, the classical acceleration of the site's origin less gravity's,
in the site's axes.

The body's c-frame velocity :math:`[\omega; v_c]` (``cvel``) and acceleration
:math:`[\alpha; a_c]` (``cacc``, :func:`~rbdl_edu.simulation.rne_post.rne_post_constraint`;
it holds the world's fictitious upward :math:`-g`, which is why a resting accelerometer reads
:math:`+g`) are about the point :math:`c` of the body's tree (``subtree_com`` of its root).
The site's origin :math:`x_s` moves at :math:`v = v_c + \omega \times r`,
:math:`r = x_s - c`, and accelerates at

.. math:: a = a_c + \alpha \times r + \omega \times v,

read in the site's axes: :math:`R_s^T a`
(:func:`~rbdl_edu.smooth.comframe.object_acceleration` with ``local=True``, which symbols and
JAX go through). On one state of numbers these are a few 3-vectors: they are Python floats
here, several times faster than NumPy's calls on 3-vectors (the same lines, the same bits).

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><body><freejoint/><geom size=".1"/><site name="s"/></body>
...   </worldbody><sensor><accelerometer site="s"/></sensor></mujoco>''')
>>> data = rbd.Data(model); rbd.forward(model, data); data.sensordata      # falling freely: nothing
array([0., 0., 0.])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import FLOAT64
from rbdl_edu.model.enums import OBJ_SITE
from rbdl_edu.model.frozen import plain
from rbdl_edu.smooth.comframe import object_acceleration


def accelerometer(model, data, s):
    """``(3,)``: what accelerometer ``s`` reads, :math:`R_s^T (a_c + \\alpha \\times r + \\omega
    \\times (v_c + \\omega \\times r))` (module docstring)."""
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
