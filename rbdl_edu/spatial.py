r"""Spatial vector algebra (Featherstone, *Rigid Body Dynamics Algorithms*, ch. 2).

Spatial vectors are 6-vectors ``[angular; linear]``:

* a motion vector (velocity, acceleration) is :math:`\hat v = [\omega;\ v_O]`, where
  :math:`v_O` is the velocity of the body-fixed point that passes through the frame
  origin :math:`O`;
* a force vector (wrench) is :math:`\hat f = [n_O;\ f]`, the moment about :math:`O`
  and the linear force.

A Plücker transform :math:`{}^BX_A` changes the coordinates of a motion vector from
frame A to frame B. If B's origin sits at ``r`` (in A coordinates) and B's axes are the
columns of ``R`` (in A coordinates), then with :math:`E = R^T`

.. math:: {}^BX_A = \begin{bmatrix} E & 0 \\ -E[r]_\times & E \end{bmatrix}.

Forces transform with :math:`{}^BX_A^* = {}^BX_A^{-T}`; equivalently
:math:`{}^AX_B^* = ({}^BX_A)^T` — the transpose of a motion transform carries forces the
other way, an identity the algorithms use silently. All functions accept leading batch
dimensions, SymPy entries and JAX arrays.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import FLOAT64, asarray, concat, namespace
from rbdl_edu.rotation import axis_rotation, cross, quat_to_mat, rotx, roty, rotz, skew  # noqa: F401  (re-exported)


def blocks(A, B, C, D):
    r"""The 6×6 matrix :math:`\begin{bmatrix} A & B \\ C & D \end{bmatrix}` of four 3×3 blocks
    (their batch dimensions broadcast; ``0`` is a zero block).

    >>> blocks(np.eye(3), 0, 0, 2 * np.eye(3)).diagonal()
    array([1., 1., 1., 2., 2., 2.])
    """
    if all(type(M) is int or (isinstance(M, np.ndarray) and M.shape == (3, 3) and M.dtype == FLOAT64)
           for M in (A, B, C, D)):
        X = np.zeros((6, 6))                   # one matrix of numbers: written into zeros
        if type(A) is not int:
            X[:3, :3] = A
        if type(B) is not int:
            X[:3, 3:] = B
        if type(C) is not int:
            X[3:, :3] = C
        if type(D) is not int:
            X[3:, 3:] = D
        return X
    given = [M for M in (A, B, C, D) if not isinstance(M, int)]
    xp = namespace(*given)
    dtype = object if any(M.dtype == object for M in given) else given[0].dtype
    A, B, C, D = (xp.zeros((3, 3), dtype=dtype) if isinstance(M, int) else M for M in (A, B, C, D))
    leading = [M.shape[:-2] for M in (A, B, C, D)]
    if any(s != leading[0] for s in leading):
        batch = np.broadcast_shapes(*leading)
        A, B, C, D = (xp.broadcast_to(M, batch + (3, 3)) for M in (A, B, C, D))
    return xp.concatenate([xp.concatenate([A, B], axis=-1), xp.concatenate([C, D], axis=-1)], axis=-2)


def plucker(E, r):
    r"""Motion transform :math:`{}^BX_A` from the rotation ``E`` (A to B coordinates) and the
    position ``r`` of B's origin in A.

    .. math:: X = \begin{bmatrix} E & 0 \\ -E[r]_\times & E \end{bmatrix}

    Shapes ``E (..., 3, 3)``, ``r (..., 3)`` to ``(..., 6, 6)``.

    >>> X = plucker(np.eye(3), [1.0, 0.0, 0.0])     # B is A shifted by 1 along x
    >>> X @ [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]   # spin about z: B's origin moves with w x r = +y
    array([0., 0., 1., 0., 1., 0.])
    """
    E, r = asarray(E), asarray(r)
    # -E [r]x row by row: e^T [r]x = (e × r)^T for each row e of E, so -E [r]x has rows r × e
    # (elementwise: compiled, no 3×3 product of a skew matrix's zeros)
    return blocks(E, 0, cross(r[..., None, :], E), E)


def plucker_from_pose(R, p):
    r"""Motion transform from a parent frame to a child frame whose pose in the parent is
    ``(R, p)`` (child axes ``R``, child origin ``p``): ``plucker(R.mT, p)``.

    >>> np.allclose(plucker_from_pose(np.eye(3), [0.0, 0, 1]), plucker(np.eye(3), [0.0, 0, 1]))
    True
    """
    return plucker(asarray(R).mT, p)


def pose_from_plucker(X):
    """The child frame's pose ``(R, r)`` in the parent (axes ``R``, origin ``r``) from the
    motion transform ``X`` = :math:`{}^cX_p`, the inverse of :func:`plucker_from_pose`:
    ``E = R^T`` is the upper-left block and the lower-left block is ``-E [r]x``.

    >>> R, r = pose_from_plucker(plucker_from_pose(np.eye(3), [1.0, 2.0, 3.0]))
    >>> r
    array([1., 2., 3.])
    """
    R = X[..., :3, :3].mT
    rx = -R @ X[..., 3:, :3]                   # [r]x = -E^T (-E [r]x)
    return R, namespace(X).stack([rx[..., 2, 1], rx[..., 0, 2], rx[..., 1, 0]], axis=-1)


def plucker_inv(X):
    r"""Inverse motion transform :math:`{}^AX_B = ({}^BX_A)^{-1}`, without a matrix inverse.

    .. math:: X^{-1} = \begin{bmatrix} E^T & 0 \\ [r]_\times E^T & E^T \end{bmatrix}
              = \begin{bmatrix} E^T & 0 \\ (\text{lower-left block})^T & E^T \end{bmatrix}

    >>> X = plucker(rotz(0.3), [1.0, 2.0, 3.0])
    >>> np.allclose(plucker_inv(X) @ X, np.eye(6))
    True
    """
    ET = X[..., :3, :3].mT
    return blocks(ET, 0, X[..., 3:, :3].mT, ET)


def force_transform(X):
    r"""Force transform :math:`{}^BX_A^* = {}^BX_A^{-T}` of the motion transform ``X``.

    .. math:: X^* = \begin{bmatrix} E & -E[r]_\times \\ 0 & E \end{bmatrix}

    >>> X = plucker(np.eye(3), [1.0, 0.0, 0.0])
    >>> force_transform(X) @ [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]   # y-force at A: moment -z about B
    array([ 0.,  0., -1.,  0.,  1.,  0.])
    """
    return plucker_inv(X).mT


def cross_motion(v, m):
    r"""Motion cross product :math:`v \times m = \mathrm{crm}(v)\, m` without forming the matrix:
    :math:`[\omega\times m_\omega;\ \omega\times m_v + v_O\times m_\omega]`.

    >>> v, m = np.arange(6.0), np.ones(6)
    >>> np.allclose(cross_motion(v, m), crm(v) @ m)
    True
    """
    if _one_float6(v) and _one_float6(m):        # one pair of numbers: the same lines on floats
        (w, vo), (mw, mv) = _halves(v), _halves(m)
        return np.array(_cross(w, mw) + [x + y for x, y in zip(_cross(w, mv), _cross(vo, mw))])
    if _few_rows(v, m):                          # a few pairs of numbers (a small tree): row by row on floats
        return np.array([[w2 * a3 - w3 * a2, w3 * a1 - w1 * a3, w1 * a2 - w2 * a1,
                          (w2 * b3 - w3 * b2) + (v2 * a3 - v3 * a2), (w3 * b1 - w1 * b3) + (v3 * a1 - v1 * a3),
                          (w1 * b2 - w2 * b1) + (v1 * a2 - v2 * a1)]
                         for (w1, w2, w3, v1, v2, v3), (a1, a2, a3, b1, b2, b3) in zip(v.tolist(), m.tolist())])
    if _float_arrays(v, m):                      # arrays of numbers: the same products, by index
        # [ω × m_ω; ω × m_v] with the six entries, and v_O × m_ω, at once (nine), then the
        # last three added to the lower half
        p = v.take(_M_L1, -1) * m.take(_M_R1, -1) - v.take(_M_L2, -1) * m.take(_M_R2, -1)
        out = p[..., :6].copy()
        out[..., 3:] += p[..., 6:]
        return out
    w, vo = v[..., :3], v[..., 3:]
    return concat(cross(w, m[..., :3]), cross(w, m[..., 3:]) + cross(vo, m[..., :3]))


def cross_force(v, f):
    r"""Force cross product :math:`v \times^* f = \mathrm{crf}(v)\, f` without forming the matrix:
    :math:`[\omega\times n + v_O\times f_l;\ \omega\times f_l]`.

    >>> v, f = np.arange(6.0), np.ones(6)
    >>> np.allclose(cross_force(v, f), crf(v) @ f)
    True
    """
    if _one_float6(v) and _one_float6(f):        # one pair of numbers: the same lines on floats
        (w, vo), (n, fl) = _halves(v), _halves(f)
        return np.array([x + y for x, y in zip(_cross(w, n), _cross(vo, fl))] + _cross(w, fl))
    if _few_rows(v, f):                          # a few pairs of numbers (a small tree): row by row on floats
        return np.array([[(w2 * n3 - w3 * n2) + (v2 * f3 - v3 * f2), (w3 * n1 - w1 * n3) + (v3 * f1 - v1 * f3),
                          (w1 * n2 - w2 * n1) + (v1 * f2 - v2 * f1), w2 * f3 - w3 * f2, w3 * f1 - w1 * f3,
                          w1 * f2 - w2 * f1]
                         for (w1, w2, w3, v1, v2, v3), (n1, n2, n3, f1, f2, f3) in zip(v.tolist(), f.tolist())])
    if _float_arrays(v, f):                      # arrays of numbers: the same products, by index
        # [ω × n; ω × f_l] with the six entries, and v_O × f_l, at once (nine), then the last
        # three added to the upper half
        p = v.take(_F_L1, -1) * f.take(_F_R1, -1) - v.take(_F_L2, -1) * f.take(_F_R2, -1)
        out = p[..., :6].copy()
        out[..., :3] += p[..., 6:]
        return out
    w, vo = v[..., :3], v[..., 3:]
    return concat(cross(w, f[..., :3]) + cross(vo, f[..., 3:]), cross(w, f[..., 3:]))


def _one_float6(x):
    """One NumPy ``float64`` 6-vector (no batch, no symbols): :func:`cross_motion` and
    :func:`cross_force` then compute on Python floats, operation for operation as the array
    lines (the same bits)."""
    return isinstance(x, np.ndarray) and x.shape == (6,) and x.dtype == FLOAT64


def _few_rows(a, b):
    """Two NumPy ``float64`` stacks ``(n, 6)`` of one shape with ``1 <= n <= 3`` (the bodies of a small
    tree): :func:`cross_motion` and :func:`cross_force` then compute row by row on Python floats, the
    array lines' products and sums entry by entry (the same bits), faster than their four gathers
    up to three rows."""
    return (type(a) is np.ndarray and type(b) is np.ndarray and a.ndim == 2 and a.shape == b.shape
            and 0 < a.shape[0] <= 3 and a.shape[1] == 6 and a.dtype == FLOAT64 and b.dtype == FLOAT64)


def _float_arrays(a, b):
    """Two NumPy ``float64`` arrays of 6-vectors (batches of numbers, no symbols)."""
    return type(a) is np.ndarray and type(b) is np.ndarray and a.dtype == FLOAT64 and b.dtype == FLOAT64


# a × b = (a_1 b_2 - a_2 b_1, a_2 b_0 - a_0 b_2, a_0 b_1 - a_1 b_0) by index, for ω (entries 0-2) times
# both halves of the other vector (_N6, _A6 for ω's; _A6_, _N6_ the other's), v_O (3-5) times its
# upper half (_VN, _VA: v_O's; _WA, _WN: the upper half's) or its lower half (_FA, _FN)
_N6, _A6 = np.array([1, 2, 0, 1, 2, 0]), np.array([2, 0, 1, 5, 3, 4])
_A6_, _N6_ = np.array([2, 0, 1, 2, 0, 1]), np.array([1, 2, 0, 4, 5, 3])
_VN, _VA = np.array([4, 5, 3]), np.array([5, 3, 4])
_WA, _WN = np.array([2, 0, 1]), np.array([1, 2, 0])
_FA, _FN = np.array([5, 3, 4]), np.array([4, 5, 3])
# ... joined: p = v[L1] m[R1] - v[L2] m[R2] holds the six entries of ω × (both halves), then the three of
# v_O × (the other's upper half: motion; lower half: force)
_M_L1, _M_R1 = np.concatenate([_N6, _VN]), np.concatenate([_A6, _WA])
_M_L2, _M_R2 = np.concatenate([_A6_, _VA]), np.concatenate([_N6_, _WN])
_F_L1, _F_R1 = np.concatenate([_N6, _VN]), np.concatenate([_A6, _FA])
_F_L2, _F_R2 = np.concatenate([_A6_, _VA]), np.concatenate([_N6_, _FN])


def _halves(x):
    x = x.tolist()
    return x[:3], x[3:]


def _cross(a, b):
    """``a × b`` of two 3-lists of floats, as :func:`~rbdl_edu.rotation.cross` computes it."""
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def crm(v):
    r"""Motion cross-product matrix, :math:`v \times m = \mathrm{crm}(v)\, m`.

    .. math:: v\times = \begin{bmatrix} [\omega]_\times & 0 \\ [v_O]_\times & [\omega]_\times \end{bmatrix}

    >>> v = [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    >>> crm(v) @ v                          # v x v = 0
    array([0., 0., 0., 0., 0., 0.])
    """
    v = asarray(v)
    W = skew(v[..., :3])
    return blocks(W, 0, skew(v[..., 3:]), W)


def crf(v):
    r"""Force cross-product matrix, :math:`v \times^* f = \mathrm{crf}(v)\, f = -\mathrm{crm}(v)^T f`.

    >>> v = np.arange(6.0)
    >>> np.allclose(crf(v), -crm(v).T)
    True
    """
    return -crm(v).mT


def spatial_inertia(m, c, Ic):
    r"""Spatial inertia of a body of mass ``m``, center of mass ``c`` and rotational
    inertia ``Ic`` *about the center of mass*, all expressed in the body frame.

    .. math:: I = \begin{bmatrix} I_c + m [c]_\times [c]_\times^T & m [c]_\times \\
                                  m [c]_\times^T & m\, 1 \end{bmatrix}

    The upper-left block is the rotational inertia about the frame origin, not about
    the center of mass — an easy convention to misread.

    >>> I = spatial_inertia(2.0, [0.0, 0.0, 1.0], np.eye(3))
    >>> I[:3, :3]                          # parallel axis: 1 + 2 * 1**2 about x and y
    array([[3., 0., 0.],
           [0., 3., 0.],
           [0., 0., 1.]])
    """
    m, c, Ic = asarray(m), asarray(c), asarray(Ic)
    C = skew(c)
    m_ = m[..., None, None]
    one = namespace(m, c, Ic).eye(3, dtype=C.dtype)
    return blocks(Ic + m_ * C @ C.mT, m_ * C, m_ * C.mT, m_ * one)


def inertia_params(I):
    r"""Mass, center of mass and rotational inertia about the center of mass of a spatial
    inertia: the inverse of :func:`spatial_inertia`.

    >>> m, c, Ic = inertia_params(spatial_inertia(2.0, [0.1, 0.2, 0.3], np.diag([1.0, 2, 3])))
    >>> float(m), np.round(c, 12), np.round(np.diag(Ic), 12)
    (2.0, array([0.1, 0.2, 0.3]), array([1., 2., 3.]))
    """
    I = asarray(I)
    m = I[..., 5, 5]
    mC = I[..., :3, 3:]                                # m [c]x
    c = namespace(I).stack([mC[..., 2, 1], mC[..., 0, 2], mC[..., 1, 0]], axis=-1) / m[..., None]
    C = skew(c)
    Ic = I[..., :3, :3] - m[..., None, None] * C @ C.mT
    return m, c, Ic


def transform_inertia(X, I):
    r"""Spatial inertia in frame B of a body whose inertia in frame A is ``I``, with
    ``X`` the motion transform :math:`{}^BX_A`.

    .. math:: I_B = {}^BX_A^*\, I_A\, {}^AX_B = X^{-T} I_A X^{-1}

    (The recursive algorithms use the transpose form :math:`I_\lambda = X^T I_i X` with
    :math:`X = {}^iX_\lambda`, which is this same formula read the other way.)

    >>> X = plucker(rotz(0.4), [0.3, -0.2, 0.1])
    >>> I = spatial_inertia(1.5, [0.1, 0.0, 0.2], np.diag([0.1, 0.2, 0.3]))
    >>> np.allclose(transform_inertia(X, I), X.T @ I @ X) is False
    True
    >>> np.allclose(transform_inertia(plucker_inv(X), transform_inertia(X, I)), I)
    True
    """
    Xi = plucker_inv(X)
    return Xi.mT @ I @ Xi
