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

from rbdl_edu.arrays import is_jax, namespace
from rbdl_edu.cache import per_model
from rbdl_edu.joints import body_transforms
from rbdl_edu.model.frozen import plain
from rbdl_edu.tree import body_inertia, by_dof_blocks, dof_slices, state


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
    xp = namespace(q)
    if is_jax(q):                       # traced: a subtree's columns at once (see the end)
        return _crba_subtrees(model, q) + xp.diag(model.dof_armature)
    M = _crba_blocks(model, q)
    # joint armature: an extra inertia on each dof, on M's diagonal
    return joined(model, M, q) + armature_diagonal(model)


def joined(model, blocks, q):
    """:func:`crba_blocks`' ``blocks`` joined into one ``(..., nv, nv)`` matrix
    (:func:`~rbdl_edu.tree.by_dof_blocks`); for one state of numbers, every block's entries
    put at once at per-model flat positions (:func:`block_entries`)."""
    if q.ndim == 1 and q.dtype == np.float64:
        M = np.zeros(model.nv * model.nv)
        if blocks:
            M[block_entries(model)] = np.concatenate([block.reshape(-1) for block in blocks.values()])
        return M.reshape(model.nv, model.nv)
    return by_dof_blocks(model, blocks, q.shape[:-1], q.dtype)


@per_model
def armature_diagonal(model):
    """``(nv, nv)``: the joints' armature on the diagonal, zeros elsewhere (made once per model)."""
    return np.diag(plain(model).dof_armature)


@per_model
def block_entries(model):
    """Where the entries of :func:`crba_blocks`' blocks go in M's ``nv * nv`` entries, row by row, in
    the order of its dict (which depends on the tree alone: the one at ``qpos0``), an int array."""
    d, nv = dof_slices(model), model.nv
    rows_cols = [(np.arange(nv)[d[i]], np.arange(nv)[d[j]]) for i, j in _crba_blocks(model, plain(model).qpos0)]
    return np.concatenate([(r[:, None] * nv + c).reshape(-1) for r, c in rows_cols] + [np.zeros(0, int)])


def composite_inertias(model, q):
    r"""Each body's ``Xup`` (:math:`{}^iX_{\lambda(i)}`), motion subspace ``S`` and composite
    inertia ``IC`` (:math:`I^c_i`, the rigid body of its whole subtree, in its own coordinates):
    the first pass of both ways of assembling :math:`M`. ``Xup`` is stacked by body ``(nbody,
    ..., 6, 6)``, ``S`` and ``IC`` are lists by body (index 0, the world, unused)."""
    nb, parent = model.nbody, model.body_parentid
    Xup, S = body_transforms(model, q)       # ^iX_λ = X_J X_T and S_i of every body (jcalc)
    IC = [None] + [body_inertia(model, i) for i in range(1, nb)]

    # composite inertias, leaves to root: I^c_λ += ^λX_i^* I^c_i ^iX_λ = X^T I^c_i X
    for i in range(nb - 1, 0, -1):
        if parent[i] > 0:
            IC[parent[i]] = IC[parent[i]] + Xup[i].mT @ IC[i] @ Xup[i]
    return Xup, S, IC


def crba_blocks(model, q):
    r"""The nonzero blocks of :math:`M(q)` without armature, ``{(i, j): M_ij (..., nd_i, nd_j)}``
    keyed by the two bodies (one an ancestor of the other): what :func:`crba` assembles.
    Bodies in different trees share no block, so a model of many free bodies has
    :math:`O(n)` of them (:func:`rbdl_edu.setconst.set_const` works tree by tree).

    >>> from rbdl_edu.models import double_pendulum
    >>> sorted(crba_blocks(double_pendulum(), [0.0, 0.0]))
    [(1, 1), (1, 2), (2, 1), (2, 2)]
    """
    (q,) = state(model, q)
    return _crba_blocks(model, q)


def _crba_blocks(model, q):
    """:func:`crba_blocks` of a ``q`` that :func:`~rbdl_edu.tree.state` has checked."""
    nb, parent = model.nbody, model.body_parentid
    Xup, S, IC = composite_inertias(model, q)

    M = {}                                   # M's blocks, keyed by the two bodies
    for i in range(1, nb):
        if model.body_dofnum[i] == 0:
            continue
        # F = I^c_i S_i: the force it takes to accelerate the subtree along each joint axis
        F = IC[i] @ S[i]
        M[i, i] = S[i].mT @ F
        j = i
        while parent[j] > 0:
            # carry F to the parent: ^λX_j^* F = (^jX_λ)^T F
            F = Xup[j].mT @ F
            j = int(parent[j])
            if model.body_dofnum[j]:
                # M_ji = S_j^T F, and M is symmetric
                M[j, i] = S[j].mT @ F
                M[i, j] = M[j, i].mT
    return M


def _crba_subtrees(model, q):
    r""":func:`crba` without armature on traced arrays (``rbdl_edu.compiled``). The loops above
    carry each body's :math:`F = I^c_i S_i` to every ancestor, one product per pair of bodies:
    unrolled by JAX, :math:`O(n^2)` operations for a chain of :math:`n`, and XLA's compile time
    grows with them. The same products grouped by the body they reach: body ``j`` holds the
    columns :math:`F` of every dof in its subtree, in its own coordinates,
    :math:`[I^c_j S_j,\ {}^cX_j^T F_c, \dots]` over its children ``c`` (one product per child),
    and its rows of M are :math:`S_j^T F`: :math:`O(n)` operations."""
    xp = namespace(q)
    nb, parent = model.nbody, model.body_parentid
    Xup, S, IC = composite_inertias(model, q)

    batch = q.shape[:-1]
    # body j: the columns its children carried up (^cX_j^T F_c), and the dofs they belong to
    carried, cols = [[] for _ in range(nb)], [[] for _ in range(nb)]
    M = xp.zeros(batch + (model.nv, model.nv), dtype=q.dtype)
    for j in range(nb - 1, 0, -1):
        own = np.arange(model.body_dofadr[j], model.body_dofadr[j] + model.body_dofnum[j])
        # F (..., 6, len(cols[j])): I^c_j S_j for j's own dofs, then every column from below
        # (children came in from the last; taken first to last, the columns are j's subtree's
        # dofs in order, one range: M's entries are written as blocks, not scattered)
        F = xp.concatenate([xp.broadcast_to(IC[j] @ S[j], batch + (6, len(own)))] + carried[j][::-1], axis=-1)
        cols[j] = list(own) + cols[j]
        if len(own):                                    # M_jk = S_j^T F_k, and M is symmetric
            rows, k, o = S[j].mT @ F, _as_range(cols[j]), _as_range(own)
            M = M.at[..., o, k].set(rows)
            M = M.at[..., k, o].set(rows.mT)
        if parent[j] > 0 and cols[j]:                   # carry the columns to the parent
            carried[parent[j]].append(Xup[j].mT @ F)
            cols[parent[j]] = cols[j] + cols[parent[j]]
    return M


def _as_range(dofs):
    """``dofs`` as a slice where they are consecutive (a depth-first body order: a subtree's
    dofs are), else as an index array (XLA writes a slice as a block, an index array as a loop)."""
    dofs = np.asarray(dofs)
    if np.array_equal(dofs, np.arange(dofs[0], dofs[0] + len(dofs))):
        return slice(int(dofs[0]), int(dofs[0]) + len(dofs))
    return dofs
