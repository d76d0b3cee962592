r"""Kinematics: body poses, velocities, Jacobians, center of mass, energy and momentum.

Every function takes ``q (..., nq)`` (and ``qd (..., nv)``) with optional leading batch
dimensions, and runs on SymPy symbols too. Body spatial velocities are in body
coordinates, ``[ω; v_O]`` (book, chapter 3).
"""
from __future__ import annotations

import numpy as np

from .joints import jcalc
from .memo import per_model
from .rotation import quat_to_mat
from .scalar import asarray, eye, zeros
from .spatial import plucker_inv, spatial_inertia


def state(model, q, qd=None, qdd=None):
    """Check shapes and convert ``q``, ``qd``, ``qdd`` to arrays (float or symbolic).

    >>> from rbdl_edu.models import double_pendulum
    >>> state(double_pendulum(), [0.0, 1.0])[0]
    array([0., 1.])
    >>> state(double_pendulum(), [0.0])
    Traceback (most recent call last):
    ...
    ValueError: q has shape (1,); expected (..., 2) for this model (nq=2)
    """
    out = []
    for name, x, n in (("q", q, model.nq), ("qd", qd, model.nv), ("qdd", qdd, model.nv)):
        if x is None:
            out.append(None)
            continue
        x = asarray(x)
        if x.ndim == 0 or x.shape[-1] != n:
            size = "nq" if name == "q" else "nv"
            raise ValueError(f"{name} has shape {x.shape}; expected (..., {n}) for this model ({size}={n})")
        out.append(x)
    while out and out[-1] is None:       # return as many arrays as were given
        out.pop()
    return out


def pose_from_plucker(X):
    """Rotation ``R`` (child axes in the parent) and origin ``r`` of the child frame from the
    motion transform ``X`` = :math:`{}^cX_p`: ``E = R.T``, lower-left block ``-E [r]x``.

    >>> from rbdl_edu.spatial import plucker_from_pose
    >>> R, r = pose_from_plucker(plucker_from_pose(np.eye(3), [1.0, 2.0, 3.0]))
    >>> r
    array([1., 2., 3.])
    """
    R = np.swapaxes(X[..., :3, :3], -1, -2)
    rx = -R @ X[..., 3:, :3]                   # [r]x = -E^T (-E [r]x)
    r = np.stack([rx[..., 2, 1], rx[..., 0, 2], rx[..., 1, 0]], axis=-1)
    return R, r


@per_model
def body_spatial_inertia(model, i):
    r"""Spatial inertia of body ``i`` in its own frame, from ``body_mass``, ``body_ipos``,
    ``body_iquat`` and ``body_inertia``: :math:`I_c = R\,\mathrm{diag}(I)\,R^T`.

    >>> from rbdl_edu.models import pendulum
    >>> body_spatial_inertia(pendulum(), 1)[3:, 3:]
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    Ri = quat_to_mat(model.body_iquat[i])
    Ic = Ri @ (asarray(model.body_inertia[i])[:, None] * np.swapaxes(Ri, -1, -2))
    return spatial_inertia(model.body_mass[i], model.body_ipos[i], Ic)


def world_transforms(model, q):
    r"""Motion transforms :math:`{}^iX_0` from the world to every body, ``(..., nbody, 6, 6)``.

    >>> from rbdl_edu.models import pendulum
    >>> world_transforms(pendulum(), np.zeros(1)).shape
    (2, 6, 6)
    """
    (q,) = state(model, q)
    X0 = zeros(q.shape[:-1] + (model.nbody, 6, 6), q, model.body_pos)
    X0[..., 0, :, :] = eye(6, X0)
    for i in range(1, model.nbody):
        Xup, _, _ = jcalc(model, i, q)
        X0[..., i, :, :] = Xup @ X0[..., model.body_parentid[i], :, :]
    return X0


def forward_kinematics(model, q):
    """World pose of every body: ``xpos (..., nbody, 3)`` and ``xmat (..., nbody, 3, 3)``
    (``x_world = xpos + xmat @ x_body``, as MuJoCo's fields).

    >>> from rbdl_edu.models import pendulum
    >>> xpos, xmat = forward_kinematics(pendulum(), np.zeros(1))
    >>> xpos[1]
    array([0., 0., 0.])
    """
    xmat, xpos = pose_from_plucker(world_transforms(model, q))
    return xpos, xmat


def com_positions(model, q):
    """World positions of the bodies' centers of mass, ``xipos (..., nbody, 3)``.

    >>> from rbdl_edu.models import pendulum
    >>> com_positions(pendulum(), np.zeros(1))[1]          # hanging straight down
    array([ 0.,  0., -1.])
    """
    xpos, xmat = forward_kinematics(model, q)
    return xpos + (xmat @ asarray(model.body_ipos)[..., None])[..., 0]


def center_of_mass(model, q):
    r"""Center of mass of the whole tree, :math:`\sum m_i c_i / \sum m_i`, ``(..., 3)``.

    >>> from rbdl_edu.models import pendulum
    >>> round(float(center_of_mass(pendulum(), [np.pi / 2])[0]), 12)   # swung to -x
    -1.0
    """
    m = asarray(model.body_mass)
    return (m[:, None] * com_positions(model, q)).sum(-2) / m.sum()


def body_velocities(model, q, qd):
    r"""Spatial velocity of every body in its own frame, :math:`v_i = {}^iX_\lambda v_\lambda + S_i\dot q_i`,
    ``(..., nbody, 6)``.

    >>> from rbdl_edu.models import pendulum
    >>> body_velocities(pendulum(), [0.0], [2.0])[1]
    array([0., 2., 0., 0., 0., 0.])
    """
    q, qd = state(model, q, qd)
    v = zeros(q.shape[:-1] + (model.nbody, 6), q, qd, model.body_pos)
    for i in range(1, model.nbody):
        Xup, S, _ = jcalc(model, i, q)
        a, n = model.body_dofadr[i], model.body_dofnum[i]
        vJ = (S @ qd[..., a:a + n, None])[..., 0]
        v[..., i, :] = (Xup @ v[..., model.body_parentid[i], :, None])[..., 0] + vJ
    return v


def body_jacobian(model, q, body):
    r"""Jacobian of body ``body``'s spatial velocity in its own frame, ``(..., 6, nv)``:
    column block of ancestor ``k`` is :math:`{}^bX_k S_k = {}^bX_0\,({}^kX_0)^{-1} S_k`.

    >>> from rbdl_edu.models import double_pendulum
    >>> body_jacobian(double_pendulum(), np.zeros(2), 2)[:3]
    array([[0., 0.],
           [1., 1.],
           [0., 0.]])
    """
    (q,) = state(model, q)
    X0 = world_transforms(model, q)
    J = zeros(q.shape[:-1] + (6, model.nv), q, model.body_pos)
    k = body
    while k > 0:
        _, S, _ = jcalc(model, k, q)
        a, n = model.body_dofadr[k], model.body_dofnum[k]
        if n:
            J[..., :, a:a + n] = X0[..., body, :, :] @ plucker_inv(X0[..., k, :, :]) @ S
        k = model.body_parentid[k]
    return J


def point_jacobian(model, q, body, point):
    r"""MuJoCo's ``mj_jac``: Jacobians of the world-frame linear velocity of the world point
    ``point`` moving with ``body``, and of the body's world angular velocity.

    .. math:: \dot p = R_b\,(v_O + \omega\times R_b^T(p - x_b)),\qquad \omega_{world} = R_b\,\omega

    Returns ``jacp (..., 3, nv)``, ``jacr (..., 3, nv)``.

    >>> from rbdl_edu.models import pendulum
    >>> jacp, jacr = point_jacobian(pendulum(), np.zeros(1), 1, [0.0, 0.0, -1.0])
    >>> jacp[:, 0]                     # turning about +y swings the bob toward -x
    array([-1.,  0.,  0.])
    """
    (q,) = state(model, q)
    xpos, xmat = forward_kinematics(model, q)
    Jb = body_jacobian(model, q, body)
    R, x = xmat[..., body, :, :], xpos[..., body, :]
    r_local = (np.swapaxes(R, -1, -2) @ (asarray(point) - x)[..., None])[..., 0]
    # v_p = v_O + ω × r = v_O - [r]x ω, in body coordinates, then rotated to the world
    from .rotation import skew
    jac_lin_body = Jb[..., 3:, :] - skew(r_local) @ Jb[..., :3, :]
    return R @ jac_lin_body, R @ Jb[..., :3, :]


def kinetic_energy(model, q, qd):
    r"""Kinetic energy :math:`T = \sum_i \tfrac12 v_i^T I_i v_i`, ``(...)``.

    >>> from rbdl_edu.models import pendulum
    >>> float(kinetic_energy(pendulum(), [0.0], [1.0]))      # ½ (m l² + I_yy) ω²
    1.0
    """
    v = body_velocities(model, q, qd)
    T = 0
    for i in range(1, model.nbody):
        vi = v[..., i, :]
        T = T + (vi[..., None, :] @ body_spatial_inertia(model, i) @ vi[..., :, None])[..., 0, 0] / 2
    return T


def potential_energy(model, q):
    r"""Gravitational potential energy :math:`V = -\sum_i m_i\, g\cdot c_i` (springs are not included), ``(...)``.

    >>> from rbdl_edu.models import pendulum
    >>> float(potential_energy(pendulum(), [0.0]))            # m g l below the pivot
    -9.81
    """
    c = com_positions(model, q)
    g = asarray(model.opt.gravity)
    return -(asarray(model.body_mass) * (c @ g)).sum(-1)


def momentum(model, q, qd):
    r"""Spatial momentum of the whole tree in world coordinates about the world origin,
    :math:`h = \sum_i {}^0X_i^*\, I_i v_i = \sum_i ({}^iX_0)^T I_i v_i`, as ``[angular; linear]``.

    >>> from rbdl_edu.models import pendulum
    >>> float(momentum(pendulum(), [0.0], [1.0])[1])              # angular momentum about y
    2.0
    """
    q, qd = state(model, q, qd)
    X0 = world_transforms(model, q)
    v = body_velocities(model, q, qd)
    h = zeros(q.shape[:-1] + (6,), q, qd, model.body_pos)
    for i in range(1, model.nbody):
        Iv = body_spatial_inertia(model, i) @ v[..., i, :, None]
        h = h + (np.swapaxes(X0[..., i, :, :], -1, -2) @ Iv)[..., 0]
    return h
