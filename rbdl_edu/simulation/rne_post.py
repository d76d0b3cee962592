r"""What each body feels: the momentum of its subtree and the wrenches on it (MuJoCo's
``mj_subtreeVel`` and ``mj_rnePostConstraint``), for the sensors (book, chapter 8).

Once the accelerations are known, RNEA (chapter 5) run once more at ``(qpos, qvel, qacc)``,
in the c-frame, says how hard each joint pushes: the wrench a body needs, :math:`I_i a_i + v_i \times^* I_i v_i`,
minus what pushes on it from outside, plus what its children need, is what its parent gives
it through the joint. ``force`` and ``torque`` sensors read that wrench; ``accelerometer``
and ``framelinacc`` read the accelerations. Everything is in the c-frame of
:mod:`rbdl_edu.smooth.comframe` (``[torque; force]`` about ``subtree_com[body_rootid[i]]``, world axes).

From outside come ``xfrc_applied``, the pull of spatial tendons (:func:`tendon_wrenches`,
their constraint forces included) and the constraint forces that act at points of bodies:
contacts and connect/weld equalities (:func:`constraint_wrenches`, chapter 10). Other
forces (joint springs and dampers, actuators on joints and fixed tendons, gravity
compensation, fluid forces, joint limits and friction loss) act through the joints and are
part of the joint wrench, as in MuJoCo.

The simulation stages are float-only (NumPy).

>>> import rbdl_edu as rbd
>>> from rbdl_edu.smooth.comframe import com_pos
>>> from rbdl_edu.kinematics import kinematics
>>> model = rbd.models.pendulum(); data = rbd.Data(model)     # hanging at rest
>>> kinematics(model, data); com_pos(model, data); rne_post_constraint(model, data)
>>> data.cfrc_int[1]                  # the pivot holds the bob up: m g, about its center of mass
array([0.  , 0.  , 0.  , 0.  , 0.  , 9.81])
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import concat, is_jax, namespace
from rbdl_edu.cache import per_model
from rbdl_edu.constraint.rows import anchored_equalities, contact_forces, equality_anchors, weld_frames
from rbdl_edu.model.enums import (CNSTR_EQUALITY, CNSTR_FRICTION_TENDON, CNSTR_LIMIT_TENDON, EQ_TENDON,
                                  OBJ_SITE, TRN_TENDON, WRAP_PULLEY, WRAP_SITE)
from rbdl_edu.model.frozen import plain
from rbdl_edu.rotation import cross, quat_conj, quat_mul
from rbdl_edu.smooth.comframe import (body_not_world, cdof_dot, object_acceleration, object_velocity, path_sums,
                                      subtree_sums)
from rbdl_edu.tree import gravity_acceleration


def rne_post_constraint(model, data):
    r"""MuJoCo's ``mj_rnePostConstraint``: ``cacc``, ``cfrc_ext`` and ``cfrc_int`` (all
    ``(nbody, 6)``, c-frame) at the final ``(qpos, qvel, qacc)``.

    It is RNEA (chapter 5) once more, written in the c-frame, where the vectors of one tree
    share their point and axes and so simply add: a body's acceleration is its parent's plus
    what its joint adds, and the wrench its joint carries is the sum of what its subtree needs.
    All bodies at once: the sums along paths and subtrees are products with 0/1 matrices made
    once per model (:func:`~rbdl_edu.smooth.comframe.path_sums`,
    :func:`~rbdl_edu.smooth.comframe.subtree_sums`).

    * ``cacc``: :math:`a_i = a_\lambda + \dot{\mathrm{cdof}}_i\,\dot q_i + \mathrm{cdof}_i\,\ddot q_i`
      from the world's fictitious :math:`a_0 = -[0; g]` (:func:`~rbdl_edu.smooth.comframe.cdof_dot`);
    * ``cfrc_ext``: the wrench from outside: ``xfrc_applied`` ``[F, τ]`` at the center of mass
      :math:`x_{i,com}` becomes :math:`[\tau + (x_{i,com} - c) \times F;\ F]`, plus the pull of
      spatial tendons (:func:`tendon_wrenches`) and the contact and connect/weld forces
      (:func:`constraint_wrenches`);
    * ``cfrc_int``: the wrench the parent exerts on body ``i`` through its joints,
      :math:`f_i = I_i a_i + v_i \times^* I_i v_i - f_i^{ext} + \sum_{children} f_k`, with the
      c-frame inertia :math:`I_i` (:func:`body_wrenches`: Newton and Euler at the center of mass). The world's
      entry adds up its children's, each about its own tree's point, as MuJoCo does.

    Needs :func:`~rbdl_edu.smooth.comframe.com_pos`, ``cvel``, ``qacc``, and for tendons
    ``ten_velocity`` and ``actuator_force``.
    """
    m = plain(model)
    body_accelerations(model, data)
    # the pull of spatial tendons (they read cacc) and of the constraint forces ...
    ext = constraint_wrenches(m, data)
    if spatial_tendons(m):                  # (none: nothing to add)
        ext = tendon_wrenches(m, data) + ext
    xfrc = data.xfrc_applied
    if is_jax(xfrc) or np.count_nonzero(xfrc):     # (none applied: nothing to add)
        # ... and [F, τ] at the center of mass: [τ + (x_com - c) × F; F] about c
        F, tau = xfrc[:, :3], xfrc[:, 3:]
        ext = ext + concat(tau + cross(data.xipos - data.subtree_com[m.body_rootid], F), F)
        ext = ext * body_not_world(m)[:, None]
    data.cfrc_ext = ext                     # (nothing pushes the world)
    # f_i = I_i a_i + v_i ×* I_i v_i − f_i^ext, then f_λ += f_i: the sums over each subtree
    data.cfrc_int = namespace(ext, data.cacc).matmul(subtree_sums(m), body_wrenches(m, data) - ext)


def body_wrenches(model, data):
    r"""``(nbody, 6)``: :math:`I_i a_i + v_i \times^* I_i v_i`, the wrench each body needs to move
    as it does (``cacc``, ``cvel``), in its c-frame, all bodies at once. It is Newton's and
    Euler's laws at the body's center of mass, moved to the c-frame point: with
    :math:`r = x_{i,com} - c`, :math:`[\omega; v_c]` and :math:`[\dot\omega; a_c]` the c-frame
    velocity and acceleration, the center of mass moves at :math:`v_{com} = v_c + \omega \times r`
    and accelerates at :math:`a_{com} = a_c + \dot\omega \times r + \omega \times v_{com}`, and

    .. math:: F = m\, a_{com}, \qquad \tau = I_{com}\dot\omega + \omega \times I_{com}\,\omega + r \times F

    with :math:`I_{com} = R\,\mathrm{diag}(I)\,R^T` (``ximat``): the wrench is :math:`[\tau; F]`
    (the same as :func:`~rbdl_edu.smooth.comframe.cinert_times` and
    :func:`~rbdl_edu.spatial.cross_force` give, in fewer operations).

    >>> import rbdl_edu as rbd
    >>> model = rbd.models.pendulum(); data = rbd.Data(model); rbd.forward(model, data)
    >>> body_accelerations(model, data); body_wrenches(model, data)[1]    # at rest: m g upward
    array([0.  , 0.  , 0.  , 0.  , 0.  , 9.81])
    """
    m, xp = plain(model), namespace(data.cacc, data.cvel, data.ximat)
    av = xp.concatenate([data.cacc, data.cvel], axis=1).reshape(m.nbody, 2, 6)     # per body [ω̇; a_c], [ω; v_c]
    turn, R = av[..., :3], data.ximat[:, None]                                       # ω̇ and ω
    r = data.xipos - data.subtree_com[m.body_rootid]
    moved = av[..., 3:] + cross(turn, r[:, None])                    # a_c + ω̇ × r and v_com = v_c + ω × r
    I_turn = xp.matvec(R, m.body_inertia[:, None] * xp.matvec(R.mT, turn))          # I_com ω̇ and I_com ω
    w_v_Iw = cross(turn[:, 1:], xp.concatenate([moved[:, 1:], I_turn[:, 1:]], axis=1))  # ω × v_com, ω × I_com ω
    F = m.body_mass[:, None] * (moved[:, 0] + w_v_Iw[:, 0])
    return xp.concatenate([I_turn[:, 0] + w_v_Iw[:, 1] + cross(r, F), F], axis=1)


def body_accelerations(model, data):
    r"""``cacc (nbody, 6)``: every body's acceleration in its c-frame at the final ``qacc``, the
    first part of :func:`rne_post_constraint` (all that accelerometers and ``framelinacc``,
    ``frameangacc`` read): from the world's fictitious :math:`a_0 = -[0; g]`,
    :math:`a_i = a_\lambda + \dot{\mathrm{cdof}}_i\,\dot q_i + \mathrm{cdof}_i\,\ddot q_i`, all bodies
    at once (the sums along paths: :func:`~rbdl_edu.smooth.comframe.path_sums`).

    >>> import rbdl_edu as rbd
    >>> model = rbd.models.pendulum(); data = rbd.Data(model); rbd.forward(model, data)
    >>> body_accelerations(model, data); data.cacc[1]     # hanging at rest: it feels g upward
    array([0.  , 0.  , 0.  , 0.  , 0.  , 9.81])
    """
    m, xp = model, namespace(data.cdof, data.qvel, data.qacc)
    qd, qdd = data.qvel[:, None], data.qacc[:, None]
    # a_i = a_λ + ċdof_i q̇_i + cdof_i q̈_i, added up along each body's path
    data.cacc = gravity_acceleration(m) + xp.matmul(path_sums(m), cdof_dot(m, data) * qd + data.cdof * qdd)


def constraint_wrenches(model, data):
    r"""``(nbody, 6)``: the c-frame wrenches of the constraint forces that act at points of
    bodies (MuJoCo's ``mj_rnePostConstraint``): the contacts' (:func:`contact_wrenches`) and the
    connect and weld equalities'. A connect's force :math:`f` (its 3 rows) acts at body 1's
    anchor and, opposite, at body 2's; a weld adds the torque of its rotation rows,
    :math:`\tfrac12 s\, E^T f_r` with ``torquescale`` :math:`s` and :math:`E\omega` the vector part
    of :math:`q_2^{-1}(0, \omega)\, q_1 r` (the map its Jacobian applies to an angular velocity;
    MuJoCo 4.0). The world is pushed too, but has no joint to feel it: its row stays zero."""
    m = plain(model)
    out = np.zeros((m.nbody, 6))
    for i, wrench in contact_wrenches(m, data).items():
        out[i] = wrench

    def push(bodies, p, torque, force):
        """Add each wrench ``[τ; F]`` at ``p`` to its body's row, about the body's c-frame point."""
        c = data.subtree_com[m.body_rootid[bodies]]
        np.add.at(out, bodies, np.concatenate([torque + cross(p - c, force), force], axis=1))
    for i, e, weld in anchored_equalities(model, data) if m.neq else ():     # (no equalities: no rows to walk)
        p1, p2, b1, b2 = equality_anchors(model, data, e)
        force, torque = data.efc_force[i:i + 3], np.zeros(3)
        if weld:
            q1r, q2 = weld_frames(model, data, e)
            E = np.array([quat_mul(quat_mul(quat_conj(q2), np.r_[0.0, axis]), q1r)[1:] for axis in np.eye(3)]).T
            torque = 0.5 * m.eq_data[e, 10] * E.T @ data.efc_force[i + 3:i + 6]
        push(np.array([b1, b2]), np.array([p1, p2]), np.array([torque, -torque]), np.array([force, -force]))
        out[0] = 0.0
    return out


_NO_WRENCH = (0.0,) * 6          # a body no contact has pushed yet


def contact_wrenches(model, data):
    r"""The c-frame wrenches of the contact forces, ``{body: [τ; F]}`` for every body but the
    world that a contact with rows pushes. A contact's force :math:`F` and torque :math:`\tau`
    (:func:`~rbdl_edu.constraint.rows.contact_forces`, turned from the contact frame to the world: :math:`\mathrm{frame}^T f`)
    act at its point :math:`p` on ``geom2``'s body and, opposite, on ``geom1``'s: about the
    body's c-frame point :math:`c`, :math:`\pm[\tau + (p - c) \times F;\ F]`, added contact by contact.

    A walking robot has a handful of contacts and each is a few numbers: this pass is on Python
    numbers. Measured inside a step of the trotting mouse (5 contacts, 2026-11), it costs about
    two thirds of the same as array operations (their many small NumPy calls cost more than
    the arithmetic).

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
    ...   <body pos="0 0 .099"><freejoint/><geom size=".1" mass="1"/></body></worldbody></mujoco>''')
    >>> data = rbd.Data(model); rbd.forward(model, data)
    >>> np.round(contact_wrenches(model, data)[1], 4)       # the floor holds the ball up, at its center
    array([ 0.    ,  0.    ,  0.    ,  0.    ,  0.    , 11.8195])
    """
    m = plain(model)
    contacts = [con for con in data.contact if con.efc_address >= 0]
    if not contacts:
        return {}
    body, root, com = m.geom_bodyid, m.body_rootid, data.subtree_com
    out = {}
    for con, (f0, f1, f2, f3, f4, f5) in zip(contacts, contact_forces(m, contacts, data.efc_force)):
        (n0, n1, n2), (a0, a1, a2), (b0, b1, b2) = con.frame.tolist()      # the rows: normal and tangents
        F0, F1, F2 = f0 * n0 + f1 * a0 + f2 * b0, f0 * n1 + f1 * a1 + f2 * b1, f0 * n2 + f1 * a2 + f2 * b2
        t0, t1, t2 = f3 * n0 + f4 * a0 + f5 * b0, f3 * n1 + f4 * a1 + f5 * b1, f3 * n2 + f4 * a2 + f5 * b2
        p0, p1, p2 = con.pos.tolist()
        for g, sign in ((con.geom1, -1.0), (con.geom2, 1.0)):
            i = int(body[g])
            if i == 0:
                continue
            c0, c1, c2 = com[root[i]].tolist()
            r0, r1, r2 = p0 - c0, p1 - c1, p2 - c2
            w = (t0 + (r1 * F2 - r2 * F1), t1 + (r2 * F0 - r0 * F2), t2 + (r0 * F1 - r1 * F0), F0, F1, F2)
            out[i] = [x + sign * y for x, y in zip(out.get(i, _NO_WRENCH), w)]
    return out


def subtree_vel(model, data):
    r"""MuJoCo's ``mj_subtreeVel``: ``subtree_linvel (nbody, 3)``, the velocity of each subtree's
    center of mass, and ``subtree_angmom (nbody, 3)``, the subtree's angular momentum about it
    (world axes), all bodies at once (the sums over children become sums over subtrees,
    :func:`~rbdl_edu.smooth.comframe.subtree_sums`). Needs :func:`~rbdl_edu.smooth.comframe.com_pos`
    and ``cvel``.

    With :math:`v_i`, :math:`\omega_i` the velocity of body ``i``'s center of mass and its angular
    velocity, :math:`m` the masses and :math:`c` the subtree centers of mass:

    .. math::

        \dot c_i = \frac{1}{m_{sub,i}} \Big(m_i v_i + \sum_{k \in children} m_{sub,k} \dot c_k\Big)

        L_i = I_i \omega_i + (x_{i,com} - c_i) \times m_i (v_i - \dot c_i)
              + \sum_{k \in children} \big(L_k + (c_k - c_i) \times m_{sub,k} (\dot c_k - \dot c_i)\big)

    >>> import rbdl_edu as rbd
    >>> from rbdl_edu.smooth.comframe import com_pos, com_vel_acc
    >>> from rbdl_edu.kinematics import kinematics
    >>> model = rbd.models.pendulum(); data = rbd.Data(model); data.qvel[:] = 2.0
    >>> kinematics(model, data); com_pos(model, data); com_vel_acc(model, data); subtree_vel(model, data)
    >>> data.subtree_linvel[1], data.subtree_angmom[1]   # the bob, 1 m below: -x at 2 m/s; spin I ω
    (array([-2.,  0.,  0.]), array([0., 2., 0.]))
    """
    m, c = plain(model), data.subtree_com
    parent = m.body_parentid
    # [ω; v] at each body's center of mass (MuJoCo's mj_objectVelocity), all bodies at once
    w = data.cvel[:, :3]
    v = data.cvel[:, 3:] + cross(w, data.xipos - c[m.body_rootid])
    # each subtree's linear momentum: the sum of its bodies' m v (a sum over the subtree)
    linvel = subtree_sums(m) @ (m.body_mass[:, None] * v) / np.maximum(m.body_subtreemass, 1e-15)[:, None]
    # each body's spin I ω (I = R diag(I) R^T, R = ximat) and its own motion about its subtree's
    # center of mass; each subtree's center of mass moving about its parent's
    own = (np.matvec(data.ximat, m.body_inertia * np.matvec(data.ximat.mT, w))
           + cross(data.xipos - c, m.body_mass[:, None] * (v - linvel)))
    moved = cross(c - c[parent], m.body_subtreemass[:, None] * (linvel - linvel[parent]))
    # L_i: the own terms of i's subtree, and the moved terms of the bodies below i
    L = subtree_sums(m) @ own + strictly_below(m) @ moved
    data.subtree_linvel, data.subtree_angmom = linvel, L


@per_model
def strictly_below(model):
    """``(nbody, nbody)``: :func:`~rbdl_edu.smooth.comframe.subtree_sums` without each body
    itself (1.0 where body ``k`` is below body ``i``)."""
    return subtree_sums(model) - np.diag(body_not_world(model))


def spatial_path(model, t):
    """The path of tendon ``t`` if it is a spatial tendon through sites and pulleys only, as
    ``(wrap type, site or divisor)`` pairs; ``None`` for a fixed tendon or one that wraps
    around geoms."""
    path = [(int(model.wrap_type[w]), model.wrap_objid[w] if model.wrap_type[w] == WRAP_SITE else model.wrap_prm[w])
            for w in range(model.tendon_adr[t], model.tendon_adr[t] + model.tendon_num[t])]
    return path if path and all(kind in (WRAP_SITE, WRAP_PULLEY) for kind, _ in path) else None


def _segments(model, t):
    """The straight pieces ``(site a, site b, divisor)`` of a spatial tendon: a pulley splits the
    path into branches, and divides the lengths of the branch after it."""
    path, divisor = spatial_path(model, t), 1.0
    for (kind_a, a), (kind_b, b) in zip(path, path[1:]):
        if kind_b == WRAP_PULLEY:
            divisor = b
        if WRAP_PULLEY not in (kind_a, kind_b):
            yield a, b, divisor


def tendon_acceleration(model, data, t):
    r""":math:`\ddot L` of a spatial tendon through sites: per straight piece of length
    :math:`\ell = |\Delta p|` along :math:`u = \Delta p / \ell` (divided by its divisor),

    .. math:: \ddot\ell = u \cdot \Delta\ddot p + \frac{|\Delta\dot p|^2 - (u\cdot\Delta\dot p)^2}{\ell}

    from the sites' velocities and accelerations (``cvel``, ``cacc``)."""
    out = 0.0
    for a, b, divisor in _segments(model, t):
        dp = data.site_xpos[b] - data.site_xpos[a]
        dv = object_velocity(model, data, OBJ_SITE, b)[3:] - object_velocity(model, data, OBJ_SITE, a)[3:]
        da = object_acceleration(model, data, OBJ_SITE, b)[3:] - object_acceleration(model, data, OBJ_SITE, a)[3:]
        ell = np.linalg.norm(dp)
        if ell > 1e-15:
            u = dp / ell
            out += (u @ da + (dv @ dv - (u @ dv) ** 2) / ell) / divisor
    return out


def tendon_tension(model, data, t):
    r"""The force along tendon ``t`` (negative pulls): its spring :math:`-k\,(L - L_{spring})`
    outside the dead band ``tendon_lengthspring``, its damper :math:`-b\,\dot L`, its
    actuators :math:`\sum g_k\,f_k`, its armature :math:`-I_a \ddot L`, and the constraint
    forces of its limits, friction loss and equalities (:func:`tendon_constraint_force`)."""
    m = model
    L, T = data.ten_length[t], tendon_constraint_force(model, data, t)
    if not m.opt.disabled("spring"):
        lower, upper = m.tendon_lengthspring[t]
        T -= m.tendon_stiffness[t] * (L - upper if L > upper else (L - lower if L < lower else 0.0))
    if not m.opt.disabled("damper"):
        T -= m.tendon_damping[t] * data.ten_velocity[t]
    pulling = (m.actuator_trntype == TRN_TENDON) & (m.actuator_trnid[:, 0] == t)
    rows = m.actuator_outadr[pulling]                     # (each has one output)
    T += float(m.actuator_gear[rows, 0] @ data.actuator_force[rows])
    if m.tendon_armature[t]:
        T -= m.tendon_armature[t] * tendon_acceleration(m, data, t)
    return T


def tendon_constraint_force(model, data, t):
    r"""The constraint force along tendon ``t``: each row that constrains it pushes with its
    force :math:`f` times the row's coefficient on the tendon's Jacobian: a friction loss 1,
    a limit :math:`\mp 1` (its row is :math:`\mp J_t`), a tendon equality 1 on its first
    tendon and :math:`-p'(x_2)` on its second (:mod:`rbdl_edu.constraint.rows`)."""
    m, T = model, 0.0
    for i in range(data.nefc):
        kind, k = data.efc_type[i], data.efc_id[i]
        if kind == CNSTR_FRICTION_TENDON and k == t:
            T += data.efc_force[i]
        elif kind == CNSTR_LIMIT_TENDON and k == t:
            T += np.sign(data.efc_J[i] @ data.ten_J[t]) * data.efc_force[i]
        elif kind == CNSTR_EQUALITY and m.eq_type[k] == EQ_TENDON and t in (m.eq_obj1id[k], m.eq_obj2id[k]):
            if m.eq_obj1id[k] == t:
                T += data.efc_force[i]
            if m.eq_obj2id[k] == t:
                # J = J_1 - p'(x_2) J_2: the second tendon's coefficient is -p'
                a, x = m.eq_data[k, :5], data.ten_length[t] - m.tendon_length0[t]
                T -= (a[1] + 2 * a[2] * x + 3 * a[3] * x ** 2 + 4 * a[4] * x ** 3) * data.efc_force[i]
    return T


@per_model
def spatial_tendons(model):
    """True if the model has a spatial tendon through sites and pulleys, whose pull
    :func:`tendon_wrenches` adds (once per model)."""
    return any(spatial_path(model, t) is not None for t in range(model.ntendon))


def tendon_wrenches(model, data):
    r"""``(nbody, 6)``: the c-frame wrench every spatial tendon through sites and pulleys applies
    to the bodies it runs over. A straight piece from site ``a`` to site ``b`` under tension
    :math:`T` (:func:`tendon_tension`, divided by the piece's divisor) pulls each end toward
    the other: :math:`F_a = T\,(p_a - p_b)/\ell` at :math:`p_a`. (Tendons that wrap around
    geoms are left out; the force sensors refuse them.)"""
    m = model
    out = np.zeros((m.nbody, 6))
    for t in range(m.ntendon):
        if spatial_path(m, t) is None:
            continue
        T = tendon_tension(m, data, t)
        if T == 0.0:
            continue
        for a, b, divisor in _segments(m, t):
            for site, other in ((a, b), (b, a)):
                body, p = m.site_bodyid[site], data.site_xpos[site]
                ell = np.linalg.norm(p - data.site_xpos[other])
                if body == 0 or ell <= 1e-15:
                    continue
                F = T / divisor * (p - data.site_xpos[other]) / ell
                out[body] += np.concatenate([cross(p - data.subtree_com[m.body_rootid[body]], F), F])
    return out
