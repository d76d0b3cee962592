r"""NoSlip: a post-processing of the friction forces that removes the creep of soft contacts
(MuJoCo's ``mj_solNoSlip``; ``<option noslip_iterations>``; book, chapter 10).

A soft contact slips a little under a tangential load: its friction rows have a regularizer
:math:`R > 0`, so the constrained acceleration only approaches the reference. After the main
solver, NoSlip takes its forces and runs Gauss-Seidel sweeps on the dual cost *without*
:math:`R` (:math:`\tfrac12 f^T A f + f^T b`, hard constraints), over the friction forces only:
friction loss rows within their bounds; each pair of opposite pyramid edges with its sum
(the normal force) fixed; an elliptic contact's friction forces within the ellipse of its
fixed normal force (:func:`~rbdl_edu.constraint.pgs.qcqp`). Then :math:`\ddot q = a_u + M^{-1} J^T f`.
It stops after ``noslip_iterations`` or when a sweep improves the cost, scaled by
:math:`1/\mathrm{tr}(M)`, by less than ``noslip_tolerance``, as MuJoCo. (With a tolerance
:math:`\le 0` round-off can leave the forces cycling for every one of a million sweeps, in
MuJoCo too; the sweeps being a fixed function of :math:`f`, the loop recognizes a force it has
seen and skips to where the cycle stands at the last sweep: the same forces, far sooner.)

It is not the minimum of one problem any more (MuJoCo's documentation calls it ad hoc), but
it is what MuJoCo does, island by island. The simulation stages are float-only (NumPy).
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.constraint.blocks import blocks
from rbdl_edu.constraint.pgs import qcqp, update_state
from rbdl_edu.constraint.state import SolverStat, dual_matrix, nactive, scale
from rbdl_edu.model.enums import CNSTR_CONTACT_ELLIPTIC, CNSTR_CONTACT_PYRAMIDAL, MINVAL


def solve_noslip(model, data):
    """NoSlip from ``data.efc_force`` (the main solver's): ``efc_force``, ``efc_state``; adds its
    iterations to ``solver_niter`` and ``solver``."""
    nefc, maxiter = data.nefc, model.opt.noslip_iterations
    # the dual problem without the regularizer: A = J M^-1 J^T, diagonal at least 1e-10
    A = dual_matrix(model, data) - np.diag(data.efc_R)
    AR_ii = np.diag(A).copy()
    A[np.diag_indices(nefc)] = np.maximum(AR_ii, 1e-10)
    f, s = data.efc_force.copy(), scale(data)
    # a sweep is a fixed function of f: once f comes back (round-off can leave it cycling when
    # noslip_tolerance <= 0), the sweeps repeat that cycle to the end, and only its phase at
    # the last sweep matters. seen: f after sweep it (bounded memory; a longer cycle just runs)
    seen, it = {}, 0
    while it < maxiter:
        # the cost changes by 1/2 f^T R f when R is dropped: count it in the first sweep
        improvement = 0.5 * float(f @ (f * data.efc_R)) if it == 0 else 0.0
        improvement += sweep(model, data, A, AR_ii, f)
        data.efc_force = f
        update_state(model, data)
        data.solver.append(SolverStat(s * improvement, 0.0, 0.0, nactive(data), 0, 0))
        it += 1
        if s * improvement < model.opt.noslip_tolerance:
            break
        key = f.tobytes()
        if key in seen:                                  # a cycle of it - seen[key] sweeps
            for _ in range((maxiter - it) % (it - seen[key])):
                sweep(model, data, A, AR_ii, f)
            data.efc_force = f
            update_state(model, data)
            it = maxiter
        seen = {} if len(seen) > 4096 else seen
        seen[key] = it
    data.solver_niter += it


def sweep(model, data, A, AR_ii, f):
    """One Gauss-Seidel sweep over the friction forces, in place; the improvement of the cost."""
    ne, nf, b, floss = data.ne, data.nf, data.efc_b, data.efc_frictionloss
    improvement = 0.0
    for i in range(ne, ne + nf):                         # friction loss: a bounded scalar
        res, old, Aii = b[i] + A[i] @ f, f[i], max(MINVAL, AR_ii[i])
        f[i] = min(floss[i], max(-floss[i], old - res * (1 / Aii)))
        delta = f[i] - old
        improvement -= 0.5 * delta * delta * Aii + delta * res
    for adr, n, kind, k in blocks(model, data, ne + nf):
        if kind == CNSTR_CONTACT_PYRAMIDAL:              # its edges, pair by pair
            for j in range(adr, adr + n, 2):
                improvement += _edge_pair(A, b, f, j)
        elif kind == CNSTR_CONTACT_ELLIPTIC:
            improvement += _friction(A, b, f, adr, data.contact[k])
    return improvement


def _edge_pair(A, b, f, j):
    r"""Two opposite pyramid edges ``j, j+1`` with their sum fixed: :math:`f = (m + y, m - y)`,
    :math:`y \in [-m, m]` minimizing the cost; returns the improvement."""
    rows = slice(j, j + 2)
    old, res, Ac = f[rows].copy(), b[rows] + A[rows] @ f, A[rows, rows]
    bc = res - Ac @ old                                 # the cost's linear term without these two
    mid = 0.5 * (old[0] + old[1])
    # d/dy of 1/2 f^T Ac f + bc^T f, f = (mid + y, mid - y): K1 y + K0
    K1 = Ac[0, 0] + Ac[1, 1] - Ac[0, 1] - Ac[1, 0]
    K0 = mid * (Ac[0, 0] - Ac[1, 1]) + bc[0] - bc[1]
    y = 0.0 if K1 < MINVAL else min(mid, max(-mid, -K0 / K1))
    f[rows] = mid + y, mid - y
    return _keep_if_better(Ac, f, rows, old, res)


def _friction(A, b, f, i, con):
    """An elliptic contact's friction forces with its normal force fixed (:func:`qcqp`)."""
    rows = slice(i + 1, i + con.dim)
    old, res, Ac = f[rows].copy(), b[rows] + A[rows] @ f, A[rows, rows]
    if f[i] < MINVAL:
        f[rows] = 0.0
    else:
        f[rows] = qcqp(Ac, res - Ac @ old, con.friction[:con.dim - 1], f[i])
    return _keep_if_better(Ac, f, rows, old, res)


def _keep_if_better(Ac, f, rows, old, res):
    """Undo the step if it raised the cost (MuJoCo's ``costChange``); the improvement."""
    delta = f[rows] - old
    change = 0.5 * delta @ Ac @ delta + delta @ res
    if change > 1e-10:
        f[rows] = old
        return 0.0
    return -change
