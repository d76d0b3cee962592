r"""Sleeping: trees that come to rest stop being simulated until something wakes them
(MuJoCo 4.0's ``<flag sleep="enable"/>``, ``engine_sleep.c``; book, chapter 10).

A pile of boxes that has settled still costs a full step: collisions, rows, a solve, all to
find that nothing moves. With sleep enabled, MuJoCo puts such trees to *sleep*. This module
holds its rules; :func:`~rbdl_edu.simulation.forward.position` and
:func:`~rbdl_edu.simulation.integrators.advance` call them where MuJoCo's pipeline does.

**The counter.** Each kinematic tree (the bodies below one moving child of the world,
:func:`~rbdl_edu.constraint.island.body_treeid`) has ``data.tree_asleep[t]``: from
``-(1 + MINAWAKE) = -11`` (moving) up to ``-1`` while awake, ``>= 0`` asleep. At the end of
each step, before the velocities advance, a tree *at rest* counts up by one and a moving
one goes back to -11. At rest means

.. math:: \max_i\ \ell_i\,|\dot q_i| < \texttt{sleep\_tolerance} \;(10^{-3}),

over the tree's dofs, :math:`\ell_i` being 1 for a sliding dof and the body's size for a
rotating one (:func:`dof_length`: a tip speed), with no ``xfrc_applied`` or
``qfrc_applied`` on the tree and a policy that lets it sleep (:func:`tree_sleep_policy`).

**Islands sleep together.** The trees that constraint rows join (an island,
:mod:`rbdl_edu.constraint.island`: a stack of boxes) fall asleep together, at the step where
all of them reach -1 (10 steps at rest); a tree no row touches sleeps alone. Asleep,
``tree_asleep[t]`` is the next tree of its island (a cycle, so that waking one wakes all).
Its ``qvel`` and ``qacc`` are set to zero, the stages after the poses run again to see it
at rest (MuJoCo's ``mj_forwardSkip``), and from then on:

* its ``qpos`` and ``qvel`` are not advanced (``qvel`` reads 0);
* its geoms make no contact with the static world or with other sleepers, and a row whose
  Jacobian lives on sleeping dofs only (limit, friction loss, equality) is not made;
* its ``qacc`` reads ``qacc_smooth``, the smooth dynamics at rest (MuJoCo leaves the value
  of the last computation there: the same numbers);
* a sensor on it holds its value (:func:`hold_sensors`).

**Waking.** A sleeping island wakes, all of it, when (MuJoCo's ``mj_wake*``):

* a body of it is moved (its pose differs from the last), or given a velocity or an applied
  force: back to -11;
* a contact joins it to an awake tree: it takes that tree's counter (a ball dropped on a
  sleeping box wakes it at -11);
* an equality joins it to an awake tree: back to -11;
* a limited tendon from an awake tree reaches its limit: it takes that tree's counter.

A body's ``sleep`` attribute sets its tree's policy (:func:`tree_sleep_policy`): ``never``,
``allowed``, or ``init``: asleep from the start (put to sleep by the first
:func:`~rbdl_edu.simulation.forward.forward`, MuJoCo when it makes ``mjData``,
:func:`start_asleep`).

>>> import rbdl_edu as rbd
>>> model = rbd.load_model('''<mujoco><option><flag sleep="enable"/></option><worldbody>
...   <geom type="plane" size="1 1 .1"/>
...   <body pos="0 0 .1"><freejoint/><geom type="box" size=".1 .1 .1"/></body></worldbody></mujoco>''')
>>> data = rbd.Data(model); rbd.step(model, data, 40)
>>> data.tree_asleep                                # settling, then 10 steps at rest: -11 ... -2
array([-2])
>>> rbd.step(model, data)
>>> data.tree_asleep, data.qvel                     # asleep (a cycle of one), still
(array([0]), array([0., 0., 0., 0., 0., 0.]))
>>> data.ncon, rbd.step(model, data), data.ncon     # the next step makes no contact with the floor
(4, None, 0)
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.collision.geometry import geom_rbound
from rbdl_edu.constraint.blocks import equality_bodies
from rbdl_edu.constraint.island import body_treeid, islands
from rbdl_edu.kinematics import kinematics
from rbdl_edu.model.data import Data
from rbdl_edu.model.enums import (AWAKE, EQ_CONNECT, EQ_JOINT, EQ_WELD, FREE, OBJ_ACTUATOR, OBJ_BODY,
                                  OBJ_CAMERA, OBJ_DOF, OBJ_GEOM, OBJ_JOINT, OBJ_SITE, OBJ_TENDON, OBJ_UNKNOWN,
                                  OBJ_XBODY, SENSORS, SLEEP_ALLOWED, SLEEP_AUTO, SLEEP_AUTO_ALLOWED, SLEEP_AUTO_NEVER,
                                  SLEEP_INIT, SLEEP_NEVER, SLIDE, TRN_BODY, TRN_JOINT, TRN_JOINTINPARENT, TRN_SO3,
                                  TRN_TENDON, WRAP_JOINT, WRAP_SITE)

STATIC, ASLEEP, ALIVE = -1, 0, 1    #: a body's sleep state (MuJoCo's mjS_STATIC, mjS_ASLEEP, mjS_AWAKE)


# -- constants of the model ------------------------------------------------------------------
@per_model
def tree_sleep_policy(model):
    """``(ntree,)``: each tree's policy (MuJoCo's ``tree_sleep_policy``), the ``sleep`` of its
    root body; ``auto`` becomes ``AUTO_NEVER`` on a tree an actuator drives (a motor holds a
    pose by effort), and on the trees a tendon joins if it spans more than two or pulls by a
    spring, a damper or an actuator; ``AUTO_ALLOWED`` otherwise. Such a tendon on a tree
    that is ``allowed`` or ``init`` is an error (as MuJoCo's compiler's).

    Refused by name (``NotImplementedError``), where rbdl_edu would not do what MuJoCo does:
    an actuated tree allowed to sleep, a friction loss on a tendon across trees and an
    equality on a tendon."""
    tree = body_treeid(model)
    roots = [b for b in range(1, model.nbody) if tree[b] >= 0 and tree[model.body_parentid[b]] < 0]
    policy = model.body_sleep[roots].copy()
    for i in range(model.nactuator):
        obj = model.actuator_trnid[i, 0]
        for t in tendon_trees(model)[obj] if model.actuator_trntype[i] == TRN_TENDON else [tree[actuated_body(model, i)]]:
            if t >= 0 and policy[t] == SLEEP_AUTO:
                policy[t] = SLEEP_AUTO_NEVER
            elif t >= 0 and policy[t] in (SLEEP_ALLOWED, SLEEP_INIT):
                raise NotImplementedError(f'actuator {i} drives a tree that may sleep (sleep="allowed" or "init"): a '
                                          "sleeping actuated tree is not simulated")
    for k, trees in enumerate(tendon_trees(model)):
        springy = (model.tendon_stiffness[k] or np.any(model.tendon_stiffnesspoly[k]) or model.tendon_damping[k]
                   or np.any(model.tendon_dampingpoly[k]))
        if len(trees) < 2 or (len(trees) == 2 and not springy):
            if len(trees) == 2 and model.tendon_frictionloss[k]:
                raise NotImplementedError(f"tendon {k} across two trees has a friction loss: with sleep enabled it "
                                          "is not simulated")
            continue
        for t in trees:
            if policy[t] in (SLEEP_ALLOWED, SLEEP_INIT):
                raise ValueError(f"tree {t} is joined by tendon {k}, which spans more than 2 trees or pulls by a "
                                 "spring or damper: it may not sleep (MuJoCo refuses it too)")
            policy[t] = SLEEP_AUTO_NEVER if policy[t] == SLEEP_AUTO else policy[t]
    if np.any(model.eq_type > EQ_JOINT):
        raise NotImplementedError("an equality on a tendon: sleep with it is not simulated (nor by MuJoCo 4.0)")
    return np.where(policy == SLEEP_AUTO, SLEEP_AUTO_ALLOWED, policy)


def actuated_body(model, i):
    """The body actuator ``i`` pushes: its joint's, site's or the body itself (not on a tendon)."""
    kind, obj = model.actuator_trntype[i], model.actuator_trnid[i, 0]
    if kind in (TRN_JOINT, TRN_JOINTINPARENT) or (kind == TRN_SO3 and model.actuator_trnid[i, 1] < 0):
        return model.jnt_bodyid[obj]
    if kind == TRN_BODY:
        return obj
    return model.site_bodyid[obj]          # site, slider-crank (and a site's refsite)


def tendon_bodies(model, t):
    """The bodies on tendon ``t``'s path: its joints', its sites' and its wrapping geoms'."""
    out = []
    for w in range(model.tendon_adr[t], model.tendon_adr[t] + model.tendon_num[t]):
        kind, obj = model.wrap_type[w], model.wrap_objid[w]
        if obj >= 0:
            out.append(model.jnt_bodyid[obj] if kind == WRAP_JOINT else
                       model.site_bodyid[obj] if kind == WRAP_SITE else model.geom_bodyid[obj])
    return np.array(out, dtype=int)


@per_model
def tendon_trees(model):
    """Each tendon's trees, in the order its path meets them (MuJoCo's ``tendon_treeid``)."""
    tree = body_treeid(model)
    return [list(dict.fromkeys(t for t in tree[tendon_bodies(model, k)].tolist() if t >= 0))
            for k in range(model.ntendon)]


@per_model
def dof_length(model):
    r"""``(nv,)``: MuJoCo's ``dof_length``, the length that turns a dof's speed into a tip
    speed: 1 for a sliding dof (a free joint's first three); for a rotating one the size of
    its body at ``qpos0``, the largest of :math:`|x_{com} - x_{anchor}|` over the joints on it
    and on its children, and of :math:`r_{bound} + |x_{com} - x_{geom}|` over its geoms (at
    least :math:`10^{-5}`)."""
    data = Data(model)
    kinematics(model, data)
    size, rbound = np.zeros(model.nbody), geom_rbound(model)
    for j in range(model.njnt):
        for b in (model.jnt_bodyid[j], model.body_parentid[model.jnt_bodyid[j]]):
            size[b] = max(size[b], np.linalg.norm(data.xipos[b] - data.xanchor[j]))
    for g in np.flatnonzero(rbound > 0):
        b = model.geom_bodyid[g]
        size[b] = max(size[b], rbound[g] + np.linalg.norm(data.xipos[b] - data.geom_xpos[g]))
    size = np.maximum(size, 1e-5)
    j = model.dof_jntid
    sliding = (model.jnt_type[j] == SLIDE) | ((model.jnt_type[j] == FREE) & (np.arange(model.nv) - model.jnt_dofadr[j] < 3))
    return np.where(sliding, 1.0, size[model.dof_bodyid])


@per_model
def tree_dofs(model):
    """Each tree's dofs, a list of index arrays (the dofs of one tree are contiguous)."""
    tree = body_treeid(model)[model.dof_bodyid]
    return [np.flatnonzero(tree == t) for t in range(int(tree.max(initial=-1)) + 1)]


# -- the state: who is asleep ---------------------------------------------------------------
def enabled(model):
    """True if the model sleeps (``<flag sleep="enable"/>``)."""
    return model.opt.enabled("sleep")


def body_awake(model, data, tree_asleep=None):
    """``(nbody,)`` MuJoCo's ``body_awake``: ``ALIVE`` (1) on an awake tree and on mocap
    bodies, ``ASLEEP`` (0), ``STATIC`` (-1) on the world and what is welded to it (by
    ``tree_asleep``, ``data``'s if not given)."""
    tree = body_treeid(model)
    counters = np.append(data.tree_asleep if tree_asleep is None else tree_asleep, AWAKE)   # [-1]: no tree
    state = np.where(counters[tree] >= 0, ASLEEP, ALIVE)
    mocap = model.body_mocapid[model.body_rootid] >= 0
    return np.where(tree >= 0, state, np.where(mocap, ALIVE, STATIC))


def none_asleep(data, tree_asleep=None):
    """True if no tree is asleep (by ``tree_asleep``, ``data``'s if not given): the common case,
    asked first so that a model that never sleeps pays nothing for sleep's bookkeeping."""
    counters = data.tree_asleep if tree_asleep is None else tree_asleep
    return max(counters.tolist(), default=-1) < 0      # (a list's max: without ndarray.max's wrapper)


def asleep_dofs(model, data, tree_asleep=None):
    """``(nv,)`` True on the dofs of sleeping trees (by ``tree_asleep``, ``data``'s if not given)."""
    return (data.tree_asleep if tree_asleep is None else tree_asleep)[body_treeid(model)[model.dof_bodyid]] >= 0


def at_rest(model, data, t, tol):
    r"""True if tree ``t`` may sleep: its policy lets it, no applied force on it, and
    :math:`\max_i \ell_i |\dot q_i| < tol` (exactly zero velocity if ``tol`` is 0)."""
    if tree_sleep_policy(model)[t] in (SLEEP_NEVER, SLEEP_AUTO_NEVER):
        return False
    bodies, dofs = body_treeid(model) == t, tree_dofs(model)[t]
    if np.any(data.xfrc_applied[bodies]) or np.any(data.qfrc_applied[dofs]):
        return False
    if tol == 0:
        return not np.any(data.qvel[dofs])
    return bool(np.max(dof_length(model)[dofs] * np.abs(data.qvel[dofs])) < tol)


def wake_island(data, t, value):
    """Wake tree ``t`` and every tree of its cycle, setting their counters to ``value``
    (an awake ``t`` keeps the smaller of its counter and ``value``); the number woken."""
    if data.tree_asleep[t] < 0:
        data.tree_asleep[t] = min(value, data.tree_asleep[t])
        return 0
    n = 0
    while data.tree_asleep[t] >= 0:          # follow the cycle t -> tree_asleep[t] -> ... -> t
        data.tree_asleep[t], t = value, data.tree_asleep[t]
        n += 1
    return n


# -- waking, in the position stage -------------------------------------------------------------
def wake_moved(model, data, xpos, xquat):
    """After the kinematics (MuJoCo's ``mj_wake``): wake each sleeping island one of whose
    bodies the user moved (pose not bit-equal to ``xpos``, ``xquat``, the last ones), gave a
    velocity or an applied force. With sleep disabled, every tree wakes."""
    if not enabled(model):
        data.tree_asleep[:] = AWAKE
        return
    tree_sleep_policy(model)                       # refuses what is not simulated, at the first forward
    tree = body_treeid(model)
    moved = np.any(data.xpos != xpos, axis=1) | np.any(data.xquat != xquat, axis=1)
    for t in np.flatnonzero(data.tree_asleep >= 0):
        if data.tree_asleep[t] >= 0 and (np.any(moved[tree == t]) or not at_rest(model, data, t, 0)):
            wake_island(data, t, AWAKE)


def wake_on_tendon(model, data):
    """After the tendons (MuJoCo's ``mj_wakeTendon``): a limited tendon across two trees, at or
    past a limit (within its margin), one tree awake and one asleep, wakes the sleeper's
    island with the awake tree's counter."""
    awake = data.tree_asleep < 0
    for k, trees in enumerate(tendon_trees(model)):
        if len(trees) != 2 or not model.tendon_limited[k]:
            continue
        low, high = model.tendon_range[k]
        if min(data.ten_length[k] - low, high - data.ten_length[k]) < model.tendon_margin[k]:
            t1, t2 = trees
            if awake[t1] != awake[t2]:
                sleeper, waker = (t2, t1) if awake[t1] else (t1, t2)
                wake_island(data, sleeper, data.tree_asleep[waker])


def keeps_contact(model, awake, b1, b2):
    """MuJoCo's sleep filter on a body pair: no contact between two sleepers, nor between a
    sleeper and the static world (a mocap body, moved by the user, still counts)."""
    asleep1, asleep2 = awake[b1] == ASLEEP, awake[b2] == ASLEEP
    world1, world2 = model.body_weldid[b1] == 0, model.body_weldid[b2] == 0
    return not (asleep1 and asleep2) and not (asleep1 and world2) and not (asleep2 and world1)


def wake_on_contact(model, data, collide):
    """After the collisions (MuJoCo's ``mj_wakeCollision``): drop the contacts the sleep filter
    leaves out; a contact between an awake tree and a sleeping one wakes the sleeper's island
    with the awake tree's counter (a mocap body's: -11), and the collisions run again. As in
    MuJoCo, who is asleep is read once, before the sweep: a tree woken by one contact may take
    a smaller counter from the next."""
    awake, tree = body_awake(model, data), body_treeid(model)
    pairs = [(model.geom_bodyid[c.geom1], model.geom_bodyid[c.geom2]) for c in data.contact]
    woke = 0
    for b1, b2 in pairs:
        s1, s2 = awake[b1], awake[b2]
        if not keeps_contact(model, awake, b1, b2) or ALIVE not in (s1, s2) or ASLEEP not in (s1, s2):
            continue
        sleeper, waker = (tree[b1], tree[b2]) if s1 == ASLEEP else (tree[b2], tree[b1])
        woke += wake_island(data, sleeper, AWAKE if waker < 0 else data.tree_asleep[waker])   # waker < 0: mocap
    if woke:
        collide(model, data)
        awake = body_awake(model, data)
    data.contact = [c for c in data.contact
                    if keeps_contact(model, awake, model.geom_bodyid[c.geom1], model.geom_bodyid[c.geom2])]


def wake_on_equality(model, data):
    """MuJoCo's ``mj_wakeEquality``: an active connect, weld or joint equality between a
    sleeping tree and an awake one (or two sleeping islands) wakes the sleepers at -11. Who is
    asleep is read once, before the sweep (as MuJoCo)."""
    awake, tree = body_awake(model, data), body_treeid(model)
    for e in np.flatnonzero(data.eq_active):
        if model.eq_type[e] in (EQ_CONNECT, EQ_WELD):
            b1, b2 = equality_bodies(model, e)
        else:
            b1, b2 = (model.jnt_bodyid[j] if j >= 0 else 0 for j in (model.eq_obj1id[e], model.eq_obj2id[e]))
        s1, s2 = awake[b1], awake[b2]
        if ASLEEP not in (s1, s2) or STATIC in (s1, s2) or tree[b1] == tree[b2]:
            continue
        if s1 == s2 == ASLEEP:
            if cycle_of(data, tree[b1]) != cycle_of(data, tree[b2]):
                wake_island(data, tree[b1], AWAKE)
                wake_island(data, tree[b2], AWAKE)
        else:
            wake_island(data, tree[b1] if s1 == ASLEEP else tree[b2], AWAKE)


def cycle_of(data, t):
    """The smallest tree of sleeping tree ``t``'s cycle, its island's name (-1 if ``t`` is
    awake by now: MuJoCo's ``mj_sleepCycle``)."""
    if data.tree_asleep[t] < 0:
        return -1
    cycle, s = [t], data.tree_asleep[t]
    while s != t:
        cycle.append(s)
        s = data.tree_asleep[s]
    return min(cycle)


# -- falling asleep, at the end of the step ----------------------------------------------------
def fall_asleep(model, data):
    """MuJoCo's ``mj_sleep``: count each awake tree's steps at rest (-11 up to -1), then put to
    sleep each island all of whose trees reached -1, and each such tree no row touches;
    their ``qvel`` and ``qacc`` become 0. Returns the number of trees put to sleep. With rows
    but islands disabled (``<flag island="disable"/>``) nothing sleeps, as in MuJoCo."""
    if not enabled(model) or (data.nefc and model.opt.disabled("island")):
        return 0
    s = data.tree_asleep
    for t in np.flatnonzero(s < 0):
        s[t] = s[t] + (s[t] < -1) if at_rest(model, data, t, model.opt.sleep_tolerance) else AWAKE
    tree = body_treeid(model)[model.dof_bodyid]
    groups = [sorted(set(tree[dofs].tolist())) for dofs, _ in islands(model, data)] if data.nefc else []
    joined = {t for g in groups for t in g}
    groups += [[t] for t in range(len(s)) if t not in joined]      # the trees no row touches
    slept = 0
    for g in groups:
        if all(s[t] == -1 for t in g):
            for t, nxt in zip(g, g[1:] + g[:1]):                    # the cycle t -> next -> ... -> t
                s[t] = nxt
                data.qvel[tree_dofs(model)[t]] = 0.0
                data.qacc[tree_dofs(model)[t]] = 0.0
            slept += len(g)
    return slept


def freeze(model, data, qpos, qvel, qpos_next, qvel_next):
    """The advanced ``(qpos, qvel)``, the sleeping trees' entries kept as they were (MuJoCo
    integrates the awake bodies only)."""
    asleep = asleep_dofs(model, data)
    if not asleep.any():
        return qpos_next, qvel_next
    tree = body_treeid(model)
    jasleep = data.tree_asleep[tree[model.jnt_bodyid]] >= 0
    nq = np.diff(np.append(model.jnt_qposadr, model.nq))
    qasleep = np.repeat(jasleep, nq)
    return np.where(qasleep, qpos, qpos_next), np.where(asleep, qvel, qvel_next)


def start_asleep(model, data, stages):
    """Put the ``sleep="init"`` trees to sleep, as MuJoCo does when it makes or resets
    ``mjData``: run the pipeline's ``stages`` with every tree awake, set the ``init`` trees
    ready (-1) and the others moving (-11), and :func:`fall_asleep` (a tree at rest counts a
    step); then ``qacc_smooth`` and ``qfrc_smooth`` are zero, which the sleepers keep
    (:func:`hold_dofs`) until they wake. A ``ValueError`` if an ``init`` tree cannot sleep
    (it moves, is pushed, or shares an island with a tree that is not ``init``)."""
    data.sleep_init_pending = False
    if not enabled(model):
        return
    init = tree_sleep_policy(model) == SLEEP_INIT
    data.tree_asleep[:] = AWAKE
    stages(model, data)
    data.tree_asleep[:] = np.where(init, -1, AWAKE)
    if fall_asleep(model, data) != init.sum():
        t = int(np.flatnonzero(init & (data.tree_asleep < 0))[0])
        root = int(np.flatnonzero(body_treeid(model) == t)[0])
        raise ValueError(f"a tree with sleep=\"init\" cannot sleep: body {root} ({model.body_names[root]!r}) "
                         "roots the first that could not (moving, pushed, or in an "
                         "island with a tree that is not init); MuJoCo 4.0 warns and starts them awake")
    data.qacc_smooth, data.qfrc_smooth = np.zeros(model.nv), np.zeros(model.nv)


def hold_dofs(model, data, held, tree_asleep=None):
    """The sleeping dofs keep their values of the fields in ``held`` (``{name: before}``):
    MuJoCo computes ``qfrc_smooth`` and ``qacc_smooth`` on the awake dofs only."""
    if none_asleep(data, tree_asleep):
        return
    asleep = asleep_dofs(model, data, tree_asleep)
    if asleep.any():
        for name, before in held.items():
            setattr(data, name, np.where(asleep, before, getattr(data, name)))


# -- sensors -----------------------------------------------------------------------------------
def hold_sensors(model, data, before, tree_asleep=None):
    """Each sensor on sleeping objects keeps its value from ``before`` (MuJoCo skips it): its
    object and its reference (where it has them) are not awake, one of them asleep (by
    ``tree_asleep``, ``data``'s if not given). A rangefinder, a contact sensor in a site's
    volume and a sensor of no object stay awake."""
    if not model.nsensor or none_asleep(data, tree_asleep):
        return
    awake = body_awake(model, data, tree_asleep)
    if not np.any(awake == ASLEEP):
        return
    for i in range(model.nsensor):
        if model.sensor_type[i] == SENSORS["rangefinder"].type or (model.sensor_type[i] == SENSORS["contact"].type
                                                                   and OBJ_SITE in (model.sensor_objtype[i],
                                                                                    model.sensor_reftype[i])):
            continue
        states = [object_state(model, awake, model.sensor_objtype[i], model.sensor_objid[i]),
                  object_state(model, awake, model.sensor_reftype[i], model.sensor_refid[i])]
        states = [s for s in states if s is not None]
        if states and ASLEEP in states and ALIVE not in states:
            a = model.sensor_adr[i]
            data.sensordata[a:a + model.sensor_dim[i]] = before[a:a + model.sensor_dim[i]]


def object_state(model, awake, kind, k):
    """The sleep state of object ``k`` of ``kind`` (that of its body), ``None`` for no object."""
    if kind == OBJ_UNKNOWN or k < 0:
        return None
    if kind == OBJ_TENDON:           # asleep if all its trees are (a tendon on the world: static)
        states = set(awake[tendon_bodies(model, k)].tolist())
        return ALIVE if ALIVE in states else ASLEEP if ASLEEP in states else STATIC
    if kind == OBJ_ACTUATOR and model.actuator_trntype[k] == TRN_TENDON:
        return object_state(model, awake, OBJ_TENDON, model.actuator_trnid[k, 0])
    if kind == OBJ_ACTUATOR:
        return awake[actuated_body(model, k)]
    body = {OBJ_BODY: None, OBJ_XBODY: None, OBJ_JOINT: model.jnt_bodyid, OBJ_DOF: model.dof_bodyid,
            OBJ_GEOM: model.geom_bodyid, OBJ_SITE: model.site_bodyid, OBJ_CAMERA: model.cam_bodyid}
    if kind not in body:
        raise NotImplementedError(f"a sensor on an object of type {kind} (not a body, joint, geom, site, camera, "
                                  "tendon or actuator): with sleep enabled it is not simulated")
    return awake[k if body[kind] is None else body[kind][k]]
