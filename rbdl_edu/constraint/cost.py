r"""The cost of the soft constraints, row by row (MuJoCo's ``mj_constraintUpdate``; book,
chapter 10).

:math:`s(x)` per row with :math:`x = (Ja - a_{ref})_i` and :math:`D_i = 1/R_i`:
:math:`\tfrac12 D_i x^2` for an equality; the Huber function (quadratic for
:math:`|x| < R_i\,\text{frictionloss}`, linear beyond) for friction loss;
:math:`\tfrac12 D_i \min(x, 0)^2` for limits and pyramid edges; for an elliptic cone the
squared distance to the cone (in a metric scaled by the friction coefficients). The
constraint force is :math:`f = -\partial s/\partial x` (``efc_force``), and the zone each row
is in is ``efc_state``.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.constraint.blocks import elliptic_cones, one_sided_rows
from rbdl_edu.model.enums import (CNSTRSTATE_CONE, CNSTRSTATE_LINEARNEG, CNSTRSTATE_LINEARPOS, CNSTRSTATE_QUADRATIC,
                                  CNSTRSTATE_SATISFIED)


def update(model, data, jar, cost=False, cone_hessian=False, forces=True):
    r"""``efc_force``, ``efc_state`` and ``qfrc_constraint = J^T f`` at the row residuals
    ``jar = J a - a_ref`` (MuJoCo's ``mj_constraintUpdate``); returns the cost
    :math:`s(\text{jar})` if ``cost`` (the module docstring). With ``cone_hessian`` (``data``
    a :class:`~rbdl_edu.constraint.state.SolverState`) also ``data.cone_H``: the Hessian of
    each elliptic contact on its cone's side. ``forces=False``: the cost alone, ``data``
    untouched.

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
    ...   <body pos="0 0 .099"><freejoint/><geom size=".1" mass="1"/></body></worldbody></mujoco>''')
    >>> data = rbd.Data(model); rbd.forward(model, data)
    >>> cost = update(model, data, data.efc_b, cost=True)   # the forces if the ball fell freely
    >>> round(float(cost), 4), data.efc_force.round(4)
    (1470.5324, array([59.0975, 59.0975, 59.0975, 59.0975]))
    """
    ne, nf, nefc = data.ne, data.nf, data.nefc
    D, R, floss = data.efc_D, data.efc_R, data.efc_frictionloss
    # limits, frictionless contacts, pyramid edges: only a push, only when violated
    rows = one_sided_rows(data, model)
    x = jar[rows]
    pushes_only = isinstance(rows, slice) and rows.start == 0      # (every row one-sided)
    if forces and pushes_only:                       # (the forces and zones at once)
        force, satisfied = -D * jar, x >= 0
        force[satisfied] = 0.0
        state = 1 - satisfied                        # QUADRATIC (1) where it pushes, else SATISFIED (0)
    elif forces or nf or model.opt.cone == "elliptic":   # (else the cost alone: no forces to make)
        force, state = -D * jar, np.empty(nefc, dtype=int)
        state.fill(CNSTRSTATE_QUADRATIC)
    s = 0.5 * float(D[:ne] @ jar[:ne] ** 2) if ne and cost else 0.0
    # friction loss: quadratic inside |x| < R floss, linear (force = -+floss) outside
    if nf:
        fr = slice(ne, ne + nf)
        xf, Rf, fl = jar[fr], R[fr], floss[fr]
        neg, pos = xf <= -Rf * fl, xf >= Rf * fl
        if cost:
            s += float(np.sum(np.where(neg, -0.5 * Rf * fl ** 2 - fl * xf,
                                       np.where(pos, -0.5 * Rf * fl ** 2 + fl * xf, 0.5 * D[fr] * xf ** 2))))
        force[fr] = np.where(neg, fl, np.where(pos, -fl, force[fr]))
        state[fr] = np.where(neg, CNSTRSTATE_LINEARNEG, np.where(pos, CNSTRSTATE_LINEARPOS, CNSTRSTATE_QUADRATIC))
    if cost:
        x_push = np.where(x < 0, x, 0.0)
        s += 0.5 * float(D[rows] @ (x_push * x_push))
    if not forces and model.opt.cone != "elliptic":  # (no cone's cost to add: done)
        return s
    if not pushes_only:
        satisfied = x >= 0
        force[rows] = np.where(satisfied, 0.0, force[rows])
        state[rows] = np.where(satisfied, CNSTRSTATE_SATISFIED, CNSTRSTATE_QUADRATIC)
    if cone_hessian:
        data.cone_H = {}
    for (adr, n, _, k), con in elliptic_cones(model, data):
        rows = slice(adr, adr + n)
        cone_cost, H = _cone(con, D[rows], jar[rows], force[rows], state[rows], cone_hessian)
        s += cone_cost
        if H is not None:
            data.cone_H[adr] = H
    if forces:
        data.efc_force, data.efc_state = force, state
        data.qfrc_constraint = data.efc_J.T @ force
    return s if cost else None


def cone_zone(N, T, mu, dual=False):
    r"""Which piece of an elliptic cone's cost :math:`(N, T)` is on, ``efc_state``: with the
    cone :math:`N \ge \mu T`, SATISFIED above it, QUADRATIC below its dual cone
    (:math:`\mu N + T \le 0`), CONE in between. ``dual``: :math:`(N, T)` are forces, whose
    cone is the dual one, :math:`\mu N \ge T` (then QUADRATIC for :math:`N + \mu T \le 0`;
    MuJoCo's ``dualState``).

    >>> [int(cone_zone(N, 1.0, 0.5)) for N in (1.0, 0.0, -3.0)]   # SATISFIED, CONE, QUADRATIC
    [0, 4, 1]
    """
    a, b = (mu, 1.0) if dual else (1.0, mu)
    if a * N >= b * T:
        return CNSTRSTATE_SATISFIED
    if b * N + a * T <= 0:
        return CNSTRSTATE_QUADRATIC
    return CNSTRSTATE_CONE


def _cone(con, D, jar, force, state, hessian):
    r"""One elliptic contact: with :math:`U = (\mu x_0, \mu_1 x_1, \dots)` (``mu`` the regularized
    cone's), :math:`N = U_0`, :math:`T = |U_{1:}|`: no force above the cone
    (:math:`N \ge \mu T`), the plain quadratic below its dual cone (:math:`\mu N + T \le 0`),
    and in between the squared distance to the cone, :math:`\tfrac12 D_m (N - \mu T)^2` with
    :math:`D_m = D_0/(\mu^2(1+\mu^2))`. Writes ``force`` and ``state`` in place; returns the
    cost and, if ``hessian`` and on the cone's side, the cost's Hessian in ``x``, ``(dim, dim)``
    (else ``None``)."""
    mu, fr = con.mu, con.friction[:con.dim - 1]
    scale = np.concatenate(([mu], fr))
    U = jar * scale
    N, T = U[0], np.sqrt(U[1:] @ U[1:])
    zone = cone_zone(N, T, mu)
    state[:] = zone
    if zone == CNSTRSTATE_SATISFIED:
        force[:] = 0.0
        return 0.0, None
    if zone == CNSTRSTATE_QUADRATIC:
        return 0.5 * float(D @ jar ** 2), None
    Dm = D[0] / (mu * mu * (1 + mu * mu))
    NmT = N - mu * T
    force[0] = -Dm * NmT * mu
    force[1:] = -force[0] / T * U[1:] * fr
    H = None
    if hessian:
        # d^2/dU^2 of 1/2 Dm (N - mu T)^2, then U = diag(mu, friction) x on both sides
        n = con.dim
        H = np.zeros((n, n))
        H[0, 0] = 1.0
        H[0, 1:] = H[1:, 0] = -mu / T * U[1:]
        H[1:, 1:] = mu * N / T ** 3 * np.outer(U[1:], U[1:]) + (mu * mu - mu * N / T) * np.eye(n - 1)
        H = Dm * scale[:, None] * H * scale[None, :]
    return 0.5 * Dm * NmT ** 2, H
