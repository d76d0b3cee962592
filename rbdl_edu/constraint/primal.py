r"""The primal solvers, ``Newton`` and ``CG``: descent on the acceleration :math:`a` of the
cost of :mod:`rbdl_edu.constraint.solver` (MuJoCo's ``mj_solPrimal``; book, chapter 10).

With the gradient :math:`g = M a - f_{smooth} - J^T f(a)` (zero at the minimum: the equations
of motion with the constraint forces), each iteration

1. picks a direction :math:`p`: Newton :math:`p = -H^{-1} g` with the cost's Hessian
   :math:`H = M + J^T D_{active} J` (+ each elliptic cone's own block); CG the
   :math:`M`-preconditioned gradient, bent by the Hager-Zhang conjugate update;
2. minimizes the cost along :math:`a + \alpha p` *exactly* (:func:`line_search`): along a
   line the cost is a piecewise quadratic in α (square roots in the cones), so Newton's
   method in α with a bracket finds the minimum to ``ls_tolerance`` in a few evaluations;
3. stops after ``iterations``, or when the improvement, the gradient norm or (Newton) the
   Newton decrement :math:`\tfrac12 g^T H^{-1} g`, scaled by :math:`1/\mathrm{tr}(M)`, is
   below ``tolerance``.

Before the first iteration the warm start may already be good enough: the cost is strongly
convex in the :math:`M`-norm, so :math:`\tfrac12 g^T M^{-1} g` bounds how far its cost is
from the minimum (MuJoCo 4.0's certificate; Newton also asks for a small gradient).

The simulation stages are float-only (NumPy).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import scipy.linalg.lapack

from rbdl_edu.constraint.blocks import elliptic_cones, one_sided_rows
from rbdl_edu.constraint.cost import cone_zone, update
from rbdl_edu.constraint.state import SolverStat, nactive, norm, scale
from rbdl_edu.model.enums import CNSTRSTATE_CONE, CNSTRSTATE_QUADRATIC, CNSTRSTATE_SATISFIED, MINVAL


EPS = np.finfo(float).eps          # a step smaller than the round-off of q̈ changes nothing


def solve_primal(model, data, newton=True, updated=False, start=None):
    """Newton (``newton=True``) or CG from ``data.qacc`` (the warm start): ``qacc``,
    ``efc_force``, ``efc_state``, ``qfrc_constraint``, ``solver_niter``, ``solver``.
    ``updated``: ``data``'s forces are already :func:`~rbdl_edu.constraint.cost.update`'s at
    ``data.qacc``; ``start``: :math:`(M a, J a - a_{ref})` there, if at hand."""
    opt, M, J = model.opt, data.qM, data.efc_J
    tol, cones = opt.tolerance, newton and opt.cone == "elliptic"
    a = data.qacc                                     # (replaced, never written into)
    Ma, Jaref = (M @ a, J @ a - data.efc_aref) if start is None else start
    if not updated or cones:                          # (Newton on elliptic cones: their Hessians too)
        update(model, data, Jaref, cone_hessian=cones)
    grad = Ma - data.qfrc_smooth - data.qfrc_constraint
    s = scale(data)
    LM = []                                           # M = L L^T, made when first needed

    def solve_M(g):
        if not LM:
            LM.append(cholesky_floored(M))            # (M is positive definite)
        return scipy.linalg.lapack.dpotrs(LM[0], g, lower=1)[0]
    # the certificate: cost(a) - cost* <= 1/2 g^T M^-1 g (Newton also asks for a small gradient)
    small_gradient = s * norm(grad) < tol
    factor = HessianFactor(model, data)
    if newton:
        done = small_gradient and max(0.0, 0.5 * s * grad @ solve_M(grad)) < tol
        if not done:
            Mgrad = factor.newton_step(grad)
            done = small_gradient and max(0.0, 0.5 * s * grad @ Mgrad) < tol
    else:
        Mgrad = solve_M(grad)
        done = max(0.0, 0.5 * s * grad @ Mgrad) < tol
    search = None if done else -Mgrad
    it = 0
    while not done and it < opt.iterations:
        ls = LineCost(model, data, a, Ma, Jaref, search)
        alpha, improvement, neval, slope = line_search(ls, tol * opt.ls_tolerance, opt.ls_iterations, s)
        # the cost stops improving: no lower cost on the line, or a step too small to change q̈
        if alpha == 0 or (newton and alpha * ls.search_norm <= EPS * norm(a)):
            break
        a, Ma, Jaref = a + alpha * search, Ma + alpha * ls.Mv, Jaref + alpha * ls.Jv
        oldstate, gradold, Mgradold = data.efc_state, grad, Mgrad      # (update makes new arrays)
        update(model, data, Jaref, cone_hessian=cones)
        grad = Ma - data.qfrc_smooth - data.qfrc_constraint
        Mgrad = factor.newton_step(grad) if newton else solve_M(grad)
        improvement, gradient = s * improvement, s * norm(grad)
        data.solver.append(SolverStat(improvement, gradient, slope, nactive(data),
                                      np.count_nonzero(data.efc_state != oldstate), neval))
        decrement = max(0.0, 0.5 * s * grad @ Mgrad) if newton else 0.0
        it += 1
        if 0 < improvement < tol or gradient < tol or (newton and decrement < tol):
            break
        # a tolerance that can never be met (<= 0): stop where the cost stops improving, an
        # improvement below round-off with no row changing state (MuJoCo's line search then
        # finds no lower cost)
        if tol <= 0 and improvement <= MINVAL and data.solver[-1].nchange == 0:
            break
        if newton:
            search = -Mgrad
        else:
            search = -Mgrad + hager_zhang(search, grad, gradold, Mgrad, Mgradold) * search
    data.qacc, data.solver_niter = a, it


def hessian(model, data):
    r""":math:`H = M + J^T \mathrm{diag}(D_i [\text{row } i \text{ quadratic}]) J`, plus
    :math:`J_c^T H_c J_c` for each elliptic contact on its cone's side (``data.cone_H``)."""
    D = np.where(data.efc_state == CNSTRSTATE_QUADRATIC, data.efc_D, 0.0)
    H = data.qM + data.efc_J.T @ (D[:, None] * data.efc_J)
    for (i, n, _, _), _ in elliptic_cones(model, data):
        if data.efc_state[i] == CNSTRSTATE_CONE:
            Jc = data.efc_J[i:i + n]
            H = H + Jc.T @ data.cone_H[i] @ Jc
    return H


class HessianFactor:
    """The Cholesky factor of the cost's Hessian (:func:`hessian`) at the solver's current
    state, made again only when it can have changed: when a row changed zone, or when an
    elliptic cone is on its cone's side (its Hessian moves with :math:`a`)."""

    def __init__(self, model, data):
        self.model, self.data, self.state, self.L = model, data, None, None

    def newton_step(self, g):
        """:math:`H^{-1} g` at the current state (:func:`newton_step`)."""
        data = self.data
        state = data.efc_state.tobytes()
        if self.L is None or data.cone_H or state != self.state:
            self.state, self.L = state, cholesky_floored(hessian(self.model, data))
        x, _ = scipy.linalg.lapack.dpotrs(self.L, g, lower=1)
        return x


def newton_step(H, g):
    r""":math:`H^{-1} g` through the Cholesky factor :math:`H = L L^T` with every pivot floored
    at ``MINVAL`` (MuJoCo's ``mju_cholFactor(H, nv, mjMINVAL)``): a near-singular or
    indefinite-by-round-off Hessian gives a long but finite step, never an error."""
    x, _ = scipy.linalg.lapack.dpotrs(cholesky_floored(H), g, lower=1)    # L L^T x = g: two substitutions
    return x


def cholesky_floored(H, mindiag=MINVAL):
    r"""Lower-triangular :math:`L` with :math:`L L^T = H`, column by column,

    .. math:: d_j = \max\big(H_{jj} - \textstyle\sum_{k<j} L_{jk}^2,\ m\big),\quad
              L_{jj} = \sqrt{d_j},\quad
              L_{ij} = \big(H_{ij} - \textstyle\sum_{k<j} L_{ik} L_{jk}\big) / L_{jj}\ (i > j),

    the pivot :math:`d_j` floored at :math:`m` = ``mindiag``. Where no pivot is floored this is
    the ordinary factor, and LAPACK's is used."""
    L, info = scipy.linalg.lapack.dpotrf(H, lower=1, clean=1)
    if info == 0 and np.minimum.reduce(L.diagonal()) ** 2 >= mindiag:      # (min without its dispatch)
        return L
    L = np.zeros_like(H)
    for j in range(len(H)):
        L[j, j] = math.sqrt(max(H[j, j] - L[j, :j] @ L[j, :j], mindiag))
        L[j + 1:, j] = (H[j + 1:, j] - L[j + 1:, :j] @ L[j, :j]) / L[j, j]
    return L


def hager_zhang(p, g, g_old, Mg, Mg_old, eta=0.01):
    r"""The conjugate-direction weight :math:`\beta` of Hager and Zhang (2005), preconditioned by
    :math:`M`: with :math:`y = g - g_{old}`,
    :math:`\beta = (y^T M^{-1} g - 2\,\frac{y^T M^{-1} y}{p^T y}\, p^T g)/(p^T y)`, bounded below by
    :math:`-1/(|p| \min(\eta, |g|))`; 0 (steepest descent) when :math:`p^T y` is not positive."""
    y, My = g - g_old, Mg - Mg_old
    py = p @ y
    if py < MINVAL:
        return 0.0
    beta = (y @ Mg - 2 * (y @ My) / py * (p @ g)) / py
    return max(-1 / max(MINVAL, norm(p) * min(eta, norm(g))), beta)


class Point(NamedTuple):
    """A point of the line search: step ``alpha``, cost change from ``alpha = 0``, and the
    cost's first and second derivatives in ``alpha``."""
    alpha: float
    cost: float
    d1: float
    d2: float


class LineCost:
    r"""The cost along :math:`a + \alpha p` as a function of α, from quantities computed once:
    :math:`Mp`, :math:`Jp` and, per row, the residual :math:`x_0 = (Ja - a_{ref})_i` and its
    rate :math:`v = (Jp)_i`. :meth:`__call__` gives a :class:`Point` (costs relative to α = 0)."""

    def __init__(self, model, data, a, Ma, Jaref, p):
        self.data, self.n_eval, self.search_norm = data, 0, norm(p)
        self.Mv, self.Jv = data.qM @ p, data.efc_J @ p
        # Gauss: alpha^2 (1/2 p^T M p) + alpha (p^T M a - p^T f_smooth)
        self.gauss = (float(p @ Ma - data.qfrc_smooth @ p), 0.5 * float(p @ self.Mv))     # (x 0.5: exact)
        self.x0, self.D = Jaref, data.efc_D
        self.cones = []
        for (i, n, _, _), con in elliptic_cones(model, data):
            x, v, D = Jaref[i:i + n], self.Jv[i:i + n], data.efc_D[i:i + n]
            scale_ = np.concatenate(([con.mu], con.friction[:n - 1]))
            U, V = x * scale_, v * scale_
            quad = (0.5 * D @ x ** 2, D @ (x * v), 0.5 * D @ v ** 2)
            self.cones.append((i, n, con.mu, quad, U[0], V[0], U[1:] @ U[1:], U[1:] @ V[1:], V[1:] @ V[1:],
                               D[0] / (con.mu ** 2 * (1 + con.mu ** 2))))
        # what does not depend on alpha, once per line: each kind of row's x0, v, D, and
        # its cost at alpha = 0
        x0, v, D, ne, nf = Jaref, self.Jv, data.efc_D, data.ne, data.nf
        self.q = self.gauss if not ne else (self.gauss[0] + float(D[:ne] @ (x0[:ne] * v[:ne])),
                                            self.gauss[1] + float(0.5 * D[:ne] @ v[:ne] ** 2))
        self.friction = None
        if nf:
            fr = slice(ne, ne + nf)
            f, Rf = data.efc_frictionloss[fr], data.efc_R[fr] * data.efc_frictionloss[fr]
            self.friction = (x0[fr], v[fr], D[fr], f, Rf, _huber(x0[fr], f, Rf, D[fr]))
        # limits, frictionless contacts, pyramid edges: a row's 1/2 D (x0 + alpha v)^2 as a
        # quadratic in alpha, (1/2 D x0^2, D x0 v, 1/2 D v^2) (MuJoCo's efc quad), summed over
        # the rows that push (x < 0) at alpha
        rows = one_sided_rows(data, model)
        xs, vs, Ds = x0[rows], v[rows], D[rows]
        half_D = 0.5 * Ds
        quad = np.array([half_D * xs * xs, Ds * xs * vs, half_D * vs * vs])
        pushing = xs < 0                                  # (the rows that push at alpha = 0)
        # (x0 + alpha v < 0 exactly when alpha v < -x0: a rounded sum has the exact sum's sign)
        self.one_sided = (-xs, vs, quad, float(quad[0] @ pushing), pushing)

    def __call__(self, alpha):
        self.n_eval += 1
        # Gauss and equality rows: quadratics (shifted: their value at alpha = 0 dropped)
        q1, q2 = self.q
        cost, d1, d2 = alpha * q1 + alpha ** 2 * q2, q1 + 2 * alpha * q2, 2 * q2
        # friction loss: the Huber function of x = x0 + alpha v
        if self.friction:
            xs, vs, Ds, f, Rf, huber0 = self.friction
            x = xs + alpha * vs
            cost += float((_huber(x, f, Rf, Ds) - huber0).sum())
            inside = (-Rf < x) & (x < Rf)
            d1 += float(np.sum(np.where(inside, Ds * x * vs, np.sign(x) * f * vs)))
            d2 += float(np.sum(np.where(inside, Ds * vs * vs, 0.0)))
        # limits, frictionless contacts, pyramid edges: the quadratics of the rows that push
        minus_xs, vs, quad, cost0, pushing = self.one_sided
        c0, c1, c2 = np.dot(quad, pushing if alpha == 0 else alpha * vs < minus_xs).tolist()     # (quad @ mask)
        cost += c0 - cost0 + alpha * c1 + alpha * alpha * c2
        d1 += c1 + 2 * alpha * c2
        d2 += 2 * c2
        for cone in self.cones:
            c, e1, e2 = _cone_along(alpha, *cone[2:])
            cost, d1, d2 = cost + c, d1 + e1, d2 + e2
        return Point(alpha, cost, d1, max(d2, MINVAL))


def _huber(x, f, Rf, D):
    """The friction-loss cost: ``1/2 D x^2`` for ``|x| < R f``, else ``f (|x| - R f / 2)``."""
    return np.where((-Rf < x) & (x < Rf), 0.5 * D * x * x, f * (np.abs(x) - 0.5 * Rf))


def _cone_along(alpha, mu, quad, U0, V0, UU, UV, VV, Dm):
    r"""An elliptic cone's cost change from α = 0 and its two derivatives, with
    :math:`N = U_0 + \alpha V_0` and :math:`T^2 = UU + 2\alpha\,UV + \alpha^2 VV`."""
    N, Tsq = U0 + alpha * V0, UU + alpha * (2 * UV + alpha * VV)
    T0, T = np.sqrt(max(UU, 0.0)), np.sqrt(max(Tsq, 0.0))
    zone0, zone = cone_zone(U0, T0, mu), cone_zone(N, T, mu)
    quadratic = alpha * quad[1] + alpha ** 2 * quad[2]           # the quadratic's change
    if zone0 == zone == CNSTRSTATE_CONE:
        # (N - mu T)^2 written so nothing cancels: T - T0 = (T^2 - T0^2)/(T + T0)
        r0, dr = U0 - mu * T0, alpha * V0 - mu * alpha * (2 * UV + alpha * VV) / (T + T0)
        cost = 0.5 * Dm * dr * (2 * r0 + dr)
    else:
        before = {CNSTRSTATE_SATISFIED: 0.0, CNSTRSTATE_QUADRATIC: quad[0],
                  CNSTRSTATE_CONE: 0.5 * Dm * (U0 - mu * T0) ** 2}[zone0]
        after = {CNSTRSTATE_SATISFIED: 0.0, CNSTRSTATE_QUADRATIC: quad[0] + quadratic,
                 CNSTRSTATE_CONE: 0.5 * Dm * (N - mu * T) ** 2}[zone]
        cost = quadratic if zone0 == zone == CNSTRSTATE_QUADRATIC else after - before
    if zone == CNSTRSTATE_SATISFIED:
        return cost, 0.0, 0.0
    if zone == CNSTRSTATE_QUADRATIC:
        return cost, quad[1] + 2 * alpha * quad[2], 2 * quad[2]
    T1 = (UV + alpha * VV) / T
    T2 = VV / T - (UV + alpha * VV) * T1 / (T * T)
    return cost, Dm * (N - mu * T) * (V0 - mu * T1), Dm * ((V0 - mu * T1) ** 2 - (N - mu * T) * mu * T2)


def line_search(f, tolerance, max_eval, s):
    r"""The step α that minimizes the cost :math:`f(\alpha)` (a :class:`LineCost`) to a slope
    below ``tolerance`` :math:`\cdot |p| / s` (MuJoCo's ``PrimalSearch``): a Newton step from 0;
    then Newton steps in the descending direction until the slope changes sign; then, within
    the bracket, the best of the two ends' Newton points and the midpoint, shrinking the
    bracket, at most ``max_eval`` evaluations in all. Returns ``(alpha, improvement,
    evaluations, final slope)``; ``alpha = 0``: no improvement."""
    search_norm = f.search_norm
    if search_norm < MINVAL:
        return 0.0, 0.0, 0, 1.0
    gtol = tolerance * search_norm / s
    slope_scale = s / search_norm

    def done(p):
        return p.alpha, -p.cost, f.n_eval, abs(p.d1) * slope_scale
    p0 = f(0.0)
    p1 = f(p0.alpha - p0.d1 / p0.d2)
    if abs(p1.d1) < gtol and (p1.alpha == 0 or p1.cost < 0):
        return done(p1)
    direction = 1 if p1.d1 < 0 else -1
    p2 = p0
    # one-sided: keep stepping while still going downhill
    while p1.d1 * direction <= -gtol and f.n_eval < max_eval:
        p2 = p1
        p1 = f(p1.alpha - p1.d1 / p1.d2)
        if abs(p1.d1) < gtol and p1.cost < 0:
            return done(p1)
    if f.n_eval >= max_eval:
        return done(p1)
    # bracketed: the slope changes sign between p1 and p2
    p2_next, p1_next = p1, f(p1.alpha - p1.d1 / p1.d2)
    while f.n_eval < max_eval:
        mid = f(0.5 * (p1.alpha + p2.alpha))
        candidates = (p1_next, p2_next, mid)
        converged = [c for c in candidates if abs(c.d1) < gtol]
        if converged:
            return done(min(converged, key=lambda c: c.cost))
        p1, moved1 = _shrink(p1, candidates)
        p2, moved2 = _shrink(p2, candidates)
        if not moved1 and not moved2:                 # as accurate as the numbers allow
            return done(mid)
        if moved1:
            p1_next = f(p1.alpha - p1.d1 / p1.d2)
        if moved2:
            p2_next = f(p2.alpha - p2.d1 / p2.d2)
    best = min((p1, p2), key=lambda p: p.cost)
    return done(best) if best.cost < 0 else (0.0, 0.0, f.n_eval, 1.0)


def _shrink(end, candidates):
    """Move a bracket end to any candidate on its side of the minimum (same slope sign) with a
    smaller slope; ``(end, moved)``."""
    moved = False
    for c in candidates:
        if (end.d1 < 0 and c.d1 < 0 and end.d1 < c.d1) or (end.d1 > 0 and c.d1 > 0 and end.d1 > c.d1):
            end, moved = c, True
    return end, moved
