r"""The simulation pipeline: MuJoCo's ``mj_forward`` and ``mj_step`` as a short recipe of
stages (book, chapter 8).

:func:`forward` computes everything that follows from the state ``(time, qpos, qvel, act,
ctrl, applied forces)`` without changing it; :func:`step` then advances the state by one
``timestep`` with ``model.opt.integrator`` (:mod:`rbdl_edu.integrators`). Each stage reads
what the stages before it left in ``data`` (see :class:`~rbdl_edu.data.Data` for who fills
what):

=============  =================================================================================
position       poses (:func:`~rbdl_edu.kinematics.kinematics`), com frames and ``cdof``
               (:func:`~rbdl_edu.comframe.com_pos`), tendons (:func:`~rbdl_edu.tendon.tendon`),
               the mass matrix ``qM`` (CRBA) and its factor, contacts
               (:func:`~rbdl_edu.collision.collide`) and the constraint rows ``efc_*``
               (:func:`~rbdl_edu.constraint.make_constraint`), actuator lengths and moment arms
               (:func:`~rbdl_edu.transmission.transmission`); then the position sensors
velocity       tendon and actuator velocities; ``cvel`` and the bias forces
               ``qfrc_bias = c(q, q̇)`` from one RNEA pass with :math:`\ddot q = 0`; passive forces
               (:func:`~rbdl_edu.passive.passive`); the constraints' reference accelerations
               ``efc_aref`` (:func:`~rbdl_edu.impedance.reference`); then the velocity sensors
actuation      activation dynamics, actuator forces and ``qfrc_actuator``
               (:func:`~rbdl_edu.actuation.actuation`)
acceleration   :math:`f = f_{passive} - c + f_{applied} + f_{actuator} + J^T f_{xfrc}` (``qfrc_smooth``),
               :math:`a_u = M^{-1} f` (``qacc_smooth``, solved with the tree-sparse
               :math:`L^TDL` factor of chapter 6); the constraint solver's ``qacc`` and
               ``qfrc_constraint`` (:func:`~rbdl_edu.solver.fwd_constraint`, chapter 10); then
               the acceleration sensors
=============  =================================================================================

:func:`inverse` runs the same position and velocity stages and then goes the other way: from
``qacc`` to the force that produces it (``qfrc_inverse``, MuJoCo's ``mj_inverse``).

A simulation that diverges is never a silent NaN: as MuJoCo's ``mj_checkPos/Vel/Acc``, a
position, velocity or acceleration that is not finite or exceeds ``MAXVAL`` resets the state
and records a :class:`Divergence` (time, quantity, dof, value) in ``data.warning``.

>>> import rbdl_edu as rbd
>>> model = rbd.models.pendulum(); data = rbd.Data(model)
>>> data.qpos[:] = np.pi / 2
>>> forward(model, data)
>>> data.qacc.round(6)                      # -m g l / (m l² + I)
array([-4.905])
>>> inverse(model, data); data.qfrc_inverse.round(12)     # no force holds it: it falls freely
array([0.])
>>> step(model, data); round(data.time, 6), data.qvel.round(6)
(0.002, array([-0.00981]))
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .actuation import actuation, actuator_velocity
from .bodyforces import posed
from .collision import collide
from .comframe import com_pos, to_cframe
from .constraint import jdotv, make_constraint
from .crba import crba
from .enums import WRAP_SITE
from .factor import factor_ltdl, solve_ltdl, to_tree_sparse, tree_pattern
from .impedance import reference
from .kinematics import kinematics
from .passive import apply_ft, damper_slope, passive
from .rnea import rnea_passes
from .sensors import energy_pos, energy_vel, sensor_acc, sensor_pos, sensor_vel
from .solver import fwd_constraint, update
from .tendon import tendon, tendon_velocity
from .transmission import transmission

MAXVAL = 1e10          # MuJoCo's mjMAXVAL: larger positions, velocities, accelerations diverged


class Divergence(NamedTuple):
    """A diverging simulation, as MuJoCo's ``mjWARN_BAD*``: at ``time``, ``quantity``
    (``"qpos"``, ``"qvel"`` or ``"qacc"``) at ``index`` held ``value``; the state was reset."""
    time: float
    quantity: str
    index: int
    value: float


def forward(model, data):
    """Run every stage at the current state (MuJoCo's ``mj_forward``); the state is not changed."""
    position(model, data)
    velocity(model, data)
    actuation(model, data)
    acceleration(model, data)


def position(model, data):
    """Poses, com frames, tendons, mass matrix and its factor, contacts and constraint rows,
    transmissions; position sensors."""
    kinematics(model, data)
    com_pos(model, data)
    tendon(model, data)
    mass_matrix(model, data)
    collide(model, data)                  # contacts at these poses (rbd.collision computes them first)
    make_constraint(model, data)
    transmission(model, data)
    sensor_pos(model, data)
    if model.opt.enabled("energy"):
        energy_pos(model, data)


def mass_matrix(model, data):
    r""":math:`M(q)` by CRBA, plus each tendon's armature :math:`a\,J^T J` where it falls inside
    M's tree pattern (MuJoCo 4.0 drops the coupling between branches, so M stays
    tree-sparse), ``qM (nv, nv)``; and its :math:`L^TDL` factor ``qLD`` (MuJoCo's ``mj_crb``
    and ``mj_factorM``)."""
    M = crba(model, data.qpos)
    for t in np.flatnonzero(model.tendon_armature > 0):
        if np.any(model.wrap_type[model.tendon_adr[t]:model.tendon_adr[t] + model.tendon_num[t]] == WRAP_SITE):
            raise NotImplementedError(f"tendon {model.tendon_names[t] or t}: armature on a spatial tendon "
                                      "(its velocity-product force) is not simulated")
        M = M + np.where(tree_pattern(model), model.tendon_armature[t] * np.outer(data.ten_J[t], data.ten_J[t]), 0.0)
    data.qM = M
    data.qLD = factor_ltdl(model, to_tree_sparse(model, M))


def solve_M(model, data, f):
    """:math:`M^{-1} f` from the tree-sparse factor ``qLD`` (MuJoCo's ``mj_solveM``)."""
    return solve_ltdl(model, data.qLD, f)


def velocity(model, data):
    r"""Tendon and actuator velocities; ``cvel`` and ``qfrc_bias`` from one RNEA pass at
    :math:`\ddot q = 0`; passive forces; velocity sensors."""
    tendon_velocity(model, data)
    actuator_velocity(model, data)
    # RNEA with zero acceleration: its torques are the bias forces c(q, q̇), its velocities cvel
    P = rnea_passes(posed(model, data), data.qpos, data.qvel, np.zeros(model.nv))
    data.qfrc_bias = P.tau
    data.cvel = np.array([np.zeros(6)] + [to_cframe(model, data, i, P.v[i]) for i in range(1, model.nbody)])
    passive(model, data)
    # a_ref = -b J q̇ - k d r (and -J̇q̇ on connect and weld rows, from the same RNEA pass)
    reference(model, data, jdotv(model, data, P))
    sensor_vel(model, data)
    if model.opt.enabled("energy"):
        energy_vel(model, data)


def acceleration(model, data):
    r""":math:`f_{smooth} = f_{passive} - c + f_{applied} + f_{actuator} + \sum_b J_b^T f_b`,
    :math:`a_u = M^{-1} f_{smooth}`, then the constraint solver's :math:`\ddot q`; acceleration
    sensors."""
    qfrc_xfrc = np.zeros(model.nv)
    for b in np.flatnonzero(np.any(data.xfrc_applied != 0, axis=1)):
        # [force, torque] in world axes at the body's center of mass
        qfrc_xfrc += apply_ft(model, data, data.xfrc_applied[b, :3], data.xfrc_applied[b, 3:], data.xipos[b], b)
    data.qfrc_smooth = data.qfrc_passive - data.qfrc_bias + data.qfrc_applied + data.qfrc_actuator + qfrc_xfrc
    data.qacc_smooth = solve_M(model, data, data.qfrc_smooth)
    fwd_constraint(model, data)
    sensor_acc(model, data)


def inverse(model, data):
    r"""The force that produces ``data.qacc`` at the current state (MuJoCo's ``mj_inverse``):

    .. math:: f_{inverse} = M\ddot q + c(q, \dot q) - f_{passive} - J^T f(\ddot q)

    (``qfrc_inverse (nv,)``), where the constraint forces follow from :math:`\ddot q` itself:
    soft constraints give each row the force :math:`f = -\partial s/\partial x` at its residual
    :math:`x = J\ddot q - a_{ref}` (:func:`~rbdl_edu.solver.update`), so the inverse is defined
    even with contacts. After :func:`forward`, ``qfrc_inverse`` is what was applied:
    ``qfrc_applied + qfrc_actuator + J^T xfrc_applied`` (to the solver's tolerance). Runs the
    position and velocity stages (and their sensors), not the actuation; then the acceleration
    sensors. With ``<flag invdiscrete="enable"/>`` ``qacc`` is taken as the integrator's
    (:func:`discrete_acc`).
    """
    position(model, data)
    velocity(model, data)
    qacc = data.qacc
    if model.opt.enabled("invdiscrete"):
        data.qacc = discrete_acc(model, data)
    update(model, data, data.efc_J @ data.qacc - data.efc_aref)
    data.qfrc_inverse = data.qM @ data.qacc + data.qfrc_bias - data.qfrc_passive - data.qfrc_constraint
    sensor_acc(model, data)
    data.qacc = qacc


def discrete_acc(model, data):
    r"""The acceleration :func:`forward` would have returned for the velocity change
    ``h * qacc`` the integrator makes (MuJoCo's ``mj_discreteAcc``): Euler with implicit joint
    damping :math:`M^{-1}(M + hB)\ddot q`, implicitfast :math:`M^{-1}(M - hD)\ddot q`."""
    h, name = model.opt.timestep, model.opt.integrator
    if name == "Euler":
        if model.opt.disabled("eulerdamp") or not (np.any(model.dof_damping) or np.any(model.dof_dampingpoly)):
            return data.qacc
        f = data.qM @ data.qacc + h * damper_slope(model, data.qvel) * data.qacc
    elif name == "implicitfast":
        # as the integrator: the symmetric D, then each standalone free body's own block
        from .derivative_vel import free_bias_vel, free_body_joints, smooth_vel
        qDeriv = smooth_vel(model, data)
        D = (qDeriv + qDeriv.T) / 2
        blocks = [slice(model.jnt_dofadr[j], model.jnt_dofadr[j] + 6) for j in free_body_joints(model)]
        for d in blocks:
            D[d, :], D[:, d] = 0.0, 0.0
        f = (data.qM - h * D) @ data.qacc
        for j, d in zip(free_body_joints(model), blocks):
            f[d] = (data.qM[d, d] - h * (qDeriv[d, d] - free_bias_vel(model, data, j))) @ data.qacc[d]
    else:
        raise NotImplementedError(f"invdiscrete with the {name} integrator (MuJoCo refuses RK4)")
    return np.linalg.solve(data.qM, f)


def step(model, data):
    """Advance the state by ``model.opt.timestep`` (MuJoCo's ``mj_step``): check the state,
    :func:`forward`, check the accelerations, integrate with ``model.opt.integrator``."""
    from .integrators import integrate
    if not check(model, data, "qpos") or not check(model, data, "qvel"):
        return
    forward(model, data)
    if not check(model, data, "qacc"):
        forward(model, data)
        return
    integrate(model, data)


def check(model, data, quantity):
    """False (after resetting the state and recording a :class:`Divergence`) if ``data.<quantity>``
    holds a NaN or a number beyond ``MAXVAL`` (MuJoCo's ``mj_checkPos/Vel/Acc``)."""
    x = getattr(data, quantity)
    bad = np.flatnonzero(~(np.abs(x) <= MAXVAL))          # NaN compares False
    if not len(bad):
        return True
    k = int(bad[0])
    data.warning.append(Divergence(float(data.time), quantity, k, float(x[k])))
    if not model.opt.disabled("autoreset"):
        reset(model, data, keep_warnings=True)
    return False


def reset(model, data, key=None, keep_warnings=False):
    """Back to the model's initial state (MuJoCo's ``mj_resetData``), or to keyframe ``key``
    (an id or a name; ``mj_resetDataKeyframe``): time, ``qpos``, ``qvel``, ``act``, ``ctrl``,
    mocap poses; applied forces and warnings cleared."""
    from .data import Data
    warnings = list(data.warning) if keep_warnings else []
    fresh = Data(model)
    data.__dict__.update({k: v for k, v in fresh.__dict__.items() if k != "model"})
    data.warning = warnings
    if key is not None:
        k = model.id("keyframe", key) if isinstance(key, str) else int(key)
        if not 0 <= k < model.nkey:
            raise IndexError(f"keyframe {key} does not exist (the model has {model.nkey})")
        data.time = float(model.key_time[k])
        data.qpos, data.qvel = model.key_qpos[k].copy(), model.key_qvel[k].copy()
        data.act, data.ctrl = model.key_act[k].copy(), model.key_ctrl[k].copy()
        data.mocap_pos = model.key_mpos[k].reshape(-1, 3).copy()
        data.mocap_quat = model.key_mquat[k].reshape(-1, 4).copy()
