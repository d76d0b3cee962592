"""The frames fixed in a model, made once per model: what
:func:`~rbdl_edu.kinematics.kinematics` starts from (every body and joint at the world's
origin, unturned) and places (each body's fixed offset from its parent, the joints' anchors and
axes, the inertial frames, geoms and sites in their bodies), and how it walks the tree, level
by level (:func:`level_plan`, :func:`number_plan`). Kinematics turns and moves the frames with
the joints; nothing here depends on ``qpos``.

>>> from rbdl_edu.models import double_pendulum
>>> tree_rotations(double_pendulum()).shape
(3, 3, 3)
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.model.enums import FREE, HINGE, SLIDE
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import quat_to_mat
from rbdl_edu.tree import tree_levels


@per_model
def tree_rotation(model, i):
    """``R_T``, the rotation of body ``i``'s fixed offset from its parent (``body_quat``)."""
    return quat_to_mat(model.body_quat[i])


@per_model
def tree_rotations(model):
    """:func:`tree_rotation` of every body, ``(nbody, 3, 3)``."""
    return quat_to_mat(plain(model).body_quat)


@per_model
def anchor_offsets(model):
    """``jnt_pos`` and ``jnt_axis`` as :func:`~rbdl_edu.kinematics.kinematics` turns them into
    ``xanchor``, ``xaxis``: a free joint's anchor is its body's origin (its ``jnt_pos`` taken as
    zero); and the two joined, ``(njnt, 2, 3)``."""
    m = plain(model)
    pos = np.where((m.jnt_type == FREE)[:, None], 0 * m.jnt_pos, m.jnt_pos)
    return pos, m.jnt_axis, np.stack([pos, m.jnt_axis], axis=1)


@per_model
def hinge_frames(model):
    """What turns the hinges, fixed in the model: their ``qpos`` addresses (a slice where they are
    consecutive, else an int array), their ``qpos0`` (the angle :math:`\theta = q - q_0`), and their
    anchors ``jnt_pos (nhinge, 3)``, or None if every entry is ``+0.0``: a rotation about the
    frame's own origin, whose ``t = p - R p`` is zero (+0.0, whatever the signs in R).

    >>> from rbdl_edu.models import double_pendulum
    >>> hinge_frames(double_pendulum())
    (slice(0, 2, None), array([0., 0.]), None)
    """
    m = plain(model)
    hinges = np.flatnonzero(m.jnt_type == HINGE)
    adr, p = m.jnt_qposadr[hinges], m.jnt_pos[hinges]
    ref = m.qpos0[adr]
    if len(adr) and np.array_equal(adr, np.arange(adr[0], adr[0] + len(adr))):
        adr = slice(int(adr[0]), int(adr[0]) + len(adr))
    return adr, ref, None if not (p.any() or np.signbit(p).any()) else p


@per_model
def at_origin(model):
    """``xpos (nbody, 3)``, ``xmat (nbody, 3, 3)``, ``xquat (nbody, 4)``, ``x_before (njnt, 3)``,
    ``R_before (njnt, 3, 3)`` of every body and joint at the world's origin, unturned: what
    :func:`~rbdl_edu.kinematics.kinematics` starts from (copies of these, made once per model)."""
    m = plain(model)
    return (np.zeros((m.nbody, 3)), np.zeros((m.nbody, 3, 3)) + np.eye(3),
            np.zeros((m.nbody, 4)) + np.array([1.0, 0.0, 0.0, 0.0]), np.zeros((m.njnt, 3)),
            np.zeros((m.njnt, 3, 3)) + np.eye(3))


@per_model
def attached_frames(model):
    """The frames fixed in the bodies, joined: the inertial frames, then the geoms, then the
    sites: ``(body, pos, R, (bodies, geoms, sites))``, each frame's body, its position and
    rotation in it (``body_ipos``/``body_iquat``, ``geom_pos``/``geom_quat``, ``site_pos``/``site_quat``),
    and the three slices of the join."""
    m = plain(model)
    nb, ng = m.nbody, len(m.geom_bodyid)
    body = np.concatenate([np.arange(nb), m.geom_bodyid, m.site_bodyid]).astype(int)
    pos = np.concatenate([m.body_ipos, m.geom_pos, m.site_pos]).reshape(-1, 3)
    R = np.concatenate(local_rotations(model)).reshape(-1, 3, 3)
    return body, pos, R, (slice(0, nb), slice(nb, nb + ng), slice(nb + ng, len(body)))


@per_model
def local_rotations(model):
    """The fixed rotations of the inertial frames, geoms and sites in their bodies
    (``body_iquat``, ``geom_quat``, ``site_quat`` as matrices), made once per model."""
    m = plain(model)
    return quat_to_mat(m.body_iquat), quat_to_mat(m.geom_quat), quat_to_mat(m.site_quat)


@per_model
def unturned_joints(model):
    """``(njnt, 4)``: every joint's quaternion unturned, the identity ``(1, 0, 0, 0)``."""
    return np.zeros((plain(model).njnt, 4)) + np.array([1.0, 0.0, 0.0, 0.0])


@per_model
def shifting_joints(model):
    """By joint: True if it can move its frame's origin (a slide, a free joint, a rotation about
    an anchor away from the origin); the others' ``t_j`` is zero."""
    m = plain(model)
    return ((m.jnt_type == SLIDE) | (m.jnt_type == FREE) | (m.jnt_pos != 0).any(axis=1)).tolist()


@per_model
def level_plan(model, by_body=False):
    """How :func:`~rbdl_edu.kinematics.kinematics` walks the tree (traced by JAX), by level
    ``(one_by_one, i, p, steps)``: the bodies placed one by one by
    :func:`~rbdl_edu.kinematics.body_pose` (mocap, free joint; all if ``by_body``), the others
    ``i`` and their parents ``p``, and for n = 0, 1, ... ``(k, j)``: ``k`` the positions in ``i``
    of the bodies with an n-th joint (a slice where all have one), ``j`` those joints."""
    m = plain(model)
    plan = []
    for i, p in tree_levels(model):
        i, p = np.atleast_1d(i), np.atleast_1d(p)
        given = [by_body or alone(model, b) for b in i.tolist()]
        one_by_one = [b for b, g in zip(i.tolist(), given) if g]
        i, p = i[~np.array(given, dtype=bool)], p[~np.array(given, dtype=bool)]
        steps = []
        for n in range(int(m.body_jntnum[i].max(initial=0))):
            k = np.flatnonzero(m.body_jntnum[i] > n)
            steps.append((slice(None) if len(k) == len(i) else k, m.body_jntadr[i[k]] + n))
        plan.append((one_by_one, i, p, tuple(steps)))
    return tuple(plan)


@per_model
def number_plan(model):
    """How :func:`~rbdl_edu.kinematics.number_kinematics` walks the tree, by level: :func:`level_plan`'s
    ``(one_by_one, i, p, steps)`` (``i``, ``p`` plain ints for a level of one body), with the bodies'
    fixed offsets ``x_T (n, 3)`` and ``R_T (n, 3, 3)`` after ``p``, and each step
    ``(k, j, shift, turn)``: whether one of its joints moves the frame's origin, whether a joint
    follows (the frame it leaves is then needed); and ``own``: the Python numbers each body's
    quaternion is composed of, ``(b, parent, body_quat, joints)`` (empty: no such body)."""
    m, shifts, plan = plain(model), np.array(shifting_joints(model), dtype=bool), []
    for one_by_one, i, p, steps in level_plan(model):
        n_joints = m.body_jntnum[i]
        one = len(i) == 1
        steps = tuple((slice(None) if one else k, int(j[0]) if one else j, bool(shifts[j].any()),
                       bool((n_joints > n + 1).any())) for n, (k, j) in enumerate(steps))
        own = tuple((b, b_p, q, tuple(range(a, a + n))) for b, b_p, q, a, n in zip(
            i.tolist(), p.tolist(), m.body_quat[i].tolist(), m.body_jntadr[i].tolist(), n_joints.tolist()))
        i, p = (int(i[0]), int(p[0])) if one else (i, p)
        plan.append((one_by_one, i, p, m.body_pos[i], tree_rotations(model)[i], steps, own))
    return tuple(plan)


def alone(model, b):
    """True for a body that :func:`~rbdl_edu.kinematics.body_pose` places alone: a mocap body, one
    with a free joint (the pose is given)."""
    m = plain(model)
    return bool(m.body_mocapid[b] >= 0) or FREE in m.jnt_type[m.body_jntadr[b]:][:m.body_jntnum[b]]
