r"""Transmissions: an actuator's length :math:`l(q)` and moment arm
:math:`\partial l/\partial q` (MuJoCo's ``mj_transmission``).

The gear :math:`g` (``actuator_gear (nout, 6)``, actuator ``i``'s at ``actuator_outadr[i]``)
scales both, so a force :math:`f` on the actuator is a force :math:`g f` on what it drives.

==================  ========================================================================
``joint``           a hinge or slide: :math:`l = g_0 q`, moment :math:`g_0` at its dof. A ball
                    joint: the gear's first three numbers are a torque axis :math:`a` in the
                    child frame, :math:`l = a \cdot r` (:math:`r` the rotation vector of its
                    quaternion), moment :math:`a`. A free joint: moment
                    :math:`[g_{0:3};\ g_{3:6}]` (a force in the world, a torque in the body),
                    :math:`l = 0`.
``jointinparent``   the same, but a ball's (free joint's) torque axis is given in the parent
                    frame: :math:`a = R^T g` with :math:`R` the joint's rotation.
``tendon``          :math:`l = g_0 L`, moment :math:`g_0 J` (:mod:`rbdl_edu.smooth.tendon`).
``site``            a wrench :math:`g` in the site's frame applied at the site: moment
                    :math:`J_p^T R g_{0:3} + J_r^T R g_{3:6}`, :math:`l = 0`. With a
                    ``refsite``: the site's position and rotation vector relative to the
                    reference site's frame, dotted with the gear, so :math:`l` means
                    something; the dofs both sites share move neither and are left out.
``slidercrank``     a rod of length :math:`r` from the crank site :math:`c` to a slider at
                    :math:`s` moving along the slider site's :math:`z` axis :math:`a`:
                    :math:`l = a\cdot v - \sqrt{(a\cdot v)^2 + r^2 - v\cdot v}`,
                    :math:`v = c - s`, differentiated by the chain rule through :math:`v`
                    and :math:`a`.
``body``            adhesion: minus the mean normal Jacobian of the body's contacts,
                    :math:`l = 0` (:mod:`rbdl_edu.smooth.adhesion`; needs the contacts).
``so3``             an ``<orientation>`` servo: three outputs, a ball joint's or a site's
                    rotation vector (relative to a reference site) and the rows of its
                    angular Jacobian (:mod:`rbdl_edu.smooth.so3`; the gear is not used).
==================  ========================================================================


Reference: chapter 8 (Simulation: actuators); MuJoCo's documentation, Computation,
"Actuation model", and XML reference ``actuator/general``.

>>> import rbdl_edu as rbd
>>> from rbdl_edu.kinematics import kinematics
>>> from rbdl_edu.smooth.comframe import com_pos
>>> model = rbd.load_mjcf('''<mujoco><worldbody><body><joint name="j" type="slide"/><geom size=".1"/>
...   </body></worldbody><actuator><motor joint="j" gear="3"/></actuator></mujoco>''')
>>> data = rbd.Data(model); data.qpos[:] = [0.5]
>>> kinematics(model, data); com_pos(model, data); transmission(model, data)
>>> data.actuator_length, data.actuator_moment
(array([1.5]), array([[3.]]))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import put, stacked
from rbdl_edu.cache import per_model
from rbdl_edu.model.enums import (BALL, BIAS_AFFINE, FREE, GAIN_FIXED, GAIN_PID, TRN_BODY, TRN_JOINT, TRN_JOINTINPARENT,
                                  TRN_SITE, TRN_SLIDERCRANK, TRN_SO3, TRN_TENDON)
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import cross, quat_conj, quat_log, quat_mul, quat_normalize, quat_to_mat
from rbdl_edu.smooth.adhesion import body_transmission
from rbdl_edu.smooth.comframe import jac, path_dofs
from rbdl_edu.smooth.so3 import so3_transmission


def transmission(model, data):
    """Fill ``actuator_length (nout,)`` and ``actuator_moment (nout, nv)``, a row per force output (MuJoCo's
    ``mj_transmission``). Needs the poses of :func:`~rbdl_edu.kinematics.kinematics`,
    :func:`~rbdl_edu.smooth.comframe.com_pos` and, for tendon transmissions,
    :func:`~rbdl_edu.smooth.tendon.tendon`."""
    m = plain(model)
    if not m.nactuator and type(data.qpos) is np.ndarray:   # no actuator, numbers: no output (a Data
        return                                              # holds the fields, empty, from the start)
    fixed = hinge_transmissions(model)
    if fixed is not None and type(data.qpos) is np.ndarray:    # every one on a hinge or slide, numbers:
        adr, gear, moment = fixed                              # l = g q, all at once (the loop's numbers)
        data.actuator_length, data.actuator_moment = data.qpos[adr] * gear, moment.copy()
        return
    length, moment = [], []                    # per actuator (rows, so that jax.jit traces them)
    for i in range(m.nactuator):
        trn, gear = m.actuator_trntype[i], m.actuator_gear[m.actuator_outadr[i]]
        if trn in (TRN_JOINT, TRN_JOINTINPARENT):
            l_i, moment_i = joint_transmission(model, data.qpos, i)
        elif trn == TRN_TENDON:
            t = m.actuator_trnid[i, 0]
            l_i, moment_i = gear[0] * data.ten_length[t], gear[0] * data.ten_J[t]
        elif trn == TRN_SITE:
            l_i, moment_i = site_transmission(model, data, i)
        elif trn == TRN_SLIDERCRANK:
            l_i, moment_i = slider_crank(model, data, i)
        elif trn == TRN_BODY:
            l_i, moment_i = body_transmission(model, data, i)
        elif trn == TRN_SO3:                   # three outputs: a rotation vector and its rows
            l_i, moment_i = so3_transmission(model, data, i)
            length.extend(l_i)
            moment.extend(moment_i)
            continue
        else:
            raise ValueError(f"actuator {m.actuator_names[i] or i}: transmission type {trn} is not supported")
        length.append(l_i)
        moment.append(moment_i)
    data.actuator_length = stacked(length, (m.nout,), data.qpos)
    data.actuator_moment = stacked(moment, (m.nout, m.nv), data.qpos)


def joint_transmission(model, qpos, i):
    """Length and moment row ``(nv,)`` of actuator ``i`` on a joint (``joint`` or
    ``jointinparent``)."""
    m = plain(model)
    j, gear = m.actuator_trnid[i, 0], m.actuator_gear[m.actuator_outadr[i]]
    qa, da = m.jnt_qposadr[j], m.jnt_dofadr[j]
    if m.jnt_type[j] not in (BALL, FREE):
        return qpos[qa] * gear[0], hinge_moment(model, i)       # hinge, slide: l = g q
    in_parent = m.actuator_trntype[i] == TRN_JOINTINPARENT
    moment = np.zeros(m.nv)
    if m.jnt_type[j] == BALL:
        q = quat_normalize(qpos[qa:qa + 4])
        # a torque axis in the child frame; given in the parent frame, it is R^T g
        axis = quat_to_mat(q).T @ gear[:3] if in_parent else gear[:3]
        return quat_log(q) @ axis, put(moment, slice(da, da + 3), axis)    # l = a . (rotation vector)
    if m.jnt_type[j] == FREE:
        q = quat_normalize(qpos[qa + 3:qa + 7])
        # a force in the world frame, a torque in the body frame (given in the world: R^T g)
        moment[da:da + 3] = gear[:3]
        return 0.0, put(moment, slice(da + 3, da + 6), quat_to_mat(q).T @ gear[3:6] if in_parent else gear[3:6])


@per_model
def hinge_transmissions(model):
    """If every actuator acts on a hinge or slide (``joint``, ``jointinparent``): their joints'
    ``qpos`` addresses, gears and moment rows ``(nactuator, nv)``; else None."""
    m = plain(model)
    joints = m.actuator_trnid[:, 0]
    if not (np.isin(m.actuator_trntype, (TRN_JOINT, TRN_JOINTINPARENT)).all() and m.nout == m.nactuator
            and not np.isin(m.jnt_type[joints], (BALL, FREE)).any()):
        return None
    return m.jnt_qposadr[joints], m.actuator_gear[m.actuator_outadr, 0], np.array(
        [hinge_moment(model, i) for i in range(m.nactuator)]).reshape(m.nactuator, m.nv)


@per_model
def hinge_moment(model, i):
    """The moment row ``(nv,)`` of actuator ``i`` on a hinge or slide: ``g`` at the joint's dof
    (it does not depend on the state: made once per model)."""
    moment = np.zeros(model.nv)
    moment[model.jnt_dofadr[model.actuator_trnid[i, 0]]] = model.actuator_gear[model.actuator_outadr[i], 0]
    return moment


def site_transmission(model, data, i):
    """Length and moment row ``(nv,)`` of actuator ``i`` on a site (with or without a
    reference site)."""
    m = model
    s, ref, gear = m.actuator_trnid[i, 0], m.actuator_trnid[i, 1], m.actuator_gear[m.actuator_outadr[i]]
    b = m.site_bodyid[s]
    jacp, jacr = jac(m, data, b, data.site_xpos[s])
    if ref < 0:
        # the wrench g in the site's frame, turned to the world: moment = Jp^T R g_f + Jr^T R g_t
        R = data.site_xmat[s]
        return 0.0, jacp.T @ (R @ gear[:3]) + jacr.T @ (R @ gear[3:6])
    # relative to the reference site's frame; dofs that move both sites do not count
    R = data.site_xmat[ref]
    ref_jacp, ref_jacr = jac(m, data, m.site_bodyid[ref], data.site_xpos[ref])
    shared = _shared_dofs(m, b, m.site_bodyid[ref])
    length, moment = 0.0, np.zeros(m.nv)
    if np.any(gear[:3] != 0):
        # l += (R^T (x_site - x_ref)) . g_f
        length += (R.T @ (data.site_xpos[s] - data.site_xpos[ref])) @ gear[:3]
        Jrel = jacp - ref_jacp
        Jrel[:, shared] = 0.0
        moment += Jrel.T @ (R @ gear[:3])
    if np.any(gear[3:6] != 0):
        # l += log(q_ref^* q_site) . g_t: the site's rotation vector seen from the reference
        q, qref = _site_quat(m, data, s), _site_quat(m, data, ref)
        length += quat_log(quat_mul(quat_conj(qref), q)) @ gear[3:6]
        Jrel = jacr - ref_jacr
        Jrel[:, shared] = 0.0
        moment += Jrel.T @ (R @ gear[3:6])
    return float(length), moment


def slider_crank(model, data, i):
    r"""Length and moment row ``(nv,)`` of slider-crank actuator ``i``.

    With :math:`v = c - s`, :math:`a` the slider axis and :math:`\delta = (a\cdot v)^2 + r^2 - v\cdot v`:
    :math:`\partial l/\partial v = a (1 - a\cdot v/\sqrt\delta) + v/\sqrt\delta`,
    :math:`\partial l/\partial a = v (1 - a\cdot v/\sqrt\delta)`; if the rod cannot reach
    (:math:`\delta \le 0`), :math:`l = a\cdot v` and the derivatives are :math:`a` and :math:`v`.
    The axis turns with the slider body: :math:`\partial a/\partial q_k = \omega_k \times a`.
    """
    m = model
    crank, slider = m.actuator_trnid[i]
    rod, gear = m.actuator_cranklength[i], m.actuator_gear[m.actuator_outadr[i], 0]
    axis = data.site_xmat[slider][:, 2]
    v = data.site_xpos[crank] - data.site_xpos[slider]
    av = axis @ v
    det = av * av + rod * rod - v @ v
    if det <= 0:
        length, dl_dv, dl_da = av, axis, v
    else:
        sdet = np.sqrt(det)
        length = av - sdet
        dl_dv = axis * (1 - av / sdet) + v / sdet
        dl_da = v * (1 - av / sdet)
    jacp_s, jacr_s = jac(m, data, m.site_bodyid[slider], data.site_xpos[slider])
    jac_axis = cross(jacr_s.T, axis).T                     # column k: omega_k x a
    jac_v = jac(m, data, m.site_bodyid[crank], data.site_xpos[crank])[0] - jacp_s
    return float(length * gear), (dl_da @ jac_axis + dl_dv @ jac_v) * gear


def _site_quat(model, data, s):
    """Site ``s``'s world orientation as a quaternion: its body's times its own."""
    return quat_mul(data.xquat[model.site_bodyid[s]], model.site_quat[s])


def _shared_dofs(model, b0, b1):
    """The dofs on the paths of both bodies to the world (those move both together)."""
    return np.intersect1d(path_dofs(model, b0), path_dofs(model, b1)).astype(int)


@per_model
def wrap_period(model, i):
    r"""The period of actuator ``i``'s length if it is an angle that a servo should take
    the short way round, else 0 (MuJoCo 4.0). A rotation's length is an angle times
    :math:`|g|`: a setpoint :math:`u` and :math:`u + 2\pi|g|` are the same orientation. This
    holds for a servo (fixed gain, affine bias, :math:`k_p = -b_1`) or a PID on a site with a
    reference site and a purely rotational gear (period :math:`2\pi|g_{4:6}|`) or on a ball
    joint (period :math:`2\pi|g_{1:3}|`)."""
    m = model
    servo = (m.actuator_gaintype[i] == GAIN_FIXED and m.actuator_biastype[i] == BIAS_AFFINE
             and m.actuator_gainprm[i, 0] == -m.actuator_biasprm[i, 1])
    if not (servo or m.actuator_gaintype[i] == GAIN_PID):
        return 0.0
    trn, gear = m.actuator_trntype[i], m.actuator_gear[m.actuator_outadr[i]]
    if trn == TRN_SITE and m.actuator_trnid[i, 1] >= 0 and not np.any(gear[:3]):
        return 2 * np.pi * float(np.linalg.norm(gear[3:6]))
    if trn in (TRN_JOINT, TRN_JOINTINPARENT) and m.jnt_type[m.actuator_trnid[i, 0]] == BALL:
        return 2 * np.pi * float(np.linalg.norm(gear[:3]))
    return 0.0


def wrap_setpoint(u, length, period):
    r"""The setpoint equal to ``u`` modulo ``period`` nearest to ``length``:
    :math:`u - P\,\mathrm{round}((u - l)/P)` (halves rounded away from zero)."""
    x = (u - length) / period
    return u - period * float(np.sign(x) * np.floor(abs(x) + 0.5))
