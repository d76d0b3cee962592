r"""Tendon armature: the inertia of a tendon's length (MuJoCo's ``mj_tendonArmature`` and
``mj_tendonBias``).

A tendon with armature :math:`a` carries a kinetic energy :math:`\tfrac12 a \dot L^2` with
:math:`\dot L = J(q)\,\dot q` (``ten_J``). Lagrange's equations turn it into a mass-matrix
term and a velocity-product force:

.. math:: M \mathrel{+}= a\,J^T J, \qquad c \mathrel{+}= a\,J^T (\dot J \dot q).

A fixed tendon's Jacobian is constant, so only spatial tendons have the second term. Per
straight piece between sites on two different bodies, of length :math:`\ell` along the unit
vector :math:`u`, with the sites' velocities :math:`v` and their velocity-product
accelerations :math:`a_0 = \dot J_p \dot q` (the classical acceleration at :math:`\ddot q = 0`
without gravity), divided by the piece's pulley divisor:

.. math:: \dot J \dot q = \sum_{\text{pieces}} \frac{1}{d}\Big(u \cdot \Delta a_0
          + \frac{|\Delta v|^2 - (u \cdot \Delta v)^2}{\ell}\Big)

(the rate of :math:`u^T (J_2 - J_1)` applied to :math:`\dot q`). MuJoCo refuses armature on
a tendon that wraps around geoms, and so does the compiler here. The mass-matrix term lands
in :func:`~rbdl_edu.simulation.forward.mass_matrix` (where M's tree pattern keeps it), the
force in ``qfrc_bias``.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.model.enums import MINVAL, WRAP_JOINT, WRAP_PULLEY
from rbdl_edu.rotation import cross

__all__ = ["tendon_bias", "tendon_jdot_qdot"]


def _point(model, data, cacc, site):
    """A site's position, velocity and velocity-product acceleration (world axes) from the
    c-frame ``cvel`` and ``cacc`` of its body."""
    b = model.site_bodyid[site]
    p = data.site_xpos[site]
    r = p - data.subtree_com[model.body_rootid[b]]
    w, v = data.cvel[b, :3], data.cvel[b, 3:] + cross(data.cvel[b, :3], r)
    a = cacc[b, 3:] + cross(cacc[b, :3], r) + cross(w, v)        # classical: spatial + ω × v
    return p, v, a


def tendon_jdot_qdot(model, data, t, cacc):
    r""":math:`\dot J \dot q` of tendon ``t`` (0 for a fixed tendon; MuJoCo's ``mj_tendonDot``
    applied to ``qvel``), from ``cvel`` and the velocity-product accelerations ``cacc``
    (c-frame, :math:`\ddot q = 0`; gravity's uniform term cancels in the differences)."""
    m, adr, num = model, model.tendon_adr[t], model.tendon_num[t]
    if m.wrap_type[adr] == WRAP_JOINT:
        return 0.0
    out, divisor = 0.0, 1.0
    for j in range(adr, adr + num - 1):
        if m.wrap_type[j] == WRAP_PULLEY or m.wrap_type[j + 1] == WRAP_PULLEY:
            if m.wrap_type[j] == WRAP_PULLEY:
                divisor = m.wrap_prm[j]
            continue
        s1, s2 = m.wrap_objid[j], m.wrap_objid[j + 1]
        if m.site_bodyid[s1] == m.site_bodyid[s2]:
            continue                                    # a piece on one body keeps its length
        p1, v1, a1 = _point(m, data, cacc, s1)
        p2, v2, a2 = _point(m, data, cacc, s2)
        ell = np.linalg.norm(p2 - p1)
        u = (p2 - p1) / ell if ell >= MINVAL else np.array([1.0, 0.0, 0.0])
        dv = v2 - v1
        # d/dt u = (Δv - u (u·Δv)) / ℓ
        du = (dv - u * (u @ dv)) / ell if ell > MINVAL else np.zeros(3)
        out += (u @ (a2 - a1) + dv @ du) / divisor
    return out


def tendon_bias(model, data, cacc):
    r"""The velocity-product force of the tendons' armature ``(nv,)``:
    :math:`\sum_t a_t\,(\dot J_t \dot q)\,J_t^T`. Needs ``ten_J``, ``cvel`` and the
    c-frame accelerations ``cacc`` of an RNEA pass at :math:`\ddot q = 0`."""
    qfrc = np.zeros(model.nv)
    for t in np.flatnonzero(model.tendon_armature > 0):
        qfrc += model.tendon_armature[t] * tendon_jdot_qdot(model, data, t, cacc) * data.ten_J[t]
    return qfrc
