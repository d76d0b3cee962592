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
   to the collider in :data:`~rbdl_edu.collision.colliders.COLLIDERS`, keyed by the two geom
   types (:func:`~rbdl_edu.collision.colliders.pair_points`) -- those that iterate
   (GJK/EPA, height fields, capsule-box) only if the pair's oriented bounding boxes touch
   (:func:`~rbdl_edu.collision.filters.boxes_apart`) and, ours, not MuJoCo's, so do capsules
   that hold the geoms (:func:`~rbdl_edu.collision.filters.capsules_apart`);
5. each returned point becomes a :class:`~rbdl_edu.collision.contact.Contact` with the
   mixed parameters (:func:`~rbdl_edu.collision.colliders.contacts`).

:func:`candidate_pairs` runs steps 2-3 as written, one pair at a time (with a log of every
verdict). :func:`collide` gets the same pairs cheaper (:func:`near_pairs`, for models without
``<pair>`` s and passes without a contact filter): what the model alone decides about a body
pair -- which geom pairs survive the bit masks, their margins, the node-box tests on the
midphase's way down to each leaf pair, which of them meet a plane -- is worked out once
(:func:`pair_plan`, :func:`~rbdl_edu.collision.batch.sphere_tests`), and a pass runs the tests
that depend on the poses on arrays of pairs (:mod:`~rbdl_edu.collision.batch`): each on every
pair at once, the oriented boxes (3x3 products) on the pairs left.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.collision.batch import node_frames, nodes_apart, obbs_apart, sphere_tests, spheres_apart_at
from rbdl_edu.collision.broadphase import broadphase, geoms_of_bodies
from rbdl_edu.collision.colliders import COLLIDERS, CONVEX, ITERATIVE, contacts, narrowphase, pair_points
from rbdl_edu.collision.filters import (bitmask_rejects, bounding_sphere_rejects, boxes_apart, contact_pairs,
                                        exclude_signatures, geom_pair_filter, user_contact_filter)
from rbdl_edu.collision.geometry import geom_aabb, geom_rbound
from rbdl_edu.collision.midphase import descent_paths, node_margin, tree_pairs, uses_midphase
from rbdl_edu.collision.pair_params import pair_margin_gap
from rbdl_edu.kinematics import kinematics
from rbdl_edu.model.enums import PLANE
from rbdl_edu.model.frozen import plain

__all__ = ["COLLIDERS", "CONVEX", "ITERATIVE", "candidate_pairs", "near_pairs", "narrowphase", "collide", "detect"]


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


class PassPlan(NamedTuple):
    """What the model alone decides about the geom pairs of a list of body pairs (see
    :func:`pass_plan`). Per geom pair examined: ``geom1``, ``geom2`` (``geom1`` on the first
    body), ``ordered (P, 2)`` (as handed to the narrowphase), ``margin`` (``margin + gap``),
    ``boxed (B,)``: the geom pairs whose oriented-box test decides (a midphase leaf pair or an
    iterating collider, without a plane, which no box holds). Per node-box test on a midphase
    descent, its two node boxes as :func:`~rbdl_edu.collision.batch.node_frames` gives them:
    ``node_geom (T, 2)``, ``node_axes (T, 2, 3, 3)``, ``node_center (T, 2, 3)``,
    ``node_half (T, 2, 3)``; and ``node_margin (T,)``. ``on_way (E, 2)``: (geom pair, node
    test) for each test on the way down to a leaf pair."""
    geom1: np.ndarray
    geom2: np.ndarray
    ordered: np.ndarray
    margin: np.ndarray
    boxed: np.ndarray
    node_geom: np.ndarray
    node_axes: np.ndarray
    node_center: np.ndarray
    node_half: np.ndarray
    node_margin: np.ndarray
    on_way: np.ndarray


def _static_reason(model, g1, g2):
    """The reason a dynamic geom pair is dropped whatever the poses (bitmask, two planes, no
    collider), else ``None`` -- :func:`~rbdl_edu.collision.filters.geom_pair_filter` without
    explicit pairs, contact filter and bounding spheres."""
    t, ct, ca = plain(model).geom_type, model.geom_contype, model.geom_conaffinity
    if bitmask_rejects(ct[g1], ca[g1], ct[g2], ca[g2]):
        return "bitmask"
    if t[g1] == PLANE and t[g2] == PLANE or (min(t[g1], t[g2]), max(t[g1], t[g2])) not in COLLIDERS:
        return "no collider"
    return None


@per_model
def pair_plan(model, b1, b2):
    """:class:`PassPlan` of one body pair that is not ``<exclude>`` d (a model without explicit
    ``<pair>`` s), once per model: the geom pairs :func:`candidate_pairs` examines that no rule
    of the model alone drops, in the order it hands them on -- the midphase's leaves sorted as
    MuJoCo, with the node tests on each one's way down
    (:func:`~rbdl_edu.collision.midphase.descent_paths`), else all pairs."""
    types, geoms_of = plain(model).geom_type, geoms_of_bodies(model)
    midphase = uses_midphase(model, b1, b2)
    if midphase:
        leaves = sorted(descent_paths(model, b1, b2), key=lambda leaf: _ordered(model, *leaf[:2]))
    else:
        leaves = [(g1, g2, ()) for g1 in geoms_of[b1] for g2 in geoms_of[b2]]
    leaves = [leaf for leaf in leaves if _static_reason(model, *leaf[:2]) is None]
    tests = sorted({t for leaf in leaves for t in leaf[2]})
    index = {t: k for k, t in enumerate(tests)}
    ordered = [_ordered(model, g1, g2) for g1, g2, _ in leaves]
    sides = [(node_frames(model, b1, n1), node_frames(model, b2, n2)) for n1, n2 in tests]
    return PassPlan(
        np.array([leaf[0] for leaf in leaves], dtype=int), np.array([leaf[1] for leaf in leaves], dtype=int),
        np.array(ordered, dtype=int).reshape(-1, 2),
        np.array([sum(pair_margin_gap(model, g1, g2)) for g1, g2 in ordered], dtype=float),
        np.array([k for k, (g1, g2) in enumerate(ordered) if (midphase or COLLIDERS[(types[g1], types[g2])]
                                                             in ITERATIVE) and PLANE not in (types[g1], types[g2])],
                 dtype=int),
        *(np.array([[side[i] for side in pair] for pair in sides], dtype=float if i else int).reshape(-1, 2, *shape)
          for i, shape in enumerate([(), (3, 3), (3,), (3,)])),
        np.full(len(tests), node_margin(model, b1, b2) if tests else 0.0, dtype=float),
        np.array([(k, index[t]) for k, leaf in enumerate(leaves) for t in leaf[2]], dtype=int).reshape(-1, 2))


_PLANS_KEPT = 16        # body-pair lists whose joined plan is remembered (per model)
_FEW = 6                # geom pairs (without node tests) that near_pairs tests one by one


@per_model
def _joined_plans(model):
    return {}


def pass_plan(model, body_pairs):
    """The :class:`PassPlan` of a list of body pairs: the :func:`pair_plan` s of those not
    ``<exclude>`` d, joined (the last few lists remembered: a scene's broadphase gives the
    same list step after step); ``None`` if there is none."""
    return _joined(model, body_pairs)[0]


def _joined(model, body_pairs):
    """:func:`pass_plan` and its rule-8 tests (:func:`~rbdl_edu.collision.batch.sphere_tests`),
    remembered together."""
    key, kept = tuple(body_pairs), _joined_plans(model)
    joined = kept.get(key)
    if joined is not None:
        return joined
    plans = [pair_plan(model, b1, b2) for b1, b2 in key if (b1 << 16) + b2 not in exclude_signatures(model)]
    if not plans:                                           # (every body pair excluded)
        return None, None
    P = np.cumsum([0] + [len(p.geom1) for p in plans])      # each plan's first geom pair ...
    T = np.cumsum([0] + [len(p.node_margin) for p in plans])    # ... and node test
    joined = PassPlan(*(np.concatenate([getattr(p, f) for p in plans]) for f in PassPlan._fields))
    joined = joined._replace(on_way=np.concatenate([p.on_way + [P[k], T[k]] for k, p in enumerate(plans)]),
                             boxed=np.concatenate([p.boxed + P[k] for k, p in enumerate(plans)]))
    if len(kept) >= _PLANS_KEPT:
        kept.clear()
    kept[key] = joined, sphere_tests(model, geom_rbound(model), joined.geom1, joined.geom2, joined.margin)
    return kept[key]


def near_pairs(model, gpos, gmat, body_pairs):
    """The geom pairs ``[(g1, g2, None), ...]`` that :func:`candidate_pairs` hands on and whose
    oriented boxes :func:`collide` finds touching (only iterating colliders ask), for a model
    without explicit ``<pair>`` s and a pass without a contact filter: the same pairs in the
    same order, with every test of the pass on arrays (:mod:`~rbdl_edu.collision.batch`) --
    or, for a few pairs without a midphase (a box on a plane), one pair at a time."""
    return [(g1, g2, None) for g1, g2, _ in _near_pairs(model, gpos, gmat, body_pairs)]


def _near_pairs(model, gpos, gmat, body_pairs):
    """:func:`near_pairs` as ``[(g1, g2, margin + gap), ...]`` (the plan's, for the narrowphase)."""
    plan, spheres = _joined(model, body_pairs)
    if plan is None:
        return []
    g1, g2, m, boxed = plan.geom1, plan.geom2, plan.margin, plan.boxed
    if len(g1) <= _FEW and not len(plan.node_margin):    # a few pairs: one at a time is cheaper
        rbound, aabb, boxed = geom_rbound(model), geom_aabb(model), set(boxed.tolist())
        return [(o1, o2, mg) for k, (a, b, mg, (o1, o2)) in enumerate(zip(g1.tolist(), g2.tolist(), m.tolist(),
                                                                         plan.ordered.tolist()))
                if not bounding_sphere_rejects(model, gpos, gmat, rbound, a, b, mg)
                and not (k in boxed and boxes_apart(model, gpos, gmat, aabb, a, b, mg))]
    # the cheap tests on every pair (fewer, larger operations than on the pairs left):
    apart = spheres_apart_at(gpos, gmat, spheres, len(g1))     # the bounding spheres,
    if len(plan.node_margin):                   # a node pair apart on the way down,
        tested = nodes_apart(gpos, gmat, plan.node_geom, plan.node_axes, plan.node_center, plan.node_half,
                             plan.node_margin)
        apart |= np.bincount(plan.on_way[:, 0], weights=tested[plan.on_way[:, 1]], minlength=len(g1)) > 0
    left = boxed[~apart[boxed]] if len(boxed) else boxed    # the oriented boxes (on the pairs left: 3x3
    if len(left):                                           # products)
        apart[left] = obbs_apart(model, gpos, gmat, geom_aabb(model), g1[left], g2[left], m[left])
    near = ~apart
    return [(a, b, mg) for (a, b), mg in zip(plan.ordered[near].tolist(), m[near].tolist())]


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
    if contact_filter is None and not model.npair and type(gpos) is np.ndarray:     # (the common case)
        points = []                             # (pre-contacts of the whole pass: one frame call)
        for g1, g2, margin in _near_pairs(model, gpos, gmat, broadphase(model, gpos, gmat, geom_rbound(model),
                                                                          geom_aabb(model))):
            points += [(g1, g2, *p) for p in pair_points(model, gpos, gmat, g1, g2, margin)]   # margin + gap
        data.contact = contacts(model, points)
        return data.contact
    aabb, types = geom_aabb(model), plain(model).geom_type
    for g1, g2, pair in candidate_pairs(model, gpos, gmat, contact_filter=contact_filter):
        if COLLIDERS[(types[g1], types[g2])] in ITERATIVE and \
                boxes_apart(model, gpos, gmat, aabb, g1, g2, sum(pair_margin_gap(model, g1, g2, pair))):
            continue
        data.contact += narrowphase(model, gpos, gmat, g1, g2, pair)
    return data.contact
