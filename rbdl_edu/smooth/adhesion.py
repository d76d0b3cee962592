r"""The ``body`` transmission of MuJoCo's adhesion actuator (``mj_transmission``,
``mjTRN_BODY``): a pull spread over the contacts of a body.

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
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.smooth.comframe import jac

__all__ = ["body_transmission"]


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
