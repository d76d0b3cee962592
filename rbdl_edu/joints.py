r"""Joint models: how a body moves relative to its parent (Featherstone §4.4, ``jcalc``).

A body's frame is its parent's frame, moved first by the fixed tree offset
:math:`X_T` (``body_pos``, ``body_quat``; :func:`rbdl_edu.tree.Xtree`) and then by its
joints. :func:`jcalc` returns what the joints add:

* ``XJ`` — the joint transform, so that :math:`{}^iX_{\lambda(i)} = X_J\, X_T`;
* ``S``  — the motion subspace in body coordinates, ``(6, nd)``;
* ``vJ`` — the joint velocity :math:`v_J = S\dot q_i`;
* ``cJ`` — the velocity-product acceleration of the joint (:math:`\dot S \dot q_i`).

Each joint is a transform of the body frame written in the body's own coordinates: the
anchor ``p`` and the axis ``a`` are ``jnt_pos`` and ``jnt_axis``.

=======  ========  =======================  ====================================
type     qpos      transform                subspace :math:`S` (in the body frame)
=======  ========  =======================  ====================================
hinge    θ         rotate by θ−ref about a   :math:`[a;\ p\times a]`
slide    d         translate (d−ref)·a       :math:`[0;\ a]`
ball     quat      rotate by quat about p    :math:`[1;\ [p]_\times]`
free     pos,quat  pose in the parent        :math:`[[0, 1]; [R^T, 0]]` (qvel = [v_world, ω_local])
=======  ========  =======================  ====================================
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import FLOAT64, add_at, batch_traced, concat, cos, eye, is_jax, move_axis, namespace, sin, write
from rbdl_edu.cache import per_model, per_state
from rbdl_edu.frames import hinge_frames
from rbdl_edu.model.enums import BALL, FREE, HINGE, JOINT_NV, SLIDE
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import _normalize_floats, _quat_mat_entries, cross, quat_normalize, quat_to_mat, skew
from rbdl_edu.spatial import blocks, cross_motion, plucker_from_pose
from rbdl_edu.tree import Xtrees, dofs


def joint_transform(model, j, q):
    """Pose ``(R, t)`` of joint ``j`` (``x_before = R x_after + t``) and its subspace ``S (.., 6, nd)``
    in the coordinates of the frame after the joint. ``q`` is the full ``(..., nq)`` vector.
    (One state of numbers, or JAX: read from :func:`joint_poses`, every joint at once.)

    >>> from rbdl_edu.models import pendulum
    >>> R, t, S = joint_transform(pendulum(), 0, np.array([np.pi / 2]))
    >>> S[:, 0]          # a hinge about y through the body origin
    array([0., 1., 0., 0., 0., 0.])
    """
    if one_state(q) or is_jax(q):
        R, t, S, _ = joint_poses(model, q)
        return R[j], t[j], S[j]
    return _joint_transform(model, j, q)


def one_state(q):
    """One state of numbers, ``q (nq,)`` of ``float64`` (what the per-state caches keep)."""
    return type(q) is np.ndarray and q.ndim == 1 and q.dtype == FLOAT64


def _joint_transform(model, j, q):
    """:func:`joint_transform`, joint by joint, for any kind of ``q``."""
    m = plain(model)
    a, p, adr, kind = m.jnt_axis[j], m.jnt_pos[j], int(m.jnt_qposadr[j]), m.jnt_type[j]
    I3 = eye(np, 3, q.dtype)                  # a constant, also when compiled
    if kind == HINGE:
        theta = q[..., adr:adr + 1] - model.qpos0[adr]                  # (..., 1)
        A, A2 = axis_skew(model, j)
        # Rodrigues: R = 1 + sin θ [a]x + (1 - cos θ) [a]x²
        s, c = sin(theta)[..., None], cos(theta)[..., None]
        R = I3 + s * A + (1 - c) * A2
        return R, anchored(R, p), joint_subspace(model, j)
    if kind == SLIDE:
        d = q[..., adr:adr + 1] - model.qpos0[adr]                      # (..., 1)
        return I3, d * a, joint_subspace(model, j)
    if kind == BALL:
        R = quat_to_mat(quat_normalize(q[..., adr:adr + 4]))
        return R, anchored(R, p), joint_subspace(model, j)
    # FREE: position and orientation in the parent frame; the linear velocity is in the
    # parent frame, the angular velocity in the body's: S = [[0, 1], [R^T, 0]]
    R = quat_to_mat(quat_normalize(q[..., adr + 3:adr + 7]))
    return R, q[..., adr:adr + 3], blocks(0, I3, R.mT, 0)


def anchored(R, p):
    """The translation ``t = p - R p`` of a rotation ``R`` about the anchor ``p`` (the anchor
    stays put); zero for an anchor at the origin, with no product to compute (or to compile).

    >>> anchored(np.diag([-1.0, -1.0, 1.0]), np.array([1.0, 0.0, 0.0]))
    array([2., 0., 0.])
    """
    xp = namespace(R)
    if all(x == 0 for x in p.tolist()):
        return xp.zeros_like(R[..., 0])
    return p - xp.matvec(R, p)


@per_state
def joint_poses(model, q):
    r"""Every joint's pose ``R[j], t[j]``, subspace ``S[j]`` and motion transform
    ``X[j]`` (:math:`X_{J_j}`, from the frame before joint ``j`` to the one after it) at one
    state of numbers ``q (nq,)``: :func:`joint_transform` for all joints, with the hinges
    turned at once (Rodrigues' formula on the array of their angles) and the transforms made
    in one array operation. ``R (njnt, 3, 3)`` and ``t (njnt, 3)`` are stacked by joint,
    ``S`` and ``X`` are lists (JAX: four lists).

    >>> from rbdl_edu.models import double_pendulum
    >>> R, t, S, X = joint_poses(double_pendulum(), np.array([0.0, np.pi]))
    >>> R[1].round(12)[0]
    array([-1.,  0.,  0.])
    """
    if is_jax(q):
        return _traced_poses(model, q)
    m = plain(model)
    R, t = np.empty((m.njnt, 3, 3)), np.zeros((m.njnt, 3))
    S = list(fixed_subspaces(model))
    hinges, others = joint_ids(model, HINGE), other_joints(model)
    if len(hinges):
        adr, ref, p = hinge_frames(model)
        theta = q[adr] - ref
        A, A2 = hinge_skews(model)
        # Rodrigues: R = 1 + sin θ [a]x + (1 - cos θ) [a]x², the anchor p stays put
        s, c = np.sin(theta)[:, None, None], np.cos(theta)[:, None, None]
        R[hinges] = R_h = eye(np, 3, float) + s * A + (1 - c) * A2
        if p is not None:                           # (anchors at the origin: t = 0, as t holds)
            t[hinges] = p - np.matvec(R_h, p)
    values = q.tolist() if others else None
    for j in others:
        free = _free_joint(values, m.jnt_qposadr[j]) if S[j] is None else None     # (a free joint: on floats)
        if free:
            R.reshape(-1, 9)[j], t[j], S[j] = free
            continue
        R[j], t[j], S_j = _joint_transform(model, j, q)
        if S[j] is None:                            # (a free joint's S turns with it)
            S[j] = S_j
    if not m.njnt:
        return R, t, S, []
    # X = [[E, 0], [-E [t]x, E]] with E = R^T (spatial.plucker), all joints at once
    E = R.mT
    X = np.zeros((m.njnt, 6, 6))
    X[:, :3, :3] = X[:, 3:, 3:] = E
    X[:, 3:, :3] = -E @ skew(t)
    for x in (R, t, X):
        x.setflags(write=False)
    return R, t, S, list(X)


def _free_joint(values, adr):
    """A free joint's ``R`` (nine numbers, by row), ``t`` and ``S = [[0, 1], [R^T, 0]]`` at ``qpos``
    ``values`` (a list) from ``adr``, on Python floats: the same numbers as the array lines
    (the quaternion normalized, ``R`` entry by entry); None for a quaternion that is not finite."""
    unit = _normalize_floats(values[adr + 3:adr + 7])
    if unit is None:
        return None
    (a, b, c), (d, e, f), (g, h, i) = _quat_mat_entries(*unit)
    S = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0,
                  a, d, g, 0.0, 0.0, 0.0, b, e, h, 0.0, 0.0, 0.0, c, f, i, 0.0, 0.0, 0.0]).reshape(6, 6)
    return [a, b, c, d, e, f, g, h, i], values[adr:adr + 3], S


@per_model
def other_joints(model):
    """The joints that are not hinges (slides, balls, free joints), a list of ids."""
    return np.flatnonzero(plain(model).jnt_type != HINGE).tolist()


@per_model
def fixed_subspaces(model):
    """:func:`joint_subspace` of every joint whose subspace does not depend on ``q`` (None for a
    free joint's), a tuple by joint."""
    return tuple(None if t == FREE else joint_subspace(model, j) for j, t in enumerate(plain(model).jnt_type.tolist()))


def _traced_poses(model, q):
    """:func:`joint_poses` of JAX arrays ``q (..., nq)``: the hinges turned as one array
    operation, each joint's transform traced once per ``q`` (kinematics, the com frames, CRBA
    and RNEA ask for the same ones: :func:`~rbdl_edu.cache.per_state` keeps them by identity)."""
    m, xp = plain(model), namespace(q)
    R, t, S = [None] * m.njnt, [None] * m.njnt, [None] * m.njnt
    hinges = joint_ids(model, HINGE)
    if len(hinges):
        adr, ref, _ = hinge_frames(model)
        theta = q[..., adr] - ref
        A, A2 = hinge_skews(model)
        # Rodrigues: R = 1 + sin θ [a]x + (1 - cos θ) [a]x², the anchor p stays put
        s, c = xp.sin(theta)[..., None, None], xp.cos(theta)[..., None, None]
        R_h = eye(np, 3, float) + s * A + (1 - c) * A2
        for n, j in enumerate(hinges.tolist()):
            R[j] = R_h[..., n, :, :]
            t[j], S[j] = anchored(R[j], m.jnt_pos[j]), joint_subspace(model, j)
    for j in range(m.njnt):
        if R[j] is None:
            R[j], t[j], S[j] = _joint_transform(model, j, q)
    return R, t, S, [plucker_from_pose(R[j], t[j]) for j in range(m.njnt)]


@per_model
def joint_ids(model, kind):
    """The ids of the joints of type ``kind``, an int array."""
    return np.flatnonzero(plain(model).jnt_type == kind)


@per_model
def hinge_skews(model):
    """``[a]x`` and ``[a]x²`` of every hinge's axis, stacked ``(nhinge, 3, 3)`` each."""
    pairs = [axis_skew(model, j) for j in joint_ids(model, HINGE).tolist()]
    return np.stack([A for A, _ in pairs]), np.stack([A2 for _, A2 in pairs])


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
        return concat(a, cross(p, a))[:, None]              # [a; p x a]
    if model.jnt_type[j] == SLIDE:
        return concat(np.zeros(3, dtype=a.dtype), a)[:, None]    # [0; a]
    return np.concatenate([np.eye(3, dtype=p.dtype), skew(p)], axis=0)   # ball: [1; [p]x]


def joint_frames(model, i, q):
    r"""The joint transform :math:`X_J (..., 6, 6)` and motion subspace ``S (..., 6, nd)`` of
    body ``i``: what :func:`jcalc` needs from ``q`` alone, computed once per ``q`` (CRBA, the
    com frames and RNEA ask for it at the same ``q``, the first two with no velocity).

    The body's joints act one after the other, each in the frame the previous ones left,
    so :math:`X_J = X_{J_n}\cdots X_{J_1}`; each new joint carries the columns of the
    joints before it into its own frame: :math:`S \leftarrow [X_{J_k} S,\ S_k]`.

    (One state of numbers, or JAX: every body's at once, :func:`body_joint_frames`.)

    >>> from rbdl_edu.models import pendulum
    >>> XJ, S = joint_frames(pendulum(), 1, np.array([0.0]))
    >>> S[:, 0]
    array([0., 1., 0., 0., 0., 0.])
    """
    if one_state(q) or is_jax(q):
        XJ, S = body_joint_frames(model, q)
        return XJ[i], S[i]
    return _joint_frames(model, i, q)


@per_state
def body_joint_frames(model, q):
    """:func:`joint_frames` of every body at one state of numbers (or JAX), two lists by body."""
    poses = joint_poses(model, q) if one_state(q) or is_jax(q) else None     # (a batch, symbols: none)
    frames = [(poses[3][j], poses[2][j]) if poses and j is not None else _joint_frames(model, i, q)
              for i, j in enumerate(one_joint(model))]     # (a body with one joint: that joint's, as it is)
    return [XJ for XJ, _ in frames], [S for _, S in frames]


@per_model
def one_joint(model):
    """By body: its joint if it has exactly one, else None."""
    return [j if n == 1 else None for j, n in zip(plain(model).body_jntadr.tolist(), plain(model).body_jntnum.tolist())]


def _joint_frames(model, i, q):
    """:func:`joint_frames`, body by body, for any kind of ``q``."""
    j0, nj = model.body_jntadr[i], model.body_jntnum[i]
    # no joint: welded (constants of NumPy whatever q is, so that a compiled X_J X_T folds)
    XJ, S = eye(np, 6, q.dtype), np.zeros((6, 0), dtype=q.dtype)
    for j in range(j0, j0 + nj):
        X_j, S_j = joint_motion(model, j, q)   # from the frame before joint j to the one after
        if j == j0:
            XJ, S = X_j, S_j
        else:                                  # carry the earlier joints into joint j's frame
            XJ, S = X_j @ XJ, concat(X_j @ S, S_j)
    return XJ, S


@per_state
def dof_axes(model, q):
    """Every dof's motion axis in its body's frame, ``(..., nv, 6)``: the columns of the bodies'
    subspaces ``S`` (:func:`joint_frames`), in dof order, as rows.

    >>> from rbdl_edu.models import double_pendulum
    >>> dof_axes(double_pendulum(), np.zeros(2))[1]
    array([0., 1., 0., 0., 0., 0.])
    """
    xp, batch = namespace(q), q.shape[:-1]
    S = body_joint_frames(model, q)[1]
    rows = [S[i].mT for i in moving_bodies(model)[0].tolist()]
    if batch:
        rows = [xp.broadcast_to(r, batch + r.shape[-2:]) for r in rows]
    return xp.concatenate(rows, axis=-2) if rows else xp.zeros(batch + (0, 6), dtype=q.dtype)


@per_model
def moving_bodies(model):
    """The bodies with dofs, in order, and their first dofs: two int arrays."""
    m = plain(model)
    moving = np.flatnonzero(m.body_dofnum > 0)
    return moving, m.body_dofadr[moving]


def joint_motions(model, q, x):
    r""":math:`S_i x_i` of every body, stacked by body ``(nbody, ..., 6)``, for ``x (..., nv)`` the
    dofs' velocities (:math:`v_J = S\dot q`) or accelerations: each dof's axis times its entry,
    added up over the body's dofs.

    >>> from rbdl_edu.models import double_pendulum
    >>> joint_motions(double_pendulum(), np.zeros(2), np.array([1.0, 2.0]))[:, 1]
    array([0., 1., 2.])
    """
    xp = namespace(q, x)
    if type(x) is np.ndarray and x.ndim == 1 and x.dtype == FLOAT64 and one_state(q) and not any(x.tolist()):
        return np.zeros((model.nbody, 6))                     # (one state at rest: no motion)
    s = move_axis(dof_axes(model, q) * x[..., :, None], -2, 0)          # (nv, ..., 6): dof k's motion
    out = xp.zeros((model.nbody,) + s.shape[1:], dtype=s.dtype)
    moving, first = moving_bodies(model)
    if not len(moving):
        return out
    if xp is np:                       # each body's dofs are consecutive: one sum per run
        out[moving] = s if len(moving) == model.nv else np.add.reduceat(s, first, axis=0)   # (one dof each: s)
        return out
    return add_at(out, plain(model).dof_bodyid, s)


@per_state
def joint_velocities(model, q, qd):
    r""":func:`jcalc`'s :math:`v_J` and :math:`c_J` of every body, stacked by body ``(nbody, ..., 6)``:
    :math:`v_J` for all bodies at once (:func:`joint_motions`); :math:`c_J` is zero but for a
    body with several joints or a free joint (:func:`coupled_bodies`), taken from :func:`jcalc`.

    >>> from rbdl_edu.models import pendulum
    >>> vJ, cJ = joint_velocities(pendulum(), np.array([0.0]), np.array([2.0]))
    >>> vJ[1], cJ[1]
    (array([0., 2., 0., 0., 0., 0.]), array([0., 0., 0., 0., 0., 0.]))
    """
    vJ = joint_motions(model, q, qd)
    cJ = np.zeros(vJ.shape, vJ.dtype) if type(vJ) is np.ndarray else namespace(vJ).zeros_like(vJ)
    free, coupled = coupled_bodies(model)
    if len(free) and type(vJ) is np.ndarray:        # free joints, numbers: c_J = [0; -ω × v], all at once
        if len(free) == 1 and vJ.ndim == 2 and vJ.dtype == FLOAT64:     # (one of them, one state: on floats)
            (w1, w2, w3), (v1, v2, v3) = vJ[free[0], :3].tolist(), vJ[free[0], 3:].tolist()
            cJ[free[0], 3:] = [-(w2 * v3 - w3 * v2), -(w3 * v1 - w1 * v3), -(w1 * v2 - w2 * v1)]   # (cross)
        else:
            w_v = vJ[free]
            cJ[free, ..., 3:] = -cross(w_v[..., :3], w_v[..., 3:])
    else:
        coupled = free + coupled
    for i in coupled:
        cJ = write(cJ, i, jcalc(model, i, q, qd)[3])
    return vJ, cJ


@per_model
def coupled_bodies(model):
    """The bodies whose :math:`c_J` is not zero, two lists: those with one free joint, and those with
    several joints."""
    m = plain(model)
    return ([i for i in range(1, m.nbody) if m.body_jntnum[i] == 1 and m.jnt_type[m.body_jntadr[i]] == FREE],
            [i for i in range(1, m.nbody) if m.body_jntnum[i] > 1])


@per_state
def body_transforms(model, q):
    r"""Every body's :math:`{}^iX_{\lambda(i)} = X_J X_T`, stacked ``(nbody, ..., 6, 6)``, and its
    motion subspace ``S`` (a list by body): what CRBA and RNEA ask for first at one ``q``, in
    one product (the world's row is the identity).

    >>> from rbdl_edu.models import double_pendulum
    >>> Xup, S = body_transforms(double_pendulum(), np.zeros(2))
    >>> Xup.shape, float(Xup[2, 4, 0])
    ((3, 6, 6), 1.0)
    """
    xp = namespace(q)
    XJ, S = body_joint_frames(model, q)
    if batch_traced():              # a traced batch: a product per body, from which XLA reads Xup[i] unstacked
        return xp.stack([X_J @ X_T for X_J, X_T in zip(XJ, Xtrees(model))]), S
    XJ = xp.stack(xp.broadcast_arrays(*XJ) if q.ndim > 1 else XJ)
    XT = Xtrees(model).reshape((model.nbody,) + (1,) * (XJ.ndim - 3) + (6, 6))
    return XJ @ XT, S


def joint_motion(model, j, q):
    """Joint ``j``'s motion transform :math:`X_{J_j}` (``plucker_from_pose`` of its pose) and
    subspace ``S_j`` (one state of numbers, or JAX: from :func:`joint_poses`)."""
    if one_state(q) or is_jax(q):
        _, _, S, X = joint_poses(model, q)
        return X[j], S[j]
    R, t, S_j = _joint_transform(model, j, q)
    return plucker_from_pose(R, t), S_j


@per_state
def jcalc(model, i, q, qd):
    r"""Joint transform, motion subspace, joint velocity and velocity product of body ``i``.

    :math:`X_J` and :math:`S` come from :func:`joint_frames`; joint ``k``'s velocity in body
    coordinates is its block of columns times its velocities, :math:`s_k = S_k\dot q_k`, and

    .. math:: v_J = S\dot q_i = \sum_k s_k, \qquad
              c_J = \sum_{j<k} s_j \times s_k \;\;(\text{free joint: } [0;\ -\omega\times v]),

    so that :math:`a_i = {}^iX_\lambda a_\lambda + S\ddot q_i + c_J + v_i\times v_J`.

    Shapes: ``q (..., nq)``, ``qd (..., nv)``; returns ``XJ (..., 6, 6)``,
    ``S (..., 6, nd)``, ``vJ (..., 6)``, ``cJ (..., 6)``.

    >>> from rbdl_edu.models import pendulum
    >>> XJ, S, vJ, cJ = jcalc(pendulum(), 1, np.array([0.0]), np.array([2.0]))
    >>> S.shape, vJ
    ((6, 1), array([0., 2., 0., 0., 0., 0.]))
    """
    xp = namespace(q, qd)
    j0, nj = model.body_jntadr[i], model.body_jntnum[i]
    XJ, S = joint_frames(model, i, q)
    vJ, cJ = xp.zeros(6, dtype=q.dtype), xp.zeros(6, dtype=q.dtype)
    qd_i, col = qd[..., dofs(model, i)], 0
    for j in range(j0, j0 + nj):
        nd = JOINT_NV[int(model.jnt_type[j])]
        s_j = xp.matvec(S[..., :, col:col + nd], qd_i[..., col:col + nd])      # joint j's velocity
        if j == j0:
            vJ = s_j
        else:
            # c_J += v_J × s_j: the earlier joints' velocity crossed with joint j's
            cJ = cJ + cross_motion(vJ, s_j)
            vJ = vJ + s_j
        col += nd
    if nj and model.jnt_type[j0] == FREE:
        # v_J = [ω; R^T v_world] and d/dt(R^T) = -[ω]x R^T: the apparent derivative Ṡq̇
        cJ = concat(xp.zeros(3, dtype=q.dtype), -cross(vJ[..., :3], vJ[..., 3:]))
    return XJ, S, vJ, cJ
