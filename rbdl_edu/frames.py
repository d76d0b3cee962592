"""The frames fixed in a model, made once per model: what
:func:`~rbdl_edu.kinematics.kinematics` starts from (every body and joint at the world's
origin, unturned) and places (each body's fixed offset from its parent, the joints' anchors and
axes, the inertial frames, geoms and sites in their bodies). Kinematics turns and moves them
with the joints; nothing here depends on ``qpos``.

>>> from rbdl_edu.models import double_pendulum
>>> tree_rotations(double_pendulum()).shape
(3, 3, 3)
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.model.enums import FREE
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import quat_to_mat


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
