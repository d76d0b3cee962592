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

from rbdl_edu.arrays import eye, namespace
from rbdl_edu.joints import jcalc
from rbdl_edu.spatial import cross_force, cross_motion
from rbdl_edu.tree import (Xtree, applied_wrench, body_inertia, by_dof, check_xfrc, dofs,
                           gravity_acceleration, state)


class Passes(NamedTuple):
    """What RNEA computes on its way, per body ``i`` (index 0 is the world), in body
    coordinates: ``Xup[i]`` (:math:`{}^iX_{\\lambda(i)}`), ``S[i]``, velocity ``v[i]``,
    acceleration ``a[i]``, the net force the body needs ``fB[i]``, the force ``f[i]``
    transmitted across its joint (after the backward pass), and ``tau (..., nv)``."""
    Xup: list
    S: list
    v: list
    a: list
    fB: list
    f: list
    tau: object


def rnea_passes(model, q, qd, qdd, xfrc_applied=None):
    r"""Both passes of RNEA, keeping every intermediate quantity (:class:`Passes`); the book's
    stepper shows them one body at a time, :func:`rnea` returns ``tau``.

    >>> from rbdl_edu.models import double_pendulum
    >>> p = rnea_passes(double_pendulum(), [0.0, 0.0], [1.0, 0.0], [0.0, 0.0])
    >>> p.v[2]              # the lower link swings with the upper one: its origin moves along -x
    array([ 0.,  1.,  0., -1.,  0.,  0.])
    """
    q, qd, qdd = state(model, q, qd, qdd)
    xfrc_applied = check_xfrc(model, xfrc_applied, q, qd)
    xp = namespace(q, qd, qdd)
    nb, parent = model.nbody, model.body_parentid
    Xup, S, X0 = [None] * nb, [None] * nb, [eye(xp, 6, q.dtype)] * nb
    v, a, fB = [None] * nb, [None] * nb, [None] * nb
    v[0] = xp.zeros(6, dtype=q.dtype)        # the world is at rest ...
    a[0] = gravity_acceleration(model)       # ... but accelerates upward: a_0 = -[0; g]

    for i in range(1, nb):
        XJ, S[i], vJ, cJ = jcalc(model, i, q, qd)
        Xup[i], p = XJ @ Xtree(model, i), parent[i]
        # v_i = ^iX_λ v_λ + S_i q̇_i
        v[i] = xp.matvec(Xup[i], v[p]) + vJ
        # a_i = ^iX_λ a_λ + S_i q̈_i + c_J + v_i × v_J
        a[i] = xp.matvec(Xup[i], a[p]) + xp.matvec(S[i], qdd[..., dofs(model, i)]) + cJ + cross_motion(v[i], vJ)
        # f_i = I_i a_i + v_i ×* I_i v_i − f_i^ext
        I = body_inertia(model, i)
        fB[i] = xp.matvec(I, a[i]) + cross_force(v[i], xp.matvec(I, v[i]))
        if xfrc_applied is not None:
            X0[i] = Xup[i] @ X0[p]
            fB[i] = fB[i] - applied_wrench(model, i, X0[i], xfrc_applied)

    f, tau = list(fB), [None] * nb
    for i in range(nb - 1, 0, -1):
        # τ_i = S_i^T f_i
        tau[i] = xp.matvec(S[i].mT, f[i])
        # f_λ += ^λX_i^* f_i = (^iX_λ)^T f_i
        if parent[i] > 0:
            f[parent[i]] = f[parent[i]] + xp.matvec(Xup[i].mT, f[i])
    # joint armature: an extra inertia on each dof, as MuJoCo's M has on its diagonal
    tau = by_dof(model, tau, q.shape[:-1]) + model.dof_armature * qdd
    return Passes(Xup, S, v, a, fB, f, tau)


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
