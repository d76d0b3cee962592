""":func:`~rbdl_edu.kinematics.kinematics` of one state traced by JAX (``rbdl_edu.compiled``):
the same lines, each level of the tree kept as its own stack of poses instead of written into
arrays of every body. XLA's CPU backend runs each write into a traced array as kernels of its
own (a gather and a select); here a level reads its parents from the level above (one gather)
and the levels are joined once at the end, in body order (one gather per field): fewer, larger
kernels. A body with a free joint (a child of the world) is placed alone, as
:func:`~rbdl_edu.kinematics.body_pose` places it; models with mocap bodies are not taken.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu import frames
from rbdl_edu.cache import per_model
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import quat_mul, quat_normalize, quat_to_mat
from rbdl_edu.spatial import small_matmul, small_matvec


def level_kinematics(model, data, xp, joints):
    """Fill ``data``'s poses as :func:`~rbdl_edu.kinematics.kinematics` does, from ``joints``, its
    :func:`~rbdl_edu.kinematics.joint_rotations` ``(R_j, t_j, quat_j)`` of one traced state."""
    m, (R_j, t_j, quat_j) = plain(model), joints
    # the world, then each level: (x (n, 3), R (n, 3, 3), quat (n, 4)), and the frame each joint
    # acts in (the one the joints before it left: x_before, R_before), in pieces
    level = (np.zeros((1, 3)), np.eye(3)[None], np.array([[1.0, 0.0, 0.0, 0.0]]))
    placed, before = [level], []
    for free, _, i, parent, joint_steps in walk(model):
        x_p, R_p, quat_p = (y[parent] for y in level)
        poses = []
        for j in free:          # qpos is the pose in the world; the anchor is the body's origin
            quat = quat_normalize(quat_j[j])
            poses.append((t_j[j][None], quat_to_mat(quat)[None], quat[None]))
            before.append((t_j[j][None], np.eye(3)[None]))
        if len(i):
            # the parent's pose, then the fixed offset: x = x_λ + R_λ x_T, R = R_λ R_T, quat = quat_λ quat_T
            x = x_p[len(free):] + small_matvec(R_p[len(free):], m.body_pos[i])
            R = small_matmul(R_p[len(free):], frames.tree_rotations(model)[i])
            quat = quat_mul(quat_p[len(free):], m.body_quat[i])
            # then each joint in the frame the joints before it left: x += R t_j, R = R R_j, quat = quat quat_j
            for k, j in joint_steps:
                before.append((x[k], R[k]))
                x = _update(xp, x, k, x[k] + small_matvec(R[k], t_j[j]))
                R = _update(xp, R, k, small_matmul(R[k], R_j[j]))
                quat = _update(xp, quat, k, quat_mul(quat[k], quat_j[j]))
            quat = quat_normalize(quat)           # xmat from xquat, as MuJoCo (see kinematics)
            poses.append((x, quat_to_mat(quat), quat))
        level = tuple(xp.concatenate([pose[n] for pose in poses]) for n in range(3))
        placed.append(level)
    xpos, xmat, xquat = (xp.concatenate([lv[n] for lv in placed])[body_order(model)] for n in range(3))
    if m.njnt:                  # every joint's anchor and axis at once: x + R p, R a
        x_before = xp.concatenate([x for x, _ in before])[joint_order(model)]
        R_before = xp.concatenate([R for _, R in before])[joint_order(model)]
        pos, axis, _ = frames.anchor_offsets(model)
        data.xanchor = x_before + small_matvec(R_before, pos)
        data.xaxis = small_matvec(R_before, axis)
    else:
        data.xanchor, data.xaxis = xp.zeros((0, 3)), xp.zeros((0, 3))
    data.xpos, data.xmat, data.xquat = xpos, xmat, xquat
    R_body_i, R_geom, R_site = frames.local_rotations(model)
    data.xipos = xpos + small_matvec(xmat, m.body_ipos)
    data.ximat = small_matmul(xmat, R_body_i)
    b = m.geom_bodyid
    data.geom_xpos = xpos[b] + small_matvec(xmat[b], m.geom_pos)
    data.geom_xmat = small_matmul(xmat[b], R_geom)
    b = m.site_bodyid
    data.site_xpos = xpos[b] + small_matvec(xmat[b], m.site_pos)
    data.site_xmat = small_matmul(xmat[b], R_site)


def _update(xp, x, k, value):
    """``x`` with rows ``k`` replaced by ``value`` (all of them where ``k`` takes every row)."""
    if isinstance(k, slice):
        return value
    keep = np.ones(len(x), dtype=bool)
    keep[k] = False
    rows = np.zeros(len(x), dtype=int)
    rows[k] = np.arange(len(k))
    return xp.where(keep.reshape((-1,) + (1,) * (x.ndim - 1)), x, value[rows])


@per_model
def walk(model):
    """:func:`~rbdl_edu.frames.level_plan` with each level's bodies in the order of its stack (the
    free-joint bodies first, one row each, then the others): ``(free, order, i, parent, steps)``,
    the free joints, the level's bodies in that order, the others, every body's parent as a row
    of the level above, the joint steps."""
    m, rows, walked = plain(model), {0: 0}, []
    for one_by_one, i, p, steps in frames.level_plan(model):
        order = list(one_by_one) + i.tolist()
        parent = np.array([rows[int(b)] for b in m.body_parentid[order]], dtype=int)
        free = [int(m.body_jntadr[b]) for b in one_by_one]
        walked.append((free, order, i, parent, steps))
        rows = {b: r for r, b in enumerate(order)}
    return tuple(walked)


@per_model
def body_order(model):
    """Each body's row in :func:`level_kinematics`' levels joined (the world's first)."""
    order = [0] + [b for _, bodies, _, _, _ in walk(model) for b in bodies]
    return np.argsort(np.array(order, dtype=int), kind="stable")


@per_model
def joint_order(model):
    """Each joint's row in :func:`level_kinematics`' ``before`` pieces joined."""
    order = []
    for free, _, _, _, steps in walk(model):
        order += free
        for _, j in steps:
            order += np.atleast_1d(j).tolist()
    return np.argsort(np.array(order, dtype=int), kind="stable")


def traced_alone(model):
    """True if :func:`level_kinematics` takes ``model``: no mocap body (every body placed alone
    has a free joint)."""
    return plain(model).nmocap == 0
