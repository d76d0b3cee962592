r"""How the smooth forces change with velocity: the matrices the ``implicitfast`` and
``implicit`` integrators need (MuJoCo's ``mjd_smooth_vel``, with its RNE part for
``implicit``, and ``mjd_freeBias_vel``; book, chapter 8).

``implicitfast`` takes the velocity-dependent forces at the end of the step. To first order
:math:`f(\dot q + h\ddot q) = f + hD\ddot q` with :math:`D = \partial f/\partial\dot q`, so
:math:`M\ddot q = f + hD\ddot q`, i.e. :math:`(M - hD)\,\ddot q = f`. :func:`smooth_vel`
is MuJoCo's ``qDeriv``, the derivative of the passive and actuator forces:

=======================  ===============================================================
dof dampers              :math:`-\mathrm{diag}(b'(\dot q))`, the slope of each (nonlinear)
                         damper (:func:`~rbdl_edu.smooth.passive.damper_slope`)
tendon dampers           :math:`-J_t^T\,b_t'(\dot l_t)\,J_t` for each tendon
fluid                    :math:`\sum J^T B J` (:mod:`rbdl_edu.simulation.fluid_derivatives`)
actuators                :math:`g_i\,(\partial F_i/\partial\dot l_i)\,g_i^T` with the moment
                         arm :math:`g_i` (:func:`actuator_slope`)
=======================  ===============================================================

As MuJoCo, ``qDeriv`` keeps only the entries that ``M`` has, :math:`(i, j)` with one dof
an ancestor of the other (:func:`tree_pattern`): a tendon or an actuator that couples two
branches of the tree (or two trees) damps each branch, not their coupling.

The bias force :math:`c(q, \dot q)` (Coriolis, centrifugal, gyroscopic) is left out of
:math:`D`: its derivative is what makes :math:`D` unsymmetric, and without it
:math:`M - hD` is symmetric (``implicitfast`` symmetrizes the rest) and has a cheap
:math:`L^TDL` factor. The exception is a *standalone free body* (:func:`is_free_body`),
whose gyroscopic torque :math:`\omega\times I\omega` would otherwise pump energy into a
tumbling body: its :math:`6\times6` block is decoupled from the rest of the system and is
solved again with the exact derivative :func:`free_bias_vel` (MuJoCo 4.0).

``implicit`` keeps it everywhere: :math:`D = \partial(f_{passive} + f_{actuator} -
c)/\partial\dot q` (:func:`bias_vel`), unsymmetric, and solves :math:`M - hD` by LU.

Float-only NumPy, like every simulation stage.

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><body><joint name="j" damping="2"/><geom size=".1"/>
...   </body></worldbody><actuator><velocity joint="j" kv="3"/></actuator></mujoco>''')
>>> data = rbd.Data(model); rbd.forward(model, data)
>>> smooth_vel(model, data)          # the damper -2 and the servo's -kv
array([[-5.]])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import namespace, put
from rbdl_edu.cache import per_model
from rbdl_edu.factor import tree_pattern
from rbdl_edu.model.enums import (BIAS_AFFINE, BIAS_DCMOTOR, BIAS_SO3, FREE, GAIN_AFFINE, GAIN_DCMOTOR, GAIN_MUSCLE,
                                  GAIN_SO3, HINGE, SLIDE, TRN_JOINT, TRN_JOINTINPARENT, TRN_TENDON)
from rbdl_edu.model.frozen import plain
from rbdl_edu.rnea import rnea_passes
from rbdl_edu.rotation import cross, skew
from rbdl_edu.simulation.fluid_derivatives import fluid_vel
from rbdl_edu.smooth import dcmotor
from rbdl_edu.smooth.actuation import (clamped_ctrl, controls, first_outputs, gain_input, switched_off,
                                      unlimited_force)
from rbdl_edu.smooth.comframe import posed
from rbdl_edu.smooth.muscle import muscle_gain_vel
from rbdl_edu.smooth.passive import damper_slope


def smooth_vel(model, data):
    r"""``qDeriv (nv, nv)``: :math:`\partial(f_{passive} + f_{actuator})/\partial\dot q`
    (table in the module docstring), zero outside :func:`tree_pattern`. Under
    ``implicitfast`` the ellipsoid fluid blocks are symmetrized, except on standalone free
    bodies, as MuJoCo does. Needs :func:`~rbdl_edu.simulation.forward.forward`'s results."""
    D = passive_vel(model, data) + actuator_vel(model, data)
    if not couples_branches(model):      # every entry is one that M has already
        return D
    return namespace(D).where(tree_pattern(model), D, 0.0)


@per_model
def couples_branches(model):
    """True if a term of :func:`smooth_vel` may couple dofs that are not ancestor and
    descendant (outside :func:`tree_pattern`): a tendon (its damper, an actuator on it), or an
    actuator that pulls at a site, a body or a slider-crank. (A joint's actuator moves its
    own dofs; the fluid pushes on a body through the dofs above it.)"""
    m = plain(model)
    on_joints = np.isin(m.actuator_trntype, (TRN_JOINT, TRN_JOINTINPARENT))
    return bool(m.ntendon) or not bool(np.all(on_joints))


def bias_vel(model, data):
    r""":math:`\partial c/\partial\dot q` ``(nv, nv)``, the derivative of the bias force
    ``qfrc_bias`` (Coriolis, centrifugal, gyroscopic; MuJoCo's ``mjd_rne_vel``).

    :math:`c(\dot q) = g + B(\dot q, \dot q)` is quadratic in the velocity (:math:`B`
    symmetric bilinear), so a central difference is its derivative exactly, not
    approximately: :math:`c(\dot q + s e_k) - c(\dot q - s e_k) = 4s\,B(\dot q, e_k)
    = 2s\,(\partial c/\partial\dot q)\,e_k` for any step :math:`s` (taken at the size of
    :math:`\dot q` to keep the rounding small). Column :math:`k` costs two RNEA passes."""
    m = model
    P, q, v = posed(m, data), data.qpos, np.asarray(data.qvel, dtype=float)
    s = max(1.0, float(np.abs(v).max(initial=0.0)))
    zero = np.zeros(m.nv)
    out = np.zeros((m.nv, m.nv))
    for k in range(m.nv):
        e = np.zeros(m.nv)
        e[k] = s
        out[:, k] = (rnea_passes(P, q, v + e, zero).tau - rnea_passes(P, q, v - e, zero).tau) / (2 * s)
    return out


@per_model
def is_diagonal(model):
    """True if :func:`smooth_vel` is diagonal for ``model``: no fluid, no tendon damper, and
    every actuator moves one hinge or slide (``joint``, ``jointinparent``), so that each term of
    the table is a dof's own (:func:`smooth_vel_diagonal` gives the diagonal)."""
    m = plain(model)
    on_joint = np.isin(m.actuator_trntype, (TRN_JOINT, TRN_JOINTINPARENT))
    on_scalar = on_joint.all() and np.isin(m.jnt_type[m.actuator_trnid[on_joint, 0]], (HINGE, SLIDE)).all()
    return not (model.opt.density > 0 or model.opt.viscosity > 0) and not np.any(m.tendon_damping) \
        and not np.any(m.tendon_dampingpoly) and bool(on_scalar)


def smooth_vel_diagonal(model, data):
    r"""The diagonal of :func:`smooth_vel` ``(nv,)`` where it is all there is (:func:`is_diagonal`):
    each dof's damper slope :math:`-b'(\dot q)` plus :math:`g_i\,(\partial F_i/\partial\dot l_i)\,g_i`
    of each actuator on it (its moment arm :math:`g_i`), the same numbers without the
    :math:`(n_v, n_v)` matrices."""
    m = model
    D = np.zeros(m.nv)
    if dampers_on(model):
        # b + 2 b2 |v| + 3 b3 v^2 (damper_slope) is b itself where no damper is polynomial
        D = D - (plain(model).dof_damping if not polynomial_dampers(model) else damper_slope(model, data.qvel))
    if m.nactuator and not m.opt.disabled("actuation"):
        slope, (rows, dofs) = actuator_slope(m, data), actuator_dofs(model)
        g = data.actuator_moment[rows, dofs]
        D = D + np.bincount(dofs, weights=g * slope * g, minlength=m.nv)
    return D


@per_model
def actuator_dofs(model):
    """Each actuator and the one dof it moves, two index arrays (where :func:`is_diagonal`)."""
    m = plain(model)
    return np.arange(m.nactuator), m.jnt_dofadr[m.actuator_trnid[:, 0]]


@per_model
def polynomial_dampers(model):
    """True if some dof's damper is polynomial (``dof_dampingpoly``), its slope not a constant."""
    return bool(np.any(plain(model).dof_dampingpoly))


@per_model
def dampers_on(model):
    """True if the dof and tendon dampers count in :func:`passive_vel` (neither ``passive`` nor
    ``damper`` is disabled)."""
    return not model.opt.disabled("passive") and not model.opt.disabled("damper")


def passive_vel(model, data):
    r""":math:`\partial f_{passive}/\partial\dot q` ``(nv, nv)``: dof and tendon dampers (unless
    the ``damper`` flag is off) and the fluid (unless ``spring`` and ``damper`` are both
    off, which switches off the passive stage)."""
    m, opt = plain(model), model.opt
    if opt.disabled("passive") or (opt.disabled("spring") and opt.disabled("damper")):
        return np.zeros((m.nv, m.nv))
    # implicitfast symmetrizes the ellipsoid blocks, except on standalone free bodies
    D = fluid_vel(model, data, symmetrized_bodies(model))
    if not dampers_on(model):
        return D
    # the dof dampers -b(v) v: slope -(b + 2 b2 |v| + 3 b3 v^2) on the diagonal
    D = D - namespace(data.qvel).diag(damper_slope(model, data.qvel))
    # a tendon damper pulls -b_t(l̇) l̇ along the tendon: -J^T b_t'(l̇) J, with l̇ = J q̇
    for t in range(m.ntendon):
        b, (b2, b3) = m.tendon_damping[t], m.tendon_dampingpoly[t]
        speed = abs(data.ten_velocity[t])
        slope = b + 2 * b2 * speed + 3 * b3 * speed ** 2
        if b or b2 or b3:
            D = D - slope * namespace(data.ten_J).outer(data.ten_J[t], data.ten_J[t])
    return D


@per_model
def symmetrized_bodies(model):
    """The bodies whose ellipsoid fluid blocks :func:`passive_vel` symmetrizes, a frozenset:
    under ``implicitfast`` all but the standalone free bodies and what is welded below them
    (none under the other integrators)."""
    if model.opt.integrator != "implicitfast":
        return frozenset()
    free = {i for j in free_body_joints(model) for i in subtree(model, int(model.jnt_bodyid[j]))}
    return frozenset(range(model.nbody)) - free


def actuator_vel(model, data):
    r""":math:`\partial f_{actuator}/\partial\dot q = \sum_i g_i\,(\partial F_i/\partial\dot l_i)\,g_i^T`
    ``(nv, nv)`` over the actuators :func:`actuator_slope` does not find saturated (zero
    with the ``actuation`` flag off)."""
    m = model
    if m.nactuator == 0 or m.opt.disabled("actuation"):
        return np.zeros((m.nv, m.nv))
    slope = actuator_slope(m, data)
    if m.nout != m.nactuator:          # an SO(3) servo's slope on each of its three outputs
        slope = slope[np.repeat(np.arange(m.nactuator), m.actuator_outnum)]
    # the moment arms g_i as the rows of G: sum_i g_i s_i g_i^T = G^T diag(s) G, one product
    G = data.actuator_moment
    return (G.T * slope) @ G


def actuator_slope(model, data):
    r""":math:`\partial F_i/\partial\dot l_i` ``(nactuator,)``, how each actuator's force grows with
    its velocity :math:`\dot l_i`. With :math:`F = (g_0 + g_1 l + g_2\dot l)\,w + b_0 + b_1 l + b_2\dot l`:

    .. math:: \frac{\partial F}{\partial\dot l} = g_2\,w + b_2

    (``affine`` gain and bias; a muscle's gain slope is
    :func:`~rbdl_edu.smooth.muscle.muscle_gain_vel`, its passive force does not depend on
    :math:`\dot l`; ``w`` from :func:`~rbdl_edu.smooth.actuation.gain_input`: the
    *clamped* control, or the activation). A saturated force does not respond, so the slope
    is zero (MuJoCo 4.0) when the force is at or beyond its ``forcerange``, when the actuator
    drives a joint (``joint``, ``jointinparent``) whose total actuator force is at or beyond
    the joint's ``actuatorfrcrange``, or a tendon whose actuators' total (before limiting)
    is at or beyond the tendon's ``actuatorfrcrange``. A DC motor's slope is its back-EMF
    damping (:func:`~rbdl_edu.smooth.dcmotor.velocity_slope`; its limit is on the winding's
    torque, before cogging and friction) plus its friction's, which no limit holds."""
    m = plain(model)
    (gain_vel, bias_vel), (muscles, motors, motor_gains) = affine_slopes(model), slope_kinds(model)
    u = clamped_ctrl(model, data) if reads_controls(model) else None
    length, velocity = first_outputs(m, data.actuator_length), first_outputs(m, data.actuator_velocity)
    if muscles:
        gain_vel = gain_vel.copy()
    for i in muscles:                                                   # the velocity curve's slope
        o = m.actuator_outadr[i]
        gain_vel[i] = muscle_gain_vel(length[i], velocity[i], m.actuator_lengthrange[o], m.actuator_acc0[o],
                                      m.actuator_gainprm[i])
    for i in motors:
        a, n = m.actuator_actadr[i], m.actuator_actnum[i]          # back-EMF damping
        state, rate = (data.act[a:a + n], data.act_dot[a:a + n]) if a >= 0 else (data.act[:0], data.act[:0])
        bias_vel = put(bias_vel, i, bias_vel[i] + dcmotor.velocity_slope(
            m.actuator_gainprm[i], m.actuator_dynprm[i], state, rate, m.opt.timestep,
            gain=m.actuator_gaintype[i] == GAIN_DCMOTOR, bias=m.actuator_biastype[i] == BIAS_DCMOTOR,
            spec=m.actuator_ctrlspec[i], held=dcmotor.clamped(
                m.actuator_gainprm[i], m.actuator_dynprm[i], m.actuator_ctrlspec[i], controls(m, u, i),
                length[i], velocity[i], state, m.opt.timestep)))
    # F = (g_0 + g_1 l + g_2 l̇) w + b_0 + b_1 l + b_2 l̇: the slope g_2 w + b_2 (b_2 where no gain has a slope)
    slope = gain_vel * gain_input(model, data, u, length, velocity) + bias_vel if gain_slopes(model) else bias_vel
    saturated = _saturated(model, data, u)
    slope = namespace(slope, saturated).where(saturated, 0.0, slope)
    for i in motor_gains:                                               # friction: not limited
        slope = put(slope, i, slope[i] + dcmotor.friction_slope(m.actuator_dynprm[i]))
    return namespace(slope).where(switched_off(model), 0.0, slope) if any_switched_off(model) else slope


@per_model
def any_switched_off(model):
    """True if some actuator's group is switched off (:func:`~rbdl_edu.smooth.actuation.switched_off`)."""
    return bool(switched_off(model).any())


@per_model
def affine_slopes(model):
    r"""The constant parts of :func:`actuator_slope`, ``(nactuator,)`` each: :math:`g_2` of the
    ``affine`` gains and :math:`b_2` of the ``affine`` and ``so3`` biases (an SO(3) servo's
    damping, the same on its three outputs; zero for the other kinds)."""
    m = plain(model)
    return (np.where(m.actuator_gaintype == GAIN_AFFINE, m.actuator_gainprm[:, 2], 0.0),
            np.where(np.isin(m.actuator_biastype, (BIAS_AFFINE, BIAS_SO3)), m.actuator_biasprm[:, 2], 0.0))


@per_model
def slope_kinds(model):
    """The actuators whose slope :func:`actuator_slope` computes from the state, three tuples
    of ids: the muscles' gains, the DC motors (gain or bias), the DC motors' gains."""
    m = plain(model)
    motor_gain, motor_bias = m.actuator_gaintype == GAIN_DCMOTOR, m.actuator_biastype == BIAS_DCMOTOR
    return tuple(tuple(np.flatnonzero(x).tolist()) for x in (m.actuator_gaintype == GAIN_MUSCLE,
                                                              motor_gain | motor_bias, motor_gain))


@per_model
def gain_slopes(model):
    r"""True if some actuator's gain grows with velocity (:math:`g_2 \ne 0`, or a muscle's):
    else :func:`actuator_slope` is the biases' :math:`b_2` alone, and needs no gain input."""
    return bool(slope_kinds(model)[0]) or bool(np.any(affine_slopes(model)[0] != 0))


@per_model
def reads_controls(model):
    """True if :func:`actuator_slope` needs the clamped controls: for a gain's input, a DC
    motor's, or a force before its limits (:func:`_saturated`)."""
    return gain_slopes(model) or bool(slope_kinds(model)[1]) or saturation_kinds(model)[2] is not None \
        or bool(saturation_kinds(model)[3])


def _saturated(model, data, u):
    """Per actuator: is its force held at a limit (the three cases of :func:`actuator_slope`)?"""
    m = plain(model)
    limited, so3, motor, on_tendon = saturation_kinds(model)
    F = first_outputs(m, data.actuator_force)
    lo, hi = m.actuator_forcerange.T
    if motor is not None:   # a DC motor's limit is on its winding's torque, before cogging and friction
        raw = unlimited_force(model, data, u)
        F = namespace(F, raw).where(motor, namespace(raw).clip(raw, lo, hi), F)
    out = limited & ((F <= lo) | (F >= hi))
    for i in so3:                                       # its torque's norm at the bound
        o = m.actuator_outadr[i]
        out = put(out, i, bool(m.actuator_forcelimited[i]) and np.linalg.norm(data.actuator_force[o:o + 3]) >= hi[i])
    # a joint's limit clamps the total qfrc_actuator at its dof: clamped means at the bound
    for i, j in joint_limited_actuators(model):
        tau, (lo_j, hi_j) = data.qfrc_actuator[m.jnt_dofadr[j]], m.jnt_actfrcrange[j]
        out = put(out, i, out[i] | (tau <= lo_j) | (tau >= hi_j))
    # a tendon's limit scales its actuators when their unlimited total leaves the range
    if on_tendon:
        raw = unlimited_force(model, data, u)
        on_tendon = np.array(on_tendon)
        for i in on_tendon:
            t = m.actuator_trnid[i, 0]
            if m.tendon_actfrclimited[t]:
                total = raw[on_tendon][m.actuator_trnid[on_tendon, 0] == t].sum()
                lo_t, hi_t = m.tendon_actfrcrange[t]
                out = put(out, i, out[i] | (total <= lo_t) | (total >= hi_t))
    return out


@per_model
def saturation_kinds(model):
    """For :func:`_saturated`, once per model: ``forcelimited`` as bools, the SO(3) servos (a
    tuple), the DC motors' mask (``None`` if there is none) and the actuators on a tendon (a
    tuple; empty unless some tendon limits its actuators' force)."""
    m = plain(model)
    motor = m.actuator_biastype == BIAS_DCMOTOR
    on_tendon = np.flatnonzero(m.actuator_trntype == TRN_TENDON) if np.any(m.tendon_actfrclimited) else ()
    so3 = tuple(np.flatnonzero(m.actuator_gaintype == GAIN_SO3).tolist())
    return m.actuator_forcelimited.astype(bool), so3, motor if motor.any() else None, tuple(int(i) for i in on_tendon)


@per_model
def joint_limited_actuators(model):
    """The pairs ``(actuator, joint)`` of the actuators on a hinge or slide (``joint``,
    ``jointinparent``) whose ``actuatorfrcrange`` limits them, a tuple."""
    m = plain(model)
    on_joint = np.flatnonzero((m.actuator_trntype == TRN_JOINT) | (m.actuator_trntype == TRN_JOINTINPARENT))
    return tuple((int(i), int(m.actuator_trnid[i, 0])) for i in on_joint
                 if m.jnt_actfrclimited[m.actuator_trnid[i, 0]] and m.jnt_type[m.actuator_trnid[i, 0]] in (HINGE, SLIDE))


@per_model
def is_free_body(model, body):
    """True for a *standalone free body*: ``body`` has one joint, a free one, and no body
    below it has a joint, so its 6 dofs form a tree of their own (bodies welded below it
    move with it as one rigid body). MuJoCo 4.0's ``mj_isFreeBody``."""
    m = model
    if m.body_jntnum[body] != 1 or m.jnt_type[m.body_jntadr[body]] != FREE:
        return False
    return not any(m.body_jntnum[i] for i in subtree(m, body)[1:])


def subtree(model, body):
    """``body`` and every body below it, a list."""
    out = [body]
    for i in range(body + 1, model.nbody):
        if model.body_parentid[i] in out:
            out.append(i)
    return out


@per_model
def free_body_joints(model):
    """The free joints of the standalone free bodies (:func:`is_free_body`), a tuple."""
    return tuple(int(j) for j in np.flatnonzero(model.jnt_type == FREE) if is_free_body(model, model.jnt_bodyid[j]))


def free_bias_vel(model, data, jnt):
    r"""``(6, 6)``: :math:`\partial c/\partial\dot q` of a standalone free body's bias force
    :math:`c` (MuJoCo's ``mjd_freeBias_vel``), in its dofs' order ``[v; ω_local]``.

    The body (with whatever is welded below it) is one rigid body of mass :math:`m`, center
    of mass at :math:`s` from the joint, world-frame inertia :math:`I_w` about it
    (:func:`composite_inertia`). With :math:`\ddot q = 0` it turns at :math:`\omega = R\,\omega_{local}`
    and its center of mass accelerates at :math:`\omega\times(\omega\times s)`; the bias force
    is the wrench that takes, :math:`f = m\,\omega\times(\omega\times s)` and
    :math:`\tau = s\times f + \omega\times I_w\omega` about the joint, in joint coordinates
    :math:`c = [f;\ R^T\tau]`. It does not depend on :math:`v`; by
    :math:`\partial(a\times b) = -[b]_\times\partial a + [a]_\times\partial b`:

    .. math:: \frac{\partial f}{\partial\omega} = -m\big([\omega\times s]_\times
              + [\omega]_\times[s]_\times\big), \qquad
              \frac{\partial\tau}{\partial\omega} = [s]_\times\frac{\partial f}{\partial\omega}
              + [\omega]_\times I_w - [I_w\omega]_\times

    and :math:`\partial/\partial\omega_{local} = (\partial/\partial\omega)\,R`."""
    b, d = int(model.jnt_bodyid[jnt]), model.jnt_dofadr[jnt]
    R = data.xmat[b]
    mass, com, Iw = composite_inertia(model, data, b)
    s = com - data.xpos[b]
    w = R @ data.qvel[d + 3:d + 6]
    df = -mass * (skew(cross(w, s)) + skew(w) @ skew(s))
    dtau = skew(s) @ df + skew(w) @ Iw - skew(Iw @ w)
    B = np.zeros((6, 6))
    B[:3, 3:], B[3:, 3:] = df @ R, R.T @ dtau @ R
    return B


def composite_inertia(model, data, body):
    r"""Mass, center of mass ``(3,)`` and world-frame inertia about it ``(3, 3)`` of ``body``
    and the bodies below it, taken as one rigid body:
    :math:`I_w = \sum_i R_i\,\mathrm{diag}(I_i)\,R_i^T + m_i\,(|r_i|^2 1 - r_i r_i^T)`, with
    :math:`r_i` from the common center of mass to body ``i``'s (parallel axes)."""
    bodies = subtree(model, body)
    m = model.body_mass[bodies]
    com = m @ data.xipos[bodies] / m.sum()
    Iw = np.zeros((3, 3))
    for i in bodies:
        Ri, r = data.ximat[i], data.xipos[i] - com
        Iw += (Ri * model.body_inertia[i]) @ Ri.T + model.body_mass[i] * ((r @ r) * np.eye(3) - np.outer(r, r))
    return m.sum(), com, Iw
