r"""The plumbing the recursive algorithms share, in one place, so that ``rnea``, ``crba`` and
``aba`` read like Featherstone's tables.

* :func:`state` checks ``q``, ``qd``, ``qdd`` (kinds, shapes, batch shapes) and gives them
  one dtype; :class:`DynamicsError` is what an algorithm raises when the model gives no
  answer at a state (a singular articulated inertia);
* :func:`dofs` is the slice of body ``i``'s degrees of freedom in ``qd`` (MuJoCo's
  ``body_dofadr``/``body_dofnum``);
* :func:`Xtree` is :math:`X_T`, the fixed transform from a body's parent to the body
  before its joints; :func:`body_inertia` is :math:`I_i`, the body's spatial inertia;
* :func:`gravity_acceleration` is :math:`a_0 = -[0;\ g]`, the world's fictitious upward
  acceleration that stands in for gravity;
* :func:`applied_wrench` turns ``xfrc_applied`` into a spatial force on a body;
* :func:`tree_levels` groups the bodies by depth, so that a recursion runs one level of the
  tree per array operation (the parents of a level are all in the level above);
  :func:`Xtrees` and :func:`body_inertias` stack :func:`Xtree` and :func:`body_inertia` by body;
* :func:`by_dof` and :func:`by_dof_blocks` gather per-body pieces into one ``(..., nv)``
  vector or ``(..., nv, nv)`` matrix (the algorithms build results from per-body pieces
  rather than writing into arrays, so the same lines trace under ``jax.jit``).
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import FLOAT64, asarray, concat, is_jax, is_symbolic, namespace
from rbdl_edu.cache import per_model
from rbdl_edu.model.enums import FREE
from rbdl_edu.model.model import check_not_mujoco
from rbdl_edu.rotation import cross, quat_to_mat
from rbdl_edu.spatial import plucker_from_pose, spatial_inertia


class DynamicsError(ValueError):
    """An algorithm cannot give a finite answer for this model at this state: the
    articulated inertia of a body is singular (its joints move no mass, or two of them move
    it the same way). The message names the body and its dofs."""


_ABSENT = object()          # an argument not given (None given is an error)


def state(model, q, qd=_ABSENT, qdd=_ABSENT, names=("q", "qd", "qdd")):
    """Check and return ``q`` (and ``qd``, ``qdd`` if given) as arrays of one kind:
    ``float64``, SymPy ``object`` (if any input or the model is symbolic) or JAX.

    Refused, with the argument's name: ``None``, text, complex numbers (the imaginary part
    would be dropped), masked entries, a last axis of the wrong length, and leading (batch)
    shapes that do not broadcast together. ``np.matrix`` and masked arrays without masked
    entries are read as plain arrays. NaN and infinities pass through (NaN in, NaN out: the
    simulation's divergence check, :func:`rbdl_edu.simulation.step.check`, relies on it).

    >>> from rbdl_edu.models import double_pendulum
    >>> state(double_pendulum(), [0.0, 1.0])[0]
    array([0., 1.])
    >>> state(double_pendulum(), [0.0])
    Traceback (most recent call last):
    ...
    ValueError: q has shape (1,); expected (..., 2) for this model (nq=2)
    """
    if _one_float_state(model, q, qd, qdd):             # the common case: nothing to convert
        return [x for x in (q, qd, qdd) if x is not _ABSENT]
    check_not_mujoco(model)
    given = [(name, x) for name, x in zip(names, (q, qd, qdd)) if x is not _ABSENT]
    for k, (name, x) in enumerate(given):
        if x is None:
            raise TypeError(f"{name} is None; expected an array (..., {'nq' if k == 0 else 'nv'}) "
                            f"with {'nq' if k == 0 else 'nv'}={model.nq if k == 0 else model.nv}")
    symbolic = model.is_symbolic or is_symbolic(*(x for _, x in given))
    out = []
    for name, x in given:
        x = _numbers(name, x, symbolic)
        n, size = (model.nq, "nq") if name == names[0] else (model.nv, "nv")
        if x.ndim == 0 or x.shape[-1] != n:
            raise ValueError(f"{name} has shape {x.shape}; expected (..., {n}) for this model ({size}={n})")
        out.append(x)
    try:
        np.broadcast_shapes(*(x.shape[:-1] for x in out))
    except ValueError:
        shapes = ", ".join(f"{name} {x.shape}" for (name, _), x in zip(given, out))
        raise ValueError(f"the batch shapes (all but the last axis) do not broadcast: {shapes}") from None
    if any(is_jax(x) for x in out):               # JAX: every input becomes a JAX array
        xp = namespace(*out)
        out = [xp.asarray(x) for x in out]
        if any(x.dtype != xp.float64 for x in out):
            raise TypeError(f"JAX arrays of dtype {[str(x.dtype) for x in out]}: the algorithms need "
                            "float64; import rbdl_edu.compiled (or set jax_enable_x64) before making any "
                            "JAX array")
    return out


def _one_float_state(model, q, qd, qdd):
    """True if ``q``, ``qd``, ``qdd`` (those given) are one state of plain ``float64`` vectors of the
    model's sizes and the model holds no symbols: :func:`state` would return them as they are."""
    if not (type(q) is np.ndarray and q.dtype == FLOAT64 and q.shape == (model.nq,)):
        return False
    for x in (qd, qdd):
        if x is not _ABSENT and not (type(x) is np.ndarray and x.dtype == FLOAT64 and x.shape == (model.nv,)):
            return False
    return type(model).__module__ == "rbdl_edu.model.model" and not model.is_symbolic


def _numbers(name, x, symbolic):
    """``x`` as an array of real numbers (or SymPy entries), or a ``TypeError`` naming it."""
    if is_jax(x):
        if namespace(x).iscomplexobj(x):
            raise TypeError(f"{name} is complex; the algorithms need real numbers")
        return x
    if isinstance(x, np.ma.MaskedArray):
        if np.ma.is_masked(x):
            raise ValueError(f"{name} has masked entries")
        x = np.ma.getdata(x)
    if isinstance(x, np.ndarray) and type(x) is not np.ndarray:      # np.matrix, ...
        x = np.asarray(x)
    if not symbolic:
        kind = np.asarray(x).dtype.kind if not isinstance(x, np.ndarray) else x.dtype.kind
        if kind == "c":
            raise TypeError(f"{name} is complex; the algorithms need real numbers")
        if kind not in "biuf":
            raise TypeError(f"{name} must hold numbers, not {np.asarray(x).dtype}")
    return asarray(x, dtype=object if symbolic else None)


def check_xfrc(model, xfrc_applied, *states):
    """``xfrc_applied`` as an array ``(..., nbody, 6)`` whose batch shape broadcasts with the
    batch shape of the ``states`` (``q``, ``qd``, ...); ``None`` stays ``None``."""
    if xfrc_applied is None:
        return None
    batch = np.broadcast_shapes(*(x.shape[:-1] for x in states))
    xfrc = _numbers("xfrc_applied", xfrc_applied, is_symbolic(xfrc_applied))
    if xfrc.shape[-2:] != (model.nbody, 6):
        raise ValueError(f"xfrc_applied has shape {xfrc.shape}; expected (..., {model.nbody}, 6) "
                         f"for this model (nbody={model.nbody})")
    try:
        np.broadcast_shapes(batch, xfrc.shape[:-2])
    except ValueError:
        raise ValueError(f"xfrc_applied has batch shape {xfrc.shape[:-2]}, the state {batch}: they do "
                         "not broadcast") from None
    return xfrc


def dofs(model, i):
    """The slice of body ``i``'s dofs in ``qd``, ``qdd`` and ``tau``.

    >>> from rbdl_edu.models import double_pendulum
    >>> dofs(double_pendulum(), 2)
    slice(1, 2, None)
    """
    a = int(model.body_dofadr[i])
    return slice(a, a + int(model.body_dofnum[i])) if a >= 0 else slice(0, 0)


@per_model
def dof_slices(model):
    """:func:`dofs` of every body, a tuple indexed by body (made once per model).

    >>> from rbdl_edu.models import double_pendulum
    >>> dof_slices(double_pendulum())[2]
    slice(1, 2, None)
    """
    return tuple(dofs(model, i) for i in range(model.nbody))


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
def tree_levels(model, by_body=False):
    """The bodies below the world by depth: a tuple of ``(i, p)`` int arrays, the bodies ``i`` one
    level down and their parents ``p``, the world's children first. A recursion over the tree
    runs level by level (``v[i] = X[i] v[p]``: every body of a level at once, its parents done).
    A level of one body holds plain ints (its rows are then views, and a compiled write a slice).
    ``by_body``: one body per level, in body order (parents come first), for a recursion traced
    by JAX, where the bodies of a level stacked in one array cost a ``vmap``-ed batch more
    (XLA lays each stack out and copies it again) than they save.

    >>> from rbdl_edu.models import branched_tree
    >>> tree_levels(branched_tree())[:2]
    ((1, 0), (array([2, 4]), array([1, 1])))
    """
    parent = np.asarray(model.body_parentid)
    if by_body:
        return tuple((i, int(parent[i])) for i in range(1, model.nbody))
    depth = np.zeros(model.nbody, dtype=int)
    for i in range(1, model.nbody):            # parents come before their children
        depth[i] = depth[parent[i]] + 1
    out = []
    for d in range(1, int(depth.max(initial=0)) + 1):
        i = np.flatnonzero(depth == d)
        p = parent[i].copy()
        if len(i) == 1:
            out.append((int(i[0]), int(p[0])))
            continue
        i.setflags(write=False)
        p.setflags(write=False)
        out.append((i, p))
    return tuple(out)


@per_model
def Xtrees(model):
    """:func:`Xtree` of every body, ``(nbody, 6, 6)`` (the world's: the identity).

    >>> from rbdl_edu.models import double_pendulum
    >>> Xtrees(double_pendulum()).shape
    (3, 6, 6)
    """
    xp = namespace(model.body_pos)
    return xp.stack([xp.eye(6, dtype=model.body_pos.dtype)] + [Xtree(model, i) for i in range(1, model.nbody)])


@per_model
def body_inertias(model):
    """:func:`body_inertia` of every body, ``(nbody, 6, 6)`` (the world's: zero).

    >>> from rbdl_edu.models import pendulum
    >>> float(body_inertias(pendulum())[1, 5, 5])
    1.0
    """
    I = [body_inertia(model, i) for i in range(1, model.nbody)]
    xp = namespace(*I)
    dtype = object if model.is_symbolic else model.body_mass.dtype
    return xp.stack([xp.zeros((6, 6), dtype=dtype)] + [xp.asarray(x, dtype=dtype) for x in I])


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


def applied_wrenches(model, X0, xfrc_applied):
    r""":func:`applied_wrench` of every body at once: ``X0 (nbody, ..., 6, 6)`` holds :math:`{}^iX_0`
    by body, ``xfrc_applied (..., nbody, 6)``; returns ``(nbody, ..., 6)``.

    >>> from rbdl_edu.models import pendulum
    >>> w = np.zeros((2, 6)); w[1, 0] = 1.0               # push the bob along +x
    >>> applied_wrenches(pendulum(), np.stack([np.eye(6)] * 2), w)[1]
    array([ 0., -1.,  0.,  1.,  0.,  0.])
    """
    xp = namespace(X0, xfrc_applied)
    xfrc = xp.moveaxis(asarray(xfrc_applied), -2, 0)              # by body first, as X0
    E = X0[..., :3, :3]                                            # R^T: world to body coordinates
    F, tau = xp.matvec(E, xfrc[..., :3]), xp.matvec(E, xfrc[..., 3:])
    c = model.body_ipos.reshape((model.nbody,) + (1,) * (F.ndim - 2) + (3,))
    return concat(tau + cross(c, F), F)


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
        d = dof_slices(model)
        for (i, j), block in blocks.items():
            M[..., d[i], d[j]] = block
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
