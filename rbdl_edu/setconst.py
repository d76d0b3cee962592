r"""Constants that depend on the dynamics at ``qpos0`` (MuJoCo's ``mj_setConst``).

The compiler (:mod:`rbdl_edu.io`) imports no algorithm, so what needs one is computed
here, after compiling, by :func:`set_const`; :func:`rbdl_edu.load_model` does both.

* ``dof_M0``: the diagonal of the mass matrix at ``qpos0``;
* ``body_invweight0 (nbody, 2)``: how easily each body moves at ``qpos0``, the mean diagonal
  of the translation and of the rotation block of :math:`J M^{-1} J^T`, ``J`` the Jacobian of
  its center of mass (6 rows); zero for a body welded to the world, ``(1/m, 0)`` for a body
  that only slides (below); ``tendon_invweight0``: :math:`J_t M^{-1} J_t^T` of each tendon.
  The constraint rows take their softness scale from these (:mod:`rbdl_edu.constraint.impedance`);
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
* ``cam_pos0``, ``cam_poscom0``, ``cam_mat0``: the cameras' offsets and orientations at
  ``qpos0``, which a tracking camera keeps (:mod:`rbdl_edu.smooth.camera`);
* a position actuator's ``dampratio`` ζ (kept positive in ``biasprm[2]`` by the compiler)
  becomes the damping :math:`k_v = 2\zeta\sqrt{k_p m}`, with the inertia the actuator
  feels at ``qpos0``, :math:`m = (J M^{-1} J^T)^{-1}` (``J`` its moment arm; MuJoCo 4.0's
  rule): critical damping at ζ = 1, and ``biasprm[2] = -kv``.

>>> from rbdl_edu.io.mjcf import read_mjcf
>>> m = read_mjcf('''<mujoco><worldbody><body><joint name="j" axis="0 1 0"/>
...   <inertial pos="0 0 -1" mass="1" diaginertia="1 1 1"/></body></worldbody>
...   <actuator><position joint="j" kp="8" dampratio="1"/></actuator></mujoco>''')
>>> m.actuator_biasprm[0, 2], set_const(m).actuator_biasprm[0, 2]     # M = 2: kv = 2 sqrt(8 * 2)
(np.float64(1.0), np.float64(-8.0))
"""
from __future__ import annotations

import dataclasses

import numpy as np
import scipy.linalg

from rbdl_edu.crba import crba_blocks
from rbdl_edu.io.errors import error_at
from rbdl_edu.kinematics import kinematics
from rbdl_edu.model.data import Data
from rbdl_edu.model.enums import (EQ_CONNECT, EQ_WELD, GAIN_PID, JOINT_NV, MINVAL, OBJ_BODY, OBJ_SITE, SLIDE,
                                  WRAP_CYLINDER, WRAP_SITE, WRAP_SPHERE)
from rbdl_edu.rotation import quat_conj, quat_mul, quat_normalize
from rbdl_edu.smooth.camera import camera_constants
from rbdl_edu.smooth.comframe import com_pos, jac
from rbdl_edu.smooth.tendon import tendon
from rbdl_edu.smooth.transmission import transmission


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
        M0 = MassMatrix0(model, at0.ten_J)
        invweight = _dof_invweight0(model, M0.inverse_diagonal())
        changes.update(dof_M0=M0.diag, dof_invweight0=invweight, **_springdamper(model, invweight),
                       body_invweight0=_body_invweight0(model, at0, M0),
                       # diag(J M^-1 J^T) of the tendons' Jacobians
                       tendon_invweight0=np.sum(at0.ten_J * M0.solve(at0.ten_J.T).T, axis=1))
        if model.nactuator:
            changes.update(actuator_acc0=np.linalg.norm(M0.solve(at0.actuator_moment.T), axis=0),
                           actuator_biasprm=_dampratio(model, M0, at0.actuator_moment))
    if model.neq:
        changes.update(eq_data=_eq_data(model, at0))
    if model.ncam:
        changes.update(camera_constants(model, at0))
    # (not model.replace, which calls set_const again for a loaded model)
    return dataclasses.replace(model, **changes, set_const=set_const)


class MassMatrix0:
    r"""The mass matrix at ``qpos0``, block by block: :math:`M_{ij} = 0` unless dof ``i`` is
    an ancestor of dof ``j`` or the other way round, so each tree of the dof forest (the dofs
    below one dof whose body has no moving ancestor: a free body, one branch of a robot
    welded to the world) is a block of its own, formed, checked and inverted alone. A model
    of :math:`n` free bodies or a star of :math:`n` links costs :math:`O(n)`; a chain costs
    what its dense block does. (Tendon armature :math:`a\,J^T J` can couple blocks: then
    the whole matrix is one.)

    ``diag`` is :math:`M`'s diagonal without tendon armature (``dof_M0``); :meth:`solve` gives
    :math:`M^{-1} b`, :meth:`inverse_diagonal` the diagonal of :math:`M^{-1}`. Each block is
    factored :math:`M = L L^T` (Cholesky); a pivot :math:`L_{ii}^2` that is zero next to
    :math:`M_{ii}` (up to rounding) means that dof ``i`` moves no mass, or moves it as the
    dofs before it do: the matrix is singular.

    Raises :class:`~rbdl_edu.io.errors.ModelError` naming the joint (and, for a model from a
    file, its file, line and element) if a block is not finite or is singular.
    """

    def __init__(self, model, ten_J):
        self.model = m = model
        blocks = crba_blocks(m, m.qpos0)
        # the blocks: ranges [a, b) of dofs (a dof tree's dofs are contiguous, bodies being
        # in depth-first order)
        coupled = np.any(m.tendon_armature > 0)
        starts = [0] if coupled else list(np.flatnonzero(m.dof_parentid < 0))
        bounds = list(zip(starts, starts[1:] + [m.nv]))
        self.first = first = np.zeros(m.nv, dtype=int)      # the first dof of each dof's block
        for a, b in bounds:
            first[a:b] = a
        M = {a: np.diag(m.dof_armature[a:b]).astype(float) for a, b in bounds}
        for (i, j), block in blocks.items():
            di, dj = int(m.body_dofadr[i]), int(m.body_dofadr[j])
            a = first[di]
            M[a][di - a:di - a + block.shape[0], dj - a:dj - a + block.shape[1]] += block
        self.diag, self.parts = np.zeros(m.nv), []
        for a, b in bounds:
            self.diag[a:b] = np.diagonal(M[a])
            Mg = M[a]
            if coupled:     # each tendon's armature a J^T J (MuJoCo's M has it)
                Mg = Mg + np.einsum("t,ti,tj->ij", m.tendon_armature, ten_J, ten_J)
            self.parts.append((slice(a, b), self._factor(a, Mg)))
        self.part_of = {a: k for k, (a, _) in enumerate(bounds)}

    def _factor(self, a, Mg):
        """The Cholesky factor of the block starting at dof ``a``, checked."""
        m = self.model
        if not np.all(np.isfinite(Mg)):
            bad = np.flatnonzero(~np.all(np.isfinite(Mg), axis=1))
            d = a + int(bad[0])
            raise error_at(m, "joint", int(m.dof_jntid[d]), f"the mass matrix at qpos0 is not finite at "
                           f"{_joint(m, d)}: masses, inertias or distances too large")
        try:
            L = scipy.linalg.cholesky(Mg, lower=True)
            ratio = np.diagonal(L) ** 2 / np.diagonal(Mg)
            d = a + int(np.argmin(ratio))
        except np.linalg.LinAlgError:           # not positive definite: name the null direction
            L, d = None, a + _null_dof(Mg)
        if L is None or not ratio.min() > 1e-12:
            raise error_at(m, "joint", int(m.dof_jntid[d]), f"the mass matrix at qpos0 is singular: "
                           f"{_joint(m, d)} moves no mass, or moves it as the joints before it do (give "
                           "it mass or armature, or remove a joint)")
        return L

    def solve(self, b, dof=None):
        """:math:`M^{-1} b` for ``b (nv,)`` or ``(nv, k)``; if ``b`` is zero outside the block
        of ``dof``, give ``dof`` and only that block is solved."""
        x = np.zeros(np.shape(b))
        parts = self.parts if dof is None else [self.parts[self.part_of[self.first[dof]]]]
        for dofs, L in parts:
            x[dofs] = scipy.linalg.cho_solve((L, True), b[dofs])
        return x

    def inverse_diagonal(self):
        r"""The diagonal of :math:`M^{-1} = L^{-T} L^{-1}`: the squared column norms of
        :math:`L^{-1}`, ``(nv,)``."""
        out = np.zeros(self.model.nv)
        for dofs, L in self.parts:
            Linv = scipy.linalg.solve_triangular(L, np.eye(len(L)), lower=True)
            out[dofs] = (Linv * Linv).sum(axis=0)
        return out


def _null_dof(Mg):
    """The last dof that moves in the direction of ``Mg``'s smallest eigenvalue."""
    lam, V = np.linalg.eigh(Mg)
    null = np.abs(V[:, 0])
    return int(np.flatnonzero(null > 0.1 * null.max())[-1])


def _joint(model, d):
    """``joint 'name' of body 'name'`` for dof ``d`` (numbers for unnamed ones)."""
    j, b = int(model.dof_jntid[d]), int(model.dof_bodyid[d])
    return f"joint {model.jnt_names[j] or j!r} of body {model.body_names[b] or b!r}"


def _body_invweight0(model, data, M0):
    """``body_invweight0 (nbody, 2)``: per body, the mean diagonal of the translation and the
    rotation blocks of :math:`J M^{-1} J^T` (``J (6, nv)`` the Jacobian of its center of mass
    at ``qpos0``, from ``data``; ``M0`` a :class:`MassMatrix0`)."""
    out = np.zeros((model.nbody, 2))
    for i in range(1, model.nbody):
        if model.body_dofnum[model.body_weldid[i]] == 0:          # welded to the world
            continue
        if _slides_alone(model, i):
            out[i] = 1 / max(MINVAL, model.body_mass[i]), 0.0
            continue
        jacp, jacr = jac(model, data, i, data.xipos[i])
        J = np.concatenate([jacp, jacr])
        # (J is zero outside the dof tree of the body's weld group: one block of M)
        A = np.diagonal(J @ M0.solve(J.T, dof=model.body_dofadr[model.body_weldid[i]]))
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


def _dof_invweight0(model, Minv_diag):
    """``dof_invweight0 (nv,)``: per joint, the mean diagonal of its block of :math:`M^{-1}`
    (``Minv_diag (nv,)``)."""
    inv = np.zeros(model.nv)
    for j in range(model.njnt):
        a, n = model.jnt_dofadr[j], JOINT_NV[int(model.jnt_type[j])]
        A = Minv_diag[a:a + n]
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
    damping, from the mass matrix ``M`` (a :class:`MassMatrix0`) and the moment arms
    ``moment (nout, nv)`` at qpos0 (a PID's ``kp`` is ``-biasprm[1]`` alone)."""
    biasprm = model.actuator_biasprm.copy()
    for k in range(model.nactuator):
        pid = model.actuator_gaintype[k] == GAIN_PID
        gain, bias = model.actuator_gainprm[k], biasprm[k]
        kp = -bias[1] if pid else gain[0]
        # a position servo (gain kp, bias -kp l) or a PID whose third bias number is a ratio, not -kv
        if not ((pid or gain[0] == -bias[1]) and bias[2] > 0):
            continue
        # the inertia the actuator feels: m = (J M^-1 J^T)^-1, J its moment arm; an SO(3)
        # servo's: 3 / trace(J M^-1 J^T) over its three rows
        o, n = model.actuator_outadr[k], model.actuator_outnum[k]
        inverse_mass = sum(moment[r] @ M.solve(moment[r]) for r in range(o, o + n)) / n
        mass = 1 / inverse_mass if inverse_mass > MINVAL else 0.0
        biasprm[k, 2] = -bias[2] * 2 * np.sqrt(kp * mass)
    return biasprm
