r"""The constraint solver: the accelerations and constraint forces of the soft constraint
model (MuJoCo's ``mj_fwdConstraint``; book, chapter 10).

With the unconstrained acceleration :math:`a_u` (``qacc_smooth``) and the rows of
:mod:`rbdl_edu.constraint` with their regularizer :math:`R` and reference :math:`a_{ref}`
(:mod:`rbdl_edu.impedance`), the acceleration is the unique minimizer of a convex cost,
Gauss's principle plus a penalty per row:

.. math::

    \ddot q = \arg\min_a\ \tfrac12 (a - a_u)^T M (a - a_u) + s(J a - a_{ref})

where :math:`s` is, per row with :math:`x = (Ja - a_{ref})_i` and :math:`D_i = 1/R_i`:
:math:`\tfrac12 D_i x^2` for an equality; the Huber function (quadratic for
:math:`|x| < R_i\,\text{frictionloss}`, linear beyond) for friction loss;
:math:`\tfrac12 D_i \min(x, 0)^2` for limits and pyramid edges; for an elliptic cone the
squared distance to the cone (in a metric scaled by the friction coefficients). The
constraint force is :math:`f = -\partial s/\partial x` (``efc_force``), and
:math:`J^T f` (``qfrc_constraint``) is what makes :math:`M\ddot q = f_{smooth} + J^T f`
hold. :func:`update` evaluates :math:`s`, :math:`f` and which piece each row is on
(``efc_state``).

Three algorithms reach the same minimum (the cost is strictly convex):

* ``Newton`` and ``CG`` (:mod:`rbdl_edu.primal`): descent on :math:`a` with an exact line
  search, Newton with the cost's Hessian :math:`M + J^T D J` (+ cone terms), CG preconditioned
  by :math:`M`;
* ``PGS`` (:mod:`rbdl_edu.pgs`): projected Gauss-Seidel on the dual problem in :math:`f`.

With ``noslip_iterations > 0`` the friction forces are then re-solved as hard constraints
(:mod:`rbdl_edu.noslip`), and :math:`\ddot q` follows from the forces.

Each starts from the better of last step's ``qacc_warmstart`` and ``qacc_smooth``
(:func:`warmstart`) and stops after ``iterations`` or when its improvement, scaled by
:math:`1/\mathrm{tr}(M)` (MuJoCo 4.0), falls below ``tolerance``. ``solver_niter`` counts
the iterations; ``solver`` lists a :class:`SolverStat` per iteration. As MuJoCo, each
independent island of the problem (:mod:`rbdl_edu.island`) is solved on its own, unless
``<flag island="disable"/>``; the minimum is the same, the iterations stop island by island.

The simulation stages are float-only (NumPy).

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
...   <body pos="0 0 .099"><freejoint/><geom size=".1" mass="1"/></body></worldbody></mujoco>''')
>>> data = rbd.Data(model); rbd.forward(model, data)
>>> data.efc_state, data.solver_niter      # 4 pyramid edges push; Newton needs one iteration
(array([1, 1, 1, 1]), 1)
>>> round(float(data.qfrc_constraint[2]), 4)            # a little more than the weight m g
11.8195

"""
from __future__ import annotations

from types import SimpleNamespace
from typing import NamedTuple

import numpy as np

from .enums import (CNSTR_CONTACT_ELLIPTIC, CNSTRSTATE_CONE, CNSTRSTATE_LINEARNEG, CNSTRSTATE_LINEARPOS,
                    CNSTRSTATE_QUADRATIC, CNSTRSTATE_SATISFIED)
from .island import islands


class SolverStat(NamedTuple):
    """One solver iteration (MuJoCo's ``mjSolverStat``): the cost ``improvement`` and the
    ``gradient`` norm, both scaled by :math:`1/\\mathrm{tr}(M)`, the line search's final
    slope ``lineslope``, the number of active rows ``nactive``, of rows that changed state
    ``nchange``, of cost evaluations in the line search ``neval``."""
    improvement: float
    gradient: float
    lineslope: float
    nactive: int
    nchange: int
    neval: int


def fwd_constraint(model, data):
    """``qacc``, ``efc_b``, ``efc_force``, ``efc_state`` and ``qfrc_constraint`` at the current
    state (MuJoCo's ``mj_fwdConstraint``). Needs ``qacc_smooth``, ``qfrc_smooth``, ``qM`` and
    the rows with their ``efc_aref``."""
    from .noslip import solve_noslip
    from .pgs import solve_pgs
    from .primal import solve_primal
    data.qfrc_constraint = np.zeros(model.nv)
    data.solver_niter, data.solver = 0, []
    if not data.nefc:
        data.qacc = data.qacc_smooth.copy()
        data.efc_b, data.efc_force, data.efc_state = np.zeros(0), np.zeros(0), np.zeros(0, dtype=int)
        return
    # b = J a_u - a_ref: where each row would be without constraint forces
    data.efc_b = data.efc_J @ data.qacc_smooth - data.efc_aref
    solver = model.opt.solver
    if solver not in ("PGS", "CG", "Newton"):
        raise ValueError(f"unknown solver {solver!r}; expected PGS, CG or Newton")
    warmstart(model, data)
    if model.opt.disabled("island"):
        parts = [(np.arange(model.nv), np.arange(data.nefc))]
    else:
        parts = islands(model, data)
        data.qacc = data.qacc_smooth.copy() if not parts else _untouched_smooth(model, data, parts)
    force, state, qacc = data.efc_force.copy(), data.efc_state.copy(), data.qacc.copy()
    noslip = model.opt.noslip_iterations > 0
    for dofs, rows in parts:
        sub = subproblem(data, dofs, rows)
        if solver == "PGS":
            solve_pgs(model, sub)
        else:
            solve_primal(model, sub, newton=solver == "Newton")
            qacc[dofs] = sub.qacc
        if noslip:
            solve_noslip(model, sub)
        force[rows], state[rows] = sub.efc_force, sub.efc_state
        data.solver_niter += sub.solver_niter
        data.solver += sub.solver
    data.efc_force, data.efc_state, data.qacc = force, state, qacc
    if solver == "PGS" or noslip:
        dual_finish(model, data)
    else:
        data.qfrc_constraint = data.efc_J.T @ force


def _untouched_smooth(model, data, parts):
    """``data.qacc`` with the dofs no island holds set to ``qacc_smooth`` (no row acts on them)."""
    qacc = data.qacc_smooth.copy()
    for dofs, _ in parts:
        qacc[dofs] = data.qacc[dofs]
    return qacc


def subproblem(data, dofs, rows):
    """The constraint problem of one island: ``data``'s fields restricted to its ``dofs`` and
    ``rows`` (``qM``, ``efc_J``, the row arrays, ``qacc``, ``qacc_smooth``, ``qfrc_smooth``),
    as an object the solvers read and write like ``data``."""
    sub = SimpleNamespace(contact=data.contact, qM=data.qM[np.ix_(dofs, dofs)], efc_J=data.efc_J[np.ix_(rows, dofs)],
                          nefc=len(rows), ne=int(np.sum(rows < data.ne)),
                          nf=int(np.sum((rows >= data.ne) & (rows < data.ne + data.nf))),
                          solver_niter=0, solver=[])
    for name in ("type", "id", "D", "R", "frictionloss", "aref", "b", "force", "state"):
        setattr(sub, "efc_" + name, getattr(data, "efc_" + name)[rows])
    for name in ("qacc", "qacc_smooth", "qfrc_smooth", "qfrc_constraint"):
        setattr(sub, name, getattr(data, name)[dofs])
    return sub


def warmstart(model, data):
    r"""Start the solver from the better of ``qacc_warmstart`` and ``qacc_smooth`` (MuJoCo's
    ``warmstart``): for ``Newton`` and ``CG`` the one with the lower total cost; for ``PGS``
    the forces at ``qacc_warmstart`` unless their dual cost :math:`f^T b + \frac12 f^T (A+R) f`
    is positive (then zero forces). ``<flag warmstart="disable"/>``: ``qacc_smooth`` and zero
    forces."""
    if model.opt.disabled("warmstart"):
        data.qacc = data.qacc_smooth.copy()
        data.efc_force, data.efc_state = np.zeros(data.nefc), np.zeros(data.nefc, dtype=int)
        return
    a = data.qacc_warmstart
    data.qacc = a.copy()
    cost_warmstart = update(model, data, data.efc_J @ a - data.efc_aref, cost=True)
    if model.opt.solver == "PGS":
        f = data.efc_force
        if f @ data.efc_b + 0.5 * f @ (dual_matrix(model, data) @ f) > 0:
            data.efc_force = np.zeros(data.nefc)
            data.qfrc_constraint = np.zeros(model.nv)
        return
    # the Gauss term 1/2 (a - a_u)^T M (a - a_u) = 1/2 (M a - f_smooth) . (a - a_u)
    cost_warmstart += 0.5 * (data.qM @ a - data.qfrc_smooth) @ (a - data.qacc_smooth)
    if cost_warmstart > update(model, data, data.efc_b, cost=True):
        data.qacc = data.qacc_smooth.copy()


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


def dual_matrix(model, data):
    r""":math:`A + R = J M^{-1} J^T + \mathrm{diag}(R)`, ``(nefc, nefc)`` (MuJoCo's ``efc_AR``),
    the dual problem's matrix."""
    return data.efc_J @ np.linalg.solve(data.qM, data.efc_J.T) + np.diag(data.efc_R)


def dual_finish(model, data):
    r"""From the forces of the dual solver: :math:`f_c = J^T f` and
    :math:`\ddot q = a_u + M^{-1} J^T f`."""
    data.qfrc_constraint = data.efc_J.T @ data.efc_force
    data.qacc = data.qacc_smooth + np.linalg.solve(data.qM, data.qfrc_constraint)


def scale(data):
    """:math:`1/\\mathrm{tr}(M)`: how MuJoCo 4.0 scales the solvers' improvement and gradient
    before comparing them with ``tolerance``."""
    return 1 / max(1e-15, float(np.trace(data.qM)))


def nactive(data):
    """The number of rows whose constraint acts (state not SATISFIED)."""
    return int(np.sum(data.efc_state != CNSTRSTATE_SATISFIED))

