r"""Constants that depend on the dynamics at ``qpos0`` (MuJoCo's ``mj_setConst``).

The compiler (:mod:`rbdl_edu.io`) imports no algorithm, so what needs one is computed
here, after compiling, by :func:`set_const`; :func:`rbdl_edu.load_model` does both.

* ``dof_M0``: the diagonal of the mass matrix at ``qpos0``;
* ``dof_invweight0``: how easily each joint moves at ``qpos0``, the mean diagonal of its
  block of :math:`M^{-1}(q_0)` (free joints: translation and rotation apart); a body that
  only slides along its own axes, with nothing above or below it that moves, gets
  :math:`1/m` (MuJoCo's "simple" bodies);
* a joint's ``springdamper`` (time constant τ, damping ratio ζ) becomes its stiffness and
  damping, as a constraint's ``solref`` does: with the joint's inertia
  :math:`m = n / \sum_d \mathrm{invweight0}_d` over its ``n`` dofs,
  :math:`k = m / (\tau\zeta)^2` and :math:`b = 2m/\tau`;
* a position actuator's ``dampratio`` ζ (kept positive in ``biasprm[2]`` by the compiler)
  becomes the damping :math:`k_v = 2\zeta\sqrt{k_p m}`, with the reflected inertia
  :math:`m = \sum_d M_{dd}(q_0) / g_d^2` of its joint's dofs (``g`` the gear): critical
  damping at ζ = 1, and ``biasprm[2] = -kv``.

>>> import rbdl_edu as rbd
>>> m = rbd.io.load_mjcf('''<mujoco><worldbody><body><joint name="j" axis="0 1 0"/>
...   <inertial pos="0 0 -1" mass="1" diaginertia="1 1 1"/></body></worldbody>
...   <actuator><position joint="j" kp="8" dampratio="1"/></actuator></mujoco>''')
>>> m.actuator_biasprm[0, 2], set_const(m).actuator_biasprm[0, 2]     # M = 2: kv = 2 sqrt(8 * 2)
(np.float64(1.0), np.float64(-8.0))
"""
from __future__ import annotations

import numpy as np

from .crba import crba
from .enums import (BIAS_AFFINE, GAIN_FIXED, JOINT_NV, SLIDE, TRN_JOINT, TRN_JOINTINPARENT, WRAP_CYLINDER,
                    WRAP_SITE, WRAP_SPHERE)


MINVAL = 1e-15             # MuJoCo's mjMINVAL


def set_const(model):
    """``model`` with the constants of the module docstring filled in."""
    if model.is_symbolic and np.any(model.jnt_springdamper != 0):
        raise ValueError("springdamper needs a numeric model (it depends on the inertia at qpos0)")
    if model.is_symbolic or model.nv == 0:
        return model
    M = crba(model, model.qpos0)
    M0 = np.diagonal(M)
    try:
        invweight = _dof_invweight0(model, np.linalg.inv(M))
    except np.linalg.LinAlgError:
        raise ValueError("the mass matrix at qpos0 is singular: a joint moves no mass") from None
    return model.replace(dof_M0=M0, dof_invweight0=invweight, actuator_biasprm=_dampratio(model, M0),
                         **_springdamper(model, invweight))


def _dof_invweight0(model, Minv):
    """``dof_invweight0 (nv,)``: per joint, the mean diagonal of its block of ``Minv``."""
    inv = np.zeros(model.nv)
    for j in range(model.njnt):
        a, n = model.jnt_dofadr[j], JOINT_NV[int(model.jnt_type[j])]
        A = np.diagonal(Minv)[a:a + n]
        if _slides_alone(model, model.jnt_bodyid[j]):
            inv[a] = 1 / max(MINVAL, model.body_mass[model.jnt_bodyid[j]])
        elif n == 6:                                    # free: translation, then rotation
            inv[a:a + 3], inv[a + 3:a + 6] = A[:3].mean(), A[3:].mean()
        else:
            inv[a:a + n] = A.mean()
    return inv


def _slides_alone(model, i):
    """True for MuJoCo's "simple" body of level 2, whose inverse weight is ``1/mass``: only
    slide joints along its own axes, at its origin, its inertia at its frame, no child, and
    nothing above it that moves; no tendon with armature passes over it."""
    m, eps = model, 1e-6                            # MuJoCo compares frames to 1e-6
    parent = m.body_parentid[i]
    if not (np.all(np.abs(m.body_ipos[i]) < eps)
            and (np.all(np.abs(m.body_iquat[i] - [1, 0, 0, 0]) < eps)
                 or np.all(np.abs(m.body_iquat[i] + [1, 0, 0, 0]) < eps))
            and (parent == 0 or (m.body_parentid[parent] == 0 and m.body_dofnum[parent] == 0))
            and i not in m.body_parentid and m.body_jntnum[i] > 0):
        return False
    for j in range(m.body_jntadr[i], m.body_jntadr[i] + m.body_jntnum[i]):
        if (m.jnt_type[j] != SLIDE or np.any(np.abs(m.jnt_pos[j]) >= eps)
                or np.sum(np.abs(m.jnt_axis[j]) > 1e-14) != 1):
            return False
    for t in range(m.ntendon):
        if m.tendon_armature[t] > 0:
            w = slice(m.tendon_adr[t], m.tendon_adr[t] + m.tendon_num[t])
            bodies = [m.site_bodyid[o] if k == WRAP_SITE else m.geom_bodyid[o]
                      for k, o in zip(m.wrap_type[w], m.wrap_objid[w])
                      if k in (WRAP_SITE, WRAP_SPHERE, WRAP_CYLINDER)]
            if i in bodies:
                return False
    return True


def _springdamper(model, invweight):
    r"""``jnt_stiffness`` and ``dof_damping`` with each ``springdamper`` (τ, ζ) turned into
    :math:`k = m/(\tau\zeta)^2`, :math:`b = 2m/\tau` (the module docstring)."""
    stiffness, damping = model.jnt_stiffness.copy(), model.dof_damping.copy()
    for j in range(model.njnt):
        timeconst, dampratio = model.jnt_springdamper[j]
        if timeconst <= 0 or dampratio <= 0:
            continue
        a, n = model.jnt_dofadr[j], JOINT_NV[int(model.jnt_type[j])]
        mass = n / max(MINVAL, invweight[a:a + n].sum())
        stiffness[j] = mass / max(MINVAL, timeconst * timeconst * dampratio * dampratio)
        damping[a:a + n] = 2 * mass / max(MINVAL, timeconst)
    return dict(jnt_stiffness=stiffness, dof_damping=damping)


def _dampratio(model, M0):
    """``actuator_biasprm`` with every position actuator's damping ratio turned into a damping."""
    biasprm = model.actuator_biasprm.copy()
    for k in range(model.nu):
        gain, bias = model.actuator_gainprm[k], biasprm[k]
        # a position servo (gain kp, bias -kp q) whose third bias number is a ratio, not -kv
        if not (model.actuator_gaintype[k] == GAIN_FIXED and model.actuator_biastype[k] == BIAS_AFFINE
                and gain[0] == -bias[1] and bias[2] > 0):
            continue
        if model.actuator_trntype[k] not in (TRN_JOINT, TRN_JOINTINPARENT):
            raise ValueError(f"actuator {model.actuator_names[k] or k}: dampratio needs a joint transmission")
        j = model.actuator_trnid[k, 0]
        adr, gear = model.jnt_dofadr[j], model.actuator_gear[k]
        mass = sum(M0[adr + d] / gear[d] ** 2 for d in range(JOINT_NV[int(model.jnt_type[j])])
                   if gear[d] ** 2 > 1e-15)
        biasprm[k, 2] = -bias[2] * 2 * np.sqrt(gain[0] * mass)
    return biasprm
