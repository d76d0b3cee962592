r"""Integrators: how :func:`~rbdl_edu.forward.step` advances the state by one timestep ``h``
(MuJoCo's ``mj_Euler``, ``mj_RungeKutta``, ``mj_implicit``; book, chapter 8).

All of them end with MuJoCo's ``mj_advance``: activations by their own dynamics
(:func:`~rbdl_edu.actuation.next_act`), then velocities, then positions with the *new*
velocities (semi-implicit, or symplectic, Euler), quaternion-aware
(:func:`~rbdl_edu.integrate.integrate_pos`):

.. math:: \dot q_{t+h} = \dot q_t + h\,\ddot q, \qquad q_{t+h} = q_t \oplus h\,\dot q_{t+h}

* ``Euler``: :math:`\ddot q` from :func:`~rbdl_edu.forward.forward`; but joint damping
  :math:`-B\dot q` is taken implicitly, at the end of the step, which is stable for any
  damping: :math:`(M + hB)\,\ddot q = f` (unless ``<flag eulerdamp="disable"/>``).
* ``implicitfast``: the same with every velocity-dependent force except Coriolis and
  centripetal ones: :math:`(M - hD)\,\ddot q = f`, :math:`D = \mathrm{sym}(\partial f/\partial\dot q)`
  from joint and tendon dampers and actuators that depend on velocity.
* ``RK4``: the classic 4th-order Runge-Kutta on :math:`(q, \dot q, w)`, four evaluations of
  :func:`~rbdl_edu.forward.forward` per step.

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('<mujoco><worldbody><body><joint damping="1e4"/><geom size=".1"/></body></worldbody></mujoco>')
>>> data = rbd.Data(model); data.qvel[:] = 1.0
>>> rbd.step(model, data); data.qvel.round(4)          # heavily damped, and stable
array([0.0008])
"""
from __future__ import annotations

import numpy as np

from .actuation import next_act
from .enums import BALL, BIAS_AFFINE, DYN_NONE, FREE, GAIN_AFFINE
from .integrate import integrate_pos
from .passive import damper_slope


def integrate(model, data):
    """One step of ``model.opt.integrator`` from the state and the :func:`forward` results."""
    name = model.opt.integrator
    if name == "Euler":
        euler(model, data)
    elif name == "RK4":
        rk4(model, data)
    elif name == "implicitfast":
        implicitfast(model, data)
    else:
        raise NotImplementedError(f"integrator {name!r} is not implemented (use Euler, RK4 or implicitfast)")


def advance(model, data, qacc, qvel=None, act_dot=None):
    r"""MuJoCo's ``mj_advance``: activations, then :math:`\dot q \mathrel{+}= h\ddot q`, then
    :math:`q \leftarrow q \oplus h\dot q` with the new velocity (or ``qvel`` if given: RK4's
    weighted one), and the time; ``qacc_warmstart`` keeps ``data.qacc`` for the next step."""
    h = model.opt.timestep
    data.act = next_act(model, data, h, act_dot)
    data.qvel = data.qvel + h * qacc
    data.qpos = integrate_pos(model, data.qpos, data.qvel if qvel is None else qvel, h)
    data.time = data.time + h
    data.qacc_warmstart = data.qacc.copy()             # where the next constraint solve starts


def euler(model, data):
    r"""Semi-implicit Euler, joint damping implicit: :math:`(M + hB)\,\ddot q = f_{smooth} + f_{constraint}`."""
    h = model.opt.timestep
    qacc = data.qacc
    if not model.opt.disabled("eulerdamp") and not model.opt.disabled("damper") \
            and (np.any(model.dof_damping) or np.any(model.dof_dampingpoly)):
        # the damper -B q̇ at the end of the step: M q̈ = f - hB q̈  =>  (M + hB) q̈ = f
        MhB = data.qM + h * np.diag(damper_slope(model, data.qvel))
        qacc = np.linalg.solve(MhB, data.qfrc_smooth + data.qfrc_constraint)
    advance(model, data, qacc)


def implicitfast(model, data):
    r"""Implicit in the velocity-dependent forces (Coriolis excluded):
    :math:`(M - hD)\,\ddot q = f_{smooth} + f_{constraint}`."""
    h = model.opt.timestep
    D = velocity_derivative(model, data)
    qacc = np.linalg.solve(data.qM - h * (D + D.T) / 2, data.qfrc_smooth + data.qfrc_constraint)
    advance(model, data, qacc)


def velocity_derivative(model, data):
    r""":math:`D = \partial f/\partial\dot q` of the passive and actuator forces, ``(nv, nv)``
    (MuJoCo's ``mjd_smooth_vel`` without the RNE part): joint dampers :math:`-B`, tendon
    dampers :math:`-J^T b J`, and each actuator whose force depends on its velocity
    :math:`\dot l = g^T\dot q`: :math:`g\,(\partial F/\partial\dot l)\,g^T`."""
    m = model
    if m.opt.density > 0 or m.opt.viscosity > 0:
        raise NotImplementedError("implicitfast with fluid forces (their velocity derivative) is not "
                                  "implemented; use Euler or RK4")
    if np.any((m.jnt_type == FREE) & _standalone(m)):
        raise NotImplementedError("implicitfast: a standalone free body (MuJoCo adds its gyroscopic "
                                  "derivative) is not implemented; use Euler or RK4")
    D = np.zeros((m.nv, m.nv))
    if not m.opt.disabled("damper"):
        D -= np.diag(damper_slope(m, data.qvel))
        b = m.tendon_damping
        D -= (data.ten_J.T * b) @ data.ten_J
        if np.any(m.tendon_dampingpoly):
            raise NotImplementedError("implicitfast with nonlinear tendon damping is not implemented")
    if not m.opt.disabled("actuation"):
        for i in range(m.nu):
            dF = _force_velocity_slope(m, data, i)
            if dF:
                g = data.actuator_moment[i]
                D += dF * np.outer(g, g)
    return D


def _force_velocity_slope(model, data, i):
    r""":math:`\partial F_i/\partial\dot l_i` of actuator ``i``: gain ``affine`` contributes
    ``gainprm[2]`` times its input, bias ``affine`` contributes ``biasprm[2]``."""
    m = model
    if m.actuator_forcelimited[i]:
        lo, hi = m.actuator_forcerange[i]
        if not lo < data.actuator_force[i] < hi:          # a clamped force does not respond
            return 0.0
    slope = 0.0
    if m.actuator_gaintype[i] == GAIN_AFFINE:
        u = data.act[m.actuator_actadr[i]] if m.actuator_dyntype[i] != DYN_NONE else data.ctrl[i]
        slope += m.actuator_gainprm[i, 2] * u
    if m.actuator_biastype[i] == BIAS_AFFINE:
        slope += m.actuator_biasprm[i, 2]
    return slope


def _standalone(model):
    """Per joint: True for a free joint whose body has no jointed descendant."""
    out = np.zeros(model.njnt, dtype=bool)
    for j in np.flatnonzero(model.jnt_type == FREE):
        b = model.jnt_bodyid[j]
        below = [i for i in range(b + 1, model.nbody) if model.body_rootid[i] == model.body_rootid[b]]
        out[j] = not any(model.body_jntnum[i] for i in below)
    return out


def rk4(model, data):
    r"""4th-order Runge-Kutta on :math:`x = (q, \dot q, w)` with rates :math:`(\dot q, \ddot q, \dot w)`
    (MuJoCo's ``mj_RungeKutta``): stages at :math:`t + \tfrac h2, t + \tfrac h2, t + h`,
    weights :math:`\tfrac16, \tfrac13, \tfrac13, \tfrac16`.

    Orientations (ball and free joints) are Runge-Kutta-Munthe-Kaas: a stage's orientation is
    :math:`q_0 \otimes \exp(\theta)` with :math:`\theta = h \sum_j a_j k_j`, and each stage's
    angular velocity :math:`\omega` enters through :math:`k = \mathrm{dexp}^{-1}_\theta(\omega)`
    (:func:`dexp_inv`), which keeps the orientation 4th-order accurate (MuJoCo 4.0)."""
    from .forward import forward
    h = model.opt.timestep
    A, B = ((0.5,), (0.0, 0.5), (0.0, 0.0, 1.0)), (1 / 6, 1 / 3, 1 / 3, 1 / 6)
    C = (0.5, 0.5, 1.0)
    t0, q0, v0, w0 = data.time, data.qpos.copy(), data.qvel.copy(), data.act.copy()
    K, F = [v0.copy()], [(data.qacc.copy(), data.act_dot.copy())]   # position and other rates
    for a, c in zip(A, C):
        # x_i = x_0 + h sum_j a_ij F_j   (positions on their manifold: q_0 ⊕ h sum_j a_ij k_j)
        theta = h * sum(aj * k for aj, k in zip(a, K))
        acc, w = (sum(aj * f[n] for aj, f in zip(a, F)) for n in range(2))
        data.time = t0 + c * h
        data.qpos = integrate_pos(model, q0, theta, 1.0)
        data.qvel, data.act = v0 + h * acc, w0 + h * w
        forward(model, data)
        K.append(dexp_inv(model, theta, data.qvel))
        F.append((data.qacc.copy(), data.act_dot.copy()))
    k, acc, w = (sum(bj * x for bj, x in zip(B, xs)) for xs in (K, [f[0] for f in F], [f[1] for f in F]))
    data.time, data.qpos, data.qvel, data.act = t0, q0, v0, w0
    advance(model, data, acc, qvel=k, act_dot=w)


def dexp_inv(model, theta, qvel):
    r"""``qvel`` with each ball or free joint's angular velocity :math:`\omega` replaced by
    :math:`\mathrm{dexp}^{-1}_\theta(\omega) = \omega + \tfrac12\,\theta\times\omega +
    \tfrac1{12}\,\theta\times(\theta\times\omega)`, the rate of the rotation vector
    :math:`\theta` (with :math:`q = q_0 \otimes \exp\theta`) that turns at :math:`\omega`
    in the body frame (the series to the order RK4 needs)."""
    k = np.array(qvel, dtype=float)
    for j in np.flatnonzero((model.jnt_type == FREE) | (model.jnt_type == BALL)):
        d = model.jnt_dofadr[j] + (3 if model.jnt_type[j] == FREE else 0)
        th, w = theta[d:d + 3], qvel[d:d + 3]
        c = np.cross(th, w)
        k[d:d + 3] = w + c / 2 + np.cross(th, c) / 12
    return k
