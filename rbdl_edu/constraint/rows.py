r"""Constraint rows: every constraint the model has at this state, as rows of one Jacobian
(MuJoCo's ``mj_makeConstraint``; book, chapter 10).

A constraint says something about a scalar "constraint coordinate" :math:`c(q)` whose
velocity is :math:`J\dot q`: a row of ``efc_J (nefc, nv)`` with its position ``efc_pos``
(how far :math:`c` is from where the constraint wants it; negative: violated), a margin,
and what kind of row it is (``efc_type``, ``efc_id``: the object it comes from). Rows come
in MuJoCo's order, counted by ``ne``, ``nf``, ``nl``:

=================  ===========================================================================
equality (``ne``)  ``connect`` (3 rows: the two anchor points coincide), ``weld`` (6: and the
                   two frames turn alike, scaled by ``torquescale``), ``joint``/``tendon``
                   (1: :math:`q_1 - q_{1,0} = \text{poly}(q_2 - q_{2,0})`)
friction (``nf``)  dof and tendon ``frictionloss``: a row with no position whose force is
                   bounded by :math:`\pm` frictionloss
limit (``nl``)     a hinge or slide outside ``range`` (+ ``margin``), one row per side; a ball
                   joint turned beyond ``range[1]``: one row along its rotation axis; a tendon
                   longer or shorter than its range
contact            per contact closer than its ``includemargin``, in a frame ``(n, t_1, t_2)``:
                   ``dim`` 1: the normal :math:`J_n`; elliptic cones: ``dim`` rows
                   :math:`J_n, J_{t_1}, J_{t_2}` (+ spin :math:`J_{\omega n}`, + rolling
                   :math:`J_{\omega t_1}, J_{\omega t_2}`), one force in the cone
                   :math:`\mu`-ellipse; pyramidal cones: :math:`2(\text{dim}-1)` edges
                   :math:`J_n \pm \mu_k J_k`, each force :math:`\ge 0`
=================  ===========================================================================

A contact's Jacobian is that of the contact point on ``geom2``'s body minus on ``geom1``'s
(the normal points from ``geom1`` to ``geom2``), turned into the contact frame; an
equality's is the first object's minus the second's. Rows other than contacts whose
Jacobian is zero (a constraint on bodies welded to the world) are left out.

The rows' softness (``efc_R``, ``efc_KBIP``, ...) and reference accelerations come from
:mod:`rbdl_edu.constraint.impedance`; the forces from :mod:`rbdl_edu.constraint.solver`. The simulation stages
are float-only (NumPy).

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
...   <body pos="0 0 .09"><freejoint/><geom size=".1"/></body></worldbody></mujoco>''')
>>> data = rbd.Data(model); rbd.forward(model, data)
>>> data.ncon, data.nefc, data.efc_pos.round(6)        # 1 contact, 4 pyramid edges, 1 cm deep
(1, 4, array([-0.01, -0.01, -0.01, -0.01]))
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.constraint.blocks import Rows, blocks, equality_bodies
from rbdl_edu.constraint.impedance import diag_approx, make_impedance, weights
from rbdl_edu.constraint.island import body_treeid
from rbdl_edu.constraint.limits import (ball_limits, ball_rotation, hinge_slide_limits, limit_rows,  # noqa
                                        limited_tendons)            # (ball_rotation: the module's API, F401)
from rbdl_edu.model.enums import (CNSTR_CONTACT_ELLIPTIC, CNSTR_CONTACT_FRICTIONLESS, CNSTR_CONTACT_PYRAMIDAL,
                                  CNSTR_EQUALITY, CNSTR_FRICTION_DOF, CNSTR_FRICTION_TENDON, EQ_CONNECT, EQ_JOINT,
                                  EQ_WELD, OBJ_BODY)
from rbdl_edu.model.frozen import plain
from rbdl_edu.rnea import rnea_passes
from rbdl_edu.rotation import cross, quat_conj, quat_mul
from rbdl_edu.smooth.comframe import jac, path_dofs, posed, to_cframe


def make_constraint(model, data):
    """Fill the ``efc_*`` rows of the module docstring at the current poses and contacts,
    then their softness (:func:`~rbdl_edu.constraint.impedance.diag_approx`,
    :func:`~rbdl_edu.constraint.impedance.make_impedance`). Needs the kinematics, ``com_pos`` (``cdof``),
    the tendons and :func:`~rbdl_edu.collision.collision`."""
    awake = None                                         # (the dofs of awake trees, when some sleep)
    if max(data.tree_asleep.tolist(), default=-1) >= 0:
        asleep = data.tree_asleep[dof_treeid(model)] >= 0
        awake = ~asleep if asleep.any() else None
    rows = Rows(awake)
    for con in data.contact:
        con.efc_address = -1
    if not model.opt.disabled("constraint"):
        if other_rows(model):                            # (a model of contacts alone skips these)
            equality_rows(model, data, rows)
            friction_rows(model, data, rows)
            limit_rows(model, data, rows)
        contact_rows(model, data, rows)
    nv = model.nv
    data.ne, data.nf, data.nl, data.nefc = rows.ne, rows.nf, rows.nl, len(rows.type)
    data.efc_J = (rows.J[0] if len(rows.J) == 1 else np.concatenate(rows.J)) if rows.J else np.zeros((0, nv))
    data.efc_pos, data.efc_margin = np.array(rows.pos, float), np.array(rows.margin, float)
    data.efc_frictionloss = np.array(rows.frictionloss, float)
    data.efc_type, data.efc_id = np.array(rows.type, dtype=int), np.array(rows.id, dtype=int)
    diag_approx(model, data, rows.blocks)
    make_impedance(model, data, rows.blocks)


@per_model
def other_rows(model):
    """False for a model that can have no rows but contacts' (no equality, friction loss or limit)."""
    dofs, tendons = frictional(model)
    return bool(model.neq or dofs or tendons or len(hinge_slide_limits(model)[0]) or ball_limits(model)
                or limited_tendons(model))


# -- equality ---------------------------------------------------------------------------------
def equality_anchors(model, data, e):
    """``(p1, p2, b1, b2)``: the world points a connect or weld ``e`` holds together and their
    bodies. Bodies: a connect's anchor is given in body 1 (``eq_data[0:3]``) and, at
    ``qpos0``, in body 2 (``[3:6]``); a weld's anchor in body 2 (``[0:3]``) and body 1
    (``[3:6]``). Sites: the sites themselves."""
    m, d = model, model.eq_data[e]
    o1, o2 = m.eq_obj1id[e], m.eq_obj2id[e]
    b1, b2 = equality_bodies(m, e)
    if m.eq_objtype[e] != OBJ_BODY:
        return data.site_xpos[o1], data.site_xpos[o2], b1, b2
    a1, a2 = (d[0:3], d[3:6]) if m.eq_type[e] == EQ_CONNECT else (d[3:6], d[0:3])
    return data.xpos[b1] + data.xmat[b1] @ a1, data.xpos[b2] + data.xmat[b2] @ a2, b1, b2


def weld_frames(model, data, e):
    """``(q_1 r, q_2)``: the orientations a weld wants equal, body 1's times the relative pose
    ``eq_data[6:10]`` (bodies) or the two sites' (sites)."""
    m = model
    _, _, b1, b2 = equality_anchors(model, data, e)
    if m.eq_objtype[e] == OBJ_BODY:
        return quat_mul(data.xquat[b1], m.eq_data[e, 6:10]), data.xquat[b2]
    o1, o2 = m.eq_obj1id[e], m.eq_obj2id[e]
    return quat_mul(data.xquat[b1], m.site_quat[o1]), quat_mul(data.xquat[b2], m.site_quat[o2])


def equality_rows(model, data, rows):
    """Rows of the active equality constraints (``data.eq_active``), in model order."""
    m = model
    if m.opt.disabled("equality"):
        return
    for e in range(m.neq):
        if not data.eq_active[e]:
            continue
        kind = m.eq_type[e]
        if kind in (EQ_CONNECT, EQ_WELD):
            p1, p2, b1, b2 = equality_anchors(model, data, e)
            jacp1, jacr1 = jac(m, data, b1, p1)
            jacp2, jacr2 = jac(m, data, b2, p2)
            # connect: c = p1 - p2, J = J_p1 - J_p2
            J, pos = jacp1 - jacp2, p1 - p2
            if kind == EQ_WELD:
                # weld: the vector part of q_2^-1 q_1 r (zero when the frames agree), and its
                # Jacobian 1/2 q_2^-1 (0, J_r1 - J_r2) q_1 r, both scaled by torquescale
                q1r, q2 = weld_frames(model, data, e)
                scale = m.eq_data[e, 10]
                q2inv = quat_conj(q2)
                err = quat_mul(q2inv, q1r)[1:] * scale
                omega = np.concatenate([np.zeros((1, m.nv)), jacr1 - jacr2])      # (0, axis) columns
                Jr = 0.5 * quat_mul(quat_mul(q2inv, omega.T), q1r)[:, 1:].T * scale
                J, pos = np.concatenate([J, Jr]), np.concatenate([pos, err])
            rows.add(J, pos, 0.0, 0.0, CNSTR_EQUALITY, e)
        else:
            pos, J = _scalar_equality(model, data, e)
            rows.add(J, pos, 0.0, 0.0, CNSTR_EQUALITY, e)


def _scalar_equality(model, data, e):
    r"""Joint or tendon coupling ``e``: with :math:`x_i` the joint positions (or tendon lengths)
    minus their values at ``qpos0``, :math:`c = x_1 - p(x_2)`,
    :math:`p(x) = a_0 + a_1 x + a_2 x^2 + a_3 x^3 + a_4 x^4` (``eq_data[0:5]``; without a second
    object :math:`c = x_1 - a_0`); :math:`J = J_1 - p'(x_2) J_2`."""
    m, a = model, model.eq_data[e, :5]

    def value_and_row(k):
        if m.eq_type[e] == EQ_JOINT:
            adr, row = m.jnt_qposadr[k], np.zeros(m.nv)
            row[m.jnt_dofadr[k]] = 1.0
            return data.qpos[adr] - m.qpos0[adr], row
        return data.ten_length[k] - m.tendon_length0[k], data.ten_J[k]
    x1, J1 = value_and_row(m.eq_obj1id[e])
    if m.eq_obj2id[e] < 0:
        return x1 - a[0], J1
    x2, J2 = value_and_row(m.eq_obj2id[e])
    p = a[0] + a[1] * x2 + a[2] * x2 ** 2 + a[3] * x2 ** 3 + a[4] * x2 ** 4
    dp = a[1] + 2 * a[2] * x2 + 3 * a[3] * x2 ** 2 + 4 * a[4] * x2 ** 3
    return x1 - p, J1 - dp * J2


@per_model
def dof_treeid(model):
    """``(nv,)``: the tree of each dof (:func:`~rbdl_edu.constraint.island.body_treeid` of its body)."""
    return body_treeid(model)[plain(model).dof_bodyid]


def jdotv(model, data, passes=None):
    r""":math:`\dot J \dot q` of the equality rows, ``(ne,)`` (MuJoCo 4.0's ``mj_Jdotv``; zero
    on joint and tendon rows, as MuJoCo's): for connect and weld rows the acceleration each
    anchor point has when :math:`\ddot q = 0`, without gravity, and for a weld's rotation
    rows the time derivative of its Jacobian's quaternion product. ``passes``: RNEA's passes
    at :math:`\ddot q = 0` (the velocity stage has them), else computed here."""
    m, out = model, np.zeros(data.ne)
    if not data.ne or next(anchored_equalities(m, data), None) is None:
        return out
    if passes is None:
        passes = rnea_passes(posed(m, data), data.qpos, data.qvel, np.zeros(m.nv))
    # each body's c-frame acceleration at zero qacc, without the world's -g
    acc0 = np.array([np.zeros(6)] + [to_cframe(m, data, i, passes.a[i]) - passes.a[0] for i in range(1, m.nbody)])

    def point_acc(b, p):               # classical acceleration of point p on body b
        w, c = data.cvel[b, :3], data.subtree_com[m.body_rootid[b]]
        v = data.cvel[b, 3:] + cross(w, p - c)
        return acc0[b, 3:] + cross(acc0[b, :3], p - c) + cross(w, v)
    for i, e, weld in anchored_equalities(m, data):
        p1, p2, b1, b2 = equality_anchors(model, data, e)
        out[i:i + 3] = point_acc(b1, p1) - point_acc(b2, p2)
        if weld:
            # d/dt of 1/2 q_2^-1 (0, w_1 - w_2) q_1 r at zero qacc, with q̇ = 1/2 (0, w) q (world w):
            # 1/2 q_2^-1 [-1/2 (0, w_2)(0, dw) + (0, dalpha) + 1/2 (0, dw)(0, w_1)] q_1 r
            q1r, q2 = weld_frames(model, data, e)
            w1, w2 = np.r_[0.0, data.cvel[b1, :3]], np.r_[0.0, data.cvel[b2, :3]]
            dw, dalpha = w1 - w2, np.r_[0.0, acc0[b1, :3] - acc0[b2, :3]]
            inner = -0.5 * quat_mul(w2, dw) + dalpha + 0.5 * quat_mul(dw, w1)
            out[i + 3:i + 6] = 0.5 * quat_mul(quat_mul(quat_conj(q2), inner), q1r)[1:] * m.eq_data[e, 10]
    return out


def anchored_equalities(model, data):
    """The connect and weld constraints among the equality rows, as ``(i, e, weld)``: ``i`` the
    first of their rows in ``efc_*`` (three for the anchor points, then a weld's three
    rotation rows), ``e`` the equality, ``weld`` whether it is a weld."""
    for i, _, kind, e in blocks(model, data):
        if kind != CNSTR_EQUALITY:
            return                                   # the equality rows come first
        if model.eq_type[e] in (EQ_CONNECT, EQ_WELD):
            yield i, e, model.eq_type[e] == EQ_WELD


# -- friction loss and limits -----------------------------------------------------------------
def friction_rows(model, data, rows):
    """A row per dof with ``frictionloss`` (a unit Jacobian) and per tendon with one (its
    Jacobian), no position."""
    m = plain(model)
    if m.opt.disabled("frictionloss"):
        return
    dofs, tendons = frictional(model)
    for i in dofs:
        J = np.zeros(m.nv)
        J[i] = 1.0
        rows.add(J, 0.0, 0.0, m.dof_frictionloss[i], CNSTR_FRICTION_DOF, i)
    for t in tendons:
        rows.add(data.ten_J[t], 0.0, 0.0, m.tendon_frictionloss[t], CNSTR_FRICTION_TENDON, t)


@per_model
def frictional(model):
    """``(dofs, tendons)``: those with friction loss, tuples."""
    m = plain(model)
    dofs, tendons = np.flatnonzero(m.dof_frictionloss != 0), np.flatnonzero(m.tendon_frictionloss > 0)
    return tuple(dofs.tolist()), tuple(tendons.tolist())


# -- contacts ---------------------------------------------------------------------------------
def contact_rows(model, data, rows):
    """The rows of each contact closer than its margin (module docstring), all contacts at
    once; sets each contact's ``efc_address``."""
    m = plain(model)
    if m.opt.disabled("contact") or m.nv == 0:
        return
    elliptic = m.opt.cone == "elliptic"
    live = [k for k, con in enumerate(data.contact) if not con.exclude]
    if not live:
        return
    # all contacts at once: each point's velocity on body 2 relative to body 1, in its frame,
    # (ncon, 6, nv): the normal, two tangents, spin, two rolling directions
    cons = [data.contact[k] for k in live]
    points, frame = np.array([con.pos for con in cons]), np.array([con.frame for con in cons])
    geom_body = weights(model)[1]
    bodies = np.array([[geom_body[con.geom1], geom_body[con.geom2]] for con in cons])
    J = contact_jacobians(model, data, bodies, points, frame)
    dims = [con.dim for con in cons]
    counts = dims if elliptic else [2 * (dim - 1) if dim > 1 else 1 for dim in dims]    # contact_row_count
    width = max(counts)                                  # the most rows a contact has
    if elliptic:
        # the first dim directions; the position is the normal row's alone
        candidates = J[:, :width]
        pos = sum([[con.dist] + [0.0] * (n - 1) for con, n in zip(cons, counts)], [])
        margin = sum([[con.includemargin] + [0.0] * (n - 1) for con, n in zip(cons, counts)], [])
    else:
        # the pyramid's edges, in pairs: J_n + mu_k J_k and J_n - mu_k J_k
        k = width // 2                                   # friction directions
        candidates = np.empty((len(cons), width, m.nv))
        if k:
            muJ = np.array([con.friction[:k] for con in cons])[:, :, None] * J[:, 1:k + 1]
            # (J_n + mu_k J_k, J_n - mu_k J_k) for each k, as J_n + (±mu_k J_k): the same numbers
            candidates = (J[:, :1, None] + muJ[:, :, None] * _EDGE_SIGNS).reshape(len(cons), width, m.nv)
        pos, margin = [], []
        for con, n in zip(cons, counts):
            pos += [con.dist] * n
            margin += [con.includemargin] * n
        if 1 in dims:                                    # frictionless: the normal alone
            candidates[np.array(dims) == 1, 0] = J[np.array(dims) == 1, 0]
    kind = CNSTR_CONTACT_ELLIPTIC if elliptic else CNSTR_CONTACT_PYRAMIDAL
    kinds = [CNSTR_CONTACT_FRICTIONLESS if dim == 1 else kind for dim in dims]
    if min(counts) == width:                             # (all alike: every candidate is a row)
        J = candidates.reshape(-1, m.nv)
    else:
        J = candidates[np.arange(width) < np.array(counts)[:, None]]     # each contact's first rows
    address = len(rows.type)
    for con, n in zip(cons, counts):
        con.efc_address, address = address, address + n
    rows.extend(J, pos, margin, [0.0] * len(pos), kinds, live, counts)


_EDGE_SIGNS = np.array([[1.0], [-1.0]])      # a pyramid's two edges of each friction direction


def contact_jacobians(model, data, bodies, points, frames):
    r"""``(ncon, 6, nv)``: of contacts at ``points (ncon, 3)`` between ``bodies (ncon, 2)``,
    the velocity of the point on body 2 relative to the point on body 1, translation then
    rotation, in the contact frames ``frames (ncon, 3, 3)`` (MuJoCo's ``mj_jac`` of both
    points, subtracted and turned). With :math:`(\omega_j, v_j)` the dof columns ``cdof``
    (about their tree's com :math:`c`), dof :math:`j` moves the point at
    :math:`v_j + \omega_j \times (p - c)` and turns it at :math:`\omega_j`, counted with the sign
    :math:`s_j = [j \text{ on body 2's path}] - [j \text{ on body 1's path}]` (a dof on both
    paths moves both points alike)."""
    ncon, nv = len(points), model.nv
    w, v = data.cdof[:, :3], data.cdof[:, 3:]
    r = points[:, None, :] - data.subtree_com[dof_rootid(model)]           # (ncon, nv, 3)
    on = path_sign(model)
    s = on[bodies[:, 1]] - on[bodies[:, 0]]                                    # (ncon, nv)
    J = np.empty((ncon, 2, 3, nv))             # (ncon, 6, nv): the translation rows, then the rotation rows
    J[:, 0], J[:, 1] = (v + cross(w, r)).transpose(0, 2, 1), w.T
    J *= s[:, None, None]
    # the translation rows and the rotation rows each turned into the contact frame
    return (frames[:, None] @ J).reshape(ncon, 6, nv)


@per_model
def dof_rootid(model):
    """``(nv,)``: the root body of each dof's tree (whose ``subtree_com`` its ``cdof`` is about)."""
    m = plain(model)
    return m.body_rootid[m.dof_bodyid]


@per_model
def path_sign(model):
    """``(nbody, nv)``: :func:`path_mask` as numbers, 1.0 on the path, else 0.0."""
    return path_mask(model).astype(float)


@per_model
def path_mask(model):
    """``(nbody, nv)`` booleans: dof ``j`` on the path from the world to body ``b``."""
    mask = np.zeros((model.nbody, model.nv), dtype=bool)
    for b in range(1, model.nbody):
        mask[b, path_dofs(model, b)] = True
    return mask


def contact_force(model, data, k):
    r"""Contact ``k``'s force in its own frame, ``(6,)``: normal, two tangential, spin and two
    rolling torques (zeros beyond ``dim``; all zero without rows); :func:`contact_forces`
    of the one contact.

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
    ...   <body pos="0 0 .099"><freejoint/><geom size=".1" mass="1"/></body></worldbody></mujoco>''')
    >>> data = rbd.Data(model); rbd.forward(model, data)
    >>> contact_force(model, data, 0).round(4)          # a 1 kg ball pressed 1 mm into the floor
    array([11.8195,  0.    ,  0.    ,  0.    ,  0.    ,  0.    ])
    """
    con = data.contact[k]
    if con.efc_address < 0:
        return np.zeros(6)
    return np.array(contact_forces(model, [con], data.efc_force)[0])


def contact_forces(model, contacts, efc_force):
    r"""The forces of ``contacts`` (each with rows) in their own frames, a list of 6 numbers
    each (MuJoCo's ``mj_contactForce``), from ``efc_force`` (an array or a list): an elliptic
    cone's (or a ``dim`` 1 contact's) forces are its rows'; a pyramid's edge forces
    :math:`f_{k\pm}` give the normal force :math:`\sum (f_{k+} + f_{k-})`, added one by one
    as MuJoCo, and the friction :math:`\mu_k (f_{k+} - f_{k-})`. An adhesive contact reports
    the net force: its normal component less the adhesion :math:`\delta` (negative when it
    pulls). On Python numbers: a handful of contacts of a few numbers each, where an array
    call or two per contact would cost more than the arithmetic.

    >>> import rbdl_edu as rbd
    >>> model = rbd.load_model('''<mujoco><worldbody><geom type="plane" size="1 1 .1"/>
    ...   <body pos="0 0 .099"><freejoint/><geom size=".1" mass="1"/></body></worldbody></mujoco>''')
    >>> data = rbd.Data(model); data.qvel[:2] = 1.0; rbd.forward(model, data)    # sliding: friction too
    >>> np.round(contact_forces(model, data.contact, data.efc_force)[0], 4)
    array([ 41.4046, -20.7023,  20.7023,   0.    ,   0.    ,   0.    ])
    """
    elliptic, out = model.opt.cone == "elliptic", []
    efc = efc_force if isinstance(efc_force, list) else efc_force.tolist()
    for con in contacts:
        a, dim, f = con.efc_address, con.dim, [0.0] * 6
        if dim == 1 or elliptic:
            f[:dim] = efc[a:a + dim]
        else:
            edges = efc[a:a + 2 * (dim - 1)]
            f[0] = sum(edges)
            f[1:dim] = [(plus - minus) * mu for plus, minus, mu in zip(edges[0::2], edges[1::2], con.friction.tolist())]
        f[0] -= con.adhesion
        out.append(f)
    return out
