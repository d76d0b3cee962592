r"""Constants that depend on the dynamics at ``qpos0`` (MuJoCo's ``mj_setConst``).

The compiler (:mod:`rbdl_edu.io`) imports no algorithm, so what needs one is computed
here, after compiling, by :func:`set_const`; :func:`rbdl_edu.load_model` does both.

* ``dof_M0``: the diagonal of the mass matrix at ``qpos0``;
* ``body_invweight0 (nbody, 2)``: how easily each body moves at ``qpos0``, the mean diagonal
  of the translation and of the rotation block of :math:`J M^{-1} J^T`, ``J`` the Jacobian of
  its center of mass (6 rows); zero for a body welded to the world, ``(1/m, 0)`` for a body
  that only slides (below); ``tendon_invweight0``: :math:`J_t M^{-1} J_t^T` of each tendon.
  The constraint rows take their softness scale from these (:mod:`rbdl_edu.impedance`);
* ``dof_invweight0``: how easily each joint moves at ``qpos0``, the mean diagonal of its
  block of :math:`M^{-1}(q_0)` (free joints: translation and rotation apart); a body that
  only slides along its own axes, with nothing above or below it that moves, gets
  :math:`1/m` (MuJoCo's "simple" bodies);
* a joint's ``springdamper`` (time constant τ, damping ratio ζ) becomes its stiffness and
  damping, as a constraint's ``solref`` does: with the joint's inertia
  :math:`m = n / \sum_d \mathrm{invweight0}_d` over its ``n`` dofs,
  :math:`k = m / (\tau\zeta)^2` and :math:`b = 2m/\tau`;
* ``tendon_length0``, ``actuator_length0``: lengths at ``qpos0``; ``actuator_acc0``: the
  size of the joint acceleration a unit actuator force causes at ``qpos0``,
  :math:`|M^{-1}\,\mathrm{moment}^T|` (``M`` with joint and tendon armature);
* ``tendon_lengthspring``: a spring length of ``-1`` (not given) becomes the tendon's length
  at ``qpos_spring`` (the spring rest configuration), as MuJoCo's ``mj_setConst`` does;
* ``eq_data``: a connect between bodies gets its anchor in the second body's frame
  (``[3:6]``, from the anchor in the first body's ``[0:3]``); a weld between bodies whose
  relative pose was not given (``eq_data[11] = 1``) gets the pose at ``qpos0``: the anchor
  (given in the second body) in the first body's frame ``[3:6]`` and the relative
  orientation :math:`q_1^{-1} q_2` ``[6:10]``; a given one is normalized. A connect between
  sites keeps nothing (its anchors are the sites), as MuJoCo's ``mj_setConst``;
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

from .comframe import com_pos, jac
from .crba import crba
from .data import Data
from .enums import EQ_CONNECT, EQ_WELD, JOINT_NV, OBJ_BODY, OBJ_SITE, SLIDE, WRAP_CYLINDER, WRAP_SITE, WRAP_SPHERE
from .kinematics import kinematics
from .rotation import quat_conj, quat_mul, quat_normalize
from .tendon import tendon
from .transmission import transmission

MINVAL = 1e-15            # MuJoCo's mjMINVAL


def set_const(model):
    """``model`` with the constants of the module docstring filled in."""
    if model.is_symbolic and np.any(model.jnt_springdamper != 0):
        raise ValueError("springdamper needs a numeric model (it depends on the inertia at qpos0)")
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
        try:
            Minv = np.linalg.inv(M)
        except np.linalg.LinAlgError:
            raise ValueError("the mass matrix at qpos0 is singular: a joint moves no mass") from None
        invweight = _dof_invweight0(model, Minv)
        changes.update(dof_M0=diag, dof_invweight0=invweight, **_springdamper(model, invweight),
                       body_invweight0=_body_invweight0(model, at0, Minv),
                       tendon_invweight0=np.einsum("ti,ij,tj->t", at0.ten_J, Minv, at0.ten_J))
        if model.nu:
            changes.update(actuator_acc0=np.linalg.norm(np.linalg.solve(M, at0.actuator_moment.T), axis=0),
                           actuator_biasprm=_dampratio(model, M, at0.actuator_moment))
    if model.neq:
        changes.update(eq_data=_eq_data(model, at0))
    return model.replace(**changes)


def _body_invweight0(model, data, Minv):
    """``body_invweight0 (nbody, 2)``: per body, the mean diagonal of the translation and the
    rotation blocks of :math:`J M^{-1} J^T` (``J (6, nv)`` the Jacobian of its center of mass
    at ``qpos0``, from ``data``)."""
    out = np.zeros((model.nbody, 2))
    for i in range(1, model.nbody):
        if model.body_dofnum[model.body_weldid[i]] == 0:          # welded to the world
            continue
        if _slides_alone(model, i):
            out[i] = 1 / max(MINVAL, model.body_mass[i]), 0.0
            continue
        jacp, jacr = jac(model, data, i, data.xipos[i])
        J = np.concatenate([jacp, jacr])
        A = np.diagonal(J @ Minv @ J.T)
        out[i] = A[:3].mean(), A[3:].mean()
    return out


def _eq_data(model, data):
    """``eq_data`` with what ``mj_setConst`` computes at ``qpos0`` (the module docstring)."""
    eq_data = model.eq_data.copy()
    for e in range(model.neq):
        d, b1, b2 = eq_data[e], model.eq_obj1id[e], model.eq_obj2id[e]
        if model.eq_type[e] == EQ_CONNECT and model.eq_objtype[e] == OBJ_SITE:
            d[:] = 0.0
        elif model.eq_type[e] == EQ_CONNECT:
            # the anchor, given in body 1, in body 2's frame: R_2^T (x_1 + R_1 a - x_2)
            p = data.xpos[b1] + data.xmat[b1] @ d[:3]
            d[3:6] = data.xmat[b2].T @ (p - data.xpos[b2])
        elif model.eq_type[e] == EQ_WELD and model.eq_objtype[e] == OBJ_BODY:
            if not d[11]:
                d[6:10] = quat_normalize(d[6:10])
                continue
            # the anchor, given in body 2, in body 1's frame; the orientation q_1^-1 q_2
            p = data.xpos[b2] + data.xmat[b2] @ d[:3]
            d[3:6] = data.xmat[b1].T @ (p - data.xpos[b1])
            d[6:10] = quat_mul(quat_conj(data.xquat[b1]), data.xquat[b2])
    return eq_data


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
