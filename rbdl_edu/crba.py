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

from rbdl_edu.arrays import is_jax, move_axis, namespace, write
from rbdl_edu.cache import per_model
from rbdl_edu.joints import body_transforms, dof_axes
from rbdl_edu.model.frozen import plain
from rbdl_edu.spatial import plucker_inv
from rbdl_edu.tree import body_inertia, body_inertias, by_dof_blocks, state, tree_levels


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
    if is_jax(q):                       # traced: every body at once (see the end)
        return crba_world(model, q) + xp.diag(model.dof_armature)
    M = crba_blocks(model, q)
    # joint armature: an extra inertia on each dof, on M's diagonal
    return by_dof_blocks(model, M, q.shape[:-1], q.dtype) + xp.diag(plain(model).dof_armature)


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


def crba_world(model, q):
    r""":func:`crba` without armature, every body at once, for JAX arrays (the loops above take a
    few small products per pair of bodies: compiled, XLA's time grows with them; for NumPy's
    numbers they are as fast as these larger products). The same :math:`M_{ij} = S_i^T I^c_i\, {}^iX_j S_j` with every quantity in world
    coordinates, where the transform between two bodies is the identity (MuJoCo's ``mj_crb``):
    the bodies' poses :math:`{}^iX_0 = {}^iX_\lambda\, {}^\lambda X_0` a level of the tree at a
    time, each dof's axis :math:`s_k = ({}^iX_0)^{-1} S_k` and each body's inertia
    :math:`I^0_i = ({}^iX_0)^T I_i\, {}^iX_0` in the world, a composite inertia the sum of its
    subtree's, and

    .. math:: M_{kl} = s_k^T\, I^{c,0}_{b(l)}\, s_l \quad (k \text{ a dof on the path of dof } l)

    >>> from rbdl_edu.models import double_pendulum
    >>> q = np.array([0.3, -0.5])
    >>> bool(np.allclose(crba_world(double_pendulum(), q), by_dof_blocks(double_pendulum(), crba_blocks(double_pendulum(), q), (), float)))
    True
    """
    xp = namespace(q)
    Xup, _ = body_transforms(model, q)
    X0 = Xup + 0                                        # the world's children: ^iX_0 = ^iX_λ
    for i, p in tree_levels(model)[1:]:
        X0 = write(X0, i, Xup[i] @ X0[p])               # ^iX_0 = ^iX_λ ^λX_0
    I0 = X0.mT @ _batched(body_inertias(model), X0) @ X0            # I^0_i = (^iX_0)^T I_i ^iX_0
    IC0 = xp.tensordot(subtree_matrix(model), I0, axes=1)           # I^{c,0}_i: the sum over i's subtree
    b = plain(model).dof_bodyid
    axes = move_axis(dof_axes(model, q), -2, 0)                     # S_k, by dof first
    s = xp.matvec(plucker_inv(X0[b]), axes)                         # s_k = (^iX_0)^{-1} S_k
    F = xp.matvec(IC0[b], s)                                        # F_l = I^{c,0}_{b(l)} s_l
    s, F = move_axis(s, 0, -2), move_axis(F, 0, -2)
    MT = s @ F.mT                                                   # s_k^T F_l for every pair
    # M_kl where k is on l's path (k ≤ l), and its mirror: M is symmetric
    upper, strictly = path_pairs(model)
    return xp.where(upper, MT, 0.0) + xp.where(strictly, MT, 0.0).mT


def _batched(A, like):
    """``A (nbody, 6, 6)`` shaped to multiply ``like (nbody, ..., 6, 6)`` body by body."""
    return A.reshape((A.shape[0],) + (1,) * (like.ndim - 3) + A.shape[1:])


@per_model
def subtree_matrix(model):
    """``(nbody, nbody)``: 1.0 where body ``k`` is body ``i`` or below it (the world's row: 0)."""
    m = plain(model)
    T = np.zeros((m.nbody, m.nbody))
    for k in range(1, m.nbody):
        i = k
        while i > 0:
            T[i, k], i = 1.0, m.body_parentid[i]
    return T


@per_model
def path_pairs(model):
    """``(nv, nv)`` masks: True where dof ``k`` is on the path of dof ``l`` (its body is ``l``'s
    or an ancestor's), ``k ≤ l``; and the same with ``k < l``."""
    m = plain(model)
    b = m.dof_bodyid
    T = subtree_matrix(model)[b][:, b] > 0                          # b(l) in the subtree of b(k)
    k, l = np.indices((m.nv, m.nv))
    return T & (k <= l), T & (k < l)
