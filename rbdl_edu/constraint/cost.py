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

from rbdl_edu.model.enums import (CNSTR_CONTACT_ELLIPTIC, CNSTRSTATE_CONE, CNSTRSTATE_LINEARNEG,
                                  CNSTRSTATE_LINEARPOS, CNSTRSTATE_QUADRATIC, CNSTRSTATE_SATISFIED)


def update(model, data, jar, cost=False, cone_hessian=False):
    r"""``efc_force``, ``efc_state`` and ``qfrc_constraint = J^T f`` at the row residuals
    ``jar = J a - a_ref`` (MuJoCo's ``mj_constraintUpdate``); returns the cost
    :math:`s(\text{jar})` if ``cost`` (the module docstring), and fills each elliptic
    contact's cone Hessian ``H`` if ``cone_hessian``.

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
    force, state = -D * jar, np.full(nefc, CNSTRSTATE_QUADRATIC)
    s = 0.5 * float(D[:ne] @ jar[:ne] ** 2)
    # friction loss: quadratic inside |x| < R floss, linear (force = -+floss) outside
    for i in range(ne, ne + nf):
        if jar[i] <= -R[i] * floss[i]:
            s += -0.5 * R[i] * floss[i] ** 2 - floss[i] * jar[i]
            force[i], state[i] = floss[i], CNSTRSTATE_LINEARNEG
        elif jar[i] >= R[i] * floss[i]:
            s += -0.5 * R[i] * floss[i] ** 2 + floss[i] * jar[i]
            force[i], state[i] = -floss[i], CNSTRSTATE_LINEARPOS
        else:
            s += 0.5 * D[i] * jar[i] ** 2
    i = ne + nf
    while i < nefc:
        if data.efc_type[i] != CNSTR_CONTACT_ELLIPTIC:
            # limits, frictionless contacts, pyramid edges: only a push, only when violated
            if jar[i] >= 0:
                force[i], state[i] = 0.0, CNSTRSTATE_SATISFIED
            else:
                s += 0.5 * D[i] * jar[i] ** 2
            i += 1
            continue
        con = data.contact[data.efc_id[i]]
        n = con.dim
        s += _cone(con, D[i:i + n], jar[i:i + n], force[i:i + n], state[i:i + n], cone_hessian)
        i += n
    data.efc_force, data.efc_state = force, state
    data.qfrc_constraint = data.efc_J.T @ force
    return s if cost else None


def _cone(con, D, jar, force, state, hessian):
    r"""One elliptic contact: with :math:`U = (\mu x_0, \mu_1 x_1, \dots)` (``mu`` the regularized
    cone's), :math:`N = U_0`, :math:`T = |U_{1:}|`: no force above the cone
    (:math:`N \ge \mu T`), the plain quadratic below its dual cone (:math:`\mu N + T \le 0`),
    and in between the squared distance to the cone, :math:`\tfrac12 D_m (N - \mu T)^2` with
    :math:`D_m = D_0/(\mu^2(1+\mu^2))`. Writes ``force`` and ``state`` in place; returns the cost."""
    mu, fr = con.mu, con.friction[:con.dim - 1]
    scale = np.concatenate(([mu], fr))
    U = jar * scale
    N, T = U[0], np.sqrt(U[1:] @ U[1:])
    if N >= mu * T or (T <= 0 and N >= 0):
        force[:], state[:] = 0.0, CNSTRSTATE_SATISFIED
        return 0.0
    if mu * N + T <= 0 or (T <= 0 and N < 0):
        state[:] = CNSTRSTATE_QUADRATIC
        return 0.5 * float(D @ jar ** 2)
    Dm = D[0] / (mu * mu * (1 + mu * mu))
    NmT = N - mu * T
    force[0] = -Dm * NmT * mu
    force[1:] = -force[0] / T * U[1:] * fr
    state[:] = CNSTRSTATE_CONE
    if hessian:
        # d^2/dU^2 of 1/2 Dm (N - mu T)^2, then U = diag(mu, friction) x on both sides
        n = con.dim
        H = np.zeros((n, n))
        H[0, 0] = 1.0
        H[0, 1:] = H[1:, 0] = -mu / T * U[1:]
        H[1:, 1:] = mu * N / T ** 3 * np.outer(U[1:], U[1:]) + (mu * mu - mu * N / T) * np.eye(n - 1)
        H = Dm * scale[:, None] * H * scale[None, :]
        con.H = np.zeros(36)
        con.H[:n * n] = H.ravel()
    return 0.5 * Dm * NmT ** 2


def elliptic_cones(data):
    """Each elliptic contact's block of rows, as ``(i, con, n)``: ``i`` its first row (the
    normal force), then its ``n - 1`` friction rows; ``con`` the contact, ``n = con.dim``."""
    i = data.ne + data.nf
    while i < data.nefc:
        if data.efc_type[i] == CNSTR_CONTACT_ELLIPTIC:
            con = data.contact[data.efc_id[i]]
            yield i, con, con.dim
            i += con.dim
        else:
            i += 1
