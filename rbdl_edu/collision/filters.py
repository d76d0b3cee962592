"""Which pairs may collide: MuJoCo's filters, in MuJoCo's order.

Body level (applied to every candidate body pair, :func:`body_pair_filter`):

1. **same weld group**: bodies rigidly welded together (same ``body_weldid``) never collide;
2. **both static**: two weld groups without any degree of freedom cannot move, so no force
   could act;
3. **parent-child**: a weld group does not collide with its parent's weld group --
   *except* when either group is the world (``weldid == 0``): a free-floating body still
   collides with the floor even though the world is its parent. The same exception is why a
   robot whose root joint was removed (so it is welded to the world) suddenly collides with
   its first moving child. ``<option><flag filterparent="disable"/>`` turns this rule off;
4. **bitmask** (body level): the OR of the geoms' ``contype``/``conaffinity`` must match;
5. **explicit exclude**: a ``<contact><exclude body1 body2/>`` removes the body pair.

Geom level (:func:`geom_pair_filter`), for each geom pair of a surviving body pair:

6. **bitmask**: ``contype1 & conaffinity2 or contype2 & conaffinity1`` must be nonzero
   (not applied to explicit pairs) -- or, if the user set a **contact filter**
   (``data.contact_filter``, MuJoCo's ``mjcb_contactfilter``), that function decides instead
   (:func:`user_contact_filter`);
7. **explicit pair** given for the same two geoms replaces the dynamic pair (its own
   parameters are used, see :func:`contact_pairs`);
8. **bounding spheres**: centers farther apart than ``rbound1 + rbound2 + margin + gap``
   cannot touch; for a plane (unbounded, ``rbound = 0``) the test is the signed distance
   of the other geom's center above the plane: ``n·(x2 - x1) > rbound2 + margin + gap``.

Explicit pairs (``<contact><pair>``) skip rules 1-6 and go straight to rule 8.

Before the narrowphase, a pair whose oriented bounding boxes (grown by ``margin + gap``)
are apart is skipped (:func:`boxes_apart`, MuJoCo's ``mj_collideOBB``): it cannot touch, so
this saves time and changes no contact. For bodies with several geoms the same test runs on
whole subtrees of geoms first (:mod:`~rbdl_edu.collision.midphase`).

Explicit pairs and excludes are the model's ``pair_*`` and ``exclude_signature`` arrays
(``<contact>`` in MJCF, :meth:`~rbdl_edu.model.spec.ModelSpec.add_pair` and
:meth:`~rbdl_edu.model.spec.ModelSpec.add_exclude` in code).
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.arrays import is_jax
from rbdl_edu.cache import per_model
from rbdl_edu.collision.geometry import geom_capsule
from rbdl_edu.collision.pair_params import pair_margin_gap
from rbdl_edu.model.enums import PLANE


def _weld_parent(model, weld):
    """Weld id of the parent of weld group ``weld`` (the world's is the world)."""
    parent = model.body_parentid[weld]
    return int(model.body_weldid[max(parent, 0)])


def body_contype(model, b):
    """``(contype, conaffinity)`` of body ``b``: the OR over its geoms (0 for no geoms)."""
    gs = np.flatnonzero(model.geom_bodyid == b)
    ct = int(np.bitwise_or.reduce(model.geom_contype[gs])) if len(gs) else 0
    ca = int(np.bitwise_or.reduce(model.geom_conaffinity[gs])) if len(gs) else 0
    return ct, ca


def bitmask_rejects(ct1, ca1, ct2, ca2) -> bool:
    """True if neither ``contype1 & conaffinity2`` nor ``contype2 & conaffinity1`` is set.

    >>> bitmask_rejects(1, 1, 2, 2), bitmask_rejects(1, 0, 0, 1)
    (True, False)
    """
    return not (ct1 & ca2) and not (ct2 & ca1)


def body_pair_filter(model, b1, b2):
    """Reason a body pair is discarded by rules 1-3 (a string), or ``None`` to keep it.

    >>> from rbdl_edu.models import double_pendulum
    >>> body_pair_filter(double_pendulum(), 1, 2)
    'parent-child'
    """
    w1, w2 = int(model.body_weldid[b1]), int(model.body_weldid[b2])
    if w1 == w2:
        return "same weld"
    if model.body_dofnum[w1] == 0 and model.body_dofnum[w2] == 0:
        return "both static"
    if "filterparent" not in model.opt.disableflags and w1 != 0 and w2 != 0 and (
            w1 == _weld_parent(model, w2) or w2 == _weld_parent(model, w1)):
        return "parent-child"
    return None


@per_model
def exclude_signatures(model):
    """Sorted body-pair signatures ``(b1 << 16) + b2`` (``b1 < b2``) of the ``<exclude>`` list
    (once per model)."""
    return tuple(sorted({int(s) for s in model.exclude_signature}))


@per_model
def contact_pairs(model):
    """The explicit ``<pair>`` s, in the model's order (sorted by body signature), as dicts
    with ``geom1`` (on the lower body), ``geom2``, ``signature``, ``condim``, ``friction``
    (5,), ``solref``, ``solreffriction``, ``solimp``, ``margin``, ``gap``.

    A value the ``<pair>`` leaves out takes the ``<pair>`` default (MuJoCo 4.0), *not* a
    value mixed from the two geoms (:mod:`rbdl_edu.model.defaults`).
    """
    return [dict(geom1=int(model.pair_geom1[p]), geom2=int(model.pair_geom2[p]),
                 signature=int(model.pair_signature[p]), condim=int(model.pair_dim[p]),
                 friction=model.pair_friction[p], solref=model.pair_solref[p],
                 solreffriction=model.pair_solreffriction[p], solimp=model.pair_solimp[p],
                 margin=float(model.pair_margin[p]), gap=float(model.pair_gap[p]),
                 adhesion=float(model.pair_adhesion[p]))
            for p in range(model.npair)]     # (once per model: the caller reads, never writes)


def bounding_sphere_rejects(model, gpos, gmat, rbound, g1, g2, margin) -> bool:
    """Rule 8: True if the bounding spheres (inflated by ``margin``) cannot touch.

    .. math:: |x_1 - x_2| > r_1 + r_2 + m  \\qquad\\text{or, for a plane } g_1:\\quad
              n_1\\cdot(x_2 - x_1) > r_2 + m
    """
    r1, r2 = rbound[g1], rbound[g2]
    if r1 > 0 and r2 > 0:
        d = gpos[g1] - gpos[g2]
        return d @ d > (r1 + r2 + margin) ** 2
    for a, b, rb in ((g1, g2, r2), (g2, g1, r1)):
        if model.geom_type[a] == PLANE and rb > 0:
            if gmat[a][:, 2] @ (gpos[b] - gpos[a]) > margin + rb:
                return True
    return False


class ContactFilterError(RuntimeError):
    """The user's contact filter (``data.contact_filter``) raised: names the geom pair."""


def user_contact_filter(model, data):
    """``data.contact_filter`` bound to ``model`` and ``data``: a function ``(g1, g2) -> bool``
    (True: reject the dynamic geom pair), or ``None`` if the user set none.

    The user's function has MuJoCo's ``mjcb_contactfilter`` signature,
    ``contact_filter(model, data, geom1, geom2)``, and returns something true to **reject** the
    pair. It *replaces* the geom-level bitmask (rule 6) for dynamic pairs only: the body-level
    rules 1-5 still run before it, explicit ``<pair>`` s never reach it, and rule 8 (bounding
    spheres) still runs after it. One MuJoCo detail stays: a geom with neither a ``contype``
    nor a ``conaffinity`` bit is left out of its body's midphase tree, so it reaches the
    filter only with ``<flag midphase="disable"/>``. It is called once per geom pair of each surviving body
    pair, at every collision pass, with the poses of this pass in ``data``.

    Why an attribute of ``Data`` and not a global hook like MuJoCo's: ``data`` already travels
    through every stage that detects contacts (``step`` → ``forward`` → ``collide``), so nothing
    is threaded through the call chain, and a filter set on one simulation cannot leak into
    another (two ``Data`` of one model, a test run after a notebook cell). MuJoCo's
    ``mujoco.set_mjcb_contactfilter(fn)`` is process-wide instead.

    An exception in the filter is re-raised as a :class:`ContactFilterError` naming the geoms.
    A compiled (JAX-traced) pipeline cannot call back into Python for each pair: a filter set
    on a ``Data`` holding traced arrays raises ``NotImplementedError``.
    """
    f = getattr(data, "contact_filter", None)
    if f is None:
        return None
    if not callable(f):
        raise TypeError(f"data.contact_filter must be a function (model, data, geom1, geom2) -> bool "
                        f"or None, not {type(f).__name__}")
    if is_jax(data.qpos) or is_jax(data.geom_xpos):
        raise NotImplementedError("data.contact_filter (a Python callback per geom pair) cannot run in a "
                                  "compiled (JAX-traced) pipeline; set it to None or step with NumPy arrays")

    def rejects(g1, g2):
        try:
            return bool(f(model, data, int(g1), int(g2)))
        except Exception as e:
            raise ContactFilterError(f"data.contact_filter raised {type(e).__name__}: {e} "
                                     f"(for geoms {int(g1)} and {int(g2)})") from e
    return rejects


def geom_pair_filter(model, gpos, gmat, rbound, g1, g2, explicit=None, pair=None, contact_filter=None):
    """Reason a geom pair is discarded by rules 6-8 (a string), or ``None`` to keep it.

    ``explicit`` is the list of explicit pairs of this body pair (they replace the dynamic
    pair of the same two geoms); ``pair`` is the explicit pair being tested, if any;
    ``contact_filter`` (from :func:`user_contact_filter`), if given, replaces the bitmask of
    a dynamic pair (reason ``"contact filter"``).
    """
    if pair is None:
        for q in explicit or ():
            if {q["geom1"], q["geom2"]} == {g1, g2}:
                return "explicit pair"
        if contact_filter is not None:
            # MuJoCo's midphase tree of a body holds only the geoms with a contype or a
            # conaffinity bit: one with neither never reaches the filter (flag midphase on)
            if not model.opt.disabled("midphase") and not (
                    (model.geom_contype[g1] | model.geom_conaffinity[g1]) and
                    (model.geom_contype[g2] | model.geom_conaffinity[g2])):
                return "no contype"
            if contact_filter(g1, g2):
                return "contact filter"
        elif bitmask_rejects(model.geom_contype[g1], model.geom_conaffinity[g1],
                           model.geom_contype[g2], model.geom_conaffinity[g2]):
            return "bitmask"
    margin, gap = pair_margin_gap(model, g1, g2, pair)
    if bounding_sphere_rejects(model, gpos, gmat, rbound, g1, g2, margin + gap):
        return "bounding sphere"
    if model.geom_type[g1] == PLANE and model.geom_type[g2] == PLANE:
        return "no collider"
    return None


def boxes_apart(model, gpos, gmat, aabb, g1, g2, margin) -> bool:
    r"""True if the oriented bounding boxes of ``g1`` and ``g2`` (``aabb``: geom-frame center
    and half-sizes, :func:`~rbdl_edu.collision.geometry.geom_aabb`), grown by ``margin``,
    are separated along one of their six face normals (MuJoCo's ``mj_collideOBB``).

    With centers :math:`c_i = x_i + R_i a_i`, half-sizes :math:`h_i`, :math:`d = c_2 - c_1`
    and :math:`C = R_1^T R_2`, the boxes are apart along box 1's axes or box 2's when

    .. math:: |R_1^T d| > h_1 + |C|\,h_2 + m \quad\text{or}\quad |R_2^T d| > |C|^T h_1 + h_2 + m

    (componentwise, in some component). Planes are unbounded: never apart.
    """
    if PLANE in (model.geom_type[g1], model.geom_type[g2]):
        return False
    R1, R2, h1, h2 = gmat[g1], gmat[g2], aabb[g1, 3:], aabb[g2, 3:]
    d = gpos[g2] + R2 @ aabb[g2, :3] - gpos[g1] - R1 @ aabb[g1, :3]
    C = np.abs(R1.T @ R2)
    return bool((np.abs(d @ R1) > h1 + C @ h2 + margin).any() or (np.abs(d @ R2) > h1 @ C + h2 + margin).any())


def segment_distance(p1, A1, p2, A2) -> float:
    r"""Distance of the segments :math:`p_1 + s A_1` and :math:`p_2 + t A_2`, :math:`s, t \in
    [-1, 1]` (Ericson's closest points of two segments, zero lengths included).

    >>> z = np.zeros(3)
    >>> segment_distance(z, np.array([1.0, 0, 0]), np.array([0, 2.0, 3]), np.array([0, 0, 1.0]))
    2.8284271247461903
    """
    d1, d2, r = 2 * A1, 2 * A2, (p1 - A1) - (p2 - A2)           # [0, 1] on each, from its start
    a, e, f = d1 @ d1, d2 @ d2, d2 @ r
    if a <= 1e-30 and e <= 1e-30:
        s = t = 0.0
    elif a <= 1e-30:
        s, t = 0.0, min(max(f / e, 0.0), 1.0)
    else:
        c = d1 @ r
        if e <= 1e-30:
            s, t = min(max(-c / a, 0.0), 1.0), 0.0
        else:
            b = d1 @ d2
            denom = a * e - b * b
            s = min(max((b * f - c * e) / denom, 0.0), 1.0) if denom > 1e-30 * a * e else 0.0
            t = (b * s + f) / e
            if t < 0:
                s, t = min(max(-c / a, 0.0), 1.0), 0.0
            elif t > 1:
                s, t = min(max((b - c) / a, 0.0), 1.0), 1.0
    v = r + s * d1 - t * d2
    return float(np.sqrt(v @ v))


def capsules_apart(model, gpos, gmat, g1, g2, margin) -> bool:
    r"""True if capsules that hold ``g1`` and ``g2``
    (:func:`~rbdl_edu.collision.geometry.geom_capsule`) are farther apart than ``margin``
    (by a hair more: round-off): no contact is possible. Ours, not MuJoCo's: a last cheap test
    before an iterating collider (GJK/EPA), where the oriented boxes of a long geom overlap
    much more than the geom does (a thin rod beside a big cylinder). With segments
    :math:`x_i \pm h_i a_i` and radii :math:`r_i`: :math:`d_{seg} - r_1 - r_2 > m`.
    """
    axis, half, radius = geom_capsule(model)
    r1, r2 = radius[g1], radius[g2]
    if r1 == np.inf or r2 == np.inf:                  # a plane, a height field
        return False
    A1, A2 = gmat[g1][:, axis[g1]] * half[g1], gmat[g2][:, axis[g2]] * half[g2]
    return segment_distance(gpos[g1], A1, gpos[g2], A2) - r1 - r2 > margin + 1e-9 * (1 + r1 + r2)
