r"""Integrators: how :func:`~rbdl_edu.simulation.step.step` advances the state by one timestep ``h``
(MuJoCo's ``mj_Euler``, ``mj_RungeKutta``, ``mj_implicit``; book, chapter 8).

All of them end with MuJoCo's ``mj_advance``: activations by their own dynamics
(:func:`~rbdl_edu.smooth.actuation.next_act`), then velocities, then positions with the *new*
velocities (semi-implicit, or symplectic, Euler), quaternion-aware
(:func:`~rbdl_edu.configuration.integrate_pos`):

.. math:: \dot q_{t+h} = \dot q_t + h\,\ddot q, \qquad q_{t+h} = q_t \oplus h\,\dot q_{t+h}

* ``Euler``: :math:`\ddot q` from :func:`~rbdl_edu.simulation.forward.forward`; but joint damping
  :math:`-B\dot q` is taken implicitly, at the end of the step, which is stable for any
  damping: :math:`(M + hB)\,\ddot q = f` (unless ``<flag eulerdamp="disable"/>``).
* ``implicitfast``: the same with every velocity-dependent passive and actuator force:
  :math:`(M - hD)\,\ddot q = f`, :math:`D = \mathrm{sym}(\partial f/\partial\dot q)` from
  joint and tendon dampers, the fluid and actuators that depend on velocity
  (:mod:`rbdl_edu.simulation.velocity_derivatives`); Coriolis and centrifugal forces stay explicit, except
  on standalone free bodies, whose gyroscopic derivative is solved for in their own block.
* ``implicit``: the same with the derivative of every smooth force, the bias force's too
  (:func:`~rbdl_edu.simulation.velocity_derivatives.bias_vel`): :math:`(M - hD)\,\ddot q = f`
  with :math:`D = \partial(f_{passive} + f_{actuator} - c)/\partial\dot q`, unsymmetric,
  solved by LU (MuJoCo's ``mj_implicit``).
* ``RK4``: the classic 4th-order Runge-Kutta on :math:`(q, \dot q, w)`, four evaluations of
  :func:`~rbdl_edu.simulation.forward.forward` per step.

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('<mujoco><worldbody><body><joint damping="1e4"/><geom size=".1"/></body></worldbody></mujoco>')
>>> data = rbd.Data(model); data.qvel[:] = 1.0
>>> rbd.step(model, data); data.qvel.round(4)          # heavily damped, and stable
array([0.0008])
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rbdl_edu.arrays import asarray, is_jax, namespace, put
from rbdl_edu.cache import per_model
from rbdl_edu.configuration import integrate_pos, rotating_joints
from rbdl_edu.factor import factor_ltdl, solve_ltdl, to_tree_sparse, tree_pattern
from rbdl_edu.model.enums import DYN_DCMOTOR, FREE, GAIN_PID, MINVAL
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import cross
from rbdl_edu.simulation.forward import acceleration, compiled_half, stages, switches, velocity
from rbdl_edu.simulation.sleep import fall_asleep, freeze, hold_sensors
from rbdl_edu.simulation.velocity_derivatives import (bias_vel, free_bias_vel, free_body_joints, is_diagonal,
                                                      smooth_vel, smooth_vel_diagonal)
from rbdl_edu.smooth.actuation import actuation, next_act
from rbdl_edu.smooth.passive import damper_slope
from rbdl_edu.smooth.transmission import wrap_period


def integrate(model, data):
    """One step of ``model.opt.integrator`` from the state and the :func:`forward` results."""
    name = model.opt.integrator
    if name == "Euler":
        euler(model, data)
    elif name == "RK4":
        if model.opt.enabled("sleep"):
            raise NotImplementedError("sleep with the RK4 integrator is not simulated: MuJoCo 4.0 runs the stages "
                                      "after a tree falls asleep at the last Runge-Kutta stage's poses (and its RK4 "
                                      "stages wake the sleepers at once); use Euler or implicitfast")
        rk4(model, data)
    elif name == "implicitfast":
        implicitfast(model, data)
    elif name == "implicit":
        implicit(model, data)
    else:
        raise NotImplementedError(f"integrator {name!r} is not implemented (use Euler, RK4, implicit or "
                                  "implicitfast)")


def advance(model, data, qacc, qvel=None, act_dot=None):
    r"""MuJoCo's ``mj_advance``: activations, then :math:`\dot q \mathrel{+}= h\ddot q`, then
    :math:`q \leftarrow q \oplus h\dot q` with the new velocity (or ``qvel`` if given: RK4's
    weighted one), and the time; ``qacc_warmstart`` keeps ``data.qacc`` for the next step.
    With sleep, trees at rest fall asleep first, and then stay where they are
    (:mod:`rbdl_edu.simulation.sleep`)."""
    h, sleep = model.opt.timestep, switches(model).sleep
    if model.na:
        data.act = next_act(model, data, h, act_dot)
    if sleep:
        asleep, held = data.tree_asleep.copy(), data.sensordata.copy()
        if fall_asleep(model, data):
            # the stages after the poses again, the new sleepers at rest (MuJoCo's mj_forwardSkip)
            velocity(model, data)
            actuation(model, data)
            acceleration(model, data, tree_asleep=asleep)      # the earlier sleepers keep theirs
            hold_sensors(model, data, held, asleep)
    q0, v0 = data.qpos, data.qvel
    data.qvel = data.qvel + h * qacc
    data.qpos = integrate_pos(model, data.qpos, data.qvel if qvel is None else qvel, h)
    if sleep:
        data.qpos, data.qvel = freeze(model, data, q0, v0, data.qpos, data.qvel)
    data.time = data.time + h
    data.qacc_warmstart = data.qacc         # (copied, as every input) where the next constraint solve starts


def implicit_matrix(model, data):
    r"""The matrix :math:`H` that the integrator solves :math:`H\ddot q = f_{smooth} +
    f_{constraint}` with, ``(nv, nv)``, or ``None`` where it takes ``data.qacc`` as it is
    (Euler without implicit damping, RK4). The one owner of each integrator's matrix:
    :func:`euler` and :func:`implicitfast` step with it, and
    :func:`~rbdl_edu.simulation.inverse.discrete_acc` inverts it."""
    if model.opt.integrator == "Euler":
        return euler_matrix(model, data)
    if model.opt.integrator == "implicitfast":
        qH, blocks = implicitfast_matrices(model, data)
        for d, A in blocks:
            qH[d, d] = A                     # the free bodies' blocks are decoupled from the rest
        return qH
    if model.opt.integrator == "implicit":
        return implicit_matrix_full(model, data)
    return None


@per_model
def damped(model):
    """True if some dof has a damper (``dof_damping`` or ``dof_dampingpoly``)."""
    return bool(np.any(model.dof_damping) or np.any(model.dof_dampingpoly))


@per_model
def tendon_armature(model):
    """True if some tendon has armature (which couples the branches of the tree in ``M``)."""
    return bool(np.any(plain(model).tendon_armature > 0))


def euler_matrix(model, data):
    r""":math:`M + hB`, Euler's matrix with the joint dampers taken at the end of the step, or
    ``None`` where there is no damping to take (``<flag eulerdamp="disable"/>``,
    ``damper="disable"``, or no ``dof_damping``)."""
    if model.opt.disabled("eulerdamp") or model.opt.disabled("damper") \
            or not damped(model):
        return None
    # the damper -B q̇ at the end of the step: M q̈ = f - hB q̈  =>  (M + hB) q̈ = f
    return data.qM + model.opt.timestep * namespace(data.qM, data.qvel).diag(damper_slope(model, data.qvel))


def euler(model, data):
    r"""Semi-implicit Euler, joint damping implicit: :math:`(M + hB)\,\ddot q = f_{smooth} + f_{constraint}`."""
    MhB = euler_matrix(model, data)
    qacc = data.qacc if MhB is None else namespace(MhB).linalg.solve(MhB, data.qfrc_smooth + data.qfrc_constraint)
    advance(model, data, qacc)


def implicitfast_matrices(model, data):
    r"""``implicitfast``'s matrices: :math:`M - hD` with :math:`D` the symmetric part of
    ``qDeriv`` (:func:`~rbdl_edu.simulation.velocity_derivatives.smooth_vel`) without the rows
    and columns of standalone free bodies, and for each free body its block ``(dofs, A)`` with
    :math:`A = M - h\,(\partial f_{smooth}/\partial\dot q)`, its gyroscopic derivative
    included (:func:`~rbdl_edu.simulation.velocity_derivatives.free_bias_vel`; unsymmetric)."""
    h = model.opt.timestep
    qDeriv = smooth_vel(model, data)
    D = (qDeriv + qDeriv.T) / 2
    blocks = []
    for j in free_body_joints(model):
        d = slice(model.jnt_dofadr[j], model.jnt_dofadr[j] + 6)
        D = put(put(D, (d, slice(None)), 0.0), (slice(None), d), 0.0)
        blocks.append((d, data.qM[d, d] - h * (qDeriv[d, d] - free_bias_vel(model, data, j))))
    return data.qM - h * D, blocks


def implicitfast(model, data):
    r"""Implicit in the velocity-dependent passive and actuator forces (MuJoCo's ``mj_implicit``
    for ``implicitfast``): :math:`(M - hD)\,\ddot q = f_{smooth} + f_{constraint}`
    (:func:`implicitfast_matrices`), symmetric and solved with its tree-sparse factor; then
    each standalone free body's :math:`6\times6` block again, with its gyroscopic derivative.
    A singular block keeps the global solve's accelerations (as MuJoCo's failed
    :math:`6\times6` LU)."""
    f = data.qfrc_smooth + data.qfrc_constraint
    if factored_in_smooth_half(model, data):    # accelerated: data.qH came with the compiled smooth half
        qacc, blocks = solve_factored(model, data, data.qH, f), ()
    elif diagonal_qH(model) and not is_jax(data.qM):   # D on the diagonal: M's entries, the diagonal's moved
        qacc, blocks = solve_factored(model, data, factor_ltdl(model, qH_entries(model, data), min_pivot=MINVAL),
                                      f), ()
    else:
        qH, blocks = implicitfast_matrices(model, data)
        qacc = solve_qH(model, data, qH, f)
    for d, A in blocks:
        if is_jax(A):            # traced: a singular block keeps the global solve's, as below
            a_d = namespace(A).linalg.solve(A, f[d])
            qacc = put(qacc, d, namespace(a_d).where(namespace(a_d).isfinite(a_d).all(), a_d, qacc[d]))
            continue
        try:
            qacc[d] = np.linalg.solve(A, f[d])
        except np.linalg.LinAlgError:
            pass
    advance(model, data, qacc)


@per_model
def diagonal_qH(model):
    """True if ``implicitfast``'s :math:`M - hD` differs from ``M`` on the diagonal only: the
    derivatives are a dof's own (:func:`~rbdl_edu.simulation.velocity_derivatives.is_diagonal`),
    no standalone free body has a block, and no tendon armature makes ``M`` dense."""
    return is_diagonal(model) and not free_body_joints(model) and not tendon_armature(model)


def qH_entries(model, data):
    r"""The tree-sparse entries ``(nM,)`` of :func:`implicitfast_matrices`' :math:`M - hD` where
    :math:`D` is diagonal (:func:`diagonal_qH`): ``M``'s, with :math:`h D_{ii}` taken from each
    diagonal entry (:func:`~rbdl_edu.simulation.velocity_derivatives.smooth_vel_diagonal`), the
    same numbers without the :math:`(n_v, n_v)` matrices."""
    Madr, qH = model.dof_Madr, to_tree_sparse(model, data.qM)
    qH[Madr] = qH[Madr] - model.opt.timestep * smooth_vel_diagonal(model, data)
    return qH


def implicit_matrix_full(model, data):
    r"""``implicit``'s matrix :math:`M - hD`, :math:`D` the derivative of every smooth force
    (:func:`~rbdl_edu.simulation.velocity_derivatives.smooth_vel` minus
    :func:`~rbdl_edu.simulation.velocity_derivatives.bias_vel`), kept where ``M`` has
    entries (a dof and its ancestors), as MuJoCo's ``qDeriv``."""
    D = np.where(tree_pattern(model), smooth_vel(model, data) - bias_vel(model, data), 0.0)
    return data.qM - model.opt.timestep * D


def implicit(model, data):
    r"""Implicit in every velocity-dependent force, Coriolis and centrifugal included
    (MuJoCo's ``mj_implicit`` for ``implicit``): :math:`(M - hD)\,\ddot q = f_{smooth} +
    f_{constraint}` (:func:`implicit_matrix_full`), unsymmetric, solved by LU."""
    f = data.qfrc_smooth + data.qfrc_constraint
    advance(model, data, np.linalg.solve(implicit_matrix_full(model, data), f))


def solve_qH(model, data, qH, f):
    r""":math:`\hat M^{-1} f` for the modified mass matrix :math:`\hat M = M - hD` (``qH``),
    from its tree-sparse :math:`L^TDL` factor, as MuJoCo: :math:`\hat M` need not be
    positive definite (a force that grows with velocity), and a pivot below ``MINVAL`` is
    raised to it and recorded as an :class:`InertiaWarning` in ``data.warning["inertia"]`` (the huge
    acceleration that follows makes the next step reset the state). Dense when tendon
    armature couples branches of the tree (as :func:`~rbdl_edu.simulation.forward.solve_M`)."""
    if tendon_armature(model):
        return namespace(qH).linalg.solve(qH, f)
    return solve_factored(model, data, factor_qH(model, qH), f, qH)


def factor_qH(model, qH):
    """``qH``'s tree-sparse :math:`L^TDL` factor (``(nM,)``, MuJoCo's ``d->qH``), a pivot below
    ``MINVAL`` raised to it."""
    return factor_ltdl(model, to_tree_sparse(model, qH), min_pivot=MINVAL)


def solve_factored(model, data, qLD, f, qH=None):
    r""":math:`\hat M^{-1} f` from the factor ``qLD`` of :func:`factor_qH`; a raised pivot is
    recorded (:class:`InertiaWarning`; its diagonal entry from ``qH``, recomputed if not given)."""
    if is_jax(qLD):              # traced by rbdl_edu.compiled: a warning cannot be recorded
        return solve_ltdl(model, qLD, f)
    raised = np.flatnonzero(qLD[model.dof_Madr] == MINVAL)
    if len(raised):
        k = int(raised[-1])                                # the first one eliminated
        qH = implicitfast_matrices(model, data)[0] if qH is None else qH
        data.warning.record("inertia", InertiaWarning(float(data.time), k, float(qH[k, k])))
    return solve_ltdl(model, qLD, f)


@per_model
def factor_in_smooth_half(model):
    """True if ``implicitfast``'s factor of :math:`M - hD` can be computed with the smooth half
    (:func:`implicitfast_factor`): it depends on the state alone, not on the constraint forces;
    not where a standalone free body has its own block, nor where tendon armature makes the
    matrix dense."""
    return model.opt.integrator == "implicitfast" and not free_body_joints(model) and not tendon_armature(model)


def implicitfast_factor(model, data):
    """``data.qH``: the factor of ``implicitfast``'s :math:`M - hD` at the current state, which an
    accelerated model computes in its compiled smooth half (:mod:`rbdl_edu.simulation.accelerated`;
    where :func:`factor_in_smooth_half`)."""
    data.qH = factor_qH(model, implicitfast_matrices(model, data)[0])


def factored_in_smooth_half(model, data):
    """True if ``data.qH`` is fresh: the model's smooth half is compiled and computed it at this
    state (:func:`~rbdl_edu.simulation.forward.stages` ran it before the constraint solve)."""
    return compiled_half(model, data) is not None and factor_in_smooth_half(model)


class InertiaWarning(NamedTuple):
    """MuJoCo's ``mjWARN_INERTIA``: at ``time`` the modified mass matrix :math:`M - hD` of
    ``implicitfast`` was not positive definite; elimination met a pivot below ``MINVAL``
    at dof ``index`` (whose diagonal entry was ``value``) and raised it to ``MINVAL``."""
    time: float
    index: int
    value: float


def rk4(model, data):
    r"""4th-order Runge-Kutta on :math:`x = (q, \dot q, w)` with rates :math:`(\dot q, \ddot q, \dot w)`
    (MuJoCo's ``mj_RungeKutta``): stages at :math:`t + \tfrac h2, t + \tfrac h2, t + h`,
    weights :math:`\tfrac16, \tfrac13, \tfrac13, \tfrac16`.

    Orientations (ball and free joints) are Runge-Kutta-Munthe-Kaas: a stage's orientation is
    :math:`q_0 \otimes \exp(\theta)` with :math:`\theta = h \sum_j a_j k_j`, and each stage's
    angular velocity :math:`\omega` enters through :math:`k = \mathrm{dexp}^{-1}_\theta(\omega)`
    (:func:`dexp_inv`), which keeps the orientation 4th-order accurate (MuJoCo 4.0)."""
    h = model.opt.timestep
    A, B = ((0.5,), (0.0, 0.5), (0.0, 0.0, 1.0)), (1 / 6, 1 / 3, 1 / 3, 1 / 6)
    C = (0.5, 0.5, 1.0)
    t0, q0, v0, w0 = data.time, data.qpos.copy(), data.qvel.copy(), data.act.copy()
    wraps, motors = rk4_held_transmission(model)
    # a servo's activation on an angle is wrapped near the length at the start of the step
    # (MuJoCo 4.0 then leaves that transmission, not the last stage's, in data; a PID's
    # states are not wrapped)
    start = (data.actuator_length.copy(), data.actuator_moment.copy()) if wraps else None
    # a DC motor's states step at the start's actuator velocities (MuJoCo 4.0 leaves those in data)
    start_velocity = data.actuator_velocity.copy() if motors else None
    K, F = [v0.copy()], [(data.qacc.copy(), data.act_dot.copy())]   # position and other rates
    for a, c in zip(A, C):
        # x_i = x_0 + h sum_j a_ij F_j   (positions on their manifold: q_0 ⊕ h sum_j a_ij k_j)
        theta = h * sum(aj * k for aj, k in zip(a, K))
        acc, w = (sum(aj * f[n] for aj, f in zip(a, F)) for n in range(2))
        data.time = t0 + c * h
        data.qpos = integrate_pos(model, q0, theta, 1.0)
        data.qvel, data.act = v0 + h * acc, w0 + h * w
        stages(model, data, sensors=False)           # as MuJoCo: sensors read the start of the step
        K.append(dexp_inv(model, theta, data.qvel))
        F.append((data.qacc.copy(), data.act_dot.copy()))
    k, acc, w = (sum(bj * x for bj, x in zip(B, xs)) for xs in (K, [f[0] for f in F], [f[1] for f in F]))
    data.time, data.qpos, data.qvel, data.act = t0, q0, v0, w0
    if wraps:
        data.actuator_length, data.actuator_moment = start
    if motors:
        data.actuator_velocity = start_velocity
    advance(model, data, acc, qvel=k, act_dot=w)      # qacc_warmstart: the last stage's qacc
    data.qacc = acc                                  # qacc: the weighted one the step took, as MuJoCo


@per_model
def rk4_held_transmission(model):
    """What :func:`rk4` keeps from the start of the step: ``(wraps, motors)``, True if some
    servo with an activation (not a PID's states) acts on an angle (its transmission) and if
    some DC motor has states (its actuator velocities)."""
    m = plain(model)
    wraps = any(wrap_period(model, i) > 0
                for i in np.flatnonzero((m.actuator_actadr >= 0) & (m.actuator_gaintype != GAIN_PID)))
    motors = bool(np.any((m.actuator_dyntype == DYN_DCMOTOR) & (m.actuator_actadr >= 0)))
    return wraps, motors


def dexp_inv(model, theta, qvel):
    r"""``qvel`` with each ball or free joint's angular velocity :math:`\omega` replaced by
    :math:`\mathrm{dexp}^{-1}_\theta(\omega) = \omega + \tfrac12\,\theta\times\omega +
    \tfrac1{12}\,\theta\times(\theta\times\omega)`, the rate of the rotation vector
    :math:`\theta` (with :math:`q = q_0 \otimes \exp\theta`) that turns at :math:`\omega`
    in the body frame (the series to the order RK4 needs)."""
    k = asarray(qvel)
    for j in rotating_joints(model):
        d = model.jnt_dofadr[j] + (3 if model.jnt_type[j] == FREE else 0)
        th, w = theta[d:d + 3], qvel[d:d + 3]
        c = cross(th, w)
        k = put(k, slice(d, d + 3), w + c / 2 + cross(th, c) / 12)
    return k
