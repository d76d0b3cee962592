r"""MuJoCo 4.0's SO(3) servo (``<orientation>``; ``gaintype`` and ``biastype="so3"``,
transmission ``so3``): one actuator that turns a ball joint, or a site relative to a
reference site, towards a target orientation :math:`q_t`, with **three force outputs**, a
torque vector.

Its three lengths are the rotation vector of the current orientation :math:`q`, in the child
(site) frame, and its three moment rows the angular Jacobian seen in that frame:

.. math:: l = \log q, \qquad \mathrm{moment} = R^T (J_r - J_{r,ref}), \qquad
          \dot l_k = \mathrm{moment}_k\,\dot q

(on a ball joint :math:`q` is the joint's quaternion and the rows are the identity at its
dofs; with sites, :math:`q = q_{ref}^* q_{site}` and the dofs that move both sites are left
out). The torque is a PD law on the geodesic error, the rotation from :math:`q` to
:math:`q_t` (``kp = gainprm[0] = -biasprm[1]``, ``kv = -biasprm[2]``):

.. math:: e = \log(q^* q_t), \qquad f = k_p e + b_0 + b_2 \dot l

and a ``forcerange`` :math:`[0, F]` bounds its norm, keeping its direction. The target comes
from the controls (``actuator_ctrlspec``): a rotation vector :math:`u` (``input="expmap"``,
3 controls, :math:`q_t = \exp u`), or a quaternion (``input="quat"``, 4 controls, normalized;
zero is the identity). With ``dyntype="integrator"`` the three states ``act`` integrate the
controls and are the rotation vector; after each step a state of angle beyond :math:`\pi` is
replaced by the same rotation of angle in :math:`[-\pi, \pi]`.

Reference: MuJoCo's XML reference, ``actuator/orientation``; ``engine_core_smooth.c``
(``mjTRN_SO3``) and ``engine_forward.c`` (``mjGAIN_SO3``).

>>> e = error(np.zeros(3), np.array([np.cos(0.25), 0.0, 0.0, np.sin(0.25)]))
>>> np.round(e, 12)                       # half a radian about z
array([0. , 0. , 0.5])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import is_jax
from rbdl_edu.model.enums import CHART_QUAT, DYN_NONE, MINVAL
from rbdl_edu.rotation import quat_conj, quat_mul
from rbdl_edu.smooth.comframe import jac, path_dofs

__all__ = ["so3_transmission", "target", "error", "so3_force", "clamp_norm", "reanchor", "expmap", "quat2vel"]


def _normalize3(v):
    """``(unit vector, norm)``, MuJoCo's ``mju_normalize3`` (a null vector gives the x axis)."""
    n = float(np.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]))
    if n < MINVAL:
        return np.array([1.0, 0.0, 0.0]), n
    return (v * (1 / n) if abs(n - 1) > MINVAL else np.array(v, dtype=float)), n


def _normalize4(q):
    """MuJoCo's ``mju_normalize4``: a null quaternion becomes the identity."""
    q = np.array(q, dtype=float)
    n = float(np.sqrt(q @ q))
    if n < MINVAL:
        return np.array([1.0, 0.0, 0.0, 0.0])
    return q * (1 / n) if abs(n - 1) > MINVAL else q


def quat2vel(q):
    r"""The rotation vector of a unit quaternion, angle in :math:`(-\pi, \pi]` (MuJoCo's
    ``mju_quat2Vel`` over a unit time)."""
    axis, s = _normalize3(np.asarray(q[1:], dtype=float))
    angle = 2 * np.arctan2(s, q[0])
    if angle > np.pi:
        angle -= 2 * np.pi
    return axis * angle


def expmap(v):
    r"""The quaternion of a rotation vector :math:`v`: :math:`(\cos\frac{|v|}{2},
    \sin\frac{|v|}{2}\,v/|v|)`, the identity below ``MINVAL``."""
    angle = float(np.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]))
    if angle < MINVAL:
        return np.array([1.0, 0.0, 0.0, 0.0])
    s = np.sin(angle * 0.5)
    return np.array([np.cos(angle * 0.5), v[0] / angle * s, v[1] / angle * s, v[2] / angle * s])


def so3_transmission(model, data, i):
    """SO(3) servo ``i``'s three lengths (a rotation vector) and moment rows ``(3, nv)``."""
    m = model
    if is_jax(data.qpos) or data.qpos.dtype == object:
        raise ValueError(f"actuator {m.actuator_names[i] or i}: an <orientation> servo is computed with NumPy "
                         "floats only (not traced by JAX, not symbolic)")
    obj, ref = int(m.actuator_trnid[i, 0]), int(m.actuator_trnid[i, 1])
    moment = np.zeros((3, m.nv))
    if ref < 0:                               # a ball joint: its rotation vector, its dofs
        qa, da = m.jnt_qposadr[obj], m.jnt_dofadr[obj]
        moment[:, da:da + 3] = np.eye(3)
        return list(quat2vel(_normalize4(data.qpos[qa:qa + 4]))), list(moment)
    # a site relative to the reference site: l = log(q_ref^* q_site)
    b, bref = m.site_bodyid[obj], m.site_bodyid[ref]
    q = quat_mul(data.xquat[b], m.site_quat[obj])
    qref = quat_mul(data.xquat[bref], m.site_quat[ref])
    length = quat2vel(quat_mul(quat_conj(qref), q))
    # rows: the site's axes dotted with the relative angular Jacobian (shared dofs move neither)
    Jr = jac(m, data, b, data.site_xpos[obj])[1] - jac(m, data, bref, data.site_xpos[ref])[1]
    Jr[:, np.intersect1d(path_dofs(m, b), path_dofs(m, bref)).astype(int)] = 0.0
    moment = np.asarray(data.site_xmat[obj]).T @ Jr
    return list(length), list(moment)


def target(model, i, u, act, act_next=None):
    """Servo ``i``'s target quaternion from its controls ``u`` (all, clamped) or, with
    integrator dynamics, its states in ``act`` (``act_next``: the states after this step,
    for ``actearly``)."""
    m = model
    a = int(m.actuator_ctrladr[i])
    if m.actuator_ctrlspec[i] == CHART_QUAT:
        return _normalize4(u[a:a + 4])
    if m.actuator_dyntype[i] == DYN_NONE:
        return expmap(np.asarray(u[a:a + 3], dtype=float))
    s = int(m.actuator_actadr[i])
    return expmap(np.asarray((act if act_next is None else act_next)[s:s + 3], dtype=float))


def error(length, q_target):
    r"""The geodesic error :math:`e = \log(q^* q_t)`, :math:`q = \exp l` (MuJoCo's
    ``mju_subQuat``): the rotation vector, in the child frame, that turns the current
    orientation onto the target."""
    return quat2vel(quat_mul(quat_conj(expmap(length)), q_target))


def so3_force(model, i, length, velocity, q_target):
    r"""Servo ``i``'s torque ``(3,)`` before its force range: :math:`k_p e + b_0 + b_2 \dot l`."""
    kp, b = model.actuator_gainprm[i, 0], model.actuator_biasprm[i]
    return kp * error(length, q_target) + b[0] + b[2] * np.asarray(velocity, dtype=float)


def clamp_norm(f, high):
    """A torque whose norm exceeds ``high`` scaled back to it (its direction kept)."""
    n = float(np.sqrt(f @ f))
    return f * (high / n) if n > high else f


def reanchor(v):
    r"""A rotation vector of angle beyond :math:`\pi` as the same rotation with angle in
    :math:`[-\pi, \pi]`: scaled by :math:`(\theta - 2\pi\,\mathrm{round}(\theta / 2\pi))/\theta`."""
    v = np.asarray(v, dtype=float)
    angle = float(np.sqrt(v @ v))
    if angle <= np.pi:
        return v
    x = angle / (2 * np.pi)
    return v * ((angle - 2 * np.pi * np.sign(x) * np.floor(abs(x) + 0.5)) / angle)
