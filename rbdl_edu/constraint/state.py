r"""The constraint solver's state: one island's problem, and the statistics of each
iteration (book, chapter 10).

The solvers of :mod:`rbdl_edu.constraint.pgs`, :mod:`rbdl_edu.constraint.primal` and
:mod:`rbdl_edu.constraint.noslip` read and write a :class:`SolverState`, never ``Data``:
:func:`~rbdl_edu.constraint.solver.fwd_constraint` cuts one per island out of ``Data``
(:func:`subproblem`) and copies the results back.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from rbdl_edu.constraint.blocks import one_sided_rows
from rbdl_edu.model.enums import CNSTRSTATE_SATISFIED, MINVAL


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


@dataclass
class SolverState:
    """One constraint problem (an island, or the whole model), as the solvers see it.

    ============================  ==========================================================
    ``contact``                   the contacts (``data.contact``), for the rows' ``efc_id``
    ``qM (n, n)``                 the mass matrix of the island's ``n`` dofs
    ``efc_J (m, n)``              the Jacobian of its ``m`` rows
    ``nefc``, ``ne``, ``nf``      rows in all, equality rows, friction-loss rows (in order)
    ``efc_type``, ``efc_id``      each row's kind and the object it belongs to ``(m,)``
    ``efc_D``, ``efc_R``          each row's stiffness :math:`D = 1/R` and regularizer ``(m,)``
    ``efc_frictionloss (m,)``     the friction-loss rows' maximum force
    ``efc_aref (m,)``             the reference acceleration
    ``efc_b (m,)``                :math:`J a_u - a_{ref}`, where each row is without force
    ``efc_force``, ``efc_state``  the result: each row's force and cost zone ``(m,)``
    ``qacc (n,)``                 the result: the accelerations (primal solvers)
    ``qacc_smooth``, ``qfrc_smooth``  the unconstrained acceleration and its force ``(n,)``
    ``qfrc_constraint (n,)``      :math:`J^T f`
    ``solver_niter``, ``solver``  iterations, and a :class:`SolverStat` for each
    ``cone_H``                    Newton on elliptic cones: each contact on its cone's side,
                                  by its first row, its cost's Hessian ``(dim, dim)`` in the
                                  row residuals (MuJoCo's ``contact.H``; set by
                                  :func:`~rbdl_edu.constraint.cost.update`)
    ``efc_AR``                    :func:`dual_matrix`, once made (the dual solvers), or None
    ``one_sided``                 the rows that can only push (:func:`~rbdl_edu.constraint.blocks.one_sided_rows`)
    ============================  ==========================================================
    """
    contact: list
    qM: np.ndarray
    efc_J: np.ndarray
    nefc: int
    ne: int
    nf: int
    efc_type: np.ndarray
    efc_id: np.ndarray
    efc_D: np.ndarray
    efc_R: np.ndarray
    efc_frictionloss: np.ndarray
    efc_aref: np.ndarray
    efc_b: np.ndarray
    efc_force: np.ndarray
    efc_state: np.ndarray
    qacc: np.ndarray
    qacc_smooth: np.ndarray
    qfrc_smooth: np.ndarray
    qfrc_constraint: np.ndarray
    solver_niter: int = 0
    solver: list = field(default_factory=list)
    cone_H: dict = field(default_factory=dict)
    efc_AR: np.ndarray | None = None
    one_sided: np.ndarray | slice | None = None


def subproblem(data, dofs, rows, AR=None, model=None):
    """The :class:`SolverState` of one island: ``data``'s fields restricted to its ``dofs`` and
    ``rows``. ``AR``: the whole problem's :func:`dual_matrix`, if made already (the dual
    solvers read ``efc_AR``; an island's own block of it is computed afresh). ``model``: for
    :func:`~rbdl_edu.constraint.blocks.one_sided_rows`' shortcut (pyramidal cones)."""
    if len(dofs) == len(data.qacc) and len(rows) == data.nefc:
        # one island of everything: data's own arrays (the solvers replace their results,
        # they write into none of these)
        state = SolverState(contact=data.contact, qM=data.qM, efc_J=data.efc_J, nefc=data.nefc, ne=data.ne,
                            nf=data.nf, efc_AR=AR, **dict(zip(_ROWS + _DOFS, _rows_and_dofs(data))))
    else:
        rows_of = {name: getattr(data, name)[rows] for name in _ROWS}
        dofs_of = {name: getattr(data, name)[dofs] for name in _DOFS}
        state = SolverState(contact=data.contact, qM=data.qM[np.ix_(dofs, dofs)],
                            efc_J=data.efc_J[np.ix_(rows, dofs)], nefc=len(rows), ne=int(np.sum(rows < data.ne)),
                            nf=int(np.sum((rows >= data.ne) & (rows < data.ne + data.nf))), **rows_of, **dofs_of)
    state.one_sided = one_sided_rows(state, model)
    return state


_ROWS = ("efc_type", "efc_id", "efc_D", "efc_R", "efc_frictionloss", "efc_aref", "efc_b", "efc_force", "efc_state")
_DOFS = ("qacc", "qacc_smooth", "qfrc_smooth", "qfrc_constraint")
_rows_and_dofs = attrgetter(*_ROWS, *_DOFS)      # (data's fields of both at once)


def dual_matrix(model, data):
    r""":math:`A + R = J M^{-1} J^T + \mathrm{diag}(R)`, ``(nefc, nefc)`` (MuJoCo's ``efc_AR``),
    the dual problem's matrix (a :class:`SolverState`'s ``efc_AR`` if it has it already)."""
    if getattr(data, "efc_AR", None) is not None:
        return data.efc_AR
    return data.efc_J @ np.linalg.solve(data.qM, data.efc_J.T) + np.diag(data.efc_R)


def scale(data):
    """:math:`1/\\mathrm{tr}(M)`: how MuJoCo 4.0 scales the solvers' improvement and gradient
    before comparing them with ``tolerance``."""
    return 1 / max(MINVAL, float(np.add.reduce(data.qM.diagonal())))       # (np.trace's sum, undispatched)


def norm(x):
    """:math:`|x|` of a vector of numbers: ``np.linalg.norm(x)``, the same sum, without its
    dispatch (the solvers take several per iteration)."""
    return math.sqrt(x.dot(x))


def nactive(data):
    """The number of rows whose constraint acts (state not SATISFIED)."""
    return int(np.count_nonzero(data.efc_state != CNSTRSTATE_SATISFIED))
