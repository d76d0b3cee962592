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

from .joints import jcalc
from .kinematics import body_spatial_inertia, state
from .rnea import applied_wrench
from .scalar import asarray, eye, inv, zeros
from .spatial import cross_force, cross_motion, mv


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
    q, qd, tau = state(model, q, qd, tau)
    batch = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1], tau.shape[:-1])
    nb, parent = model.nbody, model.body_parentid
    like = (q, qd, tau, model.body_mass, model.body_pos)
    Xup, S, c, v = [None] * nb, [None] * nb, [None] * nb, [zeros(batch + (6,), *like)] + [None] * (nb - 1)
    IA, pA = [None] * nb, [None] * nb
    X0 = [eye(6, *like)] * nb
    armature = asarray(model.dof_armature)

    # pass 1, root to leaves: velocities, velocity products, isolated-body inertias and biases
    for i in range(1, nb):
        Xup[i], S[i], cJ = jcalc(model, i, q, qd)
        dofs = slice(model.body_dofadr[i], model.body_dofadr[i] + model.body_dofnum[i])
        vJ = mv(S[i], qd[..., dofs])
        v[i] = mv(Xup[i], v[parent[i]]) + vJ                 # v_i = ^iX_λ v_λ + S_i q̇_i
        c[i] = cJ + cross_motion(v[i], vJ)                        # c_i = c_J + v_i × v_J
        IA[i] = np.broadcast_to(body_spatial_inertia(model, i), batch + (6, 6))
        pA[i] = cross_force(v[i], mv(IA[i], v[i]))             # p^A_i = v_i ×* I_i v_i − f^ext_i
        if xfrc_applied is not None:
            X0[i] = Xup[i] @ X0[parent[i]]
            pA[i] = pA[i] - applied_wrench(model, i, X0[i], xfrc_applied)

    # pass 2, leaves to root: articulated-body inertias and bias forces
    U, Dinv, u = [None] * nb, [None] * nb, [None] * nb
    for i in range(nb - 1, 0, -1):
        dofs = slice(model.body_dofadr[i], model.body_dofadr[i] + model.body_dofnum[i])
        ST = np.swapaxes(S[i], -1, -2)
        U[i] = IA[i] @ S[i]                                    # U_i = I^A_i S_i
        D = ST @ U[i] + _diag(armature[dofs], like)            # D_i = S_i^T U_i (+ armature)
        Dinv[i] = inv(D)
        u[i] = tau[..., dofs] - mv(ST, pA[i])                # u_i = τ_i − S_i^T p^A_i
        if parent[i] > 0:
            UT = np.swapaxes(U[i], -1, -2)
            # I^a = I^A_i − U_i D_i^{-1} U_i^T ;  p^a = p^A_i + I^a c_i + U_i D_i^{-1} u_i
            Ia = IA[i] - U[i] @ Dinv[i] @ UT
            pa = pA[i] + mv(Ia, c[i]) + mv(U[i] @ Dinv[i], u[i])
            XT = np.swapaxes(Xup[i], -1, -2)
            # hand them to the parent: ^λX_i^* I^a ^iX_λ and ^λX_i^* p^a
            IA[parent[i]] = IA[parent[i]] + XT @ Ia @ Xup[i]
            pA[parent[i]] = pA[parent[i]] + mv(XT, pa)

    # pass 3, root to leaves: accelerations (the world accelerates upward: gravity)
    a = [zeros(batch + (6,), *like) for _ in range(nb)]
    a[0][..., 3:] = -asarray(model.opt.gravity)
    qdd = zeros(batch + (model.nv,), *like)
    for i in range(1, nb):
        dofs = slice(model.body_dofadr[i], model.body_dofadr[i] + model.body_dofnum[i])
        a_p = mv(Xup[i], a[parent[i]]) + c[i]                # a' = ^iX_λ a_λ + c_i
        # q̈_i = D_i^{-1} (u_i − U_i^T a')
        qdd[..., dofs] = mv(Dinv[i], u[i] - mv(np.swapaxes(U[i], -1, -2), a_p))
        a[i] = a_p + mv(S[i], qdd[..., dofs])                # a_i = a' + S_i q̈_i
    return qdd


def _diag(values, like):
    """A diagonal matrix of ``values`` with the dtype of ``like``."""
    D = zeros((len(values), len(values)), *like)
    for k, x in enumerate(values):
        D[k, k] = x
    return D
