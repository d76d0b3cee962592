"""Geom poses in the world and the two bounding volumes every stage uses.

* ``geom_xpos (ngeom, 3)``, ``geom_xmat (ngeom, 3, 3)``: the geom frame in the world,
  :math:`x_g = x_b + R_b\\,p_g`, :math:`R_g = R_b\\,R(q_g)` with ``(p_g, q_g)`` the geom's
  pose in its body frame.
* ``geom_rbound (ngeom,)``: radius of a sphere about the geom center that holds the geom
  (0 for planes, which are unbounded) -- the *bounding-sphere* filter.
* ``geom_aabb (ngeom, 6)``: center and half-sizes of a box in the geom frame that holds
  the geom -- the sweep-and-prune boxes are built from it.
* ``geom_capsule``: a capsule that holds the geom (ours, not MuJoCo's: a last cheap test
  before an iterating collider, :func:`~rbdl_edu.collision.filters.capsules_apart`).

Both bounds are what MuJoCo's compiler stores in ``mjModel.geom_rbound``/``geom_aabb``.
"""
from __future__ import annotations

import numpy as np

from rbdl_edu.cache import per_model
from rbdl_edu.kinematics import forward_kinematics
from rbdl_edu.model.enums import BOX, CAPSULE, CYLINDER, ELLIPSOID, HFIELD, MESH, PLANE, SPHERE
from rbdl_edu.rotation import quat_to_mat


def mesh_vertices(model, g):
    """Vertices ``(nvert, 3)`` of mesh geom ``g`` in the geom frame (the mesh's principal
    frame): ``mesh_vert[mesh_vertadr[k] : mesh_vertadr[k] + mesh_vertnum[k]]``, ``k = geom_dataid[g]``.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); _ = s.add_mesh("tri", np.eye(3), [[0, 1, 2]])
    >>> _ = s.add_geom(0, "mesh", None, mesh="tri")
    >>> mesh_vertices(s.compile(), 0)[0]
    array([1., 0., 0.])
    """
    k = model.geom_dataid[g]
    if k < 0:
        raise ValueError(f"geom {g} has no mesh (geom_dataid = -1)")
    adr = model.mesh_vertadr[k]
    return model.mesh_vert[adr:adr + model.mesh_vertnum[k]]


@per_model
def geom_rbound(model):
    """Bounding-sphere radius of every geom, ``(ngeom,)``; 0 for planes (once per model).

    sphere ``r``; capsule ``r + h``; cylinder ``√(r² + h²)``; ellipsoid ``max(a, b, c)``;
    box ``|(a, b, c)|``; mesh: the farthest vertex from the geom center; height field of
    ``hfield_size`` ``(a, b, e, d)``: ``√(a² + b² + max(e, d)²)`` (MuJoCo's bound).

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); b = s.add_body(0); _ = s.add_geom(b, "box", [1, 2, 2])
    >>> geom_rbound(s.compile())
    array([3.])
    """
    r = np.zeros(model.ngeom)
    for g in range(model.ngeom):
        t, s = model.geom_type[g], model.geom_size[g]
        if t == SPHERE:
            r[g] = s[0]
        elif t == CAPSULE:
            r[g] = s[0] + s[1]
        elif t == CYLINDER:
            r[g] = np.hypot(s[0], s[1])
        elif t == ELLIPSOID:
            r[g] = s.max()
        elif t == BOX:
            r[g] = np.linalg.norm(s)
        elif t == MESH:
            r[g] = np.linalg.norm(mesh_vertices(model, g), axis=1).max()
        elif t == HFIELD:
            a, b, e, d = model.hfield_size[model.geom_dataid[g]]
            r[g] = np.sqrt(a * a + b * b + max(e * e, d * d))
    return r


@per_model
def geom_capsule(model):
    r"""A capsule that holds each geom: ``axis (ngeom,)`` (the geom-frame axis of its segment),
    ``half (ngeom,)`` (the segment's half-length), ``radius (ngeom,)`` (``inf`` for planes
    and height fields: unbounded), once per model.

    sphere: its center, ``r``; capsule, cylinder: their axis, ``h``, ``r``; ellipsoid of
    semi-axes :math:`a \ge b \ge c`: along :math:`a`, :math:`a - b`, :math:`b` (a point
    with :math:`|x| > a - b` lies within :math:`b` of the segment's end since
    :math:`(|x| - a + b)^2 + b^2 (1 - x^2/a^2) \le b^2` for :math:`|x| \le a`); box: along its
    longest edge, half of it, the half-diagonal of the cross-section; mesh: its bounding sphere.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); b = s.add_body(0); _ = s.add_geom(b, "ellipsoid", [0.1, 0.3, 0.2])
    >>> [float(x[0]) for x in geom_capsule(s.compile())]
    [1.0, 0.09999999999999998, 0.2]
    """
    axis, half, radius = np.full(model.ngeom, 2), np.zeros(model.ngeom), np.full(model.ngeom, np.inf)
    for g in range(model.ngeom):
        t, s = model.geom_type[g], np.asarray(model.geom_size[g], dtype=float)
        if t in (SPHERE, CAPSULE, CYLINDER):
            half[g], radius[g] = (0.0 if t == SPHERE else s[1]), s[0]
        elif t in (ELLIPSOID, BOX):
            k, m, n = np.argsort(-s[:3], kind="stable")             # longest axis first
            axis[g] = k
            half[g], radius[g] = (s[k] - s[m], s[m]) if t == ELLIPSOID else (s[k], np.hypot(s[m], s[n]))
        elif t == MESH:
            radius[g] = geom_rbound(model)[g]
    return axis, half, radius


@per_model
def geom_aabb(model):
    """Geom-frame bounding box of every geom, ``(ngeom, 6)`` = center (3), half-sizes (3)
    (once per model).

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); b = s.add_body(0); _ = s.add_geom(b, "capsule", [0.1, 0.5])
    >>> geom_aabb(s.compile())
    array([[0. , 0. , 0. , 0.1, 0.1, 0.6]])
    """
    box = np.zeros((model.ngeom, 6))
    for g in range(model.ngeom):
        t, s = model.geom_type[g], model.geom_size[g]
        if t == SPHERE:
            box[g, 3:] = s[0]
        elif t == CAPSULE:
            box[g, 3:] = [s[0], s[0], s[0] + s[1]]
        elif t == CYLINDER:
            box[g, 3:] = [s[0], s[0], s[1]]
        elif t in (ELLIPSOID, BOX):
            box[g, 3:] = s
        elif t == MESH:
            v = mesh_vertices(model, g)
            lo, hi = v.min(axis=0), v.max(axis=0)
            box[g] = np.concatenate([(lo + hi) / 2, (hi - lo) / 2])
        elif t == HFIELD:   # the grid's rectangle, from the base's bottom to the top elevation
            a, b, e, d = model.hfield_size[model.geom_dataid[g]]
            box[g] = [0.0, 0.0, (e - d) / 2, a, b, (e + d) / 2]
        elif t == PLANE:    # infinite where the size is 0; zero thickness
            big = 1e10
            box[g, 3:] = [s[0] or big, s[1] or big, 0.0]
    return box


def geom_poses(model, q):
    """World position ``(ngeom, 3)`` and orientation ``(ngeom, 3, 3)`` of every geom at ``q``.

    :math:`x_g = x_b + R_b p_g`,  :math:`R_g = R_b R(q_g)`.

    >>> from rbdl_edu.model.spec import ModelSpec
    >>> s = ModelSpec(); b = s.add_body(0, pos=[0, 0, 1]); _ = s.add_geom(b, "sphere", [0.1], pos=[1, 0, 0])
    >>> geom_poses(s.compile(), [])[0]
    array([[1., 0., 1.]])
    """
    xpos, xmat = forward_kinematics(model, np.asarray(q, dtype=float))
    b = model.geom_bodyid
    R_geom = np.array([quat_to_mat(qg) for qg in model.geom_quat]).reshape(-1, 3, 3)
    gpos = xpos[b] + np.einsum("gij,gj->gi", xmat[b], model.geom_pos)
    gmat = xmat[b] @ R_geom
    return gpos, gmat
