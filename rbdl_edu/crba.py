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

from rbdl_edu.arrays import batch_traced, is_jax, namespace
from rbdl_edu.cache import per_model
from rbdl_edu.joints import body_transforms, dof_axes
from rbdl_edu.model.frozen import plain
from rbdl_edu.spatial import small_matmul
from rbdl_edu.tree import body_inertia, body_inertias, by_dof_blocks, dof_slices, state, tree_levels


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
    if q.ndim == 1 and not batch_traced():          # one traced state: a level of the tree at a time
        return _crba_levels(model, q)
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



def _crba_levels(model, q):
    r""":func:`_crba_subtrees` of one traced state, the bodies of a level of the tree at once
    (fewer, larger kernels for XLA). Body ``j``'s columns :math:`F` span all ``nv`` dofs, zero
    outside its subtree, so that a level's are one stack ``(n, 6, nv)``:
    :math:`F_j = I^c_j S_j + \sum_c {}^cX_j^T F_c` and :math:`I^c_j = I_j + \sum_c {}^cX_j^T
    I^c_c\, {}^cX_j` over its children ``c`` (each level's sums by parent as gathers, the 6×6
    products written out: :func:`~rbdl_edu.spatial.small_matmul`); then row ``k`` of M is
    :math:`S_k^T F_{body(k)}` for every dof at once: the products of :func:`_crba_blocks`, the
    sums in another order."""
    xp = namespace(q)
    Xup, _ = body_transforms(model, q)
    axes = dof_axes(model, q)                    # (nv, 6): S_k^T, dof by dof
    IC, F, up_IC, up_F = body_inertias(model), [], 0.0, 0.0     # up_*: carried up from the level below
    for i, own, children in level_sums(model):  # leaves to root
        IC_i = IC[i] + up_IC
        F_i = small_matmul(IC_i, axes.T * own) + up_F    # I^c_i S_i in i's own columns, the subtree's below
        F.append(F_i)
        if children is not None:                 # ^λX_i^T I^c_i ^iX_λ and ^λX_i^T F_i, summed by parent
            X = Xup[i]
            up_IC = _by_parent(xp, children, small_matmul(small_matmul(X.mT, IC_i), X))
            up_F = _by_parent(xp, children, small_matmul(X.mT, F_i))
    F = xp.concatenate(F)[dof_rows(model)]       # (nv, 6, nv): F of each dof's body
    R = (axes[:, :, None] * F).sum(-2)           # R_kc = S_k^T F_c: nonzero for c in k's subtree
    # M_kc = R_kc for c below k's body, R_ck otherwise (the own block transposed, as above)
    return xp.where(strictly_below(model), R, R.T)


def _by_parent(xp, children, G):
    """The rows of ``G`` (a level's bodies) added up by parent, ``children (n', K)`` the rows of
    each body of the level above (``len(G)`` for none: a row of zeros); gathers, not a product."""
    G = xp.concatenate([G, xp.zeros((1,) + G.shape[1:], dtype=G.dtype)])
    out = G[children[:, 0]]
    for k in range(1, children.shape[1]):
        out = out + G[children[:, k]]
    return out


@per_model
def level_sums(model):
    """:func:`_crba_levels`' walk, leaves to root, level by level: ``(i, own, children)``, the
    level's bodies, ``own (n, 1, nv)`` 1.0 at each body's own dofs, and ``children (n', K)``
    for each body of the next level up the rows of its children in this one, ``n`` where it
    has fewer than ``K`` (None at the top)."""
    m = plain(model)
    levels = [np.atleast_1d(i) for i, _ in tree_levels(model)][::-1]
    walk = []
    for d, i in enumerate(levels):
        own = (m.dof_bodyid[None, :] == i[:, None]).astype(float)[:, None, :]
        children = None
        if d + 1 < len(levels):
            rows = [np.flatnonzero(m.body_parentid[i] == b).tolist() for b in levels[d + 1].tolist()]
            K = max(1, max(len(r) for r in rows))
            children = np.array([r + [len(i)] * (K - len(r)) for r in rows], dtype=int)
        walk.append((i, own, children))
    return tuple(walk)


@per_model
def dof_rows(model):
    """Each dof's body as a row of :func:`_crba_levels`' bodies (stacked leaves first), an int array."""
    order = np.concatenate([i for i, _, _ in level_sums(model)])
    where = np.zeros(model.nbody, dtype=int)
    where[order] = np.arange(len(order))
    return where[plain(model).dof_bodyid]


@per_model
def strictly_below(model):
    """``(nv, nv)`` bool: True where dof ``c``'s body is a strict descendant of dof ``k``'s."""
    m = plain(model)
    below = np.zeros((m.nbody, m.nbody), dtype=bool)     # below[a, b]: b strictly below a
    for b in range(1, m.nbody):
        a = int(m.body_parentid[b])
        while a > 0:
            below[a, b] = True
            a = int(m.body_parentid[a])
    return below[np.ix_(m.dof_bodyid, m.dof_bodyid)]
