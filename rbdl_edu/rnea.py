r"""Inverse dynamics by the recursive Newton-Euler algorithm (Featherstone §5.3, book ch. 5).

Given ``q, qd, qdd``, RNEA returns the joint forces :math:`\tau` that produce them:

1. forward pass, root to leaves — velocity and acceleration of each body, and the force
   each body needs (Newton-Euler) minus the wrench applied to it;
2. backward pass, leaves to root — project each body's force on its joint axes and pass
   the rest to the parent.

Gravity enters as a fictitious upward acceleration of the world,
:math:`a_0 = -[0;\ g]`, so no body needs a gravity term of its own.
"""
from __future__ import annotations

from typing import NamedTuple

from rbdl_edu.arrays import add_at, batch_traced, move_axis, namespace, rows, stack_rows, write, zeros_like
from rbdl_edu.joints import body_transforms, dof_axes, joint_motions, joint_velocities
from rbdl_edu.model.frozen import plain
from rbdl_edu.spatial import cross_force, cross_motion
from rbdl_edu.tree import applied_wrenches, body_inertias, check_xfrc, gravity_acceleration, state, tree_levels


class Passes(NamedTuple):
    """What RNEA computes on its way, per body ``i`` (index 0 is the world), in body
    coordinates: ``Xup[i]`` (:math:`{}^iX_{\\lambda(i)}`), ``S[i]``, velocity ``v[i]``,
    acceleration ``a[i]``, the net force the body needs ``fB[i]``, the force ``f[i]``
    transmitted across its joint (after the backward pass), and ``tau (..., nv)``. ``S`` is a
    list; the others are stacked by body first, ``(nbody, ..., 6)``."""
    Xup: object
    S: list
    v: object
    a: object
    fB: object
    f: object
    tau: object


def rnea_passes(model, q, qd, qdd, xfrc_applied=None):
    r"""Both passes of RNEA, keeping every intermediate quantity (:class:`Passes`); the book's
    stepper shows them one body at a time, :func:`rnea` returns ``tau``.

    Each pass runs one level of the tree at a time (:func:`~rbdl_edu.tree.tree_levels`): ``i``
    is every body of a level, ``p`` their parents, so each line is the equation of one body
    for all of them at once; what needs no parent (:math:`f_i`, :math:`\tau_i`) is computed
    for every body in one go.

    >>> from rbdl_edu.models import double_pendulum
    >>> p = rnea_passes(double_pendulum(), [0.0, 0.0], [1.0, 0.0], [0.0, 0.0])
    >>> p.v[2]              # the lower link swings with the upper one: its origin moves along -x
    array([ 0.,  1.,  0., -1.,  0.,  0.])
    """
    q, qd, qdd = state(model, q, qd, qdd)
    xfrc_applied = check_xfrc(model, xfrc_applied, q, qd)
    xp = namespace(q, qd, qdd)
    Xup, S = body_transforms(model, q)       # ^iX_λ = X_J X_T and S_i of every body
    vJ, cJ = joint_velocities(model, q, qd)  # v_J = S_i q̇_i and c_J of every body
    Sqdd = joint_motions(model, q, qdd)      # S_i q̈_i of every body
    v = rows(zeros_like(vJ))                 # the world is at rest ...
    a = rows(write(zeros_like(vJ), 0, gravity_acceleration(model)))    # ... but accelerates upward: a_0 = -[0; g]
    levels = tree_levels(model, batch_traced())   # (a traced batch: body by body)

    for i, p in levels:
        # v_i = ^iX_λ v_λ + S_i q̇_i
        v = write(v, i, xp.matvec(Xup[i], v[p]) + vJ[i])
    v = stack_rows(v)
    vxvJ = cross_motion(v, vJ)
    for i, p in levels:
        # a_i = ^iX_λ a_λ + S_i q̈_i + c_J + v_i × v_J
        a = write(a, i, xp.matvec(Xup[i], a[p]) + Sqdd[i] + cJ[i] + vxvJ[i])
    a = stack_rows(a)
    # f_i = I_i a_i + v_i ×* I_i v_i − f_i^ext, every body at once
    I = _batched(body_inertias(model), Xup)
    fB = xp.matvec(I, a) + cross_force(v, xp.matvec(I, v))
    if xfrc_applied is not None:
        X0 = rows(xp.zeros_like(Xup) + Xup[0])            # ^iX_0 = ^iX_λ ^λX_0
        for i, p in levels:
            X0 = write(X0, i, Xup[i] @ X0[p])
        fB = fB - applied_wrenches(model, stack_rows(X0), xfrc_applied)

    f = rows(fB + 0)
    for i, p in levels[:0:-1]:               # leaves to root (the world's children pass nothing on)
        # f_λ += ^λX_i^* f_i = (^iX_λ)^T f_i
        f = add_at(f, p, xp.matvec(Xup[i].mT, f[i]))
    f = stack_rows(f)
    # τ_i = S_i^T f_i, every dof at once: the dof's axis (a row of S_i^T) dotted with its body's f_i
    tau = (dof_axes(model, q) * move_axis(f[plain(model).dof_bodyid], 0, -2)).sum(-1)
    # joint armature: an extra inertia on each dof, as MuJoCo's M has on its diagonal
    tau = tau + plain(model).dof_armature * qdd
    return Passes(Xup, S, v, a, fB, f, tau)


def _batched(A, stacked):
    """``A (nbody, 6, 6)`` shaped to multiply ``stacked (nbody, ..., 6, 6)`` body by body."""
    return A.reshape((A.shape[0],) + (1,) * (stacked.ndim - 3) + A.shape[1:])


def rnea(model, q, qd, qdd, xfrc_applied=None):
    r"""Joint forces that produce the acceleration ``qdd`` at the state ``(q, qd)``.

    .. math:: \tau = M(q)\ddot q + c(q, \dot q) - \sum_i J_i^T f_i^{ext}

    Passive (spring, damper) and actuator forces are not included, as in MuJoCo's
    ``mj_rne``; joint armature is (``M`` holds it on the diagonal).

    Parameters
    ----------
    model : Model
    q : array (..., nq)
    qd, qdd : array (..., nv)
    xfrc_applied : array (..., nbody, 6), optional
        Applied wrenches ``[force, torque]`` in world coordinates at each body's center
        of mass (MuJoCo's ``xfrc_applied``).

    Returns
    -------
    tau : array (..., nv)

    References: Featherstone, *Rigid Body Dynamics Algorithms*, Table 5.1; book chapter 5.

    >>> from rbdl_edu.models import pendulum
    >>> rnea(pendulum(), [np.pi / 2], [0.0], [0.0]).round(12)    # holding it horizontal: m g l
    array([9.81])
    """
    return rnea_passes(model, q, qd, qdd, xfrc_applied).tau


def bias(model, q, qd):
    r"""Bias forces :math:`c(q,\dot q) = C(q,\dot q)\dot q + g(q)`: RNEA with zero acceleration
    (MuJoCo's ``qfrc_bias``).

    >>> from rbdl_edu.models import pendulum
    >>> bias(pendulum(), [0.0], [1.0])
    array([0.])
    """
    q, qd = state(model, q, qd)
    return rnea(model, q, qd, namespace(qd).zeros_like(qd))
