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

from rbdl_edu.arrays import entries, from_entries, is_jax, namespace
from rbdl_edu.cache import per_model


@per_model
def ancestors(model, i):
    """Dof ``i`` followed by its ancestors in the dof tree: ``[i, parent(i), ...]``.

    >>> from rbdl_edu.models import double_pendulum
    >>> ancestors(double_pendulum(), 1)
    (1, 0)
    """
    chain = []
    while i >= 0:
        chain.append(i)
        i = int(model.dof_parentid[i])
    return tuple(chain)


@per_model
def chains(model):
    """:func:`ancestors` of every dof, a tuple indexed by dof (looked up once per call by the
    loops below, not once per entry).

    >>> from rbdl_edu.models import double_pendulum
    >>> chains(double_pendulum())
    ((0,), (1, 0))
    """
    return tuple(ancestors(model, i) for i in range(model.nv))


@per_model
def tree_pattern(model):
    """``(nv, nv)`` bool: True where ``M`` can be nonzero, for dofs ``i, j`` one of which is
    an ancestor of the other (MuJoCo's sparsity of ``M`` and ``qDeriv``).

    >>> from rbdl_edu.models import auto_tree
    >>> tree_pattern(auto_tree(3, bf=2)).astype(int)        # dofs 1 and 2 are siblings
    array([[1, 1, 1],
           [1, 1, 0],
           [1, 0, 1]])
    """
    P = np.zeros((model.nv, model.nv), dtype=bool)
    for i in range(model.nv):
        P[i, list(ancestors(model, i))] = True
    return P | P.T


def layout(model):
    """Start address of each row, ``Madr (nv,)`` (``model.dof_Madr``), and the total size ``nM``.

    >>> from rbdl_edu.models import double_pendulum
    >>> layout(double_pendulum())
    (array([0, 1]), 3)
    """
    return model.dof_Madr, model.nM


@per_model
def _layout(model):
    """:func:`layout` as Python ints, for the loops over single float states."""
    Madr, nM = layout(model)
    return tuple(int(a) for a in Madr), int(nM)


@per_model
def _sparse_index(model):
    """Row and column of every tree-sparse entry, and for every dense ``(i, j)`` the entry that
    holds it (``nM``, an extra zero, where none does)."""
    Madr, nM = _layout(model)
    rows, cols = np.zeros(nM, dtype=int), np.zeros(nM, dtype=int)
    where = np.full((model.nv, model.nv), nM, dtype=int)
    for i in range(model.nv):
        for k, j in enumerate(ancestors(model, i)):
            rows[Madr[i] + k], cols[Madr[i] + k] = i, j
            where[i, j] = Madr[i] + k
    return rows, cols, where


def to_tree_sparse(model, M):
    """The ancestor-chain entries of a dense ``M (..., nv, nv)`` as ``(..., nM)``.

    >>> from rbdl_edu.models import double_pendulum
    >>> to_tree_sparse(double_pendulum(), np.array([[4.0, 2.0], [2.0, 3.0]]))
    array([4., 3., 2.])
    """
    if type(M) is np.ndarray and M.ndim == 2:          # one matrix of numbers: one take of its entries
        return M.take(_flat_index(model))
    rows, cols, _ = _sparse_index(model)
    return M[..., rows, cols]


@per_model
def _flat_index(model):
    """:func:`_sparse_index`'s entries as positions in the flattened ``(nv, nv)`` matrix."""
    rows, cols, _ = _sparse_index(model)
    return rows * model.nv + cols


def from_tree_sparse(model, Msp, symmetric=True):
    """Dense ``(..., nv, nv)`` matrix from tree-sparse entries (symmetric, or lower triangle only).

    >>> from rbdl_edu.models import double_pendulum
    >>> from_tree_sparse(double_pendulum(), np.array([4.0, 3.0, 2.0]))
    array([[4., 2.],
           [2., 3.]])
    """
    _, _, where = _sparse_index(model)
    if symmetric:
        where = np.where(where < len(_sparse_index(model)[0]), where, where.T)
    xp = namespace(Msp)
    padded = xp.concatenate([Msp, xp.zeros(Msp.shape[:-1] + (1,), dtype=Msp.dtype)], axis=-1)
    return padded[..., where]


def factor_ltdl(model, Msp, min_pivot=None):
    r"""Factor :math:`M = L^T D L` from the tree-sparse entries ``(..., nM)``.

    The result ``qLD`` holds :math:`D_i` on each row's diagonal slot and :math:`L_{ij}`
    (unit lower triangular, same sparsity as ``M``) in the others. (The entries are kept
    in a list while they change, so the same lines run on NumPy, SymPy and JAX.)

    With ``min_pivot`` (one float matrix) a pivot :math:`D_k` below it is raised to it
    before row ``k`` is eliminated, as MuJoCo does for a matrix that is not positive
    definite (the ``implicitfast`` integrator's :math:`M - hD`); such rows have
    ``D == min_pivot`` in the result.

    >>> from rbdl_edu.models import double_pendulum
    >>> factor_ltdl(double_pendulum(), np.array([4.0, 3.0, 2.0]))   # D = (4 - 4/3, 3), L10 = 2/3
    array([2.66666667, 3.        , 0.66666667])
    """
    if is_jax(Msp):                 # traced: each row as one vector, or gathered (below)
        traced = _factor_rows if rowwise(model) else _factor_chains
        return traced(model, Msp, min_pivot)
    qLD = entries(Msp)
    for kk, updates in elimination(model):                  # row k, from the leaves up
        if min_pivot is not None and type(qLD[kk]) is not float:     # a batch: each one's pivot
            qLD[kk] = namespace(qLD[kk]).maximum(qLD[kk], min_pivot)
        elif min_pivot is not None and qLD[kk] < min_pivot:
            qLD[kk] = min_pivot
        Dk = qLD[kk]
        for ki, pairs in updates:                            # each ancestor i of k
            # L_ki = M_ki / D_k, and the Schur update M_ij -= L_ki M_kj for j in chain(i)
            L_ki = qLD[ki] / Dk
            for ij, kj in pairs:
                qLD[ij] = qLD[ij] - L_ki * qLD[kj]
            qLD[ki] = L_ki
    return from_entries(qLD, Msp) if elimination(model) else Msp


@per_model
def elimination(model):
    """:func:`factor_ltdl`'s loops as a table of entries (tree-sparse addresses), made once per
    model: for each dof ``k`` from the leaves up, ``(kk, updates)``: its diagonal entry, and for
    each ancestor ``i`` (entry ``a`` of row ``k``) ``(ki, pairs)``: the entry :math:`M_{ki}` and
    the pairs ``(ij, kj)`` of the Schur update, row ``i`` and row ``k`` from entry ``a`` on
    (the same dofs ``j``, ``chain(i)``).

    >>> from rbdl_edu.models import double_pendulum
    >>> elimination(double_pendulum())                  # M_11 = qLD[1]; M_10 = qLD[2] updates M_00
    ((1, ((2, ((0, 2),)),)), (0, ()))
    """
    Madr, _ = _layout(model)
    chain_of = chains(model)
    table = []
    for k in range(model.nv - 1, -1, -1):
        updates = []
        for a, i in enumerate(chain_of[k][1:], start=1):
            pairs = tuple((Madr[i] + b, Madr[k] + a + b) for b in range(len(chain_of[i])))
            updates.append((Madr[k] + a, pairs))
        table.append((Madr[k], tuple(updates)))
    return tuple(table)


def solve_ltdl(model, qLD, b):
    r"""Solve :math:`M x = b` from the factorization: :math:`x = L^{-1} D^{-1} L^{-T} b`,
    sweeps along the ancestor chains (:math:`L^{-T}` from the leaves, then :math:`D^{-1}` and
    :math:`L^{-1}` together from the root). ``b (..., nv)``.

    >>> from rbdl_edu.models import double_pendulum
    >>> m = double_pendulum()
    >>> solve_ltdl(m, factor_ltdl(m, np.array([4.0, 3.0, 2.0])), np.array([6.0, 5.0]))
    array([1., 1.])
    """
    if (is_jax(qLD) or is_jax(b)) and rowwise(model):     # traced, a large tree: row by row (below)
        return _solve_rows(model, qLD, b)
    LD, x = entries(qLD), entries(b)
    # x <- L^{-T} x : leaves to root, push each entry to its ancestors
    for i, ii, row in reversed(sweeps(model)):
        x_i = x[i]
        for ij, j in row:
            x[j] = x[j] - LD[ij] * x_i
    # x <- L^{-1} D^{-1} x : root to leaves, each entry divided by its pivot, then pulled from
    # its ancestors (done already)
    for i, ii, row in sweeps(model):
        x_i = x[i] / LD[ii]
        for ij, j in row:
            x_i = x_i - LD[ij] * x[j]
        x[i] = x_i
    return from_entries(x, qLD, b) if model.nv else b


@per_model
def sweeps(model):
    """:func:`solve_ltdl`'s loops as a table, made once per model: for each dof ``i``,
    ``(i, ii, row)``: its diagonal entry ``ii`` and the pairs ``(ij, j)`` of its row's other
    entries and their dofs, the ancestors ``j`` of ``i``.

    >>> from rbdl_edu.models import double_pendulum
    >>> sweeps(double_pendulum())                       # L_10 = qLD[2]
    ((0, 0, ()), (1, 1, ((2, 0),)))
    """
    Madr, _ = _layout(model)
    return tuple((i, Madr[i], tuple((Madr[i] + a, j) for a, j in enumerate(chains(model)[i][1:], start=1)))
                 for i in range(model.nv))


def unpack_ltdl(model, qLD):
    """Dense ``L (..., nv, nv)`` (unit lower triangular) and ``D (..., nv)`` from ``qLD``.

    >>> from rbdl_edu.models import double_pendulum
    >>> m = double_pendulum()
    >>> L, D = unpack_ltdl(m, factor_ltdl(m, np.array([4.0, 3.0, 2.0])))
    >>> np.allclose(L.T @ np.diag(D) @ L, [[4.0, 2.0], [2.0, 3.0]])
    True
    """
    L = from_tree_sparse(model, qLD, symmetric=False)
    D = qLD[..., model.dof_Madr]
    eye = namespace(qLD).eye(model.nv, dtype=bool)
    return namespace(qLD).where(eye, 1.0, L), D


# Traced by JAX (rbdl_edu.compiled), the loops above unroll into one operation per entry and
# per update, O(sum of depth^2) of them, and XLA's compile time grows with their number
# (minutes for a 64-link chain); each scalar also costs XLA a kernel at run time. Traced, the
# factor keeps each row as one vector: row k's update of row i (ancestor a of k) is one
# vector operation, row i minus L_ka times row k from entry a on (the same dofs, contiguous):
# O(sum of depth) operations. Above UNROLL_LIMIT of them the eliminations and sweeps run row
# by row, each row's updates as one gather and one scatter: O(nv) operations (slower to run
# for a small tree, faster to compile for a large one). The same arithmetic either way.

#: the most row updates (``nM - nv``, the entries below the diagonal) a traced factor unrolls
UNROLL_LIMIT = 150


@per_model
def rowwise(model):
    """Whether a traced factor or solve of ``model`` runs row by row with gathers (more than
    :data:`UNROLL_LIMIT` row updates) instead of unrolling the loops.

    >>> from rbdl_edu.models import auto_tree
    >>> rowwise(auto_tree(4)), rowwise(auto_tree(64))
    (False, True)
    """
    return _layout(model)[1] - model.nv > UNROLL_LIMIT


def _factor_chains(model, Msp, min_pivot):
    r""":func:`factor_ltdl` on traced arrays, unrolled with each row as one vector: row ``k``'s
    multipliers :math:`L_{k\cdot} = M_{k\cdot}/D_k` at once, then for each ancestor ``i``
    (entry ``a`` of row ``k``) :math:`M_{i\cdot} \mathrel{-}= L_{ka} M_{k, a\cdot}`."""
    Madr, _ = _layout(model)
    xp, chain_of = namespace(Msp), chains(model)
    row = [Msp[..., Madr[i]:Madr[i] + len(chain_of[i])] for i in range(model.nv)]
    for k in range(model.nv - 1, -1, -1):                  # eliminate from the leaves up
        Dk = row[k][..., :1]
        if min_pivot is not None:
            Dk = xp.maximum(Dk, min_pivot)
        L = row[k][..., 1:] / Dk
        for a, i in enumerate(chain_of[k][1:], start=1):
            row[i] = row[i] - L[..., a - 1:a] * row[k][..., a:]
        row[k] = xp.concatenate([Dk, L], axis=-1)
    return xp.concatenate(row, axis=-1) if model.nv else Msp


@per_model
def _row_updates(model):
    """For each dof ``k``, the Schur update of its elimination as three index arrays
    ``(dst, src, a)``: ``qLD[dst] -= L_k[a] * qLD[src]``, the pairs of :func:`factor_ltdl`'s
    inner loops, in their order."""
    Madr, _ = _layout(model)
    tables = []
    for k in range(model.nv):
        dst, src, coef = [], [], []
        for a, i in enumerate(ancestors(model, k)[1:], start=1):
            for b in range(len(ancestors(model, i))):
                dst.append(Madr[i] + b)
                src.append(Madr[k] + a + b)
                coef.append(a - 1)
        tables.append(tuple(np.array(t, dtype=int) for t in (dst, src, coef)))
    return tuple(tables)


def _factor_rows(model, Msp, min_pivot):
    """:func:`factor_ltdl` on traced arrays: row ``k``'s multipliers :math:`L_{ki} = M_{ki}/D_k`
    at once, then its Schur updates at once (they read only row ``k``, which they do not write)."""
    Madr, _ = _layout(model)
    xp, qLD = namespace(Msp), Msp
    for k in range(model.nv - 1, -1, -1):
        Dk = qLD[..., Madr[k]]
        if min_pivot is not None:
            Dk = xp.maximum(Dk, min_pivot)
            qLD = qLD.at[..., Madr[k]].set(Dk)
        n = len(ancestors(model, k)) - 1
        if n:
            dst, src, a = _row_updates(model)[k]
            row = slice(Madr[k] + 1, Madr[k] + 1 + n)
            L = qLD[..., row] / Dk[..., None]
            qLD = qLD.at[..., dst].set(qLD[..., dst] - L[..., a] * qLD[..., src])
            qLD = qLD.at[..., row].set(L)
    return qLD


def _solve_rows(model, qLD, b):
    """:func:`solve_ltdl` on traced arrays: each row's pushes to (or pulls from) its ancestors
    at once."""
    Madr, _ = _layout(model)
    xp = namespace(qLD, b)
    x = xp.broadcast_to(b, np.broadcast_shapes(qLD.shape[:-1], b.shape[:-1]) + b.shape[-1:])
    rows = [(i, np.array(ancestors(model, i)[1:], dtype=int), slice(Madr[i] + 1, Madr[i] + len(ancestors(model, i))))
            for i in range(model.nv)]
    for i, up, row in reversed(rows):             # x <- L^{-T} x
        if len(up):
            x = x.at[..., up].set(x[..., up] - qLD[..., row] * x[..., i:i + 1])
    x = x / qLD[..., np.asarray(Madr, dtype=int)]       # x <- D^{-1} x
    for i, up, row in rows:                       # x <- L^{-1} x
        if len(up):
            x = x.at[..., i].set(x[..., i] - (qLD[..., row] * x[..., up]).sum(-1))
    return x
