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
dimensions and SymPy entries.
"""
from __future__ import annotations

import numpy as np

from .rotation import axis_rotation, cross, quat_to_mat, rotx, roty, rotz, skew  # noqa: F401  (re-exported)
from .scalar import asarray, eye, zeros


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
    X = zeros(np.broadcast_shapes(E.shape[:-2], r.shape[:-1]) + (6, 6), E, r)
    X[..., :3, :3] = E
    X[..., 3:, 3:] = E
    X[..., 3:, :3] = -E @ skew(r)
    return X


def plucker_from_pose(R, p):
    r"""Motion transform from a parent frame to a child frame whose pose in the parent is
    ``(R, p)`` (child axes ``R``, child origin ``p``): ``plucker(R.T, p)``.

    >>> np.allclose(plucker_from_pose(np.eye(3), [0.0, 0, 1]), plucker(np.eye(3), [0.0, 0, 1]))
    True
    """
    R = asarray(R)
    return plucker(np.swapaxes(R, -1, -2), p)


def plucker_inv(X):
    r"""Inverse motion transform :math:`{}^AX_B = ({}^BX_A)^{-1}`, without a matrix inverse.

    .. math:: X^{-1} = \begin{bmatrix} E^T & 0 \\ [r]_\times E^T & E^T \end{bmatrix}
              = \begin{bmatrix} E^T & 0 \\ (\text{lower-left block})^T & E^T \end{bmatrix}

    >>> X = plucker(rotz(0.3), [1.0, 2.0, 3.0])
    >>> np.allclose(plucker_inv(X) @ X, np.eye(6))
    True
    """
    X = asarray(X)
    Xi = zeros(X.shape, X)
    ET = np.swapaxes(X[..., :3, :3], -1, -2)
    Xi[..., :3, :3] = ET
    Xi[..., 3:, 3:] = ET
    Xi[..., 3:, :3] = np.swapaxes(X[..., 3:, :3], -1, -2)
    return Xi


def force_transform(X):
    r"""Force transform :math:`{}^BX_A^* = {}^BX_A^{-T}` of the motion transform ``X``.

    .. math:: X^* = \begin{bmatrix} E & -E[r]_\times \\ 0 & E \end{bmatrix}

    >>> X = plucker(np.eye(3), [1.0, 0.0, 0.0])
    >>> force_transform(X) @ [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]   # y-force at A: moment -z about B
    array([ 0.,  0., -1.,  0.,  1.,  0.])
    """
    return np.swapaxes(plucker_inv(X), -1, -2)


def mv(A, x):
    """Matrix times vector over leading batch dimensions: ``(..., m, n)``, ``(..., n)`` to ``(..., m)``.

    The same product as ``A @ x``; for float batches it picks the fastest NumPy route
    (a constant matrix is one BLAS call over the whole batch).

    >>> mv(np.eye(2), np.ones((3, 2))).shape
    (3, 2)
    """
    if A.dtype != object and x.dtype != object:
        if A.ndim == 2:
            return x @ A.T                                   # one call for the whole batch
        if x.ndim > 1:
            return np.einsum("...ij,...j->...i", A, x)
    return (A @ x[..., None])[..., 0]


def mm(A, B):
    """Matrix times matrix over leading batch dimensions (``A @ B``), with a fast route for
    a constant ``B``.

    >>> mm(np.ones((4, 6, 6)), np.eye(6)).shape
    (4, 6, 6)
    """
    if B.ndim == 2 and A.ndim > 2 and A.dtype != object and B.dtype != object:
        return (A.reshape(-1, A.shape[-1]) @ B).reshape(A.shape[:-1] + B.shape[-1:])
    return A @ B


def cross_motion(v, m):
    r"""Motion cross product :math:`v \times m = \mathrm{crm}(v)\, m` without forming the matrix:
    :math:`[\omega\times m_\omega;\ \omega\times m_v + v_O\times m_\omega]`.

    >>> v, m = np.arange(6.0), np.ones(6)
    >>> np.allclose(cross_motion(v, m), crm(v) @ m)
    True
    """
    w, vo = v[..., :3], v[..., 3:]
    return np.concatenate([cross(w, m[..., :3]),
                           cross(w, m[..., 3:]) + cross(vo, m[..., :3])], axis=-1)


def cross_force(v, f):
    r"""Force cross product :math:`v \times^* f = \mathrm{crf}(v)\, f` without forming the matrix:
    :math:`[\omega\times n + v_O\times f_l;\ \omega\times f_l]`.

    >>> v, f = np.arange(6.0), np.ones(6)
    >>> np.allclose(cross_force(v, f), crf(v) @ f)
    True
    """
    w, vo = v[..., :3], v[..., 3:]
    return np.concatenate([cross(w, f[..., :3]) + cross(vo, f[..., 3:]),
                           cross(w, f[..., 3:])], axis=-1)


def crm(v):
    r"""Motion cross-product matrix, :math:`v \times m = \mathrm{crm}(v)\, m`.

    .. math:: v\times = \begin{bmatrix} [\omega]_\times & 0 \\ [v_O]_\times & [\omega]_\times \end{bmatrix}

    >>> v = [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    >>> crm(v) @ v                          # v x v = 0
    array([0., 0., 0., 0., 0., 0.])
    """
    v = asarray(v)
    C = zeros(v.shape + (6,), v)
    w = skew(v[..., :3])
    C[..., :3, :3] = w
    C[..., 3:, 3:] = w
    C[..., 3:, :3] = skew(v[..., 3:])
    return C


def crf(v):
    r"""Force cross-product matrix, :math:`v \times^* f = \mathrm{crf}(v)\, f = -\mathrm{crm}(v)^T f`.

    >>> v = np.arange(6.0)
    >>> np.allclose(crf(v), -crm(v).T)
    True
    """
    return -np.swapaxes(crm(v), -1, -2)


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
    mm = m[..., None, None]
    I = zeros(np.broadcast_shapes(m.shape, c.shape[:-1], Ic.shape[:-2]) + (6, 6), m, c, Ic)
    I[..., :3, :3] = Ic + mm * C @ np.swapaxes(C, -1, -2)
    I[..., :3, 3:] = mm * C
    I[..., 3:, :3] = mm * np.swapaxes(C, -1, -2)
    I[..., 3:, 3:] = mm * eye(3, m)
    return I


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
    c = np.stack([mC[..., 2, 1], mC[..., 0, 2], mC[..., 1, 0]], axis=-1) / m[..., None]
    C = skew(c)
    Ic = I[..., :3, :3] - m[..., None, None] * C @ np.swapaxes(C, -1, -2)
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
    return np.swapaxes(Xi, -1, -2) @ I @ Xi
