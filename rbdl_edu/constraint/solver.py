r"""The constraint solver: the accelerations and constraint forces of the soft constraint
model (MuJoCo's ``mj_fwdConstraint``; book, chapter 10).

With the unconstrained acceleration :math:`a_u` (``qacc_smooth``) and the rows of
:mod:`rbdl_edu.constraint.rows` with their regularizer :math:`R` and reference :math:`a_{ref}`
(:mod:`rbdl_edu.constraint.impedance`), the acceleration is the unique minimizer of a convex cost,
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

* ``Newton`` and ``CG`` (:mod:`rbdl_edu.constraint.primal`): descent on :math:`a` with an exact line
  search, Newton with the cost's Hessian :math:`M + J^T D J` (+ cone terms), CG preconditioned
  by :math:`M`;
* ``PGS`` (:mod:`rbdl_edu.constraint.pgs`): projected Gauss-Seidel on the dual problem in :math:`f`.

With ``noslip_iterations > 0`` the friction forces are then re-solved as hard constraints
(:mod:`rbdl_edu.constraint.noslip`), and :math:`\ddot q` follows from the forces.

Each starts from the better of last step's ``qacc_warmstart`` and ``qacc_smooth``
(:func:`warmstart`) and stops after ``iterations`` or when its improvement, scaled by
:math:`1/\mathrm{tr}(M)` (MuJoCo 4.0), falls below ``tolerance``. ``solver_niter`` counts
the iterations; ``solver`` lists a :class:`SolverStat` per iteration. As MuJoCo, each
independent island of the problem (:mod:`rbdl_edu.constraint.island`) is solved on its own, unless
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

import numpy as np

from rbdl_edu.constraint.cost import update
from rbdl_edu.constraint.island import islands
from rbdl_edu.constraint.noslip import solve_noslip
from rbdl_edu.constraint.pgs import solve_pgs
from rbdl_edu.constraint.primal import solve_primal
from rbdl_edu.constraint.state import dual_matrix, subproblem


def fwd_constraint(model, data):
    """``qacc``, ``efc_b``, ``efc_force``, ``efc_state`` and ``qfrc_constraint`` at the current
    state (MuJoCo's ``mj_fwdConstraint``). Needs ``qacc_smooth``, ``qfrc_smooth``, ``qM`` and
    the rows with their ``efc_aref``."""
    data.qfrc_constraint = np.zeros(model.nv)
    data.solver_niter, data.solver = 0, []
    if not data.nefc:
        data.qacc = data.qacc_smooth
        data.efc_b, data.efc_force, data.efc_state = np.zeros(0), np.zeros(0), np.zeros(0, dtype=int)
        return
    # b = J a_u - a_ref: where each row would be without constraint forces
    data.efc_b = data.efc_J @ data.qacc_smooth - data.efc_aref
    solver = model.opt.solver
    if solver not in ("PGS", "CG", "Newton"):
        raise ValueError(f"unknown solver {solver!r}; expected PGS, CG or Newton")
    AR, current, start = warmstart(model, data)
    if model.opt.disabled("island"):
        parts = [(np.arange(model.nv), np.arange(data.nefc))]
    else:
        parts = islands(model, data)
        if not parts or sum(len(dofs) for dofs, _ in parts) < model.nv:
            data.qacc = data.qacc_smooth if not parts else _untouched_smooth(model, data, parts)
    # one island of everything (a robot alone, a box): its results are the whole problem's
    one = len(parts) == 1 and len(parts[0][0]) == model.nv and len(parts[0][1]) == data.nefc
    force, state, qacc = (data.efc_force, data.efc_state, data.qacc) if one else \
        (data.efc_force.copy(), data.efc_state.copy(), data.qacc.copy())
    noslip = model.opt.noslip_iterations > 0
    for dofs, rows in parts:
        sub = subproblem(data, dofs, rows, AR, model)
        if solver == "PGS":
            solve_pgs(model, sub)
        else:
            # (the warm start's forces serve when the island is the whole problem)
            whole = len(rows) == data.nefc and len(dofs) == model.nv
            solve_primal(model, sub, newton=solver == "Newton", updated=current and whole,
                         start=start if whole else None)
            if one:
                qacc = sub.qacc
            else:
                qacc[dofs] = sub.qacc
        if noslip:
            solve_noslip(model, sub)
        if one:
            force, state = sub.efc_force, sub.efc_state
        else:
            force[rows], state[rows] = sub.efc_force, sub.efc_state
        data.solver_niter += sub.solver_niter
        data.solver += sub.solver
    data.efc_force, data.efc_state, data.qacc = force, state, qacc
    if solver == "PGS" or noslip:
        dual_finish(model, data)
    else:               # (one island: its J^T f, which update made with its last forces)
        data.qfrc_constraint = sub.qfrc_constraint if one else data.efc_J.T @ force


def _untouched_smooth(model, data, parts):
    """``data.qacc`` with the dofs no island holds set to ``qacc_smooth`` (no row acts on them)."""
    qacc = data.qacc_smooth.copy()
    for dofs, _ in parts:
        qacc[dofs] = data.qacc[dofs]
    return qacc


def warmstart(model, data):
    r"""Start the solver from the better of ``qacc_warmstart`` and ``qacc_smooth`` (MuJoCo's
    ``warmstart``): for ``Newton`` and ``CG`` the one with the lower total cost; for ``PGS``
    the forces at ``qacc_warmstart`` unless their dual cost :math:`f^T b + \frac12 f^T (A+R) f`
    is positive (then zero forces). ``<flag warmstart="disable"/>``: ``qacc_smooth`` and zero
    forces. Returns ``(AR, current, start)``: the dual matrix :math:`A + R` if it made it (PGS), else
    None; whether ``efc_force``, ``efc_state`` and ``qfrc_constraint`` are those at the start
    ``data.qacc`` (:func:`~rbdl_edu.constraint.cost.update`'s there, so a primal solver need
    not make them again); and :math:`(M a, J a - a_{ref})` at the start (primal solvers), or None."""
    if model.opt.disabled("warmstart"):
        data.qacc = data.qacc_smooth
        data.efc_force, data.efc_state = np.zeros(data.nefc), np.zeros(data.nefc, dtype=int)
        return None, False, None
    a = data.qacc_warmstart
    if model.opt.solver == "PGS":
        update(model, data, data.efc_J @ a - data.efc_aref)
        data.qacc = a                                    # (a copy: Data copies what it is given)
        f, AR = data.efc_force, dual_matrix(model, data)
        if f @ data.efc_b + 0.5 * f @ (AR @ f) > 0:
            data.efc_force = np.zeros(data.nefc)
            data.qfrc_constraint = np.zeros(model.nv)
        return AR, False, None
    # the smooth start's cost alone, then the warm start's with its forces (kept when it wins)
    cost_smooth = update(model, data, data.efc_b, cost=True, forces=False)
    Ma, Jaref = data.qM @ a, data.efc_J @ a - data.efc_aref
    cost_warmstart = update(model, data, Jaref, cost=True)
    # the Gauss term 1/2 (a - a_u)^T M (a - a_u) = 1/2 (M a - f_smooth) . (a - a_u)
    cost_warmstart += 0.5 * (Ma - data.qfrc_smooth) @ (a - data.qacc_smooth)
    smooth = cost_warmstart > cost_smooth
    data.qacc = data.qacc_smooth if smooth else a
    return None, not smooth, (data.qM @ data.qacc_smooth, data.efc_b) if smooth else (Ma, Jaref)


def dual_finish(model, data):
    r"""From the forces of the dual solver: :math:`f_c = J^T f` and
    :math:`\ddot q = a_u + M^{-1} J^T f`."""
    data.qfrc_constraint = data.efc_J.T @ data.efc_force
    data.qacc = data.qacc_smooth + np.linalg.solve(data.qM, data.qfrc_constraint)
