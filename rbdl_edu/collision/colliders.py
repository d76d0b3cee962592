"""The narrowphase: which collider handles a geom pair, and contacts from its points.

Each collider returns *pre-contacts* -- ``(dist, pos, normal, tangent)`` per point
(:func:`pair_points`) -- and :func:`contacts` makes them
:class:`~rbdl_edu.collision.contact.Contact` s: the frame around each normal
(:func:`~rbdl_edu.collision.contact.make_frame`) and the pair's mixed parameters, which the
model alone decides (:func:`pair_constants`, once per model and pair).
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.collision import box as _box
from rbdl_edu.collision import capsule_box as _capsule_box
from rbdl_edu.collision import capsule_cylinder as _capsule_cylinder
from rbdl_edu.collision import convex as _convex
from rbdl_edu.collision import ellipsoid as _ellipsoid
from rbdl_edu.collision import hfield as _hfield
from rbdl_edu.collision import primitives as _prim
from rbdl_edu.collision.contact import Contact, make_frame
from rbdl_edu.collision.filters import capsules_apart
from rbdl_edu.collision.pair_params import assign, mix_adhesion, mix_params, pair_margin_gap
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
    (CAPSULE, CYLINDER): _capsule_cylinder.capsule_cylinder,
    (BOX, BOX): _box.box_box,
}
for _t1 in (SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH):
    for _t2 in (SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH):
        if _t1 <= _t2 and (_t1, _t2) not in COLLIDERS:
            COLLIDERS[(_t1, _t2)] = _convex.convex
    COLLIDERS[(HFIELD, _t1)] = _hfield.hfield_convex        # prism by prism (not planes, hfields)
CONVEX = {_convex.convex, _convex.plane_convex, _hfield.hfield_convex, _ellipsoid.sphere_ellipsoid,
          _capsule_cylinder.capsule_cylinder}
ITERATIVE = {_convex.convex, _hfield.hfield_convex, _capsule_box.capsule_box,     # worth a box test first
             _capsule_cylinder.capsule_cylinder}                                  # (GJK/EPA off the side)
def pair_points(model, gpos, gmat, g1, g2, margin):
    """The collider's pre-contacts ``[(dist, pos, normal, tangent), ...]`` of one geom pair
    (``geom_type[g1] <= geom_type[g2]``) within the detection distance ``margin``."""
    m = plain(model)                # (the model's arrays without FrozenArray's dispatch)
    f = COLLIDERS[(m.geom_type[g1], m.geom_type[g2])]
    if f in ITERATIVE and capsules_apart(model, gpos, gmat, g1, g2, margin):
        return []                   # (no contact possible: not worth an iteration)
    if f in CONVEX:
        return f(model, gpos, gmat, g1, g2, margin)
    return f(gpos[g1], gmat[g1], m.geom_size[g1], gpos[g2], gmat[g2], m.geom_size[g2], margin)


@per_model
def pair_constants(model, g1, g2):
    """``(margin, gap, condim, friction, solref, solreffriction, solimp, adhesion)`` of a geom
    pair without an explicit ``<pair>``: mixed (:func:`~rbdl_edu.collision.pair_params.mix_params`,
    :func:`~rbdl_edu.collision.pair_params.mix_adhesion`) and assigned, once per model and
    pair (read-only arrays; each contact takes copies)."""
    condim, friction, solref, solimp = mix_params(model, g1, g2)
    return (*pair_margin_gap(model, g1, g2), condim, *assign(model, friction, solref, np.zeros(2), solimp),
            mix_adhesion(model, g1, g2))


def explicit_constants(model, pair):
    """:func:`pair_constants` of an explicit ``<pair>`` (a dict of
    :func:`~rbdl_edu.collision.filters.contact_pairs`): its own values."""
    solreffriction = pair["solreffriction"] if np.any(pair["solreffriction"] != 0) else np.zeros(2)
    friction, solref, solreffriction, solimp = assign(model, pair["friction"], pair["solref"], solreffriction,
                                                      pair["solimp"])
    return (*pair_margin_gap(model, pair["geom1"], pair["geom2"], pair), pair["condim"], friction, solref,
            solreffriction, solimp, pair["adhesion"])


def contacts(model, points, constants=None):
    """:class:`~rbdl_edu.collision.contact.Contact` s of the pre-contacts ``points``, a list of
    ``(g1, g2, dist, pos, normal, tangent)``, with each geom pair's :func:`pair_constants` (or
    ``constants``, one tuple for all: an explicit pair's)."""
    out, pair, frame, same = [], None, None, (None, None)
    for g1, g2, d, x, n, t in points:
        if (g1, g2) != pair:                        # (a pair's points come one after another)
            pair = g1, g2
            margin, gap, condim, friction, solref, solreffriction, solimp, adhesion = \
                constants or pair_constants(model, g1, g2)
        # the points of a plane share its normal (and tangent), the same arrays: one frame for all
        frame = frame.copy() if n is same[0] and t is same[1] else make_frame(n, t)
        same = n, t
        # an adhesive contact in the gap keeps its normal row only: no surface, no friction
        out.append(Contact(g1, g2, d, x, frame, friction.copy(), solref.copy(), solimp.copy(), margin, gap,
                           1 if adhesion and d >= margin else condim, solreffriction.copy(), adhesion=adhesion))
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
    g1, g2 = int(g1), int(g2)
    constants = None if pair is None else explicit_constants(model, pair)
    margin, gap = (constants or pair_constants(model, g1, g2))[:2]
    return contacts(model, [(g1, g2, *p) for p in pair_points(model, gpos, gmat, g1, g2, margin + gap)], constants)
