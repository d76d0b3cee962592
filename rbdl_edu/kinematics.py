r"""Kinematics: body poses, velocities, Jacobians, center of mass, energy and momentum.

Every function takes ``q (..., nq)`` (and ``qd (..., nv)``) with optional leading batch
dimensions, and runs on SymPy symbols and JAX arrays too. Body spatial velocities are in
body coordinates, ``[ω; v_O]`` (book, chapter 3). :func:`kinematics` is the pipeline's
first stage (MuJoCo's ``mj_kinematics``): it fills ``Data``'s poses from ``data.qpos``.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu import frames
from rbdl_edu.arrays import eye, is_jax, namespace, write
from rbdl_edu.cache import per_model, per_state
from rbdl_edu.frames import level_plan
from rbdl_edu.joints import jcalc, joint_ids, joint_poses, joint_transform, one_state
from rbdl_edu.model.enums import BALL, FREE, HINGE, SLIDE
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import (_normalize4, _normalize4_floats, _normalize_floats, _quat_mat_entries,
                               _quat_mul_floats, axis_angle_to_quat, quat_mul, quat_normalize, quat_to_mat, skew)
from rbdl_edu.spatial import plucker_inv
from rbdl_edu.tree import Xtree, body_inertia, gravity_acceleration, state


def world_transforms(model, q):
    r"""Motion transforms :math:`{}^iX_0 = {}^iX_\lambda\, {}^\lambda X_0` from the world to every
    body, ``(..., nbody, 6, 6)``.

    >>> from rbdl_edu.models import pendulum
    >>> world_transforms(pendulum(), np.zeros(1)).shape
    (2, 6, 6)
    """
    (q,) = state(model, q)
    xp = namespace(q)
    X0 = [xp.eye(6, dtype=q.dtype)]
    for i in range(1, model.nbody):
        XJ, _, _, _ = jcalc(model, i, q, xp.zeros(model.nv, dtype=q.dtype))
        X0.append(XJ @ Xtree(model, i) @ X0[model.body_parentid[i]])
    return xp.stack(xp.broadcast_arrays(*X0), axis=-3)


def forward_kinematics(model, q):
    r"""World pose of every body: ``xpos (..., nbody, 3)`` and ``xmat (..., nbody, 3, 3)``
    (``x_world = xpos + xmat @ x_body``, as MuJoCo's fields): the poses of
    :func:`world_transforms`, composed as rotations and translations, parents first
    (:func:`body_frames`).

    >>> from rbdl_edu.models import pendulum
    >>> xpos, xmat = forward_kinematics(pendulum(), np.zeros(1))
    >>> xpos[1]
    array([0., 0., 0.])
    """
    (q,) = state(model, q)
    xp = namespace(q)
    xpos, xmat = [xp.zeros(3, dtype=q.dtype)], [xp.eye(3, dtype=q.dtype)]
    for i in range(1, model.nbody):
        p = model.body_parentid[i]
        x, R = body_frames(model, i, xpos[p], xmat[p], q)[-1]
        xpos.append(x)
        xmat.append(R)
    return xp.stack(xp.broadcast_arrays(*xpos), axis=-2), xp.stack(xp.broadcast_arrays(*xmat), axis=-3)


def body_frames(model, i, x, R, q):
    r"""Body ``i``'s world frames from its parent's ``(x, R)``: first the frame before its
    joints (the fixed offset :math:`x \leftarrow x + R\,x_T`, :math:`R \leftarrow R\,R_T`
    of ``body_pos``, ``body_quat``; none for a free joint, whose ``qpos`` is the whole
    pose), then the frame after each joint, :math:`x \leftarrow x + R\,t_j`,
    :math:`R \leftarrow R\,R_j` (:func:`~rbdl_edu.joints.joint_transform`). The last is the
    body's pose. A list of ``1 + body_jntnum[i]`` pairs ``(x (..., 3), R (..., 3, 3))``.

    >>> from rbdl_edu.models import double_pendulum
    >>> frames = body_frames(double_pendulum(), 2, np.zeros(3), np.eye(3), np.array([0.0, 0.0]))
    >>> len(frames), frames[0][0]              # one joint; the elbow 1 m below the shoulder
    (2, array([ 0.,  0., -1.]))
    """
    xp = namespace(q, x, R)
    j0, nj = model.body_jntadr[i], model.body_jntnum[i]
    if not (nj and model.jnt_type[j0] == FREE):
        R_T = frames.tree_rotation(model, i)
        x, R = x + xp.matvec(R, plain(model).body_pos[i]), R @ R_T
    placed = [(x, R)]
    for j in range(j0, j0 + nj):
        R_j, t_j, _ = joint_transform(model, j, q)        # x_before = R_j x_after + t_j
        x, R = x + xp.matvec(R, t_j), R @ R_j
        placed.append((x, R))
    return placed


def com_positions(model, q):
    """World positions of the bodies' centers of mass, ``xipos (..., nbody, 3)``.

    >>> from rbdl_edu.models import pendulum
    >>> com_positions(pendulum(), np.zeros(1))[1]          # hanging straight down
    array([ 0.,  0., -1.])
    """
    xpos, xmat = forward_kinematics(model, q)
    return xpos + namespace(xpos).matvec(xmat, model.body_ipos)


def center_of_mass(model, q):
    r"""Center of mass of the whole tree, :math:`\sum m_i c_i / \sum m_i`, ``(..., 3)``.

    >>> from rbdl_edu.models import pendulum
    >>> round(float(center_of_mass(pendulum(), [np.pi / 2])[0]), 12)   # swung to -x
    -1.0
    """
    m = model.body_mass
    return (m[:, None] * com_positions(model, q)).sum(-2) / m.sum()


def body_velocities(model, q, qd):
    r"""Spatial velocity of every body in its own frame, :math:`v_i = {}^iX_\lambda v_\lambda + S_i\dot q_i`,
    ``(..., nbody, 6)``.

    >>> from rbdl_edu.models import pendulum
    >>> body_velocities(pendulum(), [0.0], [2.0])[1]
    array([0., 2., 0., 0., 0., 0.])
    """
    q, qd = state(model, q, qd)
    xp = namespace(q, qd)
    v = [xp.zeros(6, dtype=q.dtype)]
    for i in range(1, model.nbody):
        XJ, S, vJ, _ = jcalc(model, i, q, qd)
        v.append(xp.matvec(XJ @ Xtree(model, i), v[model.body_parentid[i]]) + vJ)
    return xp.stack(xp.broadcast_arrays(*v), axis=-2)


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
    body = model.as_id("body", body)                 # a name or an id
    xp = namespace(q)
    X0 = world_transforms(model, q)
    qd0 = xp.zeros(model.nv, dtype=q.dtype)
    columns = {}
    k = body
    while k > 0:
        _, S, _, _ = jcalc(model, k, q, qd0)
        columns[k] = X0[..., body, :, :] @ plucker_inv(X0[..., k, :, :]) @ S
        k = model.body_parentid[k]
    blocks = [columns.get(i, xp.zeros((6, int(model.body_dofnum[i])), dtype=q.dtype))
              for i in range(1, model.nbody) if model.body_dofnum[i]]
    if not blocks:
        return xp.zeros(q.shape[:-1] + (6, 0), dtype=q.dtype)
    batch = q.shape[:-1]
    return xp.concatenate([xp.broadcast_to(b, batch + b.shape[-2:]) for b in blocks], axis=-1)


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
    body = model.as_id("body", body)                 # a name or an id
    xpos, xmat = forward_kinematics(model, q)
    Jb = body_jacobian(model, q, body)
    R, x = xmat[..., body, :, :], xpos[..., body, :]
    r_local = namespace(q).matvec(R.mT, point - x)
    # v_p = v_O + ω × r = v_O - [r]x ω, in body coordinates, then rotated to the world
    return R @ (Jb[..., 3:, :] - skew(r_local) @ Jb[..., :3, :]), R @ Jb[..., :3, :]


def kinetic_energy(model, q, qd):
    r"""Kinetic energy :math:`T = \sum_i \tfrac12 v_i^T I_i v_i`, ``(...)``.

    >>> from rbdl_edu.models import pendulum
    >>> float(kinetic_energy(pendulum(), [0.0], [1.0]))      # ½ (m l² + I_yy) ω²
    1.0
    """
    v = body_velocities(model, q, qd)
    xp = namespace(v)
    return sum(xp.vecdot(v[..., i, :], xp.matvec(body_inertia(model, i), v[..., i, :])) / 2
               for i in range(1, model.nbody))


def potential_energy(model, q):
    r"""Gravitational potential energy :math:`V = -\sum_i m_i\, g\cdot c_i` (springs are not included), ``(...)``.

    >>> from rbdl_edu.models import pendulum
    >>> float(potential_energy(pendulum(), [0.0]))            # m g l below the pivot
    -9.81
    """
    c = com_positions(model, q)
    g = -gravity_acceleration(model)[3:]
    return -(model.body_mass * (c @ g)).sum(-1)


def momentum(model, q, qd):
    r"""Spatial momentum of the whole tree in world coordinates about the world origin,
    :math:`h = \sum_i {}^0X_i^*\, I_i v_i = \sum_i ({}^iX_0)^T I_i v_i`, as ``[angular; linear]``.

    >>> from rbdl_edu.models import pendulum
    >>> float(momentum(pendulum(), [0.0], [1.0])[1])              # angular momentum about y
    2.0
    """
    q, qd = state(model, q, qd)
    X0, v = world_transforms(model, q), body_velocities(model, q, qd)
    xp = namespace(X0, v)
    return sum(xp.matvec(X0[..., i, :, :].mT, xp.matvec(body_inertia(model, i), v[..., i, :]))
               for i in range(1, model.nbody))


def kinematics(model, data):
    """Fill ``data``'s poses from ``data.qpos`` (MuJoCo's ``mj_kinematics``): bodies
    (``xpos``, ``xquat``, ``xmat``), inertial frames (``xipos``, ``ximat``), joint anchors
    and axes (``xanchor``, ``xaxis``), geoms and sites (``geom_xpos``, ``geom_xmat``,
    ``site_xpos``, ``site_xmat``). Mocap bodies are placed at ``data.mocap_pos``/``mocap_quat``.

    >>> import rbdl_edu as rbd
    >>> model = rbd.models.pendulum(); data = rbd.Data(model)
    >>> data.qpos[:] = np.pi / 2; kinematics(model, data)
    >>> data.xipos[1].round(12)            # the bob swung to -x
    array([-1.,  0.,  0.])
    """
    m = plain(model)                # the model's arrays as plain read-only NumPy arrays
    q = data.qpos
    for name, x, shape in (("qpos", q, (m.nq,)), ("mocap_pos", data.mocap_pos, (m.nmocap, 3)),
                           ("mocap_quat", data.mocap_quat, (m.nmocap, 4))):
        if (x.shape if type(x) is np.ndarray else np.shape(x)) != shape:
            raise ValueError(f"data.{name} has shape {np.shape(x)}; a Data holds one state: {shape} "
                             "(for a batch of states, use one Data each, or rbd.forward_kinematics)")
    xp = namespace(q, data.mocap_pos, data.mocap_quat)
    R_j, t_j, quat_j = joint_rotations(model, q)         # every joint's pose and quaternion
    if xp is np:                # one state of numbers: the same poses, the quaternions on floats
        return number_kinematics(model, data, (R_j, t_j, quat_j))
    # every body at the world's origin (xpos, xmat, xquat), and the frame each joint acts in (the one
    # the joints before it left: x_before, R_before), for its anchor and axis
    xpos, xmat = xp.zeros((m.nbody, 3)), xp.zeros((m.nbody, 3, 3)) + eye(np, 3, float)
    xquat = xp.zeros((m.nbody, 4)) + np.array([1.0, 0.0, 0.0, 0.0])
    x_before, R_before = xp.zeros((m.njnt, 3)), xp.zeros((m.njnt, 3, 3)) + eye(np, 3, float)
    # a level of the tree at a time (its parents are done): i its bodies, p their parents
    for one_by_one, i, p, joint_steps in level_plan(model, not is_jax(q)):
        for b in one_by_one:    # a mocap body, one with a free joint, or every one (numbers)
            x, R, quat, before = body_pose(model, data, b, xpos, xmat, xquat, (R_j, t_j, quat_j))
            xpos, xmat, xquat = write(xpos, b, x), write(xmat, b, R), write(xquat, b, quat)
            for j, (xb, Rb) in before.items():
                x_before, R_before = write(x_before, j, xb), write(R_before, j, Rb)
        if not len(i):
            continue
        # the parent's pose, then the fixed offset: x = x_λ + R_λ x_T, R = R_λ R_T, quat = quat_λ quat_T
        x = xpos[p] + xp.matvec(xmat[p], m.body_pos[i])
        R, quat = xmat[p] @ frames.tree_rotations(model)[i], quat_mul(xquat[p], m.body_quat[i])
        # then each joint in the frame the joints before it left: x += R t_j, R = R R_j, quat = quat quat_j
        # (k: the bodies of the level with an n-th joint, j: that joint, for n = 0, 1, ...)
        for k, j in joint_steps:
            x_before, R_before = write(x_before, j, x[k]), write(R_before, j, R[k])
            x = write(x, k, x[k] + xp.matvec(R[k], t_j[j]))
            R = write(R, k, R[k] @ R_j[j])
            quat = write(quat, k, quat_mul(quat[k], quat_j[j]))
        # xquat is composed as a quaternion, like MuJoCo's: the same rotation as xmat, and
        # the same sign as MuJoCo's (q and -q are one rotation; framequat sensors show which);
        # xmat is then taken from it, as MuJoCo does, so that it rounds as MuJoCo's (a sphere
        # resting on a plane is exactly as far from it in both: a contact or none)
        quat = quat_normalize(quat)
        xpos, xquat, xmat = write(xpos, i, x), write(xquat, i, quat), write(xmat, i, quat_to_mat(quat))
    if m.njnt:                  # every joint's anchor and axis at once: x + R p, R a
        pos, axis, _ = frames.anchor_offsets(model)
        data.xanchor = x_before + xp.matvec(R_before, pos)
        data.xaxis = xp.matvec(R_before, axis)
    else:
        data.xanchor, data.xaxis = xp.zeros((0, 3)), xp.zeros((0, 3))
    data.xpos, data.xmat, data.xquat = xpos, xmat, xquat
    R_body_i, R_geom, R_site = frames.local_rotations(model)
    data.xipos = xpos + xp.matvec(xmat, m.body_ipos)
    data.ximat = xmat @ R_body_i
    b = m.geom_bodyid
    data.geom_xpos = xpos[b] + xp.matvec(xmat[b], m.geom_pos)
    data.geom_xmat = xmat[b] @ R_geom
    b = m.site_bodyid
    data.site_xpos = xpos[b] + xp.matvec(xmat[b], m.site_pos)
    data.site_xmat = xmat[b] @ R_site


def number_kinematics(model, data, joints):
    """:func:`kinematics` of one state of numbers: the same poses, level by level (the arrays'
    lines above, fewer of them), each body's quaternion composed and normalized on Python floats
    (the products and sums of :func:`~rbdl_edu.rotation.quat_mul`, ``_normalize4`` and
    :func:`~rbdl_edu.rotation.quat_to_mat`, the same bits without a NumPy call per body)."""
    m, (R_j, t_j, quat_j) = plain(model), joints
    xpos, xmat, xquat, x_before, R_before = (x.copy() for x in frames.at_origin(model))
    quats, turns = xquat.tolist(), quat_j.tolist()
    for one_by_one, i, p, x_T, R_T, steps, own in frames.number_plan(model):
        for b in one_by_one:    # a mocap body, one with a free joint
            x, R, quat, before = body_pose(model, data, b, xpos, xmat, xquat, joints)
            xpos[b], xmat[b], xquat[b], quats[b] = x, R, quat, quat.tolist()
            for j, (xb, Rb) in before.items():
                x_before[j], R_before[j] = xb, Rb
        if not own:
            continue
        R_p = xmat[p]                           # x = x_λ + R_λ x_T, R = R_λ R_T
        x, R = xpos[p] + np.matvec(R_p, x_T), R_p @ R_T
        for k, j, shift, turn in steps:         # x += R t_j, R = R R_j (if a joint follows)
            x_before[j], R_before[j] = x[k], R[k]
            if shift:
                x[k] = x[k] + np.matvec(R[k], t_j[j])
            if turn:
                R[k] = R[k] @ R_j[j]
        values = []                     # quat = quat_λ quat_T quat_j ..., normalized; R from it
        for b, parent, quat_T, jnts in own:
            quat = _quat_mul_floats(quats[parent], quat_T)
            for j in jnts:
                quat = _quat_mul_floats(quat, turns[j])
            quats[b] = quat = _normalize4_floats(quat)
            row_0, row_1, row_2 = _quat_mat_entries(*quat)
            values += (*quat, *row_0, *row_1, *row_2)
        values = np.array(values).reshape(-1, 13)
        xpos[i], xquat[i], xmat.reshape(-1, 9)[i] = x, values[:, :4], values[:, 4:]
    if m.njnt:                  # every joint's anchor and axis at once: x + R p, R a (one product)
        R_pos_axis = np.matvec(R_before[:, None], frames.anchor_offsets(model)[2])
        data.xanchor, data.xaxis = x_before + R_pos_axis[:, 0], R_pos_axis[:, 1]
    else:
        data.xanchor, data.xaxis = np.zeros((0, 3)), np.zeros((0, 3))
    data.xpos, data.xmat, data.xquat = xpos, xmat, xquat
    b, pos, R_local, (bodies, geoms, sites) = frames.attached_frames(model)     # the inertial
    R_b = xmat[b]                                           # frames, geoms and sites at once
    x, R = xpos[b] + np.matvec(R_b, pos), R_b @ R_local
    data.xipos, data.geom_xpos, data.site_xpos = x[bodies], x[geoms], x[sites]
    data.ximat, data.geom_xmat, data.site_xmat = R[bodies], R[geoms], R[sites]


def body_pose(model, data, b, xpos, xmat, xquat, joints):
    """The pose ``(x, R, quat)`` of body ``b`` from its parent's, alone: a mocap body where the
    user puts it, a body with a free joint where its ``qpos`` puts it, any other as the parent's
    pose moved by the fixed offset and its joints (``joints``: :func:`joint_rotations`); with
    ``{joint: (x, R)}``, the frame each of its joints acts in."""
    m, (R_j, t_j, quat_j) = plain(model), joints
    xp = namespace(xpos, xmat, t_j)
    k, p, j0, nj = m.body_mocapid[b], m.body_parentid[b], m.body_jntadr[b], m.body_jntnum[b]
    if k >= 0:                  # a mocap body (a child of the world) sits where the user puts it
        quat = _normalize4(quat_normalize(data.mocap_quat[k]))
        return data.mocap_pos[k], quat_to_mat(quat), quat, {}
    if nj and m.jnt_type[j0] == FREE:   # qpos is the pose in the world; the anchor is the body's origin
        given = quat_j[j0]
        x, quat = xpos[p] + xp.matvec(xmat[p], t_j[j0]), _normalize4(given)
        R = R_j[j0] if quat is given else quat_to_mat(quat)   # (kept as it is: R_j[j0] is its matrix)
        return x, R, quat, {j0: (x, eye(xp, 3, float))}
    # the parent's pose, then the fixed offset: x = x_λ + R_λ x_T, R = R_λ R_T, quat = quat_λ quat_T
    x = xpos[p] + xp.matvec(xmat[p], m.body_pos[b])
    R, quat, before = xmat[p] @ frames.tree_rotations(model)[b], quat_mul(xquat[p], m.body_quat[b]), {}
    for j in range(j0, j0 + nj):        # then each joint, in the frame the joints before it left
        before[j] = (x, R)
        if frames.shifting_joints(model)[j]:   # (a rotation about the frame's origin leaves x where it is)
            x = x + xp.matvec(R, t_j[j])
        if j < j0 + nj - 1:             # (the body's own R is taken from quat, below)
            R = R @ R_j[j]
        quat = quat_mul(quat, quat_j[j])
    quat = _normalize4(quat)
    return x, quat_to_mat(quat), quat, before


@per_state
def joint_rotations(model, q):
    """Every joint's pose ``R (njnt, 3, 3)``, ``t (njnt, 3)`` (:func:`~rbdl_edu.joints.joint_transform`)
    and its rotation as a quaternion ``(njnt, 4)`` (:func:`joint_quat`; a free joint's: its ``qpos`` normalized)."""
    m, xp = plain(model), namespace(q)
    if not m.njnt:
        return xp.zeros((0, 3, 3)), xp.zeros((0, 3)), xp.zeros((0, 4))
    R, t, _, _ = joint_poses(model, q)
    if xp is not np:                                    # (JAX: lists by joint; NumPy's are stacked)
        R, t = xp.stack(R), xp.stack(t)
    return R, t, joint_quats.__wrapped__(model, q)      # (remembered here, with R and t: no memo of its own)


def joint_quat(model, j, q):
    """The rotation of hinge or ball joint ``j`` as a quaternion (identity for a slide):
    ``(cos θ/2, sin θ/2 a)`` for a hinge turned by ``θ = q - ref``, the normalized ``qpos``
    quaternion for a ball.

    >>> from rbdl_edu.models import pendulum
    >>> joint_quat(pendulum(), 0, np.array([np.pi])).round(12)
    array([0., 0., 1., 0.])
    """
    adr = model.jnt_qposadr[j]
    if model.jnt_type[j] != SLIDE and (one_state(q) or is_jax(q)):     # numbers or JAX: all joints at once
        return joint_quats(model, q)[..., j, :]
    if model.jnt_type[j] == HINGE:
        return axis_angle_to_quat(model.jnt_axis[j], q[adr] - model.qpos0[adr])
    if model.jnt_type[j] == BALL:
        return quat_normalize(q[adr:adr + 4])
    return np.array([1.0, 0.0, 0.0, 0.0])


@per_state
def joint_quats(model, q):
    """:func:`joint_quat` of every joint at one state of numbers ``q (nq,)`` (or JAX ``(..., nq)``),
    ``(..., njnt, 4)``: the hinges at once; a free joint's is its ``qpos`` quaternion normalized.

    >>> from rbdl_edu.models import double_pendulum
    >>> joint_quats(double_pendulum(), np.array([0.0, np.pi]))[1].round(12)
    array([0., 0., 1., 0.])
    """
    m, xp = plain(model), namespace(q)
    if xp is np and q.ndim == 1:                # (one state of numbers: a copy of the identities)
        quats = frames.unturned_joints(model).copy()
    else:
        quats = xp.zeros(q.shape[:-1] + (m.njnt, 4)) + np.array([1.0, 0.0, 0.0, 0.0])
    hinges = joint_ids(model, HINGE)
    if len(hinges):
        adr, ref, _ = frames.hinge_frames(model)
        half = (q[..., adr] - ref) / 2              # (cos θ/2, sin θ/2 a), θ = q - ref
        rows = xp.concatenate([xp.cos(half)[..., None], xp.sin(half)[..., None] * m.jnt_axis[hinges]],
                              axis=-1)
        quats = write(quats, hinges if q.ndim == 1 else (Ellipsis, hinges, slice(None)), rows)
    values = q.tolist() if quaternion_joints(model) and one_state(q) else None
    for j, adr in quaternion_joints(model):
        unit = _normalize_floats(values[adr:adr + 4]) if values else None    # (one state: on floats, as
        if unit:                                                             # quat_normalize's numbers)
            quats[j] = unit
            continue
        quats = write(quats, (Ellipsis, j, slice(None)), quat_normalize(q[..., adr:adr + 4]))
    return quats


@per_model
def quaternion_joints(model):
    """``(joint, qposadr)`` of each ball and free joint's quaternion in ``qpos`` (a free joint's: after x)."""
    m = plain(model)
    return tuple((j, int(m.jnt_qposadr[j]) + (3 if m.jnt_type[j] == FREE else 0))
                 for j in np.flatnonzero((m.jnt_type == BALL) | (m.jnt_type == FREE)).tolist())
