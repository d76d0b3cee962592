r"""The joint-space inertia matrix by the composite-rigid-body algorithm (Featherstone §6.2, book ch. 6).

The kinetic energy of a tree is :math:`T = \tfrac12 \dot q^T M(q) \dot q`. CRBA builds
:math:`M` from composite inertias: :math:`I^c_i`, the inertia of the whole subtree
rooted at body ``i`` as if it were one rigid body. Then

.. math:: M_{ij} = S_i^T\, I^c_i\, {}^iX_j\, S_j \quad (j \text{ an ancestor of } i),

and :math:`M_{ij} = 0` when neither body is an ancestor of the other: :math:`M` is
nonzero only on ancestor chains (see :mod:`rbdl_edu.factor`).
"""
from __future__ import annotations

import numpy as np

from .joints import jcalc
from .kinematics import body_spatial_inertia, state
from .scalar import asarray, zeros


def crba(model, q):
    r"""Joint-space inertia matrix :math:`M(q)` including joint armature on the diagonal
    (as MuJoCo's ``M``).

    Parameters
    ----------
    model : Model
    q : array (..., nq)

    Returns
    -------
    M : array (..., nv, nv), symmetric positive definite.

    References: Featherstone, Table 6.2; book chapter 6.

    >>> from rbdl_edu.models import pendulum
    >>> crba(pendulum(), [0.3])                       # m l² + I_yy
    array([[2.]])
    """
    (q,) = state(model, q)
    batch, nb, parent = q.shape[:-1], model.nbody, model.body_parentid
    Xup, S = [None] * nb, [None] * nb
    IC = [None] * nb
    for i in range(1, nb):
        Xup[i], S[i], _ = jcalc(model, i, q)
        IC[i] = np.broadcast_to(body_spatial_inertia(model, i), batch + (6, 6))

    # composite inertias, leaves to root: I^c_λ += ^λX_i^* I^c_i ^iX_λ = X^T I^c_i X
    for i in range(nb - 1, 0, -1):
        if parent[i] > 0:
            XT = np.swapaxes(Xup[i], -1, -2)
            IC[parent[i]] = IC[parent[i]] + XT @ IC[i] @ Xup[i]

    M = zeros(batch + (model.nv, model.nv), q, model.body_mass, model.body_pos)
    for i in range(1, nb):
        if model.body_dofnum[i] == 0:
            continue
        di = slice(model.body_dofadr[i], model.body_dofadr[i] + model.body_dofnum[i])
        # F = I^c_i S_i: the force it takes to accelerate the subtree along each joint axis
        F = IC[i] @ S[i]
        M[..., di, di] = np.swapaxes(S[i], -1, -2) @ F
        j = i
        while parent[j] > 0:
            # carry F to the parent: ^λX_j^* F = (^jX_λ)^T F
            F = np.swapaxes(Xup[j], -1, -2) @ F
            j = parent[j]
            if model.body_dofnum[j] == 0:
                continue
            dj = slice(model.body_dofadr[j], model.body_dofadr[j] + model.body_dofnum[j])
            # M_ji = S_j^T F, and M is symmetric
            M[..., dj, di] = np.swapaxes(S[j], -1, -2) @ F
            M[..., di, dj] = np.swapaxes(M[..., dj, di], -1, -2)
    armature = asarray(model.dof_armature)
    for k in range(model.nv):
        M[..., k, k] = M[..., k, k] + armature[k]
    return M
