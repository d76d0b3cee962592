r"""MuJoCo's com-based frames, and the Jacobians MuJoCo builds from them (``mj_comPos``,
``mj_comVel``, ``mj_jac``, ``mj_objectVelocity``).

The recursive algorithms of chapters 5-7 keep each body's spatial vectors in the body's own
frame. MuJoCo keeps a second set, for the sensors, actuators and constraints: every spatial
vector of a tree is expressed with the world's axes about one point, the center of mass of
the tree (``subtree_com[body_rootid[i]]``). In that "c-frame" a dof's motion axis ``cdof``
(``[ω; v]`` per unit of ``qvel``) is the same wherever it is used, so

* a body's velocity is a sum over its path: :math:`\mathrm{cvel}_i = \sum_{k \in path(i)} \mathrm{cdof}_k\,\dot q_k`;
* the Jacobian of a point :math:`p` on body ``i`` has, for each dof ``k`` on its path, the
  columns :math:`\omega_k` (rotation) and :math:`v_k + \omega_k \times (p - c)` (translation).

This module fills ``subtree_com``, ``cdof`` (:func:`com_pos`), ``cvel`` and ``cacc``
(:func:`com_vel_acc`), and answers Jacobian and object-velocity questions from them.
:func:`to_cframe` and :func:`to_cframe_force` bring a body's motion and force vectors into
its c-frame (they move differently); the wrenches and momenta the sensors read are in
:mod:`rbdl_edu.simulation.rne_post`, which runs RNEA in the c-frame with what this module
gives it: how fast the axes move (:func:`cdof_dot`), the bodies' c-frame inertias
(:func:`cinert_times`), and, because c-frame vectors of a tree simply add, the sums along
every path and over every subtree as products with 0/1 matrices (:func:`path_sums`,
:func:`subtree_sums`).

>>> import rbdl_edu as rbd
>>> from rbdl_edu.kinematics import kinematics
>>> model = rbd.models.pendulum(); data = rbd.Data(model)
>>> kinematics(model, data)
>>> jacp, jacr = jac(model, data, 1, [0.0, 0.0, -1.0])   # the bob, one meter below the pivot
>>> jacp[:, 0], jacr[:, 0]
(array([-1.,  0.,  0.]), array([0., 1., 0.]))
"""
from __future__ import annotations

import dataclasses

import numpy as np

from rbdl_edu.arrays import asarray, concat, namespace, put
from rbdl_edu.cache import per_model
from rbdl_edu.joints import dof_axes
from rbdl_edu.model.enums import BALL, FREE, OBJ_BODY, OBJ_GEOM, OBJ_SITE, OBJ_XBODY
from rbdl_edu.model.frozen import plain
from rbdl_edu.rnea import rnea_passes
from rbdl_edu.rotation import cross, quat_normalize
from rbdl_edu.spatial import cross_motion
from rbdl_edu.tree import dofs


def com_pos(model, data):
    """``subtree_com (nbody, 3)``: the center of mass of each body with everything below it;
    ``cdof (nv, 6)``: each dof's motion axis in the c-frame of its tree (MuJoCo's
    ``mj_comPos``). Needs the poses of :func:`~rbdl_edu.kinematics.kinematics`."""
    m = model
    xp = namespace(data.xipos)
    # every body's subtree at once (subtree_sums: the world's row holds every body): the sum
    # of m_k x_k over the subtree, divided by its mass
    mass, (total, heavy) = xp.matmul(subtree_sums(m), plain(m).body_mass[:, None] * data.xipos), subtree_totals(m)
    data.subtree_com = mass / total if heavy is None else xp.where(heavy, mass / total, data.xipos)
    # cdof: a dof's axis S in its body frame, turned to world axes and moved to the point c,
    # all dofs at once (bodies in order hold their dofs in order: S's columns, joined, are
    # the rows of dof_axes)
    data.cdof = to_cframes(m, data, dof_axes(m, data.qpos), plain(m).dof_bodyid)


def to_cframe(model, data, i, m_body):
    """A spatial motion vector of body ``i`` given in its own frame (``[ω; v_O]``, body axes, at
    the body origin) in the c-frame of its tree: :math:`[R\\omega;\\ R v_O + R\\omega \\times (c - x_i)]`."""
    R, x, c = data.xmat[i], data.xpos[i], data.subtree_com[model.body_rootid[i]]
    w = R @ m_body[:3]
    return concat(w, R @ m_body[3:] + cross(w, c - x))


def to_cframes(model, data, m_body, bodies=None):
    """:func:`to_cframe` of many motion vectors at once: ``m_body (n, 6)``, row ``k`` in the
    frame of body ``bodies[k]`` (every body, in order, if ``bodies`` is None)."""
    b = slice(None) if bodies is None else bodies
    xp = namespace(data.xmat, m_body)
    R, x, c = data.xmat[b], data.xpos[b], data.subtree_com[plain(model).body_rootid[b]]
    if xp is np and m_body.ndim == 2:         # numbers: [Rω; R v_O] in one product, then the shift
        out = np.matvec(R[:, None], m_body.reshape(-1, 2, 3)).reshape(-1, 6)
        out[:, 3:] += cross(out[:, :3], c - x)
        return out
    w = xp.matvec(R, m_body[:, :3])
    return xp.concatenate([w, xp.matvec(R, m_body[:, 3:]) + cross(w, c - x)], axis=1)


def to_cframe_force(model, data, i, f_body):
    r"""A spatial force on body ``i`` given in its own frame (``[n_O; f]``: moment about the body
    origin and force, body axes) in the c-frame of its tree. A force moves differently from
    a motion: the force is the same at every point, the moment about ``c`` gains
    :math:`(x_i - c) \times f`:

    .. math:: [R n_O + (x_i - c) \times R f;\ R f]

    >>> import rbdl_edu as rbd
    >>> from rbdl_edu.kinematics import kinematics
    >>> model = rbd.models.double_pendulum(); data = rbd.Data(model)
    >>> kinematics(model, data); com_pos(model, data)
    >>> f = to_cframe_force(model, data, 2, np.array([0, 0, 0, 1.0, 0, 0]))   # 1 N along x
    >>> f[3:], bool(np.allclose(f[:3], cross(data.xpos[2] - data.subtree_com[0], np.array([1.0, 0, 0]))))
    (array([1., 0., 0.]), True)
    """
    R, x, c = data.xmat[i], data.xpos[i], data.subtree_com[model.body_rootid[i]]
    F = R @ f_body[3:]
    return concat(R @ f_body[:3] + cross(x - c, F), F)


def to_cframe_forces(model, data, f_body, bodies):
    """:func:`to_cframe_force` of many force vectors at once: ``f_body (n, 6)``, row ``k`` on
    body ``bodies[k]``."""
    xp = namespace(data.xmat, f_body)
    R, x, c = data.xmat[bodies], data.xpos[bodies], data.subtree_com[plain(model).body_rootid[bodies]]
    F = xp.matvec(R, f_body[:, 3:])
    return xp.concatenate([xp.matvec(R, f_body[:, :3]) + cross(x - c, F), F], axis=1)


def com_vel_acc(model, data):
    """``cvel (nbody, 6)`` and ``cacc (nbody, 6)``: every body's spatial velocity and
    acceleration in its tree's c-frame (MuJoCo's ``mj_comVel`` and ``mj_rnePostConstraint``),
    from RNEA's forward pass at ``(qpos, qvel, qacc)``. ``cacc`` holds the fictitious upward
    acceleration of gravity (``cacc[0] = [0; -g]``), as an accelerometer feels it."""
    P = rnea_passes(posed(model, data), data.qpos, data.qvel, data.qacc)
    cvel, cacc = np.zeros((model.nbody, 6)), np.zeros((model.nbody, 6))
    cacc[0] = P.a[0]
    for i in range(1, model.nbody):
        cvel[i], cacc[i] = to_cframe(model, data, i, P.v[i]), to_cframe(model, data, i, P.a[i])
    data.cvel, data.cacc = cvel, cacc


def posed(model, data):
    """``model`` with its mocap bodies where ``data`` put them (``mocap_pos``, ``mocap_quat``), for
    the recursive algorithms, which read a body's place in its parent from ``body_pos`` and
    ``body_quat`` (a mocap body's parent is the world); ``model`` itself if none has moved.

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_model('<mujoco><worldbody><body mocap="true"/></worldbody></mujoco>')
    >>> data = rbd.Data(model); posed(model, data) is model
    True
    >>> data.mocap_pos[0] = [1.0, 2.0, 3.0]; posed(model, data).body_pos[1]
    array([1., 2., 3.])
    """
    b = mocap_bodies(model)
    if not len(b):
        return model
    k = model.body_mocapid[b]
    pos, quat = data.mocap_pos[k], quat_normalize(data.mocap_quat[k])        # a zero quaternion: the identity
    if np.array_equal(pos, model.body_pos[b]) and np.array_equal(quat, model.body_quat[b]):
        return model
    body_pos, body_quat = model.body_pos.copy(), model.body_quat.copy()
    body_pos[b], body_quat[b] = pos, quat
    # the same model with the mocap bodies moved: its constants at qpos0 stay (as MuJoCo's)
    return dataclasses.replace(model, body_pos=body_pos, body_quat=body_quat)


@per_model
def mocap_bodies(model):
    """The ids of the mocap bodies, an int array."""
    return np.flatnonzero(plain(model).body_mocapid >= 0)


@per_model
def path_dofs(model, i):
    """The dofs on the path from the world to body ``i`` (the columns its Jacobian can use).

    >>> import rbdl_edu as rbd
    >>> path_dofs(rbd.models.double_pendulum(), 2)
    array([0, 1])
    """
    out = []
    while i > 0:
        out = list(range(dofs(model, i).start, dofs(model, i).stop)) + out
        i = model.body_parentid[i]
    return np.array(out, dtype=int)


@per_model
def path_sums(model):
    """``(nbody, nv)``: 1.0 where dof ``k`` is on the path from the world to body ``i``. In the
    c-frame the motions along a path just add, so ``path_sums(model) @ (cdof * qvel[:, None])``
    is every body's ``cvel`` at once.

    >>> import rbdl_edu as rbd
    >>> path_sums(rbd.models.double_pendulum())
    array([[0., 0.],
           [1., 0.],
           [1., 1.]])
    """
    P = np.zeros((model.nbody, model.nv))
    for i in range(1, model.nbody):
        P[i, path_dofs(model, i)] = 1.0
    return P


@per_model
def subtree_sums(model):
    r"""``(nbody, nbody)``: 1.0 where body ``k`` (not the world) is in the subtree of body ``i``;
    ``subtree_sums(model) @ f`` adds each body's c-frame wrench to every body above it, as
    RNEA's backward pass :math:`f_\lambda \mathrel{+}= f_i` does (the world's row adds every
    tree, each about its own point, as MuJoCo's ``cfrc_int[0]``).

    >>> import rbdl_edu as rbd
    >>> subtree_sums(rbd.models.double_pendulum())
    array([[0., 1., 1.],
           [0., 1., 1.],
           [0., 0., 1.]])
    """
    S = np.zeros((model.nbody, model.nbody))
    for k in range(1, model.nbody):
        i = k
        while i > 0:
            S[i, k] = 1.0
            i = model.body_parentid[i]
        S[0, k] = 1.0
    return S


@per_model
def subtree_masses(model):
    """``(nbody,)``: the mass of each body with everything below it (the world's: every body's)."""
    return subtree_sums(model) @ plain(model).body_mass


@per_model
def subtree_totals(model):
    """:func:`subtree_masses` as :func:`com_pos` divides by them, ``(nbody, 1)`` (at least 1e-300),
    and where they exceed 1e-15, ``(nbody, 1)`` (None if everywhere: a subtree without mass
    keeps its body's own center)."""
    total = subtree_masses(model)[:, None]
    heavy = total > 1e-15
    return np.maximum(total, 1e-300), None if heavy.all() else heavy


@per_model
def axis_movers(model):
    """``(nv, nv)``: 1.0 where dof ``j`` moves the axis of dof ``k`` (MuJoCo's ``mj_comVel``):
    the dofs before ``k`` on its body's path; a ball's three axes (and a free joint's rotation
    axes) move with the velocity before the ball (after the free joint's translation); a free
    joint's translation axes, the world's, do not move (their row is zero).

    >>> import rbdl_edu as rbd
    >>> axis_movers(rbd.models.double_pendulum())     # the lower hinge's axis swings with the upper
    array([[0., 0.],
           [1., 0.]])
    """
    C = np.zeros((model.nv, model.nv))
    for k in range(model.nv):
        j = model.dof_jntid[k]
        first, kind = model.jnt_dofadr[j], model.jnt_type[j]
        if kind == FREE and k < first + 3:
            continue
        start = first + 3 if kind == FREE else (first if kind == BALL else k)
        movers = [d for d in path_dofs(model, model.dof_bodyid[k]) if d < start]
        C[k, movers] = 1.0
    return C


def cdof_dot(model, data):
    r"""MuJoCo's ``cdof_dot (nv, 6)``: how fast each dof's axis turns and moves,
    :math:`\dot{\mathrm{cdof}}_k = v_k \times \mathrm{cdof}_k`, where :math:`v_k` is the velocity
    the axis moves with (:func:`axis_movers`), all dofs at once. Needs :func:`com_pos`."""
    xp = namespace(data.cdof, data.qvel)
    v = xp.matmul(axis_movers(model), data.cdof * data.qvel[:, None])
    return cross_motion(v, data.cdof)


def cinert_times(model, data, v):
    r"""Every body's spatial inertia in its c-frame times its motion ``v (..., nbody, 6)`` (MuJoCo's
    ``cinert`` and ``mju_mulInertVec``), all bodies at once: with :math:`r = x_{i,com} - c` and
    :math:`I_{com} = R\,\mathrm{diag}(I)\,R^T` (``ximat``), the body's linear momentum is its
    mass times its center of mass's velocity, :math:`p = m (v_c + \omega \times r)`, and

    .. math:: I_c\, v = [I_{com}\,\omega + r \times p;\ p]

    >>> import rbdl_edu as rbd
    >>> from rbdl_edu.kinematics import kinematics
    >>> model = rbd.models.pendulum(); data = rbd.Data(model)
    >>> kinematics(model, data); com_pos(model, data)
    >>> cinert_times(model, data, np.array([np.zeros(6), [0, 0, 0, 1.0, 0, 0]]))[1]   # 1 kg at 1 m/s
    array([0., 0., 0., 1., 0., 0.])
    """
    m = plain(model)
    xp = namespace(v, data.ximat)
    w, R = v[..., :3], data.ximat
    r = data.xipos - data.subtree_com[m.body_rootid]
    p = m.body_mass[:, None] * (v[..., 3:] + cross(w, r))
    spin = xp.matvec(R, m.body_inertia * xp.matvec(R.mT, w))
    return xp.concatenate([spin + cross(r, p), p], axis=-1)


@per_model
def body_not_world(model):
    """``(nbody,)``: 0.0 for the world, 1.0 for every other body (a mask for rows the world
    must not have).

    >>> import rbdl_edu as rbd
    >>> body_not_world(rbd.models.double_pendulum())
    array([0., 1., 1.])
    """
    return (np.arange(model.nbody) > 0).astype(float)


def jac(model, data, body, point):
    """MuJoCo's ``mj_jac``: ``jacp (3, nv)``, the Jacobian of the world velocity of the world
    point ``point`` moving with ``body``, and ``jacr (3, nv)``, of the body's angular
    velocity. Needs :func:`com_pos`."""
    jacp, jacr = np.zeros((3, model.nv)), np.zeros((3, model.nv))
    k = path_dofs(model, body)
    if len(k):
        c = data.subtree_com[model.body_rootid[body]]
        w, v = data.cdof[k, :3], data.cdof[k, 3:]
        jacr = put(jacr, (slice(None), k), w.T)
        jacp = put(jacp, (slice(None), k), (v + cross(w, asarray(point) - c)).T)     # v_p = v_c + ω × (p − c)
    return jacp, jacr


def frame_of(model, data, objtype, objid):
    """World position ``(3,)``, orientation ``(3, 3)`` and body of a body (its frame),
    ``xbody``, geom or site; for ``OBJ_BODY`` the frame is the inertial one (MuJoCo's
    convention for frame sensors)."""
    if objtype == OBJ_BODY:
        return data.xipos[objid], data.ximat[objid], objid
    if objtype == OBJ_XBODY:
        return data.xpos[objid], data.xmat[objid], objid
    if objtype == OBJ_GEOM:
        return data.geom_xpos[objid], data.geom_xmat[objid], int(model.geom_bodyid[objid])
    if objtype == OBJ_SITE:
        return data.site_xpos[objid], data.site_xmat[objid], int(model.site_bodyid[objid])
    raise ValueError(f"objtype {objtype} is not a frame (body, xbody, geom or site)")


def object_velocity(model, data, objtype, objid, local=False):
    """MuJoCo's ``mj_objectVelocity``: ``[ω; v]`` of the object's frame origin, in world
    axes, or in the object's own axes if ``local``. Needs :func:`com_vel_acc`."""
    w, v, mat = _at_object(model, data, data.cvel, objtype, objid)
    return concat(mat.T @ w, mat.T @ v) if local else concat(w, v)


def object_acceleration(model, data, objtype, objid, local=False):
    """MuJoCo's ``mj_objectAcceleration``: ``[α; a]`` of the object's frame origin (``a`` the
    classical acceleration of that point, gravity's fictitious ``-g`` included)."""
    w, v, mat = _at_object(model, data, data.cvel, objtype, objid)
    alpha, a, _ = _at_object(model, data, data.cacc, objtype, objid)
    # the classical acceleration adds ω × v to the spatial one
    a = a + cross(w, v)
    return concat(mat.T @ alpha, mat.T @ a) if local else concat(alpha, a)


def _at_object(model, data, cvec, objtype, objid):
    """``(ω, v, R)``: a c-frame spatial vector of the object's body moved to the object's origin
    (world axes), and the object's axes."""
    pos, mat, b = frame_of(model, data, objtype, objid)
    w = cvec[b, :3]
    return w, cvec[b, 3:] + cross(w, pos - data.subtree_com[model.body_rootid[b]]), mat
