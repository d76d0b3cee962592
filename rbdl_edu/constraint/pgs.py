r"""The dual solver ``PGS``: projected Gauss-Seidel on the constraint forces (MuJoCo's
``mj_solPGS``; book, chapter 10).

The minimum of :mod:`rbdl_edu.constraint.solver`'s cost is also the minimum over the forces :math:`f` of
the dual cost

.. math:: \tfrac12 f^T (A + R) f + f^T b, \qquad A = J M^{-1} J^T,\ b = J a_u - a_{ref},

with each force in its set: free for equalities, :math:`|f| \le` frictionloss for friction
loss, :math:`f \ge 0` for limits and pyramid edges, the friction cone for an elliptic contact.
Gauss-Seidel minimizes over one constraint at a time, the others fixed, and projects onto its
set. A scalar row needs one division; an elliptic contact (where coordinate steps would stall
on the round cone) is updated in two moves: along the ray from the cone's tip through the
current force, then over the friction forces with the normal force fixed, a small
quadratically constrained problem (:func:`qcqp`). A step that would raise the cost is undone.

It sweeps the constraints in a pseudo-random order (MuJoCo's, :class:`Pcg32`), with Nesterov's momentum
(restarted whenever it stops helping), until a sweep improves the cost, scaled by
:math:`1/\mathrm{tr}(M)`, by less than ``tolerance``. Then :math:`\ddot q = a_u + M^{-1}J^Tf`.

The simulation stages are float-only (NumPy).
"""
from __future__ import annotations

import functools

import numpy as np

from rbdl_edu.constraint.blocks import blocks, elliptic_cones, one_sided_rows
from rbdl_edu.constraint.cost import cone_zone
from rbdl_edu.constraint.state import SolverStat, dual_matrix, nactive, scale
from rbdl_edu.model.enums import (CNSTR_CONTACT_ELLIPTIC, CNSTRSTATE_LINEARNEG, CNSTRSTATE_LINEARPOS,
                                  CNSTRSTATE_QUADRATIC, CNSTRSTATE_SATISFIED, MINVAL)


def solve_pgs(model, data):
    """PGS from ``data.efc_force`` (the warm start): ``efc_force``, ``efc_state``,
    ``solver_niter``, ``solver``."""
    AR, f = dual_matrix(model, data), data.efc_force.copy()
    # the coordinates of Gauss-Seidel, (first row, number of rows): an elliptic contact's
    # rows together, every other row on its own
    if model.opt.cone != "elliptic":            # (every row on its own: the sweeps made once per size)
        sweeps = scalar_sweeps(data.nefc, model.opt.iterations)
    else:
        steps = []
        for adr, n, kind, _ in blocks(model, data):
            steps += [(adr, n)] if kind == CNSTR_CONTACT_ELLIPTIC else [(i, 1) for i in range(adr, adr + n)]
        sweeps = [[steps[j] for j in order] for order in sweep_orders(len(steps), model.opt.iterations)]
    sets = ForceSets(model, data, AR)           # each row's set, once for the whole solve
    s, f_prev, k = scale(data), f.copy(), 0
    for it in range(model.opt.iterations):
        # Nesterov: extrapolate f + beta (f - f_prev), then back into the sets
        beta = (k - 1) / (k + 2) if it > 0 else 0.0
        if beta > 0:
            f, f_prev = project(model, data, f + beta * (f - f_prev), sets), f
        else:
            f_prev = f.copy()
        f_momentum = f.copy()
        improvement = sweep(data, AR, f, sweeps[it], sets)
        data.solver.append(SolverStat(s * improvement, 0.0, 0.0, active_rows(model, data, f, sets), 0, 0))
        # restart the momentum when the sweep went against the extrapolation
        k = 0 if it > 0 and (f - f_momentum) @ (f_momentum - f_prev) < 0 else k + 1
        if s * improvement < model.opt.tolerance:
            break
    data.efc_force = f
    update_state(model, data, sets)
    data.solver_niter = it + 1 if model.opt.iterations else 0


def active_rows(model, data, f, sets):
    """How many rows act at the forces ``f`` (``efc_state`` not SATISFIED, :func:`update_state`):
    all but the one-sided rows that do not push, unless a cone asks for its zone."""
    if sets.cones:
        data.efc_force = f
        update_state(model, data, sets)
        return nactive(data)
    return data.nefc - int(np.count_nonzero(f[sets.one_sided] <= 0))


class ForceSets:
    r"""Where each force may lie, read once per solve: the scalar rows' bounds ``lo <= f_i <= hi``
    (free for equalities, :math:`\pm` frictionloss for friction loss, :math:`\ge 0` for
    limits and pyramid edges), the one-sided rows, and each elliptic contact's block with its
    contact (:func:`~rbdl_edu.constraint.blocks.elliptic_cones`). With the dual matrix ``AR``,
    also what every sweep reads of it and of ``b``, row by row (``rows``: Python numbers and
    rows of ``AR``)."""

    def __init__(self, model, data, AR=None):
        ne, nf, floss = data.ne, data.nf, data.efc_frictionloss
        lo, hi = np.full(data.nefc, -np.inf), np.full(data.nefc, np.inf)
        lo[ne:ne + nf], hi[ne:ne + nf] = -floss[ne:ne + nf], floss[ne:ne + nf]
        lo[ne + nf:] = 0.0
        self.lo, self.hi = lo.tolist(), hi.tolist()
        self.one_sided = one_sided_rows(data)
        self.cones = list(elliptic_cones(model, data))
        if AR is not None:
            # each scalar row's (AR_i, b_i, A_ii, 1/A_ii, lo, hi), read once per solve
            self.rows = [(AR_i, b_i, Aii, 1 / Aii, lo_i, hi_i) for AR_i, b_i, Aii, lo_i, hi_i in
                         zip(AR, data.efc_b.tolist(), AR.diagonal().tolist(), self.lo, self.hi)]


def sweep(data, AR, f, steps, sets):
    """One Gauss-Seidel sweep over ``steps`` (first row, rows) in that order, updating the
    forces ``f`` in place; returns the decrease of the dual cost."""
    rows, improvement = sets.rows, 0.0
    for i, n in steps:
        if n == 1:
            # a scalar row: the minimum along it, f_i - res_i / A_ii, clamped to its set
            # [lo, hi] (max(lo, .), then min(hi, .), as comparisons)
            AR_i, b_i, Aii, inverse, lo, hi = rows[i]
            res, old = b_i + float(AR_i.dot(f)), float(f[i])
            new = old - res * inverse
            new = new if new > lo else lo
            new = new if new < hi else hi
            delta = new - old
            change = 0.5 * delta * delta * Aii + delta * res
        else:
            old = f[i:i + n].copy()
            res = data.efc_b[i:i + n] + AR[i:i + n] @ f             # the gradient of the dual cost
            A = AR[i:i + n, i:i + n]
            new = cone_step(data.contact[data.efc_id[i]], A, res, old)
            delta = new - old
            change = 0.5 * delta @ A @ delta + delta @ res
        # keep the step only if it lowers 1/2 f^T A f + f^T b
        if change <= 1e-10:
            if n == 1:
                f[i] = new                  # one number: an item, cheaper than a slice
            else:
                f[i:i + n] = new
            improvement -= change
    return improvement


@functools.lru_cache(maxsize=64)
def scalar_sweeps(n, iterations):
    """The steps of each sweep over ``n`` rows that are each a constraint: :func:`sweep_orders`
    as ``(row, 1)`` steps."""
    return tuple(tuple((i, 1) for i in order) for order in sweep_orders(n, iterations))


@functools.lru_cache(maxsize=64)
def sweep_orders(n, iterations):
    """The order of each sweep over ``n`` constraints: each sweep shuffles the last sweep's
    order with :class:`Pcg32`, seeded afresh for every solve, so the orders depend on ``n``
    alone and are made once per ``n``.

    >>> sweep_orders(5, 2)
    ((3, 2, 1, 4, 0), (4, 1, 2, 3, 0))
    """
    order, rng, orders = list(range(n)), Pcg32(), []
    for _ in range(iterations):
        rng.shuffle(order)
        orders.append(tuple(order))
    return tuple(orders)


class Pcg32:
    """The small random number generator MuJoCo's PGS shuffles with (PCG32, O'Neill 2014),
    seeded as MuJoCo seeds it, so both visit the constraints in the same order.

    >>> rng = Pcg32(); order = list(range(5)); rng.shuffle(order); order
    [3, 2, 1, 4, 0]
    """
    MASK = (1 << 64) - 1

    def __init__(self):
        self.state, self.inc = 0, 1
        self.next()

    def next(self):
        """The next 32-bit number: an LCG step, then a permuted (xorshift, rotate) output."""
        old = self.state
        self.state = (old * 6364136223846793005 + (self.inc | 1)) & self.MASK
        x, rot = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF, old >> 59
        return ((x >> rot) | (x << ((-rot) & 31))) & 0xFFFFFFFF

    def shuffle(self, items):
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]


def cone_step(con, A, res, f):
    r"""One elliptic contact's update, ``(dim,)``: along the ray :math:`f + x f` (the best
    :math:`x` keeping the normal force :math:`\ge 0`), or a normal-only step when the normal
    force is about 0; then the friction forces at fixed normal force, by :func:`qcqp`."""
    mu = con.friction[:con.dim - 1]
    new = f.copy()
    if f[0] < MINVAL:
        new[0] = max(0.0, f[0] - res[0] / A[0, 0])
        new[1:] = 0.0
    else:
        denom = f @ A @ f
        if denom >= MINVAL:
            x = -(f @ res) / denom
            if f[0] + x * f[0] < 0:
                x = -1.0
            new = f + x * f
    if new[0] < MINVAL:
        new[1:] = 0.0
        return new
    # friction: min 1/2 y^T A_t y + y^T b_t over the ellipse, with the residual moved to the new normal
    At = A[1:, 1:]
    bt = res[1:] - At @ f[1:] + A[1:, 0] * (new[0] - f[0])
    new[1:] = qcqp(At, bt, mu, new[0])
    return new


def qcqp(A, b, d, r):
    r""":math:`\arg\min_y \tfrac12 y^T A y + b^T y` subject to :math:`\sum_j (y_j/d_j)^2 \le r^2`
    (MuJoCo's ``mju_QCQP``): in scaled variables :math:`z = y/d` the constraint is a ball;
    the minimizer is :math:`z(\lambda) = -(A_d + \lambda I)^{-1} b_d`, with the multiplier
    :math:`\lambda \ge 0` from Newton's method on :math:`|z(\lambda)|^2 = r^2`; then put on the
    boundary exactly.

    >>> qcqp(np.eye(2), np.array([-3.0, 0.0]), np.array([1.0, 1.0]), 1.0)   # clipped to the circle
    array([1., 0.])
    """
    Ad, bd = A * d[:, None] * d[None, :], b * d
    lam, active = 0.0, False
    for _ in range(20):
        P = np.linalg.inv(Ad + lam * np.eye(len(b)))
        z = -P @ bd
        value = z @ z - r * r
        if value < 1e-10:
            break
        delta = value / (2 * z @ P @ z)              # -value / (d value / d lambda)
        if delta < 1e-10:
            break
        lam, active = lam + delta, True
    y = z * d
    if active:                           # on the ellipse: put it there exactly
        y = y * np.sqrt(r * r / max(MINVAL, np.sum(y * y / (d * d))))
    return y


def project(model, data, f, sets=None):
    """``f`` with each force back in its set: friction loss within its bounds, limits and
    edges non-negative, an elliptic contact's normal non-negative and friction in its ellipse."""
    sets = sets or ForceSets(model, data)
    f = f.copy()
    ne, nf = data.ne, data.nf
    if nf:
        f[ne:ne + nf] = np.clip(f[ne:ne + nf], -data.efc_frictionloss[ne:ne + nf], data.efc_frictionloss[ne:ne + nf])
    rest = sets.one_sided                             # limits, frictionless contacts, pyramid edges
    f[rest] = np.maximum(f[rest], 0.0)
    for (i, n, _, _), con in sets.cones:              # onto the cone |f_t / mu| <= f_n
        mu = con.friction[:n - 1]
        if f[i] < 0:
            f[i:i + n] = 0.0
        else:
            size = np.sum(f[i + 1:i + n] ** 2 / mu ** 2)
            if size > f[i] ** 2:
                f[i + 1:i + n] *= np.sqrt(f[i] ** 2 / max(MINVAL, size))
    return f


def update_state(model, data, sets=None):
    r"""``efc_state`` of the dual forces (MuJoCo's ``dualState``): friction loss linear at its
    bounds, quadratic inside; limits and edges quadratic when pushing; an elliptic contact's
    zone of its force's cone (:func:`~rbdl_edu.constraint.cost.cone_zone`, ``dual``), with
    :math:`N = f_0/\mu`, :math:`T = |f_j/\mu_j|`."""
    f, floss, ne, nf = data.efc_force, data.efc_frictionloss, data.ne, data.nf
    state = np.full(data.nefc, CNSTRSTATE_QUADRATIC)
    if nf:
        fr = slice(ne, ne + nf)
        state[fr] = np.where(f[fr] <= -floss[fr], CNSTRSTATE_LINEARPOS,
                             np.where(f[fr] >= floss[fr], CNSTRSTATE_LINEARNEG, CNSTRSTATE_QUADRATIC))
    sets = sets or ForceSets(model, data)
    rest = sets.one_sided
    state[rest] = np.where(f[rest] > 0, CNSTRSTATE_QUADRATIC, CNSTRSTATE_SATISFIED)
    for (i, n, _, _), con in sets.cones:
        N, T = f[i] / con.mu, np.linalg.norm(f[i + 1:i + n] / con.friction[:n - 1])
        state[i:i + n] = cone_zone(N, T, con.mu, dual=True)
    data.efc_state = state

