r"""Tendons: their lengths and their Jacobians (MuJoCo's ``mj_tendon``).

A tendon is a scalar length :math:`L(q)` that actuators pull on, springs stretch and limits
stop. Everything else about it follows from its Jacobian :math:`J = \partial L / \partial q`
(``ten_J (ntendon, nv)``): its velocity :math:`\dot L = J \dot q`, and the joint forces
:math:`J^T f` of a tension :math:`f` (the principle of virtual work).

* A **fixed** tendon is a linear combination of joint positions, :math:`L = \sum_k c_k\,q_k`,
  so its Jacobian row holds the coefficient :math:`c_k` at each joint's dof.
* A **spatial** tendon is a string through sites (points fixed on bodies). Its length is the
  sum of the straight pieces between consecutive points, :math:`L = \sum |p_{k+1} - p_k|`, and
  the derivative of one piece is the unit vector along it times the difference of the two
  points' Jacobians: :math:`\partial |p_{k+1} - p_k| / \partial q = u_k^T (J_{p_{k+1}} - J_{p_k})`,
  :math:`u_k = (p_{k+1} - p_k) / |p_{k+1} - p_k|`.
  A **pulley** starts a new branch whose length counts divided by its ``divisor`` (a
  block-and-tackle). Between two sites the string may **wrap** around a sphere or a
  cylinder (:mod:`rbdl_edu.smooth.wrap`): it leaves the first site on a straight line tangent to
  the geom, follows the geom's surface and leaves it tangent towards the second site; the
  two tangent points count as points of the geom's body.

For drawing, ``ten_wrapadr``/``ten_wrapnum`` give each tendon's run of points in
``wrap_xpos (2 nwrap, 3)``; ``wrap_obj`` says what each point is: ``-1`` a site, a geom id
for a tangent point, ``-2`` a pulley (its position is zero).

The simulation stages are float-only (NumPy); the recursive algorithms of chapters 5-7 are
the ones that also run on SymPy symbols and JAX arrays.

Reference: chapter 8 (Simulation: tendons); MuJoCo's documentation, Modeling, "Tendons",
and XML reference ``tendon/spatial``.

>>> import rbdl_edu as rbd
>>> from rbdl_edu.kinematics import kinematics
>>> from rbdl_edu.smooth.comframe import com_pos
>>> model = rbd.load_mjcf('''<mujoco><worldbody>
...   <body><joint name="a"/><geom size=".1"/>
...     <body><joint name="b"/><geom size=".1"/></body></body></worldbody>
...   <tendon><fixed name="sum"><joint joint="a" coef="1"/><joint joint="b" coef="-2"/></fixed></tendon>
... </mujoco>''')
>>> data = rbd.Data(model); data.qpos[:] = [0.5, 0.25]
>>> kinematics(model, data); com_pos(model, data); tendon(model, data)
>>> data.ten_length, data.ten_J
(array([0.]), array([[ 1., -2.]]))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import stacked
from rbdl_edu.model.enums import WRAP_CYLINDER, WRAP_JOINT, WRAP_PULLEY, WRAP_SPHERE
from rbdl_edu.smooth.comframe import jac
from rbdl_edu.smooth.wrap import wrap

#: ``wrap_obj`` of a path point that is a site, and of a pulley
SITE_POINT, PULLEY_POINT = -1, -2


def tendon(model, data):
    """Fill ``ten_length (ntendon,)``, ``ten_J (ntendon, nv)`` and the path points
    ``ten_wrapadr``, ``ten_wrapnum``, ``wrap_obj``, ``wrap_xpos`` (MuJoCo's ``mj_tendon``).

    Needs the site and geom poses of :func:`~rbdl_edu.kinematics.kinematics` and the
    c-frame axes of :func:`~rbdl_edu.smooth.comframe.com_pos` (for the Jacobians).
    """
    m = model
    if not m.ntendon and type(data.qpos) is np.ndarray:   # no tendon, numbers: nothing to measure (a Data
        return                                            # holds the fields, empty, from the start)
    ten_length, ten_J = [], []                 # per tendon (rows, so that jax.jit traces them)
    data.ten_wrapadr = np.zeros(m.ntendon, dtype=int)
    data.ten_wrapnum = np.zeros(m.ntendon, dtype=int)
    data.wrap_obj = np.zeros(2 * m.nwrap, dtype=int)
    wrap_xpos = [np.zeros(3)] * (2 * m.nwrap)
    count = 0
    for t in range(m.ntendon):
        data.ten_wrapadr[t] = count
        if m.wrap_type[m.tendon_adr[t]] == WRAP_JOINT:
            length, J = fixed_tendon(m, data.qpos, t)
            points = []
        else:
            length, J, points = spatial_tendon(m, data, t)
        ten_length.append(length)
        ten_J.append(J)
        for obj, x in points:
            data.wrap_obj[count], wrap_xpos[count] = obj, x
            count += 1
        data.ten_wrapnum[t] = len(points)
    data.ten_length = stacked(ten_length, (m.ntendon,), data.qpos)
    data.ten_J = stacked(ten_J, (m.ntendon, m.nv), data.qpos)
    data.wrap_xpos = stacked(wrap_xpos, (2 * m.nwrap, 3), data.qpos)


def fixed_tendon(model, qpos, t):
    r"""Length and Jacobian row ``(nv,)`` of fixed tendon ``t``: :math:`L = \sum_k c_k q_k`,
    :math:`J_{d(k)} = c_k` (``d(k)`` the dof of joint ``k``; hinge and slide joints only)."""
    m = model
    L, J = 0.0, np.zeros(m.nv)
    for w in range(m.tendon_adr[t], m.tendon_adr[t] + m.tendon_num[t]):
        j, coef = m.wrap_objid[w], m.wrap_prm[w]
        L += coef * qpos[m.jnt_qposadr[j]]
        J[m.jnt_dofadr[j]] += coef
    return L, J


def spatial_tendon(model, data, t):
    """Length, Jacobian row ``(nv,)`` and path points ``[(wrap_obj, xpos), ...]`` of spatial
    tendon ``t``.

    The path is read as MuJoCo reads it: a pulley sets the divisor of the branch after it;
    otherwise each site is joined to the next site, through the geom between them if there
    is one (the string either wraps it, adding two tangent points, or misses it).
    """
    m = model
    adr, num = m.tendon_adr[t], m.tendon_num[t]
    kind, obj, prm = m.wrap_type[adr:adr + num], m.wrap_objid[adr:adr + num], m.wrap_prm[adr:adr + num]
    L, J, points = 0.0, np.zeros(m.nv), []
    divisor, k = 1.0, 0
    while k < num - 1:
        if kind[k] == WRAP_PULLEY:                   # a new branch: its length is divided
            divisor = prm[k]
            points.append((PULLEY_POINT, np.zeros(3)))
            k += 1
            continue
        if kind[k + 1] == WRAP_PULLEY:               # the branch ends at site k (recorded)
            k += 1
            continue
        # one stretch: site k to the next site, around geom k+1 if there is one
        s0 = obj[k]
        x = [data.site_xpos[s0]]
        body = [m.site_bodyid[s0]]
        through_geom = kind[k + 1] in (WRAP_SPHERE, WRAP_CYLINDER)
        s1 = obj[k + 2] if through_geom else obj[k + 1]
        wrapped = None
        if through_geom:
            g, side = obj[k + 1], int(round(prm[k + 1]))
            wrapped = wrap(data.site_xpos[s0], data.site_xpos[s1], data.geom_xpos[g], data.geom_xmat[g],
                           m.geom_size[g, 0], kind[k + 1], data.site_xpos[side] if side >= 0 else None)
        if wrapped is not None:                      # tangent points on the geom's body
            t0, t1, arc = wrapped
            x += [t0, t1]
            body += [m.geom_bodyid[g]] * 2
        x.append(data.site_xpos[s1])
        body.append(m.site_bodyid[s1])
        # L += |x1 - x0| / divisor, or (|t0 - x0| + arc + |x1 - t1|) / divisor around a geom
        if wrapped is None:
            L += np.linalg.norm(x[1] - x[0]) / divisor
        else:
            L += (np.linalg.norm(x[1] - x[0]) + arc + np.linalg.norm(x[3] - x[2])) / divisor
        # dL/dq += u^T (J_{p_{i+1}} - J_{p_i}) / divisor, for pieces between two bodies (an arc,
        # both ends on the geom's body, and a piece within one body do not change length)
        for i in range(len(x) - 1):
            if body[i] != body[i + 1]:
                u = _unit(x[i + 1] - x[i])
                J += u @ (jac(m, data, body[i + 1], x[i + 1])[0] - jac(m, data, body[i], x[i])[0]) / divisor
        points += [(SITE_POINT, x[0])] + ([(g, x[1]), (g, x[2])] if wrapped is not None else [])
        k += 2 if through_geom else 1
        if k == num - 1 or kind[k + 1] == WRAP_PULLEY:   # the last site of a branch
            points.append((SITE_POINT, data.site_xpos[s1]))
    return L, J, points


def tendon_velocity(model, data):
    r"""``ten_velocity (ntendon,)``: :math:`\dot L = J\,\dot q` (part of MuJoCo's
    ``mj_fwdVelocity``; needs :func:`tendon`)."""
    if not model.ntendon and type(data.qvel) is np.ndarray:     # no tendon, numbers: it stays empty
        return
    data.ten_velocity = data.ten_J @ data.qvel


def _unit(v):
    """``v / |v|``, or ``(1, 0, 0)`` for a vanishing ``v`` (as ``mju_normalize3``)."""
    n = np.linalg.norm(v)
    return v / n if n >= 1e-15 else np.array([1.0, 0.0, 0.0])
