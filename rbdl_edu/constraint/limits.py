r"""Limit rows: a hinge or slide outside its ``range`` (+ ``margin``), one row per side; a ball
joint turned beyond ``range[1]``, one row along its rotation axis; a tendon longer or shorter
than its range (MuJoCo's ``mj_instantiateLimit``; book, chapter 10). They are the ``nl`` rows
of :mod:`rbdl_edu.constraint.rows`, after the equalities and friction losses.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.constraint.blocks import Rows  # noqa: F401 (the doctest's)
from rbdl_edu.model.enums import BALL, CNSTR_LIMIT_JOINT, CNSTR_LIMIT_TENDON, HINGE, MINVAL, SLIDE
from rbdl_edu.model.frozen import plain


def limit_rows(model, data, rows):
    r"""Rows of the joint and tendon limits within their margin: for a side :math:`s = \mp 1`
    (lower, upper) the distance :math:`s\,(\text{range}_s - x)` and the Jacobian
    :math:`-s\,J_x`; a ball joint's rotation angle :math:`\theta` against ``max(range)``,
    along its unit axis :math:`a`: Jacobian :math:`-a` on its 3 dofs.

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_model('''<mujoco><worldbody><body><joint type="ball" range="0 30"/>
    ...   <geom size=".1" pos="0 0 -1"/></body></worldbody></mujoco>''')
    >>> data = rbd.Data(model); data.qpos[:] = [np.cos(0.3), np.sin(0.3), 0, 0]   # 34.4° about x
    >>> rows = Rows(); limit_rows(model, data, rows)
    >>> rows.J[0], round(float(rows.pos[0]), 6)        # pushes back about -x: 0.076 rad too far
    (array([[-1., -0., -0.]]), -0.076401)
    """
    m = plain(model)
    if m.opt.disabled("limit"):
        return
    if len(hinge_slide_limits(model)[0]) or ball_limits(model):
        joint_limit_rows(model, data, rows)
    for t in limited_tendons(model):
        for side, limit in ((-1, m.tendon_range[t, 0]), (1, m.tendon_range[t, 1])):
            dist = side * (limit - data.ten_length[t])
            if dist < m.tendon_margin[t]:
                rows.add(-side * data.ten_J[t], dist, m.tendon_margin[t], 0.0, CNSTR_LIMIT_TENDON, t)


@per_model
def limited_tendons(model):
    """The tendons with limits, a tuple."""
    return tuple(np.flatnonzero(plain(model).tendon_limited).tolist())


SIDES = np.array([-1.0, 1.0])          # the lower limit's side, the upper's


def joint_limit_rows(model, data, rows):
    """The joint limits' rows of :func:`limit_rows`, in joint order: the hinges and slides
    all at once, then the ball joints in among them."""
    m = plain(model)
    j, dof, adr, lo_hi, margin = hinge_slide_limits(model)
    # a hinge or slide: sides -1 (lower), +1 (upper), dist = side (limit - q), row -side
    dist = SIDES * (lo_hi - data.qpos[adr][:, None])      # (njoint, 2)
    within = dist < margin[:, None]
    if rows.awake is not None:                           # a row on a sleeping dof moves nothing awake
        within &= rows.awake[dof][:, None]
    balls = [ball_limit_row(model, data, b) for b in ball_limits(model)]
    balls = [row for row in balls if row is not None]
    if not balls and not np.count_nonzero(within):       # (the common case: nothing at a limit)
        return
    hit, side = np.nonzero(within)                       # in joint order, lower before upper
    J = np.zeros((len(hit), m.nv))
    J[np.arange(len(hit)), dof[hit]] = 1.0 - 2.0 * side  # -side: +1 below, -1 above
    if not balls:
        rows.extend(J, dist[hit, side].tolist(), margin[hit].tolist(), [0.0] * len(hit), CNSTR_LIMIT_JOINT,
                    j[hit].tolist())
    else:                                                # the ball joints' rows in joint order among them
        found = [(int(j[h]), J[r:r + 1], float(dist[h, sd]), float(margin[h]))
                 for r, (h, sd) in enumerate(zip(hit.tolist(), side.tolist()))]
        for k, Jk, dist_k, margin_k in sorted(found + balls, key=lambda row: row[0]):    # (stable)
            rows.add(Jk, dist_k, margin_k, 0.0, CNSTR_LIMIT_JOINT, k)


def ball_limit_row(model, data, b):
    """``(b, J (1, nv), dist, margin)`` of limited ball joint ``b`` if within its margin, else None."""
    m = plain(model)
    dof, adr = m.jnt_dofadr[b], m.jnt_qposadr[b]
    axis, angle = ball_rotation(data.qpos[adr:adr + 4])
    dist = max(m.jnt_range[b]) - angle
    if dist >= m.jnt_margin[b]:
        return None
    J = np.zeros((1, m.nv))
    J[0, dof:dof + 3] = -axis
    return int(b), J, dist, m.jnt_margin[b]


@per_model
def ball_limits(model):
    """The limited ball joints, a tuple."""
    m = plain(model)
    return tuple(np.flatnonzero(m.jnt_limited & (m.jnt_type == BALL)).tolist())


@per_model
def hinge_slide_limits(model):
    """The limited hinges and slides: ``(joint, dof, qposadr, range (n, 2), margin)``."""
    m = plain(model)
    j = np.flatnonzero(m.jnt_limited & ((m.jnt_type == SLIDE) | (m.jnt_type == HINGE)))
    return j, m.jnt_dofadr[j], m.jnt_qposadr[j], np.array(m.jnt_range[j], float), np.array(m.jnt_margin[j], float)


def ball_rotation(quat):
    r"""``(axis, angle)`` of a ball joint's rotation, angle in :math:`[0, \pi]` (MuJoCo's
    ``mju_quat2Vel``: the rotation by more than π is the one the other way round); axis
    ``(1, 0, 0)`` at no rotation.

    >>> axis, angle = ball_rotation(np.array([np.cos(0.3), 0, np.sin(0.3), 0]))
    >>> axis, round(angle, 12)
    (array([0., 1., 0.]), 0.6)
    """
    q = np.asarray(quat, float) / np.linalg.norm(quat)
    s = np.linalg.norm(q[1:])
    axis = q[1:] / s if s >= MINVAL else np.array([1.0, 0.0, 0.0])
    angle = 2 * np.arctan2(s, q[0])
    if angle > np.pi:
        angle -= 2 * np.pi
    v = axis * angle                       # the rotation vector, then its direction and size
    size = np.linalg.norm(v)
    return (v / size if size >= MINVAL else np.array([1.0, 0.0, 0.0])), float(size)
