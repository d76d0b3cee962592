"""Boxes and meshes as polytopes: vertices, faces (polygons with outward normals) and the
features two of them touch with.

GJK and EPA (:mod:`~rbdl_edu.collision.convex`) see a shape only through its support
function and give one contact point. Where a face rests on a face, the contact is a patch,
and MuJoCo 4.0 recovers its corners by clipping one face against the other
(:mod:`~rbdl_edu.collision.clipping`). That needs the faces themselves:

* a **box** of half-sizes :math:`h` has the 8 corners :math:`(\\pm h_x, \\pm h_y, \\pm h_z)`,
  corner :math:`i` taking :math:`+h_k` where bit :math:`k` of :math:`i` is set (MuJoCo's
  numbering), and 6 square faces;
* a **mesh** collides as its convex hull; its faces are the hull's triangles merged where
  they lie in one plane (a cube's 12 triangles make 6 squares), as MuJoCo's compiler
  merges them into polygons.

Every face is a loop of vertex indices, **clockwise** seen from outside (looking against
the outward normal :math:`n_f`), MuJoCo's order for the clipping.

The **feature** of a polytope along a direction :math:`d` is the set of vertices that
reach the support height :math:`\\max_v d\\cdot v` (to a tolerance): one vertex, an edge
or a face. The faces that hold it are the candidates for a face contact.
"""
from __future__ import annotations

import numpy as np
from scipy.spatial import ConvexHull, QhullError

from rbdl_edu.cache import per_model
from rbdl_edu.collision.geometry import mesh_vertices
from rbdl_edu.model.enums import BOX, MESH

FEATURE_TOL = 1e-9        # vertices this close (relative to the shape's size) to the support height
PLANE_TOL = 1e-7          # hull triangles whose planes agree this well are one face
#: a box's faces +x, -x, +y, -y, +z, -z as corner loops, clockwise from outside, each starting
#: where MuJoCo's starts (the order of the clipped points, and of the contacts, follows it)
BOX_FACES = ((7, 3, 1, 5), (2, 6, 4, 0), (2, 3, 7, 6), (4, 5, 1, 0), (6, 7, 5, 4), (3, 2, 0, 1))


class Polytope:
    """A box or a mesh in its geom frame: ``vert`` (n, 3), ``faces`` (loops of indices,
    clockwise from outside), ``normal`` (nface, 3) outward, ``vert_faces`` (faces at each
    vertex, in face order) and ``size`` (the largest vertex distance from the origin)."""

    def __init__(self, vert, faces, normal):
        self.vert, self.faces, self.normal = vert, faces, normal
        self.vert_faces = [[f for f, loop in enumerate(faces) if v in loop] for v in range(len(vert))]
        self.size = float(np.max(np.linalg.norm(vert, axis=1))) if len(vert) else 0.0

    def feature(self, d):
        """Indices of the vertices at the support height along ``d`` (geom frame)."""
        h = self.vert @ d
        return np.flatnonzero(h >= h.max() - FEATURE_TOL * max(self.size, 1e-300))

    def faces_at(self, feature):
        """Faces holding every vertex of ``feature`` (a vertex: all its faces; an edge: its two)."""
        out = self.vert_faces[feature[0]]
        return [f for f in out if all(f in self.vert_faces[v] for v in feature[1:])]

    def edges_at(self, feature):
        """Edges ``(i, j)`` from ``feature``: the edge itself, or every edge at a vertex."""
        if len(feature) == 2:
            return [(int(feature[0]), int(feature[1]))]
        v = int(feature[0])
        out = []
        for f in self.vert_faces[v]:
            loop = self.faces[f]
            k = loop.index(v)
            w = loop[k - 1]                         # the previous vertex of the loop
            if (v, w) not in out:
                out.append((v, w))
        return out


def box_polytope(h):
    """The box of half-sizes ``h``: corner ``i`` = ``(±h_x, ±h_y, ±h_z)`` with ``+`` where bit
    ``k`` of ``i`` is set; faces ``+x, -x, +y, -y, +z, -z``.

    >>> P = box_polytope(np.array([1.0, 2.0, 3.0]))
    >>> P.vert[5], P.faces[4], P.normal[4]
    (array([ 1., -2.,  3.]), [6, 7, 5, 4], array([0., 0., 1.]))
    """
    h = np.asarray(h, dtype=float)
    bits = (np.arange(8)[:, None] >> np.arange(3)) & 1
    vert = np.where(bits, h, -h)
    normal = np.repeat(np.eye(3), 2, axis=0) * np.tile([[1.0], [-1.0]], (3, 1))     # +x, -x, +y, ...
    return Polytope(vert, [list(f) for f in BOX_FACES], normal)


def hull_polytope(vert):
    """The convex hull of the points ``vert`` with coplanar triangles merged into polygons.

    >>> cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], float)
    >>> P = hull_polytope(cube)
    >>> len(P.faces), sorted(len(f) for f in P.faces)
    (6, [4, 4, 4, 4, 4, 4])
    """
    vert = np.asarray(vert, dtype=float)
    try:
        hull = ConvexHull(vert)
    except QhullError:                              # flat or degenerate: no faces to clip
        return Polytope(vert, [], np.zeros((0, 3)))
    scale = max(float(np.max(np.abs(vert))), 1e-300)
    faces, normal = [], []
    for eq in hull.equations:                       # n·x + c <= 0 inside
        n, c = eq[:3], eq[3]
        if any(m @ n > 1 - PLANE_TOL for m in normal):
            continue                                # this plane's polygon is made already
        on = [int(v) for v in hull.vertices if abs(vert[v] @ n + c) <= PLANE_TOL * scale]
        faces.append(_clockwise(vert, on, n))
        normal.append(n / np.linalg.norm(n))
    return Polytope(vert, faces, np.array(normal))


def _clockwise(vert, on, n):
    """The vertices ``on`` of a convex face with outward normal ``n``, ordered clockwise when
    seen from outside (decreasing angle about the face's centroid), from the lowest index."""
    P = vert[on]
    c = P.mean(axis=0)
    u = P[0] - c
    u = u / np.linalg.norm(u)
    w = np.cross(n, u)
    angle = np.arctan2((P - c) @ w, (P - c) @ u)
    loop = [on[i] for i in np.argsort(-angle, kind="stable")]
    k = loop.index(min(loop))                       # start at the lowest index, as MuJoCo often does
    return loop[k:] + loop[:k]


@per_model
def geom_polytope(model, g):
    """The polytope of box or mesh geom ``g`` (computed once per model)."""
    if model.geom_type[g] == BOX:
        return box_polytope(model.geom_size[g])
    if model.geom_type[g] == MESH:
        return hull_polytope(mesh_vertices(model, g))
    raise ValueError(f"geom {g}: type {model.geom_type[g]} is not a polytope (box or mesh)")
