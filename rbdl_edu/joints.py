r"""Joint models: how a body moves relative to its parent (Featherstone §4.4, ``jcalc``).

For body ``i`` with joints ``1..n`` (MuJoCo applies several joints of one body one after
the other, each in the frame the previous ones left), :func:`jcalc` returns

* ``Xup`` — the motion transform :math:`{}^iX_{\lambda(i)}` from the parent to the body,
* ``S``   — the motion subspace in body coordinates, ``(6, nd)``: :math:`v_J = S\dot q_i`,
* ``cJ``  — the velocity-product acceleration of the joint, zero unless ``qd`` is given.

Each joint is a transform :math:`J_k` of the body frame, written in the body's own
coordinates: the anchor ``p`` and the axis ``a`` are ``jnt_pos`` and ``jnt_axis``.

=======  ========  =======================  ====================================
type     qpos      transform :math:`J`      subspace :math:`S` (in the body frame)
=======  ========  =======================  ====================================
hinge    θ         rotate by θ−ref about a   :math:`[a;\ p\times a]`
slide    d         translate (d−ref)·a       :math:`[0;\ a]`
ball     quat      rotate by quat about p    :math:`[1;\ [p]_\times]`
free     pos,quat  pose in the parent        :math:`[[0, 1]; [R^T, 0]]` (qvel = [v_world, ω_local])
=======  ========  =======================  ====================================
"""
from __future__ import annotations

import numpy as np

from .model import BALL, FREE, HINGE, SLIDE
from .rotation import cross, quat_normalize, quat_to_mat, skew
from .memo import per_model
from .scalar import asarray, cos, eye, sin, zeros
from .spatial import cross_motion, mm, mv, plucker_from_pose


def joint_transform(model, j, q):
    """Pose ``(R, t)`` of joint ``j`` (``x_before = R x_after + t``) and its subspace ``S (.., 6, nd)``
    in the coordinates of the frame after the joint. ``q`` is the full ``(..., nq)`` vector.

    >>> from rbdl_edu.models import pendulum
    >>> R, t, S = joint_transform(pendulum(), 0, np.array([np.pi / 2]))
    >>> S[:, 0]          # a hinge about y through the body origin
    array([0., 1., 0., 0., 0., 0.])
    """
    jtype, a = model.jnt_type[j], model.jnt_axis[j]
    p = model.jnt_pos[j]
    adr = model.jnt_qposadr[j]
    batch = q.shape[:-1]
    if jtype == HINGE:
        theta = asarray(q[..., adr] - model.qpos0[adr])
        A, A2 = axis_skew(model, j)
        # Rodrigues: R = 1 + sin θ [a]x + (1 - cos θ) [a]x²
        s, c = asarray(sin(theta))[..., None, None], asarray(cos(theta))[..., None, None]
        R = eye(3, A, theta) + s * A + (1 - c) * A2
        t = p - mv(R, p)                                 # the anchor p stays where it is
        S = joint_subspace(model, j)                     # [a; p x a]
    elif jtype == SLIDE:
        d = asarray(q[..., adr] - model.qpos0[adr])
        R = eye(3, q, a)
        t = d[..., None] * a
        S = joint_subspace(model, j)                     # [0; a]
    elif jtype == BALL:
        R = quat_to_mat(quat_normalize(q[..., adr:adr + 4]))
        t = p - mv(R, asarray(p))
        S = joint_subspace(model, j)                     # [1; [p]x]
    else:  # FREE: translation and orientation in the parent frame
        R = quat_to_mat(quat_normalize(q[..., adr + 3:adr + 7]))
        t = q[..., adr:adr + 3]
        S = zeros(batch + (6, 6), q)
        S[..., :3, 3:] = eye(3, q)                       # angular velocity is local
        S[..., 3:, :3] = np.swapaxes(R, -1, -2)          # linear velocity is in the parent
    return _batch(R, batch, 2), _batch(t, batch, 1), _batch(S, batch, 2)


def _batch(x, batch, core):
    """``x`` broadcast to leading dimensions ``batch`` (its last ``core`` dimensions kept)."""
    shape = batch + x.shape[x.ndim - core:]
    return x if x.shape == shape else np.broadcast_to(x, shape)


@per_model
def tree_transform(model, i):
    r""":math:`X_T`, the fixed motion transform from body ``i``'s parent to the body frame before
    its joints (``body_pos``, ``body_quat``); the identity for a free joint, whose ``qpos``
    is the whole pose.

    >>> from rbdl_edu.models import double_pendulum
    >>> float(tree_transform(double_pendulum(), 2)[4, 0])  # 1 m below: ω_x moves the origin along +y
    1.0
    """
    nj, j0 = model.body_jntnum[i], model.body_jntadr[i]
    if nj > 0 and model.jnt_type[j0] == FREE:
        return eye(6, model.body_pos)
    return plucker_from_pose(quat_to_mat(model.body_quat[i]), model.body_pos[i])


@per_model
def axis_skew(model, j):
    """``[a]x`` and ``[a]x²`` of joint ``j``'s axis, for Rodrigues' formula.

    >>> from rbdl_edu.models import pendulum
    >>> float(axis_skew(pendulum(), 0)[0][0, 2])
    1.0
    """
    A = skew(model.jnt_axis[j])
    return A, A @ A


@per_model
def joint_subspace(model, j):
    """Motion subspace of a hinge, slide or ball joint in the frame after it, ``(6, nd)``;
    it does not depend on ``q`` (a free joint's does: see :func:`joint_transform`).

    >>> from rbdl_edu.models import pendulum
    >>> joint_subspace(pendulum(), 0)[:, 0]
    array([0., 1., 0., 0., 0., 0.])
    """
    a, p = model.jnt_axis[j], model.jnt_pos[j]
    if model.jnt_type[j] == HINGE:
        return np.concatenate([a, cross(p, a)])[:, None]           # [a; p x a]
    if model.jnt_type[j] == SLIDE:
        return np.concatenate([zeros(3, a), a])[:, None]              # [0; a]
    return np.concatenate([eye(3, p), skew(p)], axis=0)               # ball: [1; [p]x]


def jcalc(model, i, q, qd=None):
    r"""Parent-to-body transform, motion subspace and velocity product of body ``i``.

    The body frame is the fixed offset :math:`X_T` from the parent followed by the
    body's joints in order, so :math:`{}^iX_\lambda = X_{J_n}\cdots X_{J_1} X_T`. Each
    new joint carries the columns of the joints before it into its own frame:
    :math:`S \leftarrow [X_{J_k} S,\ S_k]`. With :math:`s_k` the k-th joint's velocity in
    body coordinates,

    .. math:: c_J = \sum_{j<k} s_j \times s_k \;\;(\text{free joint: } [0;\ -\omega\times v]),

    so that :math:`a_i = {}^iX_\lambda a_\lambda + S\ddot q_i + c_J + v_i\times v_J`.

    Shapes: ``q (..., nq)``, ``qd (..., nv)``; returns ``Xup (..., 6, 6)``,
    ``S (..., 6, nd)``, ``cJ (..., 6)``.

    >>> from rbdl_edu.models import pendulum
    >>> Xup, S, cJ = jcalc(pendulum(), 1, np.array([0.0]))
    >>> S.shape, cJ.shape
    ((6, 1), (6,))
    """
    batch = q.shape[:-1]
    nj, j0 = model.body_jntnum[i], model.body_jntadr[i]
    free = nj > 0 and model.jnt_type[j0] == FREE
    Xup = tree_transform(model, i)
    S = zeros(batch + (6, 0), q, Xup)
    for j in range(j0, j0 + nj):
        Rj, tj, Sj = joint_transform(model, j, q)
        XJ = plucker_from_pose(Rj, tj)          # from the frame before joint j to the one after
        Xup = mm(XJ, Xup)
        S = np.concatenate([XJ @ S, Sj], axis=-1) if S.shape[-1] else Sj
    Xup, S = _batch(Xup, batch, 2), _batch(S, batch, 2)

    cJ = zeros(batch + (6,), q, S)
    if qd is not None and nj:
        adr = model.body_dofadr[i]
        qd_i = qd[..., adr:adr + model.body_dofnum[i]]
        if free:
            # v_J = [ω; R^T v_world] and d/dt(R^T) = -[ω]x R^T: the apparent derivative Ṡq̇
            vJ = mv(S, qd_i)
            cJ[..., 3:] = -cross(vJ[..., :3], vJ[..., 3:])
        else:
            # c_J = Σ_{j<k} s_j × s_k  (zero for a single joint)
            s_sum, col = None, 0
            for j in range(j0, j0 + nj):
                nd = 3 if model.jnt_type[j] == BALL else 1
                s_k = mv(S[..., :, col:col + nd], qd_i[..., col:col + nd])
                if s_sum is not None:
                    cJ = cJ + cross_motion(s_sum, s_k)
                s_sum = s_k if s_sum is None else s_sum + s_k
                col += nd
    return Xup, S, cJ
