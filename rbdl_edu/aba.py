r"""Forward dynamics by the articulated-body algorithm (Featherstone §7.3, book ch. 7).

ABA finds :math:`\ddot q` from :math:`\tau` in :math:`O(n)` without forming :math:`M`:

1. forward pass — velocities :math:`v_i`, velocity products :math:`c_i`, and the
   bias force :math:`p^A_i` of each body alone;
2. backward pass — articulated inertias :math:`I^A_i` and bias forces :math:`p^A_i`:
   the inertia the subtree presents at body ``i`` once its own joints are free to move;
3. forward pass — accelerations, root to leaves.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import inv, is_jax, is_symbolic, namespace
from rbdl_edu.joints import jcalc
from rbdl_edu.spatial import cross_force, cross_motion
from rbdl_edu.tree import (DynamicsError, Xtree, applied_wrench, body_inertia, by_dof, check_xfrc, dofs,
                           gravity_acceleration, state)


def aba(model, q, qd, tau, xfrc_applied=None):
    r"""Joint accelerations :math:`\ddot q = M^{-1}(\tau + \sum_i J_i^T f^{ext}_i - c)`.

    The exact inverse of :func:`~rbdl_edu.rnea.rnea`:
    ``aba(model, q, qd, rnea(model, q, qd, qdd)) == qdd``.

    Parameters
    ----------
    model : Model
    q : array (..., nq)
    qd, tau : array (..., nv)
    xfrc_applied : array (..., nbody, 6), optional — as in :func:`~rbdl_edu.rnea.rnea`.

    Returns
    -------
    qdd : array (..., nv)

    References: Featherstone, Table 7.1; book chapter 7.

    >>> from rbdl_edu.models import pendulum
    >>> aba(pendulum(), [np.pi / 2], [0.0], [0.0]).round(12)   # -m g l / (m l² + I)
    array([-4.905])
    """
    q, qd, tau = state(model, q, qd, tau, names=("q", "qd", "tau"))
    xfrc_applied = check_xfrc(model, xfrc_applied, q, qd)
    xp = namespace(q, qd, tau)
    nb, parent = model.nbody, model.body_parentid
    Xup, S, c, X0 = [None] * nb, [None] * nb, [None] * nb, [xp.eye(6, dtype=q.dtype)] * nb
    v, IA, pA = [xp.zeros(6, dtype=q.dtype)] + [None] * (nb - 1), [None] * nb, [None] * nb

    # pass 1, root to leaves: velocities, velocity products, isolated-body inertias and biases
    for i in range(1, nb):
        XJ, S[i], vJ, cJ = jcalc(model, i, q, qd)
        Xup[i], p = XJ @ Xtree(model, i), parent[i]
        v[i] = xp.matvec(Xup[i], v[p]) + vJ                   # v_i = ^iX_λ v_λ + S_i q̇_i
        c[i] = cJ + cross_motion(v[i], vJ)                      # c_i = c_J + v_i × v_J
        IA[i] = body_inertia(model, i)
        pA[i] = cross_force(v[i], xp.matvec(IA[i], v[i]))       # p^A_i = v_i ×* I_i v_i − f^ext_i
        if xfrc_applied is not None:
            X0[i] = Xup[i] @ X0[p]
            pA[i] = pA[i] - applied_wrench(model, i, X0[i], xfrc_applied)

    # pass 2, leaves to root: articulated-body inertias and bias forces
    U, Dinv, u = [None] * nb, [None] * nb, [None] * nb
    for i in range(nb - 1, 0, -1):
        d, p = dofs(model, i), parent[i]
        U[i] = IA[i] @ S[i]                                     # U_i = I^A_i S_i
        Dinv[i] = inverse_D(model, i, S[i].mT @ U[i] + xp.diag(model.dof_armature[d]))   # D_i = S_i^T U_i (+ armature)
        u[i] = tau[..., d] - xp.matvec(S[i].mT, pA[i])           # u_i = τ_i − S_i^T p^A_i
        if p > 0:
            # I^a = I^A_i − U_i D_i^{-1} U_i^T ;  p^a = p^A_i + I^a c_i + U_i D_i^{-1} u_i
            Ia = IA[i] - U[i] @ Dinv[i] @ U[i].mT
            pa = pA[i] + xp.matvec(Ia, c[i]) + xp.matvec(U[i] @ Dinv[i], u[i])
            # hand them to the parent: ^λX_i^* I^a ^iX_λ and ^λX_i^* p^a
            IA[p] = IA[p] + Xup[i].mT @ Ia @ Xup[i]
            pA[p] = pA[p] + xp.matvec(Xup[i].mT, pa)

    # pass 3, root to leaves: accelerations (the world accelerates upward: gravity)
    a, qdd = [gravity_acceleration(model)] + [None] * (nb - 1), [None] * nb
    for i in range(1, nb):
        a_p = xp.matvec(Xup[i], a[parent[i]]) + c[i]           # a' = ^iX_λ a_λ + c_i
        qdd[i] = xp.matvec(Dinv[i], u[i] - xp.matvec(U[i].mT, a_p))   # q̈_i = D_i^{-1} (u_i − U_i^T a')
        a[i] = a_p + xp.matvec(S[i], qdd[i])                    # a_i = a' + S_i q̈_i
    return by_dof(model, qdd, q.shape[:-1])


def inverse_D(model, i, D):
    r""":math:`D_i^{-1}`, the inverse of the articulated inertia body ``i``'s joints feel.

    :math:`D_i` is positive definite when body ``i``'s joints each move some mass and no two
    move it the same way; otherwise it is singular and there is no acceleration to give:
    for numbers (not symbols, not JAX tracers, which cannot raise) that is a
    :class:`~rbdl_edu.tree.DynamicsError` naming the body and its dofs (a zero, negative or
    non-finite :math:`D_i`, or one whose eigenvalues differ by more than :math:`10^{12}`).

    >>> from rbdl_edu.models import pendulum
    >>> inverse_D(pendulum(), 1, np.array([[0.0]]))
    Traceback (most recent call last):
        ...
    rbdl_edu.tree.DynamicsError: the articulated inertia of body 'pole' (dofs 0..0) is singular: its joints move no mass, or two of them move it the same way
    """
    if D.shape[-1] and not is_symbolic(D) and not is_jax(D):
        # (a state holding NaN gives NaN, as the other algorithms do: only finite D is judged)
        finite = np.all(np.isfinite(D), axis=(-2, -1))
        if D.shape[-1] == 1:
            bad = finite & ~(D[..., 0, 0] > 0)
        else:
            lam = np.linalg.eigvalsh(np.where(finite[..., None, None], D, np.eye(D.shape[-1])))
            bad = finite & ~((lam[..., 0] > 1e-12 * lam[..., -1]) & (lam[..., 0] > 0))
        if np.any(bad):
            a = int(model.body_dofadr[i])
            name = model.body_names[i] or i
            raise DynamicsError(f"the articulated inertia of body {name!r} (dofs {a}..{a + D.shape[-1] - 1}) "
                                "is singular: its joints move no mass, or two of them move it the same way")
    return inv(D)
