r"""Integrating positions with velocities, quaternion-aware (MuJoCo's ``mj_integratePos``).

``qpos`` and ``qvel`` have different sizes when the model has ball or free joints: a
quaternion (4 numbers) moves with an angular velocity (3 numbers). Each joint type is
integrated on its own manifold:

* hinge, slide: :math:`q \leftarrow q + \dot q\, dt`;
* ball: :math:`quat \leftarrow quat \otimes \exp(\omega\, dt/2)` (ω in the local frame);
* free: position :math:`p \leftarrow p + v\, dt` (v in the world), orientation as a ball.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import FLOAT64, namespace, write
from rbdl_edu.cache import per_model
from rbdl_edu.model.enums import BALL, FREE
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import quat_integrate
from rbdl_edu.tree import state


def integrate_pos(model, q, qd, dt):
    """Positions after moving with velocity ``qd`` for time ``dt``; ``(..., nq)``.

    >>> from rbdl_edu.models import auto_tree
    >>> m = auto_tree(1, joint_types=("ball",))
    >>> integrate_pos(m, m.qpos0, [0.0, 0.0, np.pi], 0.5).round(6)   # a quarter turn about z
    array([0.707107, 0.      , 0.      , 0.707107])
    """
    q, qd = state(model, q, qd)
    if not quaternions(model):                   # hinges and slides only: q + q̇ dt, all at once
        return q + qd * dt
    if type(q) is np.ndarray is type(qd) and q.ndim == 1 == qd.ndim and q.dtype == FLOAT64 == qd.dtype \
            and isinstance(dt, float):      # one state of numbers (not JAX's, not symbols)
        return _integrate_numbers(model, q, qd, dt)
    # a new array to write into, of the batch's shape (one state: q's own)
    q_next = q + 0 * dt
    if q.ndim > 1 or qd.ndim > 1:
        batch = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1])
        q_next = namespace(q, qd).broadcast_to(q_next, batch + q.shape[-1:]) * 1
    # hinges, slides and the free joints' positions, all at once: q + q̇ dt
    a, d = linear_coordinates(model)
    if q_next.ndim > 1:                          # a batch: the coordinates along the last axis
        a, d = (..., a), (..., d)
    q_next = write(q_next, a, q[a] + qd[d] * dt)
    # each quaternion (ball joints, free joints' orientations) turns: quat ⊗ exp(ω dt / 2)
    for a, d in quaternions(model):
        q_next = write(q_next, (..., slice(a, a + 4)), quat_integrate(q[..., a:a + 4], qd[..., d:d + 3], dt))
    return q_next


def _integrate_numbers(model, q, qd, dt):
    """:func:`integrate_pos` of one state of numbers on Python floats, the same numbers: each
    linear coordinate's :math:`q + \dot q\, dt`, each quaternion by
    :func:`~rbdl_edu.rotation.quat_integrate`."""
    out, rates = q.tolist(), qd.tolist()
    for a, d in linear_pairs(model):
        out[a] = out[a] + rates[d] * dt
    for a, d in quaternions(model):
        out[a:a + 4] = quat_integrate(q[a:a + 4], qd[d:d + 3], dt).tolist()
    return np.array(out)


@per_model
def linear_pairs(model):
    """:func:`linear_coordinates` as ``(qposadr, dofadr)`` pairs, a tuple."""
    a, d = linear_coordinates(model)
    return tuple(zip(np.arange(model.nq)[a].tolist(), np.arange(model.nv)[d].tolist()))


@per_model
def linear_coordinates(model):
    """``qpos`` and ``dof`` addresses of the coordinates that move as ``q̇ dt``: every hinge and
    slide, and the three of each free joint's position (in that order); each a slice where they
    are consecutive."""
    m = plain(model)
    scalar = np.flatnonzero((m.jnt_type != FREE) & (m.jnt_type != BALL))
    free = np.flatnonzero(m.jnt_type == FREE)
    a = np.concatenate([m.jnt_qposadr[scalar]] + [m.jnt_qposadr[j] + np.arange(3) for j in free])
    d = np.concatenate([m.jnt_dofadr[scalar]] + [m.jnt_dofadr[j] + np.arange(3) for j in free])
    return _as_slice(a.astype(int)), _as_slice(d.astype(int))


def _as_slice(index):
    """An int array of consecutive entries as a slice (a view to read, a block to write), else itself."""
    if len(index) and np.array_equal(index, np.arange(index[0], index[0] + len(index))):
        return slice(int(index[0]), int(index[0]) + len(index))
    return index


@per_model
def quaternions(model):
    """``(qposadr, dofadr)`` of each quaternion in ``qpos`` and its angular velocity, a tuple:
    the ball joints', and the free joints' after their position."""
    m = plain(model)
    after = {j: 3 if m.jnt_type[j] == FREE else 0 for j in rotating_joints(model)}     # a free joint's position
    return tuple((int(m.jnt_qposadr[j]) + k, int(m.jnt_dofadr[j]) + k) for j, k in after.items())


@per_model
def rotating_joints(model):
    """The ball and free joints (a quaternion in ``qpos``), as a tuple of ids."""
    m = plain(model)
    return tuple(np.flatnonzero((m.jnt_type == FREE) | (m.jnt_type == BALL)).tolist())


def random_qpos(model, rng, scale=1.0):
    """A random configuration: hinge/slide values ``~ scale * N(0, 1)`` around ``qpos0``,
    uniformly random unit quaternions for ball and free joints, free positions ``~ N(0, 1)``.

    >>> from rbdl_edu.models import auto_tree
    >>> q = random_qpos(auto_tree(1, joint_types=("ball",)), np.random.default_rng(0))
    >>> round(float(np.linalg.norm(q)), 12)
    1.0
    """
    q = np.array(model.qpos0, dtype=float, copy=True)
    for j in range(model.njnt):
        a = model.jnt_qposadr[j]
        if model.jnt_type[j] in (BALL, FREE):
            k = a + 3 if model.jnt_type[j] == FREE else a
            quat = rng.normal(size=4)
            q[k:k + 4] = quat / np.linalg.norm(quat)
            if model.jnt_type[j] == FREE:
                q[a:a + 3] = rng.normal(size=3)
        else:
            q[a] += scale * rng.normal()
    return q
