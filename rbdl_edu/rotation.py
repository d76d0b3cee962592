"""Rotations: elementary rotations, quaternions ``(w, x, y, z)``, axis-angle, exp/log.

Conventions (book, chapter 1): a rotation matrix ``R`` maps a vector's coordinates
in the rotated (body) frame to the reference (world) frame, ``x_world = R @ x_body``,
exactly like MuJoCo's ``xmat``. A unit quaternion ``quat = (w, x, y, z)`` represents
the same rotation; its product ``quat_mul(q1, q2)`` composes rotations like
``R1 @ R2``. Every function accepts leading batch dimensions and SymPy entries.
"""
from __future__ import annotations

import math

import numpy as np

from rbdl_edu.arrays import FLOAT64, asarray, concat, cos, is_jax, is_symbolic, namespace, sin


def skew(v):
    r"""Skew-symmetric matrix of a 3-vector, :math:`[v]_\times x = v \times x`.

    Shape ``(..., 3)`` to ``(..., 3, 3)``.

    >>> skew([1.0, 2.0, 3.0]) @ [0.0, 0.0, 1.0]
    array([ 2., -1.,  0.])
    """
    v = asarray(v)
    if _one_float(v, 3):                # one vector of numbers: written out
        x, y, z = v.tolist()
        return np.array([0.0, -z, y, z, 0.0, -x, -y, x, 0.0]).reshape(3, 3)    # (flat: made faster)
    xp = namespace(v)
    if xp is not np:                    # JAX: built from slices (XLA handles them best)
        x, y, z = v[..., 0], v[..., 1], v[..., 2]
        o = xp.zeros_like(x)
        return xp.stack([xp.stack([o, -z, y], -1), xp.stack([z, o, -x], -1), xp.stack([-y, x, o], -1)], -2)
    # [[0, -z, y], [z, 0, -x], [-y, x, 0]]: entries of v = (x, y, z) times signs
    return v.take(_SKEW_ENTRY, axis=-1) * _SKEW_SIGN       # (take: v[..., _SKEW_ENTRY], several times faster)


_SKEW_ENTRY = np.array([[0, 2, 1], [2, 0, 0], [1, 0, 0]])
_SKEW_SIGN = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])


def cross(a, b):
    r"""Cross product :math:`a \times b` of 3-vectors over leading batch dimensions (floats or symbols).

    >>> cross(np.array([1.0, 0, 0]), np.array([0.0, 1, 0]))
    array([0., 0., 1.])
    """
    xp = namespace(a, b)
    if xp is not np:                    # JAX: its own cross (slices; XLA handles them best)
        return xp.cross(a, b)
    # (a × b)_k = a_{k+1} b_{k+2} − a_{k+2} b_{k+1}, indices mod 3
    if _one_float(a, 3) and _one_float(b, 3):     # one pair of numbers: component by component
        (a1, a2, a3), (b1, b2, b3) = a.tolist(), b.tolist()
        return np.array([a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1])
    # (take(i, axis=-1) is a[..., i], several times faster on small arrays; both products at once,
    # broadcast as the products below would be)
    if type(a) is np.ndarray and type(b) is np.ndarray:
        p = a.take(_NEXT_AFTER, axis=-1) * b.take(_AFTER_NEXT, axis=-1)
        return p[..., :3] - p[..., 3:]
    return a.take(_NEXT, axis=-1) * b.take(_AFTER, axis=-1) - a.take(_AFTER, axis=-1) * b.take(_NEXT, axis=-1)


_NEXT, _AFTER = np.array([1, 2, 0]), np.array([2, 0, 1])
_NEXT_AFTER, _AFTER_NEXT = np.concatenate([_NEXT, _AFTER]), np.concatenate([_AFTER, _NEXT])


def _one_float(x, n):
    """True for one NumPy ``float64`` ``n``-vector (no batch, no symbols): the case worth a fast
    path, which computes the same formula on Python floats, operation for operation (the same
    bits as the array lines; sums start from 0.0 and go left to right, as NumPy's do)."""
    return isinstance(x, np.ndarray) and x.shape == (n,) and x.dtype == FLOAT64


def _elementary(theta, i, j):
    """Rotation by ``theta`` in the plane of axes ``i`` and ``j`` (about the third axis)."""
    theta = asarray(theta)
    xp = namespace(theta)
    c, s = cos(theta), sin(theta)
    one, o = xp.ones_like(c), xp.zeros_like(c)
    R = [[None] * 3 for _ in range(3)]
    k = 3 - i - j
    R[k][k], R[k][i], R[k][j], R[i][k], R[j][k] = one, o, o, o, o
    R[i][i], R[i][j], R[j][i], R[j][j] = c, -s, s, c
    return xp.stack([xp.stack(row, axis=-1) for row in R], axis=-2)


def rotx(theta):
    r"""Rotation by ``theta`` about x: :math:`R_x(\theta)`, shape ``(..., 3, 3)``.

    >>> np.round(rotx(np.pi / 2) @ [0.0, 1.0, 0.0], 12)
    array([0., 0., 1.])
    """
    return _elementary(theta, 1, 2)


def roty(theta):
    r"""Rotation by ``theta`` about y: :math:`R_y(\theta)`.

    >>> np.round(roty(np.pi / 2) @ [0.0, 0.0, 1.0], 12)
    array([1., 0., 0.])
    """
    return _elementary(theta, 2, 0)


def rotz(theta):
    r"""Rotation by ``theta`` about z: :math:`R_z(\theta)`.

    >>> np.round(rotz(np.pi / 2) @ [1.0, 0.0, 0.0], 12)
    array([0., 1., 0.])
    """
    return _elementary(theta, 0, 1)


def quat_mul(q1, q2):
    r"""Quaternion product :math:`q_1 \otimes q_2` (composes like ``R1 @ R2``).

    .. math:: (w_1 w_2 - v_1\cdot v_2,\; w_1 v_2 + w_2 v_1 + v_1 \times v_2)

    >>> quat_mul([0.0, 1, 0, 0], [0.0, 0, 1, 0])   # i * j = k
    array([0., 0., 0., 1.])
    """
    if _one_float(q1, 4) and _one_float(q2, 4):           # one pair of numbers: written out
        return np.array(_quat_mul_floats(q1.tolist(), q2.tolist()))
    q1, q2 = asarray(q1), asarray(q2)
    if type(q1) is np.ndarray and type(q2) is np.ndarray and q1.dtype == FLOAT64 == q2.dtype:
        # arrays of numbers: every product p[4 a + b] = q1_a q2_b at once, then the same sums
        p = (q1[..., :, None] * q2[..., None, :]).reshape(np.broadcast_shapes(q1.shape, q2.shape)[:-1] + (16,))
        w = p[..., :1] - ((p[..., 5:6] + p[..., 10:11]) + p[..., 15:16])
        v = (p.take(_W1V2, -1) + p.take(_W2V1, -1)) + (p.take(_CROSS_A, -1) - p.take(_CROSS_B, -1))
        return np.concatenate([w, v], axis=-1)
    w1, v1 = q1[..., 0:1], q1[..., 1:]                  # w kept as (..., 1)
    w2, v2 = q2[..., 0:1], q2[..., 1:]
    w = w1 * w2 - (v1 * v2).sum(-1, keepdims=True)
    v = w1 * v2 + w2 * v1 + cross(v1, v2)
    return concat(w, v)


def _quat_mul_floats(q1, q2):
    """:func:`quat_mul` of two quaternions of Python floats, a list."""
    (w1, x1, y1, z1), (w2, x2, y2, z2) = q1, q2
    return [w1 * w2 - (0.0 + x1 * x2 + y1 * y2 + z1 * z2),
            w1 * x2 + w2 * x1 + (y1 * z2 - z1 * y2),
            w1 * y2 + w2 * y1 + (z1 * x2 - x1 * z2),
            w1 * z2 + w2 * z1 + (x1 * y2 - y1 * x2)]


# quat_mul on arrays: w1 v2, w2 v1 and v1 × v2 = (y1 z2 - z1 y2, z1 x2 - x1 z2, x1 y2 - y1 x2) as
# indices 4 a + b of the products q1_a q2_b
_W1V2, _W2V1 = np.array([1, 2, 3]), np.array([4, 8, 12])
_CROSS_A, _CROSS_B = np.array([11, 13, 6]), np.array([14, 7, 9])


def quat_conj(q):
    """Conjugate ``(w, -x, -y, -z)``: the inverse rotation of a unit quaternion.

    >>> quat_conj([1.0, 2.0, 3.0, 4.0])
    array([ 1., -2., -3., -4.])
    """
    q = asarray(q)
    return concat(q[..., :1], -q[..., 1:])


def quat_normalize(q):
    """``q / |q|`` for numbers; symbolic quaternions are taken as unit and returned as is.

    Safe for any size: ``q`` is first divided by its largest entry, so ``[1e200, 1e200, 0, 0]``
    (whose squares overflow) is the quarter turn it means. A quaternion of length below
    ``1e-15`` (MuJoCo's ``mjMINVAL``), ``[0, 0, 0, 0]`` above all, is the identity, as
    MuJoCo's ``mju_normalize4`` makes it. NaN stays NaN.

    >>> quat_normalize([2.0, 0.0, 0.0, 0.0])
    array([1., 0., 0., 0.])
    >>> quat_normalize([1e200, 1e200, 0.0, 0.0]), quat_normalize([0.0, 0.0, 0.0, 0.0])
    (array([0.70710678, 0.70710678, 0.        , 0.        ]), array([1., 0., 0., 0.]))
    """
    if _one_float(q, 4):                # one quaternion of finite numbers: written out
        unit = _normalize_floats(q.tolist())
        if unit is not None:
            return np.array(unit)
    q = asarray(q)
    if is_symbolic(q):
        return q
    xp = namespace(q)
    s = xp.max(xp.abs(q), axis=-1, keepdims=True)
    u = q / xp.where(s > 0, s, 1.0)
    n = xp.linalg.norm(u, axis=-1, keepdims=True)
    identity = xp.asarray([1.0, 0.0, 0.0, 0.0], dtype=q.dtype)
    return xp.where(n * s < 1e-15, identity, u / xp.where(n > 0, n, 1.0))


def _normalize_floats(q):
    """:func:`quat_normalize` of a quaternion of Python floats, a list; None if it is not finite."""
    w, x, y, z = q
    if not math.isfinite(w + x + y + z):
        return None
    s = max(abs(w), abs(x), abs(y), abs(z))
    u = [c / (s if s > 0 else 1.0) for c in (w, x, y, z)]
    n = math.sqrt(0.0 + u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + u[3] * u[3])
    return [1.0, 0.0, 0.0, 0.0] if n * s < 1e-15 else [c / (n if n > 0 else 1.0) for c in u]


def _normalize4(q):
    """MuJoCo's ``mju_normalize4``: a quaternion within 1e-15 of unit length is kept as it
    is (so its rounding is MuJoCo's), another divided by its length. (Traced by JAX: divided.)"""
    if is_jax(q):
        return quat_normalize(q)
    q = np.asarray(q, dtype=float)
    w, x, y, z = q.tolist()
    n = math.sqrt(w * w + x * x + y * y + z * z)
    if not n >= _MINVAL:
        return quat_normalize(q)
    return q * (1 / n) if abs(n - 1) > _MINVAL else q


def _normalize4_floats(q):
    """:func:`_normalize4` of a quaternion of Python floats, a list."""
    w, x, y, z = q
    n = math.sqrt(w * w + x * x + y * y + z * z)
    if not n >= _MINVAL:
        return quat_normalize(np.array(q)).tolist()
    inverse = 1 / n
    return [w * inverse, x * inverse, y * inverse, z * inverse] if abs(n - 1) > _MINVAL else q


_MINVAL = 1e-15                 # MuJoCo's mjMINVAL


def quat_to_mat(q):
    r"""Rotation matrix of a unit quaternion.

    .. math:: R = (w^2 - v\cdot v) I + 2 v v^T + 2 w [v]_\times

    computed entry by entry as MuJoCo's ``mju_quat2Mat`` does (the diagonal as
    :math:`w^2 \pm x^2 \pm y^2 \pm z^2`), so that the rounding is MuJoCo's too: a sphere
    resting on a plane, turned about the vertical, is then exactly as far from it as there.

    >>> np.round(quat_to_mat([np.cos(np.pi/4), 0, 0, np.sin(np.pi/4)]), 12)
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    if _one_float(q, 4):                # one quaternion of numbers: the nine entries written out
        (a, b, c), (d, e, f), (g, h, i) = _quat_mat_entries(*q.tolist())
        return np.array([a, b, c, d, e, f, g, h, i]).reshape(3, 3)        # (flat: made faster)
    q = asarray(q)
    if type(q) is np.ndarray and q.dtype == FLOAT64:    # many quaternions of numbers: the same
        p = (q[..., :, None] * q[..., None, :]).reshape(q.shape[:-1] + (16,))   # entries, as arrays
        R = np.empty(q.shape[:-1] + (9,))
        R[..., _DIAGONAL] = ((p.take(_Q00, -1) + _S1 * p.take(_Q11, -1)) + _S2 * p.take(_Q22, -1)) + _S3 * p.take(_Q33, -1)
        R[..., _OFF] = 2 * (p.take(_OFF_A, -1) + _OFF_SIGN * p.take(_OFF_B, -1))
        return R.reshape(q.shape[:-1] + (3, 3))
    xp = namespace(q)
    rows = _quat_mat_entries(q[..., 0], q[..., 1], q[..., 2], q[..., 3])
    return xp.stack([xp.stack(row, -1) for row in rows], -2)


# quat_to_mat on arrays: p[4 a + b] = q_a q_b; the diagonal ((q00 ± q11) ± q22) ± q33, and the
# entries off it 2 (q_A ± q_B), as _quat_mat_entries orders them (a - b is a + (-b): the same bits)
_DIAGONAL, _OFF = np.array([0, 4, 8]), np.array([1, 2, 3, 5, 6, 7])
_Q00, _Q11, _Q22, _Q33 = np.array([0, 0, 0]), np.array([5, 5, 5]), np.array([10, 10, 10]), np.array([15, 15, 15])
_S1, _S2, _S3 = np.array([1.0, -1.0, -1.0]), np.array([-1.0, 1.0, -1.0]), np.array([-1.0, -1.0, 1.0])
_OFF_A, _OFF_B = np.array([6, 7, 6, 11, 7, 11]), np.array([3, 2, 3, 1, 2, 1])
_OFF_SIGN = np.array([-1.0, 1.0, 1.0, -1.0, -1.0, 1.0])


def _quat_mat_entries(w, x, y, z):
    """The nine entries of :func:`quat_to_mat`, rows of three (MuJoCo's order of operations)."""
    q00, q01, q02, q03 = w * w, w * x, w * y, w * z
    q11, q12, q13, q22, q23, q33 = x * x, x * y, x * z, y * y, y * z, z * z
    return ((q00 + q11 - q22 - q33, 2 * (q12 - q03), 2 * (q13 + q02)),
            (2 * (q12 + q03), q00 - q11 + q22 - q33, 2 * (q23 - q01)),
            (2 * (q13 - q02), 2 * (q23 + q01), q00 - q11 - q22 + q33))


def mat_to_quat(R):
    """Unit quaternion (with ``w >= 0``) of a rotation matrix (numeric), Shepperd's method.

    >>> np.round(mat_to_quat(rotz(np.pi / 2)), 12)
    array([0.70710678, 0.        , 0.        , 0.70710678])
    """
    R = np.asarray(R, dtype=float)
    flat = R.reshape(-1, 3, 3)
    out = np.empty((flat.shape[0], 4))
    for n, M in enumerate(flat):
        t = np.trace(M)
        k = int(np.argmax([t, M[0, 0], M[1, 1], M[2, 2]]))
        if k == 0:
            s = 2 * np.sqrt(1 + t)
            q = [s / 4, (M[2, 1] - M[1, 2]) / s, (M[0, 2] - M[2, 0]) / s, (M[1, 0] - M[0, 1]) / s]
        elif k == 1:
            s = 2 * np.sqrt(1 + M[0, 0] - M[1, 1] - M[2, 2])
            q = [(M[2, 1] - M[1, 2]) / s, s / 4, (M[0, 1] + M[1, 0]) / s, (M[0, 2] + M[2, 0]) / s]
        elif k == 2:
            s = 2 * np.sqrt(1 + M[1, 1] - M[0, 0] - M[2, 2])
            q = [(M[0, 2] - M[2, 0]) / s, (M[0, 1] + M[1, 0]) / s, s / 4, (M[1, 2] + M[2, 1]) / s]
        else:
            s = 2 * np.sqrt(1 + M[2, 2] - M[0, 0] - M[1, 1])
            q = [(M[1, 0] - M[0, 1]) / s, (M[0, 2] + M[2, 0]) / s, (M[1, 2] + M[2, 1]) / s, s / 4]
        q = np.asarray(q)
        out[n] = q if q[0] >= 0 else -q
    return (out / np.linalg.norm(out, axis=-1, keepdims=True)).reshape(R.shape[:-2] + (4,))


def axis_angle_to_quat(axis, angle):
    r"""Quaternion of a rotation by ``angle`` about the unit ``axis``: :math:`(\cos\frac{\theta}{2}, \sin\frac{\theta}{2}\,a)`.

    >>> np.round(axis_angle_to_quat([0.0, 0.0, 1.0], np.pi), 12)
    array([0., 0., 0., 1.])
    """
    if _one_float(axis, 3) and isinstance(angle, float):   # one rotation of numbers: written out
        half = angle / 2
        c, s = np.cos(half), np.sin(half)               # NumPy's cos and sin, as below
        return np.array([c] + [s * a for a in axis.tolist()])
    axis, angle = asarray(axis), asarray(angle)
    half = angle / 2
    return concat(cos(half)[..., None], sin(half)[..., None] * axis)


def quat_to_axis_angle(q):
    """Unit axis and angle in ``[0, pi]`` of a unit quaternion (numeric); axis x for no rotation.

    >>> axis, angle = quat_to_axis_angle(axis_angle_to_quat([0.0, 1.0, 0.0], 0.5))
    >>> axis, round(float(angle), 12)
    (array([0., 1., 0.]), 0.5)
    """
    r = quat_log(q)
    angle = np.linalg.norm(r, axis=-1)
    safe = np.where(angle > 1e-15, angle, 1.0)
    axis = np.where((angle > 1e-15)[..., None], r / safe[..., None], [1.0, 0.0, 0.0])
    return axis, angle


def quat_exp(r):
    r"""Quaternion of the rotation vector ``r`` (angle ``|r|`` about ``r/|r|``): :math:`\exp(r/2)`.

    >>> np.round(quat_exp([0.0, 0.0, np.pi / 2]), 12)
    array([0.70710678, 0.        , 0.        , 0.70710678])
    """
    if _one_float(r, 3):                # one rotation vector of numbers: the same lines on floats
        return np.array(_quat_exp_floats(r.tolist()))
    r = asarray(r)
    xp = namespace(r)
    theta2 = (r * r).sum(-1, keepdims=True)                     # θ², smooth at r = 0
    small = theta2 < 1e-16
    theta = xp.sqrt(xp.where(small, 1.0, theta2))               # never 0: derivatives stay finite
    # cos(θ/2) and sin(θ/2)/θ, with their Taylor series 1 - θ²/8 and 1/2 - θ²/48 near zero
    w = xp.where(small, 1 - theta2 / 8, xp.cos(theta / 2))
    k = xp.where(small, 0.5 - theta2 / 48, xp.sin(theta / 2) / theta)
    return concat(w, k * r)


def _quat_exp_floats(r):
    """:func:`quat_exp` of a rotation vector of Python floats, a list."""
    x, y, z = r
    theta2 = x * x + y * y + z * z
    if theta2 < 1e-16:
        w, k = 1 - theta2 / 8, 0.5 - theta2 / 48
    else:
        theta = math.sqrt(theta2)
        w, k = np.cos(theta / 2), np.sin(theta / 2) / theta       # NumPy's cos and sin, as quat_exp's
    return [w, k * x, k * y, k * z]


def quat_log(q):
    r"""Rotation vector of a unit quaternion (inverse of :func:`quat_exp`, angle in ``[0, pi]``).

    >>> np.round(quat_log(quat_exp([0.1, -0.2, 0.3])), 12)
    array([ 0.1, -0.2,  0.3])
    """
    q = asarray(q)
    xp = namespace(q)
    q = xp.where((q[..., :1] < 0), -q, q)           # q and -q are the same rotation
    w, v = q[..., 0], q[..., 1:]
    s = xp.linalg.norm(v, axis=-1)
    theta = 2 * xp.arctan2(s, w)
    small = s < 1e-12
    k = xp.where(small, 2 / xp.where(small, w, 1.0), theta / xp.where(small, 1.0, s))
    return k[..., None] * v


def quat_integrate(q, omega, dt):
    r"""Rotate ``q`` by a body-frame angular velocity ``omega`` for time ``dt``.

    .. math:: q(t + dt) = q(t) \otimes \exp(\omega\, dt / 2)

    This is how MuJoCo integrates ball and free joints (``mj_integratePos``): the
    angular velocity is expressed in the rotated (local) frame, so it multiplies on
    the right.

    >>> np.round(quat_integrate([1.0, 0, 0, 0], [0.0, 0.0, np.pi], 0.5), 12)
    array([0.70710678, 0.        , 0.        , 0.70710678])
    """
    if _one_float(q, 4) and _one_float(omega, 3) and isinstance(dt, float):   # numbers: the same lines on floats
        turned = _quat_mul_floats(q.tolist(), _quat_exp_floats([w * dt for w in omega.tolist()]))
        unit = _normalize_floats([float(c) for c in turned])
        if unit is not None:
            return np.array(unit)
    dt = asarray(dt)
    return quat_normalize(quat_mul(q, quat_exp(asarray(omega) * dt[..., None])))


def axis_rotation(axis, theta):
    r"""Rotation matrix by ``theta`` about a unit ``axis`` (Rodrigues' formula).

    .. math:: R = I + \sin\theta\,[a]_\times + (1-\cos\theta)\,[a]_\times^2

    >>> np.allclose(axis_rotation([0.0, 0.0, 1.0], 0.3), rotz(0.3))
    True
    """
    axis, theta = asarray(axis), asarray(theta)
    A = skew(axis)
    s, c = sin(theta)[..., None, None], cos(theta)[..., None, None]
    return namespace(axis, theta).eye(3, dtype=A.dtype) + s * A + (1 - c) * (A @ A)
