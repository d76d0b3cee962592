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
from .rotation import axis_rotation, quat_normalize, quat_to_mat, skew
from .scalar import asarray, eye, zeros
from .spatial import crm, plucker_from_pose


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
        theta = q[..., adr] - model.qpos0[adr]
        R = axis_rotation(a, theta)
        t = p - R @ p                                    # the anchor p stays where it is
        S = np.concatenate([a, np.cross(p, a)])[:, None]  # [a; p x a]
    elif jtype == SLIDE:
        d = asarray(q[..., adr] - model.qpos0[adr])
        R = eye(3, q, a)
        t = d[..., None] * a
        S = np.concatenate([zeros(3, a), a])[:, None]     # [0; a]
    elif jtype == BALL:
        R = quat_to_mat(quat_normalize(q[..., adr:adr + 4]))
        t = p - R @ p
        S = np.concatenate([eye(3, p), skew(p)], axis=0)  # [1; [p]x]
    else:  # FREE: translation and orientation in the parent frame
        R = quat_to_mat(quat_normalize(q[..., adr + 3:adr + 7]))
        t = q[..., adr:adr + 3]
        S = zeros(batch + (6, 6), q)
        S[..., :3, 3:] = eye(3, q)                       # angular velocity is local
        S[..., 3:, :3] = np.swapaxes(R, -1, -2)          # linear velocity is in the parent
    R = np.broadcast_to(R, batch + (3, 3))
    t = np.broadcast_to(t, batch + (3,))
    S = np.broadcast_to(S, batch + S.shape[-2:])
    return R, t, S


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
    # X_T: the body's fixed offset in its parent; a free joint's qpos is the whole pose
    if free:
        Xup = eye(6, q)
    else:
        Xup = plucker_from_pose(quat_to_mat(model.body_quat[i]), model.body_pos[i])
    S = zeros(batch + (6, 0), q, Xup)
    for j in range(j0, j0 + nj):
        Rj, tj, Sj = joint_transform(model, j, q)
        XJ = plucker_from_pose(Rj, tj)          # from the frame before joint j to the one after
        Xup = XJ @ Xup
        S = np.concatenate([XJ @ S, Sj], axis=-1)
    Xup = np.broadcast_to(Xup, batch + (6, 6))
    S = np.broadcast_to(S, batch + S.shape[-2:])

    cJ = zeros(batch + (6,), q, S)
    if qd is not None and nj:
        adr = model.body_dofadr[i]
        qd_i = qd[..., adr:adr + model.body_dofnum[i]]
        if free:
            # v_J = [ω; R^T v_world] and d/dt(R^T) = -[ω]x R^T: the apparent derivative Ṡq̇
            vJ = (S @ qd_i[..., None])[..., 0]
            cJ[..., 3:] = -np.cross(vJ[..., :3], vJ[..., 3:])
        else:
            # c_J = Σ_{j<k} s_j × s_k  (zero for a single joint)
            s_sum = zeros(batch + (6,), q, S)
            col = 0
            for j in range(j0, j0 + nj):
                nd = 3 if model.jnt_type[j] == BALL else 1
                s_k = (S[..., :, col:col + nd] @ qd_i[..., col:col + nd, None])[..., 0]
                cJ = cJ + (crm(s_sum) @ s_k[..., None])[..., 0]
                s_sum = s_sum + s_k
                col += nd
    return Xup, S, cJ
