r"""Camera poses, ``cam_xpos (ncam, 3)`` and ``cam_xmat (ncam, 3, 3)`` (MuJoCo's
``mj_camlight``): where each camera is and which way it looks (its -z axis; x right, y up).
Cameras do not change the dynamics; the sensors that look through one
(``camprojection``, a rangefinder on a camera, ``insidesite``) read these.

============== ==============================================================================
``mode``        pose
============== ==============================================================================
fixed           on its body: :math:`x = x_b + R_b p`, :math:`R = R(q_b \otimes q_c)`
track           the orientation it had at ``qpos0`` (``cam_mat0``), the body's position plus
                the offset it had there: :math:`x = x_b + (x^0 - x_b^0)` (``cam_pos0``)
trackcom        the same about the body's subtree center of mass (``cam_poscom0``, the offset
                from the *target*'s subtree com at ``qpos0`` when a target is given)
targetbody      at its fixed position, turned to look at the target body's origin (or its
                subtree com, ``targetbodycom``) with x horizontal: :math:`z = (x - x_t)/|\cdot|`,
                :math:`x = \hat e_z \times z` normalized, :math:`y = z \times x`
============== ==============================================================================

The ``*0`` constants come from the fixed pose at ``qpos0`` (:func:`camera_constants`, run by
:func:`rbdl_edu.setconst.set_const`).

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><body name="b" pos="0 0 1"><freejoint/>
...   <geom size=".1"/><camera mode="track" pos="0 -2 0" xyaxes="1 0 0 0 0 1"/></body></worldbody></mujoco>''')
>>> data = rbd.Data(model); data.qpos[:3] = [5, 0, 2]; data.qpos[3:] = [0, 1, 0, 0]; rbd.forward(model, data)
>>> data.cam_xpos[0], data.cam_xmat[0, :, 2]     # 2 m behind the ball, looking along +y as at qpos0
(array([ 5., -2.,  2.]), array([ 0., -1.,  0.]))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import namespace, stacked
from rbdl_edu.model.enums import MINVAL
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import quat_mul, quat_to_mat

__all__ = ["camera_poses", "camera_constants", "FIXED", "TRACK", "TRACKCOM", "TARGETBODY", "TARGETBODYCOM"]

FIXED, TRACK, TRACKCOM, TARGETBODY, TARGETBODYCOM = range(5)


def _fixed(model, data, k):
    m = plain(model)
    b = m.cam_bodyid[k]
    return data.xpos[b] + data.xmat[b] @ m.cam_pos[k], quat_to_mat(quat_mul(data.xquat[b], m.cam_quat[k]))


def _unit(v):
    """``v`` normalized as MuJoCo's ``mju_normalize3`` (times the inverse norm; a vector
    shorter than 1e-15 becomes the x axis)."""
    xp = namespace(v)
    norm = xp.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2])
    return xp.where(norm < MINVAL, xp.asarray([1.0, 0.0, 0.0]), v * (1 / xp.maximum(norm, MINVAL)))


def _look_at(x, target):
    """The camera frame at ``x`` whose -z looks at ``target``, its x axis horizontal."""
    xp = namespace(x, target)
    z = _unit(x - target)
    xaxis = _unit(xp.cross(xp.asarray([0.0, 0.0, 1.0]), z))
    return xp.stack([xaxis, _unit(xp.cross(z, xaxis)), z], axis=1)


def camera_poses(model, data):
    """Fill ``data.cam_xpos`` and ``data.cam_xmat`` (needs kinematics and ``subtree_com``)."""
    m = plain(model)
    if not m.ncam and type(data.xpos) is np.ndarray:      # no camera, numbers: nothing to place (a Data
        return                                            # holds the fields, empty, from the start)
    xpos, xmat = [], []
    for k in range(m.ncam):
        b, t, mode = m.cam_bodyid[k], m.cam_targetbodyid[k], m.cam_mode[k]
        x, R = _fixed(m, data, k)
        if mode in (TRACK, TRACKCOM):
            R = m.cam_mat0[k]
            x = data.xpos[b] + m.cam_pos0[k] if mode == TRACK else data.subtree_com[b] + m.cam_poscom0[k]
        elif mode in (TARGETBODY, TARGETBODYCOM) and t >= 0:
            R = _look_at(x, data.xpos[t] if mode == TARGETBODY else data.subtree_com[t])
        xpos.append(x)
        xmat.append(R)
    data.cam_xpos = stacked(xpos, (m.ncam, 3), data.xpos)
    data.cam_xmat = stacked(xmat, (m.ncam, 3, 3), data.xpos)


def camera_constants(model, data):
    """``cam_pos0``, ``cam_poscom0`` and ``cam_mat0`` from the fixed poses at ``data`` (the
    kinematics and com frames at ``qpos0``), as MuJoCo's ``mj_setConst``."""
    m = model
    pos0, poscom0, mat0 = np.zeros((m.ncam, 3)), np.zeros((m.ncam, 3)), np.zeros((m.ncam, 3, 3))
    for k in range(m.ncam):
        b, t = m.cam_bodyid[k], m.cam_targetbodyid[k]
        x, mat0[k] = _fixed(m, data, k)
        pos0[k], poscom0[k] = x - data.xpos[b], x - data.subtree_com[t if t >= 0 else b]
    return dict(cam_pos0=pos0, cam_poscom0=poscom0, cam_mat0=mat0)
