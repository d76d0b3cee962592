r"""Tree-sparse storage of the mass matrix and its :math:`M = L^T D L` factorization
(Featherstone §6.5, MuJoCo's ``mj_factorM`` / ``mj_solveM``; book chapter 6).

:math:`M_{ij} \ne 0` only if dof ``j`` is on the path from dof ``i`` to the root (or the
other way round). So row ``i`` of the lower triangle needs only the entries at ``i``
and its ancestors ``dof_parentid[i]``, ``dof_parentid[dof_parentid[i]]``, ... — MuJoCo
stores exactly these, row after row, starting at ``Madr[i]`` with the diagonal first.

Eliminating dofs from the leaves up never creates an entry outside an ancestor
chain: when row ``k`` is eliminated, the update :math:`M_{ij} \mathrel{-}= M_{ki} M_{kj}/D_k`
touches only ancestors ``i, j`` of ``k``, and every ancestor of ``i`` is an ancestor of
``k``. The factorization is fill-in free and costs :math:`O(\sum_i \text{depth}_i^2)`.

>>> from rbdl_edu.models import auto_tree
>>> from rbdl_edu.crba import crba
>>> m = auto_tree(5, bf=2)
>>> M = crba(m, m.qpos0)
>>> qLD = factor_ltdl(m, to_tree_sparse(m, M))
>>> b = np.arange(5.0)
>>> np.allclose(solve_ltdl(m, qLD, b), np.linalg.solve(M, b))
True
"""
from __future__ import annotations

import numpy as np


def ancestors(model, i):
    """Dof ``i`` followed by its ancestors in the dof tree: ``[i, parent(i), ...]``.

    >>> from rbdl_edu.models import double_pendulum
    >>> ancestors(double_pendulum(), 1)
    [1, 0]
    """
    chain = []
    while i >= 0:
        chain.append(i)
        i = int(model.dof_parentid[i])
    return chain


def layout(model):
    """Start address of each row, ``Madr (nv,)``, and the total size ``nM``.

    >>> from rbdl_edu.models import double_pendulum
    >>> layout(double_pendulum())
    (array([0, 1]), 3)
    """
    depth = np.array([len(ancestors(model, i)) for i in range(model.nv)], dtype=int)
    Madr = np.concatenate([[0], np.cumsum(depth)[:-1]]).astype(int) if model.nv else np.zeros(0, int)
    return Madr, int(depth.sum())


def to_tree_sparse(model, M):
    """The ancestor-chain entries of a dense ``M (..., nv, nv)`` as ``(..., nM)``.

    >>> from rbdl_edu.models import double_pendulum
    >>> to_tree_sparse(double_pendulum(), np.array([[4.0, 2.0], [2.0, 3.0]]))
    array([4., 3., 2.])
    """
    Madr, nM = layout(model)
    out = np.zeros(M.shape[:-2] + (nM,), dtype=M.dtype)
    for i in range(model.nv):
        for k, j in enumerate(ancestors(model, i)):
            out[..., Madr[i] + k] = M[..., i, j]
    return out


def from_tree_sparse(model, Msp, symmetric=True):
    """Dense ``(..., nv, nv)`` matrix from tree-sparse entries (symmetric, or lower triangle only).

    >>> from rbdl_edu.models import double_pendulum
    >>> from_tree_sparse(double_pendulum(), np.array([4.0, 3.0, 2.0]))
    array([[4., 2.],
           [2., 3.]])
    """
    Madr, _ = layout(model)
    M = np.zeros(Msp.shape[:-1] + (model.nv, model.nv), dtype=Msp.dtype)
    for i in range(model.nv):
        for k, j in enumerate(ancestors(model, i)):
            M[..., i, j] = Msp[..., Madr[i] + k]
            if symmetric:
                M[..., j, i] = Msp[..., Madr[i] + k]
    return M


def factor_ltdl(model, Msp):
    r"""Factor :math:`M = L^T D L` in place of the tree-sparse entries ``(..., nM)``.

    The result ``qLD`` holds :math:`D_i` on each row's diagonal slot and :math:`L_{ij}`
    (unit lower triangular, same sparsity as ``M``) in the others.

    >>> from rbdl_edu.models import double_pendulum
    >>> factor_ltdl(double_pendulum(), np.array([4.0, 3.0, 2.0]))   # D = (4 - 4/3, 3), L10 = 2/3
    array([2.66666667, 3.        , 0.66666667])
    """
    Madr, _ = layout(model)
    qLD = np.array(Msp, copy=True)
    for k in range(model.nv - 1, -1, -1):                  # eliminate from the leaves up
        chain = ancestors(model, k)
        Dk = qLD[..., Madr[k]]
        for a, i in enumerate(chain[1:], start=1):
            # L_ki = M_ki / D_k, and the Schur update M_ij -= M_ki M_kj / D_k for j in chain(i)
            tmp = qLD[..., Madr[k] + a] / Dk
            for b, j in enumerate(ancestors(model, i)):
                qLD[..., Madr[i] + b] = qLD[..., Madr[i] + b] - tmp * qLD[..., Madr[k] + a + b]
            qLD[..., Madr[k] + a] = tmp
    return qLD


def solve_ltdl(model, qLD, b):
    r"""Solve :math:`M x = b` from the factorization: :math:`x = L^{-1} D^{-1} L^{-T} b`,
    each step a sweep along the ancestor chains. ``b (..., nv)``.

    >>> from rbdl_edu.models import double_pendulum
    >>> m = double_pendulum()
    >>> solve_ltdl(m, factor_ltdl(m, np.array([4.0, 3.0, 2.0])), np.array([6.0, 5.0]))
    array([1., 1.])
    """
    Madr, _ = layout(model)
    x = np.array(b, dtype=np.result_type(qLD, b), copy=True)
    # x <- L^{-T} x : leaves to root, push each entry to its ancestors
    for i in range(model.nv - 1, -1, -1):
        for a, j in enumerate(ancestors(model, i)[1:], start=1):
            x[..., j] = x[..., j] - qLD[..., Madr[i] + a] * x[..., i]
    # x <- D^{-1} x
    for i in range(model.nv):
        x[..., i] = x[..., i] / qLD[..., Madr[i]]
    # x <- L^{-1} x : root to leaves, pull from the ancestors
    for i in range(model.nv):
        for a, j in enumerate(ancestors(model, i)[1:], start=1):
            x[..., i] = x[..., i] - qLD[..., Madr[i] + a] * x[..., j]
    return x


def unpack_ltdl(model, qLD):
    """Dense ``L (..., nv, nv)`` (unit lower triangular) and ``D (..., nv)`` from ``qLD``.

    >>> from rbdl_edu.models import double_pendulum
    >>> m = double_pendulum()
    >>> L, D = unpack_ltdl(m, factor_ltdl(m, np.array([4.0, 3.0, 2.0])))
    >>> np.allclose(L.T @ np.diag(D) @ L, [[4.0, 2.0], [2.0, 3.0]])
    True
    """
    Madr, _ = layout(model)
    L = from_tree_sparse(model, qLD, symmetric=False)
    D = L[..., np.arange(model.nv), np.arange(model.nv)].copy()
    L[..., np.arange(model.nv), np.arange(model.nv)] = 1.0
    return L, D
