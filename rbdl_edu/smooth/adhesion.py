r"""Adhesion over contacts: the ``body`` transmission of MuJoCo's adhesion actuator
(``mj_transmission``, ``mjTRN_BODY``), a pull spread over the contacts of a body; and the
passive pull of adhesive geoms (MuJoCo 4.0's geom ``adhesion``, :func:`adhesion_forces`).

An adhesion actuator acts on every contact of one body's geoms. Its length is 0; its
moment arm is minus the average of those contacts' normal Jacobians, so that a positive
force :math:`f` pulls each of the :math:`n` contacts together with :math:`f/n` along its
normal:

.. math:: \mathrm{moment} = -\frac{1}{n} \sum_{c} J_{c,\,normal}

For a contact with constraint rows the normal Jacobian is its first row (condim 1, or an
elliptic cone), or the mean of its pyramid's :math:`2(d-1)` edge rows; a contact in the
``gap`` zone (detected, no rows) contributes the normal projection of the difference of
its two bodies' point Jacobians, :math:`n^T (J_{p,2} - J_{p,1})`, so the adhesion pulls
across the gap. Needs the contacts and constraint rows of the position stage.

A geom's ``adhesion`` :math:`\delta` (summed over the two geoms of a contact, or a
``<pair>``'s) translates the contact's friction cone down its normal by :math:`\delta`: the
contact may pull with up to :math:`\delta`. MuJoCo splits the translated cone into the
original cone plus a constant pull, so no solver changes: each adhesive contact adds

.. math:: \tau_{adhesion} = -\delta\, J_{c,\,normal}^T

to the passive forces (``qfrc_adhesion``, in ``qfrc_passive``), and its rows' reference
acceleration gains :math:`R\,\delta` (:func:`~rbdl_edu.constraint.impedance.adhesion_reference`),
so that the resting penetration does not change. The contact force reported
(:func:`~rbdl_edu.constraint.rows.contact_force`) is the net one, :math:`f_{normal} - \delta`.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.smooth.comframe import jac

__all__ = ["adhesion_forces", "body_transmission"]


def body_transmission(model, data, i):
    """Length (0) and moment row ``(nv,)`` of adhesion actuator ``i`` on its body."""
    m, body = model, model.actuator_trnid[i, 0]
    weights, moment, count = np.zeros(len(data.efc_J)), np.zeros(m.nv), 0
    for con in data.contact:
        b1, b2 = m.geom_bodyid[con.geom1], m.geom_bodyid[con.geom2]
        if body not in (b1, b2):
            continue
        count += 1
        if con.exclude:                             # in the gap: no rows, its normal Jacobian directly
            moment += con.frame[0] @ (jac(m, data, b2, con.pos)[0] - jac(m, data, b1, con.pos)[0])
        elif con.efc_address >= 0:
            a = con.efc_address
            if con.dim == 1 or m.opt.cone == "elliptic":
                weights[a] = 1.0
            else:                                   # a pyramid: the mean of its edges
                weights[a:a + 2 * (con.dim - 1)] = 0.5 / (con.dim - 1)
    if count:
        moment = -(data.efc_J.T @ weights + moment) / count
    return 0.0, moment


def adhesion_forces(model, data):
    r"""``qfrc_adhesion (nv,)``: :math:`-\sum_c \delta_c\, n_c^T (J_{p,2} - J_{p,1})(x_c)` over
    the adhesive contacts :math:`c` (MuJoCo's ``mj_adhesion``): a constant pull of each along
    its normal, in the gap too.

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1" adhesion="2"/>
    ...   <body pos="0 0 .099"><freejoint/><geom size=".1"/></body></worldbody></mujoco>''')
    >>> data = rbd.Data(model); rbd.forward(model, data)
    >>> data.qfrc_adhesion                   # the floor pulls the ball down with 2 N
    array([ 0.,  0., -2.,  0.,  0.,  0.])
    """
    m, out = model, np.zeros(model.nv)
    for con in data.contact:
        if not con.adhesion or con.exclude:
            continue
        b1, b2 = m.geom_bodyid[con.geom1], m.geom_bodyid[con.geom2]
        out -= con.adhesion * (con.frame[0] @ (jac(m, data, b2, con.pos)[0] - jac(m, data, b1, con.pos)[0]))
    return out
