r"""Constants that depend on the dynamics at ``qpos0`` (MuJoCo's ``mj_setConst``).

The compiler (:mod:`rbdl_edu.io`) imports no algorithm, so what needs one is computed
here, after compiling, by :func:`set_const`; :func:`rbdl_edu.load_model` does both.

* ``dof_M0``: the diagonal of the mass matrix at ``qpos0``;
* ``tendon_length0``, ``actuator_length0``: lengths at ``qpos0``; ``actuator_acc0``: the
  size of the joint acceleration a unit actuator force causes at ``qpos0``,
  :math:`|M^{-1}\,\mathrm{moment}^T|` (``M`` with joint and tendon armature);
* ``tendon_lengthspring``: a spring length of ``-1`` (not given) becomes the tendon's length
  at ``qpos_spring`` (the spring rest configuration), as MuJoCo's ``mj_setConst`` does;
* a position actuator's ``dampratio`` ζ (kept positive in ``biasprm[2]`` by the compiler)
  becomes the damping :math:`k_v = 2\zeta\sqrt{k_p m}`, with the inertia the actuator
  feels at ``qpos0``, :math:`m = (J M^{-1} J^T)^{-1}` (``J`` its moment arm; MuJoCo 4.0's
  rule): critical damping at ζ = 1, and ``biasprm[2] = -kv``.

>>> import rbdl_edu as rbd
>>> m = rbd.io.load_mjcf('''<mujoco><worldbody><body><joint name="j" axis="0 1 0"/>
...   <inertial pos="0 0 -1" mass="1" diaginertia="1 1 1"/></body></worldbody>
...   <actuator><position joint="j" kp="8" dampratio="1"/></actuator></mujoco>''')
>>> m.actuator_biasprm[0, 2], set_const(m).actuator_biasprm[0, 2]     # M = 2: kv = 2 sqrt(8 * 2)
(np.float64(1.0), np.float64(-8.0))
"""
from __future__ import annotations

import numpy as np

from .comframe import com_pos
from .crba import crba
from .data import Data
from .kinematics import kinematics
from .tendon import tendon
from .transmission import transmission

MINVAL = 1e-15            # MuJoCo's mjMINVAL


def set_const(model):
    """``model`` with the constants of the module docstring filled in."""
    if model.is_symbolic:
        return model
    at0 = _lengths(model, model.qpos0)
    changes = dict(tendon_length0=at0.ten_length, actuator_length0=at0.actuator_length,
                   tendon_lengthspring=_spring_lengths(model))
    if model.nv:
        M = crba(model, model.qpos0)
        diag = np.diagonal(M).copy()
        # tendon armature adds the inertia a J^T J of each tendon's length (MuJoCo's M has it)
        M = M + np.einsum("t,ti,tj->ij", model.tendon_armature, at0.ten_J, at0.ten_J)
        changes.update(dof_M0=diag)
        if model.nu:
            changes.update(actuator_acc0=np.linalg.norm(np.linalg.solve(M, at0.actuator_moment.T), axis=0),
                           actuator_biasprm=_dampratio(model, M, at0.actuator_moment))
    return model.replace(**changes)


def _lengths(model, qpos):
    """Tendon and actuator lengths and Jacobians at ``qpos`` (a ``Data`` after the position
    stages that give them)."""
    data = Data(model)
    data.qpos[:] = qpos
    kinematics(model, data)
    com_pos(model, data)
    tendon(model, data)
    transmission(model, data)
    return data


def _spring_lengths(model):
    """``tendon_lengthspring`` with each ``(-1, -1)`` replaced by the length at ``qpos_spring``."""
    spring = np.array(model.tendon_lengthspring, dtype=float)
    unset = (spring == -1).all(axis=1)
    if unset.any():
        spring[unset] = _lengths(model, model.qpos_spring).ten_length[unset, None]
    return spring


def _dampratio(model, M, moment):
    """``actuator_biasprm`` with every position-like actuator's damping ratio turned into a
    damping, from the mass matrix ``M`` and the moment arms ``moment (nu, nv)`` at qpos0."""
    biasprm = model.actuator_biasprm.copy()
    for k in range(model.nu):
        gain, bias = model.actuator_gainprm[k], biasprm[k]
        # a position servo (gain kp, bias -kp l) whose third bias number is a ratio, not -kv
        if not (gain[0] == -bias[1] and bias[2] > 0):
            continue
        # the inertia the actuator feels: m = (J M^-1 J^T)^-1, J its moment arm
        inverse_mass = moment[k] @ np.linalg.solve(M, moment[k])
        mass = 1 / inverse_mass if inverse_mass > MINVAL else 0.0
        biasprm[k, 2] = -bias[2] * 2 * np.sqrt(gain[0] * mass)
    return biasprm
