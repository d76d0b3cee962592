r"""The plumbing the recursive algorithms share, in one place, so that ``rnea``, ``crba`` and
``aba`` read like Featherstone's tables.

* :func:`state` checks the shapes of ``q``, ``qd``, ``qdd`` and gives them one dtype;
* :func:`dofs` is the slice of body ``i``'s degrees of freedom in ``qd`` (MuJoCo's
  ``body_dofadr``/``body_dofnum``);
* :func:`Xtree` is :math:`X_T`, the fixed transform from a body's parent to the body
  before its joints; :func:`body_inertia` is :math:`I_i`, the body's spatial inertia;
* :func:`gravity_acceleration` is :math:`a_0 = -[0;\ g]`, the world's fictitious upward
  acceleration that stands in for gravity;
* :func:`applied_wrench` turns ``xfrc_applied`` into a spatial force on a body;
* :func:`by_dof` and :func:`by_dof_blocks` gather per-body pieces into one ``(..., nv)``
  vector or ``(..., nv, nv)`` matrix (the algorithms build results from per-body pieces
  rather than writing into arrays, so the same lines trace under ``jax.jit``).
"""
from __future__ import annotations

import numpy as np

from .enums import FREE
from .memo import per_model
from .rotation import cross, quat_to_mat
from .scalar import asarray, concat, is_jax, is_symbolic, namespace
from .spatial import plucker_from_pose, spatial_inertia


def state(model, q, qd=None, qdd=None):
    """Check shapes and return ``q`` (and ``qd``, ``qdd`` if given) as arrays of one kind:
    ``float64``, SymPy ``object`` (if any input or the model is symbolic) or JAX.

    >>> from rbdl_edu.models import double_pendulum
    >>> state(double_pendulum(), [0.0, 1.0])[0]
    array([0., 1.])
    >>> state(double_pendulum(), [0.0])
    Traceback (most recent call last):
    ...
    ValueError: q has shape (1,); expected (..., 2) for this model (nq=2)
    """
    given = [(name, x) for name, x in (("q", q), ("qd", qd), ("qdd", qdd)) if x is not None]
    symbolic = model.is_symbolic or is_symbolic(*(x for _, x in given))
    out = []
    for name, x in given:
        x = asarray(x, dtype=object if symbolic else None)
        n, size = (model.nq, "nq") if name == "q" else (model.nv, "nv")
        if x.ndim == 0 or x.shape[-1] != n:
            raise ValueError(f"{name} has shape {x.shape}; expected (..., {n}) for this model ({size}={n})")
        out.append(x)
    if any(is_jax(x) for x in out):               # JAX: every input becomes a JAX array
        xp = namespace(*out)
        out = [xp.asarray(x) for x in out]
        if any(x.dtype != xp.float64 for x in out):
            raise TypeError(f"JAX arrays of dtype {[str(x.dtype) for x in out]}: the algorithms need "
                            "float64; import rbdl_edu.compiled (or set jax_enable_x64) before making any "
                            "JAX array")
    return out


def dofs(model, i):
    """The slice of body ``i``'s dofs in ``qd``, ``qdd`` and ``tau``.

    >>> from rbdl_edu.models import double_pendulum
    >>> dofs(double_pendulum(), 2)
    slice(1, 2, None)
    """
    a = int(model.body_dofadr[i])
    return slice(a, a + int(model.body_dofnum[i])) if a >= 0 else slice(0, 0)


@per_model
def Xtree(model, i):
    r""":math:`X_T`, the fixed motion transform from body ``i``'s parent to the body frame before
    its joints (``body_pos``, ``body_quat``); the identity for a free joint, whose ``qpos``
    is the whole pose.

    >>> from rbdl_edu.models import double_pendulum
    >>> float(Xtree(double_pendulum(), 2)[4, 0])  # 1 m below: ω_x moves the origin along +y
    1.0
    """
    j0 = model.body_jntadr[i]
    if model.body_jntnum[i] and model.jnt_type[j0] == FREE:
        return np.eye(6, dtype=model.body_pos.dtype)
    return plucker_from_pose(quat_to_mat(model.body_quat[i]), model.body_pos[i])


@per_model
def body_inertia(model, i):
    r"""Spatial inertia :math:`I_i` of body ``i`` in its own frame, from ``body_mass``,
    ``body_ipos``, ``body_iquat`` and ``body_inertia``: :math:`I_c = R\,\mathrm{diag}(I)\,R^T`.

    >>> from rbdl_edu.models import pendulum
    >>> body_inertia(pendulum(), 1)[3:, 3:]
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    R = quat_to_mat(model.body_iquat[i])
    Ic = R @ (model.body_inertia[i][:, None] * R.mT)
    return spatial_inertia(model.body_mass[i], model.body_ipos[i], Ic)


@per_model
def gravity_acceleration(model):
    r""":math:`a_0 = -[0;\ g]`: the world accelerates upward to stand in for gravity, so no
    body needs a gravity term of its own (zero if ``<flag gravity="disable"/>``).

    >>> from rbdl_edu.models import pendulum
    >>> gravity_acceleration(pendulum())
    array([0.  , 0.  , 0.  , 0.  , 0.  , 9.81])
    """
    g = asarray(model.opt.gravity)
    zero = np.zeros_like(g)
    return concat(zero, zero if model.opt.disabled("gravity") else zero - g)


def applied_wrench(model, i, X0i, xfrc_applied):
    r"""The world wrench ``xfrc_applied[..., i] = [F, τ]`` (at body ``i``'s center of mass) as a
    spatial force in body ``i``'s coordinates; ``X0i`` is :math:`{}^iX_0`.

    With the body at ``(R, x)`` in the world and its center of mass at ``c`` (body frame):
    :math:`f_i = [R^T\tau + c\times R^T F;\ R^T F]`.

    >>> from rbdl_edu.models import pendulum
    >>> w = np.zeros((2, 6)); w[1, 0] = 1.0               # push the bob along +x
    >>> applied_wrench(pendulum(), 1, np.eye(6), w)
    array([ 0., -1.,  0.,  1.,  0.,  0.])
    """
    xfrc = asarray(xfrc_applied)
    if xfrc.shape[-2:] != (model.nbody, 6):
        raise ValueError(f"xfrc_applied has shape {xfrc.shape}; expected (..., {model.nbody}, 6) "
                         f"for this model (nbody={model.nbody})")
    xp = namespace(X0i, xfrc)
    E = X0i[..., :3, :3]                               # R^T: world to body coordinates
    F, tau = xp.matvec(E, xfrc[..., i, :3]), xp.matvec(E, xfrc[..., i, 3:])
    return concat(tau + cross(model.body_ipos[i], F), F)


def by_dof(model, pieces, batch=()):
    """The ``(..., nv)`` vector whose entries at :func:`dofs` ``(model, i)`` are ``pieces[i]``
    (bodies without dofs have none; the pieces' batch dimensions are broadcast).

    >>> from rbdl_edu.models import double_pendulum
    >>> by_dof(double_pendulum(), [None, np.array([1.0]), np.array([2.0])])
    array([1., 2.])
    """
    parts = [pieces[i] for i in range(1, model.nbody) if model.body_dofnum[i]]
    if not parts:
        return np.zeros(batch + (0,))
    return concat(*parts)


def by_dof_blocks(model, blocks, batch, dtype):
    """The ``(..., nv, nv)`` matrix whose block at :func:`dofs` ``(model, i)``,
    :func:`dofs` ``(model, j)`` is ``blocks[i, j]`` (zero where ``blocks`` has none).

    >>> from rbdl_edu.models import double_pendulum
    >>> by_dof_blocks(double_pendulum(), {(1, 1): np.eye(1), (2, 2): 2 * np.eye(1)}, (), float)
    array([[1., 0.],
           [0., 2.]])
    """
    xp = namespace(*blocks.values())
    if xp is np:                                      # NumPy: write the blocks into zeros
        M = np.zeros(batch + (model.nv, model.nv), dtype=dtype)
        for (i, j), block in blocks.items():
            M[..., dofs(model, i), dofs(model, j)] = block
        return M
    # JAX arrays are immutable: join the blocks, row by row
    moving = [i for i in range(1, model.nbody) if model.body_dofnum[i]]
    rows = []
    for i in moving:
        row = [xp.broadcast_to(blocks[i, j], batch + blocks[i, j].shape[-2:]) if (i, j) in blocks
               else xp.zeros(batch + (int(model.body_dofnum[i]), int(model.body_dofnum[j])), dtype=dtype)
               for j in moving]
        rows.append(xp.concatenate(row, axis=-1))
    return xp.concatenate(rows, axis=-2) if rows else xp.zeros(batch + (0, 0), dtype=dtype)
