r"""The simulation pipeline: MuJoCo's ``mj_forward`` as a short recipe of stages (book,
chapter 8).

:func:`forward` computes everything that follows from the state ``(time, qpos, qvel, act,
ctrl, applied forces)`` without changing it; :func:`~rbdl_edu.simulation.step.step` then
advances the state by one ``timestep`` with ``model.opt.integrator``
(:mod:`rbdl_edu.simulation.integrators`). Each stage reads what the stages before it left in
``data`` (see :class:`~rbdl_edu.model.data.Data` for who fills what):

=============  =================================================================================
position       poses (:func:`~rbdl_edu.kinematics.kinematics`), com frames and ``cdof``
               (:func:`~rbdl_edu.smooth.comframe.com_pos`), tendons (:func:`~rbdl_edu.smooth.tendon.tendon`),
               the mass matrix ``qM`` (CRBA) and its factor, contacts
               (:func:`~rbdl_edu.collision.collide`) and the constraint rows ``efc_*``
               (:func:`~rbdl_edu.constraint.rows.make_constraint`), actuator lengths and moment arms
               (:func:`~rbdl_edu.smooth.transmission.transmission`); then the position sensors
velocity       tendon and actuator velocities; ``cvel`` and the bias forces
               ``qfrc_bias = c(q, q̇)`` from one RNEA pass with :math:`\ddot q = 0`; passive forces
               (:func:`~rbdl_edu.smooth.passive.passive`); the constraints' reference accelerations
               ``efc_aref`` (:func:`~rbdl_edu.constraint.impedance.reference`); then the velocity sensors
actuation      activation dynamics, actuator forces and ``qfrc_actuator``
               (:func:`~rbdl_edu.smooth.actuation.actuation`)
acceleration   :math:`f = f_{passive} - c + f_{applied} + f_{actuator} + J^T f_{xfrc}` (``qfrc_smooth``),
               :math:`a_u = M^{-1} f` (``qacc_smooth``, solved with the tree-sparse
               :math:`L^TDL` factor of chapter 6); the constraint solver's ``qacc`` and
               ``qfrc_constraint`` (:func:`~rbdl_edu.constraint.solver.fwd_constraint`, chapter 10); then
               the acceleration sensors
=============  =================================================================================

:func:`~rbdl_edu.simulation.inverse.inverse` runs the same position and velocity stages
and then goes the other way: from ``qacc`` to the force that produces it.

>>> import rbdl_edu as rbd
>>> model = rbd.models.pendulum(); data = rbd.Data(model)
>>> data.qpos[:] = np.pi / 2
>>> forward(model, data)
>>> data.qacc.round(6)                      # -m g l / (m l² + I)
array([-4.905])
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from rbdl_edu.arrays import is_jax, stacked
from rbdl_edu.cache import per_model
from rbdl_edu.collision import collide
from rbdl_edu.constraint.impedance import reference
from rbdl_edu.constraint.rows import jdotv, make_constraint
from rbdl_edu.constraint.solver import fwd_constraint
from rbdl_edu.crba import crba
from rbdl_edu.factor import factor_ltdl, solve_ltdl, to_tree_sparse, tree_pattern
from rbdl_edu.kinematics import kinematics
from rbdl_edu.model.frozen import plain
from rbdl_edu.model.model import check_not_mujoco
from rbdl_edu.rnea import rnea_passes
from rbdl_edu.simulation.sensors import energy_pos, energy_vel, sensor_acc, sensor_pos, sensor_vel
from rbdl_edu.simulation.sleep import (hold_dofs, hold_sensors, start_asleep, wake_moved, wake_on_contact,
                                       wake_on_equality, wake_on_tendon)
from rbdl_edu.smooth.actuation import actuation, actuator_velocity
from rbdl_edu.smooth.camera import camera_poses
from rbdl_edu.smooth.comframe import com_pos, posed, to_cframe, to_cframes
from rbdl_edu.smooth.passive import apply_ft, passive
from rbdl_edu.smooth.tendon import tendon, tendon_velocity
from rbdl_edu.smooth.tendon_armature import tendon_bias
from rbdl_edu.smooth.transmission import transmission


def forward(model, data):
    """Run every stage at the current state (MuJoCo's ``mj_forward``); the state is not
    changed. A state that is not finite is refused (:func:`check_finite`)."""
    check_not_mujoco(model, data)
    check_constants(model)
    check_finite(model, data)
    if data.sleep_init_pending:               # sleep="init": asleep from the start (sleep)
        start_asleep(model, data, stages)
    if not switches(model).sleep:             # (no tree ever sleeps: no sensor to hold)
        stages(model, data)
        return
    held = data.sensordata.copy()
    stages(model, data)
    hold_sensors(model, data, held)           # a sensor on sleepers keeps its value (sleep)


class Switches(NamedTuple):
    """The options the stages ask at every step, read once per model (:func:`switches`)."""
    sleep: bool
    energy: bool


@per_model
def switches(model):
    """``model.opt``'s ``sleep`` and ``energy`` flags (:class:`Switches`), asked once per model (a model
    and its options never change)."""
    return Switches(model.opt.enabled("sleep"), model.opt.enabled("energy"))


def check_constants(model):
    """A ValueError if the model's constants at ``qpos0`` were never computed: a model from
    ``ModelSpec.compile()`` or ``read_mjcf`` has no ``dof_M0``, ``body_invweight0``, actuator
    damping from ``dampratio``, … yet (MuJoCo's compiler runs ``mj_setConst`` itself), and
    would simulate other physics without a word."""
    if model.set_const is None:
        raise ValueError("the model's constants at qpos0 were not computed (ModelSpec.compile() and read_mjcf "
                         "only compile): simulate rbd.set_const(model), or load with rbd.load_model")


def stages(model, data, sensors=True):
    """The recipe itself: position, velocity, actuation, acceleration. ``sensors=False``
    leaves ``sensordata`` as it is (MuJoCo's ``mj_forwardSkip`` with ``skipsensor``): RK4's
    inner stages, so that after a step the sensors read the state the step started from; as
    there, a stage state that is not finite goes through (the next step's checks reset it)."""
    compiled = compiled_half(model, data)
    if compiled is not None:              # rbdl_edu.simulation.accelerated: the smooth half compiled
        compiled(data)
        constrained(model, data, sensors)
        return
    position(model, data, sensors)
    velocity(model, data, sensors)
    actuation(model, data)
    acceleration(model, data, sensors)


def compiled_half(model, data):
    """The model's compiled :func:`smooth` (:mod:`rbdl_edu.simulation.accelerated`), or ``None``:
    a model not accelerated, or ``data`` traced by JAX (the stages themselves are compiled)."""
    return model.__dict__.get(COMPILED) if not is_jax(data.qpos) else None


#: where :func:`rbdl_edu.simulation.accelerated.accelerate` keeps a model's compiled
#: :func:`smooth` (in the model's ``__dict__``, as the per-model caches)
COMPILED = "_compiled_smooth"


def smooth(model, data):
    """The smooth half of the stages: every field that contacts and constraints do not
    change (poses, com frames, tendons, M and its factor, transmissions, velocities, bias
    and passive forces, actuation, :math:`f_{smooth}` and :math:`a_u`), in the stages'
    order without the constraint lines. Run before :func:`constrained` it gives the same
    numbers as :func:`stages`, except where a smooth force follows the contacts (adhesion,
    a body transmission) or contacts wake sleeping trees, which
    :func:`rbdl_edu.simulation.accelerated.refuse` names; it is the part
    :mod:`rbdl_edu.simulation.accelerated` compiles."""
    smooth_position(model, data)
    transmission(model, data)
    smooth_velocity(model, data)
    actuation(model, data)
    smooth_acceleration(model, data)


def constrained(model, data, sensors=True):
    """The other half, after :func:`smooth`: contacts, constraint rows, their reference
    accelerations, the constraint solver; then the sensors of all three stages."""
    collide(model, data)
    make_constraint(model, data)
    reference(model, data, jdotv(model, data))
    fwd_constraint(model, data)
    if sensors:
        sensor_pos(model, data)
        sensor_vel(model, data)
        sensor_acc(model, data)
    if switches(model).energy:
        energy_pos(model, data)
        energy_vel(model, data)


#: the state that forward reads, which must be finite
STATE = ("qpos", "qvel", "act", "ctrl", "qfrc_applied", "xfrc_applied", "mocap_pos", "mocap_quat")
_NUMPY = {np.ndarray}


@per_model
def sized_state(model):
    """The fields of :data:`STATE` that are not empty in ``model``'s sizes (most models have no
    activation, control or mocap body), a tuple of names (never empty: ``qpos`` is there even
    with ``nq = 0``, the sum of nothing being finite)."""
    sizes = dict(qpos=model.nq, qvel=model.nv, act=model.na, ctrl=model.nu, qfrc_applied=model.nv,
                 xfrc_applied=model.nbody, mocap_pos=model.nmocap, mocap_quat=model.nmocap)
    return ("qpos",) + tuple(name for name in STATE[1:] if sizes[name])


def check_finite(model, data):
    """A ValueError naming the field, index and value if the state holds a NaN or an
    infinity (``step`` resets such a state instead, as MuJoCo; see
    :func:`~rbdl_edu.simulation.step.check`)."""
    fields = [getattr(data, name) for name in sized_state(model)]
    if set(map(type, fields)) == _NUMPY and math.isfinite(np.add.reduce(np.concatenate(fields, axis=None))):
        return              # the common case, asked first: a finite sum has no NaN or infinity in it
    for name, x in zip(STATE, [getattr(data, name) for name in STATE]):
        if type(x) is np.ndarray and np.isfinite(x).all():
            continue
        bad = np.flatnonzero(~np.isfinite(x))
        if len(bad):
            index = np.unravel_index(bad[0], x.shape)
            where = ", ".join(str(int(i)) for i in index)
            raise ValueError(f"data.{name}[{where}] is {x[index]} at time {data.time}: forward needs a finite "
                             "state (rbd.step resets a diverged state and warns; rbd.reset starts again)")


def position(model, data, sensors=True):
    """Poses, com frames, tendons, mass matrix and its factor, contacts and constraint rows,
    transmissions; position sensors. With sleep (:mod:`rbdl_edu.simulation.sleep`): a
    sleeping tree that was moved, pushed or touched by an awake one wakes, and its contacts
    with the world and other sleepers are left out."""
    xpos, xquat = data.xpos, data.xquat   # the last poses: a sleeper's must not have changed
    sleep, energy = switches(model)
    smooth_position(model, data)
    wake_moved(model, data, xpos, xquat)
    if sleep:
        wake_on_tendon(model, data)
    collide(model, data)                  # contacts at these poses (rbd.collision computes them first)
    if sleep:
        wake_on_contact(model, data, collide)
        wake_on_equality(model, data)
    make_constraint(model, data)
    transmission(model, data)
    if sensors:
        sensor_pos(model, data)
    if energy:
        energy_pos(model, data)


def smooth_position(model, data):
    """Poses, com frames, cameras, tendons, the mass matrix and its factor."""
    kinematics(model, data)
    com_pos(model, data)
    camera_poses(model, data)
    tendon(model, data)
    mass_matrix(model, data)


def mass_matrix(model, data):
    r""":math:`M(q)` by CRBA, plus each tendon's armature :math:`a\,J^T J` where it falls inside
    M's tree pattern (MuJoCo 4.0 drops the coupling between branches, so M stays
    tree-sparse), ``qM (nv, nv)``; and its :math:`L^TDL` factor ``qLD`` (MuJoCo's ``mj_crb``
    and ``mj_factorM``)."""
    M = crba(model, data.qpos)
    for t in armature_tendons(model):
        M = M + np.where(tree_pattern(model), model.tendon_armature[t] * np.outer(data.ten_J[t], data.ten_J[t]), 0.0)
    data.qM = M
    data.qLD = factor_ltdl(model, to_tree_sparse(model, M))


@per_model
def armature_tendons(model):
    """The tendons with armature, a tuple (most models: none)."""
    return tuple(np.flatnonzero(plain(model).tendon_armature > 0).tolist())


def solve_M(model, data, f):
    """:math:`M^{-1} f` from the tree-sparse factor ``qLD`` (MuJoCo's ``mj_solveM``)."""
    return solve_ltdl(model, data.qLD, f)


def velocity(model, data, sensors=True):
    r"""Tendon and actuator velocities; ``cvel`` and ``qfrc_bias`` from one RNEA pass at
    :math:`\ddot q = 0`; passive forces; velocity sensors. A sleeping dof keeps its
    ``qfrc_adhesion`` (MuJoCo's passive stage skips it): the pull of the adhesive contacts it
    had when it fell asleep, whose contacts are now left out."""
    held = data.qfrc_adhesion
    P = smooth_velocity(model, data)
    if switches(model).sleep and model.flg_adhesion:
        pull = data.qfrc_adhesion
        hold_dofs(model, data, dict(qfrc_adhesion=held))
        data.qfrc_passive = data.qfrc_passive + data.qfrc_adhesion - pull
    # a_ref = -b J q̇ - k d r (and -J̇q̇ on connect and weld rows, from the same RNEA pass)
    reference(model, data, jdotv(model, data, P))
    if sensors:
        sensor_vel(model, data)
    if switches(model).energy:
        energy_vel(model, data)


def smooth_velocity(model, data):
    r"""Tendon and actuator velocities, ``cvel`` and ``qfrc_bias`` from one RNEA pass at
    :math:`\ddot q = 0`, passive forces; returns the RNEA's passes."""
    tendon_velocity(model, data)
    actuator_velocity(model, data)
    # RNEA with zero acceleration: its torques are the bias forces c(q, q̇), its velocities cvel
    P = rnea_passes(posed(model, data), data.qpos, data.qvel, np.zeros(model.nv))
    data.cvel = to_cframes(model, data, P.v if type(P.v) is np.ndarray else stacked(P.v, (model.nbody, 6)))
    # c(q, q̇), plus the tendons' armature a J^T (J̇ q̇) (MuJoCo's mj_tendonBias)
    data.qfrc_bias = P.tau
    if armature_tendons(model):
        cacc = np.array([P.a[0]] + [to_cframe(model, data, i, P.a[i]) for i in range(1, model.nbody)])
        data.qfrc_bias = P.tau + tendon_bias(model, data, cacc)
    passive(model, data)
    return P


def acceleration(model, data, sensors=True, tree_asleep=None):
    r""":math:`f_{smooth} = f_{passive} - c + f_{applied} + f_{actuator} + \sum_b J_b^T f_b`,
    :math:`a_u = M^{-1} f_{smooth}`, then the constraint solver's :math:`\ddot q`; acceleration
    sensors. The dofs of sleeping trees (by ``tree_asleep``, ``data``'s if not given) keep
    their :math:`f_{smooth}` and :math:`a_u`, and no row touches them: their :math:`\ddot q`
    reads :math:`a_u`."""
    held = dict(qfrc_smooth=data.qfrc_smooth, qacc_smooth=data.qacc_smooth)
    smooth_acceleration(model, data)
    if switches(model).sleep:             # (else no tree sleeps: the position stage woke every one)
        hold_dofs(model, data, held, tree_asleep)
    fwd_constraint(model, data)
    if sensors:
        sensor_acc(model, data)


def smooth_acceleration(model, data):
    r""":math:`f_{smooth}` and the unconstrained acceleration :math:`a_u = M^{-1} f_{smooth}`."""
    pushed = (range(model.nbody) if is_jax(data.xfrc_applied)         # traced: every body
              else () if not np.count_nonzero(data.xfrc_applied)         # (C, not ndarray.any's Python wrapper)
              else np.flatnonzero((data.xfrc_applied != 0).any(axis=1)))
    f = data.qfrc_passive - data.qfrc_bias + data.qfrc_applied + data.qfrc_actuator
    if len(pushed):
        qfrc_xfrc = np.zeros(model.nv)
        for b in pushed:
            # [force, torque] in world axes at the body's center of mass
            qfrc_xfrc += apply_ft(model, data, data.xfrc_applied[b, :3], data.xfrc_applied[b, 3:], data.xipos[b], b)
        f = f + qfrc_xfrc
    data.qfrc_smooth = f
    data.qacc_smooth = solve_M(model, data, data.qfrc_smooth)
