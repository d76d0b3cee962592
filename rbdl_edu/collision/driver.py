"""The collision pipeline (MuJoCo's ``mj_collision``): broadphase → filters → narrowphase.

``collide(model, data)``, at the poses in ``data`` (``detect`` computes them first):

1. geom poses, from forward kinematics at ``data.qpos`` (``kinematics``, the stage before);
2. :func:`~rbdl_edu.collision.broadphase.broadphase` gives candidate body pairs, sorted
   by signature ``(b1 << 16) + b2``;
3. for each body pair, first the explicit ``<pair>`` s whose signature is not larger are
   merged in, then the body pair is dropped if it is ``<exclude>`` d, else each geom pair
   (of bodies with several geoms: only those the two box trees bring together,
   :mod:`~rbdl_edu.collision.midphase`, sorted by geom ids) goes through
   :func:`~rbdl_edu.collision.filters.geom_pair_filter` (with the user's
   ``data.contact_filter`` in place of the geom bitmask, if set:
   :func:`~rbdl_edu.collision.filters.user_contact_filter`);
4. each surviving geom pair (ordered so that ``geom_type[g1] <= geom_type[g2]``) is handed
   to the collider in :data:`COLLIDERS`, keyed by the two geom types -- those that iterate
   (GJK/EPA, height fields, capsule-box) only if the pair's oriented bounding boxes touch
   (:func:`~rbdl_edu.collision.filters.boxes_apart`);
5. each returned point becomes a :class:`~rbdl_edu.collision.contact.Contact` with the
   mixed parameters.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.collision import box as _box
from rbdl_edu.collision import capsule_box as _capsule_box
from rbdl_edu.collision import convex as _convex
from rbdl_edu.collision import ellipsoid as _ellipsoid
from rbdl_edu.collision import hfield as _hfield
from rbdl_edu.collision import primitives as _prim
from rbdl_edu.collision.broadphase import broadphase, geoms_of_bodies
from rbdl_edu.collision.contact import Contact, make_frame
from rbdl_edu.collision.filters import (boxes_apart, contact_pairs, exclude_signatures, geom_pair_filter,
                                        user_contact_filter)
from rbdl_edu.collision.geometry import geom_aabb, geom_rbound
from rbdl_edu.collision.midphase import tree_pairs, uses_midphase
from rbdl_edu.collision.pair_params import assign, mix_adhesion, mix_params, pair_margin_gap
from rbdl_edu.kinematics import kinematics
from rbdl_edu.model.enums import BOX, CAPSULE, CYLINDER, ELLIPSOID, HFIELD, MESH, PLANE, SPHERE
from rbdl_edu.model.frozen import plain

#: narrowphase dispatch table: (type1, type2) with type1 <= type2 → collider.
#: The *convex* entries take the model and geom ids (they need mesh data); the others
#: only poses and sizes.
COLLIDERS = {
    (PLANE, SPHERE): _prim.plane_sphere,
    (PLANE, CAPSULE): _prim.plane_capsule,
    (PLANE, ELLIPSOID): _convex.plane_convex,
    (PLANE, CYLINDER): _prim.plane_cylinder,
    (PLANE, BOX): _prim.plane_box,
    (PLANE, MESH): _convex.plane_convex,
    (SPHERE, SPHERE): _prim.sphere_sphere,
    (SPHERE, CAPSULE): _prim.sphere_capsule,
    (SPHERE, CYLINDER): _prim.sphere_cylinder,
    (SPHERE, BOX): _prim.sphere_box,
    (SPHERE, ELLIPSOID): _ellipsoid.sphere_ellipsoid,
    (CAPSULE, CAPSULE): _prim.capsule_capsule,
    (CAPSULE, BOX): _capsule_box.capsule_box,
    (BOX, BOX): _box.box_box,
}
for _t1 in (SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH):
    for _t2 in (SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH):
        if _t1 <= _t2 and (_t1, _t2) not in COLLIDERS:
            COLLIDERS[(_t1, _t2)] = _convex.convex
    COLLIDERS[(HFIELD, _t1)] = _hfield.hfield_convex        # prism by prism (not planes, hfields)
CONVEX = {_convex.convex, _convex.plane_convex, _hfield.hfield_convex, _ellipsoid.sphere_ellipsoid}
ITERATIVE = {_convex.convex, _hfield.hfield_convex, _capsule_box.capsule_box}     # worth a box test first


def _ordered(model, g1, g2):
    return (g1, g2) if model.geom_type[g1] <= model.geom_type[g2] else (g2, g1)


def candidate_pairs(model, gpos, gmat, log=None, contact_filter=None):
    """Geom pairs ``[(g1, g2, pair), ...]`` that reach the narrowphase, in MuJoCo's order.

    ``pair`` is the explicit pair dict or ``None``. If ``log`` is a list, every geom pair
    examined is appended to it as ``(g1, g2, reason)`` (``reason`` ``None`` if kept), and
    every excluded body pair as ``(b1, b2, "exclude")``. ``contact_filter`` ``(g1, g2) -> bool``
    (True: reject), if given, replaces the geom bitmask of dynamic pairs
    (:func:`~rbdl_edu.collision.filters.user_contact_filter` binds ``data.contact_filter``).

    >>> import rbdl_edu as rbd
    >>> from rbdl_edu.collision.geometry import geom_poses
    >>> s = rbd.ModelSpec(); _ = s.add_geom(0, "plane", [0, 0, 1])
    >>> for z in (0.05, 2.0):
    ...     b = s.add_body(0, pos=[0, 0, z], mass=1, inertia=[1e-3] * 3)
    ...     _ = s.add_joint(b, "free"); _ = s.add_geom(b, "sphere", [0.1])
    >>> m = s.compile(); log = []
    >>> [(g1, g2) for g1, g2, _ in candidate_pairs(m, *geom_poses(m, m.qpos0), log)]
    [(0, 1)]
    >>> log
    [(0, 1, None), (0, 2, 'bounding sphere')]
    """
    rbound, aabb = geom_rbound(model), geom_aabb(model)
    pairs = contact_pairs(model)
    excluded = set(exclude_signatures(model))
    out, k = [], 0

    types, geoms_of = plain(model).geom_type, geoms_of_bodies(model)

    def consider(g1, g2, pair=None, explicit=None):
        reason = geom_pair_filter(model, gpos, gmat, rbound, g1, g2, explicit, pair, contact_filter)
        if reason is None and (min(types[g1], types[g2]), max(types[g1], types[g2])) not in COLLIDERS:
            reason = "no collider"
        if log is not None:
            log.append((int(g1), int(g2), reason))
        if reason is None:
            out.append((*_ordered(model, g1, g2), pair))

    for b1, b2 in broadphase(model, gpos, gmat, rbound, aabb):
        sig = (b1 << 16) + b2
        start = k
        while k < len(pairs) and pairs[k]["signature"] <= sig:    # merge explicit pairs
            consider(pairs[k]["geom1"], pairs[k]["geom2"], pair=pairs[k])
            k += 1
        merged = [q for q in pairs[start:k] if q["signature"] == sig]
        if sig in excluded:
            if log is not None:
                log.append((b1, b2, "exclude"))
            continue
        if uses_midphase(model, b1, b2):            # the trees' overlapping leaves, sorted as MuJoCo
            near = sorted(tree_pairs(model, b1, b2, gpos, gmat), key=lambda p: _ordered(model, *p))
            for g1, g2 in near:
                consider(g1, g2, explicit=merged)
            kept = set(near)
            if log is not None:     # a pruned pair: the filter that would drop it, else "midphase"
                log += [(int(g1), int(g2), geom_pair_filter(model, gpos, gmat, rbound, g1, g2, merged,
                                                            None, contact_filter) or "midphase")
                        for g1 in geoms_of[b1] for g2 in geoms_of[b2] if (g1, g2) not in kept]
            continue
        for g1 in geoms_of[b1]:
            for g2 in geoms_of[b2]:
                consider(g1, g2, explicit=merged)
    for q in pairs[k:]:                                             # the remaining pairs
        consider(q["geom1"], q["geom2"], pair=q)
    return out


def narrowphase(model, gpos, gmat, g1, g2, pair=None):
    """Contacts between geoms ``g1`` and ``g2`` (``geom_type[g1] <= geom_type[g2]``), with the
    explicit ``pair``'s parameters if given, else the mixed ones.

    >>> import rbdl_edu as rbd
    >>> from rbdl_edu.collision.geometry import geom_poses
    >>> s = rbd.ModelSpec(); _ = s.add_geom(0, "sphere", [0.1]); _ = s.add_geom(0, "capsule", [0.1, 0.2], pos=[0.15, 0, 0])
    >>> m = s.compile()
    >>> narrowphase(m, *geom_poses(m, []), 0, 1)
    [Contact(geom1=0, geom2=1, dist=-0.05, pos=[0.075, 0.0, 0.0], normal=[1.0, 0.0, 0.0])]
    """
    m = plain(model)                # (the model's arrays without FrozenArray's dispatch)
    margin, gap = pair_margin_gap(model, g1, g2, pair)
    f = COLLIDERS[(m.geom_type[g1], m.geom_type[g2])]
    if f in CONVEX:
        raw = f(model, gpos, gmat, g1, g2, margin + gap)
    else:
        raw = f(gpos[g1], gmat[g1], m.geom_size[g1], gpos[g2], gmat[g2], m.geom_size[g2], margin + gap)
    if not raw:
        return []
    if pair is None:
        condim, friction, solref, solreffriction, solimp = geom_pair_params(model, g1, g2)
        adhesion = mix_adhesion(model, g1, g2)
    else:
        condim, friction = pair["condim"], pair["friction"]
        solref, solimp = pair["solref"], pair["solimp"]
        solreffriction = pair["solreffriction"] if np.any(pair["solreffriction"] != 0) else np.zeros(2)
        friction, solref, solreffriction, solimp = assign(model, friction, solref, solreffriction, solimp)
        adhesion = pair["adhesion"]
    # an adhesive contact in the gap keeps its normal row only: no surface, no friction
    return [Contact(int(g1), int(g2), dist, pos, make_frame(n, t), friction.copy(), solref.copy(),
                    solimp.copy(), margin, gap, 1 if adhesion and dist >= margin else condim,
                    solreffriction.copy(), adhesion=adhesion)
            for dist, pos, n, t in raw]


@per_model
def geom_pair_params(model, g1, g2):
    """``(condim, friction, solref, solreffriction, solimp)`` of a geom pair without an explicit
    ``<pair>``: mixed (:func:`~rbdl_edu.collision.pair_params.mix_params`) and assigned, once
    per model and pair (read-only arrays; each contact takes copies)."""
    condim, friction, solref, solimp = mix_params(model, g1, g2)
    return (condim, *assign(model, friction, solref, np.zeros(2), solimp))


def detect(model, data):
    """Fill ``data.contact`` with the contacts at ``data.qpos`` (MuJoCo's ``mj_collision``);
    first the poses (:func:`~rbdl_edu.kinematics.kinematics`: ``data.geom_xpos``,
    ``data.geom_xmat``, ...). Returns the contact list.

    >>> import rbdl_edu as rbd
    >>> spec = rbd.ModelSpec()
    >>> _ = spec.add_geom(0, "plane", [0, 0, 1])
    >>> ball = spec.add_body(0, "ball", pos=[0, 0, 0.09], mass=1, inertia=[1e-3] * 3)
    >>> _ = spec.add_joint(ball, "free")
    >>> _ = spec.add_geom(ball, "sphere", [0.1])
    >>> model = spec.compile(); data = rbd.Data(model)
    >>> rbd.collision.detect(model, data)
    [Contact(geom1=0, geom2=1, dist=-0.01, pos=[0.0, 0.0, -0.005], normal=[0.0, 0.0, 1.0])]
    """
    for name in ("qpos", "mocap_pos", "mocap_quat"):
        x = np.asarray(getattr(data, name), dtype=float)
        bad = np.flatnonzero(~np.isfinite(x))
        if len(bad):
            raise ValueError(f"data.{name} holds {x.flat[bad[0]]} at {bad[0]}: contacts need a finite state")
    kinematics(model, data)
    return collide(model, data)


def collide(model, data):
    """:func:`detect` at the poses already in ``data`` (``geom_xpos``, ``geom_xmat``): the
    pipeline stage, after :func:`~rbdl_edu.kinematics.kinematics` has run. A function in
    ``data.contact_filter`` (MuJoCo's ``mjcb_contactfilter``) decides which dynamic geom pairs
    may collide instead of the ``contype``/``conaffinity`` bitmask
    (:func:`~rbdl_edu.collision.filters.user_contact_filter`)."""
    gpos, gmat = data.geom_xpos, data.geom_xmat
    contact_filter = user_contact_filter(model, data)       # (checked even when contacts are off)
    data.contact = []
    if model.opt.disabled("contact") or model.opt.disabled("constraint"):
        return data.contact
    aabb, types = geom_aabb(model), plain(model).geom_type
    for g1, g2, pair in candidate_pairs(model, gpos, gmat, contact_filter=contact_filter):
        if COLLIDERS[(types[g1], types[g2])] in ITERATIVE and \
                boxes_apart(model, gpos, gmat, aabb, g1, g2, sum(pair_margin_gap(model, g1, g2, pair))):
            continue
        data.contact += narrowphase(model, gpos, gmat, g1, g2, pair)
    return data.contact
