r"""Inverse dynamics by the recursive Newton-Euler algorithm (Featherstone §5.3, book ch. 5).

Given ``q, qd, qdd``, RNEA returns the joint forces :math:`\tau` that produce them:

1. forward pass, root to leaves — velocity and acceleration of each body;
2. force on each body that Newton-Euler demands, minus the applied wrench;
3. backward pass, leaves to root — project on the joint axes and pass the rest to
   the parent.

Gravity enters as a fictitious upward acceleration of the world,
:math:`a_0 = -[0;\ g]`, so no body needs a gravity term of its own.
"""
from __future__ import annotations

import numpy as np

from .joints import jcalc
from .kinematics import body_spatial_inertia, pose_from_plucker, state
from .scalar import asarray, eye, zeros
from .rotation import cross
from .spatial import cross_force, cross_motion, mv


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
    q, qd, qdd = state(model, q, qd, qdd)
    batch = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1], qdd.shape[:-1])
    nb, parent = model.nbody, model.body_parentid
    like = (q, qd, qdd, model.body_mass, model.body_pos)
    Xup, S = [None] * nb, [None] * nb
    v = [zeros(batch + (6,), *like) for _ in range(nb)]
    a = [zeros(batch + (6,), *like) for _ in range(nb)]
    f = [zeros(batch + (6,), *like) for _ in range(nb)]
    # the world accelerates upward to stand in for gravity: a_0 = -[0; g]
    a[0][..., 3:] = -asarray(model.opt.gravity)
    X0 = [eye(6, *like)] * nb                               # ^iX_0, only for applied wrenches

    for i in range(1, nb):
        Xup[i], S[i], cJ = jcalc(model, i, q, qd)
        p, dofs = parent[i], slice(model.body_dofadr[i], model.body_dofadr[i] + model.body_dofnum[i])
        vJ = mv(S[i], qd[..., dofs])
        # v_i = ^iX_λ v_λ + S_i q̇_i
        v[i] = mv(Xup[i], v[p]) + vJ
        # a_i = ^iX_λ a_λ + S_i q̈_i + c_J + v_i × v_J
        a[i] = mv(Xup[i], a[p]) + mv(S[i], qdd[..., dofs]) + cJ + cross_motion(v[i], vJ)
        # f_i = I_i a_i + v_i ×* I_i v_i − f_i^ext
        I = body_spatial_inertia(model, i)
        f[i] = mv(I, a[i]) + cross_force(v[i], mv(I, v[i]))
        if xfrc_applied is not None:
            X0[i] = Xup[i] @ X0[p]
            f[i] = f[i] - applied_wrench(model, i, X0[i], xfrc_applied)

    tau = zeros(batch + (model.nv,), *like)
    for i in range(nb - 1, 0, -1):
        dofs = slice(model.body_dofadr[i], model.body_dofadr[i] + model.body_dofnum[i])
        # τ_i = S_i^T f_i
        tau[..., dofs] = mv(np.swapaxes(S[i], -1, -2), f[i])
        # f_λ += ^λX_i^* f_i = (^iX_λ)^T f_i
        f[parent[i]] = f[parent[i]] + mv(np.swapaxes(Xup[i], -1, -2), f[i])
    return tau + asarray(model.dof_armature) * qdd


def bias(model, q, qd):
    r"""Bias forces :math:`c(q,\dot q) = C(q,\dot q)\dot q + g(q)`: RNEA with zero acceleration
    (MuJoCo's ``qfrc_bias``).

    >>> from rbdl_edu.models import pendulum
    >>> bias(pendulum(), [0.0], [1.0])
    array([0.])
    """
    q, qd = state(model, q, qd)
    return rnea(model, q, qd, zeros(qd.shape, qd))


def applied_wrench(model, i, X0i, xfrc_applied):
    r"""The world wrench ``xfrc_applied[..., i] = [F, τ]`` (at body ``i``'s center of mass) as a
    spatial force in body ``i``'s coordinates.

    With the body at ``(R, x)`` in the world and its center of mass at ``c`` (body frame):
    :math:`f_i = [R^T\tau + c\times R^T F;\ R^T F]`.

    >>> from rbdl_edu.models import pendulum
    >>> w = np.zeros((2, 6)); w[1, 0] = 1.0               # push the bob along +x
    >>> applied_wrench(pendulum(), 1, np.eye(6), w)
    array([ 0., -1.,  0.,  1.,  0.,  0.])
    """
    xfrc = asarray(xfrc_applied)
    if xfrc.shape[-2:] != (model.nbody, 6):
        raise ValueError(f"xfrc_applied has shape {xfrc.shape}; expected (..., nbody=6)".replace(
            "nbody=6", f"{model.nbody}, 6"))
    R, _ = pose_from_plucker(X0i)
    RT = np.swapaxes(R, -1, -2)
    F = mv(RT, xfrc[..., i, :3])
    tau = mv(RT, xfrc[..., i, 3:])
    c = asarray(model.body_ipos[i])
    return np.concatenate([tau + cross(c, F), F], axis=-1)
